/*
 * model.c - EBS cost, performance and legality rules (ebs-facts.md T1-T6).
 *
 * Pure arithmetic: no I/O, no allocation, no globals beyond the constant
 * type table.  Dated limits come in through struct volume_limits; the rules
 * that never changed (gp2 burst, HDD MiB/s per TiB, io1/io2 throughput
 * ratios) are constants here, each with its source.  Does not know about
 * regions, SQLite or output formats.
 */
#include "ebsize/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* One row per volume type: what a user may provision on it. */
struct type_info {
	const char *name;
	int provisioned_iops;	    /* --iops is a purchase, not a result */
	int iops_required;	    /* ... with none included: must be given */
	int provisioned_throughput; /* --throughput is a purchase */
	int bills_io;		    /* each I/O request is billed (T4) */
};

/* T1/T3: gp3 includes 3,000 IOPS and 125 MiB/s and sells more; io1/io2
 * sell every IOPS; the others deliver what their size gives. */
static const struct type_info types[VT_COUNT] = {
	[VT_GP2] = { "gp2", 0, 0, 0, 0 },
	[VT_GP3] = { "gp3", 1, 0, 1, 0 },
	[VT_IO1] = { "io1", 1, 1, 0, 0 },
	[VT_IO2] = { "io2", 1, 1, 0, 0 },
	[VT_ST1] = { "st1", 0, 0, 0, 0 },
	[VT_SC1] = { "sc1", 0, 0, 0, 0 },
	[VT_STANDARD] = { "standard", 0, 0, 0, 1 },
};

const char *model_type_name(enum vol_type t)
{
	return (unsigned)t < VT_COUNT ? types[t].name : NULL;
}

const char *model_ebs_optimized_name(enum ebs_optimized e)
{
	switch (e) {
	case EBS_OPT_DEFAULT: return "default";
	case EBS_OPT_SUPPORTED: return "supported";
	case EBS_OPT_UNSUPPORTED: return "unsupported";
	}
	return "default";
}

int model_type_buys_iops(enum vol_type t)
{
	return (unsigned)t < VT_COUNT && types[t].provisioned_iops;
}

int model_type_needs_iops(enum vol_type t)
{
	return (unsigned)t < VT_COUNT && types[t].iops_required;
}

int model_type_bills_io(enum vol_type t)
{
	return (unsigned)t < VT_COUNT && types[t].bills_io;
}

int model_type_buys_throughput(enum vol_type t)
{
	return (unsigned)t < VT_COUNT && types[t].provisioned_throughput;
}

int model_type_parse(const char *s, enum vol_type *out)
{
	for (int t = 0; t < VT_COUNT; t++) {
		if (!strcasecmp(s, types[t].name)) {
			*out = (enum vol_type)t;
			return 0;
		}
	}
	return -1;
}

/* ------------------------------------------------------------ gp2 */

double model_gp2_baseline_iops(double size_gib)
{
	/* T2 [S1]: 3 IOPS/GiB, floor 100, cap 16,000 */
	return fmax(GP2_MIN_IOPS,
		    fmin(GP2_MAX_IOPS, GP2_IOPS_PER_GIB * size_gib));
}

double model_gp2_burst_iops(double size_gib)
{
	/* T2 [S1]: bursts to 3,000 IOPS while baseline is below it */
	return fmax(GP2_BURST_IOPS, model_gp2_baseline_iops(size_gib));
}

double model_gp2_burst_mibps(double size_gib)
{
	/* T2 [S1, S4]: 128 MiB/s up to 170 GiB, 250 above (while credits
	 * last between 170 and 334 GiB) */
	return size_gib <= 170.0 ? 128.0 : 250.0;
}

double model_gp2_baseline_mibps(double size_gib)
{
	/* T2: 250 MiB/s sustained only from 334 GiB */
	return size_gib >= 334.0 ? 250.0 : 128.0;
}

/* ------------------------------------------------------------ st1/sc1 */

double model_hdd_baseline_mibps(enum vol_type t, double size_gib)
{
	double tib = size_gib / 1024.0;

	/* T5 [S3]: st1 40 MiB/s per TiB up to 500; sc1 12 per TiB up to 250 */
	if (t == VT_ST1)
		return fmin(500.0, 40.0 * tib);
	return fmin(250.0, 12.0 * tib);
}

