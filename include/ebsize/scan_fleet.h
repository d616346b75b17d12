/*
 * scan_fleet.h - the rules that turn inventory records into findings for a
 * whole fleet (src/scan_fleet.c): which records are volumes to analyse
 * (problems, duplicates, zones, the region filter, states, AWS's volume
 * rules), how a PersistentVolume's StorageClass becomes a configuration,
 * which tag exempts a volume, how metrics and used space attach to a
 * volume by id, and the findings kept for the report.  It does no I/O:
 * records come from inventory_parse.c, prices through a callback, and
 * every warning goes into a list the caller prints.  One finding per
 * volume comes from scan_analyze (scan.h).
 */
#ifndef EBSIZE_SCAN_FLEET_H
#define EBSIZE_SCAN_FLEET_H

#include <stddef.h>

#include "ebsize/idset.h"
#include "ebsize/inventory.h"
#include "ebsize/model.h"
#include "ebsize/scan.h"
#include "ebsize/scan_k8s.h"
#include "ebsize/strmap.h"

struct scan_bill_link;

/* One finding as kept for the report (compact: 100,000+ of them). */
struct scan_rec {
	struct scan_finding f;
	char id[24];
	const char *region;	 /* interned (lives as long as the fleet) */
	const char *currency;	 /* of its money: the region's; interned */
	const char *az;		 /* interned; NULL when unusable in a command */
	char *name;		 /* tag Name */
	char *group;		 /* the by_tag value */
	char *ns, *pvc;		 /* Kubernetes claim */
	char *kms;		 /* KmsKeyId (f.kms_key_id points here) */
	const struct inv_pv *pv; /* its PersistentVolume (in the fleet's
				      Kubernetes objects); NULL none */
	/* what billing exports say of it (set and owned by the command);
	 * NULL: not in a billing export */
	const struct scan_bill_link *bill;
};

/*
 * The order findings are reported in: by currency (USD first: amounts in
 * two currencies are never compared), then by savings, most first, then
 * by id.  <0, 0, >0 as strcmp.
 */
int scan_rec_cmp(const struct scan_rec *a, const struct scan_rec *b);

/*
 * Running totals of one group -- a category, region, tag value (by_tag)
 * or currency -- in one currency.  Money is counted in millionths (every
 * figure of a finding is rounded to a millionth), so a total is exact and
 * the same in any order.  The findings' part counts every finding (excluded
 * volumes included); scanned and scanned_u count every volume analysed, a
 * finding or not (kept for the currency and region totals only).
 */
struct scan_total {
	const char *key;      /* interned; the category's name */
	const char *currency; /* interned */
	size_t findings;
	long long current_u; /* what the findings' volumes cost now */
	long long savings_u; /* what their proposals save */
	long long extra_u;   /* what burst-risk fixes add */
	size_t scanned;
	long long scanned_u;
};

enum scan_by {
	SCAN_BY_CATEGORY,
	SCAN_BY_REGION,
	SCAN_BY_TAG,
	SCAN_BY_CURRENCY,
	SCAN_BY_COUNT
};

struct scan_totals {
	struct scan_total *t;
	size_t n, alloc;
	struct strmap index; /* "key\x1fcurrency" -> index + 1 */
};

/* Millionths (a total's money) to a currency amount. */
double scan_total_money(long long micro);

/* keep_top: the N findings kept for one currency (a heap; private). */
struct scan_heap {
	const char *currency; /* interned */
	struct scan_rec *h;
	size_t n, alloc;
};

/*
 * Volumes analysed without a finding, grouped by configuration (for the
 * workbook, which prices them live): count x usd_each is what they cost.
 */
struct scan_group {
	const char *region;   /* interned */
	const char *currency; /* interned */
	struct vol_config cfg;
	size_t volumes;
	double usd_each; /* monthly cost of one */
};

/*
 * The prices of a region, or NULL when there are none (its volumes are
 * skipped and counted per region).  The set must live as long as the
 * fleet.
 */
