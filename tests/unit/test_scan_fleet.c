/*
 * test_scan_fleet.c - the per-volume rules of `ebsize scan` over a fleet
 * (src/scan_fleet.c): which records are analysed, skipped or counted
 * elsewhere, how a PersistentVolume's StorageClass becomes a
 * configuration, exclusion by tag, and metrics and used space matched by
 * volume id.  Records are built here by hand (generated test data); the
 * limits and prices come from a real seeded database.
 */
#include "test.h"

#include <string.h>

#include "ebsize/db.h"
#include "ebsize/idset.h"
#include "ebsize/scan_fleet.h"
#include "ebsize/util.h"

static struct price_set us_east_1;

/* Prices for us-east-1 only: other regions have none. */
static const struct price_set *prices(void *arg, const char *region)
{
	(void)arg;
	return strcmp(region, "us-east-1") ? NULL : &us_east_1;
}

static void fleet_new(struct scan_fleet *f, const char *only_region,
		      const char *const *excl, size_t nexcl)
{
	struct volume_limits lim[VT_COUNT];
	struct scan_fleet_opts o = { 0 };
	char err[EBS_ERRLEN];

	for (int t = 0; t < VT_COUNT; t++)
		db_load_limits(test_db(), (enum vol_type)t, NULL, &lim[t], err);
	db_load_prices(test_db(), "us-east-1", NULL, &us_east_1, err);
	o.rules.headroom_pct = 20;
	o.rules.alarm_lead_s = 300;
	o.only_region = only_region;
	o.default_region = "us-east-1";
	o.excl = excl;
	o.nexcl = nexcl;
	o.prices = prices;
	scan_fleet_init(f, lim, &o);
}

static struct inv_volume gp2(const char *id, long size, const char *az,
			     const char *state)
{
	struct inv_volume v = { 0 };

	v.id = id;
	v.type = VT_GP2;
	v.size_gib = size;
	v.iops = 3 * size;
	v.az = az;
	v.state = state;
	v.line = 1;
	return v;
}

static int warned(const struct scan_fleet *f, const char *what)
{
	for (size_t i = 0; i < f->warn.n; i++)
		if (strstr(f->warn.msg[i], what))
			return 1;
	return 0;
}

static const struct scan_rec *rec_of(const struct scan_fleet *f, const char *id)
{
	for (size_t i = 0; i < f->nrecs; i++)
		if (!strcmp(f->recs[i].id, id))
			return &f->recs[i];
	return NULL;
}

static void skipping(void)
{
	struct scan_fleet f;
	struct inv_volume v;
	char err[EBS_ERRLEN];

	fleet_new(&f, NULL, NULL, 0);
	v = gp2("vol-1", 100, "us-east-1a", "in-use");
	CHECK(!scan_fleet_volume(&f, "a.json", &v, err) && f.scanned == 1 &&
		  rec_of(&f, "vol-1"),
	      "an in-use gp2 100 GiB is analysed (a gp2 -> gp3 finding)");
	CHECK(
	    !scan_fleet_volume(&f, "b.json", &v, err) && f.scanned == 1 &&
		f.skipped == 1 &&
		warned(
		    &f,
		    "duplicate volume 'vol-1' (line 1), already read from 'a.json'"),
	    "the same id again is a duplicate, counted once, naming the first file");
	v = gp2("vol-2", 100, "nowhere", "in-use");
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(f.skipped == 2 &&
		  warned(&f, "\"AvailabilityZone\" is not a zone"),
	      "a zone that is not a zone is skipped with a warning");
	v = gp2("vol-3", 100, "us-east-1a", "creating");
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(f.skipped == 3 && !rec_of(&f, "vol-3"),
	      "a creating volume is skipped (nothing to change)");
	v = gp2("vol-4", 100, "eu-west-1a", "in-use");
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(f.nno_price == 1 && !strcmp(f.no_price[0].region, "eu-west-1") &&
		  f.no_price[0].volumes == 1 && f.scanned == 1,
	      "a region without prices: counted per region, not analysed");
	v = gp2("vol-5", 100, "us-east-1a", NULL);
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(warned(&f,
		     "'vol-5' (line 1): missing \"State\"; treated as in use"),
	      "a record without State warns and is treated as in use");
	v = gp2("vol-6", 100, "us-east-1a", "available");
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(rec_of(&f, "vol-6") &&
		  rec_of(&f, "vol-6")->f.cat == SCAN_UNATTACHED &&
		  rec_of(&f, "vol-5")->f.cat != SCAN_UNATTACHED,
	      "only State available is unattached");
	v = gp2("vol-7", 100, "us-east-1a", "in-use");
	v.problem = "\"Size\" is not a number";
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(
	    warned(
		&f,
		"'a.json': volume 'vol-7' (line 1): \"Size\" is not a number; skipped"),
	    "a record the parser flagged is skipped with its problem");
	v = gp2("vol-8", 20000, "us-east-1a",
		"in-use"); /* gp2 max 16,384 GiB (T1) */
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(!rec_of(&f, "vol-8") &&
		  warned(&f, "volume 'vol-8' (gp2 20000 GiB)"),
	      "a volume breaking its type's rules is never priced");
	scan_fleet_release(&f);

	fleet_new(&f, "us-east-1", NULL, 0);
	v = gp2("vol-9", 100, "us-west-2a", "in-use");
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(f.other_region == 1 && f.scanned == 0 && f.warn.n == 0,
	      "with a region filter, another region is counted, silently");
	scan_fleet_release(&f);
}