double model_hdd_burst_mibps(enum vol_type t, double size_gib)
{
	double tib = size_gib / 1024.0;

	/* T5 [S3]: st1 250 MiB/s per TiB up to 500; sc1 80 per TiB up to 250 */
	if (t == VT_ST1)
		return fmin(500.0, 250.0 * tib);
	return fmin(250.0, 80.0 * tib);
}

double model_hdd_bucket_mib(double size_gib)
{
	/* T5 [S3]: 1 TiB of credits per TiB of size */
	return size_gib * 1024.0;
}

/* ------------------------------------------------------------ io1/io2 */

double model_piops_max_mibps(enum vol_type t, double iops)
{
	/* T4 [S2]: io2 0.256 MiB/s per IOPS up to 4,000; io1 256 KiB per
	 * IOPS up to 32,000 IOPS (500 MiB/s), 16 KiB above, up to 1,000 */
	if (t == VT_IO2)
		return fmin(4000.0, IO2_MIBPS_PER_IOPS * iops);
	if (iops <= IO1_LOW_IOPS)
		return fmin(IO1_LOW_MAX_MIBPS,
			    iops * IO1_LOW_KIB_PER_IOPS / 1024.0);
	return fmin(IO1_MAX_MIBPS, iops * IO1_HIGH_KIB_PER_IOPS / 1024.0);
}

double model_piops_iops_for_mibps(enum vol_type t, double mibps)
{
	if (mibps <= 0)
		return 0;
	if (t == VT_IO2)
		return mibps > 4000.0 + MODEL_EPS
			   ? -1
			   : ceil(mibps / IO2_MIBPS_PER_IOPS - MODEL_EPS);
	if (mibps <= 500.0 + MODEL_EPS)
		return ceil(mibps * 1024.0 / SSD_IO_UNIT_KIB - MODEL_EPS);
	if (mibps > 1000.0 + MODEL_EPS)
		return -1;
	/* above 32,000 IOPS io1 moves 16 KiB per IOPS */
	return fmax(32001.0, ceil(mibps * 1024.0 / 16.0 - MODEL_EPS));
}

double model_ssd_iops_for(enum vol_type t, double ops, double io_kib)
{
	if (t == VT_IO2)
		return fmax(ops, ops * io_kib / 1024.0 / IO2_MIBPS_PER_IOPS);
	return ops * fmax(1.0, ceil(io_kib / SSD_IO_UNIT_KIB - MODEL_EPS));
}

/* ------------------------------------------------------------ legality */

void model_apply_defaults(const struct volume_limits *lim,
			  struct vol_config *cfg)
{
	if (cfg->count <= 0)
		cfg->count = 1;
	if (cfg->type == VT_GP3) {
		if (!cfg->iops)
			cfg->iops = lim->included_iops;
		if (!cfg->throughput_mibps)
			cfg->throughput_mibps = (long)lim->included_mibps;
	}
}

static long ceil_div(double need, double per)
{
	return (long)ceil(need / per - MODEL_EPS);
}

static const char *lname(const struct volume_limits *lim)
{
	return model_type_name(lim->type);
}

/*
 * The legality rules of a configuration, one small check each, in the
 * order model_validate applies them.  A check returns 0 when cfg keeps its
 * rule; else 1, the reason in why and the one-step repair in fix (already
 * a copy of cfg).  Sizes and limits come from lim (dated database rows,
 * ebs-facts.md T1/T3/T4); which type may provision what from types[].
 */
struct rule_ctx {
	const struct volume_limits *lim;
	const struct type_info *ti;
	const struct vol_config *cfg;
	struct vol_config *fix;
	char *why;
	size_t whylen;
};

static int rule_size_range(const struct rule_ctx *r)
{
	const struct volume_limits *lim = r->lim;
	long size = r->cfg->size_gib;

	if (size >= lim->min_size_gib && size <= lim->max_size_gib)
		return 0;
	snprintf(r->why, r->whylen,
		 "%s volumes are %ld to %ld GiB; %ld GiB is out of range",
		 lname(lim), lim->min_size_gib, lim->max_size_gib, size);
	r->fix->size_gib =
	    size < lim->min_size_gib ? lim->min_size_gib : lim->max_size_gib;
	return 1;
}

