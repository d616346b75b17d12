/*
 * db_bench.c - reads and writes bench_runs, bench_phases and
 * bench_samples.  Column lists come from tables below, so a field added
 * to struct bench_phase_result is one row here.  Writes are single
 * transactions with bound parameters; a failure rolls back everything.
 * It does not interpret results (bench_analysis.c does).
 */
#include "db_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/bench.h"
#include "ebsize/db_bench.h"
#include "ebsize/util.h"

/* ------------------------------------------------------------ columns */

#define RUN_TEXT(col, field)                               \
	{                                                  \
		col, offsetof(struct bench_run, field),    \
		    sizeof(((struct bench_run *)0)->field) \
	}

static const struct {
	const char *col;
	size_t off, size;
} run_text[] = {
	RUN_TEXT("label", label),
	RUN_TEXT("source", source),
	RUN_TEXT("volume_type", volume_type),
	RUN_TEXT("instance_type", instance_type),
	RUN_TEXT("region", region),
	RUN_TEXT("fio_version", fio_version),
	RUN_TEXT("host", host),
	RUN_TEXT("kernel", kernel),
	RUN_TEXT("target", target),
	RUN_TEXT("device", device),
	RUN_TEXT("filesystem", filesystem),
	RUN_TEXT("ebs_volume_id", ebs_volume_id),
	RUN_TEXT("profile", profile),
	RUN_TEXT("started_at", started_at),
	RUN_TEXT("finished_at", finished_at),
	RUN_TEXT("status", status),
};

#define PH_NUM(col, field)                                      \
	{                                                       \
		col, offsetof(struct bench_phase_result, field) \
	}

/* REAL columns of bench_phases, NAN <-> NULL. */
static const struct {
	const char *col;
	size_t off;
} phase_num[] = {
	PH_NUM("runtime_s", runtime_s),
	PH_NUM("iops", iops),
	PH_NUM("bw_mibps", bw_mibps),
	PH_NUM("lat_mean_ms", lat_mean_ms),
	PH_NUM("lat_total_ms", lat_total_ms),
	PH_NUM("p50_ms", p50_ms),
	PH_NUM("p95_ms", p95_ms),
	PH_NUM("p99_ms", p99_ms),
	PH_NUM("p999_ms", p999_ms),
	PH_NUM("iops_min", iops_min),
	PH_NUM("iops_max", iops_max),
	PH_NUM("cliff_t_s", cliff_t_s),
	PH_NUM("iops_before_cliff", iops_before_cliff),
	PH_NUM("iops_after_cliff", iops_after_cliff),
	PH_NUM("cliff_transition_s", cliff_transition_s),
	PH_NUM("steady_iops", steady_iops),
	PH_NUM("iops_stddev", iops_stddev),
	PH_NUM("first_sample_iops", first_sample_iops),
	PH_NUM("cliff_drop_ratio", cliff_drop_ratio),
	PH_NUM("p95_over_p50", p95_over_p50),
	PH_NUM("little_lat_ms", little_lat_ms),
	PH_NUM("little_ratio", little_ratio),
	PH_NUM("model_cliff_t_s", model_cliff_t_s),
	PH_NUM("model_steady_iops", model_steady_iops),
};

/* Columns of bench_phases after the REAL ones, in this order. */
static const char *const phase_rest[] = {
	"seq",	      "phase",	     "rw",	"bs",
	"iodepth",    "numjobs",     "samples", "lat_bimodal",
	"started_at", "finished_at", "notes",	"raw_output",
};
#define PHASE_NCOLS (ARRAY_SIZE(phase_num) + ARRAY_SIZE(phase_rest))

static void bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static double col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL
		   ? NAN
		   : sqlite3_column_double(st, i);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL
		   ? NULL
		   : xstrdup(db_text(st, i));
}

