/*
 * test_report.c - the report's charts and files.  The published gp2 run
 * (seed-benchmarks.md A) keeps its cliff at 1,999 s while the model's 100
 * GiB gp2 at 3,000 IOPS drops to 300 at 2,000 s (5,400,000 / 2,700, T2);
 * the cost curves cross where the prices say (ebs-facts.md T6); scan
 * charts draw generated findings; the page and the SVGs are well-formed,
 * hostile labels stay text, and a report is written whole or not at all.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/out.h"
#include "ebsize/report.h"
#include "ebsize/svg.h"
#include "ebsize/util.h"
#include "xmlcheck.h"

/* The cell of row r (0-based) in column c. */
static const char *cell(const struct report_chart *ch, size_t r, size_t c)
{
	size_t i = r * ch->data.ncols + c;

	return i < ch->data.ncells ? ch->data.cells[i] : "";
}

static size_t rows_of(const struct report_chart *ch)
{
	return ch->data.ncols ? ch->data.ncells / ch->data.ncols : 0;
}

/* First row whose column c equals v (from row `from`), or (size_t)-1. */
static size_t find_row(const struct report_chart *ch, size_t c, const char *v,
		       size_t from)
{
	for (size_t r = from; r < rows_of(ch); r++)
		if (!strcmp(cell(ch, r, c), v))
			return r;
	return (size_t)-1;
}

