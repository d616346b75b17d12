/*
 * test_scan.c - the inventory scan: model rules for gp2 -> gp3 (worked by
 * hand from ebs-facts.md T2, T3, T15), scan_analyze against hand-computed
 * savings with the embedded prices (T6, via a real SQLite database), the
 * streaming describe-volumes walker, kubectl quantities, CloudWatch series
 * alignment, the usage CSV, on-demand output rows and the commands.
 * Every volume id and value here is generated test data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "ebsize/db.h"
#include "ebsize/err.h"
#include "ebsize/inventory.h"
#include "ebsize/model.h"
#include "ebsize/out.h"
#include "ebsize/scan.h"
#include "ebsize/util.h"
#include "ebsize/strmap.h"

/* ------------------------------------------------------------ model */

static void test_gp3_like_gp2(void)
{
	static const struct {
		long size, iops, mibps;
	} cases[] = {
		{ 8, 3000, 125 },   /* burst ceiling 3,000 -> included */
		{ 170, 3000, 125 }, /* T2: 128 MiB/s up to 170 GiB */
		{ 171, 3000, 250 }, /* above 170 GiB: 250 */
		{ 999, 3000, 250 },
		{ 1000, 3000, 250 },  /* baseline = 3,000 */
		{ 2000, 6000, 250 },  /* the downgrade trap */
		{ 5334, 16000, 250 }, /* baseline cap 16,000 */
		{ 16384, 16000, 250 },
	};
	struct volume_limits gp3 = { .type = VT_GP3,
				     .included_iops = 3000,
				     .included_mibps = 125 };
	struct vol_config c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		model_gp3_like_gp2(&gp3, cases[i].size, &c);
		CHECK(
		    c.type == VT_GP3 && c.size_gib == cases[i].size &&
			c.iops == cases[i].iops &&
			c.throughput_mibps == cases[i].mibps,
		    "gp3 like gp2 %ld GiB: %ld IOPS %ld MiB/s (want %ld, %ld)",
		    cases[i].size, c.iops, c.throughput_mibps, cases[i].iops,
		    cases[i].mibps);
	}
}

static void test_sized_for_iops(void)
{
	static const struct {
		long size;
		int want;
		long target;
	} cases[] = {
		{ 1000, 1, 3000 },
		{ 1334, 1, 4000 },
		{ 1667, 1, 5000 },
		{ 2000, 1, 6000 },
		{ 3334, 1, 10000 },
		{ 5334, 1, 16000 },
		{ 999, 0, 0 },
		{ 1001, 0, 0 },
		{ 1500, 0, 0 },
		{ 1333, 0, 0 },
		{ 500, 0, 0 }, /* below 1,000 GiB burst covers 3,000 IOPS */
		/* review: 5,667 = ceil(17,000 / 3), but gp2 stops at 16,000
		 * IOPS from 5,334 GiB (T2): a size no IOPS target explains */
		{ 5667, 0, 0 },
		{ 6000, 0, 0 },
		{ 16384, 0, 0 },
	};
	long t;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = 0;
		CHECK(model_gp2_sized_for_iops(cases[i].size, &t) ==
			      cases[i].want &&
			  t == cases[i].target,
		      "gp2 %ld GiB sized for IOPS: %d (%ld)", cases[i].size,
		      cases[i].want, t);
	}
}

static void test_burst_math(void)
{
	/* T2: 100 GiB full bucket at 3,000 IOPS lasts 2,000 s (AWS table) */
	CHECK_NEAR(model_gp2_seconds_to_empty(100, GP2_BUCKET_CREDITS, 3000),
		   2000, 1e-9, "100 GiB bucket at 3,000 IOPS");
	/* T2: 750 GiB: 7,200 s */
	CHECK_NEAR(model_gp2_seconds_to_empty(750, GP2_BUCKET_CREDITS, 3000),
		   7200, 1e-9, "750 GiB bucket at 3,000 IOPS");
	/* load above 3,000 is capped at the burst ceiling */
	CHECK_NEAR(model_gp2_seconds_to_empty(100, GP2_BUCKET_CREDITS, 9000),
		   2000, 1e-9, "load capped at the burst ceiling");
	CHECK(model_gp2_seconds_to_empty(100, GP2_BUCKET_CREDITS, 300) < 0,
	      "load at baseline never empties the bucket");
	CHECK(model_gp2_seconds_to_empty(2000, GP2_BUCKET_CREDITS, 3000) < 0,
	      "2,000 GiB never bursts");
	/* 40 % = 2,160,000 credits at 2,000 IOPS on 300 baseline: 1,270.59 s */
	CHECK_NEAR(
	    model_gp2_seconds_to_empty(100, 0.4 * GP2_BUCKET_CREDITS, 2000),
	    2160000.0 / 1700.0, 1e-9, "40 % bucket at 2,000 IOPS");
	/* issue example: 15 % of a 100 GiB bucket is 5 minutes at 3,000 IOPS */
	CHECK_NEAR(model_gp2_alarm_pct(100, 3000, 300), 15, 0,
		   "alarm 5 min, 100 GiB");
	/* 8 GiB: 300 x 2,900 / 54,000 = 16.1 -> 17 */
	CHECK_NEAR(model_gp2_alarm_pct(8, 3000, 300), 17, 0,
		   "alarm 5 min, 8 GiB");
	/* 10 min at 2,000 IOPS on 100 GiB: 600 x 1,700 / 54,000 = 18.9 -> 19 */
	CHECK_NEAR(model_gp2_alarm_pct(100, 2000, 600), 19, 0,
		   "alarm 10 min, 2,000 IOPS");
	CHECK_NEAR(model_gp2_alarm_pct(100, 200, 300), 0, 0,
		   "no drain, no alarm");
	CHECK_NEAR(model_gp2_alarm_pct(100, 3000, 86400), 100, 0,
		   "alarm capped at 100 %");
}

