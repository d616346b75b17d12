/*
 * scan.c - inventory analysis: one volume in, at most one finding out,
 * with savings from model_cost() and the commands that apply it.
 *
 * One finding per volume, so totals never count a volume twice.  The order
 * of preference: unattached (pays for nothing), then for gp2 a right-size
 * when its data is small, burst risk when CloudWatch shows the bucket
 * draining, else gp3 in place; for io1/io2/gp3 lower IOPS/throughput (or a
 * cheaper type) when CloudWatch shows peaks far below what is provisioned.
 *
 * Pure: no I/O, no SQLite, no printing.  The gp2 -> gp3 equivalence and
 * burst arithmetic are model.c's; this file only decides and explains.
 */
#include "ebsize/scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

static const char *const cat_names[SCAN_CAT_COUNT] = {
	[SCAN_GP2_TO_GP3] = "gp2_to_gp3",
	[SCAN_GP2_SIZED_FOR_IOPS] = "gp2_sized_for_iops",
	[SCAN_GP2_BURST_RISK] = "gp2_burst_risk",
	[SCAN_OVERPROVISIONED] = "overprovisioned",
	[SCAN_UNATTACHED] = "unattached",
	[SCAN_EXCLUDED] = "excluded",
	[SCAN_IO1_TO_IO2] = "io1_to_io2",
	[SCAN_IO1_TO_GP3] = "io1_to_gp3",
	[SCAN_NOT_IN_INVENTORY] = "not_in_inventory",
};

const char *scan_cat_name(enum scan_cat c)
{
	return (unsigned)c < SCAN_CAT_COUNT ? cat_names[c] : NULL;
}

const char *scan_level_name(enum scan_level l)
{
	return l == SCAN_HIGH ? "high" : l == SCAN_MEDIUM ? "medium" : "low";
}

/* ------------------------------------------------------------ load */

struct point {
	long long t;
	int metric;
	double v;
};

/* By time, then metric, then the larger value first. */
static int point_cmp(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	if (x->metric != y->metric)
		return x->metric - y->metric;
	return (x->v < y->v) - (x->v > y->v);
}

/*
 * Largest per-timestamp sum of the points of two metrics (read + write),
 * divided by the period.  A (metric, timestamp) seen more than once (the
 * same file given twice, overlapping windows) counts once, at its largest
 * value.  -1 when there are no points.
 */
static double peak_rate(const struct inv_series *const *s, size_t n,
			enum inv_metric a, enum inv_metric b, long period)
{
	struct point *pts = NULL;
	size_t np = 0, alloc = 0;
	double best = -1, sum;

	for (size_t i = 0; i < n; i++) {
		if ((s[i]->metric != a && s[i]->metric != b) ||
		    s[i]->period_s != period)
			continue;
		xgrow((void **)&pts, &alloc, np + s[i]->n, sizeof(*pts));
		for (size_t j = 0; j < s[i]->n; j++)
			pts[np++] =
			    (struct point){ s[i]->t[j], (int)s[i]->metric,
					    s[i]->v[j] };
	}
	if (np)
		qsort(pts, np, sizeof(*pts), point_cmp);
	for (size_t i = 0; i < np;) {
		size_t j = i;

		for (sum = 0; j < np && pts[j].t == pts[i].t; j++)
			if (j == i || pts[j].metric != pts[j - 1].metric)
				sum +=
				    pts[j].v; /* the largest of each metric */
		best = fmax(best, sum / (double)period);
		i = j;
	}
	free(pts);
	return best;
}

int scan_load_from_series(const struct inv_series *const *s, size_t n,
			  struct scan_load *out)
{
	long period = n ? s[0]->period_s : 0;
	int skipped = 0;
	double r;

