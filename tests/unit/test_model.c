/*
 * test_model.c - cost, performance and legality against values worked out
 * by hand from ebs-facts.md (T2, T3, T4, T5, T6) and the published cost
 * figures of seed-benchmarks.md A and B.  Prices come from the embedded
 * snapshot through a real SQLite database, so the seed data is checked too.
 */
#include <string.h>

#include "test.h"
#include "ebsize/db.h"
#include "ebsize/err.h"
#include "ebsize/model.h"

struct cost_case {
	const char *region;
	enum vol_type type;
	long size_gib, iops, mibps, count;
	double io_per_month;
	double want_total; /* USD per month, computed by hand from T6 */
	const char *why;   /* the hand computation */
};

static const struct cost_case cost_cases[] = {
	{ "us-east-1", VT_GP3, 100, 0, 0, 1, 0, 8.00, "100 x 0.08" },
	{ "us-east-1", VT_GP3, 1000, 10000, 500, 1, 0, 130.00,
	  "1000 x 0.08 + 7000 x 0.005 + 375 x 0.04" },
	{ "ap-northeast-2", VT_GP3, 100, 6000, 0, 1, 0, 26.22,
	  "9.12 + 3000 x 0.0057 (article A: $26.22)" },
	{ "ap-northeast-2", VT_GP3, 100, 0, 250, 1, 0, 14.82,
	  "9.12 + 125 x 0.0456 (article A: $14.82)" },
	{ "ap-northeast-2", VT_GP2, 100, 0, 0, 1, 0, 11.40,
	  "article A: $11.40" },
	{ "ap-northeast-2", VT_GP2, 1000, 0, 0, 1, 0, 114.00,
	  "article A: $114.00" },
	{ "ap-northeast-1", VT_GP3, 65536, 80000, 2000, 1, 0, 6843.456,
	  "65536 x 0.096 + 77000 x 0.006 + 1875 x 0.048 (article B: $6,843.46)" },
	{ "us-east-1", VT_IO2, 100, 20000, 0, 1, 0, 1312.50,
	  "12.5 + 20000 x 0.065 (tier 1 only)" },
	{ "us-east-1", VT_IO2, 100, 64000, 0, 1, 0, 3548.50,
	  "12.5 + 32000 x 0.065 + 32000 x 0.0455 (tiers 1-2)" },
	{ "us-east-1", VT_IO2, 200, 100000, 0, 1, 0, 4707.60,
	  "25 + 2080 + 1456 + 36000 x 0.03185 (all tiers)" },
	{ "eu-central-1", VT_IO2, 500, 40000, 0, 1, 0, 3007.30,
	  "74.5 + 32000 x 0.078 + 8000 x 0.0546" },
	{ "eu-central-1", VT_IO2, 32, 32000, 0, 1, 0, 2500.768,
	  "32 x 0.149 + 32000 x 0.078 (tier 1 boundary)" },
	{ "eu-central-1", VT_IO2, 33, 32001, 0, 1, 0, 2500.9716,
	  "33 x 0.149 + 2496 + 1 x 0.0546 (first tier-2 IOPS)" },
	{ "eu-west-1", VT_IO1, 500, 10000, 0, 1, 0, 789.00,
	  "500 x 0.138 + 10000 x 0.072" },
	{ "ap-northeast-1", VT_IO1, 1280, 64000, 0, 1, 0, 4917.76,
	  "1280 x 0.142 + 64000 x 0.074" },
	{ "eu-west-1", VT_GP2, 100, 0, 0, 1, 0, 11.00, "100 x 0.11" },
	{ "eu-west-1", VT_GP2, 170, 0, 0, 1, 0, 18.70, "170 x 0.11" },
	{ "eu-west-1", VT_GP2, 171, 0, 0, 1, 0, 18.81, "171 x 0.11" },
	{ "eu-west-1", VT_GP2, 334, 0, 0, 1, 0, 36.74, "334 x 0.11" },
	{ "eu-west-1", VT_ST1, 125, 0, 0, 1, 0, 6.25, "125 x 0.05" },
	{ "eu-west-1", VT_SC1, 125, 0, 0, 1, 0, 2.10, "125 x 0.0168" },
	{ "ap-northeast-2", VT_SC1, 500, 0, 0, 1, 0, 8.70, "500 x 0.0174" },
	{ "ap-northeast-1", VT_ST1, 2048, 0, 0, 1, 0, 110.592, "2048 x 0.054" },
	{ "ap-southeast-1", VT_STANDARD, 100, 0, 0, 1, 10e6, 8.80,
	  "100 x 0.08 + 10 x 0.08 per million I/O" },
	{ "us-east-1", VT_STANDARD, 8, 0, 0, 1, 0, 0.40, "8 x 0.05" },
	{ "us-west-2", VT_GP3, 500, 16000, 1000, 2, 0, 280.00,
	  "2 x (40 + 13000 x 0.005 + 875 x 0.04)" },
	{ "eu-central-1", VT_GP3, 200, 3000, 125, 1, 0, 19.04, "200 x 0.0952" },
};

