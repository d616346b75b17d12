/*
 * report_charts.c - the charts of the report and of --svg-dir, built from
 * ebsize's own results: bench runs (measured series, published summaries,
 * the burst simulator's modelled timeline), the solver's cost curves, the
 * gp2 bucket, compare/cheapest/burst output and scan totals.  Each chart
 * carries the table of the numbers it draws.
 *
 * Pure: structs in, struct report_chart out; no files, no database.  What
 * is measured is drawn as measured, what was published as published
 * points, and what the model says is labelled "modelled"; no measured
 * series is ever made up.
 */
#include "report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/burst.h"
#include "ebsize/model.h"
#include "ebsize/solver.h"

/* Vertices kept per burst line; longer runs are averaged per interval. */
#define BURST_MAX_POINTS 4000

/* ------------------------------------------------------------ helpers */

/* A growable polyline. */
struct line {
	double *x, *y;
	size_t n, alloc;
};

static void line_add(struct line *l, double x, double y)
{
	size_t a = l->alloc;

	xgrow((void **)&l->x, &a, l->n + 1, sizeof(*l->x));
	xgrow((void **)&l->y, &l->alloc, l->n + 1, sizeof(*l->y));
	l->x[l->n] = x;
	l->y[l->n] = y;
	l->n++;
}

/*
 * Add (x, y), dropping the previous vertex when it lies on the straight
 * line from the one before it to (x, y): a run of equal values or a
 * steady ramp keeps only its ends.
 */
static void line_add_bend(struct line *l, double x, double y)
{
	if (l->n && l->x[l->n - 1] == x && l->y[l->n - 1] == y)
		return; /* the same point again */
	if (l->n >= 2 && isfinite(y) && isfinite(l->y[l->n - 1]) &&
	    isfinite(l->y[l->n - 2])) {
		double x0 = l->x[l->n - 2], y0 = l->y[l->n - 2];
		double x1 = l->x[l->n - 1], y1 = l->y[l->n - 1];
		double cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
		double scale = fmax(1, fabs(y) + fabs(y0)) * fmax(1, x - x0);

		if (fabs(cross) <= MODEL_EPS * scale && x1 > x0 && x > x1) {
			l->x[l->n - 1] = x;
			l->y[l->n - 1] = y;
			return;
		}
	}
	line_add(l, x, y);
}

static void line_release(struct line *l)
{
	free(l->x);
	free(l->y);
	memset(l, 0, sizeof(*l));
}

static const char *type_of(const struct bench_run *r)
{
	return *r->volume_type ? r->volume_type : "unknown";
}

static void num(char *buf, size_t n, double v, int dec)
{
	report_fmt_num(buf, n, v, dec);
}

/* ------------------------------------------------------------ model */

struct steps {
	struct line *l;
	double cur;
	long last_t;
	int have;
};

/* Burst callback: record the step function of what is delivered. */
static void on_tick(long t, double demand, double delivered, double credits,
		    void *arg)
{
	struct steps *s = arg;

	(void)demand;
	(void)credits;
	if (!s->have) {
		line_add(s->l, 0, delivered);
		s->cur = delivered;
		s->have = 1;
	} else if (fabs(delivered - s->cur) > MODEL_EPS) {
		line_add(s->l, (double)(t - 1), s->cur);
		line_add(s->l, (double)(t - 1), delivered);
		s->cur = delivered;
	}
	s->last_t = t;
}

size_t report_model_series(const char *volume_type, double size_gib, long iops,
			   long seconds, double *t, double *v, size_t max,
			   double *demand)
{
	struct vol_config cfg = { 0 };
	struct line l = { 0 };
	struct perf pf;
	struct bucket b;
	size_t n;

	*demand = NAN;
	if (!volume_type || model_type_parse(volume_type, &cfg.type) ||
	    !(size_gib >= 1) || seconds < 1)
		return 0;
	if (cfg.type == VT_GP2) {
		struct burst_step step;
		struct burst_profile p = { &step, 1, 1 };
		struct burst_result r;
		struct steps s = { &l, 0, 0, 0 };

		burst_bucket(VT_GP2, size_gib, &b);
		/* at the volume's limit: qd32 random I/O asks for more than the ceiling */
		step.rate = b.ceiling;
		step.seconds = seconds;
		burst_simulate(&b, &p, b.capacity, on_tick, &s, &r);
		line_add(&l, (double)s.last_t, s.cur);
		*demand = b.ceiling;
	} else if (model_type_buys_iops(cfg.type)) {
		cfg.size_gib = (long)size_gib;
		cfg.iops = iops			? iops
			   : cfg.type == VT_GP3 ? 3000
						: 0; /* T3 included */
		cfg.count = 1;
		if (!cfg.iops)
			return 0;
		model_perf(&cfg, &pf);
		line_add(&l, 0, pf.baseline_iops);
		line_add(&l, (double)seconds, pf.baseline_iops);
		*demand = pf.baseline_iops;
	} else {
		return 0;
	}
	n = l.n < max ? l.n : max;
	for (size_t i = 0; i < n; i++) {
		t[i] = l.x[i];
		v[i] = l.y[i];
	}
	line_release(&l);
	return n;
}

/* ------------------------------------------------------------ bench */

static int has_iops_figure(const struct bench_phase_result *p)
{
	return isfinite(p->iops) || isfinite(p->steady_iops) ||
	       (isfinite(p->iops_before_cliff) &&
		isfinite(p->iops_after_cliff));
}

/* The phase of r to draw over time; NULL when none has an IOPS figure. */
static size_t iops_phase(const struct report_run *r, int *found)
{
	*found = 1;
	for (size_t i = 0; i < r->nphases; i++)
		if (r->samples && r->nsamples[i] >= 2)
			return i;
	for (size_t i = 0; i < r->nphases; i++)
		if (!strncmp(r->phases[i].rw, "rand", 4) &&
		    has_iops_figure(&r->phases[i]))
			return i;
	*found = 0;
	return 0;
}

static void bench_row(struct report_table *t, const char *series,
		      const char *kind, double t_s, double iops,
		      const char *note)
{
	char a[48], b[48];

	num(a, sizeof(a), t_s, t_s == floor(t_s) ? 0 : 3);
	num(b, sizeof(b), iops, iops == floor(iops) ? 0 : 1);
	report_table_add(t, series);
	report_table_add(t, kind);
	report_table_add(t, a);
	report_table_add(t, b);
	report_table_add(t, note ? note : "");
}

/* How long the phase ran (s): its runtime, else its last sample. */
static double phase_seconds(const struct report_run *r, size_t i)
{
	const struct bench_phase_result *p = &r->phases[i];

	if (r->samples && r->nsamples[i])
		return (double)r->samples[i][r->nsamples[i] - 1].t_ms / 1000.0;
	return isfinite(p->runtime_s) && p->runtime_s > 0 ? p->runtime_s : 60;
}

static void draw_measured(struct svg_chart *svg, struct report_table *t,
			  const struct report_run *r, size_t i)
{
	const struct bench_sample *s = r->samples[i];
	size_t n = r->nsamples[i];
	double *x = xmalloc(n * sizeof(*x)), *y = xmalloc(n * sizeof(*y));
	struct svg_style st;
	char *name =
	    xstrfmt("%s: measured (%s)", r->run->label, r->phases[i].phase);

	svg_style_for(type_of(r->run), &st);
	st.dash = NULL;
	st.width = 1.25;
	for (size_t k = 0; k < n; k++) {
		x[k] = (double)s[k].t_ms / 1000.0;
		y[k] = s[k].iops;
		bench_row(t, r->run->label, "measured", x[k], y[k], NULL);
	}
	svg_chart_series(svg, SVG_LINE, name, &st, x, y, n);
	free(name);
	free(x);
	free(y);
}

