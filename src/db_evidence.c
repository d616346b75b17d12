/*
 * db_evidence.c - pick the stored benchmark run that best backs a volume
 * configuration, for `cheapest` and `compare`.  Read-only; does not judge
 * the run, only says how close it is.
 */
#include "db_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

static double col_or_nan(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL
		   ? NAN
		   : sqlite3_column_double(st, col);
}

/* What an unknown figure costs a candidate run: worse than a factor of
 * e^5 (about 150) on a known one. */
#define UNKNOWN 5.0

/* |ln(a/b)|, or 0 when either is unknown or non-positive. */
static double log_gap(double a, double b)
{
	if (!(a > 0) || !(b > 0))
		return 0;
	return fabs(log(a / b));
}

static double distance(const struct vol_config *cfg, double size, double iops,
		       double mibps)
{
	switch (cfg->type) {
	case VT_GP3:
		return log_gap(iops, (double)cfg->iops) +
		       log_gap(mibps, (double)cfg->throughput_mibps) +
		       (isnan(iops) ? UNKNOWN : 0) +
		       (isnan(mibps) ? UNKNOWN : 0);
	case VT_IO1:
	case VT_IO2:
		return log_gap(iops, (double)cfg->iops) +
		       (isnan(iops) ? UNKNOWN : 0);
	default:
		return log_gap(size, (double)cfg->size_gib) +
		       (isnan(size) ? UNKNOWN : 0);
	}
}

/* Fill the headline phase of run e->run_id. */
static int load_phase(struct db *db, struct bench_evidence *e, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare_kept(
		 db, DB_KEPT_EVIDENCE_PHASE,
		 "SELECT phase, rw, bs, iodepth, iops, iops_before_cliff,"
		 " iops_after_cliff, cliff_t_s, p99_ms, lat_mean_ms"
		 " FROM bench_phases WHERE run_id = ?"
		 " AND (iops IS NOT NULL OR iops_before_cliff IS NOT NULL)"
		 " ORDER BY seq LIMIT 1",
		 &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, e->run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		xsnprintf(e->phase, sizeof(e->phase), "%s", db_text(st, 0));
		xsnprintf(e->rw, sizeof(e->rw), "%s", db_text(st, 1));
		xsnprintf(e->bs, sizeof(e->bs), "%s", db_text(st, 2));
		e->iodepth = col_or_nan(st, 3);
		e->iops = col_or_nan(st, 4);
		e->iops_before_cliff = col_or_nan(st, 5);
		e->iops_after_cliff = col_or_nan(st, 6);
		e->cliff_t_s = col_or_nan(st, 7);
		e->p99_ms = col_or_nan(st, 8);
		e->lat_mean_ms = col_or_nan(st, 9);
	}
	db_unkeep(st);
	return EBS_OK;
}

/* Complete runs of a type (?1) with a phase that has an IOPS figure. */
#define RUNS_SQL                                                          \
	"SELECT r.id, r.label, r.source, coalesce(r.instance_type, ''),"  \
	" r.size_gib, r.iops, r.throughput_mibps FROM bench_runs r"       \
	" WHERE r.volume_type = ? AND r.status = 'complete'"              \
	" AND EXISTS (SELECT 1 FROM bench_phases p WHERE p.run_id = r.id" \
	"  AND (p.iops IS NOT NULL OR p.iops_before_cliff IS NOT NULL))"  \
	" ORDER BY r.id"

/* The run's own fields of a RUNS_SQL row into e. */
static void run_from_row(sqlite3_stmt *st, struct bench_evidence *e)
{
	e->run_id = sqlite3_column_int64(st, 0);
	xsnprintf(e->label, sizeof(e->label), "%s", db_text(st, 1));
	xsnprintf(e->source, sizeof(e->source), "%s", db_text(st, 2));
	xsnprintf(e->instance_type, sizeof(e->instance_type), "%s",
		  db_text(st, 3));
	e->size_gib = col_or_nan(st, 4);
	e->prov_iops = col_or_nan(st, 5);
	e->prov_mibps = col_or_nan(st, 6);
}