static void test_costs(void)
{
	struct db *db = test_db();
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < sizeof(cost_cases) / sizeof(*cost_cases); i++) {
		const struct cost_case *c = &cost_cases[i];
		struct vol_config cfg = {
			c->type,  c->size_gib, c->iops,
			c->mibps, c->count,    c->io_per_month
		};
		struct volume_limits lim;
		struct price_set ps;
		struct cost cost;
		char desc[200];

		snprintf(desc, sizeof(desc), "cost %s %s %ld GiB: %s",
			 c->region, model_type_name(c->type), c->size_gib,
			 c->why);
		if (db_load_prices(db, c->region, NULL, &ps, err) ||
		    db_load_limits(db, c->type, NULL, &lim, err)) {
			CHECK(0, "%s: %s", desc, err);
			continue;
		}
		model_apply_defaults(&lim, &cfg);
		CHECK(model_validate(&lim, &cfg, NULL, NULL, 0) == 0,
		      "%s: legal", desc);
		CHECK(model_cost(&ps.type[c->type], &cfg, &cost) == 0,
		      "%s: priced", desc);
		CHECK_NEAR(cost.total, c->want_total, 0.005, desc);
		CHECK_NEAR(cost.storage + cost.iops + cost.throughput + cost.io,
			   cost.total, 1e-9, "items add up to the total");
	}
}

/* gp2 rows of the AWS burst table (T2): size, baseline, burst s, refill s */
static const struct {
	double size, baseline, burst_s, refill_s;
} gp2_table[] = {
	{ 1, 100, 1862, 54000 },    { 33, 100, 1862, 54000 },
	{ 50, 150, 1895, 36000 },   { 100, 300, 2000, 18000 },
	{ 200, 600, 2250, 9000 },   { 334, 1002, 2703, 5389 },
	{ 500, 1500, 3600, 3600 },  { 750, 2250, 7200, 2400 },
	{ 900, 2700, 18000, 2000 },
};

static void test_gp2_perf(void)
{
	for (size_t i = 0; i < sizeof(gp2_table) / sizeof(*gp2_table); i++) {
		struct vol_config cfg = { VT_GP2, (long)gp2_table[i].size,
					  0,	  0,
					  1,	  0 };
		struct perf pf;
		char d[80];

		model_perf(&cfg, &pf);
		snprintf(d, sizeof(d), "gp2 %g GiB baseline (T2)",
			 gp2_table[i].size);
		CHECK_NEAR(pf.baseline_iops, gp2_table[i].baseline, 0, d);
		snprintf(d, sizeof(d), "gp2 %g GiB burst seconds (T2, rounded)",
			 gp2_table[i].size);
		CHECK_NEAR(pf.burst_seconds, gp2_table[i].burst_s, 0.5, d);
		snprintf(d, sizeof(d), "gp2 %g GiB refill seconds (T2)",
			 gp2_table[i].size);
		CHECK_NEAR(pf.bucket / pf.baseline_iops, gp2_table[i].refill_s,
			   0.5, d);
	}
	/* throughput bands (T2): <=170 128; 170-334 250 burst / 128 base; >=334 250 */
	{
		struct {
			long size;
			double base, burst;
		} band[] = {
			{ 100, 75, 128 }, /* baseline 300 IOPS x 256 KiB = 75 MiB/s */
			{ 170, 127.5, 128 }, { 171, 128, 250 },
			{ 333, 128, 250 },   { 334, 250, 250 },
			{ 1000, 250, 250 },
		};
		for (size_t i = 0; i < sizeof(band) / sizeof(*band); i++) {
			struct vol_config cfg = { VT_GP2, band[i].size, 0, 0, 1,
						  0 };
			struct perf pf;
			char d[80];

			model_perf(&cfg, &pf);
			snprintf(d, sizeof(d), "gp2 %ld GiB sustained MiB/s",
				 band[i].size);
			CHECK_NEAR(pf.baseline_mibps, band[i].base, 1e-9, d);
			snprintf(d, sizeof(d), "gp2 %ld GiB max MiB/s",
				 band[i].size);
			CHECK_NEAR(pf.burst_mibps, band[i].burst, 1e-9, d);
		}
	}
	{
		struct vol_config cfg = { VT_GP2, 1000, 0, 0, 1, 0 };
		struct perf pf;

		model_perf(&cfg, &pf);
		CHECK(pf.burst_seconds == 0 && pf.burst_iops == 3000,
		      "gp2 1000 GiB has no burst: baseline 3000 = ceiling");
	}
}

