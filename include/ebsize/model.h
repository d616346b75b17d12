/*
 * model.h - the EBS cost and performance model: pure arithmetic over plain
 * structs.  No I/O, no SQLite, no globals, no allocation.  Every rule and
 * constant cites ../shared/ebs-facts.md (tables T1-T6); the dated limits
 * (sizes, IOPS ranges) come in as struct volume_limits from the database.
 */
#ifndef EBSIZE_MODEL_H
#define EBSIZE_MODEL_H

#include <stddef.h>

/*
 * The tolerance of comparisons between derived rates and limits (MiB/s
 * from IOPS, IOPS from GiB): far below any unit AWS bills or enforces,
 * far above binary floating-point noise.
 */
#define MODEL_EPS 1e-9

enum vol_type {
	VT_GP2,
	VT_GP3,
	VT_IO1,
	VT_IO2,
	VT_ST1,
	VT_SC1,
	VT_STANDARD,
	VT_COUNT
};

/* Name as AWS spells it ("gp3"); NULL for an out-of-range value. */
const char *model_type_name(enum vol_type t);
/* 1 when IOPS (gp3, io1, io2) / MiB/s (gp3) of t are bought, and priced. */
int model_type_buys_iops(enum vol_type t);
int model_type_buys_throughput(enum vol_type t);
/* 1 when t sells every IOPS, none included (io1, io2): they must be given. */
int model_type_needs_iops(enum vol_type t);
/* 1 when each I/O request of t is billed (standard, T4). */
int model_type_bills_io(enum vol_type t);
/* 0 and *out set when s names a volume type (case-insensitive), else -1. */
int model_type_parse(const char *s, enum vol_type *out);

/* One dated row of volume_limits (ebs-facts.md T1, T3, T4, T5). */
struct volume_limits {
	enum vol_type type;
	char effective_from[16];
	long min_size_gib;
	long max_size_gib;
	long min_iops; /* 0: IOPS are not provisionable */
	long max_iops;
	double max_iops_per_gib;
	double min_mibps;
	double max_mibps;
	double max_mibps_per_iops;
	long included_iops;
	double included_mibps;
	long io_unit_kib;
};

/* EbsOptimizedSupport of an instance type (DescribeInstanceTypes). */
enum ebs_optimized {
	EBS_OPT_DEFAULT,    /* EBS-optimized by default */
	EBS_OPT_SUPPORTED,  /* EBS-optimized when asked for */
	EBS_OPT_UNSUPPORTED /* no EBS limit published (t2.*, m1.small) */
};

/* "default", "supported", "unsupported" (the API's words). */
const char *model_ebs_optimized_name(enum ebs_optimized e);

/*
 * EBS limits of an instance type (ebs-facts.md T11, sql/seed/sources/).
 * Bandwidth is MB/s, decimal (Mbps / 8), as AWS publishes it; volumes are
 * MiB/s: convert with model_mbytes_to_mibps.  IOPS are counted at 16 KiB
 * I/O.  A type with ebs_optimized EBS_OPT_UNSUPPORTED publishes no EBS
 * limit: its six figures are 0 and mean nothing (its EBS traffic shares
 * the instance's network), so nothing may be checked against them.
 */
struct instance_limits {
	char instance_type[48];
	int burst; /* max holds 30 min per 24 h */
	double baseline_mbps;
	double max_mbps;
	double baseline_mbytes_per_s;
	double max_mbytes_per_s;
	double baseline_iops;
	double max_iops;
	enum ebs_optimized ebs_optimized;
	long max_ebs_attachments; /* MaximumEbsAttachments, root volume
				      * included; 0: not known */
	char nvme[16];		  /* NvmeSupport; "" not known */
	char source[320];
	char as_of[16];
};

/* MB/s (10^6 bytes) to MiB/s (2^20 bytes): the one place units convert. */
static inline double model_mbytes_to_mibps(double mbytes_per_s)
{
	return mbytes_per_s * 1e6 / 1048576.0;
}

/* A price step: units in [begin, end) cost price each (end < 0: no end). */
struct price_tier {
	double begin;
	double end;
	double price;
};

#define MODEL_MAX_TIERS 4

/* Prices of one volume type in one region, in the region's currency. */
struct type_prices {
	int have_storage;
	double storage_per_gib_month;
	size_t n_iops;
	struct price_tier iops[MODEL_MAX_TIERS]; /* IOPS-month */
	size_t n_throughput;
	struct price_tier throughput[MODEL_MAX_TIERS]; /* MiB/s-month */
	int have_io;
	double io_per_million; /* standard only */
};

