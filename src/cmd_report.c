/*
 * cmd_report.c - `ebsize report`: the HTML report with its SVG charts.
 * This file parses options, loads what the charts need from the database
 * (published and stored bench runs, prices and volume rules), asks the
 * chart builders of report_charts.c for each chart and has report.c write
 * the directory.  It draws nothing itself.  `--scan FILE...` runs the
 * scan's own analysis (scan_collect, cmd_scan.c) and charts it with
 * cmd_scan_charts.c.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_scan.h"

#include "ebsize/bench.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/msg.h"
#include "ebsize/report.h"
#include "ebsize/util.h"

#define MAX_RUNS   32
#define MAX_CHARTS 256

struct args {
	const char *dir;
	struct opt_list runs;
	int bench, compare, burst;
	struct cli_sizes sizes;
	long iops;
	double load;
	struct opt_list scan_files;
	struct scan_args scan; /* the scan options that matter to costs */
	long top;
	int generated;
};

#define A(f) offsetof(struct args, f)

static const struct opt report_opts[] = {
	{ "bench", 0, OPT_FLAG, A(bench), NULL,
	  "IOPS over time and latency percentiles of the published\n"
	  "benchmark runs, with the modelled timeline overlaid" },
	{ "runs", 0, OPT_LIST, A(runs), "RUN",
	  "also chart a stored run (id or label; repeatable;\nimplies --bench)",
	  .max = MAX_RUNS },
	{ "compare", 0, OPT_FLAG, A(compare), NULL,
	  "monthly cost against required IOPS and against size for\n"
	  "gp2, gp3, io2 and the cheapest gp3 stripe, in --region" },
	{ "sizes", 0, OPT_FUNC, A(sizes), "LIST",
	  "sizes (GiB) of the size curves", .parse = cli_parse_sizes,
	  .def = "50,100,170,334,500,1000,2000" },
	{ "iops", 0, OPT_INT, A(iops), "N",
	  "the load of the size curve, as compare --iops", .min = 1,
	  .max = 256000, .def = "3000", .unit = OPT_UNIT_COUNT },
	{ "burst", 0, OPT_FLAG, A(burst), NULL,
	  "how long a full gp2 bucket lasts against size" },
	{ "load", 0, OPT_NUM, A(load), "IOPS", "the load of the burst curve",
	  .min = 1, .max = 1e7, .def = "3000", .unit = OPT_UNIT_COUNT },
	{ "scan", 0, OPT_LIST, A(scan_files), "FILE",
	  "chart a scan of these inventory files (what ebsize scan\n"
	  "reads; repeatable): cost now and proposed by category,\n"
	  "region and tag, and the top volumes by savings",
	  .max = SCAN_MAX_FILES, .flags = OPT_PATH },
	{ "metrics", 0, OPT_LIST, A(scan.metrics), "FILE",
	  "--scan: CloudWatch get-metric-data output (repeatable)",
	  .max = SCAN_MAX_FILES, .flags = OPT_PATH },
	{ "usage", 0, OPT_STR, A(scan.usage), "FILE",
	  "--scan: CSV volume_id,used_gib", .flags = OPT_PATH },
	{ "headroom", 0, OPT_NUM, A(scan.opts.headroom_pct), "PCT",
	  "--scan: margin over observed peaks and used space", .min = 0,
	  .max = 1000, .def = "20" },
	{ "min-savings", 0, OPT_NUM, A(scan.opts.min_savings_usd), "USD",
	  "--scan: drop findings saving less per month", .min = 0, .max = 1e9,
	  .def = "0" },
	{ "exclude-tag", 0, OPT_LIST, A(scan.excl), "K[=V]",
	  "--scan: volumes tagged K (=V) are never changed",
	  .max = SCAN_MAX_EXCLUDES },
	{ "by-tag", 0, OPT_STR, A(scan.by_tag), "KEY",
	  "--scan: also chart the costs by the value of tag KEY" },
	{ "top", 0, OPT_INT, A(top), "N",
	  "--scan: volumes in the top-savings chart", .min = 1, .max = 100,
	  .def = "10" },
	{ "generated", 0, OPT_FLAG, A(generated), NULL,
	  "--scan: the inventory is generated test data; every\n"
	  "scan chart says so" },
	{ NULL }
};

