/*
 * cmd_bench_show.c - `ebsize bench show|list|compare`: a stored run with
 * its phases, analysis, the model's expectation and the published runs
 * it compares with; the list of runs; two runs phase by phase.  Output
 * only: reading is db_bench.c's.
 */
#include "cmd_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

static void kv_num_or_null(struct out_table *t, const char *k,
			   const char *title, enum out_style st, double v)
{
	if (isnan(v))
		out_kv_null(t, k, title, st);
	else
		out_kv_num(t, k, title, st, v);
}

static void num_or_null(struct out_table *t, double v)
{
	if (isnan(v))
		out_null(t);
	else
		out_num(t, v);
}

static void str_or_null(struct out_table *t, const char *s)
{
	out_str(t, s && *s ? s : NULL);
}

static void kv_str_or_null(struct out_table *t, const char *k,
			   const char *title, const char *s)
{
	out_kv_str(t, k, title, s && *s ? s : NULL);
}

static void add_run_record(struct out_doc *doc, const struct bench_run *r)
{
	struct out_table *t;
	char title[200];

	xsnprintf(title, sizeof(title), "Run %lld: %s", r->id, r->label);
	t = out_record(doc, "run", title);
	out_kv_int(t, "id", "Id", r->id);
	out_kv_str(t, "label", "Label", r->label);
	out_kv_str(t, "source", "Source", r->source);
	out_kv_str(t, "status", "Status", r->status);
	kv_str_or_null(t, "volume_type", "Volume type", r->volume_type);
	kv_num_or_null(t, "size_gib", "Size (GiB)", OUT_NUM0, r->size_gib);
	kv_num_or_null(t, "iops", "Provisioned IOPS", OUT_INT,
		       r->iops ? (double)r->iops : NAN);
	kv_num_or_null(t, "throughput_mibps", "Provisioned MiB/s", OUT_NUM0,
		       r->throughput_mibps);
	kv_str_or_null(t, "instance_type", "Instance", r->instance_type);
	kv_str_or_null(t, "region", "Region", r->region);
	kv_str_or_null(t, "profile", "Profile", r->profile);
	kv_str_or_null(t, "fio_version", "fio", r->fio_version);
	kv_str_or_null(t, "host", "Host", r->host);
	kv_str_or_null(t, "kernel", "Kernel", r->kernel);
	kv_str_or_null(t, "target", "Target", r->target);
	kv_str_or_null(t, "device", "Device", r->device);
	kv_str_or_null(t, "filesystem", "File system", r->filesystem);
	kv_str_or_null(t, "ebs_volume_id", "EBS volume", r->ebs_volume_id);
	kv_str_or_null(t, "started_at", "Started", r->started_at);
	kv_str_or_null(t, "finished_at", "Finished", r->finished_at);
	kv_str_or_null(t, "results_dir", "Raw outputs", r->results_dir);
	kv_str_or_null(t, "provenance", "Provenance", r->provenance);
}

static void add_phases(struct out_doc *doc, const struct bench_phase_result *p,
		       size_t n)
{
	struct out_table *t = out_list(doc, "phases", "Phases");

	out_col(t, "seq", "#", OUT_INT);
	out_col(t, "phase", "Phase", OUT_TEXT);
	out_col(t, "rw", "rw", OUT_TEXT);
	out_col(t, "bs", "bs", OUT_TEXT);
	out_col(t, "iodepth", "QD", OUT_INT);
	out_col(t, "runtime_s", "Seconds", OUT_NUM0);
	out_col(t, "iops", "IOPS", OUT_INT);
	out_col(t, "bw_mibps", "MiB/s", OUT_NUM1);
	out_col(t, "lat_mean_ms", "Mean ms", OUT_NUM3);
	out_col(t, "p50_ms", "p50 ms", OUT_NUM3);
	out_col(t, "p95_ms", "p95 ms", OUT_NUM3);
	out_col(t, "p99_ms", "p99 ms", OUT_NUM3);
	out_col(t, "p999_ms", "p99.9 ms", OUT_NUM3);
	for (size_t i = 0; i < n; i++) {
		out_row(t);
		out_int(t, p[i].seq);
		out_str(t, p[i].phase);
		out_str(t, p[i].rw);
		out_str(t, p[i].bs);
		out_int(t, p[i].iodepth);
		num_or_null(t, p[i].runtime_s);
		num_or_null(t, p[i].iops);
		num_or_null(t, p[i].bw_mibps);
		num_or_null(t, p[i].lat_mean_ms);
		num_or_null(t, p[i].p50_ms);
		num_or_null(t, p[i].p95_ms);
		num_or_null(t, p[i].p99_ms);
		num_or_null(t, p[i].p999_ms);
	}
}