/* IOPS given for a type that does not sell them (gp2 grows instead). */
static int rule_iops_not_sold(const struct rule_ctx *r)
{
	const struct volume_limits *lim = r->lim;
	long want;

	if (r->ti->provisioned_iops || !r->cfg->iops)
		return 0;
	r->fix->iops = 0;
	if (lim->type != VT_GP2) {
		snprintf(r->why, r->whylen, "IOPS cannot be provisioned on %s",
			 lname(lim));
		return 1;
	}
	want = ceil_div((double)r->cfg->iops, GP2_IOPS_PER_GIB);
	snprintf(
	    r->why, r->whylen,
	    "IOPS cannot be provisioned on gp2: it delivers 3 IOPS per GiB (%ld GiB for %ld IOPS)",
	    want, r->cfg->iops);
	r->fix->size_gib = want > r->cfg->size_gib ? want : r->cfg->size_gib;
	if (r->fix->size_gib > lim->max_size_gib)
		r->fix->size_gib = lim->max_size_gib;
	return 1;
}

static int rule_throughput_not_sold(const struct rule_ctx *r)
{
	if (r->ti->provisioned_throughput || !r->cfg->throughput_mibps)
		return 0;
	snprintf(r->why, r->whylen,
		 "throughput cannot be provisioned on %s (only on gp3)",
		 lname(r->lim));
	r->fix->throughput_mibps = 0;
	return 1;
}

static int rule_iops_range(const struct rule_ctx *r)
{
	const struct volume_limits *lim = r->lim;
	long iops = r->cfg->iops;

	if (!r->ti->provisioned_iops ||
	    (iops >= lim->min_iops && iops <= lim->max_iops))
		return 0;
	snprintf(r->why, r->whylen,
		 "%s IOPS must be %ld to %ld; %ld is out of range", lname(lim),
		 lim->min_iops, lim->max_iops, iops);
	r->fix->iops = iops < lim->min_iops ? lim->min_iops : lim->max_iops;
	return 1;
}

/* T3: max IOPS for a size = max(3,000, 500 x GiB): the per-GiB rule only
 * limits IOPS above the type's minimum */
static int rule_iops_per_gib(const struct rule_ctx *r)
{
	const struct volume_limits *lim = r->lim;
	const struct vol_config *cfg = r->cfg;
	long need;

	if (!r->ti->provisioned_iops ||
	    cfg->iops <= model_max_iops_for_size(lim, cfg->size_gib))
		return 0;
	need = model_min_size_for_iops(lim, cfg->iops);
	snprintf(
	    r->why, r->whylen,
	    "%s allows at most %g IOPS per GiB: %ld IOPS need at least %ld GiB",
	    lname(lim), lim->max_iops_per_gib, cfg->iops, need);
	if (need <= lim->max_size_gib)
		r->fix->size_gib = need;
	else
		r->fix->iops =
		    (long)floor(lim->max_iops_per_gib * (double)cfg->size_gib);
	return 1;
}

static int rule_throughput_range(const struct rule_ctx *r)
{
	const struct volume_limits *lim = r->lim;
	double mibps = (double)r->cfg->throughput_mibps;

	if (!r->ti->provisioned_throughput ||
	    (mibps >= lim->min_mibps && mibps <= lim->max_mibps))
		return 0;
	snprintf(r->why, r->whylen,
		 "%s throughput must be %g to %g MiB/s; %ld is out of range",
		 lname(lim), lim->min_mibps, lim->max_mibps,
		 r->cfg->throughput_mibps);
	r->fix->throughput_mibps = mibps < lim->min_mibps
				       ? (long)lim->min_mibps
				       : (long)lim->max_mibps;
	return 1;
}

