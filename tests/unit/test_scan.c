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
#include "ebsize/strmap.h"

/* ------------------------------------------------------------ model */

static void test_gp3_like_gp2(void)
{
	static const struct {
		long size, iops, mibps;
	} cases[] = {
		{ 8, 3000, 125 },       /* burst ceiling 3,000 -> included */
		{ 170, 3000, 125 },     /* T2: 128 MiB/s up to 170 GiB */
		{ 171, 3000, 250 },     /* above 170 GiB: 250 */
		{ 999, 3000, 250 },
		{ 1000, 3000, 250 },    /* baseline = 3,000 */
		{ 2000, 6000, 250 },    /* the downgrade trap */
		{ 5334, 16000, 250 },   /* baseline cap 16,000 */
		{ 16384, 16000, 250 },
	};
	struct volume_limits gp3 = { .type = VT_GP3, .included_iops = 3000,
				     .included_mibps = 125 };
	struct vol_config c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		model_gp3_like_gp2(&gp3, cases[i].size, &c);
		CHECK(c.type == VT_GP3 && c.size_gib == cases[i].size &&
		      c.iops == cases[i].iops && c.throughput_mibps == cases[i].mibps,
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
		{ 1000, 1, 3000 }, { 1334, 1, 4000 }, { 1667, 1, 5000 },
		{ 2000, 1, 6000 }, { 3334, 1, 10000 }, { 5334, 1, 16000 },
		{ 999, 0, 0 }, { 1001, 0, 0 }, { 1500, 0, 0 }, { 1333, 0, 0 },
		{ 500, 0, 0 },  /* below 1,000 GiB burst covers 3,000 IOPS */
	};
	long t;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = 0;
		CHECK(model_gp2_sized_for_iops(cases[i].size, &t) == cases[i].want &&
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
	CHECK_NEAR(model_gp2_seconds_to_empty(100, 0.4 * GP2_BUCKET_CREDITS, 2000),
		   2160000.0 / 1700.0, 1e-9, "40 % bucket at 2,000 IOPS");
	/* issue example: 15 % of a 100 GiB bucket is 5 minutes at 3,000 IOPS */
	CHECK_NEAR(model_gp2_alarm_pct(100, 3000, 300), 15, 0, "alarm 5 min, 100 GiB");
	/* 8 GiB: 300 x 2,900 / 54,000 = 16.1 -> 17 */
	CHECK_NEAR(model_gp2_alarm_pct(8, 3000, 300), 17, 0, "alarm 5 min, 8 GiB");
	/* 10 min at 2,000 IOPS on 100 GiB: 600 x 1,700 / 54,000 = 18.9 -> 19 */
	CHECK_NEAR(model_gp2_alarm_pct(100, 2000, 600), 19, 0, "alarm 10 min, 2,000 IOPS");
	CHECK_NEAR(model_gp2_alarm_pct(100, 200, 300), 0, 0, "no drain, no alarm");
	CHECK_NEAR(model_gp2_alarm_pct(100, 3000, 86400), 100, 0, "alarm capped at 100 %");
}

static void test_gp3_for_load(void)
{
	struct db *db = test_db();
	struct volume_limits gp3;
	struct vol_config c;
	char err[EBS_ERRLEN];

	CHECK(db_load_limits(db, VT_GP3, NULL, &gp3, err) == 0, "gp3 limits load");
	CHECK(model_gp3_for_load(&gp3, 1000, 4800, 120, &c) == 0 &&
	      c.iops == 4800 && c.throughput_mibps == 125,
	      "4,800 IOPS / 120 MiB/s -> 4800 / 125 (%ld, %ld)", c.iops, c.throughput_mibps);
	/* 1,000 MiB/s needs 4,000 IOPS (0.25 MiB/s per IOPS) */
	CHECK(model_gp3_for_load(&gp3, 1000, 100, 1000, &c) == 0 &&
	      c.iops == 4000 && c.throughput_mibps == 1000,
	      "throughput pulls IOPS up to 4,000 (%ld)", c.iops);
	/* 10 GiB carries at most 5,000 IOPS (500 per GiB) */
	CHECK(model_gp3_for_load(&gp3, 10, 9000, 0, &c) == -1 && c.iops == 5000,
	      "10 GiB cannot carry 9,000 IOPS (capped %ld)", c.iops);
	CHECK(model_gp3_min_size(&gp3, 16000) == 32, "16,000 IOPS need 32 GiB");
	CHECK(model_gp3_min_size(&gp3, 3000) == 6, "3,000 IOPS need 6 GiB");
}

/* ------------------------------------------------------------ analysis */

struct analyze_case {
	const char *region;
	enum vol_type type;
	long size, iops, mibps;
	int available;
	double used_gib;
	double peak_iops;       /* < 0: no metrics */
	double peak_mibps;      /* < 0: no byte metrics */
	int want_rc;
	enum scan_cat cat;
	long p_size, p_iops, p_mibps;
	double save;            /* USD per month, by hand from T6 */
	const char *why;
};

static const struct analyze_case analyze_cases[] = {
	{ "us-east-1", VT_GP2, 2000, 0, 0, 0, -1, -1, -1, 1, SCAN_GP2_TO_GP3,
	  2000, 6000, 250, 20.00, "200 - (160 + 15 + 5)" },
	{ "us-east-1", VT_GP2, 100, 0, 0, 0, -1, -1, -1, 1, SCAN_GP2_TO_GP3,
	  100, 3000, 125, 2.00, "10 - 8" },
	{ "us-east-1", VT_GP2, 200, 0, 0, 0, -1, -1, -1, 0, SCAN_GP2_TO_GP3,
	  0, 0, 0, 0, "20 < 16 + 5: no finding" },
	{ "us-east-1", VT_GP2, 250, 0, 0, 0, -1, -1, -1, 0, SCAN_GP2_TO_GP3,
	  0, 0, 0, 0, "25 = 20 + 5: break-even, no finding" },
	{ "us-east-1", VT_GP2, 1000, 0, 0, 0, 83, -1, -1, 1, SCAN_GP2_SIZED_FOR_IOPS,
	  100, 3000, 250, 87.00, "100 - (8 + 5)" },
	{ "us-east-1", VT_GP2, 1000, 0, 0, 0, 600, -1, -1, 1, SCAN_GP2_TO_GP3,
	  1000, 3000, 250, 15.00, "720 GiB > half: in place, 100 - 85" },
	{ "us-east-1", VT_GP2, 6000, 0, 0, 0, 1, -1, -1, 1, SCAN_GP2_SIZED_FOR_IOPS,
	  32, 16000, 250, 600 - (2.56 + 65 + 5), "16,000 IOPS need 32 GiB" },
	{ "us-east-1", VT_GP2, 100, 0, 0, 0, -1, 2000, -1, 1, SCAN_GP2_BURST_RISK,
	  100, 3000, 125, 2.00, "peak 2,000 > 300 baseline" },
	{ "us-east-1", VT_GP2, 100, 0, 0, 1, -1, -1, -1, 1, SCAN_UNATTACHED,
	  0, 0, 0, 10.00, "available: the whole 10.00" },
	{ "eu-west-1", VT_IO1, 500, 10000, 0, 0, -1, 2000, 50, 1, SCAN_OVERPROVISIONED,
	  500, 3000, 125, 745.00, "789 - 44" },
	{ "eu-west-1", VT_IO1, 500, 10000, 0, 0, -1, -1, -1, 0, SCAN_OVERPROVISIONED,
	  0, 0, 0, 0, "io2 same price below 32,000 IOPS: nothing" },
	{ "us-east-1", VT_IO1, 800, 40000, 0, 0, -1, -1, -1, 1, SCAN_OVERPROVISIONED,
	  800, 40000, 0, 156.00, "2700 - 2544 (io2 tier 2)" },
	{ "us-east-1", VT_GP3, 1000, 12000, 500, 0, -1, 4000, 100, 1, SCAN_OVERPROVISIONED,
	  1000, 4800, 125, 51.00, "140 - 89" },
	{ "us-east-1", VT_GP3, 1000, 3000, 125, 0, -1, 100, 10, 0, SCAN_OVERPROVISIONED,
	  0, 0, 0, 0, "already at the included minimum" },
	{ "eu-west-1", VT_ST1, 500, 0, 0, 0, -1, -1, -1, 0, SCAN_GP2_TO_GP3,
	  0, 0, 0, 0, "st1: nothing" },
};

static void test_analyze(void)
{
	struct db *db = test_db();
	struct volume_limits lim[VT_COUNT];
	struct scan_opts o = { 20, 0, 300 };
	char err[EBS_ERRLEN];

	for (int t = 0; t < VT_COUNT; t++)
		db_load_limits(db, (enum vol_type)t, NULL, &lim[t], err);
	for (size_t i = 0; i < sizeof(analyze_cases) / sizeof(analyze_cases[0]); i++) {
		const struct analyze_case *c = &analyze_cases[i];
		struct scan_load load = { .period_s = 300 };
		struct scan_volume v = { "vol-0e2e0000000000001", c->region,
					 "x-1a", { c->type, c->size, c->iops,
						   c->mibps, 1, 0 },
					 c->available, c->used_gib, NULL };
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
		CHECK(f.cat == c->cat, "  category %s (%s)", scan_cat_name(f.cat), c->why);
		CHECK_NEAR(f.save_usd, c->save, 1e-9, c->why);
		if (c->cat != SCAN_UNATTACHED)
			CHECK(f.prop.size_gib == c->p_size && f.prop.iops == c->p_iops &&
			      f.prop.throughput_mibps == c->p_mibps,
			      "  proposed %ld GiB %ld IOPS %ld MiB/s (%s)",
			      f.prop.size_gib, f.prop.iops, f.prop.throughput_mibps, c->why);
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
		snprintf(w->last_problem, sizeof(w->last_problem), "%s", v->problem);
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
		{ "{\"Volumes\": [{\"a\": 1}", "cannot parse 't': line 1: expected ',' or ']' in \"Volumes\"" },
		{ "{\"Volumes\": [{\"a\": 1", "cannot parse 't': line 1: unterminated string or value" },
		{ "{\"Volumes\": {}}", "cannot parse 't': line 1: \"Volumes\" is not an array" },
		{ "{\"Vols\": []}", "cannot parse 't': no \"Volumes\" array" },
		{ "{\"Volumes\": []} x", "cannot parse 't': line 1: text after the JSON document" },
		{ "[1]", "cannot parse 't': line 1: expected a JSON object" },
		{ "{\"Volumes\": [], \"N\": tru}", "cannot parse 't': line 1: invalid JSON" },
		{ "{\"Volumes\": [1]}", "cannot parse 't': line 1: expected an object in \"Volumes\"" },
		{ "{\"Volumes\": [{\"a\": \"x\ny\"}]}", "cannot parse 't': line 1: unterminated string or value" },
	};
	struct walk w = { 0 };
	char err[EBS_ERRLEN];

	CHECK(inventory_detect(good, strlen(good)) == INV_VOLUMES, "detect describe-volumes");
	CHECK(inventory_detect("{\"MetricDataResults\": []}", 25) == INV_METRICS, "detect metrics");
	CHECK(inventory_detect("{\"apiVersion\": \"v1\"}", 20) == INV_K8S, "detect kubectl");
	CHECK(inventory_detect("volume_id,used_gib\n", 19) == INV_UNKNOWN, "detect csv: unknown");
	CHECK(inventory_each_volume("t", good, strlen(good), collect, &w, err) == 0,
	      "walk good document");
	CHECK(w.n == 2 && !strcmp(w.ids[0], "vol-0e2e0000000000001") &&
	      !strcmp(w.ids[1], "vol-0e2e0000000000002") && w.sizes[1] == 100 &&
	      w.ntags[0] == 1, "two usable volumes, in order, tags kept");
	CHECK(w.problems == 2 && !strcmp(w.last_problem, "missing \"Iops\" for io2"),
	      "fractional Size and io2 without Iops are problem records: %s",
	      w.last_problem);
	CHECK(inventory_each_volume("t", good, strlen(good), stop_at_first, NULL, err) == 42,
	      "callback's non-zero return stops the walk");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = inventory_each_volume("t", bad[i].json, strlen(bad[i].json),
					       collect, &w, err);

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
		{ "3Gi", 0, 3 }, { "1Ti", 0, 1024 }, { "500G", 0, 466 },
		{ "1073741824", 0, 1 }, { "1536Mi", 0, 2 }, { "0.5Gi", 0, 1 },
		{ "", -1, 0 }, { "Gi", -1, 0 }, { "3GB", -1, 0 }, { "-3Gi", -1, 0 },
		{ "0Gi", -1, 0 },
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

	CHECK(inventory_parse_metrics("m.json", doc, strlen(doc), &m, &w, err) == 0,
	      "metrics parse");
	CHECK(m.n == 3, "3 usable series (%zu)", m.n);
	CHECK(w.n == 2, "2 warnings: PartialData and the foreign result (%zu)", w.n);
	if (w.n == 2)
		CHECK(!strcmp(w.msg[1], "'m.json': metric result 'm9' does not name an EBS volume and metric (see 'ebsize scan --metric-queries'); skipped"),
		      "foreign result warning: %s", w.msg[1]);
	for (size_t i = 0; i < m.n && i < 4; i++)
		s[i] = &m.s[i];
	scan_load_from_series(s, m.n, &l);
	/* 10:00: 90,000 + 60,000 (11:00+01:00) = 150,000 / 300 = 500 IOPS;
	 * 10:05: 30,000 + 100,000 = 130,000 / 300 */
	CHECK(l.have_iops, "iops seen");
	CHECK_NEAR(l.peak_iops, 500, 1e-9, "read + write aligned by timestamp (offset honoured)");
	CHECK(l.have_burst && l.burst_first_pct == 80 && l.burst_last_pct == 70,
	      "burst balance first 80, last 70 by time");
	CHECK(!l.have_mibps, "no byte metrics");
	inv_metrics_release(&m);
	inv_warnings_release(&w);
}

static void test_usage_csv(void)
{
	static const char good[] = "volume_id,used_gib\r\nvol-0e2e0000000000001,83.5\n\nvol-0e2e0000000000002,0\n";
	static const char bad[] = "vol-0e2e0000000000001,83\nvol-0e2e0000000000002,-1\n";
	struct inv_usage u = { 0 };
	char err[EBS_ERRLEN];

	CHECK(inventory_parse_usage("u.csv", good, strlen(good), &u, err) == 0 &&
	      u.n == 2 && u.row[0].used_gib == 83.5, "usage csv with header");
	inv_usage_release(&u);
	CHECK(inventory_parse_usage("u.csv", bad, strlen(bad), &u, err) == EBS_ERR_PARSE &&
	      !strcmp(err, "cannot parse 'u.csv': line 2: expected volume_id,used_gib"),
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

	CHECK(inventory_parse_k8s("k.json", doc, strlen(doc), &k, &w, err) == 0, "k8s parse");
	CHECK(k.nsc == 1 && k.sc[0].type == VT_IO2 && k.sc[0].iops_per_gb == 50,
	      "EBS storage class only; keys case-insensitive");
	CHECK(k.npv == 1 && !strcmp(k.pv[0].vol_id, "vol-0e2e0000000000009") &&
	      k.pv[0].size_gib == 1024 && !strcmp(k.pv[0].az, "eu-west-1b") &&
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
	CHECK(!strcmp(buf, "{\"rows\":[{\"n\":0,\"p\":\"even\"},{\"n\":1,\"p\":\"odd\"},{\"n\":2,\"p\":\"even\"}]}\n"),
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

static void test_commands(void)
{
	struct scan_finding f = { 0 };
	char *s;

	f.cat = SCAN_GP2_TO_GP3;
	f.prop = (struct vol_config){ VT_GP3, 2000, 6000, 250, 1, 0 };
	s = scan_command(&f, "vol-0e2e0000000000001", "us-east-1", "us-east-1a");
	CHECK(!strcmp(s, "aws ec2 modify-volume --region us-east-1 --volume-id vol-0e2e0000000000001 --volume-type gp3 --iops 6000 --throughput 250"),
	      "modify-volume batches type, IOPS, throughput");
	free(s);
	s = scan_vac_manifest(&f);
	CHECK(!strcmp(s, "apiVersion: storage.k8s.io/v1\nkind: VolumeAttributesClass\nmetadata:\n  name: ebsize-gp3-6000-250\ndriverName: ebs.csi.aws.com\nparameters:\n  type: gp3\n  iops: \"6000\"\n  throughput: \"250\"\n"),
	      "VolumeAttributesClass manifest");
	free(s);
	CHECK(scan_kubectl_patch(&f, "ns", "bad name; rm -rf /") == NULL,
	      "no kubectl line for a name that is not a Kubernetes name");
	CHECK(scan_k8s_name_ok("db-data.0") && !scan_k8s_name_ok("-x") &&
	      !scan_k8s_name_ok("A") && !scan_k8s_name_ok(""), "k8s names");
	CHECK(scan_alarm_command(&f, "vol-0e2e0000000000001", "us-east-1") == NULL,
	      "no alarm without a threshold");
	CHECK(inventory_valid_volume_id("vol-049df61146c4d7901") &&
	      inventory_valid_volume_id("vol-b98d464f") &&
	      !inventory_valid_volume_id("vol-0E2E0000000000001") &&
	      !inventory_valid_volume_id("vol-0e2e000000000001;") &&
	      !inventory_valid_volume_id("vol-"), "volume ids");
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

void test_scan(void)
{
	test_gp3_like_gp2();
	test_sized_for_iops();
	test_burst_math();
	test_gp3_for_load();
	test_analyze();
	test_walk();
	test_quantity();
	test_metrics();
	test_usage_csv();
	test_k8s_parse();
	test_rows_on_demand();
	test_commands();
	test_strmap();
}