/*
 * The prices in force for one region, all in one currency: the region's
 * (USD, or CNY in China).  Money computed from them is in that currency
 * and is never added to money in another.
 */
struct price_set {
	char region[32];
	char currency[8]; /* ISO 4217 code: "USD", "CNY" */
	long long snapshot_id;
	char as_of[32];
	char source[160];
	struct type_prices type[VT_COUNT];
	int have_snapshot_storage;
	double snapshot_per_gib_month; /* snapshot storage, standard tier */
};

/* One volume configuration; count identical volumes (a RAID 0 set). */
struct vol_config {
	enum vol_type type;
	long size_gib;
	long iops;	       /* provisioned (gp3, io1, io2); 0 elsewhere */
	long throughput_mibps; /* provisioned (gp3); 0 elsewhere */
	long count;
	double io_per_month; /* standard: I/O requests per month, per volume */
};

/* Monthly cost in the price set's currency, for all `count` volumes. */
struct cost {
	double storage;
	double iops;
	double throughput;
	double io;
	double total;
};

/*
 * Performance of the whole set (count volumes striped).  For gp2/st1/sc1
 * the burst figures apply while the credit bucket lasts: burst_seconds is
 * how long a full bucket sustains the burst rate (0 when there is no burst).
 * IOPS figures count SSD I/O up to 256 KiB and HDD I/O up to 1 MiB.
 */
struct perf {
	double baseline_iops;
	double burst_iops;
	double burst_seconds;
	double baseline_mibps;
	double burst_mibps;
	double bucket; /* credits (gp2: I/O; st1/sc1: MiB) per volume */
};

/*
 * Fill the defaults AWS applies when a value is omitted (gp3: 3,000 IOPS and
 * 125 MiB/s; count 1).  Leaves values the caller set alone.
 */
void model_apply_defaults(const struct volume_limits *lim,
			  struct vol_config *cfg);

/*
 * Check cfg against the rules of lim.  Returns 0 when legal.  Otherwise
 * returns -1, writes the first broken rule to why (whylen bytes) and, in
 * nearest, the closest legal configuration that keeps the requested
 * performance when possible (a larger size) and otherwise lowers it.
 */
int model_validate(const struct volume_limits *lim,
		   const struct vol_config *cfg, struct vol_config *nearest,
		   char *why, size_t whylen);

/*
 * 1 when ps holds every price a volume of type t can need (gp3: storage,
 * IOPS and throughput; io1/io2: storage and IOPS; the rest storage).
 */
int model_type_priced(const struct price_set *ps, enum vol_type t);

/*
 * Monthly cost of cfg under prices p.  Returns 0, or -1 when p lacks a price
 * the configuration needs (the caller reports which region/type).
 */
int model_cost(const struct type_prices *p, const struct vol_config *cfg,
	       struct cost *out);

/* Cost of `units` under a tiered price list (sum over tiers). */
double model_tiered_cost(const struct price_tier *tiers, size_t n,
			 double units);

/* Performance of cfg (already legal) for the whole set. */
void model_perf(const struct vol_config *cfg, struct perf *out);

/* ------------------------------------------------------------ gp2 rules */

/* gp2 baseline IOPS: max(100, min(16,000, 3 x GiB)) (T2 [S1]). */
double model_gp2_baseline_iops(double size_gib);
/* gp2 burst ceiling: 3,000 IOPS below 1,000 GiB, else the baseline. */
double model_gp2_burst_iops(double size_gib);
/* gp2 throughput ceiling while credits last / once spent (T2 [S1,S4]). */
double model_gp2_burst_mibps(double size_gib);
double model_gp2_baseline_mibps(double size_gib);

#define GP2_BUCKET_CREDITS 5400000.0 /* T2 [S1, R3] */
#define GP2_BURST_IOPS	   3000.0    /* T2 [S1] */
/*
 * The constants of the gp2 and io1 rules, named so that code generating
 * the same rules in another language (billing_sql.c) uses the very values
 * model.c does (T2 [S1, S4], T4 [S2]).
 */
