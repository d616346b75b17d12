/*
 * cmd_bench.c - `ebsize bench run|resume|import|list|show|compare|k8s`:
 * the fio measurement suite.  This file parses options, drives the phases
 * of a run (each stored the moment it ends), and renders runs through the
 * output layer.  fio itself is spawned by bench_run.c, its output parsed
 * by fio_parse.c, analysed by bench_analysis.c and stored by db_bench.c.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ebsize/bench.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

#define PROFILE_FILE_CAP (1u << 20)

static const char usage_text[] =
	"usage: ebsize bench run --target PATH [--profile article|quick|FILE] [--label L]\n"
	"                        [--volume-type T --size GIB [--iops N] [--throughput M]]\n"
	"                        [--instance TYPE] [--region R] [--results DIR] [--destructive]\n"
	"       ebsize bench resume RUN\n"
	"       ebsize bench import DIR|FILE... [--label L] [--volume-type T --size GIB ...]\n"
	"       ebsize bench list\n"
	"       ebsize bench show RUN\n"
	"       ebsize bench compare RUN RUN\n"
	"       ebsize bench k8s --types LIST --size QTY [--instance TYPE] [--profile P]\n"
	"                        [--namespace NS] [--image IMG] [--iops N] [--throughput M]\n\n"
	"Measures a volume with fio the way the published benchmark did and keeps\n"
	"every phase in the database the moment it ends, with its per-second IOPS,\n"
	"latency percentiles and an analysis: credit cliff, latency bimodality,\n"
	"Little's law, and the model's and published runs' expectations.\n\n"
	"  run        run a profile on --target (a file; created, never a device\n"
	"             or a foreign file unless --destructive); prints the plan first\n"
	"  resume     continue an interrupted run with its next phase\n"
	"  import     store fio JSON output and IOPS logs made elsewhere\n"
	"  list       the stored runs, newest first\n"
	"  show       one run: phases, analysis, model and published comparison\n"
	"  compare    two runs phase by phase\n"
	"  k8s        Kubernetes manifests running the same profile on EBS volumes\n\n"
	"  --profile P        article (the published suite, 8 GiB, about 17 min on gp3,\n"
	"                     52 min on gp2), quick (seconds), or a profile file\n"
	"  --results DIR      raw fio outputs (default: bench-results beside the database)\n"
	"  --destructive      allow a block device or an existing file (its data is lost)\n"
	"  RUN                a run id or label\n\n"
	"Exit status: 0 ok, 1 runtime error or refusal, 2 usage error.\n";

/* Set by SIGINT/SIGTERM while a run is measuring. */
static volatile int stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* ------------------------------------------------------------ options */

struct vol_opts {
	const char *label;
	const char *volume_type;
	double size_gib;
	long iops;
	double throughput_mibps;
	const char *instance;
	const char *region;
};

#define VOL_LONGOPTS                                                    \
	{ "label", required_argument, NULL, 'l' },                      \
	{ "volume-type", required_argument, NULL, 'T' },                \
	{ "size", required_argument, NULL, 's' },                       \
	{ "iops", required_argument, NULL, 'i' },                       \
	{ "throughput", required_argument, NULL, 'm' },                 \
	{ "instance", required_argument, NULL, 'I' },                   \
	{ "region", required_argument, NULL, 'r' },                     \
	{ "help", no_argument, NULL, 'h' }

/* Handle an option shared by run and import: 1 taken, 0 not, -1 usage. */
static int vol_opt(int c, struct vol_opts *v)
{
	enum vol_type t;

	switch (c) {
	case 'l':
		if (!*optarg || strlen(optarg) > 120) {
			msg_usage_error("bench", "--label must be 1 to 120 characters");
			return -1;
		}
		v->label = optarg;
		return 1;
	case 'T':
		if (model_type_parse(optarg, &t)) {
			msg_usage_error("bench", "unknown volume type '%s' (use gp2, gp3, io1, io2, st1, sc1 or standard)",
					optarg);
			return -1;
		}
		v->volume_type = model_type_name(t);
		return 1;
	case 's':
		return cmd_parse_double("bench", "--size", optarg, 1, 65536,
					&v->size_gib) ? -1 : 1;
	case 'i':
		return cmd_parse_long("bench", "--iops", optarg, 1, 1000000,
				      &v->iops) ? -1 : 1;
	case 'm':
		return cmd_parse_double("bench", "--throughput", optarg, 1, 100000,
					&v->throughput_mibps) ? -1 : 1;
	case 'I':
		v->instance = optarg;
		return 1;
	case 'r':
		v->region = optarg;
		return 1;
	}
	return 0;
}