static void exclusion(void)
{
	static const char *const excl[] = { "keep", "env=prod" };
	static const struct inv_tag tags_prod[] = { { "env", "prod" } };
	static const struct inv_tag tags_dev[] = { { "env", "dev" },
						   { "Name", "db" } };
	struct scan_fleet f;
	struct inv_volume v;
	char err[EBS_ERRLEN];

	fleet_new(&f, NULL, excl, 2);
	v = gp2("vol-a", 100, "us-east-1a", "in-use");
	v.tags = tags_prod;
	v.ntags = 1;
	scan_fleet_volume(&f, "a.json", &v, err);
	v = gp2("vol-b", 100, "us-east-1a", "in-use");
	v.tags = tags_dev;
	v.ntags = 2;
	scan_fleet_volume(&f, "a.json", &v, err);
	CHECK(rec_of(&f, "vol-a") &&
		  rec_of(&f, "vol-a")->f.cat == SCAN_EXCLUDED,
	      "env=prod matches the K=V rule: excluded");
	CHECK(rec_of(&f, "vol-b") &&
		  rec_of(&f, "vol-b")->f.cat == SCAN_GP2_TO_GP3 &&
		  !strcmp(rec_of(&f, "vol-b")->name, "db"),
	      "env=dev is not excluded, and keeps its Name tag");
	scan_fleet_release(&f);
}