/* The scan options, which need --scan. */
static const char *const scan_only[] = { "metrics",	"usage",
					 "headroom",	"min-savings",
					 "exclude-tag", "by-tag",
					 "top",		"generated" };

static int check(struct cli_ctx *ctx, void *args)
{
	struct args *a = args;
	const char *c_ = ctx->cmd_name;

	if (!ctx->output)
		return msg_usage_error(c_, "missing -o DIR");
	if (ctx->format != OUT_TABLE)
		return msg_usage_error(
		    c_, "a report is HTML and SVG: --format does not apply");
	a->dir = ctx->output;
	if (a->runs.n)
		a->bench = 1;
	for (size_t i = 0; i < ARRAY_SIZE(scan_only); i++)
		if (!a->scan_files.n && cli_given(ctx, scan_only[i]))
			return msg_usage_error(c_, "--%s goes with --scan",
					       scan_only[i]);
	if (a->scan_files.n) {
		int rc;

		a->scan.files = a->scan_files.v;
		a->scan.nfiles = a->scan_files.n;
		a->scan.alarm_minutes =
		    5; /* scan's default; no cost depends on it */
		if ((rc = scan_args_check(c_, &a->scan)))
			return rc;
	}
	if (!a->bench && !a->compare && !a->burst && !a->scan_files.n)
		a->bench = a->compare = a->burst = 1;
	if (cli_given(ctx, "iops") && !a->compare)
		return msg_usage_error(c_, "--iops goes with --compare");
	for (size_t i = 0; i < a->sizes.n; i++)
		if (a->sizes.v[i] > 16384) /* gp2's largest size (T1) */
			return msg_usage_error(
			    c_,
			    "--sizes: gp2 volumes are at most 16384 GiB, not %ld",
			    a->sizes.v[i]);
	if (cli_given(ctx, "sizes") && !a->compare && !a->burst)
		return msg_usage_error(
		    c_, "--sizes goes with --compare or --burst");
	if (cli_given(ctx, "load") && !a->burst)
		return msg_usage_error(c_, "--load goes with --burst");
	return EXIT_OK;
}

/* ------------------------------------------------------------ runs */

/* One run loaded with everything the charts need. */
struct loaded {
	struct bench_run run;
	struct bench_phase_result *phases;
	size_t nphases;
	struct bench_sample **samples;
	size_t *nsamples;
};

static void loaded_release(struct loaded *l)
{
	for (size_t i = 0; i < l->nphases; i++)
		free(l->samples[i]);
	free(l->samples);
	free(l->nsamples);
	free(l->phases);
	bench_run_release(&l->run);
}

static int load_run(struct db *db, long long id, struct loaded *l, char *err)
{
	int rc;

	memset(l, 0, sizeof(*l));
	bench_run_init(&l->run);
	if ((rc = db_bench_load_run(db, id, &l->run, err)) ||
	    (rc = db_bench_load_phases(db, id, &l->phases, &l->nphases, err)))
		return rc;
	l->samples = xcalloc(l->nphases ? l->nphases : 1, sizeof(*l->samples));
	l->nsamples =
	    xcalloc(l->nphases ? l->nphases : 1, sizeof(*l->nsamples));
	for (size_t i = 0; i < l->nphases; i++)
		if ((rc = db_bench_load_samples(db, id, l->phases[i].seq,
						&l->samples[i], &l->nsamples[i],
						err)))
			return rc;
	return EBS_OK;
}

struct ids {
	long long *id;
	size_t n, alloc;
};