/* Published (or stored) summary levels: the averages before and after a
 * cliff, or over the whole phase, as thick segments. */
static void draw_levels(struct svg_chart *svg, struct report_table *t,
			const struct report_run *r, size_t i)
{
	const struct bench_phase_result *p = &r->phases[i];
	const char *kind = !strcmp(r->run->source, "published")
			       ? "published average"
			       : "summary average";
	double end = phase_seconds(r, i), x[5], y[5];
	char *name = xstrfmt("%s: %s (%s)", r->run->label,
			     !strcmp(r->run->source, "published") ? "published"
								  : "summary",
			     p->phase);
	char note[96], a[32], b[32];
	struct svg_style st;
	size_t n;

	svg_style_for(type_of(r->run), &st);
	st.dash = NULL;
	st.width = 5;
	if (isfinite(p->cliff_t_s) && isfinite(p->iops_before_cliff) &&
	    isfinite(p->iops_after_cliff)) {
		double c = p->cliff_t_s;
		/* the low level starts at the first low sample: the last high
		 * one (c - 1) plus the transition, when that is known */
		double low = isfinite(p->cliff_transition_s)
				 ? c - 1 + p->cliff_transition_s
				 : c;

		x[0] = 0, y[0] = p->iops_before_cliff;
		x[1] = c, y[1] = p->iops_before_cliff;
		x[2] = c, y[2] = NAN;
		x[3] = low, y[3] = p->iops_after_cliff;
		x[4] = end, y[4] = p->iops_after_cliff;
		n = 5;
		num(a, sizeof(a), c, 0);
		xsnprintf(note, sizeof(note), "average over 0-%s s", a);
		bench_row(t, r->run->label, kind, 0, y[0], note);
		bench_row(t, r->run->label, kind, c, y[1], note);
		num(a, sizeof(a), low, 0);
		num(b, sizeof(b), end, 0);
		xsnprintf(note, sizeof(note), "average over %s-%s s", a, b);
		bench_row(t, r->run->label, kind, low, y[3], note);
		bench_row(t, r->run->label, kind, end, y[4], note);
	} else {
		double v = isfinite(p->iops) ? p->iops : p->steady_iops;

		x[0] = 0, y[0] = v;
		x[1] = end, y[1] = v;
		n = 2;
		num(b, sizeof(b), end, 0);
		xsnprintf(note, sizeof(note), "average over 0-%s s", b);
		if (isfinite(p->iops_min) && isfinite(p->iops_max)) {
			num(a, sizeof(a), p->iops_min, 0);
			num(b, sizeof(b), p->iops_max, 0);
			xsnprintf(note + strlen(note),
				  sizeof(note) - strlen(note),
				  " (min %s, max %s)", a, b);
		}
		bench_row(t, r->run->label, kind, 0, v, note);
		bench_row(t, r->run->label, kind, end, v, note);
	}
	svg_chart_series(svg, SVG_LINE, name, &st, x, y, n);
	free(name);
}

/* The cliff as published or measured: a rule at its time, labelled. */
static void draw_cliff(struct svg_chart *svg, struct report_table *t,
		       const struct report_run *r, size_t i, int measured)
{
	const struct bench_phase_result *p = &r->phases[i];
	const char *kind = measured ? "measured cliff"
			   : !strcmp(r->run->source, "published")
			       ? "published cliff"
			       : "summary cliff";
	char at[32], before[32], after[32], note[96], *label;

	if (!isfinite(p->cliff_t_s) || !isfinite(p->iops_before_cliff) ||
	    !isfinite(p->iops_after_cliff))
		return;
	num(at, sizeof(at), p->cliff_t_s, 0);
	num(before, sizeof(before), p->iops_before_cliff, 0);
	num(after, sizeof(after), p->iops_after_cliff, 0);
	xsnprintf(note, sizeof(note), "%s -> %s IOPS", before, after);
	bench_row(t, r->run->label, kind, p->cliff_t_s, p->iops_after_cliff,
		  note);
	label = xstrfmt("%s: %s at %s s, %s \xe2\x86\x92 %s IOPS",
			r->run->label, kind, at, before, after);
	svg_chart_annotate(svg, p->cliff_t_s, NAN, label);
	free(label);
}

static void draw_model(struct svg_chart *svg, struct report_table *t,
		       const struct report_run *r, size_t i)
{
	const struct bench_run *run = r->run;
	double x[8], y[8], demand;
	size_t n;
	struct svg_style st;
	char size[32], dem[32], note[128], *name;

	if (strncmp(r->phases[i].rw, "rand", 4))
		return;
	n = report_model_series(run->volume_type, run->size_gib, run->iops,
				(long)ceil(phase_seconds(r, i)), x, y,
				ARRAY_SIZE(x), &demand);
	if (!n)
		return;
	num(size, sizeof(size), run->size_gib, 0);
	num(dem, sizeof(dem), demand, 0);
	if (!strcmp(run->volume_type, "gp2"))
		xsnprintf(
		    note, sizeof(note),
		    "gp2 %s GiB from a full bucket, asked for its %s IOPS ceiling",
		    size, dem);
	else
		xsnprintf(note, sizeof(note), "%s %s GiB at its %s IOPS",
			  run->volume_type, size, dem);
	name = xstrfmt("%s: modelled", run->label);
	svg_style_for(run->volume_type, &st);
	if (!st.dash)
		st.dash = "6 4";
	st.width = 2;
	svg_chart_series(svg, SVG_LINE, name, &st, x, y, n);
	for (size_t k = 0; k < n; k++)
		bench_row(t, run->label, "modelled", x[k], y[k], note);
	for (size_t k = 0; k + 2 < n; k++) {
		if (x[k + 1] == x[k + 2] && y[k + 2] < y[k + 1]) {
			char at[32], a[32], b[32], *lab;

			num(at, sizeof(at), x[k + 1], 0);
			num(a, sizeof(a), y[k + 1], 0);
			num(b, sizeof(b), y[k + 2], 0);
			lab = xstrfmt(
			    "%s: modelled cliff at %s s, %s \xe2\x86\x92 %s IOPS",
			    run->label, at, a, b);
			svg_chart_annotate(svg, x[k + 1], NAN, lab);
			free(lab);
			break;
		}
	}
	free(name);
}

/* Runs by how long their drawn phase lasted, longest first, so shorter
 * levels are drawn over longer ones and stay visible. */
struct by_len {
	const struct report_run *r;
	size_t phase;
	double seconds;
};

static int cmp_len(const void *a, const void *b)
{
	const struct by_len *x = a, *y = b;

	return x->seconds > y->seconds ? -1 : x->seconds < y->seconds;
}

/* The runs that have something to draw, longest phase first; *m of them
 * (heap, caller frees). */
static struct by_len *order_runs(const struct report_run *runs, size_t n,
				 size_t *m)
{
	struct by_len *order = xcalloc(n ? n : 1, sizeof(*order));

	*m = 0;
	for (size_t k = 0; k < n; k++) {
		int found;
		size_t i = iops_phase(&runs[k], &found);

		if (!found)
			continue;
		order[*m].r = &runs[k];
		order[*m].phase = i;
		order[(*m)++].seconds = phase_seconds(&runs[k], i);
	}
	qsort(order, *m, sizeof(*order), cmp_len);
	return order;
}

