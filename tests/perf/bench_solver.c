/*
 * bench_solver.c - solver time for many generated requests (generated test
 * data, fixed seed) in one process, prices and rules loaded once from a
 * real database.  Usage: bench-solver DB N.  Prints requests/s.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ebsize/db.h"
#include "ebsize/err.h"
#include "ebsize/solver.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static double urand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	struct solver_input in = { .max_stripe = 8 };
	struct timespec a, b;
	struct db *db;
	char err[EBS_ERRLEN];
	long n = argc > 2 ? atol(argv[2]) : 10000;  /* bench tool: trusted arg */
	size_t options = 0;
	double secs;

	if (argc < 2 || db_open(argv[1], 0, &db, err) ||
	    db_load_prices(db, "us-east-1", NULL, &ps, err)) {
		fprintf(stderr, "usage: bench-solver DB [N] (%s)\n", argc < 2 ? "" : err);
		return 2;
	}
	for (int t = 0; t < VT_COUNT; t++) {
		if (t == VT_STANDARD || db_load_limits(db, (enum vol_type)t, NULL, &lim[t], err))
			continue;
		in.lim[t] = &lim[t];
		in.prices[t] = &ps.type[t];
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		struct need nd = { floor(exp(log(100) + urand() * log(1500))),
				   urand() < 0.5 ? 0 : floor(10 + urand() * 2000),
				   urand() < 0.3 ? 0 : floor(1 + urand() * 20000), 16, 0, 0, 0 };
		struct solver_result r;

		solver_run(&in, &nd, &r);
		options += r.n;
		solver_result_release(&r);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("solver: %ld requests in %.3f s = %.1f us/request (%zu options)\n",
	       n, secs, secs / (double)n * 1e6, options);
	db_close(db);
	return 0;
}
