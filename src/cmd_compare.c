/*
 * cmd_compare.c - `ebsize compare`: gp2 against gp3 (and, with --types,
 * other types) size by size: cost, sustained and burst IOPS, time to the
 * credit cliff, throughput, and what the same performance costs elsewhere.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

#define MAX_SIZES 64

struct sizes {
	long v[MAX_SIZES];
	size_t n;
};

struct args {
	struct sizes sizes;
	long iops;
	long throughput_mibps;   /* --throughput: gp3 at this MiB/s; 0 none */
	const char *as_of;
	int want[VT_COUNT];
};

static int parse_sizes(const char *cmd, const char *opt, const char *list,
		       void *target)
{
	struct sizes *sz = target;
	char *copy = xstrdup(list), *s = copy;
	int rc = 0;

	sz->n = 0;
	while (s && !rc) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = '\0';
		double gib;

		if (sz->n == MAX_SIZES || opt_parse_quantity(s, OPT_UNIT_GIB, &gib) ||
		    gib < 1 || gib > 65536 || gib != floor(gib))
			rc = msg_usage_error(cmd, "--%s must be up to %d sizes of 1 to 65536 GiB (such as 500,1TiB), not '%s'",
					     opt, MAX_SIZES, list);
		else
			sz->v[sz->n] = (long)gib;
		sz->n++;
		s = comma ? comma + 1 : NULL;
	}
	free(copy);
	return rc ? -1 : 0;
}

#define A(f) offsetof(struct args, f)

static const struct opt compare_opts[] = {
	{ "sizes", 0, OPT_FUNC, A(sizes), "LIST", "GiB, comma-separated",
	  .parse = parse_sizes, .def = "50,100,170,334,500,1000,2000" },
	{ "iops", 0, OPT_INT, A(iops), "N",
	  "the workload's IOPS: when the gp2 cliff comes, and the\n"
	  "IOPS the other types get (default 3000, the gp2 burst)",
	  .min = 1, .max = 256000, .def = "3000", .unit = OPT_UNIT_COUNT },
	{ "types", 0, OPT_FUNC, A(want), "LIST",
	  "types to show (default gp2,gp3; gp2 is always the reference)",
	  .parse = cli_parse_types, .choices = cli_type_names, .def = "gp2,gp3" },
	{ "throughput", 0, OPT_INT, A(throughput_mibps), "MIBPS",
	  "give the gp3 rows this MiB/s (such as 128, gp2's ceiling\n"
	  "up to 170 GiB) instead of gp3's 125 / 250",
	  .min = 125, .max = 2000, .unit = OPT_UNIT_MIBPS },
	{ "as-of", 0, OPT_DATE, A(as_of), "DATE",
	  "use the volume rules and prices in force on DATE" },
	{ NULL }
};

static int check(struct cli_ctx *ctx, void *args)
{
	struct args *a = args;

	a->want[VT_GP2] = 1;
	if (a->throughput_mibps && !a->want[VT_GP3])
		return msg_usage_error(ctx->cmd_name, "--throughput sets the gp3 rows: add gp3 to --types");
	return EXIT_OK;
}

/*
 * What a gp2 row delivers at its peak, which every other row is measured
 * against: IOPS max(gp2 burst ceiling -- 3,000, or the baseline from 1,000
 * GiB --, the load); MiB/s gp2's ceiling, 128 or 250 (T2 [S1, S4]); and
 * what it sustains once its credits are spent.
 */
struct target {
	double iops, mibps;
	double sustained_iops, sustained_mibps;
};