struct report_chart *report_chart_iops(const char *name, const char *title,
				       const struct report_run *runs, size_t n)
{
	static const char *const cols[] = { "Series", "Kind", "t (s)", "IOPS",
					    "Note" };
	struct report_table t = { 0 };
	struct svg_chart *svg;
	size_t m;
	struct by_len *order = order_runs(runs, n, &m);

	if (!m) {
		free(order);
		return NULL;
	}
	svg = svg_chart_new(
	    name, title,
	    "IOPS over time. Measured series are per-second fio samples; "
	    "published runs have summaries only (averages and cliff points, "
	    "drawn as thick segments, never as a series); modelled lines come "
	    "from ebsize's credit-bucket simulator at the volume's limit from "
	    "a full bucket.");
	svg_chart_axis(svg, 'x', "Time since the phase started",
		       SVG_UNIT_SECONDS, SVG_LINEAR);
	svg_chart_axis(svg, 'y', "IOPS", SVG_UNIT_IOPS, SVG_LINEAR);
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	/* what was measured or published first, then the cliffs and the model
	 * on top */
	for (size_t k = 0; k < m; k++) {
		const struct report_run *r = order[k].r;
		size_t i = order[k].phase;

		if (r->samples && r->nsamples[i] >= 2)
			draw_measured(svg, &t, r, i);
		else
			draw_levels(svg, &t, r, i);
	}
	for (size_t k = 0; k < m; k++)
		draw_cliff(svg, &t, order[k].r, order[k].phase,
			   order[k].r->samples &&
			       order[k].r->nsamples[order[k].phase] >= 2);
	for (size_t k = 0; k < m; k++)
		draw_model(svg, &t, order[k].r, order[k].phase);
	free(order);
	svg_chart_range(svg, 'y', 0, 0);
	svg_chart_range(svg, 'x', 0, 0);
	return report_chart_from(
	    name, title, svg,
	    "Thick segments: published (or stored) averages; thin lines: "
	    "measured per-second samples; dashed: modelled.",
	    &t);
}

static const struct bench_phase_result *phase_named(const struct report_run *r,
						    const char *phase)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->phases[i].phase, phase))
			return &r->phases[i];
	return NULL;
}

static int has_pct(const struct bench_phase_result *p)
{
	return p && (isfinite(p->p50_ms) || isfinite(p->p95_ms) ||
		     isfinite(p->p99_ms));
}

struct report_chart *report_chart_latency(const char *name, const char *title,
					  const struct report_run *runs,
					  size_t n, const char *phase)
{
	static const char *const cats[] = { "p50", "p95", "p99" };
	static const char *const cols[] = {
		"Run", "Volume", "Phase", "p50 (ms)", "p95 (ms)", "p99 (ms)"
	};
	struct report_table t = { 0 };
	struct svg_chart *svg;
	struct report_chart *c;
	int any = 0;

	svg = svg_chart_new(
	    name, title,
	    "Completion latency percentiles in milliseconds, one bar per run "
	    "and percentile; n/a where the figure was not measured or published.");
	svg_chart_axis(svg, 'x', "Percentile", SVG_UNIT_NONE, SVG_LINEAR);
	svg_chart_axis(svg, 'y', "Latency", SVG_UNIT_MS, SVG_LINEAR);
	svg_chart_categories(svg, cats, ARRAY_SIZE(cats), 0);
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	for (size_t k = 0; k < n; k++) {
		const struct bench_phase_result *p =
		    phase_named(&runs[k], phase);
		double y[3];
		struct svg_style st;
		char buf[48];

		if (!has_pct(p))
			continue;
		any = 1;
		y[0] = p->p50_ms, y[1] = p->p95_ms, y[2] = p->p99_ms;
		svg_style_for(type_of(runs[k].run), &st);
		svg_chart_series(svg, SVG_BARS, runs[k].run->label, &st, NULL,
				 y, 3);
		report_table_add(&t, runs[k].run->label);
		report_table_add(&t, type_of(runs[k].run));
		report_table_add(&t, p->phase);
		for (int j = 0; j < 3; j++) {
			num(buf, sizeof(buf), y[j], 3);
			report_table_add(&t, isfinite(y[j]) ? buf : "n/a");
		}
	}
	if (!any) {
		svg_chart_free(svg);
		report_table_release(&t);
		return NULL;
	}
	c = report_chart_from(name, title, svg, NULL, &t);
	return c;
}

/* ------------------------------------------------------------ cost curves */

enum { S_GP2, S_GP3, S_IO2, S_STRIPE, S_COUNT };

static const char *const series_type[S_COUNT] = { "gp2", "gp3", "io2",
						  "gp3-stripe" };

/* Where two series cross, for the label. */
struct crossing {
	double x, y;
	int cheaper, dearer; /* series indices after the crossing */
};

struct curve_ctx {
	const struct report_cost_input *in;
	int by_size;
	struct vol_config stripe_cfg; /* the last stripe evaluated */
};

/* The cheapest sustained set of type t with k volumes in lo..hi. */
static double best_set(const struct report_cost_input *in, enum vol_type t,
		       const struct need *nd, long lo, long hi,
		       struct vol_config *cfg)
{
	double best = NAN;
	char why[160];

	for (long k = lo; k <= hi; k++) {
		struct candidate o;

		if (!solver_best_of_type(&in->lim[t], &in->prices[t], nd, k, &o,
					 why, sizeof(why)))
			continue;
		if (isnan(best) || o.cost.total < best - MODEL_EPS) {
			best = o.cost.total;
			if (cfg)
				*cfg = o.cfg;
		}
	}
	return best;
}

/* Cost of the never-slower equivalent of gp2 `size` (as compare). */
static double like_gp2(const struct report_cost_input *in, enum vol_type t,
		       long size, struct vol_config *out)
{
	struct cost c;

	if (model_like_gp2(t, size, in->iops, 0, in->lim, out) ||
	    model_cost(&in->prices[t], out, &c))
		return NAN;
	return c.total;
}