static void test_gp3_for_load(void)
{
	struct db *db = test_db();
	struct volume_limits gp3;
	struct vol_config c;
	char err[EBS_ERRLEN];

	CHECK(db_load_limits(db, VT_GP3, NULL, &gp3, err) == 0,
	      "gp3 limits load");
	CHECK(model_gp3_for_load(&gp3, 1000, 4800, 120, &c) == 0 &&
		  c.iops == 4800 && c.throughput_mibps == 125,
	      "4,800 IOPS / 120 MiB/s -> 4800 / 125 (%ld, %ld)", c.iops,
	      c.throughput_mibps);
	/* 1,000 MiB/s needs 4,000 IOPS (0.25 MiB/s per IOPS) */
	CHECK(model_gp3_for_load(&gp3, 1000, 100, 1000, &c) == 0 &&
		  c.iops == 4000 && c.throughput_mibps == 1000,
	      "throughput pulls IOPS up to 4,000 (%ld)", c.iops);
	/* 10 GiB carries at most 5,000 IOPS (500 per GiB) */
	CHECK(model_gp3_for_load(&gp3, 10, 9000, 0, &c) == -1 && c.iops == 5000,
	      "10 GiB cannot carry 9,000 IOPS (capped %ld)", c.iops);
	CHECK(model_min_size_for_iops(&gp3, 16000) == 32,
	      "16,000 IOPS need 32 GiB");
	/* T3: max IOPS for a size = max(3,000, 500 x GiB): any gp3 carries
	 * the included 3,000 (issue 10 item 1: not 6 GiB) */
	CHECK(model_min_size_for_iops(&gp3, 3000) == 1,
	      "3,000 IOPS need 1 GiB");
	CHECK(model_min_size_for_iops(&gp3, 3001) == 7,
	      "3,001 IOPS need ceil(3001 / 500) = 7 GiB");
	/* a 4 GiB gp3 carries 3,000 IOPS and 0.25 x 3,000 = 750 MiB/s */
	CHECK(
	    model_gp3_for_load(&gp3, 4, 120, 10, &c) == 0 && c.size_gib == 4 &&
		c.iops == 3000 && c.throughput_mibps == 125,
	    "4 GiB, need 120 IOPS / 10 MiB/s -> gp3 4 GiB 3000 / 125 (%ld, %ld, %ld)",
	    c.size_gib, c.iops, c.throughput_mibps);
	CHECK(model_gp3_for_load(&gp3, 1, 0, 750, &c) == 0 && c.iops == 3000 &&
		  c.throughput_mibps == 750,
	      "1 GiB carries 750 MiB/s on the included 3,000 IOPS");
	CHECK(
	    model_gp3_for_load(&gp3, 1, 0, 751, &c) == -1 && c.iops == 3000 &&
		c.throughput_mibps == 750,
	    "1 GiB cannot carry 751 MiB/s (3,004 IOPS need 7 GiB; capped %ld / %ld)",
	    c.iops, c.throughput_mibps);
}

/* ------------------------------------------------------------ analysis */

struct analyze_case {
	const char *region;
	enum vol_type type;
	long size, iops, mibps;
	int available;
	double used_gib;
	double peak_iops;  /* < 0: no metrics */
	double peak_mibps; /* < 0: no byte metrics */
	int want_rc;
	enum scan_cat cat;
	long p_size, p_iops, p_mibps;
	double save; /* USD per month, by hand from T6 */
	const char *why;
};

static const struct analyze_case analyze_cases[] = {
	{ "us-east-1", VT_GP2, 2000, 0, 0, 0, -1, -1, -1, 1, SCAN_GP2_TO_GP3,
	  2000, 6000, 250, 20.00, "200 - (160 + 15 + 5)" },
	{ "us-east-1", VT_GP2, 100, 0, 0, 0, -1, -1, -1, 1, SCAN_GP2_TO_GP3,
	  100, 3000, 125, 2.00, "10 - 8" },
	{ "us-east-1", VT_GP2, 200, 0, 0, 0, -1, -1, -1, 0, SCAN_GP2_TO_GP3, 0,
	  0, 0, 0, "20 < 16 + 5: no finding" },
	{ "us-east-1", VT_GP2, 250, 0, 0, 0, -1, -1, -1, 0, SCAN_GP2_TO_GP3, 0,
	  0, 0, 0, "25 = 20 + 5: break-even, no finding" },
	{ "us-east-1", VT_GP2, 1000, 0, 0, 0, 83, -1, -1, 1,
	  SCAN_GP2_SIZED_FOR_IOPS, 100, 3000, 250, 87.00, "100 - (8 + 5)" },
	{ "us-east-1", VT_GP2, 1000, 0, 0, 0, 600, -1, -1, 1, SCAN_GP2_TO_GP3,
	  1000, 3000, 250, 15.00, "720 GiB > half: in place, 100 - 85" },
	{ "us-east-1", VT_GP2, 6000, 0, 0, 0, 1, -1, -1, 1,
	  SCAN_GP2_SIZED_FOR_IOPS, 32, 16000, 250, 600 - (2.56 + 65 + 5),
	  "16,000 IOPS need 32 GiB" },
	{ "us-east-1", VT_GP2, 100, 0, 0, 0, -1, 2000, -1, 1,
	  SCAN_GP2_BURST_RISK, 100, 3000, 125, 2.00,
	  "peak 2,000 > 300 baseline" },
	{ "us-east-1", VT_GP2, 100, 0, 0, 1, -1, -1, -1, 1, SCAN_UNATTACHED, 0,
	  0, 0, 10.00, "available: the whole 10.00" },
	{ "eu-west-1", VT_IO1, 500, 10000, 0, 0, -1, 2000, 50, 1,
	  SCAN_OVERPROVISIONED, 500, 3000, 125, 745.00, "789 - 44" },
	{ "eu-west-1", VT_IO1, 500, 10000, 0, 0, -1, -1, -1, 0,
	  SCAN_OVERPROVISIONED, 0, 0, 0, 0,
	  "io2 same price below 32,000 IOPS: nothing" },
	{ "us-east-1", VT_IO1, 800, 40000, 0, 0, -1, -1, -1, 1,
	  SCAN_OVERPROVISIONED, 800, 40000, 0, 156.00,
	  "2700 - 2544 (io2 tier 2)" },
	{ "us-east-1", VT_GP3, 1000, 12000, 500, 0, -1, 4000, 100, 1,
	  SCAN_OVERPROVISIONED, 1000, 4800, 125, 51.00, "140 - 89" },
	{ "us-east-1", VT_GP3, 1000, 3000, 125, 0, -1, 100, 10, 0,
	  SCAN_OVERPROVISIONED, 0, 0, 0, 0, "already at the included minimum" },
	{ "eu-west-1", VT_ST1, 500, 0, 0, 0, -1, -1, -1, 0, SCAN_GP2_TO_GP3, 0,
	  0, 0, 0, "st1: nothing" },
	/* issue 10 item 1: any gp3 carries the included 3,000 IOPS and 0.25
	 * x 3,000 = 750 MiB/s (T3), so small volumes get the same rule */
	{ "us-east-1", VT_IO2, 4, 4000, 0, 0, -1, 100, 5, 1,
	  SCAN_OVERPROVISIONED, 4, 3000, 125, 260.18,
	  "io2 4 GiB 4,000 IOPS = 0.50 + 260 = 260.50; io2 at 120 IOPS would be "
	  "0.50 + 7.80 = 8.30, gp3 4 GiB 0.32: saves 260.18" },
	{ "us-east-1", VT_GP3, 4, 3000, 750, 0, -1, 100, 10, 1,
	  SCAN_OVERPROVISIONED, 4, 3000, 125, 25.00,
	  "gp3 4 GiB 750 MiB/s = 0.32 + 625 x 0.04 = 25.32 -> 0.32: saves 25.00" },
	{ "us-east-1", VT_GP3, 100, 3000, 750, 0, -1, 100, 10, 1,
	  SCAN_OVERPROVISIONED, 100, 3000, 125, 25.00,
	  "the same at 100 GiB: 33.00 -> 8.00" },
	{ "us-east-1", VT_IO1, 4, 200, 0, 0, -1, 100, 5, 1,
	  SCAN_OVERPROVISIONED, 4, 3000, 125, 13.18,
	  "io1 4 GiB 200 IOPS = 0.50 + 13.00 = 13.50 -> gp3 4 GiB 0.32" },
};