	memset(out, 0, sizeof(*out));
	out->period_s = period;
	for (size_t i = 0; i < n; i++) {
		const struct inv_series *x = s[i];

		if (x->period_s != period) {
			skipped++;
			continue;
		}
		for (size_t j = 0; j < x->n; j++) {
			double v = x->v[j];

			if (x->metric == IM_IOPS_EXCEEDED && v >= 0.5)
				out->iops_exceeded++;
			if (x->metric == IM_TPUT_EXCEEDED && v >= 0.5)
				out->tput_exceeded++;
			if (x->metric != IM_BURST_BALANCE)
				continue;
			if (!out->have_burst || x->t[j] < out->burst_first_t) {
				out->burst_first_t = x->t[j];
				out->burst_first_pct = v;
			}
			if (!out->have_burst || x->t[j] >= out->burst_last_t) {
				out->burst_last_t = x->t[j];
				out->burst_last_pct = v;
			}
			out->burst_min_pct =
			    out->have_burst ? fmin(out->burst_min_pct, v) : v;
			out->have_burst = 1;
		}
	}
	/* T15 [S6]: IOPS = Sum(ops) / P; B/s = Sum(bytes) / P */
	if ((r = peak_rate(s, n, IM_READ_OPS, IM_WRITE_OPS, period)) >= 0) {
		out->have_iops = 1;
		out->peak_iops = r;
	}
	if ((r = peak_rate(s, n, IM_READ_BYTES, IM_WRITE_BYTES, period)) >= 0) {
		out->have_mibps = 1;
		out->peak_mibps = r / 1048576.0;
	}
	return skipped;
}

/* ------------------------------------------------------------ analysis */

/*
 * Money to a millionth of a dollar: far below a cent, and free of the
 * binary noise of sums and differences (20.168499999999995 -> 20.1685),
 * which keeps JSON/CSV values clean and cheap to print exactly.
 */
double scan_usd(double v)
{
	return round(v * 1e6) / 1e6;
}

static int price(const struct price_set *ps, const struct vol_config *c,
		 double *usd, char *err)
{
	struct cost k;

	if (model_cost(&ps->type[c->type], c, &k))
		return ebs_fail(err, EBS_ERR_NOT_FOUND,
				"no complete %s prices for region '%s'",
				model_type_name(c->type), ps->region);
	*usd = scan_usd(k.total);
	return 0;
}

/* Headroom factor: 20 % -> 1.2. */
static double grow_by(const struct scan_opts *o)
{
	return 1.0 + o->headroom_pct / 100.0;
}

/* 1 when BurstBalance fell between its first and last observation. */
static int burst_falling(const struct scan_load *l)
{
	return l->have_burst && l->burst_last_pct < l->burst_first_pct &&
	       l->burst_last_t > l->burst_first_t;
}

/*
 * Credits per second the observed fall of BurstBalance implies (T15
 * derived: credits = BurstBalance % x 5,400,000); only when falling.
 */
static double burst_drain(const struct scan_load *l)
{
	return (l->burst_first_pct - l->burst_last_pct) / 100.0 *
	       GP2_BUCKET_CREDITS /
	       (double)(l->burst_last_t - l->burst_first_t);
}

/*
 * The load a gp2 is seen to put on its bucket, in IOPS: the larger drain
 * of the two observations -- the peak IOPS, and the baseline plus the fall
 * of BurstBalance (a 5-minute average hides spikes the balance does not)
 * -- capped at the burst ceiling, since a gp2 cannot spend credits faster
 * than 3,000 minus its baseline (T2 [S1]).  < 0 when neither shows a
 * drain.  The cliff and the alarm both use it: one drain for both.
 */
static double observed_load(const struct scan_volume *v)
{
	const struct scan_load *l = v->load;
	double size = (double)v->cfg.size_gib;
	double base = model_gp2_baseline_iops(size);
	double seen = -1;

	if (l && l->have_iops && l->peak_iops > base)
		seen = l->peak_iops;
	if (l && burst_falling(l))
		seen = fmax(seen, base + burst_drain(l));
	if (seen <= base)
		return -1;
	return fmin(seen, model_gp2_burst_iops(size));
}

/* The BurstBalance alarm of a gp2 that can burst (size < 1,000 GiB). */
static void set_alarm(const struct scan_volume *v, const struct scan_opts *o,
		      struct scan_finding *f)
{
	double size = (double)v->cfg.size_gib;
	double load = model_gp2_burst_iops(size);