/* Copy the volume metadata of v into a run. */
static void vol_to_run(const struct vol_opts *v, struct cli_ctx *ctx,
		       struct bench_run *r)
{
	xsnprintf(r->volume_type, sizeof(r->volume_type), "%s",
		  v->volume_type ? v->volume_type : "");
	r->size_gib = v->size_gib > 0 ? v->size_gib : NAN;
	r->iops = v->iops;
	r->throughput_mibps = v->throughput_mibps > 0 ? v->throughput_mibps : NAN;
	xsnprintf(r->instance_type, sizeof(r->instance_type), "%s",
		  v->instance ? v->instance : "");
	xsnprintf(r->region, sizeof(r->region), "%s", v->region ? v->region :
		  ctx->region_from_opt ? ctx->region : "");
}

/*
 * Load a profile: a built-in name or a file.  *text is heap (the profile
 * text, stored with the run so resume runs the same suite).
 */
static int load_profile(const char *spec, struct bench_profile *pr,
			char **text, char *err)
{
	const char *b = bench_profile_builtin(spec);
	size_t len;
	int rc;

	*text = NULL;
	if (b) {
		*text = xstrdup(b);
		len = strlen(b);
	} else if ((rc = read_file_capped(spec, PROFILE_FILE_CAP, text, &len, err))) {
		if (!strchr(spec, '/') && !strchr(spec, '.'))
			xsnprintf(err, EBS_ERRLEN,
				  "unknown profile '%s' (use article, quick or a profile file)",
				  spec);
		return rc;
	}
	rc = bench_profile_parse(*text, len, spec, pr, err);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* ------------------------------------------------------------ show */

static void kv_num_or_null(struct out_table *t, const char *k, const char *title,
			   enum out_style st, double v)
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

static void kv_str_or_null(struct out_table *t, const char *k, const char *title,
			   const char *s)
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
	kv_num_or_null(t, "iops", "Provisioned IOPS", OUT_INT, r->iops ? (double)r->iops : NAN);
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

static void add_analysis(struct out_doc *doc, const struct bench_phase_result *p,
			 size_t n)
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

static int add_published_row(const char *label, const struct bench_phase_result *p,
			     void *arg)
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
			 const struct bench_phase_result *p, size_t n, char *err)
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
			out_note(doc, "%s: credit cliff at %.0f s, %.0f -> %.0f IOPS over %.0f s%s",
				 p[i].phase, p[i].cliff_t_s, p[i].iops_before_cliff,
				 p[i].iops_after_cliff, p[i].cliff_transition_s,
				 isnan(p[i].model_cliff_t_s) ? "" : " (model: from a full bucket)");
		if (!isnan(p[i].model_cliff_t_s) && p[i].samples)
			out_note(doc, "%s: the model expects the cliff at %.0f s and %.0f IOPS after it (%s %.0f GiB, full bucket)",
				 p[i].phase, p[i].model_cliff_t_s, p[i].model_steady_iops,
				 r->volume_type, r->size_gib);
		if (p[i].bimodal == 1)
			out_note(doc, "%s: latency is bimodal: p95 is %.1fx p50",
				 p[i].phase, p[i].p95_over_p50);
	}
	if (!strcmp(r->status, "running") || !strcmp(r->status, "interrupted") ||
	    !strcmp(r->status, "failed"))
		out_note(doc, "run %lld is %s; 'ebsize bench resume %lld' continues with its next phase",
			 r->id, r->status, r->id);
}

/* Render run id (with phases, analysis, published runs) to stdout. */
static int show_run(struct cli_ctx *ctx, long long id)
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

/* ------------------------------------------------------------ measuring */

struct progress_ctx {
	size_t i, n;
	const char *phase;
	long phase_s;        /* 0: until the file is written */
	long later_s;        /* timed seconds of the phases after this one */
};

static void on_progress(void *arg, double elapsed, double iops)
{
	const struct progress_ctx *c = arg;
	char iops_txt[32] = "-";
	double left = (c->phase_s ? (double)c->phase_s - elapsed : 0) + (double)c->later_s;

	if (!isnan(iops))
		xsnprintf(iops_txt, sizeof(iops_txt), "%.0f", iops);
	msg_progress("phase %zu/%zu %s: %.0f s elapsed, about %.0f s left, %s IOPS",
		     c->i + 1, c->n, c->phase, elapsed, left > 0 ? left : 0, iops_txt);
}