#define GP2_IOPS_PER_GIB	 3.0	 /* baseline: 3 IOPS per GiB */
#define GP2_MIN_IOPS		 100.0	 /* ... at least 100 */
#define GP2_MAX_IOPS		 16000.0 /* ... at most 16,000 */
#define GP2_HIGH_MIBPS_ABOVE_GIB 170	 /* 250 MiB/s above 170 GiB */
#define GP2_HIGH_MIBPS		 250
#define GP2_SIZED_STEP_IOPS	 1000 /* model_gp2_sized_for_iops: k x 1,000 */
#define IO1_LOW_IOPS		 32000.0 /* io1 MiB/s rule changes above */
#define IO1_LOW_KIB_PER_IOPS	 256.0	 /* <= 32,000 IOPS: 256 KiB I/O */
#define IO1_LOW_MAX_MIBPS	 500.0
#define IO1_HIGH_KIB_PER_IOPS	 16.0 /* above: 16 KiB I/O */
#define IO1_MAX_MIBPS		 1000.0

/* ------------------------------------------------------------ IOPS per size */

/*
 * The most IOPS a volume of size_gib may carry under lim: min(max_iops,
 * max(min_iops, ratio x GiB)).  The per-GiB ratio binds only IOPS above
 * the type's minimum: any gp3 carries the included 3,000 (T3 "max IOPS for
 * size" formula), an io1/io2 its 100.  0 when IOPS are not provisionable.
 */
long model_max_iops_for_size(const struct volume_limits *lim, long size_gib);

/*
 * The smallest legal size that may carry iops under lim: the minimum size
 * up to the type's minimum IOPS, above it ceil(iops / ratio) (T3: a 1 GiB
 * gp3 carries 3,000 IOPS; 3,001 need 7 GiB).  May exceed max_size_gib.
 */
long model_min_size_for_iops(const struct volume_limits *lim, long iops);

/* ------------------------------------------------------------ gp2 -> gp3 */

/*
 * The gp3 configuration proposed for a gp2 of size_gib: IOPS = max(included
 * 3,000, gp2 baseline), so a gp2 above 1,000 GiB keeps its baseline and
 * every gp2 keeps its 3,000 IOPS burst, sustained; MiB/s = 250 above 170
 * GiB (where gp2 reaches 250, T2 [S1, S4]), else the included 125 (T3).
 * The naive type-only change (3,000 IOPS, 125 MiB/s) would slow every gp2
 * above 1,000 GiB or 170 GiB down.
 *
 * Decision (issue 10): at 170 GiB or less gp2 reaches 128 MiB/s (T2), so
 * the included 125 MiB/s is up to 3 MiB/s below gp2's ceiling.  The
 * proposal keeps the free 125 and says so (model_gp3_mibps_short) rather
 * than buying 3 MiB/s on every small volume; `compare --throughput 128`
 * prices the exact match.
 */
void model_gp3_like_gp2(const struct volume_limits *gp3, long size_gib,
			struct vol_config *out);

/*
 * MiB/s by which a gp3 at gp3_mibps falls short of the throughput ceiling
 * of a gp2 of gp2_size_gib (128 or 250 MiB/s, T2); 0 when it does not.
 */
double model_gp3_mibps_short(long gp2_size_gib, double gp3_mibps);

/* What model_gp3_for_need returns. */
enum model_fit {
	MODEL_FIT_OK = 0,
	MODEL_FIT_PERF = -1, /* IOPS or MiB/s above the type's maxima */
	MODEL_FIT_SIZE = -2  /* the size it needs is above the maximum */
};

/*
 * The legal gp3 for a need -- the one rule cost, cheapest, compare and
 * scan share (issue 10): IOPS = max(included 3,000, need_iops, need_mibps /
 * 0.25), MiB/s = max(included 125, need_mibps), size = max(size_gib, the
 * smallest size that may carry the IOPS: any size carries 3,000, above
 * that 500 IOPS per GiB) (T3).  The monthly cost grows with each of the
 * three (T6 pricing rule), so no cheaper legal gp3 meets the need.
 * Returns MODEL_FIT_OK, or MODEL_FIT_PERF / MODEL_FIT_SIZE when no gp3
 * carries it (out then holds the values capped at the type's maxima).
 */
enum model_fit model_gp3_for_need(const struct volume_limits *gp3,
				  double size_gib, double need_iops,
				  double need_mibps, struct vol_config *out);

/*
 * model_gp3_for_need for a volume that keeps size_gib (an in-place
 * modification: EBS volumes do not shrink, and growing one costs more).
 * Returns 0, or -1 when the need does not fit that size (out then holds
 * the most that size carries toward the need).
 */
int model_gp3_for_load(const struct volume_limits *gp3, long size_gib,
		       double need_iops, double need_mibps,
		       struct vol_config *out);

