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
#include "ebsize/price_sheet.h"
#include "ebsize/report.h"
#include "ebsize/util.h"

struct args {
	struct cli_sizes sizes;
	long iops;
	long throughput_mibps; /* --throughput: gp3 at this MiB/s; 0 none */
	const char *as_of;
	int want[VT_COUNT];
	const char *svg_dir;
};

#define A(f) offsetof(struct args, f)

static const struct opt compare_opts[] = {
	{ "sizes", 0, OPT_FUNC, A(sizes), "LIST", "GiB, comma-separated",
	  .parse = cli_parse_sizes, .def = "50,100,170,334,500,1000,2000" },
	{ "iops", 0, OPT_INT, A(iops), "N",
	  "the workload's IOPS: when the gp2 cliff comes, and the\n"
	  "IOPS the other types get (default 3000, the gp2 burst)",
	  .min = 1, .max = 256000, .def = "3000", .unit = OPT_UNIT_COUNT },
	{ "types", 0, OPT_FUNC, A(want), "LIST",
	  "types to show (default gp2,gp3; gp2 is always the reference)",
	  .parse = cli_parse_types, .choices = cli_type_names,
	  .def = "gp2,gp3" },
	{ "throughput", 0, OPT_INT, A(throughput_mibps), "MIBPS",
	  "give the gp3 rows this MiB/s (such as 128, gp2's ceiling\n"
	  "up to 170 GiB) instead of gp3's 125 / 250",
	  .min = 125, .max = 2000, .unit = OPT_UNIT_MIBPS },
	{ "as-of", 0, OPT_DATE, A(as_of), "DATE",
	  "use the volume rules and prices in force on DATE" },
	{ "svg-dir", 0, OPT_STR, A(svg_dir), "DIR",
	  "also chart the costs as DIR/compare-cost.svg (--format md\n"
	  "links it)",
	  .flags = OPT_DIRNAME },
	{ NULL }
};

static int check(struct cli_ctx *ctx, void *args)
{
	struct args *a = args;

	a->want[VT_GP2] = 1;
	if (a->throughput_mibps && !a->want[VT_GP3])
		return msg_usage_error(
		    ctx->cmd_name,
		    "--throughput sets the gp3 rows: add gp3 to --types");
	return EXIT_OK;
}

/*
 * Is the row never slower than its gp2?  It must sustain the target IOPS
 * and MiB/s; the one tolerance is the decision of model.h: a gp3 at 125
 * MiB/s or more beside a gp2 of 170 GiB or less (ceiling 128) is up to 3
 * MiB/s short, which the text says.  Returns 1 when slower; text in buf.
 */
static int row_verdict(const struct vol_config *cfg, const struct perf *pf,
		       long gp2_size, const struct model_gp2_target *tg,
		       char *buf, size_t n)
{
	int short_iops = pf->baseline_iops + MODEL_EPS < tg->iops;
	int short_mibps = pf->baseline_mibps + MODEL_EPS < tg->mibps;
	double gap = tg->mibps - pf->baseline_mibps;
	const char *tn = model_type_name(cfg->type);

	if (cfg->type == VT_GP2) {
		buf[0] = '\0';
		return 0;
	}
	if (!short_iops && short_mibps && cfg->type == VT_GP3 &&
	    gp2_size <= 170 && gap <= tg->mibps - 125.0 + MODEL_EPS) {
		xsnprintf(buf, n, "%g MiB/s below gp2's %g MiB/s peak", gap,
			  tg->mibps);
		return 0;
	}
	if (!short_iops && !short_mibps) {
		xsnprintf(buf, n, "never slower");
		return 0;
	}
	if (short_iops && (cfg->type == VT_ST1 || cfg->type == VT_SC1) &&
	    tg->iops > (cfg->type == VT_ST1 ? 500 : 250))
		/* T1, T5: 500 / 250 I/O per second, each counted as 1 MiB */
		xsnprintf(
		    buf, n,
		    "slower: %s cannot match %g IOPS (at most %d, 1 MiB each)",
		    tn, tg->iops, cfg->type == VT_ST1 ? 500 : 250);
	else if (short_iops && short_mibps)
		xsnprintf(buf, n, "slower: %g of %g IOPS, %g of %g MiB/s",
			  pf->baseline_iops, tg->iops, pf->baseline_mibps,
			  tg->mibps);
	else if (short_iops)
		xsnprintf(buf, n, "slower: %g of %g IOPS", pf->baseline_iops,
			  tg->iops);
	else
		xsnprintf(buf, n, "slower: %g of %g MiB/s", pf->baseline_mibps,
			  tg->mibps);
	return 1;
}