	if (load <= model_gp2_baseline_iops(size))
		return;
	/* what was seen, else the worst case: a full burst (T2 [S1]) */
	if (f->load_iops > 0)
		load = f->load_iops;
	f->alarm_pct = model_gp2_alarm_pct(size, load, o->alarm_lead_s);
	f->alarm_load_iops = load;
	f->alarm_lead_s = model_gp2_seconds_to_empty(
	    size, f->alarm_pct / 100.0 * GP2_BUCKET_CREDITS, load);
}

/*
 * Seconds to the cliff under the observed load from the credits left
 * (T15 derived: BurstBalance % x 5,400,000; a full bucket without it);
 * < 0 when no drain was seen.
 */
static double cliff_seconds(const struct scan_volume *v,
			    const struct scan_finding *f)
{
	const struct scan_load *l = v->load;
	double credits = GP2_BUCKET_CREDITS;

	if (f->load_iops <= 0)
		return -1;
	if (l->have_burst)
		credits = l->burst_last_pct / 100.0 * GP2_BUCKET_CREDITS;
	return model_gp2_seconds_to_empty((double)v->cfg.size_gib, credits,
					  f->load_iops);
}

/* Is a gp2 burning credits: peak above baseline, or the balance falling? */
static int gp2_at_risk(const struct scan_volume *v)
{
	const struct scan_load *l = v->load;
	double size = (double)v->cfg.size_gib;

	if (!l || model_gp2_burst_iops(size) <= model_gp2_baseline_iops(size))
		return 0;
	return (l->have_iops && l->peak_iops > model_gp2_baseline_iops(size)) ||
	       (l->have_burst && (l->burst_last_pct < l->burst_first_pct ||
				  l->burst_min_pct < 50.0));
}

/*
 * A gp2's finding: right-size when --usage shows at most half the size is
 * needed, burst risk when CloudWatch shows credits draining, else gp3 in
 * place at the equivalent IOPS and MiB/s.  Sets the alarm either way.
 */
static void gp2_finding(const struct scan_volume *v,
			const struct volume_limits lim[VT_COUNT],
			const struct scan_opts *o, struct scan_finding *f)
{
	long size = v->cfg.size_gib, target = 0;
	struct vol_config eq;
	model_gp3_like_gp2(&lim[VT_GP3], size, &eq);
	f->prop = eq;
	set_alarm(v, o, f);
	if (v->used_gib >= 0 && v->used_gib <= (double)size) {
		long want = (long)ceil(v->used_gib * grow_by(o) - MODEL_EPS);
		long floor_gib = model_min_size_for_iops(&lim[VT_GP3], eq.iops);

		if (want < floor_gib)
			want = floor_gib;
		if (want * 2 <= size) {
			f->cat = SCAN_GP2_SIZED_FOR_IOPS;
			f->prop.size_gib = want;
			f->new_volume = 1;
			f->risk = SCAN_MEDIUM;
			f->confidence = SCAN_HIGH;
			return;
		}
	}
	if (gp2_at_risk(v)) {
		f->cat = SCAN_GP2_BURST_RISK;
		f->cliff_s = cliff_seconds(v, f);
		f->risk = SCAN_LOW;
		f->confidence = SCAN_MEDIUM;
		return;
	}
	f->cat = SCAN_GP2_TO_GP3;
	f->risk = SCAN_LOW;
	f->confidence = SCAN_HIGH;
	if (model_gp2_sized_for_iops(size, &target))
		f->target_iops = target;
}

/* A candidate is better when legal-by-construction and cheaper. */
static int consider(const struct price_set *ps, const struct vol_config *c,
		    struct scan_finding *f, double *best)
{
	double usd = 0;

	if (price(ps, c, &usd, NULL))
		return 0;
	if (usd < *best - MODEL_EPS) {
		*best = usd;
		f->prop = *c;
		return 1;
	}
	return 0;
}