static void pvs(void)
{
	struct inv_sc sc[] = {
		{ "io1-fast", 1, VT_IO1, 0, 50, 0, 0 },
		{ "io2-tiny", 1, VT_IO2, 0, 10, 0, 0 },
		{ "gp3-auto", 1, VT_GP3, 0, 1, 0, 0 },
		{ "gp2", 1, VT_GP2, 0, 0, 0, 0 },
	};
	struct inv_pv pv[] = {
		{ "pv-1", "vol-p1", "us-east-1b", 2000, "io1-fast", NULL, NULL,
		  NULL, "pv.json", 0 },
		{ "pv-2", "vol-p2", "us-east-1b", 5, "io2-tiny", NULL, NULL,
		  NULL, "pv.json", 0 },
		{ "pv-3", "vol-p3", NULL, 100, "gp2", "ns", "claim", NULL,
		  "pv.json", 0 },
		{ "pv-4", "vol-p4", "us-east-1b", 100, "missing", NULL, NULL,
		  NULL, "pv.json", 0 },
		{ "pv-5", "vol-5", "us-east-1b", 100, "gp3-auto", NULL, NULL,
		  NULL, "pv.json", 0 },
	};
	struct inv_k8s k = { sc, 4, 4, pv, 5, 5 };
	struct scan_fleet f;
	struct inv_volume v;
	const struct scan_rec *r;
	char err[EBS_ERRLEN];

	fleet_new(&f, NULL, NULL, 0);
	scan_fleet_set_k8s(&f, &k);
	v = gp2("vol-5", 100, "us-east-1a",
		"in-use"); /* describe-volumes has it */
	scan_fleet_volume(&f, "v.json", &v, err);
	CHECK(!scan_fleet_pvs(&f, err), "the PVs are analysed");
	/* io1 iopsPerGB 50 x 2,000 GiB = 100,000, capped at io1's 64,000 (T4) */
	r = rec_of(&f, "vol-p1");
	CHECK(r && r->f.cur.type == VT_IO1 && r->f.cur.iops == 64000,
	      "io1 iopsPerGB 50 on 2,000 GiB: 64,000 IOPS (the type's cap)");
	/* io2 iopsPerGB 10 x 5 GiB = 50 < io2's minimum 100, no auto increase */
	CHECK(
	    !rec_of(&f, "vol-p2") &&
		warned(&f,
		       "storage class 'io2-tiny' gives no usable IOPS for io2"),
	    "io2 below its minimum IOPS without allowAutoIOPSPerGBIncrease: skipped");
	r = rec_of(&f, "vol-p3");
	CHECK(r && r->f.cur.type == VT_GP2 && r->ns && !strcmp(r->ns, "ns") &&
		  r->pvc && !strcmp(r->pvc, "claim"),
	      "an in-tree gp2 PV keeps its claim");
	CHECK(
	    warned(
		&f,
		"persistent volume 'pv-3' (vol-p3): no zone; priced in region 'us-east-1'"),
	    "a PV without a zone is priced in the default region, with a warning");
	CHECK(warned(&f, "storage class 'missing' not given"),
	      "a PV whose class is missing is skipped");
	CHECK(
	    rec_of(&f, "vol-5") && rec_of(&f, "vol-5")->f.cur.type == VT_GP2,
	    "a PV covered by describe-volumes is analysed once, from describe-volumes");
	scan_fleet_release(&f);
}

static void pv_configs(void)
{
	static const struct {
		struct inv_sc sc;
		long size;
		long iops, mibps;
	} rows[] = {
		/* gp3 iopsPerGB 1 x 100 = 100, raised to gp3's 3,000 (T3) */
		{ { "a", 1, VT_GP3, 0, 1, 0, 0 }, 100, 3000, 125 },
		/* gp3 iopsPerGB 500 x 100 = 50,000 (500/GiB allowed) */
		{ { "b", 1, VT_GP3, 0, 500, 250, 0 }, 100, 50000, 250 },
		/* gp3 iopsPerGB 1000 x 200 = 200,000: 500/GiB = 100,000, cap 80,000 */
		{ { "c", 1, VT_GP3, 0, 1000, 0, 0 }, 200, 80000, 125 },
		/* io2 iops 5000 fixed on 4 GiB: 1,000/GiB = 4,000 (T4) */
		{ { "d", 1, VT_IO2, 5000, 0, 0, 0 }, 4, 4000, 0 },
		/* io1 iopsPerGB 10 x 8 = 80 < 100, raised with allowAutoIOPSPerGBIncrease */
		{ { "e", 1, VT_IO1, 0, 10, 0, 1 }, 8, 100, 0 },
		/* gp2: no provisioned IOPS */
		{ { "f", 0, VT_GP2, 0, 0, 0, 0 }, 100, 0, 0 },
	};
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct volume_limits lim;
		struct vol_config cfg;

		db_load_limits(test_db(), rows[i].sc.type, NULL, &lim, err);
		scan_pv_config(&lim, &rows[i].sc, rows[i].size, &cfg);
		CHECK(
		    cfg.iops == rows[i].iops &&
			cfg.throughput_mibps == rows[i].mibps &&
			cfg.size_gib == rows[i].size &&
			cfg.type == rows[i].sc.type,
		    "PV class %s on %ld GiB: %ld IOPS, %ld MiB/s (got %ld, %ld)",
		    rows[i].sc.name, rows[i].size, rows[i].iops, rows[i].mibps,
		    cfg.iops, cfg.throughput_mibps);
	}
}