static void test_analyze(void)
{
	struct db *db = test_db();
	struct volume_limits lim[VT_COUNT];
	struct scan_opts o = { 20, 0, 300 };
	char err[EBS_ERRLEN];

	for (int t = 0; t < VT_COUNT; t++)
		db_load_limits(db, (enum vol_type)t, NULL, &lim[t], err);
	for (size_t i = 0; i < sizeof(analyze_cases) / sizeof(analyze_cases[0]);
	     i++) {
		const struct analyze_case *c = &analyze_cases[i];
		struct scan_load load = { .period_s = 300 };
		struct scan_volume v = { "vol-0e2e0000000000001",
					 c->region,
					 "x-1a",
					 { c->type, c->size, c->iops, c->mibps,
					   1, 0 },
					 c->available,
					 c->used_gib,
					 NULL,
					 0,
					 0,
					 NULL };
		struct scan_finding f;
		struct price_set ps;
		int rc;

		if (c->peak_iops >= 0) {
			load.have_iops = 1;
			load.peak_iops = c->peak_iops;
			load.have_mibps = c->peak_mibps >= 0;
			load.peak_mibps = c->peak_mibps;
			v.load = &load;
		}
		db_load_prices(db, c->region, NULL, &ps, err);
		model_apply_defaults(&lim[c->type], &v.cfg);
		rc = scan_analyze(&v, &ps, lim, &o, &f, err);
		CHECK(rc == c->want_rc, "analyze %s %s %ld GiB: rc %d (%s)",
		      c->region, model_type_name(c->type), c->size, rc, c->why);
		if (rc != 1 || c->want_rc != 1)
			continue;
		CHECK(f.cat == c->cat, "  category %s (%s)",
		      scan_cat_name(f.cat), c->why);
		CHECK_NEAR(f.save_usd, c->save, 1e-9, c->why);
		if (c->cat != SCAN_UNATTACHED)
			CHECK(f.prop.size_gib == c->p_size &&
				  f.prop.iops == c->p_iops &&
				  f.prop.throughput_mibps == c->p_mibps,
			      "  proposed %ld GiB %ld IOPS %ld MiB/s (%s)",
			      f.prop.size_gib, f.prop.iops,
			      f.prop.throughput_mibps, c->why);
	}
}

/*
 * Issue 10 item 5: a gp2 with BurstBalance but no IOPS metrics.  The load
 * is the baseline plus the fall of the balance, capped at the burst
 * ceiling (a gp2 cannot drain faster than 3,000 minus its baseline), and
 * the cliff and the alarm both use it.
 */
static void test_burst_balance_only(void)
{
	static const struct {
		double first, last;
		long long secs;
		double load, cliff, alarm_pct, alarm_lead;
		const char *why;
	} cases[] = {
		/* 20 % of 5,400,000 in 3,600 s = 300 credits/s: load 300 + 300
		 * = 600 IOPS; 40 % left = 2,160,000 / 300 = 7,200 s; alarm
		 * 300 s x 300 / 54,000 = 1.67 -> 2 %, i.e. 108,000 / 300 = 360 s */
		{ 60, 40, 3600, 600, 7200, 2, 360,
		  "no IOPS metrics: BurstBalance falling 20 % an hour, a load of about 600 IOPS against a 300 IOPS baseline; gp3 at 3000 IOPS sustains it without credits" },
		/* 90 % in 300 s would be 16,200 credits/s: more than 3,000 - 300
		 * = 2,700 can drain, so load 3,000; 10 % = 540,000 / 2,700 =
		 * 200 s (not 540,000 / 16,200 = 33 s); alarm 300 x 2,700 /
		 * 54,000 = 15 %, 810,000 / 2,700 = 300 s */
		{ 100, 10, 300, 3000, 200, 15, 300,
		  "no IOPS metrics: BurstBalance falling 1080 % an hour, a load of about 3000 IOPS against a 300 IOPS baseline; gp3 at 3000 IOPS sustains it without credits" },
	};
	struct db *db = test_db();
	struct volume_limits lim[VT_COUNT];
	struct scan_opts o = { 20, 0, 300 };
	struct price_set ps;
	char err[EBS_ERRLEN], why[320];

	for (int t = 0; t < VT_COUNT; t++)
		db_load_limits(db, (enum vol_type)t, NULL, &lim[t], err);
	db_load_prices(db, "us-east-1", NULL, &ps, err);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scan_load load = { .period_s = 300, .have_burst = 1 };
		struct scan_volume v = { "vol-0e2e0000000000b01",
					 "us-east-1",
					 "x-1a",
					 { VT_GP2, 100, 0, 0, 1, 0 },
					 0,
					 -1,
					 &load,
					 0,
					 0,
					 NULL };
		struct scan_finding f;

		load.burst_first_pct = cases[i].first;
		load.burst_last_pct = cases[i].last;
		load.burst_min_pct = cases[i].last;
		load.burst_first_t = 1000;
		load.burst_last_t = 1000 + cases[i].secs;
		CHECK(scan_analyze(&v, &ps, lim, &o, &f, err) == 1 &&
			  f.cat == SCAN_GP2_BURST_RISK,
		      "balance only %zu: burst risk", i);
		CHECK_NEAR(f.alarm_load_iops, cases[i].load, 1e-6,
			   "alarm load");
		CHECK_NEAR(f.cliff_s, cases[i].cliff, 1e-6,
			   "cliff at the same load");
		CHECK_NEAR(f.alarm_pct, cases[i].alarm_pct, 0,
			   "alarm threshold");
		CHECK_NEAR(f.alarm_lead_s, cases[i].alarm_lead, 1e-6,
			   "alarm lead");
		scan_reason(&f, why, sizeof(why));
		CHECK(!strcmp(why, cases[i].why),
		      "reason names the balance: %s", why);
	}
}

/* ------------------------------------------------------------ parsing */

struct walk {
	int n, problems;
	char ids[8][32];
	char last_problem[128];
	long sizes[8];
	size_t ntags[8];
};

static int collect(const struct inv_volume *v, void *arg)
{
	struct walk *w = arg;

	if (v->problem) {
		w->problems++;
		snprintf(w->last_problem, sizeof(w->last_problem), "%s",
			 v->problem);
		return 0;
	}
	if (w->n < 8) {
		snprintf(w->ids[w->n], sizeof(w->ids[0]), "%s", v->id);
		w->sizes[w->n] = v->size_gib;
		w->ntags[w->n] = v->ntags;
	}
	w->n++;
	return 0;
}

static int stop_at_first(const struct inv_volume *v, void *arg)
{
	(void)v;
	(void)arg;
	return 42;
}