/* st1/sc1 rows of T5: size TiB, st1 base, st1 burst, sc1 base, sc1 burst */
static void test_hdd_perf(void)
{
	static const double t5[][5] = {
		{ 0.125, 5, 31.25, 1.5, 10 }, { 0.5, 20, 125, 6, 40 },
		{ 1, 40, 250, 12, 80 },	      { 2, 80, 500, 24, 160 },
		{ 3, 120, 500, 36, 240 },     { 4, 160, 500, 48, 250 },
		{ 8, 320, 500, 96, 250 },     { 12.5, 500, 500, 150, 250 },
		{ 16, 500, 500, 192, 250 },
	};

	for (size_t i = 0; i < sizeof(t5) / sizeof(*t5); i++) {
		double gib = t5[i][0] * 1024;
		char d[80];

		snprintf(d, sizeof(d), "st1 %g TiB base/burst (T5)", t5[i][0]);
		CHECK_NEAR(model_hdd_baseline_mibps(VT_ST1, gib), t5[i][1],
			   1e-9, d);
		CHECK_NEAR(model_hdd_burst_mibps(VT_ST1, gib), t5[i][2], 1e-9,
			   d);
		snprintf(d, sizeof(d), "sc1 %g TiB base/burst (T5)", t5[i][0]);
		CHECK_NEAR(model_hdd_baseline_mibps(VT_SC1, gib), t5[i][3],
			   1e-9, d);
		CHECK_NEAR(model_hdd_burst_mibps(VT_SC1, gib), t5[i][4], 1e-9,
			   d);
	}
}

static void test_piops_throughput(void)
{
	CHECK_NEAR(model_piops_max_mibps(VT_IO1, 32000), 500, 1e-9,
		   "io1 32k IOPS: 500 MiB/s (T4)");
	CHECK_NEAR(model_piops_max_mibps(VT_IO1, 64000), 1000, 1e-9,
		   "io1 64k IOPS: 1000 MiB/s (T4)");
	CHECK_NEAR(model_piops_max_mibps(VT_IO1, 1000), 250, 1e-9,
		   "io1 1000 IOPS x 256 KiB");
	CHECK_NEAR(model_piops_max_mibps(VT_IO2, 10000), 2560, 1e-9,
		   "io2 0.256 MiB/s per IOPS (T4)");
	CHECK_NEAR(model_piops_max_mibps(VT_IO2, 256000), 4000, 1e-9,
		   "io2 cap 4000 MiB/s (T4)");
}

struct legal_case {
	enum vol_type type;
	const char *as_of;
	long size, iops, mibps;
	int legal;
	long near_size, near_iops, near_mibps;
	const char *rule; /* a fragment of the message */
};