/* "a, b, c" of the run_text columns. */
static char *run_text_cols(void)
{
	struct sbuf sb = SBUF_INIT(4096);

	for (size_t i = 0; i < ARRAY_SIZE(run_text); i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", run_text[i].col);
	return sbuf_detach(&sb, NULL);
}

/* Every bench_phases column we use, each prefixed ("p." or ""). */
static char *phase_cols(const char *prefix)
{
	struct sbuf sb = SBUF_INIT(4096);

	for (size_t i = 0; i < ARRAY_SIZE(phase_num); i++)
		sbuf_addf(&sb, "%s%s, ", prefix, phase_num[i].col);
	for (size_t i = 0; i < ARRAY_SIZE(phase_rest); i++)
		sbuf_addf(&sb, "%s%s%s", i ? ", " : "", prefix, phase_rest[i]);
	return sbuf_detach(&sb, NULL);
}

static char *placeholders(size_t n)
{
	struct sbuf sb = SBUF_INIT(4096);

	for (size_t i = 0; i < n; i++)
		sbuf_addstr(&sb, i ? ",?" : "?");
	return sbuf_detach(&sb, NULL);
}

void bench_run_init(struct bench_run *r)
{
	memset(r, 0, sizeof(*r));
	r->size_gib = r->throughput_mibps = NAN;
}

void bench_run_release(struct bench_run *r)
{
	if (!r)
		return;
	free(r->profile_text);
	free(r->results_dir);
	free(r->provenance);
	free(r->notes);
	r->profile_text = r->results_dir = r->provenance = r->notes = NULL;
}

/* ------------------------------------------------------------ writes */

/* Bind r's target dev and ino (or NULLs) to parameters i and i + 1. */
static void bind_target_id(sqlite3_stmt *st, int i, const struct bench_run *r)
{
	if (r->has_target_id) {
		sqlite3_bind_int64(st, i, (sqlite3_int64)r->target_dev);
		sqlite3_bind_int64(st, i + 1, (sqlite3_int64)r->target_ino);
	} else {
		sqlite3_bind_null(st, i);
		sqlite3_bind_null(st, i + 1);
	}
}

static int insert_run(struct db *db, struct bench_run *r, char *err)
{
	char *cols = run_text_cols();
	char *ph = placeholders(ARRAY_SIZE(run_text) + 11);
	char *sql = xstrfmt(
	    "INSERT INTO bench_runs(%s, size_gib, iops, throughput_mibps,"
	    " profile_text, results_dir, created_target, destructive,"
	    " provenance, notes, target_dev, target_ino) VALUES (%s)",
	    cols, ph);
	sqlite3_stmt *st = NULL;
	int rc, i = 1;

	if ((rc = db_prepare(db, sql, &st, err)))
		goto out;
	for (size_t k = 0; k < ARRAY_SIZE(run_text); k++)
		bind_str(st, i++, (const char *)r + run_text[k].off);
	bind_num(st, i++, r->size_gib);
	if (r->iops)
		sqlite3_bind_int64(st, i, r->iops);
	i++;
	bind_num(st, i++, r->throughput_mibps);
	bind_str(st, i++, r->profile_text);
	bind_str(st, i++, r->results_dir);
	sqlite3_bind_int(st, i++, r->created_target);
	sqlite3_bind_int(st, i++, r->destructive);
	bind_str(st, i++, r->provenance);
	bind_str(st, i++, r->notes);
	bind_target_id(st, i, r);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot store the run");
	else
		r->id = sqlite3_last_insert_rowid(db->h);
out:
	sqlite3_finalize(st);
	free(cols);
	free(ph);
	free(sql);
	return rc;
}

int db_bench_create_run(struct db *db, struct bench_run *r, char *err)
{
	return insert_run(db, r, err);
}

int db_bench_update_run(struct db *db, const struct bench_run *r, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc =
		 db_prepare(db,
			    "UPDATE bench_runs SET status = ?, finished_at = ?,"
			    " fio_version = coalesce(?, fio_version),"
			    " target_dev = ?, target_ino = ?,"
			    " created_target = ? WHERE id = ?",
			    &st, err)))
		return rc;
	bind_str(st, 1, r->status);
	bind_str(st, 2, r->finished_at);
	bind_str(st, 3, r->fio_version);
	bind_target_id(st, 4, r);
	sqlite3_bind_int(st, 6, r->created_target);
	sqlite3_bind_int64(st, 7, r->id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot update the run");
	sqlite3_finalize(st);
	return rc;
}