static void test_walk(void)
{
	static const char good[] =
	    "{\"NextToken\": \"abc\", \"Volumes\": [\n"
	    " {\"VolumeId\": \"vol-0e2e0000000000001\", \"VolumeType\": \"gp2\", \"Size\": 8,"
	    "  \"AvailabilityZone\": \"us-east-1a\", \"Tags\": [{\"Key\": \"a\", \"Value\": \"]}\\\"\"}],"
	    "  \"SnapshotId\": null},\n"
	    " {\"VolumeId\": \"vol-0e2e0000000000002\", \"VolumeType\": \"gp3\", \"Size\": 100,"
	    "  \"Iops\": 3000, \"Throughput\": 125, \"AvailabilityZone\": \"us-east-1a\", \"SnapshotId\": \"\"},\n"
	    " {\"VolumeId\": \"vol-0e2e0000000000003\", \"VolumeType\": \"gp2\", \"Size\": 8.5,"
	    "  \"AvailabilityZone\": \"us-east-1a\"},\n"
	    " {\"VolumeId\": \"vol-0e2e0000000000004\", \"VolumeType\": \"io2\", \"Size\": 8,"
	    "  \"AvailabilityZone\": \"us-east-1a\"}\n"
	    "]}\n";
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "{\"Volumes\": [{\"VolumeId\": \"vol-0e2e0000000000001\",}]}",
		  "cannot parse 't': line 1: invalid JSON in a volume record" },
		{ "{\"Volumes\": [{\"a\": 1}",
		  "cannot parse 't': line 1: expected ',' or ']' in \"Volumes\"" },
		{ "{\"Volumes\": [{\"a\": 1",
		  "cannot parse 't': line 1: unterminated string or value" },
		{ "{\"Volumes\": {}}",
		  "cannot parse 't': line 1: \"Volumes\" is not an array" },
		{ "{\"Vols\": []}", "cannot parse 't': no \"Volumes\" array" },
		{ "{\"Volumes\": []} x",
		  "cannot parse 't': line 1: text after the JSON document" },
		{ "[1]", "cannot parse 't': line 1: expected a JSON object" },
		{ "{\"Volumes\": [], \"N\": tru}",
		  "cannot parse 't': line 1: invalid JSON" },
		{ "{\"Volumes\": [1]}",
		  "cannot parse 't': line 1: expected an object in \"Volumes\"" },
		{ "{\"Volumes\": [{\"a\": \"x\ny}]}",
		  "cannot parse 't': line 1: unterminated string or value" },
	};
	struct walk w = { 0 };
	char err[EBS_ERRLEN];

	CHECK(inventory_detect(good, strlen(good)) == INV_VOLUMES,
	      "detect describe-volumes");
	CHECK(inventory_detect("{\"MetricDataResults\": []}", 25) ==
		  INV_METRICS,
	      "detect metrics");
	CHECK(inventory_detect("{\"apiVersion\": \"v1\"}", 20) == INV_K8S,
	      "detect kubectl");
	CHECK(inventory_detect("volume_id,used_gib\n", 19) == INV_UNKNOWN,
	      "detect csv: unknown");
	CHECK(inventory_each_volume("t", good, strlen(good), collect, &w,
				    err) == 0,
	      "walk good document");
	CHECK(w.n == 2 && !strcmp(w.ids[0], "vol-0e2e0000000000001") &&
		  !strcmp(w.ids[1], "vol-0e2e0000000000002") &&
		  w.sizes[1] == 100 && w.ntags[0] == 1,
	      "two usable volumes, in order, tags kept");
	CHECK(w.problems == 2 &&
		  !strcmp(w.last_problem, "missing \"Iops\" for io2"),
	      "fractional Size and io2 without Iops are problem records: %s",
	      w.last_problem);
	CHECK(inventory_each_volume("t", good, strlen(good), stop_at_first,
				    NULL, err) == 42,
	      "callback's non-zero return stops the walk");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = inventory_each_volume(
		    "t", bad[i].json, strlen(bad[i].json), collect, &w, err);

		CHECK(rc == EBS_ERR_PARSE && !strcmp(err, bad[i].err),
		      "bad %zu: %s", i, rc ? err : "(accepted)");
	}
}