/* io1/io2/gp3 against observed peaks (or io1 -> io2 without metrics). */
static int piops_finding(const struct scan_volume *v,
			 const struct price_set *ps,
			 const struct volume_limits lim[VT_COUNT],
			 const struct scan_opts *o, struct scan_finding *f)
{
	const struct scan_load *l = v->load;
	const struct vol_config *cur = &v->cfg;
	struct vol_config c;
	double best = f->cur_usd, need_iops, need_mibps;
	int gp3_won = 0;

	f->cat = SCAN_OVERPROVISIONED;
	f->risk = SCAN_LOW;
	if (!l || !l->have_iops || l->iops_exceeded || l->tput_exceeded) {
		if (cur->type != VT_IO1)
			return 0;
		/* T4: io2 costs no more per IOPS and is 99.999 % durable */
		c = *cur;
		c.type = VT_IO2;
		f->confidence = SCAN_HIGH;
		f->peak_iops = -1;
		return consider(ps, &c, f, &best);
	}
	f->confidence = SCAN_MEDIUM;
	need_iops = l->peak_iops * grow_by(o);
	/* more than the type can deliver: the metrics or the volume are not
	 * what they seem, and no smaller configuration follows (T1) */
	if (!(need_iops <= (double)lim[cur->type].max_iops))
		return 0;
	need_mibps =
	    l->have_mibps ? l->peak_mibps * grow_by(o)
	    : cur->type == VT_GP3
		? (double)cur->throughput_mibps
		: fmin(lim[VT_GP3].max_mibps,
		       model_piops_max_mibps(cur->type, (double)cur->iops));
	need_mibps = fmin(need_mibps, lim[VT_GP3].max_mibps + 1.0);
	if (cur->type == VT_GP3) {
		if (!model_gp3_for_load(&lim[VT_GP3], cur->size_gib, need_iops,
					need_mibps, &c) &&
		    c.iops <= cur->iops &&
		    c.throughput_mibps <= cur->throughput_mibps)
			consider(ps, &c, f, &best);
	} else {
		c = *cur;
		c.iops = (long)fmin(
		    (double)lim[cur->type].max_iops,
		    fmax((double)lim[cur->type].min_iops, ceil(need_iops)));
		if (c.iops < cur->iops)
			consider(ps, &c, f, &best);
		c.type = VT_IO2;
		if (cur->type == VT_IO1 && c.iops <= cur->iops)
			consider(ps, &c, f, &best);
		/* T1: gp3 has no Multi-Attach; io1 -> io2 above keeps it */
		if (!v->multi_attach &&
		    !model_gp3_for_load(&lim[VT_GP3], cur->size_gib, need_iops,
					need_mibps, &c))
			gp3_won = consider(ps, &c, f, &best);
	}
	if (best >= f->cur_usd - MODEL_EPS)
		return 0;
	if (gp3_won) {
		f->risk = SCAN_MEDIUM;
		f->to_gp3_from_piops = 1;
	}
	f->no_byte_metrics = !l->have_mibps;
	return 1;
}

/* Start a finding from the volume (o NULL for exclusions). */
static void init_finding(const struct scan_volume *v, const struct scan_opts *o,
			 struct scan_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->cur = v->cfg;
	f->cur.count = 1;
	f->cliff_s = -1;
	f->used_gib = v->used_gib;
	f->peak_iops = v->load && v->load->have_iops ? v->load->peak_iops : -1;
	f->burst_data = v->load && v->load->have_burst;
	f->burst_falling = v->load && burst_falling(v->load);
	f->burst_min_pct = f->burst_data ? v->load->burst_min_pct : -1;
	f->load_iops = v->cfg.type == VT_GP2 ? observed_load(v) : -1;
	if (f->burst_falling)
		f->balance_pct_per_h =
		    (v->load->burst_first_pct - v->load->burst_last_pct) *
		    3600.0 /
		    (double)(v->load->burst_last_t - v->load->burst_first_t);
	f->encrypted = v->encrypted != 0;
	f->kms_key_id = v->encrypted ? v->kms_key_id : NULL;
	f->headroom_pct = o ? o->headroom_pct : 0;
}