static int collect_published(const struct bench_run *r, long nphases, void *arg)
{
	struct ids *ids = arg;

	(void)nphases;
	if (strcmp(r->source, "published"))
		return 0;
	xgrow((void **)&ids->id, &ids->alloc, ids->n + 1, sizeof(*ids->id));
	ids->id[ids->n++] = r->id;
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------ names */

struct names {
	char *name[MAX_CHARTS];
	size_t n;
};

/*
 * A unique file stem from text: lowercase [a-z0-9-], runs of anything
 * else as one '-', at most 60 characters; "-2", "-3" ... appended when
 * taken.  Returns a string owned by nm.
 */
static const char *unique_name(struct names *nm, const char *text)
{
	char slug[64];
	size_t o = 0;

	for (const char *p = text; *p && o < 60; p++) {
		char ch = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;

		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			slug[o++] = ch;
		else if (o && slug[o - 1] != '-')
			slug[o++] = '-';
	}
	while (o && slug[o - 1] == '-')
		o--;
	slug[o] = '\0';
	if (!o)
		xsnprintf(slug, sizeof(slug), "chart");
	for (int k = 1; nm->n < MAX_CHARTS; k++) {
		char *cand = k == 1 ? xstrdup(slug) : xstrfmt("%s-%d", slug, k);
		int taken = 0;

		for (size_t i = 0; i < nm->n; i++)
			taken |= !strcmp(nm->name[i], cand);
		if (!taken)
			return nm->name[nm->n++] = cand;
		free(cand);
	}
	return "chart";
}

static void names_release(struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->name[i]);
}

/* The labels' common prefix, cut at a '-' (or the one label whole). */
static char *group_slug(const struct loaded *l, size_t n)
{
	size_t len = strlen(l[0].run.label);

	if (n == 1)
		return xstrdup(l[0].run.label);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;

		while (k < len && l[i].run.label[k] == l[0].run.label[k])
			k++;
		len = k;
	}
	while (len && l[0].run.label[len - 1] != '-')
		len--;
	return len > 1 ? xstrndup(l[0].run.label, len - 1) : xstrdup("runs");
}

/* What a group is called in titles: the write-up for published runs. */
static char *group_title(const struct loaded *l, size_t n)
{
	struct sbuf sb = SBUF_INIT(4096);

	if (!strcmp(l[0].run.source, "published") && l[0].run.provenance) {
		const char *p = l[0].run.provenance;
		size_t k = strcspn(p, "(;");

		while (k && p[k - 1] == ' ')
			k--;
		sbuf_addstr(&sb, "published: ");
		sbuf_add(&sb, p, k);
		return sbuf_detach(&sb, NULL);
	}
	for (size_t i = 0; i < n; i++) {
		sbuf_addstr(&sb, i ? ", " : "");
		sbuf_addstr(&sb, l[i].run.label);
	}
	return sbuf_detach(&sb, NULL);
}

/* ------------------------------------------------------------ charts */

struct build {
	struct report *rep;
	struct names names;
	size_t charts;
};

static void add(struct build *b, struct report_chart *c)
{
	if (!c)
		return;
	report_add(b->rep, c);
	b->charts++;
	msg_progress("report: %zu chart%s", b->charts,
		     b->charts == 1 ? "" : "s");
}

/* IOPS over time and latency per phase for one group of runs. */
static void add_group(struct build *b, const struct loaded *l, size_t n)
{
	struct report_run *rr = xcalloc(n, sizeof(*rr));
	char *slug = group_slug(l, n), *gt = group_title(l, n), *title, *name;

	for (size_t i = 0; i < n; i++) {
		rr[i].run = &l[i].run;
		rr[i].phases = l[i].phases;
		rr[i].nphases = l[i].nphases;
		rr[i].samples = l[i].samples;
		rr[i].nsamples = l[i].nsamples;
	}
	title = xstrfmt("IOPS over time, %s", gt);
	name = xstrfmt("%s-iops", slug);
	add(b, report_chart_iops(unique_name(&b->names, name), title, rr, n));
	free(name);
	free(title);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < l[i].nphases; k++) {
			const char *phase = l[i].phases[k].phase;
			int seen = 0;

			/* each phase name once, where it first appears */
			for (size_t j = 0; j <= i && !seen; j++)
				for (size_t q = 0; q < l[j].nphases && !seen;
				     q++)
					seen = (j < i || q < k) &&
					       !strcmp(l[j].phases[q].phase,
						       phase);
			if (seen)
				continue;
			title = xstrfmt("Latency, %s, %s", phase, gt);
			name = xstrfmt("%s-latency-%s", slug, phase);
			add(b,
			    report_chart_latency(unique_name(&b->names, name),
						 title, rr, n, phase));
			free(name);
			free(title);
		}
	free(rr);
	free(slug);
	free(gt);
}