static void extras(void)
{
	long long t[] = { 0, 300 };
	double ops[] = { 30000, 60000 }; /* per 300 s: 100 and 200 IOPS */
	struct inv_series s[] = {
		{ "vol-m", IM_READ_OPS, 300, 2, t, ops, "m.json" },
		{ "vol-ghost", IM_READ_OPS, 300, 2, t, ops, "m.json" },
	};
	struct inv_metrics m = { s, 2, 2 };
	struct inv_usage_row rows[] = { { "vol-m", 10, 2 },
					{ "vol-u", 500, 3 } };
	struct inv_usage u = { rows, 2, 2 };
	struct scan_fleet f;
	struct inv_volume v;
	char err[EBS_ERRLEN];

	fleet_new(&f, NULL, NULL, 0);
	f.o.usage_file = "used.csv";
	scan_fleet_add_metrics(&f, &m);
	scan_fleet_add_usage(&f, &u);
	v = gp2("vol-m", 100, "us-east-1a", "in-use");
	scan_fleet_volume(&f, "v.json", &v, err);
	v = gp2("vol-u", 100, "us-east-1a", "in-use");
	scan_fleet_volume(&f, "v.json", &v, err);
	CHECK(
	    warned(
		&f,
		"'v.json': volume 'vol-u' uses 500 GiB by 'used.csv', more than its 100 GiB; usage ignored"),
	    "used space above the size is ignored with a warning");
	scan_fleet_unmatched(&f);
	CHECK(
	    warned(
		&f,
		"'m.json': metrics for volume 'vol-ghost', which is not in the inventory; ignored"),
	    "metrics of a volume not scanned are reported");
	CHECK(!warned(&f, "for volume 'vol-m'"), "matched metrics are not");
	scan_fleet_release(&f);
}

static void cluster(void)
{
	/* the EKS in-tree gp2 default; PVs in two regions, most in us-east-1 */
	struct inv_sc sc[] = {
		{ .name = "gp2",
		  .ebs = 1,
		  .type = VT_GP2,
		  .in_tree = 1,
		  .is_default = INV_SC_DEFAULT,
		  .provisioner = "kubernetes.io/aws-ebs" },
	};
	struct inv_pv pv[] = {
		{ "pv-1", "vol-c1", "eu-west-1a", 100, "gp2", "ns", "a", NULL,
		  "pv.json", 0 },
		{ "pv-2", "vol-c2", "us-east-1b", 100, "gp2", "ns", "b", NULL,
		  "pv.json", 0 },
		{ "pv-3", "vol-c3", "us-east-1c", 100, "gp2", "ns", "c", NULL,
		  "pv.json", 0 },
	};
	struct inv_k8s k = { sc, 1, 1, pv, 3, 3 };
	struct scan_fleet f;
	char err[EBS_ERRLEN];

	fleet_new(&f, NULL, NULL, 0);
	scan_fleet_set_k8s(&f, &k);
	CHECK(!scan_fleet_pvs(&f, err), "the PVs are analysed");
	scan_fleet_cluster(&f);
	CHECK(!strcmp(f.cl_region, "us-east-1"),
	      "the cluster's region: most PVs' (got %s)", f.cl_region);
	/* T6 us-east-1: gp2 0.10, gp3 0.08 per GiB-month */
	CHECK(
	    f.ncl == 1 && f.cl[0].cat == SCAN_CL_DEFAULT_GP2 &&
		f.cl[0].in_tree && f.cl[0].gp2_pvcs == 3 && f.cl[0].priced &&
		f.cl[0].gp2_usd_per_gib == 0.1 &&
		f.cl[0].gp3_usd_per_gib == 0.08,
	    "an in-tree gp2 default: one finding, 3 claims, priced in us-east-1");
	CHECK(f.recs[0].pv != NULL,
	      "a finding keeps its PV (for its Kubernetes plan)");
	scan_fleet_release(&f);
}

/* ------------------------------------------------------------ ids */