static void add_row(struct out_table *t, long size,
		    const struct vol_config *cfg, const struct cost *cost,
		    const struct perf *pf, long load,
		    const struct model_gp2_target *tg, double gp2_total,
		    const char *currency)
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
		out_num(t, gp2_total > 0
			       ? (gp2_total - cost->total) / gp2_total * 100
			       : 0);
	}
	if (cfg->type == VT_GP2) { /* the reference itself */
		out_null(t);
		out_null(t);
	} else {
		out_bool(t, slower);
		out_str(t, verdict);
	}
	out_str(t, currency);
}

/* Every type asked for must be priced in the region (gp2 always is asked). */
static int check_priced(const struct args *a, const struct price_set *ps)
{
	for (int ty = 0; ty < VT_COUNT; ty++)
		if (a->want[ty] && !cli_type_priced(ps, ty))
			return cli_type_prices_missing(ps, ty);
	return EXIT_OK;
}

/*
 * Workbook: a row's monthly cost, its saving against gp2 of the same size
 * and that saving as a fraction, as live formulas over the row and the
 * price list (prices of `region`).
 */
static void live_costs(struct out_table *t, const char *region)
{
	char *r = out_formula_text(region);
	char *st = price_sheet_cost(r, "{type}", "storage", "{size_gib}");
	char *io = price_sheet_cost(r, "{type}", "iops", "{iops}");
	char *tp =
	    price_sheet_cost(r, "{type}", "throughput", "{throughput_mibps}");
	char *gp2 = price_sheet_cost(r, "\"gp2\"", "storage", "{gp2_size_gib}");
	char *f;

	f = xstrfmt("%s+%s+%s", st, io, tp);
	out_formula(t, "monthly_usd", f);
	free(f);
	/* a slower row saves nothing (blank, as null in JSON) */
	f = xstrfmt("IF({slower},\"\",%s-{monthly_usd})", gp2);
	out_formula(t, "savings_usd", f);
	free(f);
	f = xstrfmt("IF({slower},\"\",IF(%s>0,{savings_usd}/%s,0))", gp2, gp2);
	out_formula(t, "savings_pct", f);
	free(f);
	free(r);
	free(st);
	free(io);
	free(tp);
	free(gp2);
}

/*
 * Workbook: monthly cost by gp2 size, one column per type (looked up in
 * the rows with SUMIFS, so it follows them), and its line chart.
 * cost[i][type] is NAN where size i has no row of that type.
 */
static void cost_chart(struct out_doc *doc, const struct args *a,
		       double (*cost)[VT_COUNT])
{
	struct out_table *t =
	    out_list(doc, "cost_by_size", "Monthly cost by size");
	struct out_chart *c;

	out_xlsx_only(t);
	out_col(t, "gp2_size_gib", "gp2 GiB", OUT_INT);
	for (int ty = 0; ty < VT_COUNT; ty++) {
		char *f, *name;

		if (!a->want[ty])
			continue;
		out_col(t, model_type_name(ty), model_type_name(ty), OUT_USD);
		name = out_formula_text(model_type_name(ty));
		f = xstrfmt(
		    "SUMIFS({rows!monthly_usd},{rows!gp2_size_gib},{gp2_size_gib},{rows!type},%s)",
		    name);
		out_formula(t, model_type_name(ty), f);
		free(f);
		free(name);
	}
	for (size_t i = 0; i < a->sizes.n; i++) {
		if (isnan(cost[i][VT_GP2]))
			continue;
		out_row(t);
		out_int(t, a->sizes.v[i]);
		for (int ty = 0; ty < VT_COUNT; ty++)
			if (a->want[ty])
				out_num(t, cost[i][ty]);
	}
	c = out_chart(t, OUT_CHART_LINE, "Monthly cost against gp2 size",
		      "gp2_size_gib");
	for (int ty = 0; ty < VT_COUNT; ty++)
		if (a->want[ty])
			out_chart_series(c, model_type_name(ty));
	out_chart_axes(c, "gp2 size (GiB)", "USD per month");
}

/* --svg-dir: the rows as a chart file, linked from the Markdown. */
static int add_svg(struct out_doc *doc, const char *dir, const char *region,
		   const struct report_compare_row *rows, size_t n)
{
	struct report_chart *c =
	    report_chart_compare("compare-cost", region, rows, n);
	char err[EBS_ERRLEN];
	int rc = report_svg_dir(doc, dir, &c, 1, err);

	if (rc)
		msg_error("%s", err);
	report_chart_free(c);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}

