/*
 * solver.h - "what is the cheapest way to get N IOPS, M MiB/s and C GiB?"
 * Pure: takes volume rules, prices and an optional instance as structs and
 * returns ranked options.  For every volume type and every stripe width
 * k = 1..max_stripe it finds the cheapest legal set of k identical volumes
 * (RAID 0) that sustains the need, plus, for gp2/st1/sc1, the cheapest set
 * that meets it only while credits last (marked burst-only).
 */
#ifndef EBSIZE_SOLVER_H
#define EBSIZE_SOLVER_H

#include <stddef.h>

#include "ebsize/model.h"

/* What the workload needs. */
struct need {
	double iops;	 /* N operations per second of io_kib each */
	double mibps;	 /* M (0: only what N x io_kib implies) */
	double size_gib; /* C of usable capacity (0: none) */
	double io_kib;	 /* I/O size; SSD counts up to 256 KiB per
				  * operation, HDD 1 MiB (T1 [S5]) */
	/* optional peak: peak_iops for peak_s seconds every period_s */
	double peak_iops; /* 0: no peak profile */
	double peak_s;
	double period_s;
};

enum instance_fit {
	FIT_UNCHECKED, /* no instance given */
	FIT_OK,	       /* within the instance's baseline */
	FIT_BURST,     /* above baseline, within maximum: 30 min/24 h */
	FIT_NO	       /* above the instance's maximum */
};

const char *solver_fit_name(enum instance_fit f);

struct candidate {
	struct vol_config cfg; /* one volume; cfg.count volumes in the set */
	struct cost cost;      /* the whole set */
	struct perf perf;      /* the whole set */
	int sustained;	       /* meets the need at baseline (or the peak
				  * profile is covered by credits) */
	int peak_covered;      /* sustained thanks to --peak credits */
	double burst_seconds;  /* burst-only: how long a full bucket meets
				  * the need */
	enum instance_fit fit;
	double headroom_pct;  /* min over IOPS and MiB/s of spare capacity */
	double usd_per_kiops; /* total per 1,000 delivered IOPS */
};

struct solver_input {
	/* per type: NULL limits = type not considered */
	const struct volume_limits *lim[VT_COUNT];
	const struct type_prices *prices[VT_COUNT];
	const struct instance_limits *inst; /* NULL: none */
	long max_stripe;
	const char *currency; /* of the prices (notes); NULL: USD */
};

struct solver_result {
	struct candidate *opts; /* sorted: sustained first, then by total */
	size_t n;
	char **notes; /* why types were ruled out, stripe wins */
	size_t nnotes;
	/* the need translated into what volumes see */
	double ssd_iops;       /* N x 256 KiB units */
	double mibps;	       /* max(M, N x io_kib) */
	double hdd_mibps;      /* max(M, N x max(io_kib, 1 MiB)) */
	enum instance_fit fit; /* the need against the instance */
};

/*
 * Solve.  Returns 0 with out filled (out->n may be 0: infeasible, with
 * notes saying why).  Caller releases out with solver_result_release.
 */
int solver_run(const struct solver_input *in, const struct need *need,
	       struct solver_result *out);
void solver_result_release(struct solver_result *r);

/*
 * The widest set solver_run considers: max_stripe, capped by the
 * instance's MaximumEbsAttachments less its root volume when known.
 * solver_run notes the cap when it binds; an instance that is not
 * EBS-optimizable (no EBS limit published) leaves every option's fit
 * FIT_UNCHECKED, with a note saying why.
 */
long solver_max_stripe(const struct solver_input *in);

/* How the need fits through an instance's EBS limits. */
enum instance_fit solver_instance_fit(const struct instance_limits *inst,
				      double iops, double mibps);

/*
 * The cheapest sustained set of exactly k volumes of one type, or 0 when
 * none exists (reason in why, whylen bytes).  Exposed for tests.
 */
int solver_best_of_type(const struct volume_limits *lim,
			const struct type_prices *p, const struct need *need,
			long k, struct candidate *out, char *why,
			size_t whylen);

/* Does cfg (count volumes) sustain need at baseline?  Independent check. */
int solver_meets(const struct vol_config *cfg, const struct need *need);

#endif
