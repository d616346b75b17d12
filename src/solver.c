/*
 * solver.c - the cheapest legal volume set for a need (see solver.h).
 *
 * Each type has one sizing rule.  gp3, io1 and io2 have closed forms: every
 * variable (size, IOPS, MiB/s) only has lower bounds, some coupled (IOPS per
 * GiB, MiB/s per IOPS), and cost grows with each, so the componentwise
 * minimum is optimal.  gp2, st1 and sc1 perform as a monotone function of
 * size alone, so the smallest size that meets the need is found by binary
 * search.  Every option is re-checked with model_validate and priced with
 * model_cost.  Pure: no I/O, no globals.
 */
#include "ebsize/solver.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/burst.h"
#include "ebsize/util.h"

const char *solver_fit_name(enum instance_fit f)
{
	static const char *names[] = { "unchecked", "ok", "instance-burst",
				       "no" };

	return names[f];
}

/* ------------------------------------------------------------ demand */

static int is_hdd(enum vol_type t)
{
	return t == VT_ST1 || t == VT_SC1;
}

/* What `ops` I/O per second of the need cost a volume of type t:
 * operations counted by that type (model_ssd_iops_for: 256 KiB units, io2
 * by its 0.256 MiB/s per IOPS), and MiB/s (HDD: 1 MiB per I/O min). */
static void demand(enum vol_type t, const struct need *nd, double ops,
		   double *iops, double *mibps)
{
	if (is_hdd(t)) {
		*iops = ops;
		*mibps =
		    fmax(nd->mibps, ops * fmax(nd->io_kib, 1024.0) / 1024.0);
	} else {
		*iops = model_ssd_iops_for(t, ops, nd->io_kib);
		*mibps = fmax(nd->mibps, ops * nd->io_kib / 1024.0);
	}
}

/* The operation rate a non-bursting volume must sustain: the peak if any. */
static double peak_ops(const struct need *nd)
{
	return fmax(nd->iops, nd->peak_iops);
}

static long ceil_l(double x)
{
	return (long)ceil(x - MODEL_EPS);
}

/* ------------------------------------------------------------ checks */

/* A set meets a need within this many IOPS or MiB/s: a need split over k
 * volumes and multiplied back differs from itself in the last bits. */
#define MEETS_EPS 1e-6

int solver_meets(const struct vol_config *cfg, const struct need *nd)
{
	struct perf pf;
	double iops, mibps, k = (double)cfg->count;

	model_perf(cfg, &pf);
	demand(cfg->type, nd, nd->iops, &iops, &mibps);
	if ((double)cfg->size_gib * k + MODEL_EPS < nd->size_gib)
		return 0;
	return pf.baseline_iops + MEETS_EPS >= iops &&
	       pf.baseline_mibps + MEETS_EPS >= mibps;
}

enum instance_fit solver_instance_fit(const struct instance_limits *inst,
				      double iops, double mibps)
{
	double base_mibps = model_mbytes_to_mibps(inst->baseline_mbytes_per_s);
	double max_mibps = model_mbytes_to_mibps(inst->max_mbytes_per_s);

	if (iops <= inst->baseline_iops + MODEL_EPS &&
	    mibps <= base_mibps + MODEL_EPS)
		return FIT_OK;
	if (iops <= inst->max_iops + MODEL_EPS &&
	    mibps <= max_mibps + MODEL_EPS)
		return FIT_BURST;
	return FIT_NO;
}

/* ------------------------------------------------------------ per type */

/* Price and validate cfg into out; 0 on failure with why. */
static int finish(const struct volume_limits *lim, const struct type_prices *p,
		  struct vol_config *cfg, struct candidate *out, char *why,
		  size_t whylen)
{
	if (model_validate(lim, cfg, NULL, why, whylen))
		return 0;
	if (model_cost(p, cfg, &out->cost)) {
		snprintf(why, whylen, "no %s prices",
			 model_type_name(cfg->type));
		return 0;
	}
	out->cfg = *cfg;
	model_perf(cfg, &out->perf);
	return 1;
}

static int size_too_big(const struct volume_limits *lim, long size, char *why,
			size_t whylen, const char *what)
{
	if (size <= lim->max_size_gib)
		return 0;
	snprintf(
	    why, whylen,
	    "one %s volume cannot %s (it would need %ld GiB, the maximum is %ld)",
	    model_type_name(lim->type), what, size, lim->max_size_gib);
	return 1;
}