static void test_model_series(void)
{
	static const struct {
		const char *type;
		double size;
		long iops, seconds;
		size_t n;
		double t[6], v[6];
		const char *why;
	} rows[] = {
		{ "gp2",
		  100,
		  0,
		  2700,
		  4,
		  { 0, 2000, 2000, 2700 },
		  { 3000, 3000, 300, 300 },
		  "gp2 100 GiB: 5,400,000 / (3,000 - 300) = 2,000 s at 3,000, then the 300 baseline" },
		{ "gp2",
		  8,
		  0,
		  180,
		  2,
		  { 0, 180 },
		  { 3000, 3000 },
		  "gp2 8 GiB: the cliff at 1,862 s lies beyond 180 s" },
		{ "gp2",
		  8,
		  0,
		  2000,
		  6,
		  { 0, 1862, 1862, 1863, 1863, 2000 },
		  { 3000, 3000, 300, 300, 100, 100 },
		  "gp2 8 GiB: 1,862 s x 2,900 leaves 200 credits: 300 for one second, then 100" },
		{ "gp3",
		  100,
		  0,
		  600,
		  2,
		  { 0, 600 },
		  { 3000, 3000 },
		  "gp3 without provisioned IOPS: the included 3,000 (T3)" },
		{ "io2",
		  100,
		  0,
		  60,
		  0,
		  { 0 },
		  { 0 },
		  "io2 with IOPS unknown: no model" },
		{ "standard", 8, 0, 60, 0, { 0 }, { 0 }, "standard: no model" },
		{ "", 8, 0, 60, 0, { 0 }, { 0 }, "type unknown: no model" },
		{ "gp2", NAN, 0, 60, 0, { 0 }, { 0 }, "size unknown: no model" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		double t[8], v[8], demand;
		size_t n = report_model_series(rows[i].type, rows[i].size,
					       rows[i].iops, rows[i].seconds, t,
					       v, 8, &demand);
		int same = n == rows[i].n;

		for (size_t k = 0; same && k < n; k++)
			same = t[k] == rows[i].t[k] &&
			       fabs(v[k] - rows[i].v[k]) < 1e-9;
		CHECK(same, "modelled series: %s (%zu vertices)", rows[i].why,
		      n);
	}
}

/* Runs 1 and 2: the published gp3 and gp2 of write-up A. */
struct pub {
	struct bench_run run[2];
	struct bench_phase_result *p[2];
	size_t np[2];
	struct report_run rr[2];
};

static int load_pub(struct pub *x)
{
	char err[EBS_ERRLEN];

	memset(x, 0, sizeof(*x));
	for (int i = 0; i < 2; i++) {
		bench_run_init(&x->run[i]);
		if (db_bench_load_run(test_db(), i + 1, &x->run[i], err) ||
		    db_bench_load_phases(test_db(), i + 1, &x->p[i], &x->np[i],
					 err)) {
			CHECK(0, "load published run %d: %s", i + 1, err);
			return -1;
		}
		x->rr[i].run = &x->run[i];
		x->rr[i].phases = x->p[i];
		x->rr[i].nphases = x->np[i];
	}
	return 0;
}

static void free_pub(struct pub *x)
{
	for (int i = 0; i < 2; i++) {
		bench_run_release(&x->run[i]);
		free(x->p[i]);
	}
}

static void test_published_iops(void)
{
	struct pub x;
	struct report_chart *c;
	size_t r;
	char why[256];

	if (load_pub(&x))
		return;
	c = report_chart_iops("published-a-iops", "IOPS over time", x.rr, 2);
	CHECK(c != NULL, "the published runs give an IOPS chart");
	if (!c)
		goto out;
	CHECK(xml_check(c->svg, why, sizeof(why)) == 0,
	      "IOPS chart well-formed: %s", why);
	/* the published cliff: 1,999 s, 3,001 -> 300 (seed-benchmarks.md A) */
	r = find_row(c, 1, "published cliff", 0);
	CHECK(
	    r != (size_t)-1 && !strcmp(cell(c, r, 0), "published-A-gp2-100") &&
		!strcmp(cell(c, r, 2), "1,999") &&
		!strcmp(cell(c, r, 3), "300") &&
		!strcmp(cell(c, r, 4), "3,001 -> 300 IOPS"),
	    "data: the published gp2 cliff sits at 1,999 s, 3,001 -> 300 IOPS");
	CHECK(strstr(c->svg, "class=\"annotation\" data-x=\"1999\"") != NULL,
	      "SVG: the published cliff annotated at 1,999 s");
	/* the model: 100 GiB gp2 at 3,000 IOPS crosses to 300 at 2,000 s */
	r = find_row(c, 1, "modelled", 0);
	while (r != (size_t)-1 && strcmp(cell(c, r, 0), "published-A-gp2-100"))
		r = find_row(c, 1, "modelled", r + 1);
	CHECK(
	    r != (size_t)-1 && !strcmp(cell(c, r, 2), "0") &&
		!strcmp(cell(c, r, 3), "3,000") &&
		!strcmp(cell(c, r + 1, 2), "2,000") &&
		!strcmp(cell(c, r + 1, 3), "3,000") &&
		!strcmp(cell(c, r + 2, 2), "2,000") &&
		!strcmp(cell(c, r + 2, 3), "300") &&
		!strcmp(cell(c, r + 3, 2), "2,700") &&
		!strcmp(cell(c, r + 3, 3), "300"),
	    "data: modelled gp2 100 GiB at 3,000 IOPS drops to 300 at 2,000 s");
	CHECK(strstr(c->svg,
		     "data-values=\"0,3000 2000,3000 2000,300 2700,300\"") &&
		  strstr(c->svg, "class=\"annotation\" data-x=\"2000\""),
	      "SVG: the modelled line's values and its cliff at 2,000 s");
	/* published levels are drawn as levels, not as a series */
	r = find_row(c, 1, "published average", 0);
	CHECK(r != (size_t)-1 && find_row(c, 1, "measured", 0) == (size_t)-1,
	      "published runs: averages, and no measured series made up");
	CHECK(strstr(c->svg, "modelled") &&
		  strstr(c->svg, "<title id=\"published-a-iops-title\">"),
	      "the model is labelled modelled; the chart has a <title>");
	report_chart_free(c);
out:
	free_pub(&x);
}

static void test_latency(void)
{
	struct pub x;
	struct report_chart *c;

	if (load_pub(&x))
		return;
	c = report_chart_latency("lat", "Latency", x.rr, 2, "randwrite-qd32");
	CHECK(c && rows_of(c) == 2, "randwrite-qd32: one row per run");
	if (c) {
		/* seed-benchmarks.md A: gp3 10.2/11.2/12.0, gp2 11.1/109.6/133.7 ms */
		CHECK(
		    !strcmp(cell(c, 0, 0), "published-A-gp3-100") &&
			!strcmp(cell(c, 0, 3), "10.200") &&
			!strcmp(cell(c, 0, 5), "12.000") &&
			!strcmp(cell(c, 1, 1), "gp2") &&
			!strcmp(cell(c, 1, 4), "109.600") &&
			!strcmp(cell(c, 1, 5), "133.700"),
		    "latency percentiles as published, gp2 and gp3 side by side");
		CHECK(strstr(c->svg, "data-values=\"11.1 109.6 133.7\"") !=
			  NULL,
		      "gp2 bars carry their values");
	}
	report_chart_free(c);
	c = report_chart_latency("lat", "Latency", x.rr, 2, "randread-qd32");
	CHECK(c && !strcmp(cell(c, 0, 3), "n/a") &&
		  !strcmp(cell(c, 0, 5), "12.900"),
	      "randread-qd32: only p99 was published (p50 was a range): n/a");
	report_chart_free(c);
	c = report_chart_latency("lat", "Latency", x.rr, 2, "seqread");
	CHECK(c == NULL, "seqread has no percentiles: no chart");
	free_pub(&x);
}

/* ------------------------------------------------------------ costs */

struct prices {
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	long sizes[7];
	struct report_cost_input in;
};

static int load_prices(struct prices *p)
{
	static const long sizes[] = { 50, 100, 170, 334, 500, 1000, 2000 };
	char err[EBS_ERRLEN];

	memset(p, 0, sizeof(*p));
	if (db_load_prices(test_db(), "us-east-1", NULL, &p->ps, err)) {
		CHECK(0, "prices: %s", err);
		return -1;
	}
	for (int t = 0; t < VT_COUNT; t++)
		if (db_load_limits(test_db(), (enum vol_type)t, NULL,
				   &p->lim[t], err)) {
			CHECK(0, "limits: %s", err);
			return -1;
		}
	memcpy(p->sizes, sizes, sizeof(sizes));
	p->in.region = "us-east-1";
	p->in.prices_note = "test";
	p->in.lim = p->lim;
	p->in.prices = p->ps.type;
	p->in.sizes = p->sizes;
	p->in.nsizes = ARRAY_SIZE(sizes);
	p->in.iops = 3000;
	p->in.capacity_gib = 100;
	p->in.io_kib = 16;
	p->in.max_stripe = 8;
	return 0;
}

static void test_cost_size(void)
{
	struct prices *p = xcalloc(1, sizeof(*p));
	struct report_chart *c;
	size_t r;
	char why[256];

	if (load_prices(p))
		goto out;
	c = report_chart_cost_size("cost-size", &p->in);
	CHECK(c != NULL, "cost against size");
	if (!c)
		goto out;
	CHECK(xml_check(c->svg, why, sizeof(why)) == 0,
	      "cost chart well-formed: %s", why);
	/*
	 * us-east-1 (T6): gp2 $0.10/GiB; gp3 $0.08/GiB + $0.04 per MiB/s above
	 * 125.  Never slower than gp2 means 250 MiB/s above 170 GiB:
	 * 170: gp2 17.00 > gp3 13.60; 171: gp2 17.10 < gp3 13.68 + 5 = 18.68
	 * -> gp2 cheaper from 171; 250: both 25.00; 251: gp2 25.10 > gp3 25.08
	 * -> gp3 cheaper again from 250 (the first size not dearer).
	 */
	CHECK(
	    strstr(c->svg,
		   "class=\"annotation\" data-x=\"171\" data-y=\"17.1\"") !=
		NULL,
	    "crossover at 171 GiB: gp2 becomes cheaper than a never-slower gp3");
	CHECK(strstr(c->svg,
		     "class=\"annotation\" data-x=\"250\" data-y=\"25\"") !=
		  NULL,
	      "crossover at 250 GiB: gp3 cheaper again");
	CHECK(c->caption &&
		  strstr(c->caption, "from 171 GiB: gp2 cheaper than gp3") &&
		  strstr(c->caption, "from 250 GiB: gp3 cheaper than gp2"),
	      "crossovers labelled in words");
	/* 100 GiB: gp2 $10.00, gp3 $8.00, io2 100 x 0.125 + 3,000 x 0.065 =
	 * $207.50, stripe 2 x 50 GiB with 3,000 IOPS each included = $8.00 */
	r = find_row(c, 0, "100", 0);
	CHECK(
	    r != (size_t)-1 && !strcmp(cell(c, r, 1), "$10.00") &&
		!strcmp(cell(c, r, 2), "$8.00") &&
		!strcmp(cell(c, r, 3), "$207.50") &&
		!strcmp(cell(c, r, 4), "$8.00") &&
		!strcmp(cell(c, r, 5), "2 x gp3 50 GiB, 3000 IOPS, 125 MiB/s"),
	    "100 GiB row by hand (%s %s %s %s %s)", cell(c, r, 1),
	    cell(c, r, 2), cell(c, r, 3), cell(c, r, 4), cell(c, r, 5));
	/* 200 GiB: gp3 needs 250 MiB/s: 16 + 5 = 21 > gp2 20; two gp3 of 100
	 * GiB carry 125 MiB/s each, included: $16.00 */
	r = find_row(c, 0, "200", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(c, r, 1), "$20.00") &&
		  !strcmp(cell(c, r, 2), "$21.00") &&
		  !strcmp(cell(c, r, 4), "$16.00"),
	      "200 GiB: the stripe beats both (%s %s %s)", cell(c, r, 1),
	      cell(c, r, 2), cell(c, r, 4));
	report_chart_free(c);
out:
	free(p);
}