static int run(struct cli_ctx *ctx, void *args)
{
	struct report_compare_row rows[CLI_MAX_SIZES * VT_COUNT];
	size_t nrows = 0;
	double(*pivot)[VT_COUNT] = NULL;
	const struct args *a = args;
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	if ((rc = cli_load_prices(ctx, ctx->region, a->as_of, "gp2", &ps)) ||
	    (rc = check_priced(a, &ps)))
		return rc;
	for (int i = 0; i < VT_COUNT; i++)
		if ((a->want[i] || i == VT_GP3) &&
		    (rc = db_load_limits(ctx->db, (enum vol_type)i, a->as_of,
					 &lim[i], err)))
			return cli_fail(ctx, rc, err);
	if (a->throughput_mibps) {
		struct vol_config probe = { VT_GP3,
					    lim[VT_GP3].max_size_gib,
					    lim[VT_GP3].max_iops,
					    a->throughput_mibps,
					    1,
					    0 };
		char why[256];

		if (model_validate(&lim[VT_GP3], &probe, NULL, why,
				   sizeof(why))) {
			msg_error("--throughput %ld: %s (rules in force %s)",
				  a->throughput_mibps, why,
				  lim[VT_GP3].effective_from);
			return EXIT_RUNTIME;
		}
	}
	doc = out_doc_new();
	t = out_list(doc, "rows", NULL);
	out_table_currency(t, ps.currency);
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
	/* the money keys predate other currencies: amounts are in this one */
	out_col(t, "currency", "Cur", OUT_TEXT);
	live_costs(t, ctx->region);
	pivot = xcalloc(a->sizes.n ? a->sizes.n : 1, sizeof(*pivot));
	for (size_t i = 0; i < a->sizes.n; i++)
		for (int ty = 0; ty < VT_COUNT; ty++)
			pivot[i][ty] = NAN;
	for (size_t i = 0; i < a->sizes.n; i++) {
		struct vol_config gp2 = { VT_GP2, a->sizes.v[i], 0, 0, 1, 0 };
		struct cost gp2_cost;
		struct model_gp2_target tg;
		struct perf pf;

		if (model_validate(&lim[VT_GP2], &gp2, NULL, NULL, 0) ||
		    model_cost(&ps.type[VT_GP2], &gp2, &gp2_cost)) {
			out_note(doc,
				 "gp2 %ld GiB is not a legal volume; skipped",
				 a->sizes.v[i]);
			continue;
		}
		model_gp2_target(a->sizes.v[i], a->iops, &tg);
		for (int ty = 0; ty < VT_COUNT; ty++) {
			struct vol_config cfg;
			struct cost c;

			if (!a->want[ty])
				continue;
			if (model_like_gp2((enum vol_type)ty, a->sizes.v[i],
					   a->iops, a->throughput_mibps, lim,
					   &cfg) ||
			    model_cost(&ps.type[ty], &cfg, &c)) {
				out_note(doc, "no legal %s matches gp2 %ld GiB",
					 model_type_name(ty), a->sizes.v[i]);
				continue;
			}
			model_perf(&cfg, &pf);
			add_row(t, a->sizes.v[i], &cfg, &c, &pf, a->iops, &tg,
				gp2_cost.total, ps.currency);
			rows[nrows++] =
			    (struct report_compare_row){ a->sizes.v[i],
							 cfg.type, c.total };
			pivot[i][ty] = c.total;
		}
	}
	out_note(
	    doc,
	    "prices: %s in %s, snapshot %lld (%s, as of %s); volume rules in force %s; cliff = full bucket at %ld IOPS",
	    ctx->region, ps.currency, ps.snapshot_id, ps.source, ps.as_of,
	    a->as_of ? a->as_of : "today", a->iops);
	price_sheet_about(doc, &ps);
	rc = a->svg_dir ? add_svg(doc, a->svg_dir, ctx->region, rows, nrows)
			: EXIT_OK;
	if (!rc && ctx->format == OUT_XLSX) {
		cost_chart(doc, a, pivot);
		if (price_sheet_add(doc, ctx->db, &ctx->region, 1, err)) {
			msg_error("%s", err);
			rc = EXIT_RUNTIME;
		}
	}
	if (!rc)
		rc = cli_render(ctx, doc);
	out_doc_free(doc);
	free(pivot);
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
	.tables = "rows, notes",
};