/* Monthly cost of series s at x (IOPS or GiB); NAN where none qualifies. */
static double curve_at(struct curve_ctx *cx, int s, double x)
{
	const struct report_cost_input *in = cx->in;
	struct need nd = { 0 };
	struct vol_config gp3;

	if (!cx->by_size) {
		nd.iops = x;
		nd.size_gib = in->capacity_gib;
		nd.io_kib = in->io_kib;
		switch (s) {
		case S_GP2: return best_set(in, VT_GP2, &nd, 1, 1, NULL);
		case S_GP3: return best_set(in, VT_GP3, &nd, 1, 1, NULL);
		case S_IO2: return best_set(in, VT_IO2, &nd, 1, 1, NULL);
		default:
			return best_set(in, VT_GP3, &nd, 2, in->max_stripe,
					&cx->stripe_cfg);
		}
	}
	switch (s) {
	case S_GP2: return like_gp2(in, VT_GP2, (long)x, &gp3);
	case S_GP3: return like_gp2(in, VT_GP3, (long)x, &gp3);
	case S_IO2: return like_gp2(in, VT_IO2, (long)x, &gp3);
	default:
		if (model_like_gp2(VT_GP3, (long)x, in->iops, 0, in->lim, &gp3))
			return NAN;
		nd.iops = (double)gp3.iops;
		nd.mibps = (double)gp3.throughput_mibps;
		nd.size_gib = x;
		nd.io_kib = in->io_kib;
		return best_set(in, VT_GP3, &nd, 2, in->max_stripe,
				&cx->stripe_cfg);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sort and drop duplicates; returns the new count. */
static size_t sort_unique(double *v, size_t n)
{
	size_t o = 0;

	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (!o || v[i] != v[o - 1])
			v[o++] = v[i];
	return o;
}

/* Whole numbers 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k in lo..hi, and
 * lo and hi themselves, into a heap array (caller frees). */
static double *nice_grid(double lo, double hi, const long *extra, size_t nextra,
			 size_t *n)
{
	static const double m[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 };
	size_t alloc = 0, k = 0;
	double *g = NULL;

	for (double d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
		for (size_t i = 0; i < ARRAY_SIZE(m); i++) {
			double v = round(m[i] * d);

			if (v >= lo && v <= hi) {
				xgrow((void **)&g, &alloc, k + 1, sizeof(*g));
				g[k++] = v;
			}
		}
	xgrow((void **)&g, &alloc, k + 2 + nextra, sizeof(*g));
	g[k++] = lo;
	g[k++] = hi;
	for (size_t i = 0; i < nextra; i++)
		if ((double)extra[i] >= lo && (double)extra[i] <= hi)
			g[k++] = (double)extra[i];
	*n = sort_unique(g, k);
	return g;
}

static int sign_of(double d)
{
	return d > MODEL_EPS ? 1 : d < -MODEL_EPS ? -1 : 0;
}

/*
 * Crossings of series a and b between grid points: where the sign of
 * their difference flips, narrowed by bisection on whole numbers to the
 * first x with the new sign (x is IOPS or GiB, both whole).
 */
static size_t find_crossings(struct curve_ctx *cx, const double *g, size_t n,
			     double *const *val, int a, int b,
			     struct crossing *out, size_t max)
{
	size_t found = 0, last = 0;
	int s0 = 0;

	for (size_t i = 0; i < n && found < max; i++) {
		double d1 = val[a][i] - val[b][i], lo, hi;
		int s1 = sign_of(d1);

		if (!isfinite(d1)) {
			s0 = 0; /* a gap: start over after it */
			continue;
		}
		if (!s1)
			continue; /* equal here: the sign may flip later */
		if (!s0 || s0 == s1) {
			s0 = s1;
			last = i;
			continue;
		}
		lo = g[last];
		hi = g[i];
		while (hi - lo > 1) {
			double mid = floor((lo + hi) / 2);
			double d = curve_at(cx, a, mid) - curve_at(cx, b, mid);

			if (!isfinite(d))
				break;
			if (sign_of(d) == s0)
				lo = mid;
			else
				hi = mid;
		}
		out[found].x = hi;
		out[found].y = curve_at(cx, s1 < 0 ? a : b, hi);
		out[found].cheaper = s1 < 0 ? a : b;
		out[found].dearer = s1 < 0 ? b : a;
		found++;
		s0 = s1;
		last = i;
	}
	return found;
}

static const char *series_label(int s, int by_size)
{
	static const char *const iops[S_COUNT] = {
		"gp2", "gp3", "io2",
		"gp3 stripe (cheapest of 2 or more volumes)"
	};
	static const char *const size[S_COUNT] = {
		"gp2", "gp3 never slower than the gp2",
		"io2 with the gp3's IOPS",
		"gp3 stripe never slower than the gp2"
	};

	return by_size ? size[s] : iops[s];
}

/* The cost table: x, each series' cost, the stripe's shape. */
static void cost_table(struct report_table *t, struct curve_ctx *cx,
		       const double *g, size_t n, double *const *val)
{
	const char *cols[] = { cx->by_size ? "Size (GiB)" : "Required IOPS",
			       "gp2",
			       "gp3",
			       "io2",
			       "gp3 stripe",
			       "Stripe" };
	char buf[48];

	report_table_head(t, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < n; i++) {
		num(buf, sizeof(buf), g[i], 0);
		report_table_add(t, buf);
		for (int s = 0; s < S_COUNT; s++) {
			report_fmt_usd(buf, sizeof(buf), val[s][i]);
			report_table_add(t, isfinite(val[s][i]) ? buf : "none");
		}
		if (isfinite(val[S_STRIPE][i])) {
			curve_at(cx, S_STRIPE, g[i]);
			report_table_addf(
			    t, "%ld x gp3 %ld GiB, %ld IOPS, %ld MiB/s",
			    cx->stripe_cfg.count, cx->stripe_cfg.size_gib,
			    cx->stripe_cfg.iops,
			    cx->stripe_cfg.throughput_mibps);
		} else {
			report_table_add(t, "none");
		}
	}
}

/* The curves over a grid: g (*n points) and each series' values. */
struct curves {
	double *g;
	size_t n;
	double *val[S_COUNT];
	struct crossing cross[32];
	size_t nc;
};

static void evaluate(struct curve_ctx *cx, struct curves *cv)
{
	for (int s = 0; s < S_COUNT; s++) {
		cv->val[s] = xrealloc(cv->val[s], cv->n * sizeof(double));
		for (size_t i = 0; i < cv->n; i++)
			cv->val[s][i] = curve_at(cx, s, cv->g[i]);
	}
}

/* Find the crossings, then evaluate next to each one too, so that the
 * lines show the step where a rule changes (gp3's 250 MiB/s at 171 GiB). */
static void cross_and_refine(struct curve_ctx *cx, struct curves *cv)
{
	for (int a = 0; a < S_COUNT; a++)
		for (int b = a + 1; b < S_COUNT; b++)
			cv->nc += find_crossings(
			    cx, cv->g, cv->n, cv->val, a, b, cv->cross + cv->nc,
			    ARRAY_SIZE(cv->cross) - cv->nc);
	if (!cv->nc)
		return;
	cv->g = xrealloc(cv->g, (cv->n + 2 * cv->nc) * sizeof(*cv->g));
	for (size_t i = 0; i < cv->nc; i++) {
		cv->g[cv->n++] = cv->cross[i].x;
		cv->g[cv->n++] = cv->cross[i].x - 1;
	}
	cv->n = sort_unique(cv->g, cv->n);
	evaluate(cx, cv);
}

/* Label each crossing on the chart and, in words, in the caption. */
static char *label_crossings(struct svg_chart *svg, const struct curves *cv,
			     int by_size, const char *desc)
{
	struct sbuf cap = SBUF_INIT(1 << 16);

	sbuf_addstr(&cap, desc);
	for (size_t i = 0; i < cv->nc; i++) {
		const struct crossing *x = &cv->cross[i];
		char at[32], usd[32], *lab;

		num(at, sizeof(at), x->x, 0);
		report_fmt_usd(usd, sizeof(usd), x->y);
		lab = xstrfmt("from %s %s: %s cheaper than %s (%s)", at,
			      by_size ? "GiB" : "IOPS", series_type[x->cheaper],
			      series_type[x->dearer], usd);
		svg_chart_annotate(svg, x->x, x->y, lab);
		sbuf_addf(&cap, " Crossover: %s.", lab);
		free(lab);
	}
	return sbuf_detach(&cap, NULL);
}

static struct report_chart *cost_chart(const char *name,
				       const struct report_cost_input *in,
				       int by_size, double lo, double hi,
				       const char *title, const char *desc)
{
	struct curve_ctx cx = { in, by_size, { 0 } };
	struct curves cv = { 0 };
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	char *caption;

	cv.g = nice_grid(lo, hi, by_size ? in->sizes : NULL,
			 by_size ? in->nsizes : 0, &cv.n);
	evaluate(&cx, &cv);
	cross_and_refine(&cx, &cv);
	svg = svg_chart_new(name, title, desc);
	svg_chart_axis(svg, 'x', by_size ? "Size (gp2)" : "Required IOPS",
		       by_size ? SVG_UNIT_GIB : SVG_UNIT_IOPS, SVG_LOG);
	svg_chart_axis(svg, 'y', "Monthly cost (USD per month)", SVG_UNIT_USD,
		       SVG_LOG);
	for (int s = 0; s < S_COUNT; s++) {
		struct svg_style st;

		svg_style_for(series_type[s], &st);
		svg_chart_series(svg, SVG_LINE, series_label(s, by_size), &st,
				 cv.g, cv.val[s], cv.n);
	}
	caption = label_crossings(svg, &cv, by_size, desc);
	cost_table(&t, &cx, cv.g, cv.n, cv.val);
	c = report_chart_from(name, title, svg, caption, &t);
	free(caption);
	for (int s = 0; s < S_COUNT; s++)
		free(cv.val[s]);
	free(cv.g);
	return c;
}

struct report_chart *report_chart_cost_iops(const char *name,
					    const struct report_cost_input *in)
{
	char title[160], desc[512], cap[32], io[32];

	num(cap, sizeof(cap), in->capacity_gib, 0);
	num(io, sizeof(io), in->io_kib, 0);
	xsnprintf(title, sizeof(title),
		  "Monthly cost against required IOPS (%s GiB, %s)", cap,
		  in->region);
	xsnprintf(
	    desc, sizeof(desc),
	    "The cheapest single gp2, gp3 and io2 volume, and the cheapest stripe of "
	    "2 to %ld gp3 volumes, that sustain the IOPS (%s KiB I/O) with %s GiB "
	    "of capacity in %s, as 'ebsize cheapest' finds them; a line ends where "
	    "the type cannot. Prices: %s.",
	    in->max_stripe, io, cap, in->region, in->prices_note);
	return cost_chart(name, in, 0, 100, 256000, title, desc);
}

struct report_chart *report_chart_cost_size(const char *name,
					    const struct report_cost_input *in)
{
	char title[160], desc[512], iops[32];
	long lo = in->nsizes ? in->sizes[0] : 50, hi = lo;

	for (size_t i = 0; i < in->nsizes; i++) {
		lo = in->sizes[i] < lo ? in->sizes[i] : lo;
		hi = in->sizes[i] > hi ? in->sizes[i] : hi;
	}
	if (hi == lo)
		hi = lo + 1;
	num(iops, sizeof(iops), (double)in->iops, 0);
	xsnprintf(title, sizeof(title), "Monthly cost against size (%s)",
		  in->region);
	xsnprintf(
	    desc, sizeof(desc),
	    "A gp2 of each size against what is never slower than it, as 'ebsize "
	    "compare' chooses: gp3 with at least %s IOPS and 250 MiB/s above "
	    "170 GiB, io2 with the same IOPS, and the cheapest stripe of 2 to %ld "
	    "gp3 volumes with the same capacity, IOPS and MiB/s. Prices: %s.",
	    iops, in->max_stripe, in->prices_note);
	return cost_chart(name, in, 1, (double)lo, (double)hi, title, desc);
}

static void burst_row(struct report_table *t, double size, double seconds)
{
	char buf[48];

	num(buf, sizeof(buf), size, 0);
	report_table_add(t, buf);
	num(buf, sizeof(buf), model_gp2_baseline_iops(size), 0);
	report_table_add(t, buf);
	num(buf, sizeof(buf), model_gp2_burst_iops(size), 0);
	report_table_add(t, buf);
	num(buf, sizeof(buf), seconds, 0);
	report_table_add(t, buf);
	if (seconds < 5400)
		report_table_addf(t, "%.0f min", seconds / 60);
	else
		report_table_addf(t, "%.1f h", seconds / 3600);
}

/* The sizes asked for, as points on the curve (y: the curve's values). */
static void asked_points(struct svg_chart *svg, const double *g,
			 const double *y, size_t n, const long *sizes,
			 size_t nsizes)
{
	double *px = xmalloc((n ? n : 1) * sizeof(*px));
	double *py = xmalloc((n ? n : 1) * sizeof(*py));
	struct svg_style st;
	size_t np = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nsizes; k++)
			if ((double)sizes[k] == g[i]) {
				px[np] = g[i];
				py[np++] = y[i];
				break;
			}
	svg_style_for("gp2", &st);
	st.dash = NULL;
	st.mark = SVG_MARK_CIRCLE;
	if (np)
		svg_chart_series(svg, SVG_POINTS, "sizes asked for", &st, px,
				 py, np);
	free(px);
	free(py);
}

struct report_chart *report_chart_burst_sizes(const char *name,
					      double load_iops,
					      const long *sizes, size_t nsizes)
{
	static const char *const cols[] = { "Size (GiB)", "Baseline IOPS",
					    "Burst IOPS", "Bucket lasts (s)",
					    "Bucket lasts" };
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	struct svg_style st;
	double limit = 1000, *g, *y;
	size_t n;
	char title[128], desc[512], load[32], lim[32], *lab;

	/* T2: the bucket drains only while the load exceeds the baseline,
	 * 3 IOPS per GiB; at 1,000 GiB the baseline is the 3,000 ceiling */
	if (load_iops / 3 < limit)
		limit = ceil(load_iops / 3);
	g = nice_grid(1, limit - 1, sizes, nsizes, &n);
	y = xmalloc(n * sizeof(*y));
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < n; i++) {
		double s = model_gp2_seconds_to_empty(
		    g[i], GP2_BUCKET_CREDITS,
		    fmin(load_iops, model_gp2_burst_iops(g[i])));

		y[i] = s > 0 ? s : NAN;
		burst_row(&t, g[i], y[i]);
	}
	num(load, sizeof(load), load_iops, 0);
	num(lim, sizeof(lim), limit, 0);
	xsnprintf(title, sizeof(title),
		  "gp2 burst duration against size (%s IOPS)", load);
	xsnprintf(
	    desc, sizeof(desc),
	    "How long a full gp2 credit bucket (5.4 million I/O credits) lasts under "
	    "a steady %s IOPS, by size: 5,400,000 / (load - baseline), the load "
	    "capped at the 3,000 IOPS burst ceiling. From %s GiB the baseline "
	    "carries the load and the bucket never empties.",
	    load, lim);
	svg = svg_chart_new(name, title, desc);
	svg_chart_axis(svg, 'x', "Size", SVG_UNIT_GIB, SVG_LOG);
	svg_chart_axis(svg, 'y', "Bucket lasts", SVG_UNIT_SECONDS, SVG_LOG);
	svg_style_for("gp2", &st);
	st.mark = SVG_MARK_NONE;
	svg_chart_series(svg, SVG_LINE, "gp2 from a full bucket", &st, g, y, n);
	asked_points(svg, g, y, n, sizes, nsizes);
	lab = xstrfmt("from %s GiB: no cliff at %s IOPS", lim, load);
	svg_chart_annotate(svg, limit, NAN, lab);
	free(lab);
	c = report_chart_from(name, title, svg, desc, &t);
	free(g);
	free(y);
	return c;
}

/* ------------------------------------------------------------ commands */

struct report_chart *report_chart_compare(const char *name, const char *region,
					  const struct report_compare_row *rows,
					  size_t n)
{
	static const char *const cols[] = { "gp2 size (GiB)", "Type",
					    "Monthly (USD)" };
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	double lo = INFINITY, hi = 0;
	char title[128];

	xsnprintf(title, sizeof(title), "Monthly cost per gp2 size (%s)",
		  region);
	svg = svg_chart_new(
	    name, title,
	    "Each type's configuration that is never slower than the gp2 of "
	    "the size, as 'ebsize compare' lists them, and its monthly cost.");
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, (double)rows[i].gp2_size_gib);
		hi = fmax(hi, (double)rows[i].gp2_size_gib);
	}
	svg_chart_axis(svg, 'x', "Size (gp2)", SVG_UNIT_GIB,
		       n && hi >= 20 * lo ? SVG_LOG : SVG_LINEAR);
	svg_chart_axis(svg, 'y', "Monthly cost (USD per month)", SVG_UNIT_USD,
		       SVG_LOG);
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	for (int ty = 0; ty < VT_COUNT; ty++) {
		double *x = xmalloc((n ? n : 1) * sizeof(*x)),
		       *y = xmalloc((n ? n : 1) * sizeof(*y));
		size_t k = 0;
		struct svg_style st;

		for (size_t i = 0; i < n; i++)
			if ((int)rows[i].type == ty) {
				x[k] = (double)rows[i].gp2_size_gib;
				y[k++] = rows[i].usd_per_month;
			}
		if (k) {
			svg_style_for(model_type_name((enum vol_type)ty), &st);
			svg_chart_series(svg, SVG_LINE,
					 model_type_name((enum vol_type)ty),
					 &st, x, y, k);
		}
		free(x);
		free(y);
	}
	for (size_t i = 0; i < n; i++) {
		char buf[48];

		num(buf, sizeof(buf), (double)rows[i].gp2_size_gib, 0);
		report_table_add(&t, buf);
		report_table_add(&t, model_type_name(rows[i].type));
		report_fmt_usd(buf, sizeof(buf), rows[i].usd_per_month);
		report_table_add(&t, buf);
	}
	c = report_chart_from(name, title, svg, NULL, &t);
	return c;
}