/* T3: gp3 MiB/s at most 0.25 x provisioned IOPS (lim->max_mibps_per_iops) */
static int rule_mibps_per_iops(const struct rule_ctx *r)
{
	const struct volume_limits *lim = r->lim;
	const struct vol_config *cfg = r->cfg;
	long need;

	if (!r->ti->provisioned_throughput || lim->max_mibps_per_iops <= 0 ||
	    (double)cfg->throughput_mibps <=
		lim->max_mibps_per_iops * (double)cfg->iops + MODEL_EPS)
		return 0;
	need = ceil_div((double)cfg->throughput_mibps, lim->max_mibps_per_iops);
	snprintf(
	    r->why, r->whylen,
	    "%s allows at most %g MiB/s per provisioned IOPS: %ld MiB/s need at least %ld IOPS",
	    lname(lim), lim->max_mibps_per_iops, cfg->throughput_mibps, need);
	if (need <= lim->max_iops)
		r->fix->iops = need;
	else
		r->fix->throughput_mibps =
		    (long)floor(lim->max_mibps_per_iops * (double)cfg->iops);
	return 1;
}

static int (*const rules[])(const struct rule_ctx *) = {
	rule_size_range,     rule_iops_not_sold, rule_throughput_not_sold,
	rule_iops_range,     rule_iops_per_gib,	 rule_throughput_range,
	rule_mibps_per_iops,
};

/*
 * Find the first rule cfg breaks.  Returns 0 if none; else 1, a message in
 * why (if non-NULL) and the one-step repair applied to fix.
 */
static int first_violation(const struct volume_limits *lim,
			   const struct vol_config *cfg, struct vol_config *fix,
			   char *why, size_t whylen)
{
	char dummy[8];
	struct rule_ctx r = {
		lim, &types[lim->type], cfg,
		fix, why ? why : dummy, why ? whylen : sizeof(dummy)
	};

	*fix = *cfg;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i](&r))
			return 1;
	return 0;
}

int model_validate(const struct volume_limits *lim,
		   const struct vol_config *cfg, struct vol_config *nearest,
		   char *why, size_t whylen)
{
	struct vol_config cur = *cfg, fix;

	if (!first_violation(lim, cfg, &fix, why, whylen)) {
		if (nearest)
			*nearest = *cfg;
		return 0;
	}
	/* repair one rule at a time; each repair moves toward the box of
	 * legal values, so a handful of steps always suffices */
	for (int i = 0; i < 16; i++) {
		cur = fix;
		if (!first_violation(lim, &cur, &fix, NULL, 0))
			break;
	}
	if (nearest)
		*nearest = cur;
	return -1;
}

/* ------------------------------------------------------------ cost */

int model_type_priced(const struct price_set *ps, enum vol_type t)
{
	const struct type_prices *p;

	if ((int)t < 0 || t >= VT_COUNT)
		return 0;
	p = &ps->type[t];
	/* what a volume costs without I/O: per-request prices (standard)
	 * are needed only when an I/O count is given */
	return p->have_storage && (!types[t].provisioned_iops || p->n_iops) &&
	       (!types[t].provisioned_throughput || p->n_throughput);
}

double model_tiered_cost(const struct price_tier *tiers, size_t n, double units)
{
	double sum = 0.0;

	for (size_t i = 0; i < n; i++) {
		double hi =
		    tiers[i].end < 0 ? units : fmin(units, tiers[i].end);
		double billable = hi - tiers[i].begin;

		if (billable > 0)
			sum += billable * tiers[i].price;
	}
	return sum;
}

int model_cost(const struct type_prices *p, const struct vol_config *cfg,
	       struct cost *out)
{
	double k = (double)(cfg->count > 0 ? cfg->count : 1);

	memset(out, 0, sizeof(*out));
	if (!p->have_storage)
		return -1;
	out->storage = k * (double)cfg->size_gib * p->storage_per_gib_month;
	if (types[cfg->type].provisioned_iops) {
		if (!p->n_iops)
			return -1;
		out->iops = k * model_tiered_cost(p->iops, p->n_iops,
						  (double)cfg->iops);
	}
	if (types[cfg->type].provisioned_throughput) {
		if (!p->n_throughput)
			return -1;
		out->throughput =
		    k * model_tiered_cost(p->throughput, p->n_throughput,
					  (double)cfg->throughput_mibps);
	}
	if (cfg->type == VT_STANDARD && cfg->io_per_month > 0) {
		if (!p->have_io)
			return -1;
		out->io = k * cfg->io_per_month / 1e6 * p->io_per_million;
	}
	out->total = out->storage + out->iops + out->throughput + out->io;
	return 0;
}

