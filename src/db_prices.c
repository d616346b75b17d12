/*
 * db_prices.c - price snapshots: storing a fetched or imported price list
 * as one new snapshot (all or nothing, with sanity checks), the history
 * of snapshots and the per-price diff between two of them.
 *
 * "In force" for a region means what db_each_price shows: the newest
 * complete snapshot holding prices for that region.  Reading prices for
 * the model stays in db.c (db_load_prices).
 */
#include "db_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/db_prices.h"
#include "ebsize/util.h"

/* Two prices are the same when they differ by less than this fraction
 * (the decimal text of a price read back from REAL). */
#define PRICE_SAME_REL 1e-12

/* The in-force snapshot of region ?1 (an SQL expression). */
#define INFORCE_OF(region_expr)                                                     \
	"(SELECT max(s.id) FROM price_snapshots s JOIN prices q"                    \
	" ON q.snapshot_id = s.id WHERE s.complete = 1 AND q.region = " region_expr \
	")"

int db_region_table(struct db *db, struct region_table *out, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	memset(out, 0, sizeof(*out));
	if ((rc = db_prepare(
		 db,
		 "SELECT code, coalesce(location, ''),"
		 " coalesce(usagetype_prefix, ''), usagetype_prefix IS NULL"
		 " FROM regions ORDER BY code",
		 &st, err)))
		return rc;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct region_name *r;

		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		r = &out->v[out->n++];
		xsnprintf(r->code, sizeof(r->code), "%s", db_text(st, 0));
		xsnprintf(r->location, sizeof(r->location), "%s",
			  db_text(st, 1));
		xsnprintf(r->prefix, sizeof(r->prefix), "%s", db_text(st, 2));
		r->no_prefix = sqlite3_column_int(st, 3);
	}
	if (step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read regions");
	sqlite3_finalize(st);
	return rc;
}

/* ------------------------------------------------------------ regions */

/* What region r's in-force snapshot prices, into ri. */
static int region_dims(struct db *db, sqlite3_stmt *st, struct region_info *ri,
		       char *err)
{
	int step;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, ri->snapshot_id);
	sqlite3_bind_text(st, 2, ri->code, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = db_text(st, 0), *dim = db_text(st, 1);
		const char *cur = db_text(st, 2), *vintage = db_text(st, 4);
		long long n = sqlite3_column_int64(st, 3);
		enum vol_type t;
		size_t k;
		unsigned bit = !strcmp(dim, "storage") ? PRICE_DIM_STORAGE
			       : !strcmp(dim, "iops")  ? PRICE_DIM_IOPS
			       : !strcmp(dim, "throughput")
				   ? PRICE_DIM_THROUGHPUT
				   : PRICE_DIM_IO;

		if (!*ri->currency)
			xsnprintf(ri->currency, sizeof(ri->currency), "%s",
				  cur);
		if (strcmp(cur, ri->currency)) {
			ri->other_currency += n;
			continue;
		}
		ri->prices += n;
		if (!model_type_parse(type, &t))
			k = (size_t)t;
		else if (!strcmp(type, "snapshot"))
			k = VT_COUNT;
		else
			continue;
		ri->dims[k] |= bit;
		if (k < VT_COUNT && bit == PRICE_DIM_IOPS)
			ri->iops_tiers[k] += (int)n;
		if (!*ri->oldest || strcmp(vintage, ri->oldest) < 0)
			xsnprintf(ri->oldest, sizeof(ri->oldest), "%s",
				  vintage);
		if (strcmp(vintage, ri->newest) > 0)
			xsnprintf(ri->newest, sizeof(ri->newest), "%s",
				  vintage);
	}
	if (step != SQLITE_DONE)
		return db_fail(db, err, "cannot read prices");
	return EBS_OK;
}