static void test_quantity(void)
{
	static const struct {
		const char *s;
		int rc;
		long gib;
	} cases[] = {
		{ "3Gi", 0, 3 },	{ "1Ti", 0, 1024 }, { "500G", 0, 466 },
		{ "1073741824", 0, 1 }, { "1536Mi", 0, 2 }, { "0.5Gi", 0, 1 },
		{ "", -1, 0 },		{ "Gi", -1, 0 },    { "3GB", -1, 0 },
		{ "-3Gi", -1, 0 },	{ "0Gi", -1, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long g = 0;
		int rc = inventory_quantity_gib(cases[i].s, &g);

		CHECK(rc == cases[i].rc && (rc || g == cases[i].gib),
		      "quantity '%s' -> %d %ld", cases[i].s, rc, g);
	}
}

static void test_metrics(void)
{
	static const char doc[] =
	    "{\"MetricDataResults\": ["
	    "{\"Id\": \"rops_300_vol_0e2e0000000000001\", \"Label\": \"x\","
	    " \"Timestamps\": [\"2026-11-01T10:05:00Z\", \"2026-11-01T10:00:00.000Z\"],"
	    " \"Values\": [30000, 90000], \"StatusCode\": \"Complete\"},"
	    "{\"Id\": \"q1\", \"Label\": \"vol-0e2e0000000000001 VolumeWriteOps 300\","
	    " \"Timestamps\": [\"2026-11-01T10:05:00+00:00\", \"2026-11-01T11:00:00+01:00\"],"
	    " \"Values\": [100000, 60000], \"StatusCode\": \"Complete\"},"
	    "{\"Id\": \"burst_300_vol_0e2e0000000000001\", \"Label\": \"\","
	    " \"Timestamps\": [\"2026-11-01T10:05:00Z\", \"2026-11-01T10:00:00Z\"],"
	    " \"Values\": [70, 80], \"StatusCode\": \"PartialData\"},"
	    "{\"Id\": \"m9\", \"Label\": \"EstimatedCharges\", \"Timestamps\": [], \"Values\": []}"
	    "]}";
	struct inv_metrics m = { 0 };
	struct inv_warnings w = { 0 };
	const struct inv_series *s[4];
	struct scan_load l;
	char err[EBS_ERRLEN];

	CHECK(inventory_parse_metrics("m.json", doc, strlen(doc), &m, &w,
				      err) == 0,
	      "metrics parse");
	CHECK(m.n == 3, "3 usable series (%zu)", m.n);
	CHECK(w.n == 2, "2 warnings: PartialData and the foreign result (%zu)",
	      w.n);
	if (w.n == 2)
		CHECK(
		    !strcmp(
			w.msg[1],
			"'m.json': metric result 'm9' does not name an EBS volume and metric (see 'ebsize scan --metric-queries'); skipped"),
		    "foreign result warning: %s", w.msg[1]);
	for (size_t i = 0; i < m.n && i < 4; i++)
		s[i] = &m.s[i];
	scan_load_from_series(s, m.n, &l);
	/* 10:00: 90,000 + 60,000 (11:00+01:00) = 150,000 / 300 = 500 IOPS;
	 * 10:05: 30,000 + 100,000 = 130,000 / 300 */
	CHECK(l.have_iops, "iops seen");
	CHECK_NEAR(l.peak_iops, 500, 1e-9,
		   "read + write aligned by timestamp (offset honoured)");
	CHECK(l.have_burst && l.burst_first_pct == 80 && l.burst_last_pct == 70,
	      "burst balance first 80, last 70 by time");
	CHECK(!l.have_mibps, "no byte metrics");
	inv_metrics_release(&m);
	inv_warnings_release(&w);
}

static void test_usage_csv(void)
{
	static const char good[] =
	    "volume_id,used_gib\r\nvol-0e2e0000000000001,83.5\n\nvol-0e2e0000000000002,0\n";
	static const char bad[] =
	    "vol-0e2e0000000000001,83\nvol-0e2e0000000000002,-1\n";
	struct inv_usage u = { 0 };
	char err[EBS_ERRLEN];

	CHECK(inventory_parse_usage("u.csv", good, strlen(good), &u, err) ==
		      0 &&
		  u.n == 2 && u.row[0].used_gib == 83.5,
	      "usage csv with header");
	inv_usage_release(&u);
	CHECK(
	    inventory_parse_usage("u.csv", bad, strlen(bad), &u, err) ==
		    EBS_ERR_PARSE &&
		!strcmp(
		    err,
		    "cannot parse 'u.csv': line 2: expected volume_id,used_gib"),
	    "negative usage rejected: %s", err);
	inv_usage_release(&u);
}

static void test_k8s_parse(void)
{
	static const char doc[] =
	    "{\"kind\": \"List\", \"items\": ["
	    "{\"kind\": \"StorageClass\", \"metadata\": {\"name\": \"fast\"},"
	    " \"provisioner\": \"ebs.csi.aws.com\","
	    " \"parameters\": {\"Type\": \"io2\", \"IOPSPERGB\": \"50\"}},"
	    "{\"kind\": \"StorageClass\", \"metadata\": {\"name\": \"nfs\"}, \"provisioner\": \"x\"},"
	    "{\"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"p\"},"
	    " \"spec\": {\"capacity\": {\"storage\": \"1Ti\"}, \"storageClassName\": \"fast\","
	    "  \"awsElasticBlockStore\": {\"volumeID\": \"aws://eu-west-1b/vol-0e2e0000000000009\"},"
	    "  \"claimRef\": {\"namespace\": \"ns\", \"name\": \"c\"}}},"
	    "{\"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"bad\"},"
	    " \"spec\": {\"capacity\": {\"storage\": \"lots\"},"
	    "  \"csi\": {\"driver\": \"ebs.csi.aws.com\", \"volumeHandle\": \"vol-0e2e0000000000008\"}}}"
	    "]}";
	struct inv_k8s k = { 0 };
	struct inv_warnings w = { 0 };
	char err[EBS_ERRLEN];

	CHECK(inventory_parse_k8s("k.json", doc, strlen(doc), &k, &w, err) == 0,
	      "k8s parse");
	CHECK(
	    k.nsc == 2 && k.sc[0].ebs && k.sc[0].type == VT_IO2 &&
		k.sc[0].iops_per_gb == 50 && !k.sc[1].ebs &&
		!strcmp(k.sc[1].provisioner, "x"),
	    "EBS parameters case-insensitive; other provisioners kept by name");
	CHECK(k.npv == 1 && k.pv[0].in_tree && !k.pv[0].migrated,
	      "awsElasticBlockStore PV is in-tree");
	CHECK(k.npv == 1 && !strcmp(k.pv[0].vol_id, "vol-0e2e0000000000009") &&
		  k.pv[0].size_gib == 1024 &&
		  !strcmp(k.pv[0].az, "eu-west-1b") &&
		  !strcmp(k.pv[0].ns, "ns") && !strcmp(k.pv[0].pvc, "c"),
	      "in-tree PV: id, zone, size, claim");
	CHECK(w.n == 1 && strstr(w.msg[0], "persistent volume 'bad'"),
	      "PV with bad capacity warned");
	inv_k8s_release(&k);
	inv_warnings_release(&w);
}

/* ------------------------------------------------------------ output */

static void fill(struct out_table *t, size_t row, void *arg)
{
	(void)arg;
	out_int(t, (long long)row);
	out_str_ref(t, row % 2 ? "odd" : "even");
}

static void test_rows_on_demand(void)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_list(doc, "rows", "Rows");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	out_col(t, "n", "N", OUT_INT);
	out_col(t, "p", "P", OUT_TEXT);
	out_rows_on_demand(t, 3, fill, NULL);
	out_render(doc, OUT_JSON, m);
	fclose(m);
	CHECK(
	    !strcmp(
		buf,
		"{\"rows\":[{\"n\":0,\"p\":\"even\"},{\"n\":1,\"p\":\"odd\"},{\"n\":2,\"p\":\"even\"}]}\n"),
	    "on-demand rows render: %s", buf);
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	out_render(doc, OUT_TABLE, m);
	fclose(m);
	CHECK(strstr(buf, "2  even") != NULL, "on-demand rows in a table");
	free(buf);
	out_doc_free(doc);
}

/*
 * Issue 10 item 6: modify-volume states only what the API's defaults do
 * not give (A1 ModifyVolume: a type change to gp3, io1 or io2 defaults to
 * 3,000 IOPS, to gp3 to 125 MiB/s; the same type keeps what is not given).
 */
