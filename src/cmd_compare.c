/*
 * cmd_compare.c - `ebsize compare`: gp2 against gp3 (and, with --types,
 * other types) size by size: cost, sustained and burst IOPS, time to the
 * credit cliff, throughput, and what the same performance costs elsewhere.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/msg.h"
#include "ebsize/price_sheet.h"
#include "ebsize/util.h"

#define MAX_SIZES 64

static const char usage_text[] =
	"usage: ebsize compare [--sizes LIST] [--iops N] [--types LIST] [--region R]\n\n"
	"gp2 against gp3 per size.  Each gp2 row shows its cost, sustained\n"
	"(baseline) and burst IOPS, how long a full bucket lasts under the load,\n"
	"and its throughput; every other type gets the configuration that is never\n"
	"slower -- gp3 with max(3,000, gp2 baseline, N) IOPS and 250 MiB/s above\n"
	"170 GiB -- with its cost and the saving against gp2.\n\n"
	"  --sizes LIST   GiB, comma-separated (default 50,100,170,334,500,1000,2000)\n"
	"  --iops N       the workload's IOPS: when the gp2 cliff comes, and the\n"
	"                 IOPS the other types get (default 3000, the gp2 burst)\n"
	"  --types LIST   types to show (default gp2,gp3; gp2 is always the reference)\n"
	"  -h, --help     this help\n";

struct args {
	long sizes[MAX_SIZES];
	size_t nsizes;
	long iops;
	int want[VT_COUNT];
};

static int parse_sizes(const char *list, struct args *a)
{
	char *copy = xstrdup(list), *s = copy;
	int rc = 0;

	a->nsizes = 0;
	while (s && !rc) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = '\0';
		if (a->nsizes == MAX_SIZES ||
		    parse_long_range(s, 1, 65536, &a->sizes[a->nsizes]))
			rc = msg_usage_error("compare", "--sizes must be up to %d sizes of 1 to 65536 GiB, not '%s'",
					     MAX_SIZES, list);
		a->nsizes++;
		s = comma ? comma + 1 : NULL;
	}
	free(copy);
	return rc;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "sizes", required_argument, NULL, 's' },
		{ "iops", required_argument, NULL, 'i' },
		{ "types", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	parse_sizes("50,100,170,334,500,1000,2000", a);
	a->iops = 3000;
	a->want[VT_GP2] = a->want[VT_GP3] = 1;
	while ((c = cmd_getopt("compare", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 's':
			if (parse_sizes(optarg, a))
				return EXIT_USAGE;
			break;
		case 'i':
			if (cmd_parse_long("compare", "--iops", optarg, 1, 256000, &a->iops))
				return EXIT_USAGE;
			break;
		case 't':
			if (cmd_parse_types("compare", optarg, a->want))
				return EXIT_USAGE;
			a->want[VT_GP2] = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return msg_usage_error("compare", "unexpected argument '%s'", argv[optind]);
	return EXIT_OK;
}

/*
 * The configuration of type t that is never slower than the gp2 of `size`
 * under `iops`: gp3 by model_gp3_like_gp2 with at least `iops`, io1/io2
 * with the same IOPS (size raised to their IOPS-per-GiB rule), HDD and
 * standard at the same size.  lims holds every type's rules.
 */
static void equivalent(enum vol_type t, long size, long iops,
		       const struct volume_limits *lims, struct vol_config *cfg)
{
	const struct volume_limits *lim = &lims[t];
	struct vol_config gp3;

	model_gp3_like_gp2(&lims[VT_GP3], size, &gp3);
	if (gp3.iops < iops)
		gp3.iops = iops;
	memset(cfg, 0, sizeof(*cfg));
	cfg->type = t;
	cfg->size_gib = size;
	cfg->count = 1;
	if (t == VT_GP2)
		return;
	if (t == VT_GP3) {
		*cfg = gp3;
		if (cfg->size_gib < (long)ceil((double)cfg->iops / lim->max_iops_per_gib))
			cfg->size_gib = (long)ceil((double)cfg->iops / lim->max_iops_per_gib);
		return;
	}
	if (t == VT_IO1 || t == VT_IO2) {
		cfg->iops = gp3.iops;
		if ((double)cfg->iops > lim->max_iops_per_gib * (double)size)
			cfg->size_gib = (long)ceil((double)cfg->iops / lim->max_iops_per_gib);
	}
	if (cfg->size_gib < lim->min_size_gib)
		cfg->size_gib = lim->min_size_gib;
	if (cfg->size_gib > lim->max_size_gib)
		cfg->size_gib = lim->max_size_gib;
}

