/*
 * db.h - the ebsize database: where it lives, creating and seeding it from
 * the embedded data on first use, and the queries the model needs.  The
 * SQLite handle never leaves the db*.c modules.
 *
 * Every function that can fail returns an enum ebs_err and writes a message
 * naming the database file into err (EBS_ERRLEN bytes).
 */
#ifndef EBSIZE_DB_H
#define EBSIZE_DB_H

#include <stddef.h>

#include "ebsize/model.h"

#define DB_SCHEMA_VERSION 2

struct db;

/*
 * Resolve the database path: opt (--db), else $EBSIZE_DB, else
 * $XDG_DATA_HOME/ebsize/ebsize.db, else ~/.local/share/ebsize/ebsize.db.
 * *out is a heap string the caller frees; *is_default is 1 for the XDG
 * fallbacks (whose directories ebsize may create).
 */
int db_resolve_path(const char *opt, char **out, int *is_default, char *err);

/*
 * Open the database at path, creating and seeding it when it is new or
 * empty (one transaction: all or nothing).  A file that is not SQLite, is
 * corrupt, or comes from a newer schema is an error and stays untouched.
 * create_dirs: create missing parent directories first.
 */
int db_open(const char *path, int create_dirs, struct db **out, char *err);
/*
 * db_open for a command.  writing says what a command that writes stores
 * ("storing prices"): a database it cannot write (a read-only file,
 * directory or mount) is an error saying so, and write failures later name
 * it ("cannot write the database 'PATH' (storing prices): ...").  NULL for
 * a command that only reads: such a database is opened read-only --
 * immutable (no -shm, no lock) when its directory cannot be written --
 * and must already be an ebsize database of the current schema.
 */
int db_open_as(const char *path, int create_dirs, const char *writing,
	       struct db **out, char *err);
/* 1 when db was opened read-only (db_open_as for a reading command). */
int db_readonly(const struct db *db);
void db_close(struct db *db);

/*
 * Read what follows from one snapshot of the database, until db_read_end
 * (or db_close): one read transaction, not one per statement -- fewer
 * locks and checks of the WAL index (issue 14: a short command's system
 * time), and every answer of a batch sees the same data.  Only for
 * commands that do not write.
 */
int db_read_begin(struct db *db, char *err);
void db_read_end(struct db *db);
const char *db_path(const struct db *db);

/*
 * Load the prices in force for region into out: those of the newest
 * complete snapshot holding prices for that region, or, when as_of is not
 * NULL, the newest whose as_of date is on or before it; only rows in the
 * region's currency (regions.currency; out->currency says which), never a
 * mix.  EBS_ERR_NOT_FOUND ("no prices for region 'R'") when there are none.
 */
int db_load_prices(struct db *db, const char *region, const char *as_of,
		   struct price_set *out, char *err);

/* The currency region's prices are quoted in: 1 with cur set (n bytes),
 * 0 when the regions table does not know region. */
int db_region_currency(struct db *db, const char *region, char *cur, size_t n);

/* The volume_limits row in force for type at as_of (NULL: today). */
int db_load_limits(struct db *db, enum vol_type type, const char *as_of,
		   struct volume_limits *out, char *err);

/* Limits of one instance type; EBS_ERR_NOT_FOUND if unknown. */
int db_load_instance(struct db *db, const char *instance_type,
		     struct instance_limits *out, char *err);

/* Does the regions table know this code? 1 yes, 0 no. */
int db_region_known(struct db *db, const char *region);

/* One price row as stored. */
struct price_row {
	long long snapshot_id;
	const char *region;
	const char *volume_type;
	const char *dimension;
	const char *unit;
	const char *currency;
	double price_per_unit;
	double begin_range;
	double end_range; /* < 0: unbounded */
	const char *usagetype;
	const char *source;
	const char *as_of;
};

/*
 * Call fn for each price in force (one snapshot per region, as
 * db_load_prices chooses; as_of not NULL: in force on that date),
 * filtered by region and type when not NULL, in region, type, dimension,
 * range order.  fn returning non-zero stops.
 */
int db_each_price(struct db *db, const char *region, const char *type,
		  const char *as_of,
		  int (*fn)(const struct price_row *, void *), void *arg,
		  char *err);

/* The as_of date of the earliest complete snapshot with USD prices for
 * region (NULL: any region) into out; "" when there is none. */
void db_earliest_prices(struct db *db, const char *region, char *out, size_t n);

/*
 * Call fn for each instance whose type equals name, or starts with
 * "family." when family is set (both NULL: all), in natural size order.
 */
int db_each_instance(struct db *db, const char *name, const char *family,
		     int (*fn)(const struct instance_limits *, void *),
		     void *arg, char *err);

/*
 * Stored benchmark evidence for a volume configuration: the run of the
 * same type whose provisioned performance (gp3/io1/io2) or size
 * (gp2/st1/sc1) is closest, with its headline phase (the first phase with
 * a measured IOPS figure).  Returns EBS_OK with *found 0 when no run of
 * that type exists.
 */
struct bench_evidence {
	long long run_id;
	char label[128]; /* as struct bench_run's */
	char source[32];
	char instance_type[48];
	double size_gib;   /* NAN when unknown */
	double prov_iops;  /* NAN when unknown */
	double prov_mibps; /* NAN when unknown */
	char phase[48];
	char rw[16];
	char bs[16];
	double iodepth;		  /* NAN when unknown */
	double iops;		  /* whole phase; NAN when not published */
	double iops_before_cliff; /* NAN when no cliff */
	double iops_after_cliff;
	double cliff_t_s;
	double p99_ms; /* NAN when unknown */
	double lat_mean_ms;
	double distance; /* 0 = exact match */
};
int db_bench_evidence(struct db *db, const struct vol_config *cfg,
		      struct bench_evidence *out, int *found, char *err);
/*
 * The same for many configurations (`cheapest`, a batch of them): the
 * runs of each type read once, each run's headline phase once; the same
 * answers as db_bench_evidence.  The database must not change while the
 * cache is in use.
 */
struct db_evidence_cache;
struct db_evidence_cache *db_evidence_cache_new(struct db *db);
void db_evidence_cache_free(struct db_evidence_cache *c);
int db_bench_evidence_cached(struct db_evidence_cache *c,
			     const struct vol_config *cfg,
			     struct bench_evidence *out, int *found, char *err);

/* Health report for `ebsize db check`. */
struct db_table_count {
	const char *table;
	long long rows;
};
struct db_snapshot_info {
	char region[32];
	long long snapshot_id;
	char source[160];
	char as_of[32];
	char fetched_at[32];
	long long prices;
};
struct db_health {
	int schema_version;
	char integrity[256]; /* "ok" or the first problem */
	struct db_table_count counts[8];
	size_t ncounts;
	struct db_snapshot_info *snapshots; /* in force, one per region */
	size_t nsnapshots;
};
int db_check(struct db *db, struct db_health *out, char *err);
void db_health_release(struct db_health *h);

#endif