typedef const struct price_set *(*scan_prices_fn)(void *arg,
						  const char *region);

struct scan_fleet_opts {
	struct scan_opts rules;	    /* headroom, minimum savings, alarm lead */
	const char *only_region;    /* analyse only this region; NULL: all */
	const char *default_region; /* where a PV without a zone is priced */
	const char *const *excl;    /* exclusion rules "K" or "K=V" */
	size_t nexcl;
	const char *by_tag;	/* group totals by this tag; NULL */
	const char *usage_file; /* names the used-space input in messages */
	scan_prices_fn prices;
	void *prices_arg;
	/*
	 * What is kept of the findings: 0, every one (JSON, CSV, workbooks);
	 * N, only the N first of each currency in scan_rec_cmp order (by
	 * savings), so that a table of a million volumes holds N findings
	 * and the running totals.
	 */
	size_t keep_top;
	int group_unchanged; /* keep f->groups (workbooks) */
};

/*
 * Volumes of one region skipped for want of prices: all of the region's
 * (type NULL) or those of one volume type (type: its name, or "gp3" when
 * the proposal needs gp3 prices the region lacks).
 */
struct scan_no_price {
	char region[32];
	const char *type;
	size_t volumes;
};

struct scan_fleet {
	struct scan_fleet_opts o;
	struct volume_limits lim[VT_COUNT];
	struct scan_rec *recs; /* the findings kept (o.keep_top); in
					 scan_rec_cmp order after
					 scan_fleet_sort */
	size_t nrecs, arecs;
	size_t nfindings; /* every finding, kept or not */
	struct scan_totals by[SCAN_BY_COUNT];
	struct scan_group *groups; /* o.group_unchanged: no finding */
	size_t ngroups, agroups;
	/* Kubernetes plans of the findings (scan_k8s_plan), by method */
	size_t k8s_vac, k8s_reused, k8s_in_tree, k8s_blocked;
	size_t scanned;		 /* analysed (findings or not) */
	size_t skipped;		 /* problems, illegal, transient states */
	size_t other_region;	 /* outside only_region */
	size_t skipped_no_price; /* in regions or of types without prices */
	struct scan_no_price *no_price;
	size_t nno_price, ano_price;
	struct inv_warnings warn;	 /* new warnings; the caller prints and
					 releases them as it likes */
	struct scan_k8s cluster;	 /* the Kubernetes objects, indexed */
	struct scan_cluster_finding *cl; /* scan_fleet_cluster's findings */
	size_t ncl;
	char cl_region[32]; /* ... priced in this region */
	/* private */
	struct idset seen; /* volume id -> file it was read from
					 (an index into files) */
	const char **files;
	size_t nfiles, afiles;
	struct scan_heap *heaps; /* keep_top: one per currency */
	size_t nheaps, aheaps;
	struct strmap group_index; /* configuration -> groups index + 1 */
	struct strmap extra;	   /* volume id -> metrics and used space */
	struct strmap strings;	   /* interned regions, zones, file names */
	struct strmap pv_by_id;
	const struct inv_k8s *k8s;
};

/* lim: every type's rules; o is copied (its strings must outlive f). */
void scan_fleet_init(struct scan_fleet *f, const struct volume_limits *lim,
		     const struct scan_fleet_opts *o);
void scan_fleet_release(struct scan_fleet *f);

/*
 * Side inputs, before the volumes: metric series (kept by pointer: m must
 * outlive f), used space, and the Kubernetes objects (by pointer too;
 * set once).
 */
void scan_fleet_add_metrics(struct scan_fleet *f, const struct inv_metrics *m);
void scan_fleet_add_usage(struct scan_fleet *f, const struct inv_usage *u);
void scan_fleet_set_k8s(struct scan_fleet *f, const struct inv_k8s *k);

/*
 * One describe-volumes record read from file: skipped (counted, warned
 * where useful) or analysed into a finding.  0, or -1 with err set when
 * the analysis itself failed.
 */
int scan_fleet_volume(struct scan_fleet *f, const char *file,
		      const struct inv_volume *v, char *err);

