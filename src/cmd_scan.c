/*
 * cmd_scan.c - `ebsize scan`: read an inventory (describe-volumes pages,
 * kubectl PV/StorageClass lists, CloudWatch metric data, a usage CSV,
 * FOCUS / CUR billing exports), analyse every volume and report findings
 * with savings, risk, confidence and the commands that apply them; totals
 * by category, region and tag.  `ebsize scan --metric-queries
 * VOLUMES.json` writes the GetMetricData queries the analysis reads back;
 * `ebsize scan --emit-sql duckdb|athena` the billing analysis as SQL.
 *
 * This file holds the options and the run; the files are read by
 * cmd_scan_input.c, the findings rendered by cmd_scan_report.c, billing
 * exports joined and reported by cmd_scan_billing.c (private header
 * cmd_scan.h).  Parsing is inventory_parse.c's and billing_parse.c's, the
 * per-volume rules scan_fleet.c's and billing_rules.c's, judging scan.c's,
 * pricing model.c's.
 */
#include "cmd_scan.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/billing.h"
#include "ebsize/db.h"
#include "ebsize/inventory.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/scan.h"
#include "ebsize/strmap.h"
#include "ebsize/util.h"

/* ------------------------------------------------------------ options */

#define A(f) offsetof(struct scan_args, f)

/* in the order of enum bill_dialect */
const char *const scan_dialect_names[] = { "duckdb", "athena", NULL };
const char *const scan_schema_names[] = { "focus", "cur2", "cur", NULL };

static const struct opt scan_opts[] = {
	{ "metrics", 0, OPT_LIST, A(metrics), "FILE",
	  "CloudWatch get-metric-data output (repeatable)",
	  .max = SCAN_MAX_FILES, .flags = OPT_PATH },
	{ "usage", 0, OPT_STR, A(usage), "FILE",
	  "CSV volume_id,used_gib (data actually stored)", .flags = OPT_PATH },
	{ "min-savings", 0, OPT_NUM, A(opts.min_savings_usd), "USD",
	  "drop findings saving less per month", .min = 0, .max = 1e9,
	  .def = "0" },
	{ "headroom", 0, OPT_NUM, A(opts.headroom_pct), "PCT",
	  "margin over observed peaks and used space", .min = 0, .max = 1000,
	  .def = "20" },
	{ "exclude-tag", 0, OPT_LIST, A(excl), "K[=V]",
	  "volumes tagged K (=V) are listed, never changed",
	  .max = SCAN_MAX_EXCLUDES },
	{ "by-tag", 0, OPT_STR, A(by_tag), "KEY",
	  "totals by the value of tag KEY" },
	{ "alarm-minutes", 0, OPT_NUM, A(alarm_minutes), "M",
	  "BurstBalance alarms fire M minutes before the\ncliff", .min = 1,
	  .max = 1440, .def = "5" },
	{ "limit", 0, OPT_INT, A(limit), "N",
	  "table/md: show the N largest findings (0 = all);\n"
	  "csv and json always list all",
	  .min = 0, .max = 100000000, .def = "50" },
	{ "metric-queries", 0, OPT_STR, A(queries), "FILE",
	  "write the --metric-data-queries JSON for the\n"
	  "in-use volumes of a describe-volumes FILE",
	  .flags = OPT_PATH },
	{ "svg-dir", 0, OPT_STR, A(svg_dir), "DIR",
	  "also chart the costs by category, region and tag and\n"
	  "the top savings as DIR/scan-*.svg (--format md links\n"
	  "them)",
	  .flags = OPT_DIRNAME },
	{ "period", 0, OPT_INT, A(period_s), "S", "metric period in seconds",
	  .min = 60, .max = 86400, .def = "300", .unit = OPT_UNIT_SECONDS },
	{ "emit-sql", 0, OPT_ENUM, A(emit_sql), "DIALECT",
	  "print the billing analysis as one SQL query for\n"
	  "duckdb or athena (no input files; the global\n"
	  "--table NAME is the table it reads)",
	  .choices = scan_dialect_names, .noun = "SQL dialect",
	  .flags = OPT_OWNS_TABLE },
	{ "schema", 0, OPT_ENUM, A(schema), "SCHEMA",
	  "--emit-sql: the export's columns: focus, cur2 or\n"
	  "cur (legacy CUR)",
	  .choices = scan_schema_names, .noun = "billing schema",
	  .def = "focus" },
	{ NULL }
};

int scan_args_check(const char *cmd, struct scan_args *a)
{
	for (size_t i = 0; i < a->excl.n; i++)
		if (!*a->excl.v[i] || *a->excl.v[i] == '=')
			return msg_usage_error(
			    cmd,
			    "--exclude-tag needs KEY or KEY=VALUE, not '%s'",
			    a->excl.v[i]);
	a->opts.alarm_lead_s = a->alarm_minutes * 60.0;
	return EXIT_OK;
}