/* ------------------------------------------------------------ perf */

/* Performance of one volume; model_perf scales by count. */
static void perf_one(const struct vol_config *cfg, struct perf *o)
{
	double size = (double)cfg->size_gib;

	memset(o, 0, sizeof(*o));
	switch (cfg->type) {
	case VT_GP2:
		o->baseline_iops = model_gp2_baseline_iops(size);
		o->burst_iops = model_gp2_burst_iops(size);
		o->bucket = GP2_BUCKET_CREDITS;
		if (o->burst_iops > o->baseline_iops)
			o->burst_seconds = GP2_BUCKET_CREDITS /
					   (o->burst_iops - o->baseline_iops);
		/* T2: throughput = IOPS x I/O size (256 KiB max), capped */
		o->baseline_mibps =
		    fmin(model_gp2_baseline_mibps(size),
			 model_mibps_for(o->baseline_iops, 256));
		o->burst_mibps = fmin(model_gp2_burst_mibps(size),
				      model_mibps_for(o->burst_iops, 256));
		break;
	case VT_GP3:
		o->baseline_iops = o->burst_iops = (double)cfg->iops;
		o->baseline_mibps = o->burst_mibps =
		    (double)cfg->throughput_mibps;
		break;
	case VT_IO1:
	case VT_IO2:
		o->baseline_iops = o->burst_iops = (double)cfg->iops;
		o->baseline_mibps = o->burst_mibps =
		    model_piops_max_mibps(cfg->type, (double)cfg->iops);
		break;
	case VT_ST1:
	case VT_SC1:
		/* T1/T5: I/O counted in 1 MiB units; 500 / 250 IOPS max */
		o->baseline_mibps = model_hdd_baseline_mibps(cfg->type, size);
		o->burst_mibps = model_hdd_burst_mibps(cfg->type, size);
		o->baseline_iops =
		    fmin(cfg->type == VT_ST1 ? 500 : 250, o->baseline_mibps);
		o->burst_iops =
		    fmin(cfg->type == VT_ST1 ? 500 : 250, o->burst_mibps);
		o->bucket = model_hdd_bucket_mib(size);
		if (o->burst_mibps > o->baseline_mibps)
			o->burst_seconds =
			    o->bucket / (o->burst_mibps - o->baseline_mibps);
		break;
	case VT_STANDARD:
		/* T1 [S4]: 40-200 IOPS, ~100 on average; 40-90 MiB/s */
		o->baseline_iops = o->burst_iops = 100;
		o->baseline_mibps = 40;
		o->burst_mibps = 90;
		break;
	case VT_COUNT: break;
	}
}

void model_perf(const struct vol_config *cfg, struct perf *out)
{
	double k = (double)(cfg->count > 0 ? cfg->count : 1);

	perf_one(cfg, out);
	out->baseline_iops *= k;
	out->burst_iops *= k;
	out->baseline_mibps *= k;
	out->burst_mibps *= k;
}

/* ------------------------------------------------------------ IOPS per size */

long model_max_iops_for_size(const struct volume_limits *lim, long size_gib)
{
	double by_size;

	if (!lim->min_iops)
		return 0;
	if (lim->max_iops_per_gib <= 0)
		return lim->max_iops;
	/* T3 "max IOPS for size": min(max, max(min, ratio x GiB)) */
	by_size = floor(lim->max_iops_per_gib * (double)size_gib + MODEL_EPS);
	if (by_size < (double)lim->min_iops)
		by_size = (double)lim->min_iops;
	return by_size < (double)lim->max_iops ? (long)by_size : lim->max_iops;
}

long model_min_size_for_iops(const struct volume_limits *lim, long iops)
{
	long need = lim->min_size_gib;

	/* T3: any size carries the type's minimum (gp3: the included 3,000) */
	if (lim->max_iops_per_gib > 0 && iops > lim->min_iops) {
		long by_ratio = ceil_div((double)iops, lim->max_iops_per_gib);

		if (by_ratio > need)
			need = by_ratio;
	}
	return need;
}