/* Published runs grouped by write-up (same provenance), in id order. */
static int add_published(struct build *b, struct db *db)
{
	struct ids ids = { 0 };
	struct loaded *l = NULL;
	char err[EBS_ERRLEN];
	int rc;

	if ((rc = db_bench_each_run(db, collect_published, &ids, err)))
		goto out;
	qsort(ids.id, ids.n, sizeof(*ids.id), cmp_ll);
	l = xcalloc(ids.n ? ids.n : 1, sizeof(*l));
	for (size_t i = 0; i < ids.n; i++)
		if ((rc = load_run(db, ids.id[i], &l[i], err)))
			goto out;
	for (size_t i = 0; i < ids.n;) {
		size_t j = i + 1;
		const char *prov =
		    l[i].run.provenance ? l[i].run.provenance : "";

		while (j < ids.n &&
		       !strcmp(prov,
			       l[j].run.provenance ? l[j].run.provenance : ""))
			j++;
		add_group(b, l + i, j - i);
		i = j;
	}
out:
	if (rc)
		msg_error("%s", err);
	for (size_t i = 0; l && i < ids.n; i++)
		loaded_release(&l[i]);
	free(l);
	free(ids.id);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}

static int add_stored(struct build *b, struct db *db, const struct args *a)
{
	struct loaded l[MAX_RUNS];
	long long id[MAX_RUNS];
	size_t n = 0;
	char err[EBS_ERRLEN];
	int rc = EXIT_OK;

	for (size_t i = 0; i < a->runs.n; i++) {
		long long x;
		int dup = 0;

		if (db_bench_find_run(db, a->runs.v[i], &x, err)) {
			msg_error("%s", err);
			msg_hint("see 'ebsize bench list'");
			rc = EXIT_RUNTIME;
			goto out;
		}
		for (size_t k = 0; k < n; k++)
			dup |= id[k] == x;
		if (dup)
			continue;
		id[n] = x;
		if (load_run(db, x, &l[n], err)) {
			msg_error("%s", err);
			loaded_release(&l[n]);
			rc = EXIT_RUNTIME;
			goto out;
		}
		n++;
	}
	if (n)
		add_group(b, l, n);
out:
	for (size_t i = 0; i < n; i++)
		loaded_release(&l[i]);
	return rc;
}

static int add_costs(struct build *b, struct cli_ctx *ctx, const struct args *a)
{
	struct volume_limits lim[VT_COUNT];
	struct price_set *ps = xcalloc(1, sizeof(*ps));
	struct report_cost_input in = { 0 };
	char err[EBS_ERRLEN], note[256];
	int rc = EXIT_RUNTIME;

	memset(lim, 0, sizeof(lim));
	if (db_load_prices(ctx->db, ctx->region, NULL, ps, err)) {
		msg_error("%s", err);
		msg_hint(
		    "see 'ebsize pricing show' for the regions with prices");
		goto out;
	}
	for (int t = 0; t < VT_COUNT; t++)
		if (db_load_limits(ctx->db, (enum vol_type)t, NULL, &lim[t],
				   err)) {
			msg_error("%s", err);
			goto out;
		}
	xsnprintf(note, sizeof(note), "%s, snapshot %lld (%s, as of %s)",
		  ctx->region, ps->snapshot_id, ps->source, ps->as_of);
	in.region = ctx->region;
	in.prices_note = note;
	in.lim = lim;
	in.prices = ps->type;
	in.sizes = a->sizes.v;
	in.nsizes = a->sizes.n;
	in.iops = a->iops;
	in.capacity_gib = 100;
	in.io_kib = 16;
	in.max_stripe = 8;
	add(b,
	    report_chart_cost_iops(unique_name(&b->names, "cost-iops"), &in));
	add(b,
	    report_chart_cost_size(unique_name(&b->names, "cost-size"), &in));
	rc = EXIT_OK;
out:
	free(ps);
	return rc;
}

