/*
 * test_data.c - every region and instance type out of the box (issue 9):
 * the seeded data read back through the db layer, currency, money
 * formatting, attachments and not-EBS-optimizable instances in the
 * solver, regions without a usage-type prefix in the parser, and an
 * identical price commit recording nothing.  Expected values are typed
 * by hand from pricing/sources/ebs-prices-all-regions.csv and
 * sql/seed/sources/instance-ebs-limits.csv (and the dump beside it).
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/db_prices.h"
#include "ebsize/err.h"
#include "ebsize/out.h"
#include "ebsize/pricing.h"
#include "ebsize/solver.h"
#include "ebsize/util.h"

static void test_money_format(void)
{
	static const struct {
		double v;
		const char *ccy, *want;
	} cases[] = {
		{ 10, "USD", "$10.00" },
		{ 10, NULL, "$10.00" },
		{ 74.6, "CNY", "CNY 74.60" },
		{ 1234.565, "CNY", "CNY 1,234.57" }, /* half away from zero */
		{ -14.92, "CNY", "CNY -14.92" },
		{ -0.001, "CNY", "CNY 0.00" },
		{ 1234567.891, "USD", "$1,234,567.89" },
	};
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		out_fmt_money(buf, sizeof(buf), cases[i].v, cases[i].ccy);
		CHECK(!strcmp(buf, cases[i].want),
		      "money %g %s -> '%s' (got '%s')", cases[i].v,
		      cases[i].ccy ? cases[i].ccy : "(none)", cases[i].want,
		      buf);
	}
}

/* A table cell in a currency, rendered as text. */
static void test_money_cells(void)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_list(doc, "rows", NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	out_table_currency(t, "CNY");
	out_col(t, "a", "A", OUT_USD);
	out_col(t, "b", "B", OUT_USD);
	out_row(t);
	out_num(t, 74.6);	 /* the table's currency */
	out_money(t, 10, "USD"); /* its own */
	CHECK(f && !out_render(doc, OUT_TABLE, f), "table renders");
	if (f)
		fclose(f);
	CHECK(
	    buf && strstr(buf, "CNY 74.60") && strstr(buf, "$10.00"),
	    "table: a CNY table cell and a USD cell each show their currency");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(f && !out_render(doc, OUT_CSV, f), "csv renders");
	if (f)
		fclose(f);
	CHECK(buf && strstr(buf, "74.6,10\r\n"),
	      "csv: money stays a plain number");
	free(buf);
	out_doc_free(doc);
}

static void test_region_prices(void)
{
	struct price_set ps;
	char err[EBS_ERRLEN], cur[8];
	int rc;

	/* cn-north-1: gp2 0.746 CNY per GB-month; no io2, no snapshot price */
	rc = db_load_prices(test_db(), "cn-north-1", NULL, &ps, err);
	CHECK(rc == EBS_OK, "cn-north-1 has prices (%s)", rc ? err : "ok");
	CHECK(!strcmp(ps.currency, "CNY"),
	      "cn-north-1 prices are CNY (got '%s')", ps.currency);
	CHECK_NEAR(ps.type[VT_GP2].storage_per_gib_month, 0.746, 1e-12,
		   "cn-north-1 gp2 0.746");
	CHECK(!cli_type_priced(&ps, VT_IO2), "cn-north-1: io2 not priced");
	CHECK(cli_type_priced(&ps, VT_GP3),
	      "cn-north-1: gp3 priced (storage, IOPS, throughput)");
	CHECK(!ps.have_snapshot_storage, "cn-north-1: no snapshot price");

	/* us-east-2: gp2 0.10 USD; snapshot 0.05 (calculator 2021-05-13) */
	rc = db_load_prices(test_db(), "us-east-2", NULL, &ps, err);
	CHECK(rc == EBS_OK && !strcmp(ps.currency, "USD"),
	      "us-east-2 USD prices");
	CHECK_NEAR(ps.type[VT_GP2].storage_per_gib_month, 0.1, 1e-12,
		   "us-east-2 gp2 0.10");
	CHECK(ps.have_snapshot_storage, "us-east-2: snapshot price");
	CHECK_NEAR(ps.snapshot_per_gib_month, 0.05, 1e-12,
		   "us-east-2 snapshot 0.05");
	CHECK(ps.type[VT_IO2].n_iops == 3, "us-east-2: three io2 IOPS tiers");

	/* sa-east-1: gp2 0.19, io2 missing (2022 extract) */
	rc = db_load_prices(test_db(), "sa-east-1", NULL, &ps, err);
	CHECK(rc == EBS_OK, "sa-east-1 has prices");
	CHECK_NEAR(ps.type[VT_GP2].storage_per_gib_month, 0.19, 1e-12,
		   "sa-east-1 gp2 0.19");
	CHECK(!cli_type_priced(&ps, VT_IO2) && cli_type_priced(&ps, VT_IO1),
	      "sa-east-1: io1 priced, io2 not");

	/* ap-south-2: no source has it */
	rc = db_load_prices(test_db(), "ap-south-2", NULL, &ps, err);
	CHECK(rc == EBS_ERR_NOT_FOUND &&
		  !strcmp(err, "no prices for region 'ap-south-2'"),
	      "ap-south-2: not found, named (got '%s')", rc ? err : "ok");
	CHECK(db_region_currency(test_db(), "ap-south-2", cur, sizeof(cur)) &&
		  !strcmp(cur, "USD"),
	      "ap-south-2 is a known region (USD)");
	CHECK(!db_region_currency(test_db(), "xx-nowhere-9", cur, sizeof(cur)),
	      "an unknown region code has no currency");
}