static const struct legal_case legal_cases[] = {
	{ VT_GP3, NULL, 10, 6000, 125, 0, 12, 6000, 125, "500 IOPS per GiB" },
	{ VT_GP3, NULL, 100, 3000, 1000, 0, 100, 4000, 1000,
	  "0.25 MiB/s per provisioned IOPS" },
	{ VT_GP3, NULL, 100, 3000, 2500, 0, 100, 8000, 2000,
	  "125 to 2000 MiB/s" },
	{ VT_GP3, NULL, 70000, 3000, 125, 0, 65536, 3000, 125,
	  "1 to 65536 GiB" },
	{ VT_GP3, NULL, 200, 90000, 125, 0, 200, 80000, 125, "3000 to 80000" },
	{ VT_GP3, NULL, 100, 2000, 125, 0, 100, 3000, 125, "3000 to 80000" },
	{ VT_GP3, NULL, 160, 80000, 2000, 1, 160, 80000, 2000, "" },
	{ VT_GP3, NULL, 1, 3000, 125, 1, 1, 3000, 125,
	  "" }, /* T3: max(3000, 500 x GiB) */
	{ VT_GP3, NULL, 6, 3001, 125, 0, 7, 3001, 125,
	  "3001 IOPS need at least 7 GiB" },
	{ VT_GP3, "2024-06-01", 100, 20000, 125, 0, 100, 16000, 125,
	  "3000 to 16000" },
	{ VT_GP3, "2024-06-01", 20000, 3000, 125, 0, 16384, 3000, 125,
	  "1 to 16384 GiB" },
	{ VT_IO1, NULL, 100, 6000, 0, 0, 120, 6000, 0, "50 IOPS per GiB" },
	{ VT_IO1, NULL, 2000, 70000, 0, 0, 2000, 64000, 0, "100 to 64000" },
	{ VT_IO2, NULL, 10, 20000, 0, 0, 20, 20000, 0, "1000 IOPS per GiB" },
	{ VT_IO2, NULL, 2, 100, 0, 0, 4, 100, 0, "4 to 65536 GiB" },
	{ VT_ST1, NULL, 100, 0, 0, 0, 125, 0, 0, "125 to 16384 GiB" },
	{ VT_SC1, NULL, 20000, 0, 0, 0, 16384, 0, 0, "125 to 16384 GiB" },
	{ VT_STANDARD, NULL, 2048, 0, 0, 0, 1024, 0, 0, "1 to 1024 GiB" },
	{ VT_GP2, NULL, 100, 6000, 0, 0, 2000, 0, 0,
	  "IOPS cannot be provisioned on gp2" },
	{ VT_ST1, NULL, 500, 0, 250, 0, 500, 0, 0,
	  "throughput cannot be provisioned on st1" },
	{ VT_GP2, NULL, 16384, 0, 0, 1, 16384, 0, 0, "" },
};

static void test_legality(void)
{
	struct db *db = test_db();
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < sizeof(legal_cases) / sizeof(*legal_cases);
	     i++) {
		const struct legal_case *c = &legal_cases[i];
		struct vol_config cfg = { c->type,  c->size, c->iops,
					  c->mibps, 1,	     0 };
		struct vol_config near;
		struct volume_limits lim;
		char why[256] = "", d[200];
		int rc;

		if (db_load_limits(db, c->type, c->as_of, &lim, err)) {
			CHECK(0, "limits: %s", err);
			continue;
		}
		rc = model_validate(&lim, &cfg, &near, why, sizeof(why));
		snprintf(d, sizeof(d), "%s %ld GiB %ld IOPS %ld MiB/s%s%s",
			 model_type_name(c->type), c->size, c->iops, c->mibps,
			 c->as_of ? " as of " : "", c->as_of ? c->as_of : "");
		CHECK((rc == 0) == c->legal, "%s: %s", d,
		      c->legal ? "legal" : "illegal");
		CHECK(strstr(why, c->rule) != NULL, "%s: rule '%s' in '%s'", d,
		      c->rule, why);
		CHECK(near.size_gib == c->near_size &&
			  near.iops == c->near_iops &&
			  near.throughput_mibps == c->near_mibps,
		      "%s: nearest %ld/%ld/%ld, want %ld/%ld/%ld", d,
		      near.size_gib, near.iops, near.throughput_mibps,
		      c->near_size, c->near_iops, c->near_mibps);
		CHECK(model_validate(&lim, &near, NULL, NULL, 0) == 0,
		      "%s: nearest is legal", d);
	}
}

/*
 * Issue 10 items 1 and 2: IOPS per size (T3: the ratio binds only above
 * the type's minimum), the legal gp3 for a need, and io2's 0.256 MiB/s
 * per IOPS (T4) in every direction.
 */