static void test_cost_iops(void)
{
	struct prices *p = xcalloc(1, sizeof(*p));
	struct report_chart *c;
	size_t r;

	if (load_prices(p))
		goto out;
	c = report_chart_cost_iops("cost-iops", &p->in);
	CHECK(c != NULL, "cost against IOPS");
	if (!c)
		goto out;
	/*
	 * 20,000 IOPS, 100 GiB, 16 KiB I/O -> 312.5 MiB/s.  gp2: 16,000 at
	 * most, none.  gp3: 8 + 17,000 x 0.005 + (312.5 -> 313 - 125) x 0.04 =
	 * 8 + 85 + 7.52 = $100.52.  io2: 12.50 + 20,000 x 0.065 = $1,312.50.
	 */
	r = find_row(c, 0, "20,000", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(c, r, 1), "none") &&
		  !strcmp(cell(c, r, 2), "$100.52") &&
		  !strcmp(cell(c, r, 3), "$1,312.50"),
	      "20,000 IOPS by hand (%s %s %s)", cell(c, r, 1), cell(c, r, 2),
	      cell(c, r, 3));
	/* 15,000: gp2 5,000 GiB = $500.00 */
	r = find_row(c, 0, "15,000", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(c, r, 1), "$500.00"),
	      "15,000 IOPS on gp2 needs 5,000 GiB: $500.00 (%s)",
	      cell(c, r, 1));
	/* 100,000: beyond one gp3 (80,000), io2 and the stripe only */
	r = find_row(c, 0, "100,000", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(c, r, 2), "none") &&
		  strcmp(cell(c, r, 3), "none") &&
		  strcmp(cell(c, r, 4), "none"),
	      "100,000 IOPS: no single gp3, io2 and a gp3 stripe do");
	report_chart_free(c);