/* ------------------------------------------------------------ gp2 -> gp3 */

void model_gp3_like_gp2(const struct volume_limits *gp3, long size_gib,
			struct vol_config *out)
{
	double base = model_gp2_baseline_iops((double)size_gib);

	memset(out, 0, sizeof(*out));
	out->type = VT_GP3;
	out->size_gib = size_gib;
	out->count = 1;
	/* T2 [S1]: a gp2 of 1,000 GiB or more delivers 3 IOPS/GiB sustained */
	out->iops = (long)fmax((double)gp3->included_iops, base);
	/* T2 [S1, S4]: 250 MiB/s above 170 GiB; T3: 125 included (the
	 * 3 MiB/s below gp2's 128 is the decision in model.h) */
	out->throughput_mibps = size_gib > GP2_HIGH_MIBPS_ABOVE_GIB
				    ? GP2_HIGH_MIBPS
				    : (long)gp3->included_mibps;
}

double model_gp3_mibps_short(long gp2_size_gib, double gp3_mibps)
{
	double short_by =
	    model_gp2_burst_mibps((double)gp2_size_gib) - gp3_mibps;

	return short_by > MODEL_EPS ? short_by : 0;
}

enum model_fit model_gp3_for_need(const struct volume_limits *gp3,
				  double size_gib, double need_iops,
				  double need_mibps, struct vol_config *out)
{
	double mibps = fmax(gp3->included_mibps, ceil(need_mibps - MODEL_EPS));
	double iops =
	    fmax((double)gp3->included_iops, ceil(need_iops - MODEL_EPS));
	double size =
	    fmax((double)gp3->min_size_gib, ceil(size_gib - MODEL_EPS));
	enum model_fit fit = MODEL_FIT_OK;

	/* T3: at most 0.25 MiB/s per provisioned IOPS */
	if (gp3->max_mibps_per_iops > 0)
		iops = fmax(iops,
			    ceil(mibps / gp3->max_mibps_per_iops - MODEL_EPS));
	if (iops > (double)gp3->max_iops || mibps > gp3->max_mibps) {
		iops = fmin(iops, (double)gp3->max_iops);
		mibps = fmin(mibps, gp3->max_mibps);
		fit = MODEL_FIT_PERF;
	}
	size = fmax(size, (double)model_min_size_for_iops(gp3, (long)iops));
	if (fit == MODEL_FIT_OK && size > (double)gp3->max_size_gib)
		fit = MODEL_FIT_SIZE;
	if (size > (double)gp3->max_size_gib)
		size = (double)gp3->max_size_gib;
	memset(out, 0, sizeof(*out));
	out->type = VT_GP3;
	out->size_gib = (long)size;
	out->count = 1;
	out->iops = (long)iops;
	out->throughput_mibps = (long)mibps;
	return fit;
}

int model_gp3_for_load(const struct volume_limits *gp3, long size_gib,
		       double need_iops, double need_mibps,
		       struct vol_config *out)
{
	long cap;

	if (model_gp3_for_need(gp3, (double)size_gib, need_iops, need_mibps,
			       out) == MODEL_FIT_OK &&
	    out->size_gib == size_gib)
		return 0;
	/* the most size_gib carries toward the need */
	cap = model_max_iops_for_size(gp3, size_gib);
	out->size_gib = size_gib;
	if (out->iops > cap)
		out->iops = cap;
	if (gp3->max_mibps_per_iops > 0 &&
	    (double)out->throughput_mibps >
		gp3->max_mibps_per_iops * (double)out->iops)
		out->throughput_mibps = (long)floor(
		    gp3->max_mibps_per_iops * (double)out->iops + MODEL_EPS);
	return -1;
}

int model_gp2_sized_for_iops(long size_gib, long *target_iops)
{
	const long per = (long)GP2_IOPS_PER_GIB, step = GP2_SIZED_STEP_IOPS;
	long k = (per * size_gib) / step;

	/* size = ceil(1000 k / 3)  <=>  0 <= 3 size - 1000 k <= 2 */
	/* T2 [S1]: gp2 stops at 16,000 IOPS (5,334 GiB); a larger size
	 * buys no IOPS, so it was not chosen for them */
	if (k < (long)GP2_BURST_IOPS / step || k > (long)GP2_MAX_IOPS / step ||
	    per * size_gib - step * k > per - 1)
		return 0;
	if (target_iops)
		*target_iops = step * k;
	return 1;
}