struct count_ctx {
	size_t n, priced, cny;
	int ap_south_2_unpriced, cn_missing_io2;
};

static int count_region(const struct region_info *ri, void *arg)
{
	struct count_ctx *c = arg;

	c->n++;
	c->priced += ri->prices > 0;
	c->cny += !strcmp(ri->currency, "CNY");
	if (!strcmp(ri->code, "ap-south-2"))
		c->ap_south_2_unpriced =
		    !ri->prices && !ri->snapshot_id && ri->known;
	if (!strcmp(ri->code, "cn-north-1"))
		c->cn_missing_io2 = !(ri->dims[VT_IO2] & PRICE_DIM_STORAGE) &&
				    (ri->dims[VT_GP2] & PRICE_DIM_STORAGE) &&
				    !ri->dims[VT_COUNT] && ri->prices == 10;
	return 0;
}

static void test_regions(void)
{
	struct count_ctx c = { 0 };
	char err[EBS_ERRLEN];

	CHECK(!db_each_region(test_db(), count_region, &c, err),
	      "db_each_region runs");
	CHECK(c.n == 38 && c.priced == 26 && c.cny == 2,
	      "38 regions, 26 priced, 2 in CNY (got %zu/%zu/%zu)", c.n,
	      c.priced, c.cny);
	CHECK(c.ap_south_2_unpriced,
	      "ap-south-2: known, no prices, no snapshot");
	/* 16 fields - GiBps - 4 io2 - snapshot = 10 */
	CHECK(c.cn_missing_io2,
	      "cn-north-1: 10 prices, gp2 but no io2 and no snapshot price");
}

static void test_instances_seeded(void)
{
	struct instance_limits il;
	char err[EBS_ERRLEN];

	/* r7iz.large: 792 / 10000 Mbps, 99 / 1250 MB/s, 3600 / 40000 IOPS;
	 * MaximumEbsAttachments 32 (dump) */
	CHECK(!db_load_instance(test_db(), "r7iz.large", &il, err),
	      "r7iz.large is known");
	CHECK(il.baseline_mbps == 792 && il.max_mbps == 10000 &&
		  il.baseline_mbytes_per_s == 99 &&
		  il.max_mbytes_per_s == 1250 && il.baseline_iops == 3600 &&
		  il.max_iops == 40000 && il.burst,
	      "r7iz.large limits as the table gives them");
	CHECK(il.max_ebs_attachments == 32 && !strcmp(il.nvme, "required") &&
		  il.ebs_optimized == EBS_OPT_DEFAULT,
	      "r7iz.large: 32 attachments, NVMe required");
	/* m6in.large: the 2026 values (2023 doc: 1250/20000/.../87500) */
	CHECK(!db_load_instance(test_db(), "m6in.large", &il, err) &&
		  il.baseline_mbps == 1562 && il.max_mbps == 25000 &&
		  il.baseline_mbytes_per_s == 195.3125 &&
		  il.max_mbytes_per_s == 3125 && il.baseline_iops == 6250 &&
		  il.max_iops == 100000,
	      "m6in.large: the newer (2026) values");
	/* t2.micro: not EBS-optimizable, 40 attachments (dump) */
	CHECK(!db_load_instance(test_db(), "t2.micro", &il, err),
	      "t2.micro is known");
	CHECK(il.ebs_optimized == EBS_OPT_UNSUPPORTED && il.max_iops == 0 &&
		  il.max_ebs_attachments == 40 &&
		  !strcmp(il.nvme, "unsupported"),
	      "t2.micro: unsupported, no limits, 40 attachments");
	/* f1.2xlarge: only in the 2023 doc: no attachment count */
	CHECK(!db_load_instance(test_db(), "f1.2xlarge", &il, err) &&
		  il.max_ebs_attachments == 0 && !*il.nvme && !il.burst &&
		  il.baseline_iops == 12000,
	      "f1.2xlarge: 2023 doc values, attachments unknown");
	CHECK(db_load_instance(test_db(), "m9z.huge", &il, err) ==
		  EBS_ERR_NOT_FOUND,
	      "an unknown type is still unknown");
}