static void add_analysis(struct out_doc *doc,
			 const struct bench_phase_result *p, size_t n)
{
	struct out_table *t = out_list(doc, "analysis", "Analysis");

	out_col(t, "seq", "#", OUT_INT);
	out_col(t, "phase", "Phase", OUT_TEXT);
	out_col(t, "samples", "Samples", OUT_INT);
	out_col(t, "first_sample_iops", "First", OUT_INT);
	out_col(t, "steady_iops", "Mean IOPS", OUT_INT);
	out_col(t, "iops_min", "Min", OUT_INT);
	out_col(t, "iops_max", "Max", OUT_INT);
	out_col(t, "cliff.t_s", "Cliff s", OUT_NUM0);
	out_col(t, "cliff.iops_before", "Before", OUT_INT);
	out_col(t, "cliff.iops_after", "After", OUT_INT);
	out_col(t, "cliff.drop_ratio", "Ratio", OUT_NUM3);
	out_col(t, "cliff.transition_s", "Trans. s", OUT_NUM0);
	out_col(t, "p95_over_p50", "p95/p50", OUT_NUM2);
	out_col(t, "bimodal", "Bimodal", OUT_BOOL);
	out_col(t, "little.expected_ms", "Little ms", OUT_NUM3);
	out_col(t, "little.ratio", "Meas/Little", OUT_NUM2);
	out_col(t, "model.cliff_t_s", "Model cliff s", OUT_NUM0);
	out_col(t, "model.steady_iops", "Model IOPS", OUT_INT);
	for (size_t i = 0; i < n; i++) {
		out_row(t);
		out_int(t, p[i].seq);
		out_str(t, p[i].phase);
		if (p[i].samples)
			out_int(t, p[i].samples);
		else
			out_null(t);
		num_or_null(t, p[i].first_sample_iops);
		num_or_null(t, p[i].steady_iops);
		num_or_null(t, p[i].iops_min);
		num_or_null(t, p[i].iops_max);
		num_or_null(t, p[i].cliff_t_s);
		num_or_null(t, p[i].iops_before_cliff);
		num_or_null(t, p[i].iops_after_cliff);
		num_or_null(t, p[i].cliff_drop_ratio);
		num_or_null(t, p[i].cliff_transition_s);
		num_or_null(t, p[i].p95_over_p50);
		if (p[i].bimodal >= 0)
			out_bool(t, p[i].bimodal);
		else
			out_null(t);
		num_or_null(t, p[i].little_lat_ms);
		num_or_null(t, p[i].little_ratio);
		num_or_null(t, p[i].model_cliff_t_s);
		num_or_null(t, p[i].model_steady_iops);
	}
}

struct pub_ctx {
	struct out_table *t;
	const char *phase;
	long count;
};

static int add_published_row(const char *label,
			     const struct bench_phase_result *p, void *arg)
{
	struct pub_ctx *c = arg;

	out_row(c->t);
	out_str(c->t, c->phase);
	out_str(c->t, label);
	num_or_null(c->t, p->iops);
	num_or_null(c->t, p->bw_mibps);
	num_or_null(c->t, p->lat_mean_ms);
	num_or_null(c->t, p->p99_ms);
	num_or_null(c->t, p->cliff_t_s);
	num_or_null(c->t, p->iops_after_cliff);
	c->count++;
	return 0;
}

static int add_published(struct out_doc *doc, struct db *db,
			 const struct bench_run *r,
			 const struct bench_phase_result *p, size_t n,
			 char *err)
{
	struct pub_ctx c = { 0 };
	int rc = EBS_OK;

	c.t = out_list(doc, "published", "Published runs of the same type");
	out_col(c.t, "phase", "Phase", OUT_TEXT);
	out_col(c.t, "run", "Published run", OUT_TEXT);
	out_col(c.t, "iops", "IOPS", OUT_INT);
	out_col(c.t, "bw_mibps", "MiB/s", OUT_NUM1);
	out_col(c.t, "lat_mean_ms", "Mean ms", OUT_NUM3);
	out_col(c.t, "p99_ms", "p99 ms", OUT_NUM3);
	out_col(c.t, "cliff_t_s", "Cliff s", OUT_NUM0);
	out_col(c.t, "iops_after_cliff", "After", OUT_INT);
	if (!strcmp(r->source, "published") || !r->volume_type[0])
		return EBS_OK;
	for (size_t i = 0; i < n && !rc; i++) {
		c.phase = p[i].phase;
		rc = db_bench_each_published(db, r->volume_type, p[i].phase,
					     add_published_row, &c, err);
	}
	return rc;
}

