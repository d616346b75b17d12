/*
 * db_prices.h - writes of price snapshots and instance limits, and the
 * snapshot history and diff reads (src/db_prices.c, src/db_instances.c).
 *
 * Every write is one IMMEDIATE transaction: the snapshot row, its prices
 * and the sanity checks happen together, and any failure rolls back, so
 * the database is left byte for byte as it was.
 */
#ifndef EBSIZE_DB_PRICES_H
#define EBSIZE_DB_PRICES_H

#include <stddef.h>

#include "ebsize/model.h"
#include "ebsize/pricing.h"

struct db;

/* The regions table, for the parser.  Release with region_table_release. */
int db_region_table(struct db *db, struct region_table *out, char *err);

struct price_commit_opts {
	const char *source;	    /* 'fetch:<endpoint>', 'import:<file>' */
	const char *as_of;	    /* YYYY-MM-DD */
	const char *notes;	    /* may be NULL */
	const char *const *require; /* regions that must have gp2+gp3 storage */
	size_t nrequire;
	int require_all;    /* every region in the list must */
	int accept_changes; /* skip the 3x move check */
};

struct price_commit_report {
	long long snapshot_id;
	size_t inserted; /* rows from the new data */
	size_t carried;	 /* rows carried from the snapshot in force */
	size_t regions;
	size_t changed;	      /* prices differing from the one in force */
	int identical;	      /* every price equals the one in force
					  * (no newer as_of): nothing recorded,
					  * snapshot_id 0 */
	long long inforce_id; /* newest snapshot in force for them */
};

/*
 * Store pl as a new complete price snapshot.  Rows of the snapshot in
 * force for the same regions that pl lacks are carried forward (keeping
 * their own source), so a partial import never hides other types.
 * Sanity: pl is not empty, every price positive and finite, the required
 * regions have gp2 and gp3 storage prices, and no price moved more than
 * 3x against the snapshot in force unless accept_changes.  Data whose
 * every price already is in force, unchanged and dated no later (as_of)
 * than the snapshot holding it, records nothing (rep->identical,
 * snapshot_id 0): importing the same file twice adds one snapshot.
 * EBS_OK, or EBS_ERR_SANITY / EBS_ERR_DB with nothing written.
 */
int db_prices_commit(struct db *db, const struct price_list *pl,
		     const struct price_commit_opts *o,
		     struct price_commit_report *rep, char *err);

/*
 * Several snapshots (pls[i] with opts[i], reps[i] filled) in one
 * transaction: all are stored or none is.  The same checks as
 * db_prices_commit for each.
 */
int db_prices_commit_many(struct db *db, const struct price_list *const *pls,
			  const struct price_commit_opts *opts, size_t n,
			  struct price_commit_report *reps, char *err);

struct snapshot_info {
	long long id;
	char source[200];
	char fetched_at[32];
	char as_of[32];
	int complete;
	long long prices;
	long long regions;
	long long in_force_regions; /* regions this snapshot is in force for */
};

/*
 * Call fn for every snapshot, newest first; when region is not NULL only
 * those holding prices for it (and in_force_regions counts only it).
 */
int db_each_snapshot(struct db *db, const char *region,
		     int (*fn)(const struct snapshot_info *, void *), void *arg,
		     char *err);

/* The ids of the two newest complete snapshots (*older, *newer); a
 * region limits to snapshots holding it.  EBS_ERR_NOT_FOUND if < 2. */
int db_two_newest_snapshots(struct db *db, const char *region, long long *older,
			    long long *newer, char *err);

/* Does snapshot id exist? 1 yes, 0 no. */
int db_snapshot_exists(struct db *db, long long id);

struct price_change {
	const char *region;
	const char *volume_type;
	const char *dimension;
	const char *currency;
	double begin_range;
	int has_old, has_new;
	double old_price, new_price;
};

/*
 * Call fn for each price that differs between snapshots a and b (changed,
 * added or removed), over the regions both hold (region: only that one),
 * in region, type, dimension, range order.
 */
int db_diff_snapshots(struct db *db, long long a, long long b,
		      const char *region,
		      int (*fn)(const struct price_change *, void *), void *arg,
		      char *err);

/* ------------------------------------------------------------ regions */

/* Bits of region_info.dims[]: the dimensions priced for a volume type. */
#define PRICE_DIM_STORAGE    1u
#define PRICE_DIM_IOPS	     2u
#define PRICE_DIM_THROUGHPUT 4u
#define PRICE_DIM_IO	     8u

struct region_info {
	char code[32];
	char location[64];	     /* "" not known */
	char prefix[16];	     /* usage-type prefix */
	int prefix_known;	     /* 0: NULL (no source gave it) */
	int known;		     /* in the regions table */
	char currency[8];	     /* its own; "" for an unknown region */
	long long snapshot_id;	     /* in force; 0: no prices at all */
	char source[200];	     /* of that snapshot */
	char as_of[32];		     /* of that snapshot */
	char oldest[16], newest[16]; /* vintages of its rows */
	long long prices;	     /* rows in force, in its currency */
	long long other_currency;    /* rows in force in another one */
	unsigned dims[VT_COUNT + 1]; /* PRICE_DIM_* per type; [VT_COUNT]
					  * = snapshot storage */
	int iops_tiers[VT_COUNT];    /* IOPS price rows per type */
};

/*
 * Call fn for every region the regions table knows or that has prices in
 * force, by code: its names, currency, the snapshot in force and what it
 * prices (only rows in the region's currency count as priced).
 */
int db_each_region(struct db *db, int (*fn)(const struct region_info *, void *),
		   void *arg, char *err);

/* ------------------------------------------------------------ instances */

struct instance_import_report {
	size_t inserted;
	size_t updated;
};

/*
 * Insert or replace the limits of every instance in v (n entries, source
 * and as_of already set) in one transaction.  Sanity: n > 0; values
 * finite, non-negative, baseline <= maximum.  EBS_OK or an error with
 * nothing written.
 */
int db_instances_import(struct db *db, const struct instance_limits *v,
			size_t n, struct instance_import_report *rep,
			char *err);

#endif