/* gp3: the model's one rule for the legal gp3 of a need (T3). */
static int best_gp3(const struct volume_limits *lim, double iops_v,
		    double mibps_v, long size_v, struct vol_config *cfg,
		    char *why, size_t whylen)
{
	struct vol_config c;

	switch (model_gp3_for_need(lim, (double)size_v, iops_v, mibps_v, &c)) {
	case MODEL_FIT_OK:
		cfg->size_gib = c.size_gib;
		cfg->iops = c.iops;
		cfg->throughput_mibps = c.throughput_mibps;
		return 1;
	case MODEL_FIT_SIZE:
		/* the IOPS never need more than 80,000 / 500 GiB: the size
		 * asked for is what does not fit */
		snprintf(why, whylen,
			 "one gp3 volume holds at most %ld GiB (%ld needed)",
			 lim->max_size_gib, size_v);
		return 0;
	case MODEL_FIT_PERF: break;
	}
	/* name the maximum that binds: MiB/s, else IOPS (raised by MiB/s) */
	if (mibps_v > lim->max_mibps + MODEL_EPS)
		snprintf(why, whylen,
			 "one gp3 volume carries at most %g MiB/s (%g needed)",
			 lim->max_mibps, ceil(mibps_v - MODEL_EPS));
	else
		snprintf(
		    why, whylen,
		    "one gp3 volume carries at most %ld IOPS (%g needed)",
		    lim->max_iops,
		    ceil(fmax(iops_v, lim->max_mibps_per_iops > 0
					  ? mibps_v / lim->max_mibps_per_iops
					  : 0) -
			 MODEL_EPS));
	return 0;
}

/* io1/io2: IOPS >= need and enough for the MiB/s rule (T4 [S2]). */
static int best_piops(const struct volume_limits *lim, double iops_v,
		      double mibps_v, long size_v, struct vol_config *cfg,
		      char *why, size_t whylen)
{
	enum vol_type t = lim->type;
	double iops = fmax((double)lim->min_iops, ceil(iops_v - MODEL_EPS));
	double for_mibps = model_piops_iops_for_mibps(t, mibps_v);

	if (for_mibps < 0) {
		snprintf(why, whylen,
			 "one %s volume carries at most %g MiB/s (%g needed)",
			 model_type_name(t),
			 model_piops_max_mibps(t, (double)lim->max_iops),
			 ceil(mibps_v - MODEL_EPS));
		return 0;
	}
	iops = fmax(iops, for_mibps);
	if (iops > (double)lim->max_iops) {
		snprintf(why, whylen,
			 "one %s volume carries at most %ld IOPS (%g needed)",
			 model_type_name(t), lim->max_iops, iops);
		return 0;
	}
	cfg->iops = (long)iops;
	cfg->throughput_mibps = 0;
	cfg->size_gib = model_min_size_for_iops(lim, cfg->iops);
	if (cfg->size_gib < size_v)
		cfg->size_gib = size_v;
	return !size_too_big(lim, cfg->size_gib, why, whylen,
			     "reach that many IOPS per GiB");
}

