/*
 * cmd_instances.c - `ebsize instances show|import`: the EBS limits of
 * instance types, by name or family, from the database (embedded T11
 * data unless imported since), and the import of `aws ec2
 * describe-instance-types` output (parsed in instances_parse.c, written
 * by db_instances.c in one transaction).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/db_prices.h"
#include "ebsize/instances_parse.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

/* describe-instance-types for every type is a few MB; this is generous. */
#define INSTANCES_IMPORT_CAP (64u << 20)

struct list_ctx {
	struct out_table *t;
	size_t n, unsupported;
	char first_unsupported[48];
};

static int add_row(const struct instance_limits *il, void *arg)
{
	struct list_ctx *lc = arg;
	struct out_table *t = lc->t;
	int none = il->ebs_optimized == EBS_OPT_UNSUPPORTED;

	out_row(t);
	out_str(t, il->instance_type);
	if (none) {
		/* no EBS limit published: nothing to show, not zero */
		for (int i = 0; i < 9; i++)
			out_null(t);
		if (!lc->unsupported++)
			xsnprintf(lc->first_unsupported,
				  sizeof(lc->first_unsupported), "%s",
				  il->instance_type);
	} else {
		out_bool(t, il->burst);
		out_num(t, il->baseline_mbps);
		out_num(t, il->max_mbps);
		out_num(t, il->baseline_mbytes_per_s);
		out_num(t, il->max_mbytes_per_s);
		out_num(t, model_mbytes_to_mibps(il->baseline_mbytes_per_s));
		out_num(t, model_mbytes_to_mibps(il->max_mbytes_per_s));
		out_num(t, il->baseline_iops);
		out_num(t, il->max_iops);
	}
	out_str(t, model_ebs_optimized_name(il->ebs_optimized));
	if (il->max_ebs_attachments > 0)
		out_int(t, il->max_ebs_attachments);
	else
		out_null(t);
	out_str(t, *il->nvme ? il->nvme : NULL);
	out_str(t, il->source);
	out_str(t, il->as_of);
	lc->n++;
	return 0;
}