int db_bench_evidence(struct db *db, const struct vol_config *cfg,
		      struct bench_evidence *out, int *found, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	*found = 0;
	memset(out, 0, sizeof(*out));
	if ((rc = db_prepare_kept(db, DB_KEPT_EVIDENCE_RUNS, RUNS_SQL, &st,
				  err)))
		return rc;
	sqlite3_bind_text(st, 1, model_type_name(cfg->type), -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		double size = col_or_nan(st, 4), iops = col_or_nan(st, 5);
		double mibps = col_or_nan(st, 6);
		double d = distance(cfg, size, iops, mibps);

		if (*found && d >= out->distance)
			continue;
		*found = 1;
		run_from_row(st, out);
		out->distance = d;
	}
	if (step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read benchmark runs");
	db_unkeep(st);
	if (!rc && *found)
		rc = load_phase(db, out, err);
	return rc;
}

/* ------------------------------------------------------------ cache */

/* A run that may back a configuration, with its headline phase. */
struct cached_run {
	struct bench_evidence e; /* distance unset */
	int phase_loaded;
};

struct db_evidence_cache {
	struct db *db;
	struct {
		int loaded, rc;
		char err[EBS_ERRLEN];
		struct cached_run *runs;
		size_t n, alloc;
	} type[VT_COUNT];
};

struct db_evidence_cache *db_evidence_cache_new(struct db *db)
{
	struct db_evidence_cache *c = xcalloc(1, sizeof(*c));

	c->db = db;
	return c;
}

void db_evidence_cache_free(struct db_evidence_cache *c)
{
	if (!c)
		return;
	for (int t = 0; t < VT_COUNT; t++)
		free(c->type[t].runs);
	free(c);
}

/* The runs of type t, in the order db_bench_evidence reads them. */
static int load_runs(struct db_evidence_cache *c, enum vol_type t)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	if ((rc = db_prepare_kept(c->db, DB_KEPT_EVIDENCE_RUNS, RUNS_SQL, &st,
				  c->type[t].err)))
		return rc;
	sqlite3_bind_text(st, 1, model_type_name(t), -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct cached_run *r;

		xgrow((void **)&c->type[t].runs, &c->type[t].alloc,
		      c->type[t].n + 1, sizeof(*c->type[t].runs));
		r = &c->type[t].runs[c->type[t].n++];
		memset(r, 0, sizeof(*r));
		run_from_row(st, &r->e);
	}
	if (step != SQLITE_DONE)
		rc = db_fail(c->db, c->type[t].err,
			     "cannot read benchmark runs");
	db_unkeep(st);
	return rc;
}

int db_bench_evidence_cached(struct db_evidence_cache *c,
			     const struct vol_config *cfg,
			     struct bench_evidence *out, int *found, char *err)
{
	enum vol_type t = cfg->type;
	struct cached_run *best = NULL;
	double best_d = 0;
	int rc;

	*found = 0;
	memset(out, 0, sizeof(*out));
	if ((unsigned)t >= VT_COUNT)
		return EBS_OK;
	if (!c->type[t].loaded) {
		c->type[t].rc = load_runs(c, t);
		c->type[t].loaded = 1;
	}
	if (c->type[t].rc) {
		xsnprintf(err, EBS_ERRLEN, "%s", c->type[t].err);
		return c->type[t].rc;
	}
	for (size_t i = 0; i < c->type[t].n; i++) {
		struct cached_run *r = &c->type[t].runs[i];
		double d = distance(cfg, r->e.size_gib, r->e.prov_iops,
				    r->e.prov_mibps);

		if (best && d >= best_d)
			continue;
		best = r;
		best_d = d;
	}
	if (!best)
		return EBS_OK;
	if (!best->phase_loaded) {
		if ((rc = load_phase(c->db, &best->e, err)))
			return rc;
		best->phase_loaded = 1;
	}
	*found = 1;
	*out = best->e;
	out->distance = best_d;
	return EBS_OK;
}