static void add_notes(struct out_doc *doc, const struct bench_run *r,
		      const struct bench_phase_result *p, size_t n)
{
	out_doc_notes_key(doc);
	for (size_t i = 0; i < n; i++) {
		if (p[i].notes[0])
			out_note(doc, "%s: %s", p[i].phase, p[i].notes);
		if (!isnan(p[i].cliff_t_s))
			out_note(
			    doc,
			    "%s: credit cliff at %.0f s, %.0f -> %.0f IOPS over %.0f s%s",
			    p[i].phase, p[i].cliff_t_s, p[i].iops_before_cliff,
			    p[i].iops_after_cliff, p[i].cliff_transition_s,
			    isnan(p[i].model_cliff_t_s)
				? ""
				: " (model: from a full bucket)");
		if (!isnan(p[i].model_cliff_t_s) && p[i].samples)
			out_note(
			    doc,
			    "%s: the model expects the cliff at %.0f s and %.0f IOPS after it (%s %.0f GiB, full bucket)",
			    p[i].phase, p[i].model_cliff_t_s,
			    p[i].model_steady_iops, r->volume_type,
			    r->size_gib);
		if (p[i].bimodal == 1)
			out_note(doc,
				 "%s: latency is bimodal: p95 is %.1fx p50",
				 p[i].phase, p[i].p95_over_p50);
	}
	if (!strcmp(r->status, "running") ||
	    !strcmp(r->status, "interrupted") || !strcmp(r->status, "failed"))
		out_note(
		    doc,
		    "run %lld is %s; 'ebsize bench resume %lld' continues with its next phase",
		    r->id, r->status, r->id);
}