out:
	free(p);
}

static void test_burst_sizes(void)
{
	static const long sizes[] = { 100 };
	struct report_chart *c =
	    report_chart_burst_sizes("gp2-burst", 3000, sizes, 1);
	size_t r;

	CHECK(c != NULL, "burst duration chart");
	if (!c)
		return;
	/* T2: 100 GiB: 5,400,000 / 2,700 = 2,000 s = 33 min; 1 GiB: / 2,900 */
	r = find_row(c, 0, "100", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(c, r, 1), "300") &&
		  !strcmp(cell(c, r, 3), "2,000") &&
		  !strcmp(cell(c, r, 4), "33 min"),
	      "100 GiB lasts 2,000 s");
	r = find_row(c, 0, "1", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(c, r, 3), "1,862"),
	      "1 GiB lasts 1,862 s");
	CHECK(find_row(c, 0, "1,000", 0) == (size_t)-1 &&
		  strstr(c->svg, "data-x=\"1000\""),
	      "from 1,000 GiB no cliff: not on the curve, marked instead");
	report_chart_free(c);
}

static void test_burst_timeline(void)
{
	struct bucket b;
	struct burst_step st = { 3000, 2700 };
	struct burst_profile p = { &st, 1, 1 };
	struct report_chart *rate, *cred;
	size_t r;

	burst_bucket(VT_GP2, 100, &b);
	report_charts_burst("burst", &b, &p, b.capacity, &rate, &cred);
	CHECK(rate && cred, "burst charts");
	if (!rate || !cred)
		goto out;
	/* vertices only: (0, 3,000), (2,000, 3,000), (2,000, 300), (2,700, 300) */
	CHECK(strstr(rate->svg,
		     "data-values=\"0,3000 2000,3000 2000,300 2700,300\"") !=
		  NULL,
	      "delivered: four vertices, the drop at 2,000 s");
	CHECK(strstr(cred->svg, "data-values=\"0,100 2000,0 2700,0\"") != NULL,
	      "credits: a straight line to empty at 2,000 s");
	r = find_row(rate, 0, "2,700", 0);
	CHECK(r != (size_t)-1 && !strcmp(cell(rate, r, 1), "3,000.0") &&
		  !strcmp(cell(rate, r, 2), "300.0"),
	      "the table lists the vertices");
out:
	report_chart_free(rate);
	report_chart_free(cred);
}