/*
 * The PersistentVolumes no describe-volumes record covered, configured
 * from their StorageClass.  0, or -1 with err set.
 */
int scan_fleet_pvs(struct scan_fleet *f, char *err);

/*
 * The cluster findings (scan_k8s_cluster) into f->cl, priced in the region
 * most of the PVs are in (else the default region).  After the PVs.
 */
void scan_fleet_cluster(struct scan_fleet *f);

/* ------------------------------------------------------------ billing */

/*
 * Volumes known from a billing export (billing.h) join the fleet by id.
 * scan_fleet_has_volume: a describe-volumes record or a PV of that id was
 * read (scan_fleet_ids: all of them, for billing_analyze's known ids).
 * scan_fleet_has_side_inputs: metrics or used space name it.
 */
int scan_fleet_has_volume(const struct scan_fleet *f, const char *id);
const struct idset *scan_fleet_ids(const struct scan_fleet *f);
int scan_fleet_has_side_inputs(const struct scan_fleet *f, const char *id);

/*
 * A volume known only from the bill, with metrics or used space: analysed
 * like a describe-volumes record (scan_analyze) from its configuration as
 * billed -- in use (the bill has no State), zone unknown (no command for
 * a new volume), Multi-Attach unknown.  Returns 0 (f->recs may have grown
 * by one: the caller compares nrecs), or -1 with err set.
 */
struct scan_billed {
	const char *id;
	const char *region;
	struct vol_config cfg; /* count 1 */
	const struct inv_tag *tags;
	size_t ntags;
};
int scan_fleet_billed(struct scan_fleet *f, const char *file,
		      const struct scan_billed *b, char *err);

/*
 * Keep a finding made by the billing rules for volume b (money in
 * currency): the exclusion tags apply (it becomes `excluded`), Name and
 * the by_tag value come from b's tags, --min-savings drops a saving below
 * it (NULL returned).  The record kept, valid until the next one is added.
 */
struct scan_rec *scan_fleet_keep(struct scan_fleet *f,
				 const struct scan_billed *b,
				 const char *currency,
				 const struct scan_finding *fd);

/*
 * Billing exports are joined to the records by id, so every record is
 * kept in f->recs from then on: the top findings kept so far (keep_top)
 * move there, and keep_top ends.
 */
void scan_fleet_keep_all(struct scan_fleet *f);
/* A volume the billing rules analysed: counted, its cost now in the totals. */
void scan_fleet_count(struct scan_fleet *f, const char *region,
		      const char *currency, double cur_usd);
/* r's current cost becomes cur_usd (the billed one); the totals follow. */
void scan_fleet_set_current(struct scan_fleet *f, struct scan_rec *r,
			    double cur_usd);

/* Count a volume of region skipped for want of prices (type: its type's
 * name when only those are missing; NULL: the region has none). */
void scan_fleet_no_price(struct scan_fleet *f, const char *region,
			 const char *type);

/* Warn about metrics and used space of volumes that were not scanned. */
void scan_fleet_unmatched(struct scan_fleet *f);

/* Put the kept findings in scan_rec_cmp order (after the last volume). */
void scan_fleet_sort(struct scan_fleet *f);

/*
 * The configuration a PV of size_gib has from its StorageClass sc (T12, K1
 * rules: iopsPerGB x GiB capped at the type maximum and the per-GiB ratio,
 * raised to the minimum with allowAutoIOPSPerGBIncrease and always on gp3;
 * gp3 throughput from the class; AWS's defaults for the rest).  lim: the
 * rules of sc->type.
 */
void scan_pv_config(const struct volume_limits *lim, const struct inv_sc *sc,
		    long size_gib, struct vol_config *cfg);

/*
 * The region of an availability zone: the zone up to the end of its first
 * digit run ("us-east-1a" -> "us-east-1", "us-west-2-lax-1a" ->
 * "us-west-2").  0, or -1 when az does not look like a zone.
 */
int scan_region_of_az(const char *az, char *out, size_t n);

#endif
