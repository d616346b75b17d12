/*
 * cmd_cost.c - `ebsize cost`: the itemised monthly cost and performance of
 * one volume configuration (or K identical volumes), refusing configurations
 * AWS would refuse, with the rule broken and the nearest legal one.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_batch.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/price_sheet.h"
#include "ebsize/util.h"

struct cost_args {
	struct vol_config cfg;
	const char *as_of;
	const char *batch;
	int batch_format; /* enum batch_format */
};

#define A(f) offsetof(struct cost_args, f)

static const struct opt cost_opts[] = {
	{ "type", 0, OPT_FUNC, A(cfg.type), "TYPE",
	  "gp2, gp3, io1, io2, st1, sc1 or standard", .parse = cli_parse_type,
	  .choices = cli_type_names, .flags = OPT_REQUIRED },
	{ "size", 0, OPT_INT, A(cfg.size_gib), "GIB", "volume size in GiB",
	  .min = 1, .max = 10000000, .flags = OPT_REQUIRED,
	  .unit = OPT_UNIT_GIB },
	{ "iops", 0, OPT_INT, A(cfg.iops), "N",
	  "provisioned IOPS (gp3: default 3000; io1/io2: required)", .min = 1,
	  .max = 100000000, .unit = OPT_UNIT_COUNT },
	{ "throughput", 0, OPT_INT, A(cfg.throughput_mibps), "MIBPS",
	  "provisioned MiB/s (gp3 only; default 125)", .min = 1, .max = 1000000,
	  .unit = OPT_UNIT_MIBPS },
	{ "count", 0, OPT_INT, A(cfg.count), "K",
	  "K identical volumes (a striped set); multiplies all", .min = 1,
	  .max = 1000 },
	{ "io-per-month", 0, OPT_NUM, A(cfg.io_per_month), "N",
	  "I/O requests per month per volume (standard only)", .min = 0,
	  .max = 1e18 },
	{ "as-of", 0, OPT_DATE, A(as_of), "DATE",
	  "use the volume rules and prices in force on DATE" },
	{ "batch", 0, OPT_STR, A(batch), "FILE",
	  "price every configuration of FILE ('-': standard\n"
	  "input): JSON Lines or CSV whose keys are these options'\n"
	  "names, id and region (see below)",
	  .flags = OPT_PATH | OPT_BATCH },
	{ "batch-format", 0, OPT_ENUM, A(batch_format), "FMT",
	  "auto (by the first character: '{' JSON Lines),\njsonl or csv",
	  .choices = batch_format_names, .def = "auto", .flags = OPT_BATCH },
	{ NULL }
};

static const struct batch_cmd cost_batch;

static int check(struct cli_ctx *ctx, void *args)
{
	struct cost_args *a = args;

	if (cli_given(ctx, "batch") || cli_given(ctx, "batch-format"))
		return batch_check(ctx, &cost_batch);

	if (model_type_needs_iops(a->cfg.type) && !a->cfg.iops)
		return msg_usage_error(ctx->cmd_name,
				       "--iops is required for %s volumes",
				       model_type_name(a->cfg.type));
	if (a->cfg.io_per_month > 0 && !model_type_bills_io(a->cfg.type))
		return msg_usage_error(
		    ctx->cmd_name,
		    "--io-per-month applies to standard volumes only");
	return EXIT_OK;
}

/* Print the command line of a configuration, for the "nearest" hint. */
static void describe(const struct vol_config *c, char *buf, size_t n)
{
	int o = snprintf(buf, n, "--type %s --size %ld",
			 model_type_name(c->type), c->size_gib);

	if (c->iops && o > 0 && (size_t)o < n)
		o += snprintf(buf + o, n - (size_t)o, " --iops %ld", c->iops);
	if (c->throughput_mibps && o > 0 && (size_t)o < n)
		snprintf(buf + o, n - (size_t)o, " --throughput %ld",
			 c->throughput_mibps);
}

/*
 * Workbook: each cost of the monthly_usd record as a live formula over
 * the configuration (sheet "result") and the price list, so that an
 * edited size, IOPS, throughput or price recomputes it.
 */