static void ids(void)
{
	struct idset s = IDSET_INIT;
	uint32_t v = 99;
	char id[32];
	int all = 1;

	CHECK(idset_add(&s, "vol-049df61146c4d7901", 1, NULL) &&
		  !idset_add(&s, "vol-049df61146c4d7901", 2, &v) && v == 1,
	      "an EC2 id once; added again it keeps its first value (1)");
	CHECK(idset_add(&s, "vol-0000000a", 3, NULL) &&
		  idset_add(&s, "vol-0000000000000000a", 4, NULL) &&
		  idset_get(&s, "vol-0000000a", &v) && v == 3 &&
		  idset_get(&s, "vol-0000000000000000a", &v) && v == 4,
	      "an 8-digit and a 17-digit id of the same value stay apart");
	CHECK(idset_add(&s, "vol-f0000000000000000", 5, NULL) &&
		  idset_add(&s, "vol-00000000000000000", 6, NULL) &&
		  idset_get(&s, "vol-f0000000000000000", &v) && v == 5,
	      "the top digit (bits 64-67) counts");
	CHECK(idset_add(&s, "vol-1", 7, NULL) &&
		  idset_add(&s, "VOL-049DF61146C4D7901", 8, NULL) &&
		  idset_add(&s, "vol-049df61146c4d79012", 9, NULL) &&
		  idset_add(&s, "", 10, NULL) &&
		  !idset_add(&s, "vol-1", 11, &v) && v == 7 &&
		  idset_count(&s) == 9,
	      "other forms (short, upper case, 18 digits, empty) are ids too");
	CHECK(!idset_get(&s, "vol-049df61146c4d7902", NULL) &&
		  !idset_get(&s, "vol-2", NULL),
	      "ids never added are not found");
	/* generated ids: 200,000 in, each found with its own value */
	for (uint32_t i = 0; i < 200000; i++) {
		xsnprintf(id, sizeof(id), "vol-%017x", (i + 1) * 2654435761u);
		all &= idset_add(&s, id, i, NULL);
	}
	for (uint32_t i = 0; i < 200000 && all; i++) {
		xsnprintf(id, sizeof(id), "vol-%017x", (i + 1) * 2654435761u);
		all &= idset_get(&s, id, &v) && v == i;
	}
	CHECK(
	    all && idset_count(&s) == 200009 && s.cap * 3 >= s.n * 4 &&
		s.cap <= 524288,
	    "200,000 generated ids: each found with its value, at most 75 %% load, 16 bytes a slot");
	idset_release(&s);
}

/* ------------------------------------------------------------ totals */

/*
 * Hand-worked, us-east-1 (ebs-facts.md T6): gp2 100 GiB $10.00 -> gp3 $8.00
 * (saves $2.00); gp2 1,000 GiB $100.00 -> gp3 at 3,000 IOPS 250 MiB/s
 * $80 + 125 x 0.04 = $85.00 (saves $15.00); st1 500 GiB 500 x 0.045 =
 * $22.50, no finding; an unattached gp2 50 GiB $5.00 (saves $5.00).
 * Fleet: $137.50 now, savings $22.00, proposed $115.50, 16 %.
 */