static void add_row(struct out_table *t, long size, const struct vol_config *cfg,
		    const struct cost *cost, const struct perf *pf, long load,
		    double gp2_total)
{
	double spend = fmin((double)load, pf->burst_iops) - pf->baseline_iops;

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
	out_num(t, pf->burst_mibps);
	out_num(t, gp2_total - cost->total);
	out_num(t, gp2_total > 0 ? (gp2_total - cost->total) / gp2_total * 100 : 0);
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
	char *tp = price_sheet_cost(r, "{type}", "throughput", "{throughput_mibps}");
	char *gp2 = price_sheet_cost(r, "\"gp2\"", "storage", "{gp2_size_gib}");
	char *f;

	f = xstrfmt("%s+%s+%s", st, io, tp);
	out_formula(t, "monthly_usd", f);
	free(f);
	f = xstrfmt("%s-{monthly_usd}", gp2);
	out_formula(t, "savings_usd", f);
	free(f);
	f = xstrfmt("IF(%s>0,{savings_usd}/%s,0)", gp2, gp2);
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
	struct out_table *t = out_list(doc, "cost_by_size", "Monthly cost by size");
	struct out_chart *c;

	out_xlsx_only(t);
	out_col(t, "gp2_size_gib", "gp2 GiB", OUT_INT);
	for (int ty = 0; ty < VT_COUNT; ty++) {
		char *f, *name;

		if (!a->want[ty])
			continue;
		out_col(t, model_type_name(ty), model_type_name(ty), OUT_USD);
		name = out_formula_text(model_type_name(ty));
		f = xstrfmt("SUMIFS({rows!monthly_usd},{rows!gp2_size_gib},{gp2_size_gib},{rows!type},%s)",
			    name);
		out_formula(t, model_type_name(ty), f);
		free(f);
		free(name);
	}
	for (size_t i = 0; i < a->nsizes; i++) {
		if (isnan(cost[i][VT_GP2]))
			continue;
		out_row(t);
		out_int(t, a->sizes[i]);
		for (int ty = 0; ty < VT_COUNT; ty++)
			if (a->want[ty])
				out_num(t, cost[i][ty]);
	}
	c = out_chart(t, OUT_CHART_LINE, "Monthly cost against gp2 size", "gp2_size_gib");
	for (int ty = 0; ty < VT_COUNT; ty++)
		if (a->want[ty])
			out_chart_series(c, model_type_name(ty));
	out_chart_axes(c, "gp2 size (GiB)", "USD per month");
}

int cmd_compare(int argc, char **argv, struct cli_ctx *ctx)
{
	double (*pivot)[VT_COUNT] = NULL;
	struct args a = { 0 };
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (db_load_prices(ctx->db, ctx->region, NULL, &ps, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	for (int i = 0; i < VT_COUNT; i++)
		if ((a.want[i] || i == VT_GP3) &&
		    db_load_limits(ctx->db, (enum vol_type)i, NULL, &lim[i], err)) {
			msg_error("%s", err);
			return EXIT_RUNTIME;
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
	out_col(t, "cliff_seconds", "Cliff after (s)", OUT_INT);
	out_col(t, "max_throughput_mibps", "Max MiB/s", OUT_NUM0);
	out_col(t, "savings_usd", "Saves/month", OUT_USD);
	out_col(t, "savings_pct", "Saves", OUT_PCT);
	live_costs(t, ctx->region);
	pivot = xcalloc(a.nsizes, sizeof(*pivot));
	for (size_t i = 0; i < a.nsizes; i++)
		for (int ty = 0; ty < VT_COUNT; ty++)
			pivot[i][ty] = NAN;
	for (size_t i = 0; i < a.nsizes; i++) {
		struct vol_config gp2 = { VT_GP2, a.sizes[i], 0, 0, 1, 0 };
		struct cost gp2_cost;
		struct perf pf;

		if (model_validate(&lim[VT_GP2], &gp2, NULL, NULL, 0) ||
		    model_cost(&ps.type[VT_GP2], &gp2, &gp2_cost)) {
			out_note(doc, "gp2 %ld GiB is not a legal volume; skipped", a.sizes[i]);
			continue;
		}
		for (int ty = 0; ty < VT_COUNT; ty++) {
			struct vol_config cfg;
			struct cost c;

			if (!a.want[ty])
				continue;
			equivalent((enum vol_type)ty, a.sizes[i], a.iops, lim, &cfg);
			if (model_validate(&lim[ty], &cfg, NULL, NULL, 0) ||
			    model_cost(&ps.type[ty], &cfg, &c)) {
				out_note(doc, "no legal %s matches gp2 %ld GiB", model_type_name(ty),
					 a.sizes[i]);
				continue;
			}
			model_perf(&cfg, &pf);
			add_row(t, a.sizes[i], &cfg, &c, &pf, a.iops, gp2_cost.total);
			pivot[i][ty] = c.total;
		}
	}
	out_note(doc, "prices: %s, snapshot %lld (%s, as of %s); cliff = full bucket at %ld IOPS",
		 ctx->region, ps.snapshot_id, ps.source, ps.as_of, a.iops);
	price_sheet_about(doc, &ps);
	rc = EXIT_OK;
	if (ctx->format == OUT_XLSX) {
		cost_chart(doc, &a, pivot);
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