struct report_chart *report_chart_cheapest(const char *name,
					   const struct candidate *opts,
					   size_t n)
{
	static const char *const cols[] = { "#", "Set", "Monthly (USD)",
					    "Sustained" };
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	char **cats = xcalloc(n ? n : 1, sizeof(*cats));

	svg = svg_chart_new(
	    name, "The cheapest volume sets",
	    "Monthly cost of each option 'ebsize cheapest' found, cheapest "
	    "first; burst-only options meet the need only while credits last.");
	svg_chart_axis(svg, 'x', "Monthly cost (USD per month)", SVG_UNIT_USD,
		       SVG_LINEAR);
	svg_chart_axis(svg, 'y', "", SVG_UNIT_NONE, SVG_LINEAR);
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < n; i++) {
		char buf[48];

		cats[i] = xstrfmt(
		    "%zu. %ld x %s %ld GiB%s", i + 1, opts[i].cfg.count,
		    model_type_name(opts[i].cfg.type), opts[i].cfg.size_gib,
		    opts[i].sustained ? "" : " (burst-only)");
		report_table_addf(&t, "%zu", i + 1);
		report_table_add(&t, cats[i] + strcspn(cats[i], " ") + 1);
		report_fmt_usd(buf, sizeof(buf), opts[i].cost.total);
		report_table_add(&t, buf);
		report_table_add(&t, opts[i].sustained ? "yes" : "burst-only");
	}
	svg_chart_categories(svg, (const char *const *)cats, n,
			     SVG_CAT_HORIZONTAL | SVG_CAT_OVERLAP);
	for (int ty = 0; ty < VT_COUNT; ty++) {
		double *y = xmalloc((n ? n : 1) * sizeof(*y));
		int any = 0;
		struct svg_style st;

		for (size_t i = 0; i < n; i++) {
			y[i] = (int)opts[i].cfg.type == ty ? opts[i].cost.total
							   : NAN;
			any |= (int)opts[i].cfg.type == ty;
		}
		if (any) {
			svg_style_for(model_type_name((enum vol_type)ty), &st);
			svg_chart_series(svg, SVG_BARS,
					 model_type_name((enum vol_type)ty),
					 &st, NULL, y, n);
		}
		free(y);
	}
	for (size_t i = 0; i < n; i++)
		free(cats[i]);
	free(cats);
	c = report_chart_from(name, "The cheapest volume sets", svg, NULL, &t);
	return c;
}