/* One line per currency: what the fleet costs now and after the proposals. */
static void scan_summary(struct sbuf *sb, const struct scan_fleet *fl)
{
	const struct scan_totals *t = &fl->by[SCAN_BY_CURRENCY];

	for (int usd = 1; usd >= 0; usd--)
		for (size_t i = 0; i < t->n; i++) {
			const struct scan_total *x = &t->t[i];
			long long prop =
			    x->scanned_u - x->savings_u + x->extra_u;
			char now[48], after[48], save[48], year[48];

			if ((strcmp(x->currency, "USD") == 0) != usd)
				continue;
			out_fmt_money(now, sizeof(now),
				      scan_total_money(x->scanned_u),
				      x->currency);
			out_fmt_money(after, sizeof(after),
				      scan_total_money(prop), x->currency);
			out_fmt_money(save, sizeof(save),
				      scan_total_money(x->savings_u),
				      x->currency);
			out_fmt_money(year, sizeof(year),
				      scan_total_money(x->savings_u * 12),
				      x->currency);
			sbuf_addf(
			    sb,
			    " %s: %zu volumes, %zu with a finding; %s a month now, "
			    "%s after the proposals: saves %s a month (%s a year, %.1f %%).",
			    x->currency, x->scanned, x->findings, now, after,
			    save, year,
			    x->scanned_u > 0 ? (double)x->savings_u * 100.0 /
						   (double)x->scanned_u
					     : 0.0);
		}
}

/* The scan section: the analysis of `ebsize scan`, then its charts. */
static int add_scan(struct build *b, struct cli_ctx *ctx, const struct args *a)
{
	struct sbuf src = SBUF_INIT(1 << 16), text = SBUF_INIT(1 << 16);
	struct scan_chart_opts o = { 0 };
	struct report_chart **v;
	struct scan_state st;
	size_t n;
	int rc;

	/* the totals count every finding; only the top ones are kept */
	rc = scan_collect(ctx, &a->scan, (size_t)a->top, 0, "report: ", &st);
	if (rc)
		goto out;
	scan_fleet_sort(&st.fleet);
	for (size_t i = 0; i < a->scan.nfiles; i++)
		sbuf_addf(&src, "%s%s", i ? ", " : "", a->scan.files[i]);
	sbuf_addf(
	    &text,
	    "What ebsize scan finds in %s%s: the monthly cost of the volumes "
	    "with a finding now and after the proposed changes, by category and by "
	    "region%s, and the volumes that save the most. Prices: on-demand, in each "
	    "region's currency (amounts in two currencies are never added).",
	    src.buf,
	    a->generated ? " (GENERATED test data, not a real account)" : "",
	    a->scan.by_tag ? " and tag" : "");
	scan_summary(&text, &st.fleet);
	report_section(b->rep, "Inventory scan", text.buf);
	o.prefix = unique_name(&b->names, "scan");
	o.source = src.buf;
	o.generated = a->generated;
	o.top = (size_t)a->top;
	v = scan_charts(&st, &o, &n);
	for (size_t i = 0; i < n; i++) {
		unique_name(&b->names, v[i]->name);
		add(b, v[i]);
		v[i] = NULL;
	}
	scan_charts_free(v, n);
	if (!st.fleet.nfindings)
		msg_info("report: the scan of %s has no findings to chart",
			 src.buf);
out:
	scan_state_release(&st);
	sbuf_release(&src);
	sbuf_release(&text);
	return rc;
}