static void gp2_target(long size, long load, struct target *tg)
{
	struct vol_config gp2 = { VT_GP2, size, 0, 0, 1, 0 };
	struct perf pf;

	model_perf(&gp2, &pf);
	tg->iops = fmax(pf.burst_iops, (double)load);
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
	if (model_hdd_baseline_mibps(lim->type, (double)hi) + 1e-9 < mibps)
		return hi;
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (model_hdd_baseline_mibps(lim->type, (double)mid) + 1e-9 >= mibps)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The row of type t for the gp2 of `size`: the cheapest configuration that
 * delivers the target sustained (never slower), except where a type cannot:
 *   gp3      the model's rule for the legal gp3 of the need (size, target
 *            IOPS, and gp3's 125 / 250 MiB/s -- model_gp3_like_gp2 -- or
 *            --throughput); any size carries the included 3,000 IOPS.
 *   io1/io2  the target IOPS (raised for the target MiB/s), size raised to
 *            their IOPS-per-GiB rule.
 *   st1/sc1  sized to sustain gp2's sustained MiB/s; their IOPS are MiB/s
 *            in 1 MiB units, at most 500 / 250 (T1, T5), so they cannot
 *            match a gp2's IOPS: judged by row_verdict.
 *   standard the same size.
 * Returns 0, or -1 when no legal configuration of t exists (why says so).
 */
static int row_config(enum vol_type t, long size, const struct args *a,
		      const struct target *tg,
		      const struct volume_limits *lims, struct vol_config *cfg)
{
	const struct volume_limits *lim = &lims[t];
	struct vol_config like;
	double iops;

	memset(cfg, 0, sizeof(*cfg));
	cfg->type = t;
	cfg->size_gib = size;
	cfg->count = 1;
	switch (t) {
	case VT_GP2:
		return 0;
	case VT_GP3:
		model_gp3_like_gp2(lim, size, &like);
		return model_gp3_for_need(lim, (double)size,
					  fmax((double)like.iops, (double)a->iops),
					  a->throughput_mibps ? (double)a->throughput_mibps :
					  (double)like.throughput_mibps, cfg) ? -1 : 0;
	case VT_IO1:
	case VT_IO2:
		iops = model_piops_iops_for_mibps(t, tg->mibps);
		cfg->iops = (long)fmax(tg->iops, iops);
		cfg->size_gib = model_min_size_for_iops(lim, cfg->iops);
		if (cfg->size_gib < size)
			cfg->size_gib = size;
		break;
	case VT_ST1:
	case VT_SC1:
		cfg->size_gib = hdd_size_for(lim, size, tg->sustained_mibps);
		break;
	case VT_STANDARD:
	case VT_COUNT:
		break;
	}
	if (cfg->size_gib < lim->min_size_gib)
		cfg->size_gib = lim->min_size_gib;
	if (cfg->size_gib > lim->max_size_gib)
		cfg->size_gib = lim->max_size_gib;
	return model_validate(lim, cfg, NULL, NULL, 0);
}

/*
 * Is the row never slower than its gp2?  It must sustain the target IOPS
 * and MiB/s; the one tolerance is the decision of model.h: a gp3 at 125
 * MiB/s or more beside a gp2 of 170 GiB or less (ceiling 128) is up to 3
 * MiB/s short, which the text says.  Returns 1 when slower; text in buf.
 */