int scan_analyze(const struct scan_volume *v, const struct price_set *ps,
		 const struct volume_limits lim[VT_COUNT],
		 const struct scan_opts *o, struct scan_finding *f, char *err)
{
	int rc;

	init_finding(v, o, f);
	if (price(ps, &f->cur, &f->cur_usd, err))
		return -1;
	if (v->available) {
		f->cat = SCAN_UNATTACHED;
		f->risk = SCAN_HIGH;
		f->confidence = SCAN_HIGH;
		f->save_usd = f->cur_usd;
		return f->save_usd >= o->min_savings_usd && f->save_usd > 0;
	}
	if (v->cfg.type == VT_GP2) {
		gp2_finding(v, lim, o, f);
	} else if (model_type_buys_iops(v->cfg.type)) {
		if ((rc = piops_finding(v, ps, lim, o, f)) <= 0)
			return 0;
	} else {
		return 0;
	}
	if (price(ps, &f->prop, &f->prop_usd, err))
		return -1;
	f->save_usd = scan_usd(f->cur_usd - f->prop_usd);
	if (f->cat == SCAN_GP2_BURST_RISK) {
		/* a fix that costs more saves nothing: its cost apart, so that
		 * totals and --min-savings only see real savings */
		if (f->save_usd < 0) {
			f->extra_usd = -f->save_usd;
			f->save_usd = 0;
		}
		return f->save_usd >= o->min_savings_usd;
	}
	return f->save_usd > MODEL_EPS && f->save_usd >= o->min_savings_usd;
}

int scan_excluded(const struct scan_volume *v, const struct price_set *ps,
		  const char *why, struct scan_finding *f, char *err)
{
	init_finding(v, NULL, f);
	f->cat = SCAN_EXCLUDED;
	f->confidence = SCAN_HIGH;
	f->excluded_by = why;
	return price(ps, &f->cur, &f->cur_usd, err) ? -1 : 1;
}

/* ------------------------------------------------------------ reasons */

/*
 * Why a gp2 is at burst risk, naming what was seen: the peak IOPS, or --
 * without IOPS metrics -- the load the fall of BurstBalance implies, or
 * only how low the balance went.
 */
static void burst_risk_reason(const struct scan_finding *f, char *buf, size_t n)
{
	const struct vol_config *c = &f->cur, *p = &f->prop;
	double base = model_gp2_baseline_iops((double)c->size_gib);
	char seen[160], bal[64] = "";

	if (f->burst_falling)
		xsnprintf(bal, sizeof(bal),
			  "BurstBalance falling %.0f %% an hour",
			  f->balance_pct_per_h);
	else if (f->burst_data)
		xsnprintf(bal, sizeof(bal), "BurstBalance down to %.0f %%",
			  f->burst_min_pct);
	if (f->peak_iops >= 0)
		xsnprintf(
		    seen, sizeof(seen),
		    "observed peak %.0f IOPS against a %.0f IOPS baseline%s%s",
		    f->peak_iops, base, *bal ? ", " : "", bal);
	else if (f->load_iops > 0)
		xsnprintf(
		    seen, sizeof(seen),
		    "no IOPS metrics: %s, a load of about %.0f IOPS against a %.0f IOPS baseline",
		    bal, f->load_iops, base);
	else
		xsnprintf(seen, sizeof(seen),
			  "no IOPS metrics: %s on a %.0f IOPS baseline", bal,
			  base);
	xsnprintf(buf, n, "%s; gp3 at %ld IOPS sustains it without credits%s",
		  seen, p->iops,
		  f->burst_data
		      ? ""
		      : " (cliff assumes a full bucket: no BurstBalance data)");
}