static int run(struct cli_ctx *ctx, void *args)
{
	const struct args *a = args;
	struct build b = { 0 };
	char err[EBS_ERRLEN];
	int rc = EXIT_OK;

	b.rep = report_new(
	    "ebsize report",
	    "Charts from ebsize's embedded data and database: published fio "
	    "benchmark runs with the credit-bucket model overlaid, cost curves "
	    "from the solver, and the gp2 credit bucket.  Published runs have "
	    "summaries only; they are drawn as published points, never as a "
	    "per-second series.  Lines labelled modelled come from the model.  "
	    "A scan section shows what ebsize scan finds in an inventory.");
	if (a->bench) {
		report_section(
		    b.rep, "Benchmarks",
		    "IOPS over time and latency percentiles per phase; gp2 and gp3 "
		    "side by side where a write-up measured both.");
		if ((rc = add_published(&b, ctx->db)) ||
		    (a->runs.n && (rc = add_stored(&b, ctx->db, a))))
			goto out;
	}
	if (a->compare) {
		char *text = xstrfmt(
		    "Monthly cost in %s against the IOPS and the size a "
		    "workload needs.",
		    ctx->region);

		report_section(b.rep, "Cost curves", text);
		free(text);
		if ((rc = add_costs(&b, ctx, a)))
			goto out;
	}
	if (a->burst) {
		report_section(
		    b.rep, "gp2 credit bucket",
		    "How long a gp2 volume bursts before its credit cliff.");
		add(&b, report_chart_burst_sizes(
			    unique_name(&b.names, "gp2-burst-duration"),
			    a->load, a->sizes.v, a->sizes.n));
	}
	if (a->scan_files.n && (rc = add_scan(&b, ctx, a)))
		goto out;
	msg_progress("report: writing %zu charts to '%s'", b.charts, a->dir);
	if (report_write(b.rep, a->dir, err)) {
		msg_error("%s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	msg_progress_done();
	msg_info("wrote '%s/index.html' with %zu chart%s", a->dir, b.charts,
		 b.charts == 1 ? "" : "s");
out:
	msg_progress_done();
	report_free(b.rep);
	names_release(&b.names);
	return rc;
}

const struct cmd cmd_report_def = {
	.name = "report",
	.run = run,
	.args_size = sizeof(struct args),
	.flags = CMD_NEEDS_DB | CMD_OUTPUT_DIR,
	.summary =
	    "an HTML report with SVG charts: benchmarks, cost curves, credits",
	.synopsis =
	    "-o DIR [--bench] [--runs RUN]... [--compare] [--sizes LIST]"
	    " [--iops N] [--burst] [--load IOPS]\n"
	    "-o DIR --scan FILE... [--metrics FILE]... [--usage FILE]"
	    " [--headroom PCT] [--min-savings USD] [--exclude-tag KEY[=VALUE]]..."
	    " [--by-tag KEY] [--top N] [--generated]",
	.description =
	    "Write an HTML report with SVG charts to DIR: DIR/index.html (self-contained:\n"
	    "inline SVG and CSS, no scripts, nothing fetched, so it works offline and in\n"
	    "mail) and every chart also as DIR/NAME.svg.  Each chart is followed by the\n"
	    "data behind it.  Without --bench, --runs, --compare, --burst or --scan\n"
	    "the first three are written.  --scan charts what\n"
	    "ebsize scan finds in an inventory (the same analysis and options; the\n"
	    "global --region keeps only that region's volumes).\n"
	    "-o DIR (the global output option) names the directory, created if\n"
	    "missing.",
	.opts = report_opts,
	.check = check,
	.epilog =
	    "Exit status: 0 ok, 1 runtime error (nothing written), 2 usage error.",
};