static int row_verdict(const struct vol_config *cfg, const struct perf *pf,
		       long gp2_size, const struct target *tg, char *buf,
		       size_t n)
{
	int short_iops = pf->baseline_iops + 1e-9 < tg->iops;
	int short_mibps = pf->baseline_mibps + 1e-9 < tg->mibps;
	double gap = tg->mibps - pf->baseline_mibps;
	const char *tn = model_type_name(cfg->type);

	if (cfg->type == VT_GP2) {
		buf[0] = '\0';
		return 0;
	}
	if (!short_iops && short_mibps && cfg->type == VT_GP3 &&
	    gp2_size <= 170 && gap <= tg->mibps - 125.0 + 1e-9) {
		xsnprintf(buf, n, "%g MiB/s below gp2's %g MiB/s peak",
			  gap, tg->mibps);
		return 0;
	}
	if (!short_iops && !short_mibps) {
		xsnprintf(buf, n, "never slower");
		return 0;
	}
	if (short_iops && (cfg->type == VT_ST1 || cfg->type == VT_SC1) &&
	    tg->iops > (cfg->type == VT_ST1 ? 500 : 250))
		/* T1, T5: 500 / 250 I/O per second, each counted as 1 MiB */
		xsnprintf(buf, n, "slower: %s cannot match %g IOPS (at most %d, 1 MiB each)",
			  tn, tg->iops, cfg->type == VT_ST1 ? 500 : 250);
	else if (short_iops && short_mibps)
		xsnprintf(buf, n, "slower: %g of %g IOPS, %g of %g MiB/s",
			  pf->baseline_iops, tg->iops, pf->baseline_mibps, tg->mibps);
	else if (short_iops)
		xsnprintf(buf, n, "slower: %g of %g IOPS", pf->baseline_iops, tg->iops);
	else
		xsnprintf(buf, n, "slower: %g of %g MiB/s", pf->baseline_mibps, tg->mibps);
	return 1;
}

static void add_row(struct out_table *t, long size, const struct vol_config *cfg,
		    const struct cost *cost, const struct perf *pf, long load,
		    const struct target *tg, double gp2_total)
{
	double spend = fmin((double)load, pf->burst_iops) - pf->baseline_iops;
	char verdict[128];
	int slower = row_verdict(cfg, pf, size, tg, verdict, sizeof(verdict));

	out_row(t);
	out_int(t, size);
	out_str(t, model_type_name(cfg->type));
	out_int(t, cfg->size_gib);
	if (cfg->iops)
		out_int(t, cfg->iops);
	else
		out_null(t);
	if (cfg->throughput_mibps)
		out_int(t, cfg->throughput_mibps);
	else
		out_null(t);
	out_num(t, cost->total);
	out_num(t, pf->baseline_iops);
	out_num(t, pf->burst_iops);
	/* gp2 credits only: HDD buckets are MiB, judged by `burst` */
	if (cfg->type == VT_GP2 && spend > 0 && pf->burst_seconds > 0)
		out_num(t, GP2_BUCKET_CREDITS / spend);
	else
		out_null(t);
	out_num(t, pf->baseline_mibps);
	out_num(t, pf->burst_mibps);
	/* a slower row saves nothing: it is not the same volume for less */
	if (slower) {
		out_null(t);
		out_null(t);
	} else {
		out_num(t, gp2_total - cost->total);
		out_num(t, gp2_total > 0 ? (gp2_total - cost->total) / gp2_total * 100 : 0);
	}
	if (cfg->type == VT_GP2) {     /* the reference itself */
		out_null(t);
		out_null(t);
	} else {
		out_bool(t, slower);
		out_str(t, verdict);
	}
}