static void print_plan(const struct bench_run *r, const struct bench_profile *pr,
		       size_t from)
{
	long total = 0;

	for (size_t i = from; i < pr->nphases; i++)
		total += bench_phase_runtime(&pr->phase[i], r->volume_type);
	msg_info("run %lld '%s': profile %s, %zu of %zu phases on '%s' (%s file)",
		 r->id, r->label, pr->name, pr->nphases - from, pr->nphases,
		 r->target, pr->size);
	for (size_t i = from; i < pr->nphases; i++) {
		const struct bench_phase_def *d = &pr->phase[i];
		long s = bench_phase_runtime(d, r->volume_type);

		if (s)
			msg_info("  %zu/%zu %-16s rw=%s bs=%s iodepth=%ld  %ld s%s",
				 i + 1, pr->nphases, d->name, d->rw, d->bs, d->iodepth,
				 s, d->iops_log ? ", per-second IOPS log" : "");
		else
			msg_info("  %zu/%zu %-16s rw=%s bs=%s iodepth=%ld  writes %s once",
				 i + 1, pr->nphases, d->name, d->rw, d->bs, d->iodepth,
				 pr->size);
	}
	msg_info("total: %ld s (%.1f min) of timed phases, plus writing the file once",
		 total, (double)total / 60.0);
}

/* Analyse phase p of run r (with the model's expectation) in place. */
static void analyse(const struct bench_run *r, struct bench_phase_result *p,
		    const struct bench_sample *s, size_t n)
{
	bench_analyse_phase(p, s, n);
	if (n && (!strcmp(p->rw, "randread") || !strcmp(p->rw, "randwrite")))
		bench_model_expect(r->volume_type, r->size_gib, r->iops,
				   &p->model_cliff_t_s, &p->model_steady_iops);
}

/*
 * May phase i start?  Not after a stop request, nor when the target is no
 * longer the file that was checked (fio reopens the path in every phase).
 * EBS_ERR_INTERRUPTED with err filled otherwise.
 */
static int before_phase(const struct bench_run *r,
			const struct bench_profile *pr, size_t i, char *err)
{
	if (stop_requested)
		return ebs_fail(err, EBS_ERR_INTERRUPTED,
				"interrupted before phase '%s'", pr->phase[i].name);
	if (r->has_target_id &&
	    bench_verify_target(r->target, r->target_dev, r->target_ino, err))
		return EBS_ERR_INTERRUPTED;
	return EBS_OK;
}

/*
 * Measure phases from..n-1 of run r, storing each as it ends, then mark
 * the run complete.  On failure the run is marked failed or interrupted.
 */