static int check(struct cli_ctx *ctx, void *args)
{
	struct scan_args *a = args;
	const char *c_ = ctx->cmd_name;
	int rc;

	if ((rc = scan_args_check(c_, a)))
		return rc;
	if (a->period_s % 60)
		return msg_usage_error(
		    c_, "--period must be a multiple of 60 seconds, not '%ld'",
		    a->period_s);
	if (ctx->noperands > SCAN_MAX_FILES)
		return msg_usage_error(c_, "more than %d input files",
				       SCAN_MAX_FILES);
	a->files = ctx->operands;
	a->nfiles = ctx->noperands;
	if (cli_given(ctx, "emit-sql")) {
		if (a->nfiles || a->queries)
			return msg_usage_error(
			    c_,
			    "--emit-sql takes no input files: it prints SQL to run where the bill is");
		if (ctx->format_set)
			return msg_usage_error(
			    c_,
			    "--emit-sql prints SQL: --format does not apply");
		if (ctx->table && !billing_sql_table_ok(ctx->table))
			return msg_usage_error(
			    c_,
			    "--table '%s' is not a plain table name ([schema.]table: letters, digits, _, quotes)",
			    ctx->table);
		return EXIT_OK;
	}
	if (cli_given(ctx, "schema"))
		return msg_usage_error(c_, "--schema goes with --emit-sql");
	if (a->queries && a->nfiles)
		return msg_usage_error(
		    c_, "--metric-queries takes no other input files");
	if (a->queries && a->svg_dir)
		return msg_usage_error(
		    c_, "--svg-dir goes with a scan, not --metric-queries");
	if (!a->queries && !a->nfiles)
		return msg_usage_error(
		    c_,
		    "missing inventory FILE (aws ec2 describe-volumes or kubectl get pv -o json output, or a billing export)");
	return EXIT_OK;
}

/* ------------------------------------------------------------ command */

const struct price_set *scan_prices_for(struct scan_state *st,
					const char *region)
{
	struct scan_region_prices *rp;
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < st->nrp; i++)
		if (!strcmp(st->rp[i]->region, region))
			return st->rp[i]->ok ? &st->rp[i]->ps : NULL;
	xgrow((void **)&st->rp, &st->arp, st->nrp + 1, sizeof(*st->rp));
	rp = st->rp[st->nrp++] = xcalloc(1, sizeof(*rp));
	xsnprintf(rp->region, sizeof(rp->region), "%s", region);
	rp->ok = !db_load_prices(st->ctx->db, region, NULL, &rp->ps, err);
	return rp->ok ? &rp->ps : NULL;
}

/* The prices of a region (scan_prices_fn), loaded once; NULL: none. */
static const struct price_set *prices_for(void *arg, const char *region)
{
	return scan_prices_for(arg, region);
}

/* The fleet rules' options from the command line (keep_top and
 * group_unchanged are the caller's). */
static void fleet_opts(struct scan_state *st, struct scan_fleet_opts *o)
{
	const struct scan_args *a = st->a;

	memset(o, 0, sizeof(*o));
	o->rules = a->opts;
	o->only_region = st->ctx->region_from_opt ? st->ctx->region : NULL;
	o->default_region = st->ctx->region;
	o->excl = a->excl.v;
	o->nexcl = a->excl.n;
	o->by_tag = a->by_tag;
	o->usage_file = a->usage;
	o->prices = prices_for;
	o->prices_arg = st;
}

void scan_state_release(struct scan_state *st)
{
	scan_fleet_release(&st->fleet);
	for (size_t i = 0; i < st->nrp; i++)
		free(st->rp[i]);
	free(st->rp);
	free(st->cmd_rows);
	inv_k8s_release(&st->k8s);
	inv_metrics_release(&st->metrics);
	inv_usage_release(&st->usage);
	inv_warnings_release(&st->warn);
	scan_billing_release(st);
	if (st->stdin_in.data)
		scan_input_close(&st->stdin_in);
}

int scan_collect(struct cli_ctx *ctx, const struct scan_args *a,
		 size_t keep_top, int group_unchanged, const char *progress,
		 struct scan_state *st)
{
	struct volume_limits lim[VT_COUNT];
	struct scan_fleet_opts fo;
	char *kinds = NULL;
	int rc;