/* ------------------------------------------------------------ scan */

static void test_scan_charts(void)
{
	/* generated test data, not a real inventory */
	static const struct report_scan_finding f[] = {
		{ "vol-gen-1", "db <script>alert(1)</script>", "us-east-1",
		  "gp2_to_gp3", "gp2 500 GiB", "gp3 500 GiB", 50, 40, 10 },
		{ "vol-gen-2", NULL, "us-east-1", "unattached", "gp3 100 GiB",
		  "delete", 8, 0, 8 },
		{ "vol-gen-3", "\"><svg onload=alert(1)>", "eu-west-1",
		  "overprovisioned", "io2 100 GiB 10000 IOPS",
		  "gp3 100 GiB 10000 IOPS", 670, 43, 627 },
		{ "vol-gen-4", "web", "eu-west-1", "gp2_to_gp3", "gp2 100 GiB",
		  "gp3 100 GiB", 10, 8, 2 },
		{ "vol-gen-5", "x", "eu-west-1", "excluded", "gp2 100 GiB",
		  "gp2 100 GiB", 10, 10, 0 },
	};
	static const struct report_scan_total cat[] = {
		{ "gp2_to_gp3", 2, 60, 48, 12 },
		{ "overprovisioned", 1, 670, 43, 627 },
		{ "unattached", 1, 8, 0, 8 },
	};
	static const struct report_scan_total reg[] = {
		{ "eu-west-1", 3, 690, 61, 629 },
		{ "us-east-1", 2, 58, 40, 18 },
	};
	struct report_scan s = { "generated.json",
				 1,
				 f,
				 ARRAY_SIZE(f),
				 cat,
				 ARRAY_SIZE(cat),
				 reg,
				 ARRAY_SIZE(reg),
				 3 };
	struct report_chart *c;
	char why[256];

	c = report_chart_scan_totals("scan-categories", &s, 0);
	CHECK(c && xml_check(c->svg, why, sizeof(why)) == 0,
	      "scan totals well-formed");
	CHECK(
	    c && strstr(c->svg, "data-values=\"60 670 8\"") &&
		strstr(c->svg, "data-values=\"48 43 0\"") && rows_of(c) == 3 &&
		!strcmp(cell(c, 1, 4), "$627.00"),
	    "current and proposed per category, with the savings in the table");
	CHECK(c && strstr(c->title, "generated"),
	      "generated data is labelled generated");
	report_chart_free(c);
	c = report_chart_scan_totals("scan-regions", &s, 1);
	CHECK(c && rows_of(c) == 2 && !strcmp(cell(c, 0, 0), "eu-west-1") &&
		  strstr(c->svg, "data-values=\"690 58\""),
	      "per region");
	report_chart_free(c);
	c = report_chart_scan_top("scan-top", &s);
	/* by savings: 627 (vol-gen-3), 10 (vol-gen-1), 8 (vol-gen-2); top 3 */
	CHECK(c && rows_of(c) == 3 && !strcmp(cell(c, 0, 0), "vol-gen-3") &&
		  !strcmp(cell(c, 1, 0), "vol-gen-1") &&
		  !strcmp(cell(c, 2, 0), "vol-gen-2"),
	      "the top 3 volumes by savings, largest first");
	CHECK(c && xml_check(c->svg, why, sizeof(why)) == 0 &&
		  strstr(c->svg,
			 "vol-gen-3 (&quot;&gt;&lt;svg onload=alert(1)&gt;)") &&
		  !strstr(c->svg, "<script"),
	      "volume names are escaped (%s)", why);
	report_chart_free(c);
}

/* ------------------------------------------------------------ page, files */

static struct report *small_report(void)
{
	struct report *r =
	    report_new("<b>report</b>", "intro & <script>alert(1)</script>");
	static const long sizes[] = { 100 };

	report_section(r, "gp2 \"bucket\"", "text");
	report_add(r, report_chart_burst_sizes("gp2-burst", 3000, sizes, 1));
	report_add(r, report_chart_burst_sizes("gp2-burst-2", 6000, sizes, 1));
	return r;
}