static int run(struct cli_ctx *ctx, void *args)
{
	const struct args *a = args;
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	if ((rc = db_load_prices(ctx->db, ctx->region, a->as_of, &ps, err)))
		return cli_fail(ctx, rc, err);
	for (int i = 0; i < VT_COUNT; i++)
		if ((a->want[i] || i == VT_GP3) &&
		    (rc = db_load_limits(ctx->db, (enum vol_type)i, a->as_of, &lim[i], err)))
			return cli_fail(ctx, rc, err);
	if (a->throughput_mibps) {
		struct vol_config probe = { VT_GP3, lim[VT_GP3].max_size_gib,
					    lim[VT_GP3].max_iops, a->throughput_mibps, 1, 0 };
		char why[256];

		if (model_validate(&lim[VT_GP3], &probe, NULL, why, sizeof(why))) {
			msg_error("--throughput %ld: %s (rules in force %s)",
				  a->throughput_mibps, why, lim[VT_GP3].effective_from);
			return EXIT_RUNTIME;
		}
	}
	doc = out_doc_new();
	t = out_list(doc, "rows", NULL);
	out_col(t, "gp2_size_gib", "gp2 GiB", OUT_INT);
	out_col(t, "type", "Type", OUT_TEXT);
	out_col(t, "size_gib", "GiB", OUT_INT);
	out_col(t, "iops", "IOPS", OUT_INT);
	out_col(t, "throughput_mibps", "MiB/s", OUT_INT);
	out_col(t, "monthly_usd", "Monthly", OUT_USD);
	out_col(t, "sustained_iops", "Sustained IOPS", OUT_INT);
	out_col(t, "burst_iops", "Burst IOPS", OUT_INT);
	out_col(t, "cliff_seconds", "Cliff after", OUT_DURATION);
	out_col(t, "sustained_mibps", "Sust. MiB/s", OUT_NUM0);
	out_col(t, "max_throughput_mibps", "Max MiB/s", OUT_NUM0);
	out_col(t, "savings_usd", "Saves/month", OUT_USD);
	out_col(t, "savings_pct", "Saves", OUT_PCT);
	out_col(t, "slower", "Slower", OUT_BOOL);
	out_col(t, "vs_gp2", "Against gp2", OUT_TEXT);
	for (size_t i = 0; i < a->sizes.n; i++) {
		struct vol_config gp2 = { VT_GP2, a->sizes.v[i], 0, 0, 1, 0 };
		struct cost gp2_cost;
		struct target tg;
		struct perf pf;

		if (model_validate(&lim[VT_GP2], &gp2, NULL, NULL, 0) ||
		    model_cost(&ps.type[VT_GP2], &gp2, &gp2_cost)) {
			out_note(doc, "gp2 %ld GiB is not a legal volume; skipped", a->sizes.v[i]);
			continue;
		}
		gp2_target(a->sizes.v[i], a->iops, &tg);
		for (int ty = 0; ty < VT_COUNT; ty++) {
			struct vol_config cfg;
			struct cost c;

			if (!a->want[ty])
				continue;
			if (row_config((enum vol_type)ty, a->sizes.v[i], a, &tg, lim, &cfg) ||
			    model_cost(&ps.type[ty], &cfg, &c)) {
				out_note(doc, "no legal %s matches gp2 %ld GiB", model_type_name(ty),
					 a->sizes.v[i]);
				continue;
			}
			model_perf(&cfg, &pf);
			add_row(t, a->sizes.v[i], &cfg, &c, &pf, a->iops, &tg,
				gp2_cost.total);
		}
	}
	out_note(doc, "prices: %s, snapshot %lld (%s, as of %s); volume rules in force %s; cliff = full bucket at %ld IOPS",
		 ctx->region, ps.snapshot_id, ps.source, ps.as_of,
		 a->as_of ? a->as_of : "today", a->iops);
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

const struct cmd cmd_compare_def = {
	.name = "compare",
	.run = run,
	.args_size = sizeof(struct args),
	.flags = CMD_NEEDS_DB,
	.summary = "gp2 vs gp3 (and others) side by side, per size",
	.description =
		"gp2 against gp3 per size.  Each gp2 row shows its cost, sustained\n"
		"(baseline) and burst IOPS, how long a full bucket lasts under the load,\n"
		"and its throughput.  Every other type gets the cheapest configuration\n"
		"that sustains what the gp2 delivers at its peak: max(3,000, gp2\n"
		"baseline, N) IOPS and gp2's 128 / 250 MiB/s ceiling.  gp3 keeps its\n"
		"included 125 MiB/s at 170 GiB or less, up to 3 MiB/s below gp2's 128\n"
		"(said in the row; --throughput 128 prices the match).  st1 and sc1 are\n"
		"sized to gp2's sustained MiB/s, but carry at most 500 / 250 IOPS: a row\n"
		"that is slower says where and shows no saving.",
	.opts = compare_opts,
	.check = check,
};
