/*
 * test_burst.c - the credit-bucket simulator reproduces every row of the
 * AWS gp2 burst table (ebs-facts.md T2), the article's post-idle averages
 * (seed-benchmarks.md A: 601 after 120 s idle, 603 after 60 s, modelled
 * 600), the HDD scan times of T5, and parses profiles strictly.
 */
#include <string.h>

#include "test.h"
#include "ebsize/burst.h"
#include "ebsize/err.h"

static void test_t2_table(void)
{
	/* size, burst seconds at 3,000 IOPS from full, refill from empty (T2) */
	static const double rows[][3] = {
		{ 1, 1862, 54000 },   { 33, 1862, 54000 }, { 50, 1895, 36000 },
		{ 100, 2000, 18000 }, { 200, 2250, 9000 }, { 334, 2703, 5389 },
		{ 500, 3600, 3600 },  { 750, 7200, 2400 }, { 900, 18000, 2000 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		struct bucket b;
		struct burst_step st = { 3000, 30000 };
		struct burst_profile p = { &st, 1, 1 };
		struct burst_result r;
		char d[96];

		burst_bucket(VT_GP2, rows[i][0], &b);
		burst_simulate(&b, &p, b.capacity, NULL, NULL, &r);
		snprintf(
		    d, sizeof(d),
		    "gp2 %g GiB at 3,000 IOPS: bucket empty after ~%g s (T2)",
		    rows[i][0], rows[i][1]);
		/* the table rounds; the simulator counts whole seconds */
		CHECK_NEAR((double)r.time_to_empty_s, rows[i][1], 1.0, d);
		st.rate = 0;
		st.seconds = 60000;
		burst_simulate(&b, &p, 0, NULL, NULL, &r);
		snprintf(d, sizeof(d),
			 "gp2 %g GiB refills from empty in ~%g s (T2)",
			 rows[i][0], rows[i][2]);
		CHECK_NEAR(5400000.0 / b.baseline, rows[i][2], 0.5, d);
		CHECK(r.end_credits == b.capacity,
		      "%s: full after 60,000 idle s", d);
	}
	{
		struct bucket b;
		struct burst_step st = { 3000, 100000 };
		struct burst_profile p = { &st, 1, 1 };
		struct burst_result r;

		burst_bucket(VT_GP2, 1000, &b);
		burst_simulate(&b, &p, b.capacity, NULL, NULL, &r);
		CHECK(r.time_to_empty_s < 0 && r.average_delivered == 3000,
		      "gp2 1,000 GiB: baseline 3,000, never runs dry (T2)");
	}
}

static void test_article_idle(void)
{
	/* seed-benchmarks.md A: after the cliff the bucket is empty; T idle
	 * seconds earn 300 T credits, spent over a test of T seconds at
	 * qd32: 300 + 300 = 600 modelled (601 and 603 measured) */
	static const struct {
		long idle;
		double measured;
	} cases[] = {
		{ 120, 601 },
		{ 60, 603 },
	};

	for (size_t i = 0; i < 2; i++) {
		struct bucket b;
		struct burst_step st = { 3000, cases[i].idle };
		struct burst_profile p = { &st, 1, 1 };
		struct burst_result r;
		char d[128];

		burst_bucket(VT_GP2, 100, &b);
		burst_simulate(&b, &p, b.baseline * (double)cases[i].idle, NULL,
			       NULL, &r);
		snprintf(d, sizeof(d),
			 "gp2 100 GiB after %ld s idle: modelled 600 IOPS",
			 cases[i].idle);
		CHECK_NEAR(r.average_delivered, 600, 1e-9, d);
		snprintf(d, sizeof(d),
			 "... within 1 %% of the article's measured %g",
			 cases[i].measured);
		CHECK_NEAR(r.average_delivered, cases[i].measured,
			   cases[i].measured * 0.01, d);
	}
}

static void test_hdd_scan_times(void)
{
	/* T5: full-volume scan with a full bucket, hours */
	static const struct {
		enum vol_type t;
		double tib, hours;
	} rows[] = {
		{ VT_ST1, 1, 1.17 }, { VT_ST1, 5, 2.91 }, { VT_ST1, 16, 9.32 },
		{ VT_SC1, 1, 3.64 }, { VT_SC1, 5, 5.83 }, { VT_SC1, 16, 18.64 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		struct bucket b;
		struct burst_step st = { 1e6, 200000 };
		struct burst_profile p = { &st, 1, 1 };
		double credits, read = 0, vol = rows[i].tib * 1048576.0;
		long t = 0;
		char d[96];

		burst_bucket(rows[i].t, rows[i].tib * 1024, &b);
		credits = b.capacity;
		(void)p;
		/* read as fast as the bucket allows until the volume is read */
		while (read < vol) {
			double got = credits > 0 ? b.ceiling : b.baseline;
			double spend = got - b.baseline;

			if (credits < spend) {
				got = b.baseline + credits;
				spend = credits;
			}
			credits -= spend;
			read += got;
			t++;
		}
		snprintf(d, sizeof(d), "%s %g TiB full scan ~%g h (T5)",
			 model_type_name(rows[i].t), rows[i].tib,
			 rows[i].hours);
		CHECK_NEAR((double)t / 3600.0, rows[i].hours, 0.006, d);
	}
}

static void test_profiles(void)
{
	struct burst_profile p;
	char err[EBS_ERRLEN];
	struct bucket b;
	struct burst_result r;
	double start;
	long k;

	CHECK(burst_profile_parse(
		  "# nightly\n3000 600  # batch\nidle 3000\nrepeat 24\n", &p,
		  err) == 0 &&
		  p.n == 2 && p.repeat == 24 &&
		  burst_profile_seconds(&p) == 3600,
	      "profile: steps, idle, comments, repeat");
	/* 100 GiB, hourly: 600 s at 3,000 IOPS would spend 2,700 x 600 =
	 * 1.62 M credits, the idle 3,000 s earn 300 x 3,000 = 0.9 M, so a full
	 * bucket drains 0.72 M an hour until the peaks run short */
	burst_bucket(VT_GP2, 100, &b);
	k = burst_steady_state(&b, &p, b.capacity, 1000, &r, &start);
	/* at period start C <= 1.62 M: the peak spends all of it, the idle
	 * hour earns 300 x 3,000 = 0.9 M: the steady start is 0.9 M */
	CHECK(k > 0, "steady state reached (%ld periods)", k);
	CHECK_NEAR(start, 900000, 1,
		   "steady credits at period start = 300 x 3,000 idle s");
	/* steady: credits earned in 3,000 idle s = 900 k, spent in the peak:
	 * average = (300 x 600 + 900 k + 0 x 3000) / 3600 = 300 */
	CHECK_NEAR(
	    r.average_delivered, (300.0 * 600 + 900000) / 3600, 1e-6,
	    "steady average = (baseline x peak + credits earned idle) / period");
	burst_profile_release(&p);

	CHECK(burst_profile_parse("3000\n", &p, err) != 0 &&
		  strstr(err, "line 1") != NULL,
	      "profile: a step without seconds names line 1: %s", err);
	CHECK(burst_profile_parse("fast 10\n", &p, err) != 0 &&
		  strstr(err, "'fast' is not a rate") != NULL,
	      "profile: bad rate: %s", err);
	CHECK(burst_profile_parse("100 10\nrepeat 0\n", &p, err) != 0 &&
		  strstr(err, "line 2") != NULL,
	      "profile: repeat 0 refused: %s", err);
	CHECK(burst_profile_parse("# nothing\n", &p, err) != 0,
	      "profile: no steps refused");
	CHECK(burst_profile_parse("100 -5\n", &p, err) != 0,
	      "profile: negative seconds refused");
}

void test_burst(void)
{
	test_t2_table();
	test_article_idle();
	test_hdd_scan_times();
	test_profiles();
}