static int show(struct cli_ctx *ctx, const char *name, const char *family)
{
	struct out_doc *doc = out_doc_new();
	struct list_ctx lc = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	lc.t = out_list(doc, "instances", NULL);
	out_col(lc.t, "instance_type", "Instance", OUT_TEXT);
	out_col(lc.t, "burst", "Burst", OUT_BOOL);
	out_col(lc.t, "baseline_mbps", "Base Mbps", OUT_INT);
	out_col(lc.t, "max_mbps", "Max Mbps", OUT_INT);
	out_col(lc.t, "baseline_mbytes_per_s", "Base MB/s", OUT_NUM2);
	out_col(lc.t, "max_mbytes_per_s", "Max MB/s", OUT_NUM2);
	out_col(lc.t, "baseline_mibps", "Base MiB/s", OUT_NUM1);
	out_col(lc.t, "max_mibps", "Max MiB/s", OUT_NUM1);
	out_col(lc.t, "baseline_iops", "Base IOPS", OUT_INT);
	out_col(lc.t, "max_iops", "Max IOPS", OUT_INT);
	out_col(lc.t, "ebs_optimized", "EBS-optimized", OUT_TEXT);
	out_col(lc.t, "max_ebs_attachments", "Max volumes", OUT_INT);
	out_col(lc.t, "nvme", "NVMe", OUT_TEXT);
	out_col(lc.t, "source", "Source", OUT_TEXT);
	out_col(lc.t, "as_of", "As of", OUT_TEXT);
	if (db_each_instance(ctx->db, name, family, add_row, &lc, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	if (!lc.n) {
		if (name)
			msg_error("unknown instance type '%s'", name);
		else
			msg_error("no instance types in family '%s'", family);
		msg_hint("'ebsize instances show' lists every known type");
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	if (lc.unsupported == 1)
		out_note(
		    doc,
		    "%s is not EBS-optimizable (EbsOptimizedSupport unsupported): it attaches EBS volumes, but AWS publishes no EBS limit for it and its EBS traffic shares the instance's network bandwidth",
		    lc.first_unsupported);
	else if (lc.unsupported)
		out_note(
		    doc,
		    "%zu types (%s, ...) are not EBS-optimizable (EbsOptimizedSupport unsupported): they attach EBS volumes, but AWS publishes no EBS limit for them and their EBS traffic shares the instance's network bandwidth",
		    lc.unsupported, lc.first_unsupported);
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

/* Parse FILE and store it; the database is untouched on any failure. */
static int import(struct cli_ctx *ctx, const char *path)
{
	struct instance_list il = { 0 };
	struct instance_import_report rep;
	struct out_doc *doc = NULL;
	struct out_table *t;
	const char *base = strrchr(path, '/');
	char err[EBS_ERRLEN], now[32], as_of[16], *source, *buf = NULL;
	size_t len;
	int rc = EXIT_RUNTIME;

	utc_now_iso(now);
	xsnprintf(as_of, sizeof(as_of), "%.10s", now);
	source = xstrfmt("import:%s", base ? base + 1 : path);
	if (read_file_capped(path, INSTANCES_IMPORT_CAP, &buf, &len, err) ||
	    instances_parse(buf, len, path, source, as_of, &il, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (db_instances_import(ctx->db, il.v, il.n, &rep, err)) {
		msg_error("instance limits from '%s' not stored: %s", path,
			  err);
		goto out;
	}
	doc = out_doc_new();
	t = out_record(doc, NULL, "Imported instance limits");
	out_kv_str(t, "source", "Source", source);
	out_kv_str(t, "as_of", "As of", as_of);
	out_kv_int(t, "imported", "Imported", (long long)il.n);
	out_kv_int(t, "inserted", "New types", (long long)rep.inserted);
	out_kv_int(t, "updated", "Updated types", (long long)rep.updated);
	out_kv_int(t, "skipped", "Skipped", (long long)il.skipped);
	out_doc_notes_key(doc);
	if (il.skipped)
		out_note(
		    doc,
		    "%zu instance type%s without EbsOptimizedInfo skipped (first: %s)",
		    il.skipped, il.skipped == 1 ? "" : "s", il.first_skipped);
	rc = cli_render(ctx, doc);
out:
	free(buf);
	free(source);
	instance_list_release(&il);
	out_doc_free(doc);
	return rc;
}

struct show_args {
	const char *family;
};

static const struct opt show_opts[] = {
	{ "family", 0, OPT_STR, offsetof(struct show_args, family), "F",
	  "every size of a family, e.g. m6i" },
	{ NULL }
};

static int show_check(struct cli_ctx *ctx, void *args)
{
	const struct show_args *a = args;

	if (ctx->noperands && a->family)
		return msg_usage_error(ctx->cmd_name,
				       "give a TYPE or --family, not both");
	return EXIT_OK;
}

static int cmd_instances_show(struct cli_ctx *ctx, void *args)
{
	const struct show_args *a = args;

	return show(ctx, ctx->noperands ? ctx->operands[0] : NULL, a->family);
}

static int import_check(struct cli_ctx *ctx, void *args)
{
	(void)args;
	if (!ctx->noperands)
		return msg_usage_error(ctx->cmd_name, "import needs a FILE");
	return EXIT_OK;
}

static int cmd_instances_import(struct cli_ctx *ctx, void *args)
{
	(void)args;
	return import(ctx, ctx->operands[0]);
}

static const struct cmd instances_show_def = {
	.name = "show",
	.run = cmd_instances_show,
	.args_size = sizeof(struct show_args),
	.flags = CMD_NEEDS_DB,
	.summary = "the limits of one type, a family, or every known type",
	.synopsis = "[TYPE | --family F]",
	.description =
	    "EBS-optimized limits of EC2 instance types: baseline and maximum\n"
	    "bandwidth (Mbps and MB/s, decimal, as AWS publishes them, plus MiB/s)\n"
	    "and IOPS (16 KiB I/O).  'burst' means the maximum holds for 30 minutes\n"
	    "at least once per 24 hours.  TYPE is one instance type, e.g. m5.xlarge.",
	.opts = show_opts,
	.operands = "[TYPE]",
	.max_operands = 1,
	.check = show_check,
	.tables = "instances",
};

static const struct cmd instances_import_def = {
	.name = "import",
	.writes = "storing instance limits",
	.run = cmd_instances_import,
	.flags = CMD_NEEDS_DB,
	.summary =
	    "store the limits in 'aws ec2 describe-instance-types' output",
	.description =
	    "Store the limits in 'aws ec2 describe-instance-types' output\n"
	    "(InstanceTypes[].EbsInfo.EbsOptimizedInfo; entries without it are\n"
	    "skipped and counted); all or nothing.",
	.operands = "FILE",
	.max_operands = 1,
	.check = import_check,
	.tables = "(records), result, notes",
};

static const struct cmd *const instances_subs[] = { &instances_show_def,
						    &instances_import_def,
						    NULL };

const struct cmd cmd_instances_def = {
	.name = "instances",
	.summary = "EBS limits of EC2 instance types",
	.description =
	    "EBS-optimized limits of EC2 instance types: baseline and maximum\n"
	    "bandwidth (Mbps and MB/s, decimal, as AWS publishes them, plus MiB/s)\n"
	    "and IOPS (16 KiB I/O).",
	.subs = instances_subs,
};
