/*
 * db_instances.c - writes to instance_limits: an import of
 * describe-instance-types output replaces the limits of the types it
 * names, in one transaction.  Reads stay in db.c.
 */
#include "db_internal.h"

#include <math.h>
#include <string.h>

#include "ebsize/db_prices.h"
#include "ebsize/util.h"

/*
 * Finite, non-negative, IOPS small enough to store as an integer (the
 * parser caps them far lower), baseline <= maximum: else a message naming
 * it.
 */
static int check_instance(const struct instance_limits *il, char *err)
{
	const double v[] = { il->baseline_mbps,		il->max_mbps,
			     il->baseline_mbytes_per_s, il->max_mbytes_per_s,
			     il->baseline_iops,		il->max_iops };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (!isfinite(v[i]) || v[i] < 0)
			return ebs_fail(
			    err, EBS_ERR_SANITY,
			    "instance type '%s': a limit is negative or not a number",
			    il->instance_type);
	if (il->baseline_iops > 1e15 || il->max_iops > 1e15)
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "instance type '%s': an IOPS limit is too large",
		    il->instance_type);
	if (il->baseline_mbps > il->max_mbps ||
	    il->baseline_mbytes_per_s > il->max_mbytes_per_s ||
	    il->baseline_iops > il->max_iops)
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "instance type '%s': a baseline is above its maximum",
		    il->instance_type);
	return EBS_OK;
}

static int exists(struct db *db, const char *type)
{
	sqlite3_stmt *st = NULL;
	int found;

	if (db_prepare(db,
		       "SELECT 1 FROM instance_limits WHERE instance_type = ?",
		       &st, NULL))
		return 0;
	sqlite3_bind_text(st, 1, type, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static int upsert(struct db *db, sqlite3_stmt *st,
		  const struct instance_limits *il, char *err)
{
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, il->instance_type, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, il->burst);
	sqlite3_bind_double(st, 3, il->baseline_mbps);
	sqlite3_bind_double(st, 4, il->max_mbps);
	sqlite3_bind_double(st, 5, il->baseline_mbytes_per_s);
	sqlite3_bind_double(st, 6, il->max_mbytes_per_s);
	sqlite3_bind_int64(st, 7, (long long)il->baseline_iops);
	sqlite3_bind_int64(st, 8, (long long)il->max_iops);
	sqlite3_bind_text(st, 9, il->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, il->as_of, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, model_ebs_optimized_name(il->ebs_optimized),
			  -1, SQLITE_STATIC);
	if (il->max_ebs_attachments > 0)
		sqlite3_bind_int64(st, 12, il->max_ebs_attachments);
	else
		sqlite3_bind_null(st, 12);
	if (*il->nvme)
		sqlite3_bind_text(st, 13, il->nvme, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 13);
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(db, err, "cannot store instance limits");
	return EBS_OK;
}

int db_instances_import(struct db *db, const struct instance_limits *v,
			size_t n, struct instance_import_report *rep, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc = EBS_OK;

	memset(rep, 0, sizeof(*rep));
	if (!n)
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "no instance types with EBS-optimized limits in the input");
	for (size_t i = 0; i < n; i++)
		if ((rc = check_instance(&v[i], err)))
			return rc;
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err)))
		return rc;
	/* what the input does not say (attachments, NVMe) is kept */
	rc = db_prepare(
	    db,
	    "INSERT INTO instance_limits (instance_type, burst,"
	    " baseline_mbps, max_mbps, baseline_mbytes_per_s, max_mbytes_per_s,"
	    " baseline_iops, max_iops, source, as_of, ebs_optimized,"
	    " max_ebs_attachments, nvme)"
	    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
	    " ON CONFLICT (instance_type) DO UPDATE SET burst = excluded.burst,"
	    " baseline_mbps = excluded.baseline_mbps, max_mbps = excluded.max_mbps,"
	    " baseline_mbytes_per_s = excluded.baseline_mbytes_per_s,"
	    " max_mbytes_per_s = excluded.max_mbytes_per_s,"
	    " baseline_iops = excluded.baseline_iops, max_iops = excluded.max_iops,"
	    " source = excluded.source, as_of = excluded.as_of,"
	    " ebs_optimized = excluded.ebs_optimized,"
	    " max_ebs_attachments = coalesce(excluded.max_ebs_attachments,"
	    "  instance_limits.max_ebs_attachments),"
	    " nvme = coalesce(excluded.nvme, instance_limits.nvme)",
	    &st, err);
	for (size_t i = 0; i < n && !rc; i++) {
		if (exists(db, v[i].instance_type))
			rep->updated++;
		else
			rep->inserted++;
		rc = upsert(db, st, &v[i], err);
	}
	sqlite3_finalize(st);
	if (!rc)
		rc = db_exec(db, "COMMIT", err);
	if (rc) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		memset(rep, 0, sizeof(*rep));
	}
	return rc;
}