void scan_reason(const struct scan_finding *f, char *buf, size_t n)
{
	const struct vol_config *c = &f->cur, *p = &f->prop;
	double short_by =
	    model_gp3_mibps_short(c->size_gib, (double)p->throughput_mibps);

	switch (f->cat) {
	case SCAN_GP2_TO_GP3:
		if (f->target_iops)
			xsnprintf(
			    buf, n,
			    "gp3 at %ld IOPS and %ld MiB/s is nowhere slower; the size looks chosen for %ld IOPS: give --usage to price a smaller gp3",
			    p->iops, p->throughput_mibps, f->target_iops);
		else if (short_by > 0)
			/* the decision of model.h: the included 125 MiB/s */
			xsnprintf(
			    buf, n,
			    "gp3 at %ld IOPS and %ld MiB/s never has fewer IOPS than gp2 of %ld GiB; its %ld MiB/s is %g MiB/s below gp2's %g MiB/s peak",
			    p->iops, p->throughput_mibps, c->size_gib,
			    p->throughput_mibps, short_by,
			    model_gp2_burst_mibps((double)c->size_gib));
		else
			xsnprintf(
			    buf, n,
			    "gp3 at %ld IOPS and %ld MiB/s is nowhere slower than gp2 of %ld GiB",
			    p->iops, p->throughput_mibps, c->size_gib);
		break;
	case SCAN_GP2_SIZED_FOR_IOPS:
		xsnprintf(
		    buf, n,
		    "%.1f GiB used of %ld: a new %ld GiB gp3 (used + %g %% headroom) at %ld IOPS and %ld MiB/s keeps the performance; EBS cannot shrink, so copy the data",
		    f->used_gib, c->size_gib, p->size_gib, f->headroom_pct,
		    p->iops, p->throughput_mibps);
		break;
	case SCAN_GP2_BURST_RISK: burst_risk_reason(f, buf, n); break;
	case SCAN_OVERPROVISIONED:
		if (f->peak_iops < 0)
			xsnprintf(
			    buf, n,
			    "io2 at the same %ld IOPS costs less (tiered IOPS price) and is more durable",
			    c->iops);
		else
			xsnprintf(
			    buf, n,
			    "observed peak %.0f IOPS%s; %s at %ld IOPS keeps %g %% headroom%s",
			    f->peak_iops,
			    f->no_byte_metrics
				? " (no byte metrics: throughput kept)"
				: "",
			    model_type_name(p->type), p->iops, f->headroom_pct,
			    f->to_gp3_from_piops
				? "; gp3 has single-digit ms latency and 99.8-99.9 % durability, io2 sub-ms and 99.999 %"
				: "");
		break;
	case SCAN_UNATTACHED:
		xsnprintf(
		    buf, n,
		    "unattached (state available): snapshot, then delete; the snapshot is billed separately");
		break;
	case SCAN_EXCLUDED:
		xsnprintf(buf, n, "exempted by tag %s",
			  f->excluded_by ? f->excluded_by : "?");
		break;
	/* billing findings: billing_reason words them with what the bill
	 * says (hours billed, the date); these are the short forms */
	case SCAN_IO1_TO_IO2:
		xsnprintf(
		    buf, n,
		    "io2 at the same %ld IOPS costs less (tiered IOPS price) and is more durable",
		    c->iops);
		break;
	case SCAN_IO1_TO_GP3:
		xsnprintf(
		    buf, n,
		    "gp3 at %ld IOPS and %ld MiB/s carries what io1 allows; not for Multi-Attach",
		    p->iops, p->throughput_mibps);
		break;
	case SCAN_NOT_IN_INVENTORY:
		xsnprintf(buf, n,
			  "billed but not in the describe-volumes files");
		break;
	case SCAN_CAT_COUNT: buf[0] = '\0'; break;
	}
}

/* ------------------------------------------------------------ commands */

/*
 * The options that take a volume from cur (NULL: a new volume) to p, and
 * only those, against the defaults of the API (A1 ModifyVolume, A2
 * CreateVolume): a type change to gp3, io1 or io2 -- and a new volume --
 * defaults IOPS to 3,000, throughput to 125 unless the volume stays gp3;
 * a volume that keeps its type keeps every value it is not given.  A new
 * volume always names its type and size (not written here).
 */