static int measure(struct cli_ctx *ctx, struct bench_run *r,
		   const struct bench_profile *pr, size_t from, const char *fio)
{
	struct sigaction sa = { 0 }, old_int, old_term;
	char err[EBS_ERRLEN];
	int rc = EBS_OK, short_file;

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (size_t i = from; i < pr->nphases && !rc; i++) {
		struct progress_ctx pc = { i, pr->nphases, pr->phase[i].name,
			bench_phase_runtime(&pr->phase[i], r->volume_type), 0 };
		struct bench_phase_result p;
		struct bench_sample *s = NULL;
		size_t ns = 0;

		if ((rc = before_phase(r, pr, i, err)))
			break;
		short_file = r->has_target_id &&
			bench_target_short(r->target, pr->size_bytes);

		for (size_t k = i + 1; k < pr->nphases; k++)
			pc.later_s += bench_phase_runtime(&pr->phase[k], r->volume_type);
		rc = bench_run_phase(fio, pr, i, r->target, r->volume_type,
				     r->results_dir,
				     msg_progress_enabled() ? on_progress : NULL, &pc,
				     &stop_requested, &p, &s, &ns, r->fio_version,
				     sizeof(r->fio_version), err);
		if (msg_progress_enabled())
			msg_progress_done();
		/* fio re-created the short file it laid out: learn the new one */
		if (!rc && short_file &&
		    !(rc = bench_target_relearn(r->target, &r->target_dev,
						&r->target_ino, err)))
			rc = db_bench_update_run(ctx->db, r, err);
		else if (rc == EBS_ERR_ILLEGAL)
			rc = EBS_ERR_INTERRUPTED;
		if (!rc) {
			analyse(r, &p, s, ns);
			rc = db_bench_store_phase(ctx->db, r->id, &p, s, ns, err);
		}
		if (!rc)
			msg_info("phase %zu/%zu %s stored: %.0f IOPS, %.1f MiB/s",
				 i + 1, pr->nphases, p.phase, p.iops, p.bw_mibps);
		free(s);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	xsnprintf(r->status, sizeof(r->status), "%s", !rc ? "complete" :
		  rc == EBS_ERR_INTERRUPTED ? "interrupted" : "failed");
	if (!rc)
		utc_now_iso(r->finished_at);
	if (rc) {
		char err2[EBS_ERRLEN];

		msg_error("%s", err);
		if (db_bench_update_run(ctx->db, r, err2))
			msg_error("%s", err2);
		msg_hint("'ebsize bench resume %lld' continues with the phase that did not finish",
			 r->id);
		return EXIT_RUNTIME;
	}
	if (db_bench_update_run(ctx->db, r, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	return show_run(ctx, r->id);
}

/* The default --results: bench-results beside the database. */
static char *default_results(struct cli_ctx *ctx)
{
	char *d = xstrdup(db_path(ctx->db));
	char *out = xstrfmt("%s/bench-results", dirname(d));

	free(d);
	return out;
}

/* Absolute form of a directory path (created if missing). */
static int absolute_dir(const char *dir, char **out, char *err)
{
	char *probe = xstrfmt("%s/.", dir);
	char real[4096];
	int rc = mkdir_parents(probe, err);

	free(probe);
	*out = NULL;
	if (rc)
		return rc;
	if (!realpath(dir, real))
		return ebs_fail(err, EBS_ERR_IO, "cannot use results directory '%s': %s",
				dir, strerror(errno));
	*out = xstrdup(real);
	return EBS_OK;
}

/*
 * Check target before anything runs.  An existing regular file (not a
 * link) may be reused when a run recorded that ebsize created that very
 * file (same dev and ino).  Prints the refusal; 0 when fio may run.
 */
static int check_target(struct cli_ctx *ctx, const char *target,
			const struct bench_profile *pr, int destructive,
			struct bench_target_info *ti, int *created)
{
	char err[EBS_ERRLEN], hint[EBS_ERRLEN], err2[EBS_ERRLEN];
	int rc = bench_check_target(target, pr->size_bytes, destructive, 0, ti,
				    err, hint);

	*created = 0;
	if (rc == EBS_ERR_ILLEGAL && ti->exists && !ti->is_block &&
	    !ti->is_symlink) {
		if (db_bench_target_created(ctx->db, ti->path, ti->dev, ti->ino,
					    created, err2)) {
			msg_error("%s", err2);
			return -1;
		}
		if (*created)
			rc = bench_check_target(target, pr->size_bytes, destructive,
						1, ti, err, hint);
	}
	if (!rc)
		return 0;
	msg_error("%s", err);
	if (hint[0])
		msg_hint("%s", hint);
	return -1;
}

/*
 * Create the target when it is missing (ebsize's own file from then on)
 * and record its identity in r.  Prints the error; 0 on success.
 */
static int own_target(struct bench_run *r, struct bench_target_info *ti,
		      int created)
{
	char err[EBS_ERRLEN];

	if (!ti->exists) {
		if (bench_create_target(ti, err)) {
			msg_error("%s", err);
			return -1;
		}
		created = 1;
	}
	if (created)
		r->created_target = 1;
	r->has_target_id = 1;
	r->target_dev = ti->dev;
	r->target_ino = ti->ino;
	return 0;
}

/* fio splits --filename on ':', so such a target would be several files. */
static int target_has_colon(const char *target)
{
	return strchr(target, ':') != NULL;
}

struct run_args {
	struct vol_opts v;
	const char *target;
	const char *profile;
	const char *results;
	int destructive;
};

static int parse_run(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		VOL_LONGOPTS,
		{ "target", required_argument, NULL, 't' },
		{ "profile", required_argument, NULL, 'p' },
		{ "results", required_argument, NULL, 'R' },
		{ "destructive", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 }
	};
	int c, took;

	a->profile = "article";
	optind = 0;
	while ((c = cmd_getopt("bench", argc, argv, "h", opts)) != -1) {
		if ((took = vol_opt(c, &a->v)) < 0)
			return EXIT_USAGE;
		if (took)
			continue;
		switch (c) {
		case 't': a->target = optarg; break;
		case 'p': a->profile = optarg; break;
		case 'R': a->results = optarg; break;
		case 'D': a->destructive = 1; break;
		case 'h': fputs(usage_text, stdout); return -1;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return msg_usage_error("bench", "unexpected argument '%s'", argv[optind]);
	if (!a->target)
		return msg_usage_error("bench", "missing --target PATH (the test file fio writes)");
	if (target_has_colon(a->target))
		return msg_usage_error("bench", "--target '%s' contains ':', which fio treats as a separator between several files",
				       a->target);
	if ((a->v.size_gib > 0) != (a->v.volume_type != NULL))
		return msg_usage_error("bench", "--volume-type and --size go together");
	return EXIT_OK;
}

/* Fill a new measured run from the options and what the checks found. */
static void new_run(struct bench_run *r, const struct run_args *a,
		    const struct bench_profile *pr,
		    const struct bench_target_info *ti, struct cli_ctx *ctx,
		    int created)
{
	xsnprintf(r->label, sizeof(r->label), "%s", a->v.label ? a->v.label : pr->name);
	xsnprintf(r->source, sizeof(r->source), "measured");
	xsnprintf(r->status, sizeof(r->status), "running");
	xsnprintf(r->profile, sizeof(r->profile), "%s", pr->name);
	xsnprintf(r->target, sizeof(r->target), "%s", ti->path);
	xsnprintf(r->device, sizeof(r->device), "%s", ti->device);
	xsnprintf(r->filesystem, sizeof(r->filesystem), "%s", ti->filesystem);
	xsnprintf(r->ebs_volume_id, sizeof(r->ebs_volume_id), "%s", ti->ebs_volume_id);
	bench_host_info(r->host, sizeof(r->host), r->kernel, sizeof(r->kernel));
	utc_now_iso(r->started_at);
	vol_to_run(&a->v, ctx, r);
	r->created_target = !ti->exists || created;
	r->destructive = a->destructive;
}

static int bench_run(int argc, char **argv, struct cli_ctx *ctx)
{
	struct run_args a = { 0 };
	struct bench_profile pr;
	struct bench_target_info ti;
	struct bench_run r;
	char err[EBS_ERRLEN], hint[EBS_ERRLEN], fio[4096];
	char *results = NULL, *text = NULL;
	int rc, created = 0, lock = -1;

	bench_run_init(&r);
	if ((rc = parse_run(argc, argv, &a)))
		return rc < 0 ? EXIT_OK : rc;
	if (load_profile(a.profile, &pr, &text, err)) {
		rc = msg_usage_error("bench", "%s", err);
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (cli_open_db(ctx))
		goto out;
	if (bench_find_fio(fio, sizeof(fio), err, hint)) {
		msg_error("%s", err);
		msg_hint("%s", hint);
		goto out;
	}
	if (check_target(ctx, a.target, &pr, a.destructive, &ti, &created))
		goto out;
	if (absolute_dir(a.results ? a.results : (results = default_results(ctx)),
			 &r.results_dir, err)) {
		msg_error("%s", err);
		goto out;
	}
	new_run(&r, &a, &pr, &ti, ctx, created);
	r.profile_text = text;
	text = NULL;
	if (own_target(&r, &ti, created))
		goto out;
	if (db_bench_create_run(ctx->db, &r, err)) {
		msg_error("%s", err);
		goto out;
	}
	/* each run keeps its raw outputs in its own directory */
	{
		char *dir = xstrfmt("%s/run-%lld", r.results_dir, r.id);

		free(r.results_dir);
		r.results_dir = dir;
	}
	if (bench_lock_run(r.results_dir, &lock, err) ||
	    db_bench_set_results_dir(ctx->db, r.id, r.results_dir, err)) {
		msg_error("%s", err);
		goto out;
	}
	print_plan(&r, &pr, 0);
	rc = measure(ctx, &r, &pr, 0, fio);
out:
	if (lock >= 0)
		close(lock);
	free(results);
	free(text);
	bench_run_release(&r);
	return rc;
}

/* Parse "-h" and exactly nargs positional arguments; -1 after help. */
static int simple_args(int argc, char **argv, int nargs, const char *what)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 0;
	while ((c = cmd_getopt("bench", argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return -1;
		}
		return EXIT_USAGE;
	}
	if (argc - optind < nargs)
		return msg_usage_error("bench", "missing %s", what);
	if (argc - optind > nargs)
		return msg_usage_error("bench", "unexpected argument '%s'",
				       argv[optind + nargs]);
	return EXIT_OK;
}

static int find_run(struct cli_ctx *ctx, const char *ref, long long *id)
{
	char err[EBS_ERRLEN];

	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	if (db_bench_find_run(ctx->db, ref, id, err)) {
		msg_error("%s", err);
		msg_hint("see 'ebsize bench list'");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int bench_resume(int argc, char **argv, struct cli_ctx *ctx)
{
	struct bench_profile pr;
	struct bench_target_info ti;
	struct bench_phase_result *done = NULL;
	struct bench_run r;
	char err[EBS_ERRLEN], hint[EBS_ERRLEN], fio[4096];
	size_t ndone = 0, from = 0;
	long long id;
	int rc, lock = -1, created;

	bench_run_init(&r);
	if ((rc = simple_args(argc, argv, 1, "RUN (a run id or label)")))
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = find_run(ctx, argv[optind], &id)))
		return rc;
	rc = EXIT_RUNTIME;
	if (db_bench_load_run(ctx->db, id, &r, err) ||
	    db_bench_load_phases(ctx->db, id, &done, &ndone, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (strcmp(r.source, "measured") || !r.profile_text || !r.results_dir) {
		msg_error("run %lld was not measured by 'ebsize bench run'; only those can be resumed",
			  id);
		goto out;
	}
	if (!strcmp(r.status, "complete")) {
		msg_error("run %lld is already complete", id);
		goto out;
	}
	if (bench_profile_parse(r.profile_text, strlen(r.profile_text), r.profile,
				&pr, err) ||
	    bench_lock_run(r.results_dir, &lock, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (bench_find_fio(fio, sizeof(fio), err, hint)) {
		msg_error("%s", err);
		msg_hint("%s", hint);
		goto out;
	}
	if (target_has_colon(r.target)) {
		msg_error("run %lld's target '%s' contains ':', which fio treats as a separator between several files; it cannot be resumed",
			  id, r.target);
		goto out;
	}
	if (check_target(ctx, r.target, &pr, r.destructive, &ti, &created) ||
	    own_target(&r, &ti, created))
		goto out;
	/* phases are stored in order: continue after the last one */
	for (size_t i = 0; i < ndone; i++)
		if ((size_t)done[i].seq + 1 > from)
			from = (size_t)done[i].seq + 1;
	xsnprintf(r.status, sizeof(r.status), "running");
	if (db_bench_update_run(ctx->db, &r, err)) {
		msg_error("%s", err);
		goto out;
	}
	print_plan(&r, &pr, from);
	rc = measure(ctx, &r, &pr, from, fio);
out:
	if (lock >= 0)
		close(lock);
	free(done);
	bench_run_release(&r);
	return rc;
}

static int bench_show(int argc, char **argv, struct cli_ctx *ctx)
{
	long long id;
	int rc;

	if ((rc = simple_args(argc, argv, 1, "RUN (a run id or label)")))
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = find_run(ctx, argv[optind], &id)))
		return rc;
	return show_run(ctx, id);
}

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

static int bench_list(int argc, char **argv, struct cli_ctx *ctx)
{
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	if ((rc = simple_args(argc, argv, 0, "")))
		return rc < 0 ? EXIT_OK : rc;
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
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

/* ------------------------------------------------------------ compare */

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

static void compare_rows(struct out_table *t, const struct bench_phase_result *pa,
			 size_t na, const struct bench_phase_result *pb, size_t nb)
{
	for (size_t i = 0; i < na + nb; i++) {
		const struct bench_phase_result *x = i < na ? &pa[i] : &pb[i - na];
		const struct bench_phase_result *a = phase_named(pa, na, x->phase);
		const struct bench_phase_result *b = phase_named(pb, nb, x->phase);

		if (i >= na && a)
			continue;           /* shown with run A's phases */
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

static int bench_compare(int argc, char **argv, struct cli_ctx *ctx)
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
	if ((rc = simple_args(argc, argv, 2, "RUN RUN (two run ids or labels)")))
		return rc < 0 ? EXIT_OK : rc;
	for (int k = 0; k < 2; k++) {
		if ((rc = find_run(ctx, argv[optind + k], &id[k])))
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

/* ------------------------------------------------------------ import */

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
static int read_one(const struct bench_import_files *f, size_t i, struct bench_run *r,
		    struct import_set *set, char *err)
{
	struct bench_phase_result *p = NULL;
	struct bench_sample **s = NULL;
	size_t *ns = NULL, np = 0, nl;
	char **logs = xcalloc(f->nlogs + 1, sizeof(*logs));
	char version[32];
	long seq = bench_import_seq(f->json[i]);
	int rc, intr = 0;

	nl = bench_import_logs_for(f, i, logs, err, &rc);
	if (!rc)
		rc = bench_read_outputs(f->json[i], logs, nl, &p, &s, &ns, &np,
					version, sizeof(version), &intr, err);
	free(logs);
	if (rc)
		return rc;
	if (version[0] && !r->fio_version[0])
		xsnprintf(r->fio_version, sizeof(r->fio_version), "%s", version);
	for (size_t k = 0; k < np; k++) {
		long prev = set->n ? set->p[set->n - 1].seq : -1;

		xgrow((void **)&set->p, &set->alloc_p, set->n + 1, sizeof(*set->p));
		xgrow((void **)&set->s, &set->alloc_s, set->n + 1, sizeof(*set->s));
		xgrow((void **)&set->ns, &set->alloc_ns, set->n + 1, sizeof(*set->ns));
		set->p[set->n] = p[k];
		/* "NN-name.json" (ebsize's own outputs) keeps its number */
		set->p[set->n].seq = np == 1 && seq > prev ? seq :
			prev < 0 ? 1 : prev + 1;
		xsnprintf(set->p[set->n].raw_output, sizeof(set->p[set->n].raw_output),
			  "%s", f->json[i]);
		if (intr) {
			char *nt = set->p[set->n].notes;
			char *was = xstrdup(nt);

			xsnprintf(nt, sizeof(set->p[set->n].notes),
				  "fio reported 'terminating on signal': the phase ended early%s%s",
				  was[0] ? "; " : "", was);
			free(was);
		}
		set->s[set->n] = s[k];
		set->ns[set->n] = ns[k];
		analyse(r, &set->p[set->n], s[k], ns[k]);
		set->n++;
	}
	free(p);
	free(s);
	free(ns);
	return EBS_OK;
}

static int parse_import(int argc, char **argv, struct vol_opts *v)
{
	static const struct option opts[] = {
		VOL_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c, took;

	optind = 0;
	while ((c = cmd_getopt("bench", argc, argv, "h", opts)) != -1) {
		if ((took = vol_opt(c, v)) < 0)
			return EXIT_USAGE;
		if (took)
			continue;
		if (c == 'h') {
			fputs(usage_text, stdout);
			return -1;
		}
		return EXIT_USAGE;
	}
	if (optind >= argc)
		return msg_usage_error("bench", "missing DIR or FILE to import");
	if ((v->size_gib > 0) != (v->volume_type != NULL))
		return msg_usage_error("bench", "--volume-type and --size go together");
	return EXIT_OK;
}

static int bench_import(int argc, char **argv, struct cli_ctx *ctx)
{
	struct bench_import_files f = { 0 };
	struct import_set set = { 0 };
	struct vol_opts v = { 0 };
	struct bench_run r;
	char err[EBS_ERRLEN];
	int rc;

	bench_run_init(&r);
	if ((rc = parse_import(argc, argv, &v)))
		return rc < 0 ? EXIT_OK : rc;
	rc = EXIT_RUNTIME;
	if (bench_import_collect(argv + optind, (size_t)(argc - optind), &f, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (!f.njson) {
		msg_error("no fio JSON output (*.json) to import in '%s'", argv[optind]);
		goto out;
	}
	vol_to_run(&v, ctx, &r);
	xsnprintf(r.label, sizeof(r.label), "%s", v.label ? v.label : "imported");
	xsnprintf(r.source, sizeof(r.source), "imported");
	xsnprintf(r.status, sizeof(r.status), "complete");
	utc_now_iso(r.finished_at);
	for (size_t i = 0; i < f.njson; i++)
		if (read_one(&f, i, &r, &set, err)) {
			msg_error("cannot import: %s", err);
			goto out;
		}
	r.notes = xstrfmt("imported from %zu fio output file%s and %zu IOPS log%s",
			  f.njson, f.njson == 1 ? "" : "s", f.nlogs, f.nlogs == 1 ? "" : "s");
	if (cli_open_db(ctx))
		goto out;
	if (db_bench_import(ctx->db, &r, set.p, set.s, set.ns, set.n, err)) {
		msg_error("%s", err);
		goto out;
	}
	msg_info("imported run %lld '%s': %zu phase%s", r.id, r.label, set.n,
		 set.n == 1 ? "" : "s");
	rc = show_run(ctx, r.id);
out:
	set_release(&set);
	bench_import_files_release(&f);
	bench_run_release(&r);
	return rc;
}

/* ------------------------------------------------------------ k8s */

/* A Kubernetes quantity in Gi or Ti ("100Gi"); 0 if well-formed. */
static int quantity_ok(const char *s)
{
	size_t n = strlen(s);
	char num[16];
	long v;

	if (n < 3 || n > 12 || (strcmp(s + n - 2, "Gi") && strcmp(s + n - 2, "Ti")))
		return -1;
	memcpy(num, s, n - 2);
	num[n - 2] = '\0';
	return parse_long_range(num, 1, 65536, &v);
}

static int parse_types(const char *list, struct bench_k8s_opts *o, char *buf,
		       size_t bufn)
{
	enum vol_type vt;
	char *t, *next;

	xsnprintf(buf, bufn, "%s", list);
	for (t = buf; t; t = next) {
		if ((next = strchr(t, ',')))
			*next++ = '\0';
		if (model_type_parse(t, &vt) || vt == VT_STANDARD)
			return msg_usage_error("bench", "unknown volume type '%s' in --types (use gp2, gp3, io1, io2, st1 or sc1)",
					       t);
		if (o->ntypes == ARRAY_SIZE(o->types))
			return msg_usage_error("bench", "at most %zu types in --types",
					       ARRAY_SIZE(o->types));
		for (size_t i = 0; i < o->ntypes; i++)
			if (!strcmp(o->types[i], model_type_name(vt)))
				return msg_usage_error("bench", "volume type '%s' given twice in --types", t);
		o->types[o->ntypes++] = model_type_name(vt);
	}
	if (!o->ntypes)
		return msg_usage_error("bench", "--types needs at least one volume type");
	return EXIT_OK;
}

/* A DNS-1123 label, as Kubernetes names need. */
static int k8s_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

/* An image reference or instance type: nothing YAML or sh would read
 * as syntax. */
static int k8s_word_ok(const char *s)
{
	if (!*s || strlen(s) > 200)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._:/@-", *s)))
			return 0;
	return 1;
}

/* Options of `bench k8s` into o and *profile; -1 after -h. */
static int parse_k8s(int argc, char **argv, struct bench_k8s_opts *o,
		     const char **profile, char *typebuf, size_t typen)
{
	static const struct option opts[] = {
		{ "types", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "instance", required_argument, NULL, 'I' },
		{ "profile", required_argument, NULL, 'p' },
		{ "namespace", required_argument, NULL, 'n' },
		{ "image", required_argument, NULL, 'g' },
		{ "iops", required_argument, NULL, 'i' },
		{ "throughput", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *types = NULL;
	int c;

	optind = 0;
	while ((c = cmd_getopt("bench", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 't': types = optarg; break;
		case 's': o->size = optarg; break;
		case 'I': o->instance = optarg; break;
		case 'p': *profile = optarg; break;
		case 'n': o->namespace_ = optarg; break;
		case 'g': o->image = optarg; break;
		case 'i':
			if (cmd_parse_long("bench", "--iops", optarg, 100, 256000, &o->iops))
				return EXIT_USAGE;
			break;
		case 'm':
			if (cmd_parse_long("bench", "--throughput", optarg, 125, 2000,
					   &o->throughput_mibps))
				return EXIT_USAGE;
			break;
		case 'h': fputs(usage_text, stdout); return -1;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return msg_usage_error("bench", "unexpected argument '%s'", argv[optind]);
	if (!types)
		return msg_usage_error("bench", "missing --types (for example gp2,gp3)");
	if (!o->size)
		return msg_usage_error("bench", "missing --size (a Kubernetes quantity such as 100Gi)");
	if (quantity_ok(o->size))
		return msg_usage_error("bench", "--size must be a quantity in Gi or Ti such as 100Gi, not '%s'",
				       o->size);
	if (!k8s_name_ok(o->namespace_))
		return msg_usage_error("bench", "--namespace must be a DNS label (a-z, 0-9, '-'), not '%s'",
				       o->namespace_);
	if (!k8s_word_ok(o->image))
		return msg_usage_error("bench", "--image must be an image reference (letters, digits, '._:/@-'), not '%s'",
				       o->image);
	if (o->instance && !k8s_word_ok(o->instance))
		return msg_usage_error("bench", "--instance must be an instance type such as m5.xlarge, not '%s'",
				       o->instance);
	return parse_types(types, o, typebuf, typen);
}

static int bench_k8s(int argc, char **argv, struct cli_ctx *ctx)
{
	struct bench_k8s_opts o = { 0 };
	struct bench_profile pr;
	const char *profile = "article";
	char err[EBS_ERRLEN], typebuf[256];
	char *text = NULL, *yaml = NULL;
	FILE *out;
	int rc;

	o.namespace_ = "bench-storage";
	o.image = "alpine:3.20";
	if ((rc = parse_k8s(argc, argv, &o, &profile, typebuf, sizeof(typebuf))))
		return rc < 0 ? EXIT_OK : rc;
	for (size_t i = 0; i < o.ntypes; i++)
		if ((!strcmp(o.types[i], "io1") || !strcmp(o.types[i], "io2")) && !o.iops)
			return msg_usage_error("bench", "--iops is required for %s volumes",
					       o.types[i]);
	if (load_profile(profile, &pr, &text, err))
		return msg_usage_error("bench", "%s", err);
	rc = EXIT_RUNTIME;
	if (bench_k8s_manifests(&pr, &o, &yaml, err)) {
		msg_error("%s", err);
		goto out;
	}
	/* the manifests are a document, not a table: written as they are */
	if (!(out = cli_out(ctx, "bench", "Kubernetes manifests"))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fputs(yaml, out) == EOF) {
		cli_write_error(ctx);
		goto out;
	}
	rc = EXIT_OK;
out:
	free(text);
	free(yaml);
	return rc;
}

/* ------------------------------------------------------------ dispatch */

/* In the order the help lists them. */
static const struct subcmd subcommands[] = {
	{ "run", bench_run },
	{ "resume", bench_resume },
	{ "import", bench_import },
	{ "list", bench_list },
	{ "show", bench_show },
	{ "compare", bench_compare },
	{ "k8s", bench_k8s },
};

int cmd_bench(int argc, char **argv, struct cli_ctx *ctx)
{
	return cmd_dispatch("bench", usage_text, subcommands,
			    ARRAY_SIZE(subcommands), argc, argv, ctx);
}