static void test_edges(void)
{
	struct volume_limits gp3 = { .type = VT_GP3,
				     .min_size_gib = 1,
				     .max_size_gib = 65536,
				     .min_iops = 3000,
				     .max_iops = 80000,
				     .max_iops_per_gib = 500,
				     .min_mibps = 125,
				     .max_mibps = 2000,
				     .max_mibps_per_iops = 0.25,
				     .included_iops = 3000,
				     .included_mibps = 125 };
	struct volume_limits io1 = { .type = VT_IO1,
				     .min_size_gib = 4,
				     .max_size_gib = 16384,
				     .min_iops = 100,
				     .max_iops = 64000,
				     .max_iops_per_gib = 50 };
	struct vol_config c;

	CHECK(model_max_iops_for_size(&gp3, 1) == 3000,
	      "gp3 1 GiB: 3,000 IOPS (not 500)");
	CHECK(model_max_iops_for_size(&gp3, 7) == 3500,
	      "gp3 7 GiB: 500 x 7 = 3,500");
	CHECK(model_max_iops_for_size(&gp3, 200) == 80000,
	      "gp3 200 GiB: capped 80,000");
	CHECK(model_max_iops_for_size(&io1, 4) == 200,
	      "io1 4 GiB: 50 x 4 = 200");
	CHECK(model_min_size_for_iops(&gp3, 3000) == 1, "3,000 IOPS: 1 GiB");
	CHECK(model_min_size_for_iops(&gp3, 80000) == 160,
	      "80,000 IOPS: 160 GiB (T3)");
	CHECK(model_min_size_for_iops(&io1, 64000) == 1280,
	      "io1 64,000 IOPS: 1,280 GiB (T4)");
	/* 1 GiB need, 100 IOPS, 10 MiB/s: gp3 1 GiB 3,000 / 125 */
	CHECK(model_gp3_for_need(&gp3, 1, 100, 10, &c) == MODEL_FIT_OK &&
		  c.size_gib == 1 && c.iops == 3000 &&
		  c.throughput_mibps == 125,
	      "gp3 for a tiny need: 1 GiB 3000/125");
	/* 1,000 MiB/s need 4,000 IOPS, 8 GiB */
	CHECK(model_gp3_for_need(&gp3, 1, 0, 1000, &c) == MODEL_FIT_OK &&
		  c.size_gib == 8 && c.iops == 4000,
	      "1,000 MiB/s: 4,000 IOPS on 8 GiB (%ld, %ld)", c.size_gib,
	      c.iops);
	CHECK(model_gp3_for_need(&gp3, 1, 90000, 0, &c) == MODEL_FIT_PERF,
	      "90,000 IOPS: no gp3");
	CHECK(model_gp3_for_need(&gp3, 70000, 0, 0, &c) == MODEL_FIT_SIZE,
	      "70,000 GiB: no gp3");
	/* T4: 2,300 MiB/s / 0.256 = 8,984.375 -> 8,985 */
	CHECK_NEAR(model_piops_iops_for_mibps(VT_IO2, 2300), 8985, 0,
		   "io2 IOPS for 2,300 MiB/s");
	CHECK_NEAR(model_piops_iops_for_mibps(VT_IO2, 4001), -1, 0,
		   "io2 above 4,000 MiB/s");
	CHECK_NEAR(model_piops_iops_for_mibps(VT_IO1, 500), 2000, 0,
		   "io1 500 MiB/s: 2,000 IOPS");
	CHECK_NEAR(model_piops_iops_for_mibps(VT_IO1, 600), 38400, 0,
		   "io1 600 MiB/s: 16 KiB per IOPS");
	/* 2,300 I/O of 1 MiB: io2 8,984.375 IOPS, gp3/io1 4 x 2,300 (T1 [S5]) */
	CHECK_NEAR(model_ssd_iops_for(VT_IO2, 2300, 1024), 8984.375, 1e-9,
		   "io2 counts MiB/s / 0.256");
	CHECK_NEAR(model_ssd_iops_for(VT_GP3, 2300, 1024), 9200, 1e-9,
		   "gp3 counts 256 KiB units");
	CHECK_NEAR(model_ssd_iops_for(VT_IO2, 2300, 16), 2300, 1e-9,
		   "small I/O: one op each");
	CHECK_NEAR(model_gp3_mibps_short(100, 125), 3, 1e-9,
		   "gp3 125 vs gp2 100 GiB: 3 MiB/s short");
	CHECK_NEAR(model_gp3_mibps_short(500, 250), 0, 1e-9,
		   "gp3 250 vs gp2 500 GiB: not short");
}

void test_model(void)
{
	test_edges();
	test_costs();
	test_gp2_perf();
	test_hdd_perf();
	test_piops_throughput();
	test_legality();
}