/* ---- burst timeline */

struct timeline {
	struct line demand, delivered, credits;
	long stride; /* seconds per point */
	long in_bucket;
	double sum_demand, sum_delivered;
	double capacity;
};

static void timeline_tick(long t, double demand, double delivered,
			  double credits, void *arg)
{
	struct timeline *tl = arg;
	double pct = tl->capacity > 0 ? credits / tl->capacity * 100 : 0;

	if (tl->stride == 1) {
		line_add_bend(&tl->demand, (double)(t - 1), demand);
		line_add_bend(&tl->demand, (double)t, demand);
		line_add_bend(&tl->delivered, (double)(t - 1), delivered);
		line_add_bend(&tl->delivered, (double)t, delivered);
		line_add_bend(&tl->credits, (double)t, pct);
		return;
	}
	tl->sum_demand += demand;
	tl->sum_delivered += delivered;
	if (++tl->in_bucket < tl->stride)
		return;
	line_add_bend(&tl->demand, (double)t,
		      tl->sum_demand / (double)tl->stride);
	line_add_bend(&tl->delivered, (double)t,
		      tl->sum_delivered / (double)tl->stride);
	line_add_bend(&tl->credits, (double)t, pct);
	tl->sum_demand = tl->sum_delivered = 0;
	tl->in_bucket = 0;
}

/* Run the simulation into tl: vertices of demand, delivered, credits %. */
static void timeline_run(const struct bucket *b, const struct burst_profile *p,
			 double credits, struct timeline *tl,
			 struct burst_result *r)
{
	double total = (double)burst_profile_seconds(p) * (double)p->repeat;

	memset(tl, 0, sizeof(*tl));
	tl->capacity = b->capacity;
	tl->stride = (long)fmax(1, ceil(total / BURST_MAX_POINTS));
	line_add(&tl->credits, 0,
		 tl->capacity > 0 ? credits / tl->capacity * 100 : 0);
	if (tl->stride > 1) {
		line_add(&tl->demand, 0, p->n ? p->steps[0].rate : 0);
		line_add(&tl->delivered, 0, NAN);
	}
	burst_simulate(b, p, credits, timeline_tick, tl, r);
}

