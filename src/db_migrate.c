/*
 * db_migrate.c - bringing a database made by an older ebsize up to the
 * schema this build uses (PRAGMA user_version; sql/schema.sql is the
 * truth for new databases).  Each step runs in one IMMEDIATE transaction
 * with the version bump, so a database is either wholly at the old
 * version or wholly at the new one; a second process waiting for the
 * lock finds the work done and does nothing.
 *
 * The DDL below is each version's schema as it was released: frozen, so
 * that a later schema change does not alter what an old step builds.
 */
#include "db_internal.h"

#include <string.h>

#include "ebsize/embedded.h"
#include "ebsize/util.h"

static int read_version(struct db *db, long long *v, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(db, "PRAGMA user_version", &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else
		rc = db_fail(db, err, "cannot read the schema version");
	sqlite3_finalize(st);
	return rc;
}

static int exec_embedded(struct db *db, const char *name, char *err)
{
	const struct embedded_file *f = embedded_find(name);

	if (!f)
		return ebs_fail(err, EBS_ERR_DB, "embedded %s missing", name);
	return db_exec(db, f->data, err);
}

/* ------------------------------------------------------------ 1 -> 2 */

/*
 * Schema 2 (issue 9): every region (38, priced or not: location and
 * prefix may be NULL), prices with snapshot storage and a per-row
 * vintage, instance limits for every type with EbsOptimizedSupport,
 * MaximumEbsAttachments and NvmeSupport (NULL limits where none is
 * published).
 */
static const char v2_tables[] =
    "CREATE TABLE regions_v2 ("
    " code TEXT PRIMARY KEY,"
    " location TEXT,"
    " usagetype_prefix TEXT,"
    " currency TEXT NOT NULL DEFAULT 'USD',"
    " source TEXT NOT NULL);"
    "CREATE TABLE prices_v2 ("
    " snapshot_id INTEGER NOT NULL REFERENCES price_snapshots(id) ON DELETE CASCADE,"
    " region TEXT NOT NULL,"
    " volume_type TEXT NOT NULL"
    "  CHECK (volume_type IN ('gp2','gp3','io1','io2','st1','sc1','standard','snapshot')),"
    " dimension TEXT NOT NULL"
    "  CHECK (dimension IN ('storage','iops','throughput','io')),"
    " unit TEXT NOT NULL,"
    " currency TEXT NOT NULL DEFAULT 'USD',"
    " price_per_unit REAL NOT NULL CHECK (price_per_unit >= 0),"
    " begin_range REAL NOT NULL DEFAULT 0,"
    " end_range REAL,"
    " sku TEXT,"
    " usagetype TEXT,"
    " source TEXT NOT NULL,"
    " as_of TEXT,"
    " UNIQUE (snapshot_id, region, volume_type, dimension, begin_range, currency));"
    "CREATE TABLE instance_limits_v2 ("
    " instance_type TEXT PRIMARY KEY,"
    " burst INTEGER NOT NULL CHECK (burst IN (0, 1)),"
    " baseline_mbps REAL,"
    " max_mbps REAL,"
    " baseline_mbytes_per_s REAL,"
    " max_mbytes_per_s REAL,"
    " baseline_iops INTEGER,"
    " max_iops INTEGER,"
    " ebs_optimized TEXT NOT NULL DEFAULT 'default'"
    "  CHECK (ebs_optimized IN ('default','supported','unsupported')),"
    " max_ebs_attachments INTEGER,"
    " nvme TEXT CHECK (nvme IN ('required','supported','unsupported')),"
    " source TEXT NOT NULL,"
    " as_of TEXT NOT NULL,"
    " CHECK ((ebs_optimized = 'unsupported') ="
    "  (baseline_mbps IS NULL AND max_mbps IS NULL AND baseline_mbytes_per_s IS NULL"
    "   AND max_mbytes_per_s IS NULL AND baseline_iops IS NULL AND max_iops IS NULL)));";

/*
 * Old rows into the new tables.  Regions and the seeded instance rows are
 * replaced by the new seed (same values, more of them); instance limits a
 * user imported stay, with what the seed adds (attachments, NVMe) where
 * the seed knows the type.
 */
static const char v2_copy[] =
    "INSERT INTO prices_v2 (snapshot_id, region, volume_type, dimension, unit, currency,"
    " price_per_unit, begin_range, end_range, sku, usagetype, source)"
    " SELECT snapshot_id, region, volume_type, dimension, unit, currency,"
    " price_per_unit, begin_range, end_range, sku, usagetype, source FROM prices;"
    "DROP TABLE prices;"
    "ALTER TABLE prices_v2 RENAME TO prices;"
    "CREATE INDEX prices_region ON prices(region, snapshot_id);"
    "DROP TABLE regions;"
    "ALTER TABLE regions_v2 RENAME TO regions;"
    "ALTER TABLE instance_limits RENAME TO instance_limits_v1;"
    "ALTER TABLE instance_limits_v2 RENAME TO instance_limits;";

static const char v2_imported[] =
    "INSERT INTO instance_limits (instance_type, burst, baseline_mbps, max_mbps,"
    " baseline_mbytes_per_s, max_mbytes_per_s, baseline_iops, max_iops, source, as_of)"
    " SELECT instance_type, burst, baseline_mbps, max_mbps, baseline_mbytes_per_s,"
    " max_mbytes_per_s, baseline_iops, max_iops, source, as_of FROM instance_limits_v1"
    " WHERE source NOT LIKE 'ebs-facts.md T11 %'"
    " ON CONFLICT (instance_type) DO UPDATE SET burst = excluded.burst,"
    " baseline_mbps = excluded.baseline_mbps, max_mbps = excluded.max_mbps,"
    " baseline_mbytes_per_s = excluded.baseline_mbytes_per_s,"
    " max_mbytes_per_s = excluded.max_mbytes_per_s,"
    " baseline_iops = excluded.baseline_iops, max_iops = excluded.max_iops,"
    " ebs_optimized = CASE ebs_optimized WHEN 'unsupported' THEN 'supported'"
    "  ELSE ebs_optimized END,"
    " source = excluded.source, as_of = excluded.as_of;"
    "DROP TABLE instance_limits_v1;";

/*
 * The new embedded prices go in as one new snapshot for the regions whose
 * prices in force are embedded ones (or that have none).  A region whose
 * prices a user fetched or imported keeps them in force: its snapshot
 * gets only the embedded rows it lacks, each with its own source and
 * vintage, which is what carrying forward would have given had these
 * rows been there before the fetch or import.
 */
static const char v2_user_regions[] =
    "CREATE TEMP TABLE v2_user AS SELECT i.region, i.sid FROM"
    " (SELECT p.region, max(s.id) AS sid FROM prices p"
    "  JOIN price_snapshots s ON s.id = p.snapshot_id"
    "  WHERE s.complete = 1 GROUP BY p.region) i"
    " JOIN price_snapshots o ON o.id = i.sid WHERE o.source <> 'embedded'";

static const char v2_backfill[] =
    "INSERT INTO prices (snapshot_id, region, volume_type, dimension, unit, currency,"
    " price_per_unit, begin_range, end_range, sku, usagetype, source, as_of)"
    " SELECT u.sid, e.region, e.volume_type, e.dimension, e.unit, e.currency,"
    " e.price_per_unit, e.begin_range, e.end_range, e.sku, e.usagetype, e.source, e.as_of"
    " FROM prices e JOIN temp.v2_user u ON u.region = e.region"
    " WHERE e.snapshot_id = ?1 AND NOT EXISTS (SELECT 1 FROM prices q"
    "  WHERE q.snapshot_id = u.sid AND q.region = e.region"
    "  AND q.volume_type = e.volume_type AND q.dimension = e.dimension"
    "  AND q.begin_range = e.begin_range AND q.currency = e.currency)";

static int exec_with_id(struct db *db, const char *sql, long long id, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(db, sql, &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot upgrade the prices");
	sqlite3_finalize(st);
	return rc;
}

static int v2_prices(struct db *db, char *err)
{
	long long id = 0;
	int rc;

	if ((rc = db_exec(db, v2_user_regions, err)) ||
	    (rc = db_embedded_prices_load(
		 db,
		 "built into ebsize from pricing/snapshot.csv"
		 " (added by the upgrade to schema 2)",
		 &id, err)) ||
	    (rc = exec_with_id(db, v2_backfill, id, err)) ||
	    (rc = exec_with_id(
		 db,
		 "DELETE FROM prices WHERE snapshot_id = ?1"
		 " AND region IN (SELECT region FROM temp.v2_user)",
		 id, err)) ||
	    (rc = db_embedded_prices_complete(db, id, err)))
		return rc;
	return db_exec(db, "DROP TABLE temp.v2_user", err);
}

static int to_v2(struct db *db, char *err)
{
	int rc;

	if ((rc = db_exec(db, v2_tables, err)) ||
	    (rc = db_exec(db, v2_copy, err)) ||
	    (rc = exec_embedded(db, "sql/seed/10_regions.sql", err)) ||
	    (rc = exec_embedded(db, "sql/seed/30_instance_limits.sql", err)) ||
	    (rc = db_exec(db, v2_imported, err)) || (rc = v2_prices(db, err)))
		return rc;
	return db_exec(db, "PRAGMA user_version = 2", err);
}

/* ------------------------------------------------------------ driver */

static const struct {
	int to;
	int (*step)(struct db *, char *);
} steps[] = {
	{ 2, to_v2 },
};

int db_migrate(struct db *db, char *err)
{
	long long v = 0;
	int rc;

	if ((rc = read_version(db, &v, err)))
		return rc;
	if (v >= DB_SCHEMA_VERSION)
		return EBS_OK;
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err))) {
		char why[EBS_ERRLEN];

		xsnprintf(why, sizeof(why), "%s", err);
		return ebs_fail(
		    err, EBS_ERR_DB,
		    "database '%s' has schema version %lld and needs upgrading to %d, which cannot start: %s",
		    db_path(db), v, DB_SCHEMA_VERSION, why);
	}
	/* another process may have upgraded it while we waited */
	rc = read_version(db, &v, err);
	for (size_t i = 0; !rc && i < ARRAY_SIZE(steps); i++)
		if (v < steps[i].to)
			rc = steps[i].step(db, err);
	if (!rc)
		rc = db_exec(db, "COMMIT", err);
	if (rc) {
		char why[EBS_ERRLEN];

		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		xsnprintf(why, sizeof(why), "%s", err);
		return ebs_fail(
		    err, rc,
		    "cannot upgrade database '%s' from schema version %lld to %d; it was left as it was: %s",
		    db_path(db), v, DB_SCHEMA_VERSION, why);
	}
	return EBS_OK;
}