int db_each_region(struct db *db, int (*fn)(const struct region_info *, void *),
		   void *arg, char *err)
{
	sqlite3_stmt *st = NULL, *dims = NULL;
	int rc, step = SQLITE_DONE;

	rc = db_prepare(
	    db,
	    "WITH inforce AS (SELECT p.region, max(s.id) AS sid"
	    "  FROM prices p JOIN price_snapshots s ON s.id = p.snapshot_id"
	    "  WHERE s.complete = 1 GROUP BY p.region),"
	    " codes AS (SELECT code FROM regions UNION SELECT region FROM inforce)"
	    " SELECT c.code, r.code IS NOT NULL, coalesce(r.location, ''),"
	    " r.usagetype_prefix IS NOT NULL, coalesce(r.usagetype_prefix, ''),"
	    " coalesce(r.currency, ''), coalesce(i.sid, 0), coalesce(s.source, ''),"
	    " coalesce(s.as_of, '')"
	    " FROM codes c LEFT JOIN regions r ON r.code = c.code"
	    " LEFT JOIN inforce i ON i.region = c.code"
	    " LEFT JOIN price_snapshots s ON s.id = i.sid ORDER BY c.code",
	    &st, err);
	if (rc)
		return rc;
	/* the region's currency first, so that an unknown region takes the
	 * one its first rows use */
	rc = db_prepare(
	    db,
	    "SELECT p.volume_type, p.dimension, p.currency, count(*),"
	    " coalesce(p.as_of, s.as_of)"
	    " FROM prices p JOIN price_snapshots s ON s.id = p.snapshot_id"
	    " WHERE p.snapshot_id = ?1 AND p.region = ?2"
	    " GROUP BY p.volume_type, p.dimension, p.currency, coalesce(p.as_of, s.as_of)"
	    " ORDER BY p.currency <> 'USD', p.currency",
	    &dims, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct region_info ri;

		memset(&ri, 0, sizeof(ri));
		xsnprintf(ri.code, sizeof(ri.code), "%s", db_text(st, 0));
		ri.known = sqlite3_column_int(st, 1);
		xsnprintf(ri.location, sizeof(ri.location), "%s",
			  db_text(st, 2));
		ri.prefix_known = sqlite3_column_int(st, 3);
		xsnprintf(ri.prefix, sizeof(ri.prefix), "%s", db_text(st, 4));
		xsnprintf(ri.currency, sizeof(ri.currency), "%s",
			  db_text(st, 5));
		ri.snapshot_id = sqlite3_column_int64(st, 6);
		xsnprintf(ri.source, sizeof(ri.source), "%s", db_text(st, 7));
		xsnprintf(ri.as_of, sizeof(ri.as_of), "%s", db_text(st, 8));
		if (ri.snapshot_id && (rc = region_dims(db, dims, &ri, err)))
			break;
		if (fn(&ri, arg))
			break;
	}
	if (!rc && step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read regions");
	sqlite3_finalize(dims);
	sqlite3_finalize(st);
	return rc;
}

/* ------------------------------------------------------------ commit */

static int has_storage(const struct price_list *pl, const char *region,
		       const char *type)
{
	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->items[i].region, region) &&
		    !strcmp(pl->items[i].volume_type, type) &&
		    !strcmp(pl->items[i].dimension, "storage"))
			return 1;
	return 0;
}

static int check_region(const struct price_list *pl, const char *region,
			char *err)
{
	if (!has_storage(pl, region, "gp2") || !has_storage(pl, region, "gp3"))
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "no gp2 and gp3 storage prices for region '%s' in the new data",
		    region);
	return EBS_OK;
}

/* Sanity checks that need no database: sizes, signs, coverage. */
static int check_list(const struct price_list *pl,
		      const struct price_commit_opts *o, char *err)
{
	int rc;

	if (!pl->n)
		return ebs_fail(err, EBS_ERR_SANITY,
				"no EBS volume prices in the new data");
	for (size_t i = 0; i < pl->n; i++) {
		const struct price_item *it = &pl->items[i];

		if (!isfinite(it->price_per_unit) || it->price_per_unit <= 0)
			return ebs_fail(
			    err, EBS_ERR_SANITY,
			    "price of %s %s in '%s' is not a positive number (%g)",
			    it->volume_type, it->dimension, it->region,
			    it->price_per_unit);
		if (o->require_all && (rc = check_region(pl, it->region, err)))
			return rc;
	}
	for (size_t i = 0; i < o->nrequire; i++)
		if ((rc = check_region(pl, o->require[i], err)))
			return rc;
	return EBS_OK;
}

/*
 * Compare every new price with the one in force for the same key; more
 * than 3x either way fails unless accept_changes.  Counts changes.
 */