/* The rate table: each vertex of either line once, in time order. */
static void rate_table(struct report_table *t, const struct timeline *tl)
{
	static const char *const cols[] = { "t (s)", "Demand", "Delivered" };

	report_table_head(t, cols, ARRAY_SIZE(cols));
	for (size_t i = 0, j = 0; i < tl->delivered.n || j < tl->demand.n;) {
		double x = i < tl->delivered.n ? tl->delivered.x[i] : INFINITY;
		double xd = j < tl->demand.n ? tl->demand.x[j] : INFINITY;
		char a[48], b[48], c[48];

		num(a, sizeof(a), fmin(x, xd), 0);
		num(b, sizeof(b), xd <= x ? tl->demand.y[j] : NAN, 1);
		num(c, sizeof(c), x <= xd ? tl->delivered.y[i] : NAN, 1);
		report_table_add(t, a);
		report_table_add(t, b);
		report_table_add(t, c);
		if (x <= xd)
			i++;
		if (xd <= x)
			j++;
	}
}

static struct report_chart *rate_chart(const char *name, const struct bucket *b,
				       const struct timeline *tl,
				       const struct burst_result *r)
{
	int gp2 = b->type == VT_GP2;
	struct report_table t = { 0 };
	struct svg_chart *svg;
	struct svg_style st;
	char title[128], desc[384], size[32];

	num(size, sizeof(size), b->size_gib, 0);
	xsnprintf(title, sizeof(title),
		  "%s %s GiB: delivered against demand (modelled)",
		  model_type_name(b->type), size);
	xsnprintf(
	    desc, sizeof(desc),
	    "The credit-bucket simulator, second by second%s: what the volume "
	    "delivers (%s) against what the load asks for.",
	    tl->stride > 1 ? ", averaged over intervals to keep the chart small"
			   : "",
	    gp2 ? "IOPS" : "MiB/s");
	svg = svg_chart_new(name, title, desc);
	svg_chart_axis(svg, 'x', "Time", SVG_UNIT_SECONDS, SVG_LINEAR);
	svg_chart_axis(svg, 'y', gp2 ? "IOPS" : "Throughput",
		       gp2 ? SVG_UNIT_IOPS : SVG_UNIT_MIBPS, SVG_LINEAR);
	svg_style_for("unknown", &st);
	st.mark = SVG_MARK_NONE;
	st.dash = "4 3";
	svg_chart_series(svg, SVG_LINE, "demand", &st, tl->demand.x,
			 tl->demand.y, tl->demand.n);
	svg_style_for(model_type_name(b->type), &st);
	st.dash = NULL;
	svg_chart_series(svg, SVG_LINE, "delivered (modelled)", &st,
			 tl->delivered.x, tl->delivered.y, tl->delivered.n);
	if (r->time_to_empty_s >= 0) {
		char at[32], *lab;

		num(at, sizeof(at), (double)r->time_to_empty_s, 0);
		lab = xstrfmt("bucket empty at %s s", at);
		svg_chart_annotate(svg, (double)r->time_to_empty_s, NAN, lab);
		free(lab);
	}
	svg_chart_range(svg, 'y', 0, 0);
	rate_table(&t, tl);
	return report_chart_from(name, title, svg, NULL, &t);
}

static struct report_chart *credits_chart(const char *name,
					  const struct bucket *b,
					  const struct timeline *tl)
{
	static const char *const cols[] = { "t (s)",
					    "Credits (% of a full bucket)" };
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	struct svg_style st;
	char title[128], size[32], *cname = xstrfmt("%s-credits", name);

	num(size, sizeof(size), b->size_gib, 0);
	xsnprintf(title, sizeof(title), "%s %s GiB: credits left (modelled)",
		  model_type_name(b->type), size);
	svg = svg_chart_new(
	    cname, title,
	    "Credits in the bucket as a percentage of a full one, from the "
	    "credit-bucket simulator.");
	svg_chart_axis(svg, 'x', "Time", SVG_UNIT_SECONDS, SVG_LINEAR);
	svg_chart_axis(svg, 'y', "Credits", SVG_UNIT_PCT, SVG_LINEAR);
	svg_chart_range(svg, 'y', 0, 100);
	svg_style_for(model_type_name(b->type), &st);
	st.mark = SVG_MARK_NONE;
	svg_chart_series(svg, SVG_AREA, "credits (modelled)", &st,
			 tl->credits.x, tl->credits.y, tl->credits.n);
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < tl->credits.n; i++) {
		char a[48], v[48];

		num(a, sizeof(a), tl->credits.x[i], 0);
		num(v, sizeof(v), tl->credits.y[i], 2);
		report_table_add(&t, a);
		report_table_add(&t, v);
	}
	c = report_chart_from(cname, title, svg, NULL, &t);
	free(cname);
	return c;
}

void report_charts_burst(const char *name, const struct bucket *b,
			 const struct burst_profile *p, double credits,
			 struct report_chart **rate,
			 struct report_chart **credits_out)
{
	struct timeline tl;
	struct burst_result r;

	timeline_run(b, p, credits, &tl, &r);
	*rate = rate_chart(name, b, &tl, &r);
	*credits_out = credits_chart(name, b, &tl);
	line_release(&tl.demand);
	line_release(&tl.delivered);
	line_release(&tl.credits);
}

/* ------------------------------------------------------------ scan */

static const struct svg_style scan_current = { "#666666", "6 3",
					       SVG_MARK_SQUARE, 0, 0.6 };
static const struct svg_style scan_proposed = { "#7a5195", NULL,
						SVG_MARK_CIRCLE, 0, 0.8 };

/* The currency of a scan's amounts, and money in it ("$1.00", "CNY 1.00"). */
static int scan_in_usd(const struct report_scan *s)
{
	return !s->currency || !strcmp(s->currency, "USD");
}

static void scan_money(const struct report_scan *s, char *buf, size_t n,
		       double v)
{
	char num[64];

	if (scan_in_usd(s)) {
		report_fmt_usd(buf, n, v);
		return;
	}
	report_fmt_num(num, sizeof(num), fabs(v), 2);
	xsnprintf(buf, n, "%s%.8s %s", v < -0.004 ? "-" : "", s->currency, num);
}

/* A money axis: "$" ticks in USD; another currency named in the label. */
static void scan_money_axis(struct svg_chart *svg, const struct report_scan *s,
			    char which, const char *what)
{
	char label[96];

	xsnprintf(label, sizeof(label), "%s (%.8s per month)", what,
		  scan_in_usd(s) ? "USD" : s->currency);
	svg_chart_axis(svg, which, label,
		       scan_in_usd(s) ? SVG_UNIT_USD : SVG_UNIT_NONE,
		       SVG_LINEAR);
}