static void test_modify_commands(void)
{
	static const struct {
		struct vol_config cur, prop;
		const char *opts;
	} cases[] = {
		{ { VT_GP2, 100, 0, 0, 1, 0 },
		  { VT_GP3, 100, 3000, 125, 1, 0 },
		  " --volume-type gp3" },
		{ { VT_GP2, 2000, 0, 0, 1, 0 },
		  { VT_GP3, 2000, 6000, 250, 1, 0 },
		  " --volume-type gp3 --iops 6000 --throughput 250" },
		{ { VT_GP2, 500, 0, 0, 1, 0 },
		  { VT_GP3, 500, 3000, 250, 1, 0 },
		  " --volume-type gp3 --throughput 250" },
		/* gp3 reductions state every value lowered */
		{ { VT_GP3, 100, 3000, 500, 1, 0 },
		  { VT_GP3, 100, 3000, 125, 1, 0 },
		  " --throughput 125" },
		{ { VT_GP3, 1000, 12000, 500, 1, 0 },
		  { VT_GP3, 1000, 4800, 125, 1, 0 },
		  " --iops 4800 --throughput 125" },
		{ { VT_GP3, 1000, 12000, 125, 1, 0 },
		  { VT_GP3, 1000, 3000, 125, 1, 0 },
		  " --iops 3000" },
		{ { VT_IO1, 800, 40000, 0, 1, 0 },
		  { VT_IO2, 800, 40000, 0, 1, 0 },
		  " --volume-type io2 --iops 40000" },
		{ { VT_IO1, 500, 10000, 0, 1, 0 },
		  { VT_IO1, 500, 2400, 0, 1, 0 },
		  " --iops 2400" },
		{ { VT_IO2, 4, 4000, 0, 1, 0 },
		  { VT_GP3, 4, 3000, 125, 1, 0 },
		  " --volume-type gp3" },
		{ { VT_IO2, 400, 20000, 0, 1, 0 },
		  { VT_GP3, 400, 14400, 1080, 1, 0 },
		  " --volume-type gp3 --iops 14400 --throughput 1080" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scan_finding f = { 0 };
		char want[256];
		char *s;

		f.cat = SCAN_OVERPROVISIONED;
		f.cur = cases[i].cur;
		f.prop = cases[i].prop;
		s = scan_command(&f, "vol-0e2e0000000000b02", "us-east-1",
				 "us-east-1a");
		snprintf(
		    want, sizeof(want),
		    "aws ec2 modify-volume --region us-east-1 --volume-id vol-0e2e0000000000b02%s",
		    cases[i].opts);
		CHECK(!strcmp(s, want), "modify %s -> %s:%s (got %s)",
		      model_type_name(cases[i].cur.type),
		      model_type_name(cases[i].prop.type), cases[i].opts, s);
		free(s);
	}
}

static void test_commands(void)
{
	struct scan_finding f = { 0 };
	char *s;

	f.cat = SCAN_GP2_TO_GP3;
	f.prop = (struct vol_config){ VT_GP3, 2000, 6000, 250, 1, 0 };
	s = scan_command(&f, "vol-0e2e0000000000001", "us-east-1",
			 "us-east-1a");
	CHECK(
	    !strcmp(
		s,
		"aws ec2 modify-volume --region us-east-1 --volume-id vol-0e2e0000000000001 --volume-type gp3 --iops 6000 --throughput 250"),
	    "modify-volume batches type, IOPS, throughput");
	free(s);
	/* the VolumeAttributesClass text: tests/unit/test_scan_k8s.c */
	CHECK(scan_alarm_command(&f, "vol-0e2e0000000000001", "us-east-1") ==
		  NULL,
	      "no alarm without a threshold");
	CHECK(inventory_valid_volume_id("vol-049df61146c4d7901") &&
		  inventory_valid_volume_id("vol-b98d464f") &&
		  !inventory_valid_volume_id("vol-0E2E0000000000001") &&
		  !inventory_valid_volume_id("vol-0e2e000000000001;") &&
		  !inventory_valid_volume_id("vol-"),
	      "volume ids");
}

static void test_strmap(void)
{
	struct strmap m = STRMAP_INIT;
	static int vals[1000];
	char key[32];
	int ok = 1;

	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "vol-%017x", i);
		strmap_put(&m, key, &vals[i]);
	}
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "vol-%017x", i);
		ok &= strmap_get(&m, key) == &vals[i];
	}
	CHECK(ok && m.n == 1000, "strmap holds 1,000 keys");
	CHECK(strmap_get(&m, "vol-x") == NULL, "strmap miss");
	CHECK(strmap_put(&m, "vol-00000000000000001", &vals[5]) == &vals[1],
	      "strmap_put returns the previous value");
	strmap_release(&m);
}

/* ------------------------------------------------------------ review */

/*
 * Regressions from the scan review (generated volumes and values; every
 * expected number worked by hand from ebs-facts.md T1, T2, T6, T15).
 */
static void review_analyze(const char *region, const struct scan_volume *v0,
			   const struct scan_load *load, double min_savings,
			   struct scan_finding *f, int *rc)
{
	struct db *db = test_db();
	struct volume_limits lim[VT_COUNT];
	struct scan_opts o = { 20, min_savings, 300 };
	struct scan_volume v = *v0;
	struct price_set ps;
	char err[EBS_ERRLEN];

	for (int t = 0; t < VT_COUNT; t++)
		db_load_limits(db, (enum vol_type)t, NULL, &lim[t], err);
	db_load_prices(db, region, NULL, &ps, err);
	v.region = region;
	v.load = load;
	model_apply_defaults(&lim[v.cfg.type], &v.cfg);
	*rc = scan_analyze(&v, &ps, lim, &o, f, err);
}

static void test_review_analyze(void)
{
	struct scan_volume v = { .id = "vol-0e2e00000000000a1",
				 .az = "x-1a",
				 .used_gib = -1 };
	struct scan_load l = { .period_s = 300, .have_iops = 1 };
	struct scan_finding f;
	int rc;

	/* 1: io2 at its 256,000 IOPS maximum (T1) with a peak whose
	 * headroom needs 250,000 x 1.2 = 300,000: nothing to propose, and
	 * nothing cast from an impossible double */
	v.cfg = (struct vol_config){ VT_IO2, 1000, 256000, 0, 1, 0 };
	l.peak_iops = 250000;
	review_analyze("us-east-1", &v, &l, 0, &f, &rc);
	CHECK(rc == 0,
	      "io2 need above the type maximum: no proposal (rc %d, iops %ld)",
	      rc, f.prop.iops);

	/* 2: eu-west-1 io1 500 GiB 10,000 IOPS, peak 2,000, 50 MiB/s.
	 * Without Multi-Attach gp3 wins (789 - 44 = 745, test_analyze);
	 * Multi-Attach keeps it on io1: 2,400 IOPS (2,000 x 1.2):
	 * 500 x 0.138 + 2,400 x 0.072 = 69 + 172.8 = 241.8; 789 - 241.8 =
	 * 547.2 (io2 costs the same in eu-west-1, so not "cheaper") */
	v.cfg = (struct vol_config){ VT_IO1, 500, 10000, 0, 1, 0 };
	v.multi_attach = 1;
	l.peak_iops = 2000;
	l.have_mibps = 1;
	l.peak_mibps = 50;
	review_analyze("eu-west-1", &v, &l, 0, &f, &rc);
	CHECK(rc == 1 && f.prop.type == VT_IO1 && f.prop.iops == 2400,
	      "Multi-Attach io1 stays off gp3: %s %ld IOPS (rc %d)",
	      model_type_name(f.prop.type), f.prop.iops, rc);
	CHECK_NEAR(f.save_usd, 547.2, 1e-9, "Multi-Attach io1: 789 - 241.8");
	v.multi_attach = 0;
	l.have_mibps = 0;

	/* 11: us-east-1 gp2 200 GiB (20.00) at peak 2,000 > 600 baseline:
	 * gp3 200 GiB 3,000 IOPS 250 MiB/s = 16 + 125 x 0.04 = 21.00, so
	 * the fix costs 1.00 more: saving 0, extra 1.00 */
	v.cfg = (struct vol_config){ VT_GP2, 200, 0, 0, 1, 0 };
	l.peak_iops = 2000;
	review_analyze("us-east-1", &v, &l, 0, &f, &rc);
	CHECK(rc == 1 && f.cat == SCAN_GP2_BURST_RISK,
	      "gp2 200 GiB at 2,000 IOPS is a burst risk (rc %d)", rc);
	CHECK_NEAR(f.save_usd, 0, 1e-12, "burst risk saving is never negative");
	CHECK_NEAR(f.extra_usd, 1.00, 1e-9, "burst risk fix costs 1.00 more");
	review_analyze("us-east-1", &v, &l, 0.5, &f, &rc);
	CHECK(rc == 0, "--min-savings 0.5 drops a finding saving 0 (rc %d)",
	      rc);

	/* 7: gp2 100 GiB (baseline 300), peak 500 IOPS, BurstBalance 100 %
	 * -> 50 % in 3,600 s: 0.5 x 5,400,000 / 3,600 = 750 credits/s,
	 * i.e. a load of 300 + 750 = 1,050 IOPS, above the 500 peak.
	 * Threshold ceil(300 s x 750 / 5,400,000 x 100) = ceil(4.17) = 5 %
	 * (the peak alone: ceil(300 x 200 / 54,000) = ceil(1.11) = 2 %) */
	{
		struct scan_load b = { .period_s = 300,
				       .have_iops = 1,
				       .peak_iops = 500,
				       .have_burst = 1,
				       .burst_first_pct = 100,
				       .burst_last_pct = 50,
				       .burst_min_pct = 50,
				       .burst_first_t = 0,
				       .burst_last_t = 3600 };
		char why[320];

		v.cfg = (struct vol_config){ VT_GP2, 100, 0, 0, 1, 0 };
		review_analyze("us-east-1", &v, &b, 0, &f, &rc);
		CHECK(rc == 1 && f.alarm_pct == 5 && f.alarm_load_iops == 1050,
		      "alarm from the BurstBalance slope: %g %% at %g IOPS",
		      f.alarm_pct, f.alarm_load_iops);
		scan_reason(&f, why, sizeof(why));
		CHECK(strstr(why, "BurstBalance falling") != NULL,
		      "falling balance is said: %s", why);
		/* not falling: 40 % -> 45 %, low at 40 % */
		b.burst_first_pct = 40;
		b.burst_last_pct = 45;
		b.burst_min_pct = 40;
		review_analyze("us-east-1", &v, &b, 0, &f, &rc);
		scan_reason(&f, why, sizeof(why));
		CHECK(rc == 1 && !strstr(why, "falling") &&
			  strstr(why, "BurstBalance down to 40 %") != NULL,
		      "rising balance is not called falling: %s", why);
		CHECK(f.alarm_load_iops == 500, "no slope: the peak 500 (%g)",
		      f.alarm_load_iops);
	}
}