/* Smallest size in [lo, hi] where ok(size) holds (ok is monotone), or -1. */
static long smallest_size(long lo, long hi, int (*ok)(long, const void *),
			  const void *arg)
{
	long ans = -1;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if (ok(mid, arg)) {
			ans = mid;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	return ans;
}

/* Per-volume demand of one candidate for the size predicates. */
struct vol_need {
	enum vol_type type;
	double iops, mibps;	      /* at baseline */
	double peak_iops, peak_mibps; /* during a peak (0: none) */
	double peak_s, period_s;
	int burst_only; /* judge against the burst ceiling */
};

static void vol_perf(enum vol_type t, long size, struct perf *pf)
{
	struct vol_config cfg = { t, size, 0, 0, 1, 0 };

	model_perf(&cfg, pf);
}

/* The rate a bursting volume spends credits at to carry (iops, mibps):
 * gp2 counts operations (MiB/s at 256 KiB each), HDD counts MiB. */
static double spend_rate(enum vol_type t, double iops, double mibps)
{
	return is_hdd(t) ? mibps : fmax(iops, mibps * 1024.0 / 256.0);
}

static int size_ok(long size, const void *arg)
{
	const struct vol_need *v = arg;
	struct perf pf;
	double base, need, spend;

	vol_perf(v->type, size, &pf);
	if (v->burst_only)
		return pf.burst_iops + MODEL_EPS >= v->iops &&
		       pf.burst_mibps + MODEL_EPS >= v->mibps;
	if (pf.baseline_iops + MODEL_EPS < v->iops ||
	    pf.baseline_mibps + MODEL_EPS < v->mibps)
		return 0;
	if (v->peak_iops <= 0)
		return 1;
	/* a peak above baseline must fit in the bucket and refill between */
	if (pf.burst_iops + MODEL_EPS < v->peak_iops ||
	    pf.burst_mibps + MODEL_EPS < v->peak_mibps)
		return 0;
	base = is_hdd(v->type) ? pf.baseline_mibps : pf.baseline_iops;
	need = spend_rate(v->type, v->peak_iops, v->peak_mibps);
	if (need <= base + MODEL_EPS)
		return 1;
	spend = (need - base) * v->peak_s;
	return spend <= pf.bucket + MODEL_EPS &&
	       spend <= (base - spend_rate(v->type, v->iops, v->mibps)) *
				(v->period_s - v->peak_s) +
			    MODEL_EPS;
}

/*
 * "one sc1 volume sustains at most 192 MiB/s (250 needed)": the limit of
 * the largest volume that binds (issue 10: notes name it).  An st1/sc1
 * volume's IOPS are its MiB/s counted in 1 MiB units (T5), so for them
 * the throughput is named when it binds; a gp2's IOPS and MiB/s are
 * separate limits, each named when it binds.
 */
static void limit_text(enum vol_type t, const char *verb, double have_iops,
		       double have_mibps, double need_iops, double need_mibps,
		       char *why, size_t whylen)
{
	int short_iops = have_iops + MODEL_EPS < need_iops;
	int short_mibps = have_mibps + MODEL_EPS < need_mibps;

	if (short_mibps && (is_hdd(t) || !short_iops))
		snprintf(why, whylen,
			 "one %s volume %s at most %g MiB/s (%g needed)",
			 model_type_name(t), verb, have_mibps, need_mibps);
	else if (short_iops && !short_mibps)
		snprintf(why, whylen,
			 "one %s volume %s at most %g IOPS (%g needed)",
			 model_type_name(t), verb, have_iops, need_iops);
	else
		snprintf(
		    why, whylen,
		    "one %s volume %s at most %g IOPS and %g MiB/s (%g and %g needed)",
		    model_type_name(t), verb, have_iops, have_mibps, need_iops,
		    need_mibps);
}

/* gp2, st1, sc1: the smallest size that meets the need (see size_ok). */
static int best_by_size(const struct volume_limits *lim, struct vol_need *v,
			long size_v, struct vol_config *cfg, char *why,
			size_t whylen)
{
	long lo = size_v > lim->min_size_gib ? size_v : lim->min_size_gib;
	long s;

	if (is_hdd(v->type)) {
		double cap = v->type == VT_ST1 ? 500 : 250; /* T1: 1 MiB I/O */

		if (v->iops > cap + MODEL_EPS) {
			snprintf(
			    why, whylen,
			    "one %s volume carries at most %g I/O per second, each counted as 1 MiB (%g needed)",
			    model_type_name(v->type), cap,
			    ceil(v->iops - MODEL_EPS));
			return 0;
		}
	}
	if (lo > lim->max_size_gib) {
		snprintf(why, whylen, "one %s volume holds at most %ld GiB",
			 model_type_name(v->type), lim->max_size_gib);
		return 0;
	}
	s = smallest_size(lo, lim->max_size_gib, size_ok, v);
	if (s < 0) {
		struct perf pf;

		vol_perf(v->type, lim->max_size_gib, &pf);
		if (v->burst_only)
			limit_text(v->type, "bursts to", pf.burst_iops,
				   pf.burst_mibps, v->iops, v->mibps, why,
				   whylen);
		else if (v->peak_iops > 0 &&
			 pf.baseline_iops + MODEL_EPS >= v->iops &&
			 pf.baseline_mibps + MODEL_EPS >= v->mibps)
			snprintf(
			    why, whylen,
			    "no %s size both sustains the need and covers the peak from credits",
			    model_type_name(v->type));
		else
			limit_text(v->type, "sustains", pf.baseline_iops,
				   pf.baseline_mibps, v->iops, v->mibps, why,
				   whylen);
		return 0;
	}
	cfg->size_gib = s;
	cfg->iops = 0;
	cfg->throughput_mibps = 0;
	return 1;
}

/* standard: a fixed ~100 IOPS / 40 MiB/s per volume (T1 [S4]). */
static int best_standard(const struct volume_limits *lim, double iops_v,
			 double mibps_v, long size_v, struct vol_config *cfg,
			 char *why, size_t whylen)
{
	struct perf pf;

	vol_perf(VT_STANDARD, 1, &pf);
	if (iops_v > pf.baseline_iops + MODEL_EPS ||
	    mibps_v > pf.baseline_mibps + MODEL_EPS) {
		limit_text(VT_STANDARD, "averages", pf.baseline_iops,
			   pf.baseline_mibps, iops_v, mibps_v, why, whylen);
		return 0;
	}
	cfg->size_gib = size_v > lim->min_size_gib ? size_v : lim->min_size_gib;
	cfg->iops = cfg->throughput_mibps = 0;
	return !size_too_big(lim, cfg->size_gib, why, whylen, "hold that much");
}

int solver_best_of_type(const struct volume_limits *lim,
			const struct type_prices *p, const struct need *nd,
			long k, struct candidate *out, char *why, size_t whylen)
{
	enum vol_type t = lim->type;
	struct vol_config cfg = { t, 0, 0, 0, k, 0 };
	double iops, mibps, kk = (double)k;
	long size_v = ceil_l(nd->size_gib / kk);
	int ok;

	memset(out, 0, sizeof(*out));
	if (t == VT_GP2 || is_hdd(t)) {
		struct vol_need v = { .type = t };

		demand(t, nd, nd->iops, &iops, &mibps);
		v.iops = iops / kk;
		v.mibps = mibps / kk;
		if (nd->peak_iops > 0) {
			demand(t, nd, nd->peak_iops, &iops, &mibps);
			v.peak_iops = iops / kk;
			v.peak_mibps = mibps / kk;
			v.peak_s = nd->peak_s;
			v.period_s = nd->period_s;
		}
		ok = best_by_size(lim, &v, size_v, &cfg, why, whylen);
		if (ok && v.peak_iops > 0) {
			struct perf pf;
			double base, spend;

			vol_perf(t, cfg.size_gib, &pf);
			base = is_hdd(t) ? pf.baseline_mibps : pf.baseline_iops;
			spend = spend_rate(t, v.peak_iops, v.peak_mibps) - base;
			out->peak_covered = spend > MODEL_EPS;
			if (out->peak_covered)
				out->burst_seconds = pf.bucket / spend;
		}
	} else {
		demand(t, nd, peak_ops(nd), &iops, &mibps);
		if (t == VT_GP3)
			ok = best_gp3(lim, iops / kk, mibps / kk, size_v, &cfg,
				      why, whylen);
		else if (model_type_needs_iops(t))
			ok = best_piops(lim, iops / kk, mibps / kk, size_v,
					&cfg, why, whylen);
		else
			ok = best_standard(lim, iops / kk, mibps / kk, size_v,
					   &cfg, why, whylen);
	}
	if (!ok || !finish(lim, p, &cfg, out, why, whylen))
		return 0;
	out->sustained = 1;
	return 1;
}

/* The cheapest set of one volume that meets the need only while credits
 * last (gp2, st1, sc1 without a peak profile). */
static int best_burst_only(const struct volume_limits *lim,
			   const struct type_prices *p, const struct need *nd,
			   struct candidate *out)
{
	enum vol_type t = lim->type;
	struct vol_need v = { .type = t, .burst_only = 1 };
	struct vol_config cfg = { t, 0, 0, 0, 1, 0 };
	struct bucket b;
	char why[256];
	double iops, mibps, spend;

	memset(out, 0, sizeof(*out));
	demand(t, nd, nd->iops, &iops, &mibps);
	v.iops = iops;
	v.mibps = mibps;
	if (!best_by_size(lim, &v, ceil_l(nd->size_gib), &cfg, why,
			  sizeof(why)) ||
	    !finish(lim, p, &cfg, out, why, sizeof(why)) ||
	    solver_meets(&cfg, nd) || burst_bucket(t, (double)cfg.size_gib, &b))
		return 0;
	/* between 170 and 334 GiB a gp2 is held to 128 MiB/s by its size
	 * band, not by credits; a shortfall credits cannot pay for is no
	 * burst option at all */
	spend = spend_rate(t, iops, mibps) - b.baseline;
	if (spend <= 0)
		return 0;
	out->burst_seconds = b.capacity / spend;
	out->sustained = 0;
	return 1;
}

/* ------------------------------------------------------------ ranking */

static void add_note(struct solver_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add_note(struct solver_result *r, const char *fmt, ...)
{
	va_list ap;

	r->notes = xrealloc(r->notes, (r->nnotes + 1) * sizeof(*r->notes));
	va_start(ap, fmt);
	r->notes[r->nnotes++] = xvstrfmt(fmt, ap);
	va_end(ap);
}

static void add_option(struct solver_result *r, const struct candidate *o)
{
	r->opts = xrealloc(r->opts, (r->n + 1) * sizeof(*r->opts));
	r->opts[r->n++] = *o;
}

static int cmp_option(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->sustained != y->sustained)
		return y->sustained - x->sustained;
	if (x->cost.total < y->cost.total - MODEL_EPS)
		return -1;
	if (x->cost.total > y->cost.total + MODEL_EPS)
		return 1;
	if (x->cfg.count != y->cfg.count)
		return x->cfg.count < y->cfg.count ? -1 : 1;
	return (int)x->cfg.type - (int)y->cfg.type;
}

/* Fill the per-option figures that depend on the need and instance. */
static void annotate(struct candidate *o, const struct need *nd,
		     const struct solver_result *r)
{
	double iops, mibps, hi = INFINITY, hm = INFINITY;
	double have_i =
	    o->sustained ? o->perf.baseline_iops : o->perf.burst_iops;
	double have_m =
	    o->sustained ? o->perf.baseline_mibps : o->perf.burst_mibps;

	/* a set sized to carry the peak at baseline is judged against it */
	demand(o->cfg.type, nd,
	       o->sustained && !o->peak_covered ? peak_ops(nd) : nd->iops,
	       &iops, &mibps);
	if (iops > 0)
		hi = (have_i - iops) / iops * 100.0;
	if (mibps > 0)
		hm = (have_m - mibps) / mibps * 100.0;
	o->headroom_pct = fmin(hi, hm);
	if (!isfinite(o->headroom_pct))
		o->headroom_pct = 0;
	o->usd_per_kiops =
	    o->perf.baseline_iops > 0
		? o->cost.total / (o->perf.baseline_iops / 1000.0)
		: 0;
	o->fit = r->fit;
}

/* 1 when money in currency is shown as "$" (USD, or none given) */
static int is_usd(const char *currency)
{
	return !currency || !*currency || !strcmp(currency, "USD");
}

/* HDD volumes are for large sequential I/O: below 64 KiB (T15 [S5]) each
 * I/O still costs 1 MiB of credit, so small random I/O rules them out. */
#define HDD_MIN_IO_KIB 64.0

static void solve_type(const struct solver_input *in, enum vol_type t,
		       const struct need *nd, struct solver_result *r)
{
	struct candidate one, best, cur;
	char why[256] = "", why1[256] = "";
	int have_one, have_best = 0;
	long best_k = 0;

	if (is_hdd(t) && nd->iops > 0 && nd->io_kib < HDD_MIN_IO_KIB) {
		add_note(
		    r,
		    "%s ruled out: %g KiB I/O is small random I/O; %s counts every I/O as 1 MiB (%g IOPS would spend %g MiB/s of credit) and is meant for large sequential I/O (64 KiB or more)",
		    model_type_name(t), nd->io_kib, model_type_name(t),
		    nd->iops, r->hdd_mibps);
		return;
	}

	have_one = solver_best_of_type(in->lim[t], in->prices[t], nd, 1, &one,
				       why1, sizeof(why1));
	for (long k = 2; k <= in->max_stripe; k++) {
		/* why keeps the reason of the widest stripe: each of its
		 * volumes carries the least, so its limit is the one that
		 * binds */
		if (!solver_best_of_type(in->lim[t], in->prices[t], nd, k, &cur,
					 why, sizeof(why)))
			continue;
		if (!have_best ||
		    cur.cost.total < best.cost.total - MODEL_EPS) {
			best = cur;
			best_k = k;
			have_best = 1;
		}
	}
	if (have_one) {
		annotate(&one, nd, r);
		add_option(r, &one);
	}
	if (have_best &&
	    (!have_one || best.cost.total < one.cost.total - 0.005)) {
		annotate(&best, nd, r);
		add_option(r, &best);
		if (have_one)
			add_note(
			    r,
			    "a stripe of %ld x %s beats one %s volume by %s%s%.2f a month (%.0f %%)",
			    best_k, model_type_name(t), model_type_name(t),
			    is_usd(in->currency) ? "$" : in->currency,
			    is_usd(in->currency) ? "" : " ",
			    one.cost.total - best.cost.total,
			    (one.cost.total - best.cost.total) /
				one.cost.total * 100);
	}
	if (!have_one && !have_best) {
		if (in->max_stripe > 1)
			add_note(r, "%s ruled out: even as a stripe of %ld, %s",
				 model_type_name(t), in->max_stripe, why);
		else
			add_note(r, "%s ruled out: %s", model_type_name(t),
				 why1);
	}
	if ((t == VT_GP2 || is_hdd(t)) && nd->peak_iops <= 0 &&
	    best_burst_only(in->lim[t], in->prices[t], nd, &cur)) {
		/* only worth showing if cheaper than what sustains it */
		if ((!have_one || cur.cost.total < one.cost.total - 0.005) &&
		    (!have_best || cur.cost.total < best.cost.total - 0.005)) {
			annotate(&cur, nd, r);
			add_option(r, &cur);
		}
	}
}

long solver_max_stripe(const struct solver_input *in)
{
	long cap = in->max_stripe;

	/* MaximumEbsAttachments counts the root volume too */
	if (in->inst && in->inst->max_ebs_attachments > 0 &&
	    in->inst->max_ebs_attachments - 1 < cap)
		cap = in->inst->max_ebs_attachments - 1;
	return cap;
}

int solver_run(const struct solver_input *in_, const struct need *nd,
	       struct solver_result *r)
{
	struct solver_input eff = *in_;
	const struct solver_input *in = &eff;
	double dummy;

	memset(r, 0, sizeof(*r));
	demand(VT_GP3, nd, peak_ops(nd), &r->ssd_iops, &r->mibps);
	demand(VT_ST1, nd, nd->iops, &dummy, &r->hdd_mibps);
	r->fit = FIT_UNCHECKED;
	eff.max_stripe = solver_max_stripe(in_);
	if (eff.max_stripe < in_->max_stripe)
		add_note(
		    r,
		    "%s attaches at most %ld EBS volumes (MaximumEbsAttachments, its root volume included): sets of more than %ld volumes are not offered",
		    in->inst->instance_type, in->inst->max_ebs_attachments,
		    eff.max_stripe);
	if (eff.max_stripe < 1)
		return 0;
	if (in->inst && in->inst->ebs_optimized == EBS_OPT_UNSUPPORTED) {
		add_note(
		    r,
		    "%s is not EBS-optimizable (EbsOptimizedSupport unsupported): AWS publishes no EBS limit for it and its EBS traffic shares the instance's network bandwidth, so whether it carries the need is not checked",
		    in->inst->instance_type);
	} else if (in->inst) {
		r->fit = solver_instance_fit(in->inst, peak_ops(nd), r->mibps);
		if (r->fit == FIT_NO) {
			add_note(
			    r,
			    "%s carries at most %g IOPS and %.1f MiB/s (%g MB/s) of EBS traffic; the need is %g IOPS and %.1f MiB/s",
			    in->inst->instance_type, in->inst->max_iops,
			    model_mbytes_to_mibps(in->inst->max_mbytes_per_s),
			    in->inst->max_mbytes_per_s, peak_ops(nd), r->mibps);
			return 0;
		}
		if (r->fit == FIT_BURST)
			add_note(
			    r,
			    "%s carries this only in its EBS burst (30 minutes per 24 hours): baseline %g IOPS, %.1f MiB/s",
			    in->inst->instance_type, in->inst->baseline_iops,
			    model_mbytes_to_mibps(
				in->inst->baseline_mbytes_per_s));
	}
	for (int t = 0; t < VT_COUNT; t++)
		if (in->lim[t] && in->prices[t])
			solve_type(in, (enum vol_type)t, nd, r);
	if (r->n)
		qsort(r->opts, r->n, sizeof(*r->opts), cmp_option);
	return 0;
}

void solver_result_release(struct solver_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->opts);
	memset(r, 0, sizeof(*r));
}