/*
 * What a gp2 of size_gib delivers at its peak under load_iops, which every
 * other type is measured against (`ebsize compare`, the report's cost
 * curves): IOPS max(the gp2 burst ceiling -- 3,000, or the baseline from
 * 1,000 GiB --, the load); MiB/s gp2's ceiling, 128 or 250 (T2 [S1, S4]);
 * and what it sustains once its credits are spent.
 */
struct model_gp2_target {
	double iops, mibps;
	double sustained_iops, sustained_mibps;
};
void model_gp2_target(long size_gib, long load_iops,
		      struct model_gp2_target *tg);

/*
 * The configuration of type t to set beside a gp2 of size_gib: the
 * cheapest that delivers the target of model_gp2_target sustained, except
 * where a type cannot:
 *   gp3      the legal gp3 of the need (model_gp3_for_need: size, target
 *            IOPS, and gp3's 125 / 250 MiB/s -- model_gp3_like_gp2 -- or
 *            gp3_mibps when not 0); any size carries the included 3,000 IOPS.
 *   io1/io2  the target IOPS (raised for the target MiB/s), size raised to
 *            their IOPS-per-GiB rule.
 *   st1/sc1  sized to sustain gp2's sustained MiB/s; they carry at most
 *            500 / 250 IOPS (T1, T5) and so cannot match a gp2's IOPS.
 *   standard the same size.
 * lims holds every type's rules.  Returns 0, or -1 when no legal
 * configuration of t exists.
 */
int model_like_gp2(enum vol_type t, long size_gib, long load_iops,
		   long gp3_mibps, const struct volume_limits *lims,
		   struct vol_config *out);

/*
 * 1 when a gp2 size looks chosen for an IOPS target rather than for data:
 * size = ceil(1,000 k / 3) for some k >= 3, i.e. the smallest size giving a
 * round number of thousands of IOPS at 3 IOPS/GiB (1,000 GiB for 3,000;
 * 1,334 for 4,000; 1,667 for 5,000) up to the 16,000 IOPS cap (5,334
 * GiB, T2); never above it.  *target_iops gets 1,000 k.
 */
int model_gp2_sized_for_iops(long size_gib, long *target_iops);

/*
 * Seconds until a gp2 bucket holding `credits` I/O credits empties under a
 * steady load_iops: credits / (load - baseline) (T2 [S1]).  Negative when
 * the load does not exceed the baseline (the bucket never empties).
 */
double model_gp2_seconds_to_empty(double size_gib, double credits,
				  double load_iops);

/*
 * The BurstBalance percentage (whole percent, rounded up, 1..100) at which
 * lead_seconds remain before the cliff under load_iops: lead x (load -
 * baseline) / 5,400,000 x 100 (T2, T15 derived row).  0 when the load never
 * drains the bucket (no alarm needed).
 */
double model_gp2_alarm_pct(double size_gib, double load_iops,
			   double lead_seconds);

/* st1/sc1 MiB/s for a size (T5 [S3]); bucket in MiB of credit. */
double model_hdd_baseline_mibps(enum vol_type t, double size_gib);
double model_hdd_burst_mibps(enum vol_type t, double size_gib);
double model_hdd_bucket_mib(double size_gib);

/* ------------------------------------------------------------ io1/io2 */

/* T4 [S2]: each provisioned io2 IOPS carries 0.256 MiB/s.  The one place
 * this constant lives; everything else asks the functions below. */
#define IO2_MIBPS_PER_IOPS 0.256
/* T1 [S5]: SSD I/O up to 256 KiB counts as one operation. */
#define SSD_IO_UNIT_KIB 256.0

/* io1/io2 throughput ceiling for provisioned IOPS (T4 [S2]). */
double model_piops_max_mibps(enum vol_type t, double iops);

/*
 * The fewest provisioned IOPS whose throughput ceiling carries mibps on
 * io1/io2 (the inverse of model_piops_max_mibps), or -1 when no IOPS
 * count of the type reaches it (io1 above 1,000, io2 above 4,000 MiB/s).
 */
double model_piops_iops_for_mibps(enum vol_type t, double mibps);

/*
 * The IOPS an SSD volume of type t must deliver for ops I/O per second of
 * io_kib each: each 256 KiB or part counts once (T1 [S5]); io2 is held to
 * its own throughput rule instead, 0.256 MiB/s per IOPS (T4 [S2]), so it
 * needs max(ops, ops x io_kib / 1024 / 0.256).
 */
double model_ssd_iops_for(enum vol_type t, double ops, double io_kib);

/* MiB/s needed to move iops operations of io_kib each. */
static inline double model_mibps_for(double iops, double io_kib)
{
	return iops * io_kib / 1024.0;
}

#endif