/* 3 and 1: duplicate points count once; impossible values are refused. */
static void test_review_metrics(void)
{
	/* read 600 and write 300 ops at 10:00 over 300 s = 3 IOPS; the read
	 * series again (the same file twice) and once more at 900 */
	static const char doc[] =
	    "{\"MetricDataResults\": ["
	    "{\"Id\": \"rops_300_vol_0e2e00000000000a1\","
	    " \"Timestamps\": [\"2026-11-01T10:00:00Z\"], \"Values\": [600]},"
	    "{\"Id\": \"rops_300_vol_0e2e00000000000a1\","
	    " \"Timestamps\": [\"2026-11-01T10:00:00Z\"], \"Values\": [600]},"
	    "{\"Id\": \"wops_300_vol_0e2e00000000000a1\","
	    " \"Timestamps\": [\"2026-11-01T10:00:00Z\"], \"Values\": [300]},"
	    "{\"Id\": \"wops_300_vol_0e2e00000000000a1\","
	    " \"Timestamps\": [\"2026-11-01T10:00:00Z\"], \"Values\": [300]}"
	    "]}";
	/* 1e300 ops, -5 ops, 76,800,001 ops / 300 s = 256,000.003 IOPS
	 * (above io2's 256,000, T1), BurstBalance 101 %: all refused */
	static const char bad[] =
	    "{\"MetricDataResults\": ["
	    "{\"Id\": \"rops_300_vol_0e2e00000000000a2\","
	    " \"Timestamps\": [\"2026-11-01T10:00:00Z\", \"2026-11-01T10:05:00Z\","
	    "  \"2026-11-01T10:10:00Z\", \"2026-11-01T10:15:00Z\"],"
	    " \"Values\": [1e300, -5, 76800001, 76800000]},"
	    "{\"Id\": \"burst_300_vol_0e2e00000000000a2\","
	    " \"Timestamps\": [\"2026-11-01T10:00:00Z\"], \"Values\": [101]}"
	    "]}";
	struct inv_metrics m = { 0 };
	struct inv_warnings w = { 0 };
	const struct inv_series *s[4];
	struct scan_load l;
	char err[EBS_ERRLEN];

	CHECK(inventory_parse_metrics("d.json", doc, strlen(doc), &m, &w,
				      err) == 0 &&
		  m.n == 4,
	      "duplicate series parse (%zu)", m.n);
	for (size_t i = 0; i < 4 && i < m.n; i++)
		s[i] = &m.s[i];
	scan_load_from_series(s, m.n, &l);
	CHECK_NEAR(l.peak_iops, 3, 1e-9,
		   "doubled series: (600 + 300) / 300 = 3, not 6");
	if (m.n == 4)
		m.s[1].v[0] = 900;
	scan_load_from_series(s, m.n, &l);
	CHECK_NEAR(l.peak_iops, 4, 1e-9,
		   "overlap keeps the larger: (900 + 300) / 300 = 4");
	inv_metrics_release(&m);

	CHECK(inventory_parse_metrics("b.json", bad, strlen(bad), &m, &w,
				      err) == 0 &&
		  m.n == 2,
	      "impossible values parse (%zu)", m.n);
	CHECK(m.n == 2 && m.s[0].n == 1 && m.s[0].v[0] == 76800000 &&
		  m.s[1].n == 0,
	      "only 76,800,000 (256,000 IOPS) is kept");
	CHECK(
	    w.n == 2 &&
		!strcmp(
		    w.msg[0],
		    "'b.json': volume 'vol-0e2e00000000000a2': VolumeReadOps: 3 of 4 values negative or beyond what any EBS volume does; skipped") &&
		!strcmp(
		    w.msg[1],
		    "'b.json': volume 'vol-0e2e00000000000a2': BurstBalance: 1 of 1 values negative or beyond what any EBS volume does; skipped"),
	    "warnings name file, volume and metric (%s)",
	    w.n ? w.msg[0] : "none");
	inv_metrics_release(&m);
	inv_warnings_release(&w);
}

/* 2, 6: Multi-Attach and encryption from describe-volumes. */
struct review_walk {
	int n, multi[4], enc[4];
	char kms[4][96];
	char problem[128];
};

static int review_collect(const struct inv_volume *v, void *arg)
{
	struct review_walk *w = arg;

	if (v->problem) {
		snprintf(w->problem, sizeof(w->problem), "%s", v->problem);
		return 0;
	}
	if (w->n < 4) {
		w->multi[w->n] = v->multi_attach;
		w->enc[w->n] = v->encrypted;
		snprintf(w->kms[w->n], sizeof(w->kms[0]), "%s",
			 v->kms_key_id ? v->kms_key_id : "");
	}
	w->n++;
	return 0;
}