	memset(st, 0, sizeof(*st));
	st->ctx = ctx;
	st->a = a;
	st->progress = progress;
	for (int t = 0; t < VT_COUNT; t++)
		if ((rc = db_load_limits(ctx->db, (enum vol_type)t, NULL,
					 &lim[t], st->err)))
			return cli_fail(ctx, rc, st->err);
	fleet_opts(st, &fo);
	fo.keep_top = keep_top;
	fo.group_unchanged = group_unchanged;
	scan_fleet_init(&st->fleet, lim, &fo);
	rc = EXIT_RUNTIME;
	kinds = xcalloc(a->nfiles + 1, 1);
	if (scan_load_inputs(st, kinds))
		goto out;
	/* StorageClasses alone still have cluster findings */
	if (!memchr(kinds, INV_VOLUMES, a->nfiles) && !st->k8s.npv &&
	    !st->k8s.nsc && !scan_billing_volumes(st)) {
		msg_error(
		    "no volumes in the inputs: give aws ec2 describe-volumes or kubectl get pv -o json output, or a billing export with resource ids");
		goto out;
	}
	/* billing exports are joined to the records by id: keep them all */
	if (st->bill)
		scan_fleet_keep_all(&st->fleet);
	if (scan_read_volumes(st, kinds))
		goto out;
	if (st->bill && scan_billing_join(
			    st, memchr(kinds, INV_VOLUMES, a->nfiles) != NULL))
		goto out;
	scan_fleet_unmatched(&st->fleet);
	scan_flush_warnings(st);
	if (st->nwarn > SCAN_SHOW_WARNINGS)
		msg_warn("%zu more warnings not shown",
			 st->nwarn - SCAN_SHOW_WARNINGS);
	rc = EXIT_OK;
out:
	free(kinds);
	return rc;
}

static int run(struct cli_ctx *ctx, void *args)
{
	const struct scan_args *a = args;
	int human = ctx->format == OUT_TABLE || ctx->format == OUT_MD;
	struct scan_state st;
	int rc;

	if (a->queries)
		return scan_write_queries(a, ctx);
	if (cli_given(ctx, "emit-sql"))
		return scan_emit_sql(a, ctx);
	/* a table or Markdown shows the --limit first findings: only those
	 * are kept, with running totals (issue 14: a million volumes in
	 * 100 MiB); the machine formats and workbooks list every one */
	rc = scan_collect(ctx, a, human ? (size_t)a->limit : 0,
			  ctx->format == OUT_XLSX, NULL, &st);
	if (!rc)
		rc = scan_report(&st);
	scan_state_release(&st);
	return rc;
}

const struct cmd cmd_scan_def = {
	.name = "scan",
	.run = run,
	.args_size = sizeof(struct scan_args),
	.flags = CMD_NEEDS_DB,
	.summary = "find EBS waste in an inventory: savings and fix commands",
	.synopsis =
	    "FILE... [--metrics FILE]... [--usage FILE] [--region R]"
	    " [--min-savings USD] [--headroom PCT] [--exclude-tag KEY[=VALUE]]..."
	    " [--by-tag KEY] [--alarm-minutes M] [--limit N] [--svg-dir DIR]\n"
	    "--metric-queries VOLUMES.json [--period S]\n"
	    "--emit-sql duckdb|athena [--schema focus|cur2|cur] [--table NAME]"
	    " [--region R]...",
	.description =
	    "Find EBS waste in an inventory: gp2 that gp3 serves cheaper at no loss\n"
	    "of performance, gp2 sized for IOPS rather than data, gp2 about to run out\n"
	    "of burst credits, io1/io2/gp3 provisioned far above their observed peak,\n"
	    "and unattached volumes.  Each finding has the current and proposed\n"
	    "configuration, monthly and annual savings, risk, confidence and the\n"
	    "commands to apply it.  Kubernetes volumes are moved with a\n"
	    "VolumeAttributesClass (an existing one when its parameters match),\n"
	    "in-tree ones with modify-volume; claims with a modification under way\n"
	    "get none.  Cluster findings come first: a default StorageClass that\n"
	    "provisions gp2 or is in-tree, several defaults, none while claims name\n"
	    "gp2 classes; with the gp3 StorageClass and the kubectl lines.\n"
	    "Inputs are told apart by content, in any order:\n"
	    "  aws ec2 describe-volumes output (any number of pages or files),\n"
	    "  kubectl get pv, pvc -A, storageclass, volumeattributesclass -o json\n"
	    "  (one List or several files),\n"
	    "  aws cloudwatch get-metric-data output (queries from --metric-queries),\n"
	    "  billing exports: FOCUS 1.0+, legacy CUR or CUR 2.0 CSV, plain or .gz,\n"
	    "  with resource ids (told by their header; several months or accounts).\n"
	    "Billed volumes get findings of their own (gp2 -> gp3, io1 -> io2 or gp3,\n"
	    "gp2 sized for IOPS), prorated over the hours billed, with the billed and\n"
	    "the list cost; those also in describe-volumes keep its finding, with the\n"
	    "billed cost as current, and those absent from it are reported.\n"
	    "The global --region R limits the scan to volumes in region R (default:\n"
	    "all regions).  --emit-sql prints the billing analysis as one SQL query\n"
	    "for DuckDB or Athena, with the prices in force of every --region R\n"
	    "given (default: of every region with prices) embedded.",
	.opts = scan_opts,
	.operands = "FILE...",
	.max_operands = -1,
	.check = check,
	.epilog = "Exit status: 0 ok, 1 unreadable or invalid input, 2 usage.",
	.tables =
	    "findings, summary, kubernetes, cluster_findings, cluster_commands, totals_by_currency, totals_by_category, totals_by_region, totals_by_tag, billing, billing_files, billing_totals, notes",
};