static void fleet_totals(void)
{
	struct scan_fleet f;
	struct inv_volume v;
	char err[EBS_ERRLEN];
	const struct scan_total *usd = NULL, *to_gp3 = NULL;

	fleet_new(&f, NULL, NULL, 0);
	v = gp2("vol-a", 100, "us-east-1a", "in-use");
	scan_fleet_volume(&f, "a.json", &v, err);
	v = gp2("vol-b", 1000, "us-east-1a", "in-use");
	scan_fleet_volume(&f, "a.json", &v, err);
	v = gp2("vol-c", 500, "us-east-1b", "in-use");
	v.type = VT_ST1;
	v.iops = 0;
	scan_fleet_volume(&f, "a.json", &v, err);
	v = gp2("vol-d", 50, "us-east-1b", "available");
	scan_fleet_volume(&f, "a.json", &v, err);
	for (size_t i = 0; i < f.by[SCAN_BY_CURRENCY].n; i++)
		usd = &f.by[SCAN_BY_CURRENCY].t[i];
	for (size_t i = 0; i < f.by[SCAN_BY_CATEGORY].n; i++)
		if (!strcmp(f.by[SCAN_BY_CATEGORY].t[i].key, "gp2_to_gp3"))
			to_gp3 = &f.by[SCAN_BY_CATEGORY].t[i];
	CHECK(f.scanned == 4 && f.nfindings == 3 && usd &&
		  f.by[SCAN_BY_CURRENCY].n == 1 &&
		  !strcmp(usd->currency, "USD") && usd->scanned == 4 &&
		  usd->findings == 3,
	      "4 volumes scanned, 3 findings, one currency");
	CHECK(
	    usd && usd->scanned_u == 137500000 && usd->current_u == 115000000 &&
		usd->savings_u == 22000000 && usd->extra_u == 0,
	    "USD: fleet $137.50 (the st1 without a finding included), findings $115.00, saving $22.00");
	CHECK(to_gp3 && to_gp3->findings == 2 &&
		  to_gp3->current_u == 110000000 &&
		  to_gp3->savings_u == 17000000,
	      "gp2_to_gp3: 2 volumes, $110.00 now, saving $17.00");
	CHECK(f.by[SCAN_BY_REGION].n == 1 &&
		  f.by[SCAN_BY_REGION].t[0].scanned_u == 137500000,
	      "us-east-1: the whole fleet's $137.50");
	CHECK(f.ngroups == 0,
	      "no configuration groups unless asked for (workbooks)");
	scan_fleet_release(&f);
}

/*
 * keep_top N keeps exactly the N first findings of the full sorted list,
 * and the same totals: generated gp2 volumes of many sizes, both ways.
 */
static void keep_top(void)
{
	static const long sizes[] = { 8, 100, 500, 1000, 2000, 3334, 20, 50 };
	struct scan_fleet all, top;
	struct inv_volume v;
	char err[EBS_ERRLEN], id[32];
	int same = 1;

	fleet_new(&all, NULL, NULL, 0);
	fleet_new(&top, NULL, NULL, 0);
	top.o.keep_top = 7;
	top.o.group_unchanged = 1;
	for (int i = 0; i < 500; i++) {
		xsnprintf(id, sizeof(id), "vol-%017x",
			  (unsigned)(i * 7919) % 1000);
		v = gp2(id, sizes[(i * 5) % 8],
			i % 3 ? "us-east-1a" : "us-east-1c",
			i % 11 ? "in-use" : "available");
		if (i % 13 == 0) {
			v.type = VT_ST1;
			v.size_gib = 125 + i % 4;
			v.iops = 0;
		}
		scan_fleet_volume(&all, "a.json", &v, err);
		scan_fleet_volume(&top, "a.json", &v, err);
	}
	scan_fleet_sort(&all);
	scan_fleet_sort(&top);
	for (size_t i = 0; i < 7 && i < all.nrecs; i++)
		same &= top.nrecs == 7 &&
			!strcmp(all.recs[i].id, top.recs[i].id) &&
			all.recs[i].f.save_usd == top.recs[i].f.save_usd;
	CHECK(all.nrecs > 300 && same,
	      "the 7 kept are the first 7 of all %zu, in order", all.nrecs);
	CHECK(top.nfindings == all.nfindings && top.scanned == all.scanned,
	      "the counts are of every finding");
	for (int b = 0; b < SCAN_BY_COUNT; b++)
		for (size_t i = 0; i < all.by[b].n; i++)
			same &= all.by[b].n == top.by[b].n &&
				all.by[b].t[i].savings_u ==
				    top.by[b].t[i].savings_u &&
				all.by[b].t[i].scanned_u ==
				    top.by[b].t[i].scanned_u;
	CHECK(same, "and the totals are the same");
	{
		size_t in_groups = 0;

		for (size_t i = 0; i < top.ngroups; i++)
			in_groups += top.groups[i].volumes;
		CHECK(
		    top.ngroups == 4 &&
			in_groups == top.scanned - top.nfindings,
		    "volumes without a finding (st1 125-128 GiB) in 4 configuration groups");
	}
	scan_fleet_release(&all);
	scan_fleet_release(&top);
}

void test_scan_fleet(void)
{
	skipping();
	exclusion();
	pvs();
	pv_configs();
	extras();
	cluster();
	ids();
	fleet_totals();
	keep_top();
}