struct report_chart *report_chart_scan_totals(const char *name,
					      const struct report_scan *s,
					      int by)
{
	const char *cur_code = scan_in_usd(s) ? "USD" : s->currency;
	const struct report_scan_total *tot = by == 1	? s->by_region
					      : by == 2 ? s->by_tag
							: s->by_category;
	size_t n = by == 1 ? s->nregions : by == 2 ? s->ntags : s->ncategories;
	const char *what = by == 1 ? "region" : by == 2 ? "tag" : "category";
	const char **cats = xcalloc(n ? n : 1, sizeof(*cats));
	double *cur = xmalloc((n ? n : 1) * sizeof(double));
	double *prop = xmalloc((n ? n : 1) * sizeof(double));
	char head_cur[48], head_prop[48], head_save[48], key_title[80];
	const char *head[5];
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	char title[256], desc[512];

	if (by == 2)
		xsnprintf(key_title, sizeof(key_title), "Tag %.64s",
			  s->tag_key ? s->tag_key : "");
	else
		xsnprintf(key_title, sizeof(key_title), "%s",
			  by == 1 ? "Region" : "Category");
	xsnprintf(
	    title, sizeof(title),
	    "Current against proposed monthly cost by %s%s%.64s%s%s%.8s%s",
	    what, by == 2 ? " " : "", by == 2 && s->tag_key ? s->tag_key : "",
	    s->generated ? " (generated inventory)" : "",
	    scan_in_usd(s) ? "" : ", ", scan_in_usd(s) ? "" : s->currency, "");
	xsnprintf(
	    desc, sizeof(desc),
	    "What the volumes with a finding cost per month in %s, for each %s, now "
	    "and after the changes the scan proposes. Inventory: %s%s.",
	    cur_code,
	    by == 1   ? "region"
	    : by == 2 ? "value of the tag"
		      : "finding category",
	    s->source ? s->source : "-",
	    s->generated ? " (generated test data, not a real account)" : "");
	svg = svg_chart_new(name, title, desc);
	/* tag values can be long: their bars lie down, money along x */
	svg_chart_axis(svg, by == 2 ? 'y' : 'x', key_title, SVG_UNIT_NONE,
		       SVG_LINEAR);
	scan_money_axis(svg, s, by == 2 ? 'x' : 'y', "Monthly cost");
	xsnprintf(head_cur, sizeof(head_cur), "Current (%.8s/month)", cur_code);
	xsnprintf(head_prop, sizeof(head_prop), "Proposed (%.8s/month)",
		  cur_code);
	xsnprintf(head_save, sizeof(head_save), "Saves (%.8s/month)", cur_code);
	head[0] = key_title;
	head[1] = "Volumes";
	head[2] = head_cur;
	head[3] = head_prop;
	head[4] = head_save;
	report_table_head(&t, head, ARRAY_SIZE(head));
	for (size_t i = 0; i < n; i++) {
		char buf[64];

		cats[i] = tot[i].key;
		cur[i] = tot[i].cur_usd;
		prop[i] = tot[i].prop_usd;
		report_table_add(&t, tot[i].key);
		report_table_addf(&t, "%ld", tot[i].volumes);
		scan_money(s, buf, sizeof(buf), tot[i].cur_usd);
		report_table_add(&t, buf);
		scan_money(s, buf, sizeof(buf), tot[i].prop_usd);
		report_table_add(&t, buf);
		scan_money(s, buf, sizeof(buf), tot[i].save_usd);
		report_table_add(&t, buf);
	}
	svg_chart_categories(svg, cats, n, by == 2 ? SVG_CAT_HORIZONTAL : 0);
	svg_chart_series(svg, SVG_BARS, "current", &scan_current, NULL, cur, n);
	svg_chart_series(svg, SVG_BARS, "proposed", &scan_proposed, NULL, prop,
			 n);
	c = report_chart_from(name, title, svg, NULL, &t);
	free(cats);
	free(cur);
	free(prop);
	return c;
}

static int cmp_savings(const void *a, const void *b)
{
	const struct report_scan_finding *x =
	    *(const struct report_scan_finding *const *)a;
	const struct report_scan_finding *y =
	    *(const struct report_scan_finding *const *)b;

	if (x->save_usd != y->save_usd)
		return x->save_usd > y->save_usd ? -1 : 1;
	return strcmp(x->volume_id ? x->volume_id : "",
		      y->volume_id ? y->volume_id : "");
}

/* The findings that save anything, most first, at most top: *n of them
 * (heap array of pointers into s, caller frees). */
static const struct report_scan_finding **top_findings(
    const struct report_scan *s, size_t top, size_t *n)
{
	const struct report_scan_finding **f =
	    xcalloc(s->nfindings ? s->nfindings : 1, sizeof(*f));
	size_t k = s->nfindings;

	for (size_t i = 0; i < k; i++)
		f[i] = &s->findings[i];
	qsort(f, k, sizeof(*f), cmp_savings);
	while (k && !(f[k - 1]->save_usd > 0))
		k--;
	*n = k < top ? k : top;
	return f;
}

static void finding_row(struct report_table *t, const struct report_scan *s,
			const struct report_scan_finding *f)
{
	char buf[64];

	report_table_add(t, f->volume_id);
	report_table_add(t, f->name);
	report_table_add(t, f->region);
	report_table_add(t, f->category);
	report_table_add(t, f->current);
	report_table_add(t, f->proposed);
	scan_money(s, buf, sizeof(buf), f->cur_usd);
	report_table_add(t, buf);
	scan_money(s, buf, sizeof(buf), f->prop_usd);
	report_table_add(t, buf);
	scan_money(s, buf, sizeof(buf), f->save_usd);
	report_table_add(t, buf);
}

struct report_chart *report_chart_scan_top(const char *name,
					   const struct report_scan *s)
{
	const char *code = scan_in_usd(s) ? "USD" : s->currency;
	char h_cur[48], h_prop[48], h_save[48];
	const char *cols[] = { "Volume",   "Name",    "Region",
			       "Category", "Current", "Proposed",
			       h_cur,	   h_prop,    h_save };
	size_t n;
	const struct report_scan_finding **f =
	    top_findings(s, s->top ? s->top : 10, &n);
	char **cats = xcalloc(n ? n : 1, sizeof(*cats));
	double *y = xmalloc((n ? n : 1) * sizeof(*y));
	struct report_table t = { 0 };
	struct report_chart *c;
	struct svg_chart *svg;
	char title[200], desc[384];

	xsnprintf(h_cur, sizeof(h_cur), "Current (%.8s/month)", code);
	xsnprintf(h_prop, sizeof(h_prop), "Proposed (%.8s/month)", code);
	xsnprintf(h_save, sizeof(h_save), "Saves (%.8s/month)", code);
	xsnprintf(
	    title, sizeof(title), "Top %zu volumes by monthly savings%s%s%.8s",
	    n, s->generated ? " (generated inventory)" : "",
	    scan_in_usd(s) ? "" : ", ", scan_in_usd(s) ? "" : s->currency);
	xsnprintf(
	    desc, sizeof(desc),
	    "The volumes whose proposed change saves the most per month (%s). "
	    "Inventory: %s%s.",
	    code, s->source ? s->source : "-",
	    s->generated ? " (generated test data, not a real account)" : "");
	svg = svg_chart_new(name, title, desc);
	scan_money_axis(svg, s, 'x', "Saves");
	svg_chart_axis(svg, 'y', "", SVG_UNIT_NONE, SVG_LINEAR);
	report_table_head(&t, cols, ARRAY_SIZE(cols));
	for (size_t i = 0; i < n; i++) {
		cats[i] =
		    f[i]->name && *f[i]->name
			? xstrfmt("%s (%s)", f[i]->volume_id, f[i]->name)
			: xstrdup(f[i]->volume_id ? f[i]->volume_id : "-");
		y[i] = f[i]->save_usd;
		finding_row(&t, s, f[i]);
	}
	svg_chart_categories(svg, (const char *const *)cats, n,
			     SVG_CAT_HORIZONTAL);
	svg_chart_series(svg, SVG_BARS, "saves per month", &scan_proposed, NULL,
			 y, n);
	c = report_chart_from(name, title, svg, NULL, &t);
	for (size_t i = 0; i < n; i++)
		free(cats[i]);
	free(cats);
	free(y);
	free(f);
	return c;
}