static void live_costs(struct out_table *t, const struct vol_config *cfg)
{
	static const struct {
		const char *key, *units;
	} dims[] = {
		{ "storage", "{result!size_gib}" },
		{ "iops", "{result!iops}" },
		{ "throughput", "{result!throughput_mibps}" },
		{ "io", "{result!io_per_month}/1000000" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(dims); i++) {
		char *one, *all;

		if (!strcmp(dims[i].key, "io") &&
		    !model_type_bills_io(cfg->type))
			continue; /* no io_per_month field to refer to */
		one = price_sheet_cost("{result!region}", "{result!type}",
				       dims[i].key, dims[i].units);
		all = xstrfmt("{result!count}*%s", one);
		out_formula(t, dims[i].key, all);
		free(one);
		free(all);
	}
	out_formula(t, "total", "{storage}+{iops}+{throughput}+{io}");
}

static void build(struct out_doc *doc, const char *region,
		  const struct vol_config *cfg, const struct cost *cost,
		  const struct perf *pf, const struct price_set *ps,
		  const struct volume_limits *lim)
{
	struct out_table *t;
	char title[160];

	xsnprintf(title, sizeof(title), "%ld x %s %ld GiB in %s", cfg->count,
		  model_type_name(cfg->type), cfg->size_gib, region);
	t = out_record(doc, NULL, title);
	out_kv_str(t, "region", "Region", region);
	out_kv_str(t, "currency", "Currency", ps->currency);
	out_kv_str(t, "type", "Type", model_type_name(cfg->type));
	out_kv_int(t, "size_gib", "Size (GiB)", cfg->size_gib);
	if (cfg->iops)
		out_kv_int(t, "iops", "Provisioned IOPS", cfg->iops);
	else
		out_kv_null(t, "iops", "Provisioned IOPS", OUT_INT);
	if (cfg->throughput_mibps)
		out_kv_int(t, "throughput_mibps", "Provisioned MiB/s",
			   cfg->throughput_mibps);
	else
		out_kv_null(t, "throughput_mibps", "Provisioned MiB/s",
			    OUT_INT);
	out_kv_int(t, "count", "Volumes", cfg->count);
	if (model_type_bills_io(cfg->type))
		out_kv_num(t, "io_per_month", "I/O per month", OUT_INT,
			   cfg->io_per_month);

	/* the key predates other currencies: its amounts are in `currency` */
	xsnprintf(title, sizeof(title), "Monthly cost (%s)", ps->currency);
	t = out_record(doc, "monthly_usd", title);
	out_table_currency(t, ps->currency);
	out_kv_num(t, "storage", "Storage", OUT_USD, cost->storage);
	out_kv_num(t, "iops", "IOPS", OUT_USD, cost->iops);
	out_kv_num(t, "throughput", "Throughput", OUT_USD, cost->throughput);
	out_kv_num(t, "io", "I/O requests", OUT_USD, cost->io);
	out_kv_num(t, "total", "Total", OUT_USD, cost->total);
	live_costs(t, cfg);

	t = out_record(doc, "performance", "Performance");
	out_kv_num(t, "baseline_iops", "Baseline IOPS", OUT_INT,
		   pf->baseline_iops);
	out_kv_num(t, "burst_iops", "Burst IOPS", OUT_INT, pf->burst_iops);
	if (pf->burst_seconds > 0)
		out_kv_num(t, "burst_seconds", "Burst from full bucket",
			   OUT_DURATION, pf->burst_seconds);
	else
		out_kv_null(t, "burst_seconds", "Burst from full bucket",
			    OUT_DURATION);
	out_kv_num(t, "baseline_throughput_mibps", "Sustained MiB/s", OUT_NUM1,
		   pf->baseline_mibps);
	out_kv_num(t, "max_throughput_mibps", "Max MiB/s", OUT_NUM1,
		   pf->burst_mibps);

	t = out_record(doc, "prices", "Prices");
	out_kv_int(t, "snapshot", "Snapshot", ps->snapshot_id);
	out_kv_str(t, "as_of", "As of", ps->as_of);
	out_kv_str(t, "source", "Source", ps->source);
	out_kv_str(t, "rules_from", "Volume rules from", lim->effective_from);
	price_sheet_about(doc, ps);
}

/*
 * What answers read from the database, once per process, and the last
 * answer (a batch row).
 */
struct state {
	struct cli_memo *memo;
	const char *region;
	struct vol_config cfg;
	const struct volume_limits *lim;
	const struct price_set *ps;
	struct cost cost;
	struct perf pf;
};

/* Price one configuration: the exit code, *docp the result. */
static int answer(struct cli_ctx *ctx, struct cost_args *a, struct state *st,
		  struct out_doc *doc, int *answered)
{
	struct vol_config nearest;
	char err[EBS_ERRLEN], why[256], alt[160];
	int rc;

	*answered = 0;
	if ((rc = cli_memo_limits(ctx, st->memo, a->cfg.type, a->as_of,
				  &st->lim, err)))
		return cli_fail(ctx, rc, err);
	model_apply_defaults(st->lim, &a->cfg);
	if (model_validate(st->lim, &a->cfg, &nearest, why, sizeof(why))) {
		describe(&nearest, alt, sizeof(alt));
		msg_error("illegal configuration: %s", why);
		msg_hint("nearest legal configuration: ebsize cost %s", alt);
		return EXIT_RUNTIME;
	}
	if ((rc = cli_memo_prices(ctx, st->memo, ctx->region, a->as_of,
				  model_type_name(a->cfg.type), &st->ps)))
		return rc;
	if (model_cost(&st->ps->type[a->cfg.type], &a->cfg, &st->cost))
		return cli_type_prices_missing(st->ps, a->cfg.type);
	model_perf(&a->cfg, &st->pf);
	st->cfg = a->cfg;
	st->region = ctx->region;
	build(doc, ctx->region, &a->cfg, &st->cost, &st->pf, st->ps, st->lim);
	*answered = 1;
	return EXIT_OK;
}

static int run(struct cli_ctx *ctx, void *args)
{
	struct cost_args *a = args;
	struct state st = { .memo = cli_memo_new() };
	struct out_doc *doc = NULL;
	char err[EBS_ERRLEN];
	int rc, answered;

	if ((rc = db_read_begin(ctx->db, err))) {
		rc = cli_fail(ctx, rc, err);
		goto out;
	}
	if (a->batch) {
		rc = batch_run(ctx, &cost_batch, a->batch, a->batch_format, a,
			       &st);
		goto out;
	}
	doc = out_doc_new();
	if ((rc = answer(ctx, a, &st, doc, &answered)))
		goto out;
	if (ctx->format == OUT_XLSX &&
	    price_sheet_add(doc, ctx->db, &ctx->region, 1, err)) {
		msg_error("%s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = cli_render(ctx, doc);
out:
	db_read_end(ctx->db);
	out_doc_free(doc);
	cli_memo_free(st.memo);
	return rc;
}

/* ------------------------------------------------------------ batch */

static int batch_answer(struct cli_ctx *ctx, void *args, void *state,
			struct out_doc *doc, int *answered)
{
	return answer(ctx, args, state, doc, answered);
}

/* The row: the fields of `--format csv cost` (io_per_month always). */
static void batch_columns(struct out_table *t)
{
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "currency", "Currency", OUT_TEXT);
	out_col(t, "type", "Type", OUT_TEXT);
	out_col(t, "size_gib", "Size (GiB)", OUT_INT);
	out_col(t, "iops", "Provisioned IOPS", OUT_INT);
	out_col(t, "throughput_mibps", "Provisioned MiB/s", OUT_INT);
	out_col(t, "count", "Volumes", OUT_INT);
	out_col(t, "io_per_month", "I/O per month", OUT_INT);
	out_col(t, "monthly_usd.storage", "Storage", OUT_USD);
	out_col(t, "monthly_usd.iops", "IOPS", OUT_USD);
	out_col(t, "monthly_usd.throughput", "Throughput", OUT_USD);
	out_col(t, "monthly_usd.io", "I/O requests", OUT_USD);
	out_col(t, "monthly_usd.total", "Total", OUT_USD);
	out_col(t, "performance.baseline_iops", "Baseline IOPS", OUT_INT);
	out_col(t, "performance.burst_iops", "Burst IOPS", OUT_INT);
	out_col(t, "performance.burst_seconds", "Burst from full bucket",
		OUT_DURATION);
	out_col(t, "performance.baseline_throughput_mibps", "Sustained MiB/s",
		OUT_NUM1);
	out_col(t, "performance.max_throughput_mibps", "Max MiB/s", OUT_NUM1);
	out_col(t, "prices.snapshot", "Snapshot", OUT_INT);
	out_col(t, "prices.as_of", "As of", OUT_TEXT);
	out_col(t, "prices.source", "Source", OUT_TEXT);
	out_col(t, "prices.rules_from", "Volume rules from", OUT_TEXT);
}

static void batch_row(struct out_table *t, const void *args, void *state,
		      int answered)
{
	const struct state *st = state;
	const struct vol_config *c = &st->cfg;

	(void)args;
	if (!answered) {
		for (int i = 0; i < 22; i++)
			out_null(t);
		return;
	}
	out_str(t, st->region);
	out_str(t, st->ps->currency);
	out_str(t, model_type_name(c->type));
	out_int(t, c->size_gib);
	if (c->iops)
		out_int(t, c->iops);
	else
		out_null(t);
	if (c->throughput_mibps)
		out_int(t, c->throughput_mibps);
	else
		out_null(t);
	out_int(t, c->count);
	if (c->type == VT_STANDARD)
		out_num(t, c->io_per_month);
	else
		out_null(t);
	/* rows of several regions: each amount in its own currency */
	out_money(t, st->cost.storage, st->ps->currency);
	out_money(t, st->cost.iops, st->ps->currency);
	out_money(t, st->cost.throughput, st->ps->currency);
	out_money(t, st->cost.io, st->ps->currency);
	out_money(t, st->cost.total, st->ps->currency);
	out_num(t, st->pf.baseline_iops);
	out_num(t, st->pf.burst_iops);
	if (st->pf.burst_seconds > 0)
		out_num(t, st->pf.burst_seconds);
	else
		out_null(t);
	out_num(t, st->pf.baseline_mibps);
	out_num(t, st->pf.burst_mibps);
	out_int(t, st->ps->snapshot_id);
	out_str(t, st->ps->as_of);
	out_str(t, st->ps->source);
	out_str(t, st->lim->effective_from);
}

static const struct batch_cmd cost_batch = {
	.cmd = &cmd_cost_def,
	.answer = batch_answer,
	.columns = batch_columns,
	.row = batch_row,
};

const struct cmd cmd_cost_def = {
	.name = "cost",
	.run = run,
	.args_size = sizeof(struct cost_args),
	.flags = CMD_NEEDS_DB,
	.summary = "monthly cost and performance of one volume configuration",
	.description =
	    "Monthly cost (USD, on-demand) of one EBS volume configuration, itemised,\n"
	    "with its performance: baseline and burst IOPS, how long a full credit\n"
	    "bucket lasts, and maximum throughput.  Illegal configurations are refused\n"
	    "with the rule they break and the nearest legal configuration.  Prices are\n"
	    "those of the global --region; --as-of DATE uses the rules and prices in\n"
	    "force on DATE.",
	.opts = cost_opts,
	.check = check,
	.epilog =
	    "Exit status: 0 ok, 1 illegal configuration or missing prices, 2 usage.\n"
	    "\n"
	    "--batch FILE prices many configurations in one process (\"price my\n"
	    "plan\"): one per row of CSV under a header, id,type,size,iops,region\n"
	    "(a plan saved from a spreadsheet), or per line of JSON Lines,\n"
	    "{\"id\":\"db\",\"type\":\"io2\",\"size\":\"1TiB\",\"iops\":20000}; the first\n"
	    "character that is not blank tells them apart ('{': JSON Lines).  Keys\n"
	    "are the option names, id and region; values read as on the command\n"
	    "line (numbers, or text with units); options given with --batch are\n"
	    "every request's defaults.  Output: one JSON line per request (what\n"
	    "--format json prints for it, with \"id\" first; a failed request also\n"
	    "has \"line\", \"exit\", \"error\" and \"hints\"), or with --format csv,\n"
	    "xlsx, table or md one row per request (the table 'results').  Exit\n"
	    "status 1 when a request failed; the other requests are answered.",
	.tables = "(records), result, monthly_usd, performance, prices",
};