int bench_show_run(struct cli_ctx *ctx, long long id)
{
	struct bench_run r;
	struct bench_phase_result *p = NULL;
	struct out_doc *doc = NULL;
	char err[EBS_ERRLEN];
	size_t n = 0;
	int rc;

	if ((rc = db_bench_load_run(ctx->db, id, &r, err)) ||
	    (rc = db_bench_load_phases(ctx->db, id, &p, &n, err))) {
		msg_error("%s", err);
		bench_run_release(&r);
		return EXIT_RUNTIME;
	}
	doc = out_doc_new();
	add_run_record(doc, &r);
	add_phases(doc, p, n);
	add_analysis(doc, p, n);
	if (add_published(doc, ctx->db, &r, p, n, err)) {
		msg_error("%s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	add_notes(doc, &r, p, n);
	rc = cli_render(ctx, doc);
out:
	out_doc_free(doc);
	free(p);
	bench_run_release(&r);
	return rc;
}

static int need_runs(struct cli_ctx *ctx, void *args)
{
	size_t want = ctx->cmd == &bench_compare_def ? 2 : 1;

	(void)args;
	if (ctx->noperands < want)
		return msg_usage_error(ctx->cmd_name, "missing %s",
				       want == 2
					   ? "RUN RUN (two run ids or labels)"
					   : "RUN (a run id or label)");
	return EXIT_OK;
}

static int cmd_bench_show(struct cli_ctx *ctx, void *args)
{
	long long id;
	int rc;

	(void)args;
	if ((rc = bench_find_run(ctx, ctx->operands[0], &id)))
		return rc;
	return bench_show_run(ctx, id);
}

/* ------------------------------------------------------------ list */

static int list_row(const struct bench_run *r, long nphases, void *arg)
{
	struct out_table *t = arg;

	out_row(t);
	out_int(t, r->id);
	out_str(t, r->label);
	out_str(t, r->source);
	str_or_null(t, r->volume_type);
	num_or_null(t, r->size_gib);
	str_or_null(t, r->instance_type);
	str_or_null(t, r->profile);
	out_str(t, r->status);
	out_int(t, nphases);
	str_or_null(t, r->started_at);
	return 0;
}

static int cmd_bench_list(struct cli_ctx *ctx, void *args)
{
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	doc = out_doc_new();
	t = out_list(doc, "runs", "Benchmark runs");
	out_col(t, "id", "Id", OUT_INT);
	out_col(t, "label", "Label", OUT_TEXT);
	out_col(t, "source", "Source", OUT_TEXT);
	out_col(t, "volume_type", "Type", OUT_TEXT);
	out_col(t, "size_gib", "GiB", OUT_NUM0);
	out_col(t, "instance_type", "Instance", OUT_TEXT);
	out_col(t, "profile", "Profile", OUT_TEXT);
	out_col(t, "status", "Status", OUT_TEXT);
	out_col(t, "phases", "Phases", OUT_INT);
	out_col(t, "started_at", "Started", OUT_TEXT);
	if (db_bench_each_run(ctx->db, list_row, t, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

static const struct bench_phase_result *phase_named(
    const struct bench_phase_result *p, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].phase, name))
			return &p[i];
	return NULL;
}

static double ratio(double a, double b)
{
	return a > 0 && !isnan(b) ? b / a : NAN;
}

static void compare_rows(struct out_table *t,
			 const struct bench_phase_result *pa, size_t na,
			 const struct bench_phase_result *pb, size_t nb)
{
	for (size_t i = 0; i < na + nb; i++) {
		const struct bench_phase_result *x =
		    i < na ? &pa[i] : &pb[i - na];
		const struct bench_phase_result *a =
		    phase_named(pa, na, x->phase);
		const struct bench_phase_result *b =
		    phase_named(pb, nb, x->phase);

		if (i >= na && a)
			continue; /* shown with run A's phases */
		out_row(t);
		out_str(t, x->phase);
		num_or_null(t, a ? a->iops : NAN);
		num_or_null(t, b ? b->iops : NAN);
		num_or_null(t, a && b ? ratio(a->iops, b->iops) : NAN);
		num_or_null(t, a ? a->bw_mibps : NAN);
		num_or_null(t, b ? b->bw_mibps : NAN);
		num_or_null(t, a ? a->lat_mean_ms : NAN);
		num_or_null(t, b ? b->lat_mean_ms : NAN);
		num_or_null(t, a ? a->p99_ms : NAN);
		num_or_null(t, b ? b->p99_ms : NAN);
		num_or_null(t, a ? a->cliff_t_s : NAN);
		num_or_null(t, b ? b->cliff_t_s : NAN);
	}
}

static int cmd_bench_compare(struct cli_ctx *ctx, void *args)
{
	struct bench_phase_result *p[2] = { NULL, NULL };
	struct bench_run r[2];
	struct out_doc *doc = NULL;
	struct out_table *t;
	char err[EBS_ERRLEN], title[300];
	size_t n[2] = { 0, 0 };
	long long id[2];
	int rc;

	bench_run_init(&r[0]);
	bench_run_init(&r[1]);
	for (int k = 0; k < 2; k++) {
		if ((rc = bench_find_run(ctx, ctx->operands[k], &id[k])))
			goto out;
		if (db_bench_load_run(ctx->db, id[k], &r[k], err) ||
		    db_bench_load_phases(ctx->db, id[k], &p[k], &n[k], err)) {
			msg_error("%s", err);
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	doc = out_doc_new();
	xsnprintf(title, sizeof(title), "A = run %lld (%s), B = run %lld (%s)",
		  id[0], r[0].label, id[1], r[1].label);
	t = out_record(doc, "runs", title);
	out_kv_int(t, "a", "A", id[0]);
	out_kv_str(t, "a_label", "A label", r[0].label);
	out_kv_int(t, "b", "B", id[1]);
	out_kv_str(t, "b_label", "B label", r[1].label);
	t = out_list(doc, "phases", "Phases");
	out_col(t, "phase", "Phase", OUT_TEXT);
	out_col(t, "iops.a", "IOPS A", OUT_INT);
	out_col(t, "iops.b", "IOPS B", OUT_INT);
	out_col(t, "iops.b_over_a", "B/A", OUT_NUM2);
	out_col(t, "bw_mibps.a", "MiB/s A", OUT_NUM1);
	out_col(t, "bw_mibps.b", "MiB/s B", OUT_NUM1);
	out_col(t, "lat_mean_ms.a", "Mean ms A", OUT_NUM3);
	out_col(t, "lat_mean_ms.b", "Mean ms B", OUT_NUM3);
	out_col(t, "p99_ms.a", "p99 A", OUT_NUM3);
	out_col(t, "p99_ms.b", "p99 B", OUT_NUM3);
	out_col(t, "cliff_t_s.a", "Cliff A", OUT_NUM0);
	out_col(t, "cliff_t_s.b", "Cliff B", OUT_NUM0);
	compare_rows(t, p[0], n[0], p[1], n[1]);
	rc = cli_render(ctx, doc);
out:
	out_doc_free(doc);
	for (int k = 0; k < 2; k++) {
		free(p[k]);
		bench_run_release(&r[k]);
	}
	return rc;
}

const struct cmd bench_show_def = {
	.name = "show",
	.run = cmd_bench_show,
	.flags = CMD_NEEDS_DB,
	.summary = "one run: phases, analysis, model and published comparison",
	.operands = "RUN",
	.max_operands = 1,
	.check = need_runs,
	.tables = "phases, run, analysis, published, notes",
};

const struct cmd bench_list_def = {
	.name = "list",
	.run = cmd_bench_list,
	.flags = CMD_NEEDS_DB,
	.summary = "the stored runs, newest first",
	.tables = "runs",
};

const struct cmd bench_compare_def = {
	.name = "compare",
	.run = cmd_bench_compare,
	.flags = CMD_NEEDS_DB,
	.summary = "two runs phase by phase",
	.operands = "RUN RUN",
	.max_operands = 2,
	.check = need_runs,
	.tables = "phases, runs",
};
