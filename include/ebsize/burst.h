/*
 * burst.h - second-by-second simulation of the EBS credit buckets: gp2 I/O
 * credits (ebs-facts.md T2) and st1/sc1 throughput credits (T5).  Pure:
 * no I/O, no globals.  Rates are IOPS for gp2 and MiB/s for st1/sc1.
 */
#ifndef EBSIZE_BURST_H
#define EBSIZE_BURST_H

#include <stddef.h>

#include "ebsize/model.h"

/* The bucket of one volume. */
struct bucket {
	enum vol_type type;
	double size_gib;
	double baseline; /* earn rate and sustained rate */
	double ceiling;	 /* burst rate while credits last */
	double capacity; /* credits when full */
};

/* Fill b for a gp2, st1 or sc1 volume; -1 for other types. */
int burst_bucket(enum vol_type type, double size_gib, struct bucket *b);

/* One step of a load profile: demand `rate` for `seconds`. */
struct burst_step {
	double rate;
	long seconds;
};

struct burst_profile {
	struct burst_step *steps;
	size_t n;
	long repeat; /* run the steps this many times (>= 1) */
};

/*
 * Parse a profile: one step per line, "RATE SECONDS" or "idle SECONDS",
 * '#' starts a comment, and an optional "repeat N" line.  Returns 0, or -1
 * with a message naming the line in err (EBS_ERRLEN).  Caller frees
 * p->steps (burst_profile_release).
 */
int burst_profile_parse(const char *text, struct burst_profile *p, char *err);
void burst_profile_release(struct burst_profile *p);
/* Total seconds of one repetition. */
long burst_profile_seconds(const struct burst_profile *p);

/* Called once per simulated second when a timeline is wanted. */
typedef void (*burst_sample_fn)(long t, double demand, double delivered,
				double credits, void *arg);

struct burst_result {
	long seconds;	      /* simulated */
	long time_to_empty_s; /* first second the bucket ran dry under
				    * demand above baseline; -1 if never */
	double average_delivered;
	double min_delivered;
	double average_demand;
	double start_credits;
	double end_credits;
	double min_credits;
	double refill_seconds;	/* from end_credits to full at zero I/O */
	long shortfall_seconds; /* seconds delivered < demand */
};

/*
 * Simulate profile p (all repetitions) from `credits`.  Each second:
 * demand at or below baseline earns (baseline - demand) credits up to the
 * capacity; above it, the volume delivers up to the ceiling while credits
 * pay for (delivered - baseline).  fn (may be NULL) sees every second.
 */
void burst_simulate(const struct bucket *b, const struct burst_profile *p,
		    double credits, burst_sample_fn fn, void *arg,
		    struct burst_result *out);

/*
 * Repeat the profile until the credits at the start of a repetition stop
 * changing, for at most max_periods repetitions and BURST_MAX_TICKS
 * simulated seconds in all.  Returns the periods needed (-1 if it did not
 * settle within the budget) and the result of the last repetition in out.
 */
#define BURST_MAX_TICKS 50000000L
long burst_steady_state(const struct bucket *b, const struct burst_profile *p,
			double credits, long max_periods,
			struct burst_result *out, double *steady_credits);

#endif
