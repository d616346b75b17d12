/*
 * cmd_bench_run.c - `ebsize bench run|resume`: check the target, plan, and
 * drive the phases of a profile through fio (bench_run.c), storing each
 * phase the moment it ends; SIGINT/SIGTERM stop the run between phases
 * (fio is told to stop too) and `resume` continues with the phase that
 * did not finish.
 */
#include "cmd_bench.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

/* Set by SIGINT/SIGTERM while a run is measuring. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* ------------------------------------------------------------ measuring */

struct progress_ctx {
	size_t i, n;
	const char *phase;
	long phase_s; /* 0: until the file is written */
	long later_s; /* timed seconds of the phases after this one */
};

static void on_progress(void *arg, double elapsed, double iops)
{
	const struct progress_ctx *c = arg;
	char iops_txt[32] = "-";
	double left = (c->phase_s ? (double)c->phase_s - elapsed : 0) +
		      (double)c->later_s;

	if (!isnan(iops))
		xsnprintf(iops_txt, sizeof(iops_txt), "%.0f", iops);
	msg_progress(
	    "phase %zu/%zu %s: %.0f s elapsed, about %.0f s left, %s IOPS",
	    c->i + 1, c->n, c->phase, elapsed, left > 0 ? left : 0, iops_txt);
}

static void print_plan(const struct bench_run *r,
		       const struct bench_profile *pr, size_t from)
{
	long total = 0;

	for (size_t i = from; i < pr->nphases; i++)
		total += bench_phase_runtime(&pr->phase[i], r->volume_type);
	msg_info(
	    "run %lld '%s': profile %s, %zu of %zu phases on '%s' (%s file)",
	    r->id, r->label, pr->name, pr->nphases - from, pr->nphases,
	    r->target, pr->size);
	for (size_t i = from; i < pr->nphases; i++) {
		const struct bench_phase_def *d = &pr->phase[i];
		long s = bench_phase_runtime(d, r->volume_type);

		if (s)
			msg_info(
			    "  %zu/%zu %-16s rw=%s bs=%s iodepth=%ld  %ld s%s",
			    i + 1, pr->nphases, d->name, d->rw, d->bs,
			    d->iodepth, s,
			    d->iops_log ? ", per-second IOPS log" : "");
		else
			msg_info(
			    "  %zu/%zu %-16s rw=%s bs=%s iodepth=%ld  writes %s once",
			    i + 1, pr->nphases, d->name, d->rw, d->bs,
			    d->iodepth, pr->size);
	}
	msg_info(
	    "total: %ld s (%.1f min) of timed phases, plus writing the file once",
	    total, (double)total / 60.0);
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
				"interrupted before phase '%s'",
				pr->phase[i].name);
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
		struct progress_ctx pc = {
			i, pr->nphases, pr->phase[i].name,
			bench_phase_runtime(&pr->phase[i], r->volume_type), 0
		};
		struct bench_phase_result p;
		struct bench_sample *s = NULL;
		size_t ns = 0;

		if ((rc = before_phase(r, pr, i, err)))
			break;
		short_file = r->has_target_id &&
			     bench_target_short(r->target, pr->size_bytes);

		for (size_t k = i + 1; k < pr->nphases; k++)
			pc.later_s +=
			    bench_phase_runtime(&pr->phase[k], r->volume_type);
		rc = bench_run_phase(
		    fio, pr, i, r->target, r->volume_type, r->results_dir,
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
			bench_analyse(r, &p, s, ns);
			rc = db_bench_store_phase(ctx->db, r->id, &p, s, ns,
						  err);
		}
		if (!rc)
			msg_info(
			    "phase %zu/%zu %s stored: %.0f IOPS, %.1f MiB/s",
			    i + 1, pr->nphases, p.phase, p.iops, p.bw_mibps);
		free(s);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	xsnprintf(r->status, sizeof(r->status), "%s",
		  !rc			      ? "complete"
		  : rc == EBS_ERR_INTERRUPTED ? "interrupted"
					      : "failed");
	if (!rc)
		utc_now_iso(r->finished_at);
	if (rc) {
		char err2[EBS_ERRLEN];

		msg_error("%s", err);
		if (db_bench_update_run(ctx->db, r, err2))
			msg_error("%s", err2);
		msg_hint(
		    "'ebsize bench resume %lld' continues with the phase that did not finish",
		    r->id);
		return EXIT_RUNTIME;
	}
	if ((rc = db_bench_update_run(ctx->db, r, err)))
		return cli_fail(ctx, rc, err);
	return bench_show_run(ctx, r->id);
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
	char *real;
	int rc = mkdir_parents(probe, err);

	free(probe);
	*out = NULL;
	if (rc)
		return rc;
	if (!(real = realpath(dir, NULL)))
		return ebs_fail(err, EBS_ERR_IO,
				"cannot use results directory '%s': %s", dir,
				strerror(errno));
	/* room for "/run-N/NN-phase.json" in the stored paths */
	if (strlen(real) > BENCH_PATH_LEN - 160) {
		rc = ebs_fail(
		    err, EBS_ERR_TOO_BIG,
		    "cannot use results directory '%s': its absolute path is longer than %d bytes",
		    dir, BENCH_PATH_LEN - 160);
		free(real);
		return rc;
	}
	*out = real;
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
			rc = bench_check_target(target, pr->size_bytes,
						destructive, 1, ti, err, hint);
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

