/*
 * bench_analysis.c - what a measured phase means: summaries of the
 * per-second series without fio's start-up sample, credit-cliff detection,
 * latency bimodality (p50 vs p95), Little's law (mean latency against
 * queue depth / IOPS) and the model's expectation for the volume.  Pure
 * math over structs: no I/O, no database, no globals.
 */
#include "ebsize/bench.h"

#include <math.h>
#include <string.h>

#include "ebsize/model.h"

/* A later level below this fraction of the earlier one is a cliff. */
#define CLIFF_MAX_RATIO 0.75
/* Samples needed on each side of a cliff. */
#define CLIFF_MIN_SIDE 3
/* p95 at least this many times p50: two populations of latency. */
#define BIMODAL_RATIO 3.0

void bench_phase_result_init(struct bench_phase_result *p)
{
	memset(p, 0, sizeof(*p));
	p->runtime_s = p->iops = p->bw_mibps = NAN;
	p->lat_mean_ms = p->p50_ms = p->p95_ms = p->p99_ms = p->p999_ms = NAN;
	p->lat_total_ms = NAN;
	p->iops_min = p->iops_max = NAN;
	p->steady_iops = p->iops_stddev = p->first_sample_iops = NAN;
	p->cliff_t_s = p->iops_before_cliff = p->iops_after_cliff = NAN;
	p->cliff_drop_ratio = p->cliff_transition_s = NAN;
	p->p95_over_p50 = p->little_lat_ms = p->little_ratio = NAN;
	p->model_cliff_t_s = p->model_steady_iops = NAN;
	p->bimodal = -1;
	p->iodepth = p->numjobs = 1;
}

void bench_series_stats(const struct bench_sample *s, size_t n, size_t skip,
			struct bench_stats *out)
{
	double sum = 0, sq = 0;

	out->n = n > skip ? n - skip : 0;
	out->mean = out->min = out->max = out->stddev = NAN;
	if (!out->n)
		return;
	out->min = out->max = s[skip].iops;
	for (size_t i = skip; i < n; i++) {
		sum += s[i].iops;
		if (s[i].iops < out->min)
			out->min = s[i].iops;
		if (s[i].iops > out->max)
			out->max = s[i].iops;
	}
	out->mean = sum / (double)out->n;
	for (size_t i = skip; i < n; i++)
		sq += (s[i].iops - out->mean) * (s[i].iops - out->mean);
	out->stddev = sqrt(sq / (double)out->n);
}

/*
 * Index k (first of the later segment) minimising the squared error of
 * two constant levels over s[1..n-1], using prefix sums.  0 if none.
 */
static size_t best_split(const struct bench_sample *s, size_t n)
{
	double tot = 0, tot2 = 0, left = 0, left2 = 0, best = INFINITY;
	size_t k_best = 0;

	for (size_t i = 1; i < n; i++) {
		tot += s[i].iops;
		tot2 += s[i].iops * s[i].iops;
	}
	for (size_t k = 2; k + CLIFF_MIN_SIDE <= n; k++) {
		double nl, nr, sse;

		left += s[k - 1].iops;
		left2 += s[k - 1].iops * s[k - 1].iops;
		if (k - 1 < CLIFF_MIN_SIDE)
			continue;
		nl = (double)(k - 1);
		nr = (double)(n - k);
		sse = (left2 - left * left / nl) +
		      ((tot2 - left2) - (tot - left) * (tot - left) / nr);
		if (sse < best) {
			best = sse;
			k_best = k;
		}
	}
	return k_best;
}

static double mean_of(const struct bench_sample *s, size_t from, size_t to)
{
	double sum = 0;

	for (size_t i = from; i < to; i++)
		sum += s[i].iops;
	return to > from ? sum / (double)(to - from) : NAN;
}

void bench_detect_cliff(const struct bench_sample *s, size_t n,
			struct bench_cliff *out)
{
	size_t k, hi, lo;
	double before, after, band;

