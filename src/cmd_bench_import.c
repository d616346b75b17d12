/*
 * cmd_bench_import.c - `ebsize bench import`: store fio JSON outputs and
 * IOPS logs made elsewhere (or by an interrupted run) as one run, each
 * phase analysed as a measured one would be; all or nothing.
 */
#include "cmd_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/db_bench.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

struct import_args {
	struct vol_opts v;
};

static const struct opt import_opts[] = { BENCH_VOL_OPTS(struct import_args),
					  { NULL } };

static int import_check(struct cli_ctx *ctx, void *args)
{
	const struct import_args *a = args;

	if (!ctx->noperands)
		return msg_usage_error(ctx->cmd_name,
				       "missing DIR or FILE to import");
	return bench_check_vol(ctx, &a->v);
}

struct import_set {
	struct bench_phase_result *p;
	struct bench_sample **s;
	size_t *ns;
	size_t n, alloc_p, alloc_s, alloc_ns;
	int interrupted;
};

static void set_release(struct import_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->s[i]);
	free(set->p);
	free(set->s);
	free(set->ns);
}

/* Read json i with its logs and append its phases to set. */
static int read_one(const struct bench_import_files *f, size_t i,
		    struct bench_run *r, struct import_set *set, char *err)
{
	struct bench_phase_result *p = NULL;
	struct bench_sample **s = NULL;
	size_t *ns = NULL, np = 0, nl;
	char **logs;
	char version[32];
	long seq = bench_import_seq(f->json[i]);
	int rc, intr = 0;

	/* the path is stored with each phase: refused, never cut short */
	if (strlen(f->json[i]) >= BENCH_PATH_LEN)
		return ebs_fail(err, EBS_ERR_TOO_BIG,
				"'%s': its path is longer than %d bytes",
				f->json[i], BENCH_PATH_LEN - 1);
	logs = xcalloc(f->nlogs + 1, sizeof(*logs));
	nl = bench_import_logs_for(f, i, logs, err, &rc);
	if (!rc)
		rc = bench_read_outputs(f->json[i], logs, nl, &p, &s, &ns, &np,
					version, sizeof(version), &intr, err);
	free(logs);
	if (rc)
		return rc;
	if (version[0] && !r->fio_version[0])
		xsnprintf(r->fio_version, sizeof(r->fio_version), "%s",
			  version);
	for (size_t k = 0; k < np; k++) {
		long prev = set->n ? set->p[set->n - 1].seq : -1;

		xgrow((void **)&set->p, &set->alloc_p, set->n + 1,
		      sizeof(*set->p));
		xgrow((void **)&set->s, &set->alloc_s, set->n + 1,
		      sizeof(*set->s));
		xgrow((void **)&set->ns, &set->alloc_ns, set->n + 1,
		      sizeof(*set->ns));
		set->p[set->n] = p[k];
		/* "NN-name.json" (ebsize's own outputs) keeps its number */
		set->p[set->n].seq = np == 1 && seq > prev ? seq
				     : prev < 0		   ? 1
							   : prev + 1;
		xsnprintf(set->p[set->n].raw_output,
			  sizeof(set->p[set->n].raw_output), "%s", f->json[i]);
		if (intr) {
			char *nt = set->p[set->n].notes;
			char *was = xstrdup(nt);

			xsnprintf(
			    nt, sizeof(set->p[set->n].notes),
			    "fio reported 'terminating on signal': the phase ended early%s%s",
			    was[0] ? "; " : "", was);
			free(was);
		}
		set->s[set->n] = s[k];
		set->ns[set->n] = ns[k];
		bench_analyse(r, &set->p[set->n], s[k], ns[k]);
		set->n++;
	}
	free(p);
	free(s);
	free(ns);
	return EBS_OK;
}

static int cmd_bench_import(struct cli_ctx *ctx, void *args)
{
	const struct vol_opts *v = &((const struct import_args *)args)->v;
	struct bench_import_files f = { 0 };
	struct import_set set = { 0 };
	struct bench_run r;
	char err[EBS_ERRLEN];
	int rc = EXIT_RUNTIME;

	bench_run_init(&r);
	if (bench_import_collect(ctx->operands, ctx->noperands, &f, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (!f.njson) {
		msg_error("no fio JSON output (*.json) to import in '%s'",
			  ctx->operands[0]);
		goto out;
	}
	bench_vol_to_run(v, ctx, &r);
	xsnprintf(r.label, sizeof(r.label), "%s",
		  v->label ? v->label : "imported");
	xsnprintf(r.source, sizeof(r.source), "imported");
	xsnprintf(r.status, sizeof(r.status), "complete");
	utc_now_iso(r.finished_at);
	for (size_t i = 0; i < f.njson; i++)
		if (read_one(&f, i, &r, &set, err)) {
			msg_error("cannot import: %s", err);
			goto out;
		}
	r.notes = xstrfmt(
	    "imported from %zu fio output file%s and %zu IOPS log%s", f.njson,
	    f.njson == 1 ? "" : "s", f.nlogs, f.nlogs == 1 ? "" : "s");
	if (db_bench_import(ctx->db, &r, set.p, set.s, set.ns, set.n, err)) {
		msg_error("%s", err);
		goto out;
	}
	msg_info("imported run %lld '%s': %zu phase%s", r.id, r.label, set.n,
		 set.n == 1 ? "" : "s");
	rc = bench_show_run(ctx, r.id);
out:
	set_release(&set);
	bench_import_files_release(&f);
	bench_run_release(&r);
	return rc;
}

const struct cmd bench_import_def = {
	.name = "import",
	.writes = "storing benchmark runs",
	.run = cmd_bench_import,
	.args_size = sizeof(struct import_args),
	.flags = CMD_NEEDS_DB,
	.summary = "store fio JSON output and IOPS logs made elsewhere",
	.description =
	    "Store fio JSON output files (--output-format=json) and the IOPS logs\n"
	    "beside them (write_iops_log) as one run; a directory stands for the\n"
	    "files in it.  All or nothing.",
	.opts = import_opts,
	.operands = "DIR|FILE...",
	.max_operands = -1,
	.check = import_check,
	.tables = "phases, run, analysis, published, notes",
};