static void api_options(const struct vol_config *cur,
			const struct vol_config *p, char *buf, size_t n)
{
	int same_type = cur && cur->type == p->type;
	long def_iops = same_type ? cur->iops : 3000;
	long def_mibps = same_type ? cur->throughput_mibps : 125;
	size_t o = 0;

	buf[0] = '\0';
	if (cur && !same_type)
		o += (size_t)snprintf(buf, n, " --volume-type %s",
				      model_type_name(p->type));
	/* io1/io2 state their IOPS on a new volume: CreateVolume needs them */
	if (model_type_buys_iops(p->type) &&
	    (p->iops != def_iops || (!cur && p->type != VT_GP3)) && o < n)
		o += (size_t)snprintf(buf + o, n - o, " --iops %ld", p->iops);
	if (p->type == VT_GP3 && p->throughput_mibps != def_mibps && o < n)
		snprintf(buf + o, n - o, " --throughput %ld",
			 p->throughput_mibps);
}

/* 1 when id and region may be pasted into a shell line. */
static int pasteable(const char *id, const char *region)
{
	size_t n = region ? strlen(region) : 0;

	return inventory_valid_volume_id(id) && n && n < 32 &&
	       strspn(region, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

char *scan_command(const struct scan_finding *f, const char *id,
		   const char *region, const char *az)
{
	const struct vol_config *p = &f->prop;
	char extra[96] = "", buf[512], *kms, *out;

	if (f->cat == SCAN_EXCLUDED || f->cat == SCAN_NOT_IN_INVENTORY ||
	    !pasteable(id, region))
		return NULL;
	if (f->cat == SCAN_UNATTACHED)
		return xstrfmt(
		    "snap=$(aws ec2 create-snapshot --region %s --volume-id %s --description 'ebsize: before deleting unattached %s' --query SnapshotId --output text) && aws ec2 wait snapshot-completed --region %s --snapshot-ids \"$snap\" && aws ec2 delete-volume --region %s --volume-id %s",
		    region, id, id, region, region, id);
	if (f->new_volume)
		/* CreateVolume: gp3 defaults to 3,000 IOPS and 125 MiB/s */
		api_options(NULL, p, extra, sizeof(extra));
	else
		api_options(&f->cur, p, extra, sizeof(extra));
	if (f->new_volume) {
		/* the copy keeps the encryption (and key) of the original;
		 * the key id was checked (inventory_valid_kms_key) and is
		 * quoted all the same */
		kms = f->encrypted && f->kms_key_id
			  ? xstrfmt(" --kms-key-id '%s'", f->kms_key_id)
			  : xstrdup("");
		out = xstrfmt(
		    "aws ec2 create-volume --region %s --availability-zone %s --volume-type %s --size %ld%s%s%s --tag-specifications 'ResourceType=volume,Tags=[{Key=ebsize-replaces,Value=%s}]'",
		    region, az, model_type_name(p->type), p->size_gib, extra,
		    f->encrypted ? " --encrypted" : "", kms, id);
		free(kms);
		return out;
	}
	/* T14: one modification carries type, IOPS and throughput together
	 * (at most 4 per volume per 24 h) */
	xsnprintf(buf, sizeof(buf),
		  "aws ec2 modify-volume --region %s --volume-id %s%s", region,
		  id, extra);
	return xstrdup(buf);
}

char *scan_alarm_command(const struct scan_finding *f, const char *id,
			 const char *region)
{
	char buf[768];

	if (f->alarm_pct <= 0 || !pasteable(id, region))
		return NULL;

	xsnprintf(
	    buf, sizeof(buf),
	    "aws cloudwatch put-metric-alarm --region %s --alarm-name ebsize-burstbalance-%s --alarm-description 'gp2 %s: about %ld min of burst left at %ld IOPS' --namespace AWS/EBS --metric-name BurstBalance --dimensions Name=VolumeId,Value=%s --statistic Minimum --period 60 --evaluation-periods 1 --threshold %ld --comparison-operator LessThanOrEqualToThreshold",
	    region, id, id, (long)floor(f->alarm_lead_s / 60.0),
	    (long)f->alarm_load_iops, id, (long)f->alarm_pct);
	return xstrdup(buf);
}