/*
 * What run and resume check before anything runs: fio is installed, and
 * target may be used (check_target).  Prints the refusal; 0 when fio may
 * run, with fio's path in fio (4096 bytes).
 */
static int ready_to_measure(struct cli_ctx *ctx, const char *target,
			    const struct bench_profile *pr, int destructive,
			    char *fio, struct bench_target_info *ti,
			    int *created)
{
	char err[EBS_ERRLEN], hint[EBS_ERRLEN];

	if (bench_find_fio(fio, 4096, err, hint)) {
		msg_error("%s", err);
		msg_hint("%s", hint);
		return -1;
	}
	return check_target(ctx, target, pr, destructive, ti, created);
}

/* ------------------------------------------------------------ run */

struct run_args {
	struct vol_opts v;
	const char *target;
	const char *profile;
	const char *results;
	int destructive;
};

static const struct opt run_opts[] = {
	{ "target", 0, OPT_STR, offsetof(struct run_args, target), "PATH",
	  "the test file fio writes (created; never a device\n"
	  "or a foreign file unless --destructive)",
	  .missing = "PATH (the test file fio writes)",
	  .flags = OPT_REQUIRED | OPT_PATH },
	{ "profile", 0, OPT_STR, offsetof(struct run_args, profile), "P",
	  "article (the published suite, 8 GiB, about 17 min on\n"
	  "gp3, 52 min on gp2), quick (seconds), or a profile file",
	  .choices = bench_profile_names, .def = "article", .flags = OPT_PATH },
	BENCH_VOL_OPTS(struct run_args),
	{ "results", 0, OPT_STR, offsetof(struct run_args, results), "DIR",
	  "raw fio outputs (default: bench-results beside the\ndatabase)",
	  .flags = OPT_DIRNAME },
	{ "destructive", 0, OPT_FLAG, offsetof(struct run_args, destructive),
	  NULL,
	  "allow a block device or an existing file (its data\nis lost)" },
	{ NULL }
};

static int run_check(struct cli_ctx *ctx, void *args)
{
	const struct run_args *a = args;

	if (target_has_colon(a->target))
		return msg_usage_error(
		    ctx->cmd_name,
		    "--target '%s' contains ':', which fio treats as a separator between several files",
		    a->target);
	return bench_check_vol(ctx, &a->v);
}

/* Fill a new measured run from the options and what the checks found. */
static void new_run(struct bench_run *r, const struct run_args *a,
		    const struct bench_profile *pr,
		    const struct bench_target_info *ti, struct cli_ctx *ctx,
		    int created)
{
	xsnprintf(r->label, sizeof(r->label), "%s",
		  a->v.label ? a->v.label : pr->name);
	xsnprintf(r->source, sizeof(r->source), "measured");
	xsnprintf(r->status, sizeof(r->status), "running");
	xsnprintf(r->profile, sizeof(r->profile), "%s", pr->name);
	xsnprintf(r->target, sizeof(r->target), "%s", ti->path);
	xsnprintf(r->device, sizeof(r->device), "%s", ti->device);
	xsnprintf(r->filesystem, sizeof(r->filesystem), "%s", ti->filesystem);
	xsnprintf(r->ebs_volume_id, sizeof(r->ebs_volume_id), "%s",
		  ti->ebs_volume_id);
	bench_host_info(r->host, sizeof(r->host), r->kernel, sizeof(r->kernel));
	utc_now_iso(r->started_at);
	bench_vol_to_run(&a->v, ctx, r);
	r->created_target = !ti->exists || created;
	r->destructive = a->destructive;
}