static int check_moves(struct db *db, const struct price_list *pl,
		       const struct price_commit_opts *o,
		       struct price_commit_report *rep, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	size_t same = 0;

	if ((rc = db_prepare(
		 db,
		 "SELECT p.price_per_unit, p.snapshot_id,"
		 " coalesce(p.end_range, -1),"
		 " (SELECT as_of FROM price_snapshots WHERE id = p.snapshot_id)"
		 " FROM prices p"
		 " WHERE p.snapshot_id = " INFORCE_OF(
		     "?1") " AND p.region = ?1 AND p.volume_type = ?2 AND p.dimension = ?3"
			   " AND p.begin_range = ?4 AND p.currency = ?5",
		 &st, err)))
		return rc;
	for (size_t i = 0; i < pl->n && !rc; i++) {
		const struct price_item *it = &pl->items[i];
		double old, ratio, end;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, it->region, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, it->volume_type, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, it->dimension, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 4, it->begin_range);
		sqlite3_bind_text(st, 5, it->currency, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW)
			continue;
		old = sqlite3_column_double(st, 0);
		end = sqlite3_column_double(st, 2);
		if (sqlite3_column_int64(st, 1) > rep->inforce_id)
			rep->inforce_id = sqlite3_column_int64(st, 1);
		if (fabs(old - it->price_per_unit) > PRICE_SAME_REL * old)
			rep->changed++;
		else if ((end == it->end_range ||
			  (end < 0 && it->end_range < 0)) &&
			 strcmp(o->as_of, db_text(st, 3)) <= 0)
			same++; /* the same price, and no newer date for it */
		ratio = old > 0 ? it->price_per_unit / old : 1;
		if (!o->accept_changes && (ratio > 3 || ratio < 1.0 / 3))
			rc = ebs_fail(
			    err, EBS_ERR_SANITY,
			    "price of %s %s in '%s' moved from %g to %g %s (x%.2f) against snapshot %lld, more than 3x; pass --accept-changes if this is right",
			    it->volume_type, it->dimension, it->region, old,
			    it->price_per_unit, it->currency, ratio,
			    (long long)sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	/* every new price is already in force, unchanged: nothing to record */
	rep->identical = !rc && same == pl->n;
	return rc;
}

static int insert_snapshot(struct db *db, const struct price_commit_opts *o,
			   long long *id, char *err)
{
	sqlite3_stmt *st = NULL;
	char now[32];
	int rc;

	utc_now_iso(now);
	if ((rc = db_prepare(
		 db,
		 "INSERT INTO price_snapshots(source, fetched_at, as_of, complete, notes)"
		 " VALUES (?, ?, ?, 0, ?)",
		 &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, o->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, o->as_of, -1, SQLITE_STATIC);
	if (o->notes)
		sqlite3_bind_text(st, 4, o->notes, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot add a price snapshot");
	*id = sqlite3_last_insert_rowid(db->h);
	sqlite3_finalize(st);
	return rc;
}

static int insert_items(struct db *db, const struct price_list *pl,
			long long id, const char *source, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(
		 db,
		 "INSERT INTO prices(snapshot_id, region, volume_type, dimension, unit, currency,"
		 " price_per_unit, begin_range, end_range, sku, usagetype, source)"
		 " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
		 &st, err)))
		return rc;
	for (size_t i = 0; i < pl->n && !rc; i++) {
		const struct price_item *it = &pl->items[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, it->region, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, it->volume_type, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, it->dimension, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, it->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, it->currency, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 7, it->price_per_unit);
		sqlite3_bind_double(st, 8, it->begin_range);
		if (it->end_range >= 0)
			sqlite3_bind_double(st, 9, it->end_range);
		else
			sqlite3_bind_null(st, 9);
		sqlite3_bind_text(st, 10, it->sku, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 11, it->usagetype, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 12, source, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_fail(db, err, "cannot store prices");
	}
	sqlite3_finalize(st);
	return rc;
}

/* Copy the in-force rows the new snapshot lacks, for its own regions;
 * each keeps its own source and vintage. */
static int carry_forward(struct db *db, long long id, size_t *carried,
			 char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(
		 db,
		 "INSERT INTO prices(snapshot_id, region, volume_type, dimension, unit, currency,"
		 " price_per_unit, begin_range, end_range, sku, usagetype, source, as_of)"
		 " SELECT ?1, p.region, p.volume_type, p.dimension, p.unit, p.currency,"
		 " p.price_per_unit, p.begin_range, p.end_range, p.sku, p.usagetype, p.source,"
		 " coalesce(p.as_of, (SELECT as_of FROM price_snapshots WHERE id = p.snapshot_id))"
		 " FROM prices p WHERE p.snapshot_id = " INFORCE_OF(
		     "p.region") " AND p.region IN (SELECT region FROM prices WHERE snapshot_id = ?1)"
				 " AND NOT EXISTS (SELECT 1 FROM prices n WHERE n.snapshot_id = ?1"
				 " AND n.region = p.region AND n.volume_type = p.volume_type"
				 " AND n.dimension = p.dimension AND n.begin_range = p.begin_range"
				 " AND n.currency = p.currency)",
		 &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot carry prices forward");
	*carried = (size_t)sqlite3_changes(db->h);
	sqlite3_finalize(st);
	return rc;
}

static int finish_snapshot(struct db *db, long long id,
			   struct price_commit_report *rep, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(
		 db, "UPDATE price_snapshots SET complete = 1 WHERE id = ?1",
		 &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot complete the price snapshot");
	sqlite3_finalize(st);
	if (rc ||
	    (rc = db_prepare(
		 db,
		 "SELECT count(DISTINCT region) FROM prices WHERE snapshot_id = ?1",
		 &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		rep->regions = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return EBS_OK;
}

/* One snapshot inside the caller's transaction; rep filled on success. */
static int commit_one(struct db *db, const struct price_list *pl,
		      const struct price_commit_opts *o,
		      struct price_commit_report *rep, char *err)
{
	long long id = 0;
	int rc;

	memset(rep, 0, sizeof(*rep));
	if ((rc = check_moves(db, pl, o, rep, err)))
		return rc;
	if (rep->identical)
		return EBS_OK; /* nothing new: no snapshot (snapshot_id 0) */
	if ((rc = insert_snapshot(db, o, &id, err)) ||
	    (rc = insert_items(db, pl, id, o->source, err)) ||
	    (rc = carry_forward(db, id, &rep->carried, err)) ||
	    (rc = finish_snapshot(db, id, rep, err)))
		return rc;
	rep->snapshot_id = id;
	rep->inserted = pl->n;
	return EBS_OK;
}

int db_prices_commit_many(struct db *db, const struct price_list *const *pls,
			  const struct price_commit_opts *opts, size_t n,
			  struct price_commit_report *reps, char *err)
{
	int rc = EBS_OK;

	for (size_t i = 0; i < n; i++)
		if ((rc = check_list(pls[i], &opts[i], err)))
			return rc;
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err)))
		return rc;
	for (size_t i = 0; i < n && !rc; i++)
		rc = commit_one(db, pls[i], &opts[i], &reps[i], err);
	if (!rc)
		rc = db_exec(db, "COMMIT", err);
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		memset(reps, 0, n * sizeof(*reps));
	}
	return rc;
}

int db_prices_commit(struct db *db, const struct price_list *pl,
		     const struct price_commit_opts *o,
		     struct price_commit_report *rep, char *err)
{
	return db_prices_commit_many(db, &pl, o, 1, rep, err);
}

/* ------------------------------------------------------------ history */

int db_each_snapshot(struct db *db, const char *region,
		     int (*fn)(const struct snapshot_info *, void *), void *arg,
		     char *err)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	rc = db_prepare(
	    db,
	    "WITH inforce AS (SELECT p.region, max(s.id) AS sid"
	    "  FROM prices p JOIN price_snapshots s ON s.id = p.snapshot_id"
	    "  WHERE s.complete = 1 GROUP BY p.region)"
	    " SELECT s.id, s.source, s.fetched_at, s.as_of, s.complete,"
	    " (SELECT count(*) FROM prices p WHERE p.snapshot_id = s.id"
	    "   AND (?1 IS NULL OR p.region = ?1)),"
	    " (SELECT count(DISTINCT region) FROM prices p WHERE p.snapshot_id = s.id"
	    "   AND (?1 IS NULL OR p.region = ?1)),"
	    " (SELECT count(*) FROM inforce i WHERE i.sid = s.id"
	    "   AND (?1 IS NULL OR i.region = ?1))"
	    " FROM price_snapshots s WHERE ?1 IS NULL OR EXISTS"
	    " (SELECT 1 FROM prices p WHERE p.snapshot_id = s.id AND p.region = ?1)"
	    " ORDER BY s.id DESC",
	    &st, err);
	if (rc)
		return rc;
	if (region)
		sqlite3_bind_text(st, 1, region, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct snapshot_info si;

		memset(&si, 0, sizeof(si));
		si.id = sqlite3_column_int64(st, 0);
		xsnprintf(si.source, sizeof(si.source), "%s", db_text(st, 1));
		xsnprintf(si.fetched_at, sizeof(si.fetched_at), "%s",
			  db_text(st, 2));
		xsnprintf(si.as_of, sizeof(si.as_of), "%s", db_text(st, 3));
		si.complete = sqlite3_column_int(st, 4);
		si.prices = sqlite3_column_int64(st, 5);
		si.regions = sqlite3_column_int64(st, 6);
		si.in_force_regions = sqlite3_column_int64(st, 7);
		if (fn(&si, arg))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read price snapshots");
	sqlite3_finalize(st);
	return rc;
}

int db_two_newest_snapshots(struct db *db, const char *region, long long *older,
			    long long *newer, char *err)
{
	sqlite3_stmt *st = NULL;
	long long ids[2];
	int rc, n = 0;

	if ((rc = db_prepare(
		 db,
		 "SELECT s.id FROM price_snapshots s WHERE s.complete = 1"
		 " AND (?1 IS NULL OR EXISTS (SELECT 1 FROM prices p"
		 " WHERE p.snapshot_id = s.id AND p.region = ?1))"
		 " ORDER BY s.id DESC LIMIT 2",
		 &st, err)))
		return rc;
	if (region)
		sqlite3_bind_text(st, 1, region, -1, SQLITE_TRANSIENT);
	while (n < 2 && sqlite3_step(st) == SQLITE_ROW)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n < 2)
		return ebs_fail(err, EBS_ERR_NOT_FOUND,
				"fewer than two price snapshots%s%s to compare",
				region ? " for region " : "",
				region ? region : "");
	*newer = ids[0];
	*older = ids[1];
	return EBS_OK;
}

int db_snapshot_exists(struct db *db, long long id)
{
	sqlite3_stmt *st = NULL;
	int found;

	if (db_prepare(db, "SELECT 1 FROM price_snapshots WHERE id = ?", &st,
		       NULL))
		return 0;
	sqlite3_bind_int64(st, 1, id);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* ------------------------------------------------------------ diff */

int db_diff_snapshots(struct db *db, long long a, long long b,
		      const char *region,
		      int (*fn)(const struct price_change *, void *), void *arg,
		      char *err)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	/* keys of both sides over the regions both hold; a side missing a
	 * key shows as NULL */
	rc = db_prepare(
	    db,
	    "WITH common AS (SELECT region FROM prices WHERE snapshot_id = ?1"
	    "  INTERSECT SELECT region FROM prices WHERE snapshot_id = ?2),"
	    " k AS (SELECT region, volume_type, dimension, begin_range, currency"
	    "  FROM prices WHERE snapshot_id IN (?1, ?2)"
	    "  AND region IN (SELECT region FROM common)"
	    "  AND (?3 IS NULL OR region = ?3)"
	    "  GROUP BY region, volume_type, dimension, begin_range, currency)"
	    " SELECT k.region, k.volume_type, k.dimension, k.begin_range, k.currency,"
	    " a.price_per_unit, b.price_per_unit FROM k"
	    " LEFT JOIN prices a ON a.snapshot_id = ?1 AND a.region = k.region"
	    "  AND a.volume_type = k.volume_type AND a.dimension = k.dimension"
	    "  AND a.begin_range = k.begin_range AND a.currency = k.currency"
	    " LEFT JOIN prices b ON b.snapshot_id = ?2 AND b.region = k.region"
	    "  AND b.volume_type = k.volume_type AND b.dimension = k.dimension"
	    "  AND b.begin_range = k.begin_range AND b.currency = k.currency"
	    " WHERE a.price_per_unit IS NOT b.price_per_unit"
	    " ORDER BY k.region, k.volume_type, k.dimension, k.begin_range, k.currency",
	    &st, err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	if (region)
		sqlite3_bind_text(st, 3, region, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct price_change pc = {
			.region = db_text(st, 0),
			.volume_type = db_text(st, 1),
			.dimension = db_text(st, 2),
			.begin_range = sqlite3_column_double(st, 3),
			.currency = db_text(st, 4),
			.has_old = sqlite3_column_type(st, 5) != SQLITE_NULL,
			.has_new = sqlite3_column_type(st, 6) != SQLITE_NULL,
			.old_price = sqlite3_column_double(st, 5),
			.new_price = sqlite3_column_double(st, 6),
		};

		if (fn(&pc, arg))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot compare price snapshots");
	sqlite3_finalize(st);
	return rc;
}