double model_gp2_seconds_to_empty(double size_gib, double credits,
				  double load_iops)
{
	double drain = fmin(load_iops, model_gp2_burst_iops(size_gib)) -
		       model_gp2_baseline_iops(size_gib);

	/* T2 [S1]: burst duration = credits / (burst IOPS - baseline IOPS) */
	if (drain <= 0)
		return -1;
	return credits / drain;
}

double model_gp2_alarm_pct(double size_gib, double load_iops,
			   double lead_seconds)
{
	double drain = fmin(load_iops, model_gp2_burst_iops(size_gib)) -
		       model_gp2_baseline_iops(size_gib);
	double pct;

	if (drain <= 0)
		return 0;
	/* T15 derived: credits left = BurstBalance % x 5,400,000 */
	pct =
	    ceil(lead_seconds * drain / GP2_BUCKET_CREDITS * 100.0 - MODEL_EPS);
	return fmax(1.0, fmin(100.0, pct));
}

/* ------------------------------------------------------------ beside gp2 */

void model_gp2_target(long size_gib, long load_iops,
		      struct model_gp2_target *tg)
{
	struct vol_config gp2 = { VT_GP2, size_gib, 0, 0, 1, 0 };
	struct perf pf;

	model_perf(&gp2, &pf);
	tg->iops = fmax(pf.burst_iops, (double)load_iops);
	tg->mibps = pf.burst_mibps;
	tg->sustained_iops = pf.baseline_iops;
	tg->sustained_mibps = pf.baseline_mibps;
}

/*
 * The smallest st1/sc1 size, from `from` GiB up, that sustains mibps
 * (T5 [S3]: baseline MiB/s per TiB); the largest size when none does.
 */
static long hdd_size_for(const struct volume_limits *lim, long from,
			 double mibps)
{
	long lo = from > lim->min_size_gib ? from : lim->min_size_gib;
	long hi = lim->max_size_gib;

	if (lo > hi)
		return hi;
	if (model_hdd_baseline_mibps(lim->type, (double)hi) + MODEL_EPS < mibps)
		return hi;
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (model_hdd_baseline_mibps(lim->type, (double)mid) +
			MODEL_EPS >=
		    mibps)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int model_like_gp2(enum vol_type t, long size_gib, long load_iops,
		   long gp3_mibps, const struct volume_limits *lims,
		   struct vol_config *out)
{
	const struct volume_limits *lim = &lims[t];
	struct model_gp2_target tg;
	struct vol_config like;
	double iops;

	model_gp2_target(size_gib, load_iops, &tg);
	memset(out, 0, sizeof(*out));
	out->type = t;
	out->size_gib = size_gib;
	out->count = 1;
	switch (t) {
	case VT_GP2: return 0;
	case VT_GP3:
		model_gp3_like_gp2(lim, size_gib, &like);
		return model_gp3_for_need(
			   lim, (double)size_gib,
			   fmax((double)like.iops, (double)load_iops),
			   gp3_mibps ? (double)gp3_mibps
				     : (double)like.throughput_mibps,
			   out)
			   ? -1
			   : 0;
	case VT_IO1:
	case VT_IO2:
		iops = model_piops_iops_for_mibps(t, tg.mibps);
		out->iops = (long)fmax(tg.iops, iops);
		out->size_gib = model_min_size_for_iops(lim, out->iops);
		if (out->size_gib < size_gib)
			out->size_gib = size_gib;
		break;
	case VT_ST1:
	case VT_SC1:
		out->size_gib = hdd_size_for(lim, size_gib, tg.sustained_mibps);
		break;
	case VT_STANDARD:
	case VT_COUNT: break;
	}
	if (out->size_gib < lim->min_size_gib)
		out->size_gib = lim->min_size_gib;
	if (out->size_gib > lim->max_size_gib)
		out->size_gib = lim->max_size_gib;
	return model_validate(lim, out, NULL, NULL, 0);
}