int db_bench_set_results_dir(struct db *db, long long id, const char *dir,
			     char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(
		 db, "UPDATE bench_runs SET results_dir = ? WHERE id = ?", &st,
		 err)))
		return rc;
	bind_str(st, 1, dir);
	sqlite3_bind_int64(st, 2, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot update the run");
	sqlite3_finalize(st);
	return rc;
}

static int insert_samples(struct db *db, long long run_id, long seq,
			  const struct bench_sample *s, size_t n, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc =
		 db_prepare(db,
			    "INSERT INTO bench_samples(run_id, seq, t_ms, iops)"
			    " VALUES (?,?,?,?)",
			    &st, err)))
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, seq);
		sqlite3_bind_int64(st, 3, s[i].t_ms);
		sqlite3_bind_double(st, 4, s[i].iops);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, err, "cannot store samples");
	}
	sqlite3_finalize(st);
	return rc;
}

/* Remove phase seq of run_id and its samples (to store it again). */
static int delete_phase(struct db *db, long long run_id, long seq, char *err)
{
	static const char *const sql[] = {
		"DELETE FROM bench_samples WHERE run_id = ? AND seq = ?",
		"DELETE FROM bench_phases WHERE run_id = ? AND seq = ?",
	};
	sqlite3_stmt *st = NULL;
	int rc = EBS_OK;

	for (size_t i = 0; i < ARRAY_SIZE(sql) && !rc; i++) {
		if ((rc = db_prepare(db, sql[i], &st, err)))
			break;
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, seq);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, err, "cannot replace the phase");
		sqlite3_finalize(st);
		st = NULL;
	}
	return rc;
}

/* Insert (or replace) one phase and its samples; caller holds the
 * transaction. */
static int insert_phase(struct db *db, long long run_id,
			const struct bench_phase_result *p,
			const struct bench_sample *s, size_t n, char *err)
{
	char *cols = phase_cols("");
	char *ph = placeholders(PHASE_NCOLS + 1);
	char *sql = xstrfmt("INSERT INTO bench_phases(%s, run_id) VALUES (%s)",
			    cols, ph);
	sqlite3_stmt *st = NULL;
	int rc, i = 1;

	if ((rc = delete_phase(db, run_id, p->seq, err)))
		goto out;
	if ((rc = db_prepare(db, sql, &st, err)))
		goto out;
	for (size_t k = 0; k < ARRAY_SIZE(phase_num); k++)
		bind_num(st, i++,
			 *(const double *)((const char *)p + phase_num[k].off));
	sqlite3_bind_int64(st, i++, p->seq);
	bind_str(st, i++, p->phase);
	bind_str(st, i++, p->rw);
	bind_str(st, i++, p->bs);
	sqlite3_bind_int64(st, i++, p->iodepth);
	sqlite3_bind_int64(st, i++, p->numjobs);
	if (p->samples)
		sqlite3_bind_int64(st, i, p->samples);
	i++;
	if (p->bimodal >= 0)
		sqlite3_bind_int(st, i, p->bimodal);
	i++;
	bind_str(st, i++, p->started_at);
	bind_str(st, i++, p->finished_at);
	bind_str(st, i++, p->notes);
	bind_str(st, i++, p->raw_output);
	sqlite3_bind_int64(st, i++, run_id);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = db_fail(db, err, "cannot store the phase");
		goto out;
	}
	rc = insert_samples(db, run_id, p->seq, s, n, err);
out:
	sqlite3_finalize(st);
	free(cols);
	free(ph);
	free(sql);
	return rc;
}

static int begin(struct db *db, char *err)
{
	return db_exec(db, "BEGIN IMMEDIATE", err);
}

