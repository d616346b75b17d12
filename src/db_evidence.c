/*
 * db_evidence.c - pick the stored benchmark run that best backs a volume
 * configuration, for `cheapest` and `compare`.  Read-only; does not judge
 * the run, only says how close it is.
 */
#include "db_internal.h"

#include <math.h>
#include <string.h>

#include "ebsize/util.h"

static double col_or_nan(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ?
		NAN : sqlite3_column_double(st, col);
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

static double distance(const struct vol_config *cfg, double size,
		       double iops, double mibps)
{
	switch (cfg->type) {
	case VT_GP3:
		return log_gap(iops, (double)cfg->iops) +
			log_gap(mibps, (double)cfg->throughput_mibps) +
			(isnan(iops) ? UNKNOWN : 0) +
			(isnan(mibps) ? UNKNOWN : 0);
	case VT_IO1:
	case VT_IO2:
		return log_gap(iops, (double)cfg->iops) + (isnan(iops) ? UNKNOWN : 0);
	default:
		return log_gap(size, (double)cfg->size_gib) + (isnan(size) ? UNKNOWN : 0);
	}
}

/* Fill the headline phase of run e->run_id. */
static int load_phase(struct db *db, struct bench_evidence *e, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare_kept(db, DB_KEPT_EVIDENCE_PHASE,
			     "SELECT phase, rw, bs, iodepth, iops, iops_before_cliff,"
			     " iops_after_cliff, cliff_t_s, p99_ms, lat_mean_ms"
			     " FROM bench_phases WHERE run_id = ?"
			     " AND (iops IS NOT NULL OR iops_before_cliff IS NOT NULL)"
			     " ORDER BY seq LIMIT 1", &st, err)))
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

int db_bench_evidence(struct db *db, const struct vol_config *cfg,
		      struct bench_evidence *out, int *found, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	*found = 0;
	memset(out, 0, sizeof(*out));
	if ((rc = db_prepare_kept(db, DB_KEPT_EVIDENCE_RUNS,
			     "SELECT r.id, r.label, r.source, coalesce(r.instance_type, ''),"
			     " r.size_gib, r.iops, r.throughput_mibps FROM bench_runs r"
			     " WHERE r.volume_type = ? AND r.status = 'complete'"
			     " AND EXISTS (SELECT 1 FROM bench_phases p WHERE p.run_id = r.id"
			     "  AND (p.iops IS NOT NULL OR p.iops_before_cliff IS NOT NULL))"
			     " ORDER BY r.id", &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, model_type_name(cfg->type), -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		double size = col_or_nan(st, 4), iops = col_or_nan(st, 5);
		double mibps = col_or_nan(st, 6);
		double d = distance(cfg, size, iops, mibps);

		if (*found && d >= out->distance)
			continue;
		*found = 1;
		out->run_id = sqlite3_column_int64(st, 0);
		xsnprintf(out->label, sizeof(out->label), "%s", db_text(st, 1));
		xsnprintf(out->source, sizeof(out->source), "%s", db_text(st, 2));
		xsnprintf(out->instance_type, sizeof(out->instance_type), "%s",
			  db_text(st, 3));
		out->size_gib = size;
		out->prov_iops = iops;
		out->prov_mibps = mibps;
		out->distance = d;
	}
	if (step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read benchmark runs");
	db_unkeep(st);
	if (!rc && *found)
		rc = load_phase(db, out, err);
	return rc;
}