static int cmd_bench_run(struct cli_ctx *ctx, void *args)
{
	const struct run_args *a = args;
	struct bench_profile pr;
	struct bench_target_info ti;
	struct bench_run r;
	char err[EBS_ERRLEN], fio[4096];
	char *results = NULL, *text = NULL;
	int rc, created = 0, lock = -1;

	bench_run_init(&r);
	if (bench_load_profile(a->profile, &pr, &text, err)) {
		rc = msg_usage_error(ctx->cmd_name, "%s", err);
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (ready_to_measure(ctx, a->target, &pr, a->destructive, fio, &ti,
			     &created))
		goto out;
	if (absolute_dir(a->results ? a->results
				    : (results = default_results(ctx)),
			 &r.results_dir, err)) {
		msg_error("%s", err);
		goto out;
	}
	new_run(&r, a, &pr, &ti, ctx, created);
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

/* ------------------------------------------------------------ resume */

static int resume_check(struct cli_ctx *ctx, void *args)
{
	(void)args;
	if (!ctx->noperands)
		return msg_usage_error(ctx->cmd_name,
				       "missing RUN (a run id or label)");
	return EXIT_OK;
}

static int cmd_bench_resume(struct cli_ctx *ctx, void *args)
{
	struct bench_profile pr;
	struct bench_target_info ti;
	struct bench_phase_result *done = NULL;
	struct bench_run r;
	char err[EBS_ERRLEN], fio[4096];
	size_t ndone = 0, from = 0;
	long long id;
	int rc, lock = -1, created;

	(void)args;
	bench_run_init(&r);
	if ((rc = bench_find_run(ctx, ctx->operands[0], &id)))
		return rc;
	rc = EXIT_RUNTIME;
	if (db_bench_load_run(ctx->db, id, &r, err) ||
	    db_bench_load_phases(ctx->db, id, &done, &ndone, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (strcmp(r.source, "measured") || !r.profile_text || !r.results_dir) {
		msg_error(
		    "run %lld was not measured by 'ebsize bench run'; only those can be resumed",
		    id);
		goto out;
	}
	if (!strcmp(r.status, "complete")) {
		msg_error("run %lld is already complete", id);
		goto out;
	}
	if (bench_profile_parse(r.profile_text, strlen(r.profile_text),
				r.profile, &pr, err) ||
	    bench_lock_run(r.results_dir, &lock, err)) {
		msg_error("%s", err);
		goto out;
	}
	if (target_has_colon(r.target)) {
		msg_error(
		    "run %lld's target '%s' contains ':', which fio treats as a separator between several files; it cannot be resumed",
		    id, r.target);
		goto out;
	}
	if (ready_to_measure(ctx, r.target, &pr, r.destructive, fio, &ti,
			     &created) ||
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

const struct cmd bench_run_def = {
	.name = "run",
	.writes = "storing a benchmark run",
	.run = cmd_bench_run,
	.args_size = sizeof(struct run_args),
	.flags = CMD_NEEDS_DB,
	.summary = "run a profile on --target; prints the plan first",
	.description =
	    "Run a profile on --target (a file: created, never a device or a foreign\n"
	    "file unless --destructive), printing the plan first; every phase is\n"
	    "stored the moment it ends.",
	.opts = run_opts,
	.check = run_check,
	.tables = "phases, run, analysis, published, notes",
};

const struct cmd bench_resume_def = {
	.name = "resume",
	.writes = "storing a benchmark run",
	.run = cmd_bench_resume,
	.flags = CMD_NEEDS_DB,
	.summary = "continue an interrupted run with its next phase",
	.operands = "RUN",
	.max_operands = 1,
	.check = resume_check,
	.tables = "phases, run, analysis, published, notes",
};