static void test_html(void)
{
	struct report *r = small_report();
	struct sbuf sb = SBUF_INIT(1 << 24);
	size_t svgs = 0;

	CHECK(report_html(r, &sb) == 0, "the page renders");
	for (const char *p = sb.buf; (p = strstr(p, "<svg ")); p++)
		svgs++;
	CHECK(svgs == 2 && report_chart_count(r) == 2,
	      "one inline <svg> per chart");
	CHECK(!strstr(sb.buf, "<script") && !strstr(sb.buf, "<b>") &&
		  strstr(sb.buf,
			 "intro &amp; &lt;script&gt;alert(1)&lt;/script&gt;"),
	      "report text is escaped");
	CHECK(
	    strstr(sb.buf,
		   "Content-Security-Policy\" content=\"default-src 'none'") &&
		!strstr(sb.buf, " src=") && !strstr(sb.buf, "href=\"http") &&
		!strstr(sb.buf, "url(http") && !strstr(sb.buf, "@import"),
	    "nothing to fetch, and the page says so");
	CHECK(strstr(sb.buf, "<details><summary>") &&
		  strstr(sb.buf, "<td class=\"n\">2,000</td>"),
	      "each chart's data in a collapsed table");
	sbuf_release(&sb);
	report_free(r);
}

static int exists(const char *dir, const char *name)
{
	char *p = xstrfmt("%s/%s", dir, name);
	int yes = !access(p, F_OK);

	free(p);
	return yes;
}

/* Entries of dir other than . and .. */
static int count_entries(const char *dir)
{
	char *cmd = xstrfmt("ls -A '%s' | wc -l", dir);
	FILE *f = popen(cmd, "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	free(cmd);
	return n;
}

static void test_write(void)
{
	char tmpl[] = "/tmp/ebsize-report-unit.XXXXXX", err[EBS_ERRLEN];
	struct report *r = small_report();
	char *dir, *blocked, *cmd, *file;

	if (!mkdtemp(tmpl)) {
		CHECK(0, "mkdtemp");
		report_free(r);
		return;
	}
	dir = xstrfmt("%s/out/new", tmpl);
	CHECK(report_write(r, dir, err) == 0,
	      "report written to a new directory (%s)", err);
	CHECK(exists(dir, "index.html") && exists(dir, "gp2-burst.svg") &&
		  exists(dir, "gp2-burst-2.svg") && count_entries(dir) == 3,
	      "index.html and one SVG per chart, no temporary files left");
	/* a directory where index.html goes: refused before anything is written */
	blocked = xstrfmt("%s/blocked", tmpl);
	file = xstrfmt("%s/index.html", blocked);
	mkdir(blocked, 0755);
	mkdir(file, 0755);
	CHECK(report_write(r, blocked, err) == EBS_ERR_IO &&
		  strstr(err, "it is a directory"),
	      "index.html in the way: error '%s'", err);
	CHECK(count_entries(blocked) == 1, "... and nothing else written");
	free(file);
	/* DIR is a file */
	file = xstrfmt("%s/afile", tmpl);
	write_file_atomic(file, "x", 1, err);
	CHECK(report_write(r, file, err) == EBS_ERR_IO &&
		  strstr(err, "is not a directory"),
	      "a file as the directory: error '%s'", err);
	free(file);
	cmd = xstrfmt("rm -rf '%s'", tmpl);
	if (system(cmd))
		CHECK(0, "cleanup");
	free(cmd);
	free(blocked);
	free(dir);
	report_free(r);
}

static void test_md_image(void)
{
	struct out_doc *doc = out_doc_new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	out_md_image(doc, "a [chart]", "my dir/x (1).svg");
	out_render(doc, OUT_MD, f);
	fclose(f);
	CHECK(buf &&
		  !strcmp(buf, "![a \\[chart\\]](my%20dir/x%20%281%29.svg)\n"),
	      "Markdown image: brackets escaped, path encoded: '%s'",
	      buf ? buf : "");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_render(doc, OUT_TABLE, f);
	fclose(f);
	CHECK(buf && !*buf, "other formats leave the image out");
	free(buf);
	out_doc_free(doc);
}

void test_report(void)
{
	test_model_series();
	test_published_iops();
	test_latency();
	test_cost_size();
	test_cost_iops();
	test_burst_sizes();
	test_burst_timeline();
	test_scan_charts();
	test_html();
	test_write();
	test_md_image();
}