	memset(out, 0, sizeof(*out));
	out->t_s = out->iops_before = out->iops_after = NAN;
	out->drop_ratio = out->transition_s = NAN;
	if (n < 1 + 2 * CLIFF_MIN_SIDE || !(k = best_split(s, n)))
		return;
	before = mean_of(s, 1, k);
	after = mean_of(s, k, n);
	if (!(before > 0) || after >= CLIFF_MAX_RATIO * before)
		return;
	/* the transition: last sample still within 10 % of the drop of the
	 * high level, first sample within 10 % of it above the low level */
	band = 0.1 * (before - after);
	for (hi = k; hi > 1 && s[hi - 1].iops < before - band; hi--)
		;
	hi = hi ? hi - 1 : 0;
	for (lo = hi + 1; lo < n && s[lo].iops > after + band; lo++)
		;
	if (lo >= n)
		return;
	/* levels away from the transition, so it does not blur them */
	out->found = 1;
	out->iops_before = mean_of(s, 1, hi + 1);
	out->iops_after = mean_of(s, lo, n);
	out->drop_ratio = out->iops_after / out->iops_before;
	out->t_s = (double)s[hi + 1].t_ms / 1000.0;
	out->transition_s = (double)(s[lo].t_ms - s[hi].t_ms) / 1000.0;
}

void bench_analyse_phase(struct bench_phase_result *p,
			 const struct bench_sample *s, size_t n)
{
	struct bench_stats st;
	struct bench_cliff c;

	if (n) {
		bench_series_stats(s, n, n > 1 ? 1 : 0, &st);
		p->first_sample_iops = s[0].iops;
		p->steady_iops = st.mean;
		p->iops_stddev = st.stddev;
		p->iops_min = st.min;
		p->iops_max = st.max;
		p->samples = (long)n;
		bench_detect_cliff(s, n, &c);
		if (c.found) {
			p->cliff_t_s = c.t_s;
			p->iops_before_cliff = c.iops_before;
			p->iops_after_cliff = c.iops_after;
			p->cliff_drop_ratio = c.drop_ratio;
			p->cliff_transition_s = c.transition_s;
		}
	}
	if (p->p50_ms > 0 && !isnan(p->p95_ms)) {
		p->p95_over_p50 = p->p95_ms / p->p50_ms;
		p->bimodal = p->p95_over_p50 >= BIMODAL_RATIO;
	}
	if (p->iops > 0) {
		/* Little's law: in flight = throughput x time in system */
		p->little_lat_ms =
		    (double)(p->iodepth * p->numjobs) / p->iops * 1000.0;
		/* the time in system is the total latency; completion
		 * latency (all published runs give) leaves out submission */
		if (!isnan(p->lat_total_ms))
			p->little_ratio = p->lat_total_ms / p->little_lat_ms;
		else if (!isnan(p->lat_mean_ms))
			p->little_ratio = p->lat_mean_ms / p->little_lat_ms;
	}
}

int bench_model_expect(const char *volume_type, double size_gib, long iops,
		       double *cliff_t_s, double *steady_iops)
{
	struct vol_config cfg = { 0 };
	struct perf pf;

	*cliff_t_s = *steady_iops = NAN;
	if (!volume_type || model_type_parse(volume_type, &cfg.type) ||
	    !(size_gib >= 1))
		return -1;
	cfg.size_gib = (long)size_gib;
	cfg.iops = iops;
	cfg.count = 1;
	if (cfg.type == VT_GP3 && !cfg.iops)
		cfg.iops = 3000; /* included IOPS, ebs-facts.md T3 */
	model_perf(&cfg, &pf);
	*steady_iops = pf.baseline_iops;
	if (cfg.type == VT_GP2 && pf.burst_seconds > 0)
		*cliff_t_s = pf.burst_seconds;
	return 0;
}