static void test_review_volumes(void)
{
	static const char doc[] =
	    "{\"Volumes\": ["
	    "{\"VolumeId\": \"vol-0e2e00000000000b1\", \"VolumeType\": \"io2\", \"Size\": 100,"
	    " \"Iops\": 3000, \"AvailabilityZone\": \"us-east-1a\", \"MultiAttachEnabled\": true},"
	    "{\"VolumeId\": \"vol-0e2e00000000000b2\", \"VolumeType\": \"io1\", \"Size\": 100,"
	    " \"Iops\": 3000, \"AvailabilityZone\": \"us-east-1a\","
	    " \"Attachments\": [{\"InstanceId\": \"i-1\"}, {\"InstanceId\": \"i-2\"}]},"
	    "{\"VolumeId\": \"vol-0e2e00000000000b3\", \"VolumeType\": \"gp2\", \"Size\": 100,"
	    " \"AvailabilityZone\": \"us-east-1a\", \"Encrypted\": true,"
	    " \"KmsKeyId\": \"arn:aws:kms:us-east-1:111122223333:key/0e2e-a1\"},"
	    "{\"VolumeId\": \"vol-0e2e00000000000b4\", \"VolumeType\": \"gp2\", \"Size\": 100,"
	    " \"AvailabilityZone\": \"us-east-1a\", \"Encrypted\": true,"
	    " \"KmsKeyId\": \"x' ; rm -rf ~ ; '\"}"
	    "]}";
	struct review_walk w = { 0 };
	char err[EBS_ERRLEN];
	struct scan_finding f = { 0 };
	char *s;

	CHECK(inventory_each_volume("v.json", doc, strlen(doc), review_collect,
				    &w, err) == 0 &&
		  w.n == 3,
	      "volumes walk (%d)", w.n);
	CHECK(w.multi[0] && w.multi[1] && !w.multi[2],
	      "MultiAttachEnabled and two attachments are Multi-Attach");
	CHECK(w.enc[2] &&
		  !strcmp(w.kms[2],
			  "arn:aws:kms:us-east-1:111122223333:key/0e2e-a1"),
	      "Encrypted and KmsKeyId read");
	CHECK(!strcmp(w.problem,
		      "\"KmsKeyId\" is not a KMS key id, alias or ARN"),
	      "a KmsKeyId unsafe in a shell line is a problem: %s", w.problem);

	f.cat = SCAN_GP2_SIZED_FOR_IOPS;
	f.new_volume = 1;
	f.prop = (struct vol_config){ VT_GP3, 100, 3000, 250, 1, 0 };
	f.encrypted = 1;
	f.kms_key_id = "arn:aws:kms:us-east-1:111122223333:key/0e2e-a1";
	s = scan_command(&f, "vol-0e2e00000000000b3", "us-east-1",
			 "us-east-1a");
	CHECK(
	    !strcmp(
		s,
		"aws ec2 create-volume --region us-east-1 --availability-zone us-east-1a --volume-type gp3 --size 100 --throughput 250 --encrypted --kms-key-id 'arn:aws:kms:us-east-1:111122223333:key/0e2e-a1' --tag-specifications 'ResourceType=volume,Tags=[{Key=ebsize-replaces,Value=vol-0e2e00000000000b3}]'"),
	    "create-volume keeps encryption and key: %s", s);
	free(s);
	f.kms_key_id = NULL;
	s = scan_command(&f, "vol-0e2e00000000000b3", "us-east-1",
			 "us-east-1a");
	CHECK(strstr(s, " --encrypted --tag-specifications") != NULL,
	      "encrypted with the default key: %s", s);
	free(s);

	CHECK(inventory_valid_kms_key("alias/ebs-0e2e") &&
		  inventory_valid_kms_key(
		      "1234abcd-12ab-34cd-56ef-1234567890ab") &&
		  !inventory_valid_kms_key("") &&
		  !inventory_valid_kms_key("a b"),
	      "KMS key ids");
}

void test_scan(void)
{
	test_gp3_like_gp2();
	test_sized_for_iops();
	test_burst_math();
	test_gp3_for_load();
	test_analyze();
	test_burst_balance_only();
	test_walk();
	test_quantity();
	test_metrics();
	test_usage_csv();
	test_k8s_parse();
	test_rows_on_demand();
	test_commands();
	test_modify_commands();
	test_strmap();
	test_review_analyze();
	test_review_metrics();
	test_review_volumes();
}

/* The hand-written ISO 8601 reader of CloudWatch time stamps. */
void test_scan_time(void)
{
	static const struct {
		const char *in;
		int ok;
		long long want;
	} rows[] = {
		/* 1970-01-01T00:00:00Z is 0 by definition */
		{ "1970-01-01T00:00:00Z", 1, 0 },
		/* 2024-09-29: 19,995 days after 1970-01-01 (date -d ... +%s / 86400);
		 * 22:10 = 79,800 s: 19,995 x 86,400 + 79,800 = 1,727,647,800 */
		{ "2024-09-29T22:10:00+00:00", 1, 1727647800LL },
		{ "2024-09-29T22:10:00.000Z", 1, 1727647800LL },
		{ "2024-09-29T22:10:00Z", 1, 1727647800LL },
		/* +02:00 means two hours ahead of UTC: 7,200 s earlier */
		{ "2024-09-30T00:10:00+02:00", 1, 1727647800LL },
		{ "2024-09-29T17:40:00-04:30", 1, 1727647800LL },
		/* 2013-12-18T22:35:00.000Z (aws-cli v1 style): 16,057 days */
		{ "2013-12-18T22:35:00.000Z", 1, 1387406100LL },
		/* leap years: 2024-02-29 exists (19,782 days), 2023-02-29 not */
		{ "2024-02-29T00:00:00Z", 1, 1709164800LL },
		{ "2023-02-29T00:00:00Z", 0, 0 },
		{ "2000-02-29T00:00:00Z", 1,
		  951782400LL },		  /* divisible by 400 */
		{ "1900-02-29T00:00:00Z", 0, 0 }, /* by 100, not 400 */
		{ "2024-13-01T00:00:00Z", 0, 0 },
		{ "2024-04-31T00:00:00Z", 0, 0 },
		/* one reader for every AWS time (util.c): a space for the 'T'
		 * is read as RFC 3339 allows */
		{ "2024-09-29 22:10:00Z", 1, 1727647800LL },
		{ "2024-09-29T22:10:00.Z", 0, 0 },
		{ "2024-09-29T22:10:00+24:00", 0, 0 },
		{ "2024-09-29T22:10:00", 0, 0 },
		{ "2024-09-29T22:10:00+0000", 0, 0 },
		{ "2024-09-29T22:10:00Zx", 0, 0 },
		{ "2024-9-29T22:10:00Z", 0, 0 },
		{ "", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long long t = -1;
		int rc = iso8601_to_epoch(rows[i].in, &t);

		CHECK((rc == 0) == rows[i].ok &&
			  (!rows[i].ok || t == rows[i].want),
		      "time '%s': %s (got %lld)", rows[i].in,
		      rows[i].ok ? "read" : "refused", t);
	}
}