static int end(struct db *db, int rc, char *err)
{
	if (rc == EBS_OK)
		rc = db_exec(db, "COMMIT", err);
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int db_bench_store_phase(struct db *db, long long run_id,
			 const struct bench_phase_result *p,
			 const struct bench_sample *s, size_t n, char *err)
{
	int rc;

	if ((rc = begin(db, err)))
		return rc;
	rc = insert_phase(db, run_id, p, s, n, err);
	return end(db, rc, err);
}

int db_bench_import(struct db *db, struct bench_run *r,
		    const struct bench_phase_result *p,
		    struct bench_sample *const *samples, const size_t *nsamples,
		    size_t nphases, char *err)
{
	int rc;

	if ((rc = begin(db, err)))
		return rc;
	rc = insert_run(db, r, err);
	for (size_t i = 0; i < nphases && !rc; i++)
		rc = insert_phase(db, r->id, &p[i], samples[i], nsamples[i],
				  err);
	rc = end(db, rc, err);
	if (rc)
		r->id = 0;
	return rc;
}

/* ------------------------------------------------------------ reads */

int db_bench_find_run(struct db *db, const char *ref, long long *id, char *err)
{
	sqlite3_stmt *st = NULL;
	uint64_t v;
	int rc, by_id = !parse_u64(ref, &v);

	if ((rc = db_prepare(
		 db,
		 by_id
		     ? "SELECT id FROM bench_runs WHERE id = ?"
		     : "SELECT id FROM bench_runs WHERE label = ? ORDER BY id DESC LIMIT 1",
		 &st, err)))
		return rc;
	if (by_id)
		sqlite3_bind_int64(st, 1, (sqlite3_int64)v);
	else
		sqlite3_bind_text(st, 1, ref, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else
		rc = ebs_fail(err, EBS_ERR_NOT_FOUND, "no benchmark run '%s'",
			      ref);
	sqlite3_finalize(st);
	return rc;
}

static void run_from_row(sqlite3_stmt *st, struct bench_run *r)
{
	size_t k = ARRAY_SIZE(run_text);
	int i;

	bench_run_init(r);
	r->id = sqlite3_column_int64(st, 0);
	for (size_t c = 0; c < k; c++)
		xsnprintf((char *)r + run_text[c].off, run_text[c].size, "%s",
			  db_text(st, (int)c + 1));
	i = (int)k + 1;
	r->size_gib = col_num(st, i++);
	r->iops = (long)sqlite3_column_int64(st, i++);
	r->throughput_mibps = col_num(st, i++);
	r->profile_text = col_dup(st, i++);
	r->results_dir = col_dup(st, i++);
	r->created_target = sqlite3_column_int(st, i++);
	r->destructive = sqlite3_column_int(st, i++);
	r->provenance = col_dup(st, i++);
	r->notes = col_dup(st, i++);
	r->has_target_id = sqlite3_column_type(st, i) != SQLITE_NULL &&
			   sqlite3_column_type(st, i + 1) != SQLITE_NULL;
	r->target_dev = (unsigned long long)sqlite3_column_int64(st, i++);
	r->target_ino = (unsigned long long)sqlite3_column_int64(st, i++);
}

static char *run_select(const char *tail)
{
	char *cols = run_text_cols();
	char *sql = xstrfmt(
	    "SELECT id, %s, size_gib, iops, throughput_mibps,"
	    " profile_text, results_dir, created_target, destructive,"
	    " provenance, notes, target_dev, target_ino,"
	    " (SELECT count(*) FROM bench_phases p WHERE p.run_id = r.id)"
	    " FROM bench_runs r %s",
	    cols, tail);

	free(cols);
	return sql;
}

int db_bench_load_run(struct db *db, long long id, struct bench_run *out,
		      char *err)
{
	char *sql = run_select("WHERE id = ?");
	sqlite3_stmt *st = NULL;
	int rc;

	bench_run_init(out);
	if ((rc = db_prepare(db, sql, &st, err)))
		goto out;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		run_from_row(st, out);
	else
		rc = ebs_fail(err, EBS_ERR_NOT_FOUND, "no benchmark run %lld",
			      id);
out:
	sqlite3_finalize(st);
	free(sql);
	return rc;
}

int db_bench_each_run(struct db *db,
		      int (*fn)(const struct bench_run *, long nphases, void *),
		      void *arg, char *err)
{
	char *sql = run_select("ORDER BY id DESC");
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(db, sql, &st, err)))
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct bench_run r;
		int stop;

		run_from_row(st, &r);
		stop = fn(&r,
			  (long)sqlite3_column_int64(
			      st, (int)ARRAY_SIZE(run_text) + 12),
			  arg);
		bench_run_release(&r);
		if (stop)
			break;
	}
out:
	sqlite3_finalize(st);
	free(sql);
	return rc;
}