/* Solver: attachments cap the stripe; an unsupported type is unchecked. */
static void test_solver_instances(void)
{
	struct volume_limits gp3;
	struct price_set ps;
	struct instance_limits inst = { .instance_type = "x.test",
					.baseline_iops = 1e6,
					.max_iops = 1e6,
					.baseline_mbytes_per_s = 1e5,
					.max_mbytes_per_s = 1e5,
					.max_ebs_attachments = 3 };
	struct solver_input in = { .max_stripe = 8 };
	struct need nd = { .iops = 9000, .size_gib = 100, .io_kib = 16 };
	struct solver_result r;
	char err[EBS_ERRLEN];
	int noted = 0;

	if (db_load_limits(test_db(), VT_GP3, NULL, &gp3, err) ||
	    db_load_prices(test_db(), "us-east-1", NULL, &ps, err)) {
		CHECK(0, "solver inputs: %s", err);
		return;
	}
	in.lim[VT_GP3] = &gp3;
	in.prices[VT_GP3] = &ps.type[VT_GP3];
	CHECK(solver_max_stripe(&in) == 8, "no instance: max stripe as given");
	/* 4 x gp3 25 GiB, 3,000 IOPS and 125 MiB/s included each: 100 GiB x
	 * 0.08 = 8.00, the floor (3 x 34 GiB = 102 GiB costs 8.16; 5 x 20
	 * also 8.00, but more volumes) */
	solver_run(&in, &nd, &r);
	CHECK(r.n && r.opts[0].cfg.count == 4,
	      "no instance: 4 volumes cheapest");
	if (r.n)
		CHECK_NEAR(r.opts[0].cost.total, 8.0, 1e-9,
			   "4 x 25 GiB x 0.08");
	solver_result_release(&r);

	in.inst = &inst;
	CHECK(solver_max_stripe(&in) == 2,
	      "3 attachments, root included: at most 2");
	/* 2 x 50 GiB with 4,500 IOPS: 2 x (50 x 0.08 + 1,500 x 0.005) = 23.00 */
	solver_run(&in, &nd, &r);
	CHECK(r.n && r.opts[0].cfg.count == 2,
	      "3 attachments: 2 volumes at most");
	for (size_t i = 0; i < r.n; i++)
		CHECK(r.opts[i].cfg.count <= 2,
		      "option %zu has at most 2 volumes", i);
	if (r.n)
		CHECK_NEAR(r.opts[0].cost.total, 23.0, 1e-9,
			   "2 x (50 x 0.08 + 1500 x 0.005)");
	for (size_t i = 0; i < r.nnotes; i++)
		noted |= !!strstr(r.notes[i],
				  "x.test attaches at most 3 EBS volumes");
	CHECK(noted, "the cap is noted with the instance's name");
	solver_result_release(&r);

	inst.max_ebs_attachments = 0; /* not known: no cap */
	CHECK(solver_max_stripe(&in) == 8, "attachments unknown: no cap");
	inst.max_ebs_attachments = 1; /* the root volume only */
	solver_run(&in, &nd, &r);
	CHECK(r.n == 0 && r.nnotes == 1,
	      "one attachment (the root): nothing offered, noted");
	solver_result_release(&r);

	/* not EBS-optimizable: no limit to check, every option unchecked */
	memset(&inst, 0, sizeof(inst));
	xsnprintf(inst.instance_type, sizeof(inst.instance_type), "t2.micro");
	inst.ebs_optimized = EBS_OPT_UNSUPPORTED;
	solver_run(&in, &nd, &r);
	CHECK(r.n && r.fit == FIT_UNCHECKED && r.opts[0].fit == FIT_UNCHECKED,
	      "unsupported instance: options offered, fit unchecked");
	noted = 0;
	for (size_t i = 0; i < r.nnotes; i++)
		noted |=
		    !!strstr(r.notes[i], "t2.micro is not EBS-optimizable");
	CHECK(noted, "unsupported instance: the note says why");
	solver_result_release(&r);
}

