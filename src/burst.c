/*
 * burst.c - the credit-bucket simulator behind `ebsize burst`, the cliff
 * predictions of `cheapest`, `bench` and `scan`, and the modelled series
 * of the report.  Integer seconds, double credits.  Knows nothing about
 * prices, files or output.
 */
#include "ebsize/burst.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

int burst_bucket(enum vol_type type, double size_gib, struct bucket *b)
{
	memset(b, 0, sizeof(*b));
	b->type = type;
	b->size_gib = size_gib;
	switch (type) {
	case VT_GP2:
		/* T2 [S1]: earn = baseline, ceiling 3,000, 5.4 M credits */
		b->baseline = model_gp2_baseline_iops(size_gib);
		b->ceiling = model_gp2_burst_iops(size_gib);
		b->capacity = GP2_BUCKET_CREDITS;
		return 0;
	case VT_ST1:
	case VT_SC1:
		/* T5 [S3]: MiB/s per TiB; 1 TiB of credit per TiB */
		b->baseline = model_hdd_baseline_mibps(type, size_gib);
		b->ceiling = model_hdd_burst_mibps(type, size_gib);
		b->capacity = model_hdd_bucket_mib(size_gib);
		return 0;
	default: return -1;
	}
}

/* ------------------------------------------------------------ profile */

static char *skip_space(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* Split the next whitespace-separated word off *s (modifies the line). */
static char *next_word(char **s)
{
	char *w = skip_space(*s), *e = w;

	while (*e && !isspace((unsigned char)*e))
		e++;
	if (*e)
		*e++ = '\0';
	*s = e;
	return *w ? w : NULL;
}

static int parse_line(char *line, size_t lineno, struct burst_profile *p,
		      size_t *alloc, int *seen_repeat, char *err)
{
	char *hash = strchr(line, '#'), *s = line, *w1, *w2;
	double rate;
	long secs;

	if (hash)
		*hash = '\0';
	w1 = next_word(&s);
	if (!w1)
		return 0;
	w2 = next_word(&s);
	if (!w2 || next_word(&s))
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "line %zu: expected 'RATE SECONDS', 'idle SECONDS' or 'repeat N'",
		    lineno);
	if (!strcmp(w1, "repeat")) {
		if (*seen_repeat ||
		    parse_long_range(w2, 1, 1000000, &p->repeat))
			return ebs_fail(
			    err, EBS_ERR_PARSE,
			    "line %zu: 'repeat' needs one count from 1 to 1000000",
			    lineno);
		*seen_repeat = 1;
		return 0;
	}
	if (!strcmp(w1, "idle"))
		rate = 0;
	else if (parse_nonneg_double(w1, &rate) || rate > 1e7)
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "line %zu: '%s' is not a rate (a number >= 0, or idle)",
		    lineno, w1);
	if (parse_long_range(w2, 1, 31L * 86400, &secs))
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "line %zu: '%s' is not a duration in seconds (1 to 2678400)",
		    lineno, w2);
	xgrow((void **)&p->steps, alloc, p->n + 1, sizeof(*p->steps));
	p->steps[p->n].rate = rate;
	p->steps[p->n].seconds = secs;
	p->n++;
	return 0;
}

int burst_profile_parse(const char *text, struct burst_profile *p, char *err)
{
	char *copy = xstrdup(text), *line = copy;
	size_t alloc = 0, lineno = 0;
	int seen_repeat = 0, rc = 0;

	memset(p, 0, sizeof(*p));
	p->repeat = 1;
	while (line && !rc) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		rc = parse_line(line, ++lineno, p, &alloc, &seen_repeat, err);
		line = nl ? nl + 1 : NULL;
	}
	if (!rc && !p->n)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "no steps (expected lines of 'RATE SECONDS')");
	if (!rc && (double)burst_profile_seconds(p) * (double)p->repeat >
		       366.0 * 86400)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "the profile runs longer than a year");
	free(copy);
	if (rc)
		burst_profile_release(p);
	return rc;
}

void burst_profile_release(struct burst_profile *p)
{
	if (!p)
		return;
	free(p->steps);
	p->steps = NULL;
	p->n = 0;
}

long burst_profile_seconds(const struct burst_profile *p)
{
	long s = 0;

	for (size_t i = 0; i < p->n; i++)
		s += p->steps[i].seconds;
	return s;
}

/* ------------------------------------------------------------ simulate */

/* One second: returns what the volume delivers and updates *credits. */
static double tick(const struct bucket *b, double demand, double *credits)
{
	double want, extra;

	if (demand <= b->baseline) {
		*credits = fmin(b->capacity, *credits + (b->baseline - demand));
		return demand;
	}
	want = fmin(demand, b->ceiling);
	extra = want - b->baseline;
	if (extra <= 0)
		return want;
	if (*credits >= extra) {
		*credits -= extra;
		return want;
	}
	want = b->baseline + *credits;
	*credits = 0;
	return want;
}

void burst_simulate(const struct bucket *b, const struct burst_profile *p,
		    double credits, burst_sample_fn fn, void *arg,
		    struct burst_result *out)
{
	double sum = 0, sum_demand = 0;
	long t = 0;

	memset(out, 0, sizeof(*out));
	credits = fmax(0, fmin(credits, b->capacity));
	out->start_credits = credits;
	out->min_credits = credits;
	out->min_delivered = INFINITY;
	out->time_to_empty_s = -1;
	for (long r = 0; r < p->repeat; r++) {
		for (size_t i = 0; i < p->n; i++) {
			for (long s = 0; s < p->steps[i].seconds; s++) {
				double d = p->steps[i].rate;
				double got = tick(b, d, &credits);

				t++;
				sum += got;
				sum_demand += d;
				if (got < out->min_delivered)
					out->min_delivered = got;
				if (credits < out->min_credits)
					out->min_credits = credits;
				if (got + MODEL_EPS < d)
					out->shortfall_seconds++;
				if (credits <= 0 && d > b->baseline &&
				    out->time_to_empty_s < 0)
					out->time_to_empty_s = t;
				if (fn)
					fn(t, d, got, credits, arg);
			}
		}
	}
	out->seconds = t;
	out->average_delivered = t ? sum / (double)t : 0;
	out->average_demand = t ? sum_demand / (double)t : 0;
	if (!t)
		out->min_delivered = 0;
	out->end_credits = credits;
	out->refill_seconds =
	    b->baseline > 0 ? (b->capacity - credits) / b->baseline : 0;
}

long burst_steady_state(const struct bucket *b, const struct burst_profile *p,
			double credits, long max_periods,
			struct burst_result *out, double *steady_credits)
{
	struct burst_profile once = *p;
	long period = burst_profile_seconds(p);

	once.repeat = 1;
	if (period > 0 && max_periods > BURST_MAX_TICKS / period)
		max_periods = BURST_MAX_TICKS / period;
	if (max_periods < 1)
		max_periods = 1;
	for (long k = 1; k <= max_periods; k++) {
		burst_simulate(b, &once, credits, NULL, NULL, out);
		if (fabs(out->end_credits - credits) < 0.5) {
			*steady_credits = credits;
			return k;
		}
		credits = out->end_credits;
	}
	*steady_credits = credits;
	return -1;
}