static void phase_from_row(sqlite3_stmt *st, struct bench_phase_result *p)
{
	int i = 0;

	bench_phase_result_init(p);
	for (size_t k = 0; k < ARRAY_SIZE(phase_num); k++)
		*(double *)((char *)p + phase_num[k].off) = col_num(st, i++);
	p->seq = (long)sqlite3_column_int64(st, i++);
	xsnprintf(p->phase, sizeof(p->phase), "%s", db_text(st, i++));
	xsnprintf(p->rw, sizeof(p->rw), "%s", db_text(st, i++));
	xsnprintf(p->bs, sizeof(p->bs), "%s", db_text(st, i++));
	p->iodepth = sqlite3_column_type(st, i) == SQLITE_NULL
			 ? 1
			 : (long)sqlite3_column_int64(st, i);
	i++;
	p->numjobs = sqlite3_column_type(st, i) == SQLITE_NULL
			 ? 1
			 : (long)sqlite3_column_int64(st, i);
	i++;
	p->samples = (long)sqlite3_column_int64(st, i++);
	p->bimodal = sqlite3_column_type(st, i) == SQLITE_NULL
			 ? -1
			 : sqlite3_column_int(st, i);
	i++;
	xsnprintf(p->started_at, sizeof(p->started_at), "%s", db_text(st, i++));
	xsnprintf(p->finished_at, sizeof(p->finished_at), "%s",
		  db_text(st, i++));
	xsnprintf(p->notes, sizeof(p->notes), "%s", db_text(st, i++));
	xsnprintf(p->raw_output, sizeof(p->raw_output), "%s", db_text(st, i++));
}

/* SELECT of every phase column (prefixed), extra columns, then tail. */
static char *phase_select(const char *prefix, const char *extra,
			  const char *tail)
{
	char *cols = phase_cols(prefix);
	char *sql = xstrfmt("SELECT %s%s %s", cols, extra, tail);

	free(cols);
	return sql;
}

int db_bench_load_phases(struct db *db, long long id,
			 struct bench_phase_result **out, size_t *n, char *err)
{
	char *sql = phase_select(
	    "", "", "FROM bench_phases WHERE run_id = ? ORDER BY seq");
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = db_prepare(db, sql, &st, err)))
		goto out;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		xgrow((void **)out, &alloc, *n + 1, sizeof(**out));
		phase_from_row(st, &(*out)[(*n)++]);
	}
out:
	sqlite3_finalize(st);
	free(sql);
	return rc;
}

int db_bench_load_samples(struct db *db, long long id, long seq,
			  struct bench_sample **out, size_t *n, char *err)
{
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = db_prepare(db,
			     "SELECT t_ms, iops FROM bench_samples"
			     " WHERE run_id = ? AND seq = ? ORDER BY t_ms",
			     &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, seq);
	while (sqlite3_step(st) == SQLITE_ROW) {
		xgrow((void **)out, &alloc, *n + 1, sizeof(**out));
		(*out)[*n].t_ms = sqlite3_column_int64(st, 0);
		(*out)[(*n)++].iops = sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	return EBS_OK;
}

int db_bench_each_published(
    struct db *db, const char *volume_type, const char *phase,
    int (*fn)(const char *label, const struct bench_phase_result *, void *),
    void *arg, char *err)
{
	char *sql = phase_select(
	    "p.", ", r.label",
	    "FROM bench_phases p JOIN bench_runs r ON r.id = p.run_id"
	    " WHERE r.source = 'published' AND r.volume_type = ?"
	    " AND p.phase = ? ORDER BY r.id");
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(db, sql, &st, err)))
		goto out;
	bind_str(st, 1, volume_type);
	bind_str(st, 2, phase);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct bench_phase_result p;

		phase_from_row(st, &p);
		if (fn(db_text(st, (int)PHASE_NCOLS), &p, arg))
			break;
	}
out:
	sqlite3_finalize(st);
	free(sql);
	return rc;
}

int db_bench_target_created(struct db *db, const char *target,
			    unsigned long long dev, unsigned long long ino,
			    int *yes, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*yes = 0;
	if ((rc = db_prepare(db,
			     "SELECT 1 FROM bench_runs WHERE target = ?"
			     " AND created_target = 1 AND target_dev = ?"
			     " AND target_ino = ? LIMIT 1",
			     &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, target, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)dev);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)ino);
	*yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return EBS_OK;
}