/* A product with neither location nor regionCode, and no usage-type
 * prefix, is us-east-1's: never a region whose prefix is unknown. */
static void test_prefixless(void)
{
	static const char doc[] =
	    "{\"products\": {\"S1\": {\"sku\": \"S1\", \"productFamily\": \"Storage\","
	    " \"attributes\": {\"usagetype\": \"EBS:VolumeUsage.gp2\","
	    " \"volumeApiName\": \"gp2\"}}},"
	    " \"terms\": {\"OnDemand\": {\"S1\": {\"S1.T\": {\"effectiveDate\":"
	    " \"2026-01-01T00:00:00Z\", \"priceDimensions\": {\"S1.T.R\": {\"unit\":"
	    " \"GB-Mo\", \"pricePerUnit\": {\"USD\": \"0.1000000000\"}}}}}}}}";
	struct region_table rt;
	struct price_list pl;
	char err[EBS_ERRLEN];
	int rc;

	if (db_region_table(test_db(), &rt, err)) {
		CHECK(0, "regions: %s", err);
		return;
	}
	price_list_init(&pl);
	rc = pricing_parse(doc, sizeof(doc) - 1, "gen.json", &rt, &pl, NULL,
			   err);
	CHECK(
	    rc == EBS_OK && pl.n == 1 &&
		!strcmp(pl.items[0].region, "us-east-1"),
	    "no prefix, no location: us-east-1, not a region whose prefix is unknown (got %s)",
	    pl.n ? pl.items[0].region
	    : rc ? err
		 : "none");
	price_list_release(&pl);
	region_table_release(&rt);
}

/* Committing the same prices twice records one snapshot. */
static void test_identical_commit(void)
{
	char dir[] = "/tmp/ebsize-unit-data.XXXXXX", path[64], err[EBS_ERRLEN];
	struct price_item it = { .region = "us-east-1",
				 .volume_type = "gp2",
				 .dimension = "storage",
				 .unit = "GiB-month",
				 .currency = "USD",
				 .price_per_unit = 0.11,
				 .end_range = -1 };
	struct price_list pl = { .items = &it, .n = 1 };
	struct price_commit_opts o = { .source = "import:gen",
				       .as_of = "2026-01-01" };
	struct price_commit_report rep;
	struct db *db = NULL;

	if (!mkdtemp(dir))
		return;
	xsnprintf(path, sizeof(path), "%s/d.db", dir);
	if (db_open(path, 0, &db, err)) {
		CHECK(0, "scratch db: %s", err);
		rmdir(dir);
		return;
	}
	CHECK(!db_prices_commit(db, &pl, &o, &rep, err) &&
		  rep.snapshot_id == 2 && !rep.identical,
	      "a changed price: snapshot 2");
	CHECK(!db_prices_commit(db, &pl, &o, &rep, err) && rep.identical &&
		  rep.snapshot_id == 0 && rep.inforce_id == 2,
	      "the same again: nothing recorded, snapshot 2 named");
	CHECK(!db_prices_commit(db, &pl, &o, &rep, err) && rep.identical,
	      "and a third time");
	CHECK(!db_snapshot_exists(db, 3), "no snapshot 3");
	o.as_of = "2026-02-01"; /* the same price, newer evidence */
	CHECK(!db_prices_commit(db, &pl, &o, &rep, err) && !rep.identical &&
		  rep.snapshot_id == 3,
	      "the same price with a newer date: recorded");
	it.price_per_unit = 0.12;
	CHECK(!db_prices_commit(db, &pl, &o, &rep, err) &&
		  rep.snapshot_id == 4 && rep.changed == 1,
	      "a changed price the same day: recorded");
	db_close(db);
	unlink(path);
	xsnprintf(path, sizeof(path), "%s/d.db-wal", dir);
	unlink(path);
	xsnprintf(path, sizeof(path), "%s/d.db-shm", dir);
	unlink(path);
	rmdir(dir);
}

void test_data(void)
{
	test_money_format();
	test_money_cells();
	test_region_prices();
	test_regions();
	test_instances_seeded();
	test_solver_instances();
	test_prefixless();
	test_identical_commit();
}
