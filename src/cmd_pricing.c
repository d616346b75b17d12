/*
 * cmd_pricing.c - `ebsize pricing show|fetch|import|history|diff`: the
 * prices in force, a live refresh from the AWS Price List Query API, an
 * import of saved API responses or offer files, the list of snapshots,
 * and what changed between two of them.
 *
 * The HTTP and SigV4 work is in pricing_fetch.c, JSON in pricing_parse.c,
 * database writes in db_prices.c; this file parses options, wires them
 * together and renders results.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ebsize/aws_creds.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/db_prices.h"
#include "ebsize/http.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/pricing.h"
#include "ebsize/util.h"

static const char usage_text[] =
	"usage: ebsize pricing show [--region R | --all-regions] [--type T]\n"
	"       ebsize pricing fetch --bulk [--region R ... | --all-regions]\n"
	"                            [--endpoint URL] [--accept-changes] [--timeout S]\n"
	"       ebsize pricing fetch [--region R ... | --all-regions] [--endpoint URL]\n"
	"                            [--profile P] [--accept-changes] [--max-pages N]\n"
	"                            [--timeout S]\n"
	"       ebsize pricing fetch --explain-credentials [--profile P]\n"
	"       ebsize pricing import [--accept-changes] FILE...\n"
	"       ebsize pricing history [--region R]\n"
	"       ebsize pricing diff [--region R] [A [B]]\n\n"
	"  show            the EBS prices in force: for each region the newest\n"
	"                  complete snapshot (embedded, fetched or imported)\n"
	"  fetch --bulk    get the prices from AWS's public bulk Price List (no\n"
	"                  credentials): one offer file per region, streamed, one\n"
	"                  snapshot per region, all stored or none\n"
	"  fetch           get the prices from the AWS Price List Query API\n"
	"                  (GetProducts, SigV4) and store them as a new snapshot;\n"
	"                  on any failure the snapshot in force stays untouched\n"
	"  import          the same from saved responses ('aws pricing\n"
	"                  get-products ... > page.json', one or more pages) or\n"
	"                  offer files of any size (read as a stream)\n"
	"  history         every snapshot: source, time, counts, in force or not\n"
	"  diff            per-price changes from snapshot A to B (default: the\n"
	"                  two newest; A alone: A against the newest)\n\n"
	"  --region R      a region (fetch: repeat for several; default: the\n"
	"                  global --region)\n"
	"  --all-regions   show: every region; fetch: no region filter (--bulk:\n"
	"                  every region of the aws and cn indexes)\n"
	"  --type T        show: one volume type\n"
	"  --endpoint URL  fetch: the Price List endpoint (else\n"
	"                  $AWS_ENDPOINT_URL_PRICING, $AWS_ENDPOINT_URL,\n"
	"                  " PRICING_DEFAULT_ENDPOINT ",\n"
	"                  with --bulk " PRICING_BULK_HOST ");\n"
	"                  https, or http to a loopback host only\n"
	"  --accept-changes  store prices that moved more than 3x\n"
	"  --max-pages N   fetch: pages per query before giving up (default 100)\n"
	"  --timeout S     fetch: give up after S seconds in all (default 300;\n"
	"                  --bulk: 600 per region file)\n"
	"  --profile P     fetch: the AWS profile (else $AWS_PROFILE, 'default');\n"
	"                  environment keys are then not used\n"
	"  --explain-credentials  which credential source fetch would use, and\n"
	"                  what it tried first; never shows a secret\n"
	"  -h, --help      this help\n\n"
	"Credentials (fetch without --bulk), the AWS CLI's order: the\n"
	"environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,\n"
	"AWS_SESSION_TOKEN); the profile in ~/.aws/config and ~/.aws/credentials\n"
	"(role_arn with source_profile or credential_source, web identity, SSO,\n"
	"static keys, credential_process); container credentials; EC2 instance\n"
	"metadata (IMDSv2).  See the README, \"Live prices\".\n\n"
	"Units: storage per GiB-month, IOPS per IOPS-month, throughput per\n"
	"MiB/s-month (the Price List quotes GiBps-month: divided by 1024), and\n"
	"standard I/O per million requests.  Ranges: only units inside\n"
	"[from, to) are billed at that price (gp3 IOPS above 3,000, io2 tiers).\n"
	"Prices in other currencies (CNY in China) are kept as quoted and never\n"
	"used for USD answers.\n";

static void today(char out[16])
{
	char now[32];

	utc_now_iso(now);
	xsnprintf(out, 16, "%.10s", now);
}

/* ------------------------------------------------------------ show */

struct show_ctx {
	struct out_table *t;
	size_t n;
};

static int add_price(const struct price_row *p, void *arg)
{
	struct show_ctx *sc = arg;
	struct out_table *t = sc->t;

	out_row(t);
	out_str(t, p->region);
	out_str(t, p->volume_type);
	out_str(t, p->dimension);
	out_num(t, p->price_per_unit);
	out_str(t, p->currency);
	out_str(t, p->unit);
	out_num(t, p->begin_range);
	if (p->end_range >= 0)
		out_num(t, p->end_range);
	else
		out_null(t);
	out_str(t, p->usagetype);
	out_int(t, p->snapshot_id);
	out_str(t, p->as_of);
	out_str(t, p->source);
	sc->n++;
	return 0;
}

static int show(struct cli_ctx *ctx, const char *region, const char *type)
{
	struct out_doc *doc = out_doc_new();
	struct show_ctx sc = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	sc.t = out_list(doc, "prices", NULL);
	out_col(sc.t, "region", "Region", OUT_TEXT);
	out_col(sc.t, "volume_type", "Type", OUT_TEXT);
	out_col(sc.t, "dimension", "Dimension", OUT_TEXT);
	out_col(sc.t, "price_per_unit", "Price", OUT_EXACT);
	out_col(sc.t, "currency", "Cur", OUT_TEXT);
	out_col(sc.t, "unit", "Unit", OUT_TEXT);
	out_col(sc.t, "begin_range", "From", OUT_INT);
	out_col(sc.t, "end_range", "To", OUT_INT);
	out_col(sc.t, "usagetype", "Usage type", OUT_TEXT);
	out_col(sc.t, "snapshot", "Snap", OUT_INT);
	out_col(sc.t, "as_of", "As of", OUT_TEXT);
	out_col(sc.t, "source", "Source", OUT_TEXT);
	if (db_each_price(ctx->db, region, type, add_price, &sc, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	if (!sc.n) {
		msg_error("no prices for region '%s'%s%s", region ? region : "(any)",
			  type ? " and type " : "", type ? type : "");
		msg_hint("'ebsize pricing show --all-regions' lists the regions with prices");
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

static int cmd_show(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "region", required_argument, NULL, 'r' },
		{ "all-regions", no_argument, NULL, 'a' },
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *region = ctx->region, *type = NULL;
	enum vol_type vt;
	int c, all = 0;

	while ((c = cmd_getopt("pricing", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'r':
			region = optarg;
			break;
		case 'a':
			all = 1;
			break;
		case 't':
			type = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return msg_usage_error("pricing", "unexpected argument '%s'", argv[optind]);
	if (type && model_type_parse(type, &vt))
		return msg_usage_error("pricing", "unknown volume type '%s'", type);
	return show(ctx, all ? NULL : region, type ? model_type_name(vt) : NULL);
}

/* ------------------------------------------------------------ storing */

/* The record every fetch and import prints. */
static void report_list(struct out_doc *doc, struct out_table *t,
			const struct price_list *pl,
			const struct price_commit_report *rep)
{
	out_kv_int(t, "snapshot_id", "Snapshot", rep->snapshot_id);
	out_kv_int(t, "regions", "Regions", (long long)rep->regions);
	out_kv_int(t, "products", "Products read", (long long)pl->products);
	out_kv_int(t, "prices", "Prices stored", (long long)rep->inserted);
	out_kv_int(t, "carried", "Carried forward", (long long)rep->carried);
	out_kv_int(t, "changed", "Changed", (long long)rep->changed);
	out_kv_int(t, "unknown", "Unknown products", (long long)pl->unknown);
	out_kv_int(t, "skipped", "Skipped", (long long)pl->skipped);
	out_kv_int(t, "duplicates", "Duplicates", (long long)pl->duplicates);
	out_doc_notes_key(doc);
	if (pl->unknown)
		out_note(doc, "%zu product%s without an EBS volume price ignored (first: %s)",
			 pl->unknown, pl->unknown == 1 ? "" : "s", pl->first_unknown);
	if (rep->carried)
		out_note(doc, "%zu price%s missing from the new data carried forward from the snapshot in force",
			 rep->carried, rep->carried == 1 ? "" : "s");
}

/* ------------------------------------------------------------ fetch */

/* Default --timeout of a Query API fetch, for the whole fetch. */
#define FETCH_TIMEOUT_S 300

struct fetch_args {
	const char *endpoint;
	int all, accept;
	long max_pages;
	int bulk, explain, max_pages_set;
	long timeout_s;          /* --timeout; 0: the default */
	const char *profile;     /* --profile */
	long long start_ms;      /* when the command started (the deadline's base) */
};

static void show_progress(void *arg, const char *region, long pages,
			  size_t products)
{
	(void)arg;
	if (msg_progress_enabled())
		msg_progress("fetching prices: %s, %ld page%s, %zu products", region,
			     pages, pages == 1 ? "" : "s", products);
}

/* "fetching prices: us-west-2 (1/3): 120.3 of 474.9 MB, 51.2 MB/s, ETA 7 s" */
static void show_bulk_progress(void *arg, const struct bulk_progress *bp)
{
	char total[32] = "", eta[32] = "";

	(void)arg;
	if (!msg_progress_enabled())
		return;
	if (bp->total > 0)
		xsnprintf(total, sizeof(total), " of %.1f", (double)bp->total / 1e6);
	if (bp->eta_s >= 0)
		xsnprintf(eta, sizeof(eta), ", ETA %ld s", bp->eta_s);
	msg_progress("fetching prices: %s (%zu/%zu): %.1f%s MB, %.1f MB/s%s",
		     bp->region, bp->index, bp->count, (double)bp->bytes / 1e6, total,
		     bp->rate_bps / 1e6, eta);
}

/* --endpoint, else AWS_ENDPOINT_URL_PRICING, else AWS_ENDPOINT_URL; NULL
 * when none is set. */
static const char *endpoint_override(const char *opt)
{
	const char *e = opt;

	if (!e || !*e)
		e = getenv("AWS_ENDPOINT_URL_PRICING");
	if (!e || !*e)
		e = getenv("AWS_ENDPOINT_URL");
	return e && *e ? e : NULL;
}

/*
 * Test hooks: EBSIZE_FETCH_BACKOFF_MS (the first retry delay) and
 * EBSIZE_FETCH_LOW_SPEED_TIME (seconds below 100 bytes/s that make a
 * stall); the tests set them low.
 */
static void fetch_tuning_from_env(struct pricing_fetch_opts *fo)
{
	const char *v = getenv("EBSIZE_FETCH_BACKOFF_MS");
	long n;

	if (v && !parse_long_range(v, 0, 60000, &n))
		fo->backoff_ms = n;
	v = getenv("EBSIZE_FETCH_LOW_SPEED_TIME");
	if (v && !parse_long_range(v, 1, 3600, &n))
		fo->low_speed_s = n;
}

/* The whole-fetch deadline from --timeout (else default_s; 0: none). */
static void set_deadline(struct pricing_fetch_opts *fo,
			 const struct fetch_args *a, long default_s)
{
	long s = a->timeout_s ? a->timeout_s : default_s;

	if (!s)
		return;
	fo->deadline_s = s;
	fo->deadline_ms = a->start_ms + (long long)s * 1000;
}

/* The regions asked for: none (all), every --region, or the default. */
static void set_regions(struct pricing_fetch_opts *fo, struct cli_ctx *ctx,
			const struct fetch_args *a, const char **one)
{
	one[0] = ctx->region;
	fo->regions = a->all ? NULL : ctx->nregions ? ctx->regions : one;
	fo->nregions = a->all ? 0 : ctx->nregions ? ctx->nregions : 1;
}

/*
 * A snapshot's vintage: as_of is the data's publication date when it
 * gives one (offer files, PriceList items), else its newest
 * effectiveDate, else today; notes name the version.
 */
static void vintage(const struct price_list *pl, char as_of[16], char *notes,
		    size_t nlen)
{
	if (pl->published[0])
		xsnprintf(as_of, 16, "%.10s", pl->published);
	else if (pl->effective[0])
		xsnprintf(as_of, 16, "%s", pl->effective);
	else
		today(as_of);
	notes[0] = '\0';
	if (pl->published[0])
		xsnprintf(notes, nlen, "Price List version %s, published %s",
			  pl->version[0] ? pl->version : "(none)", pl->published);
}

/* Store what a fetch got as a new snapshot; prints the error.  0 or -1. */
static int store_fetched(struct cli_ctx *ctx, const struct pricing_fetch_opts *fo,
			 const struct fetch_args *a, const struct price_list *pl,
			 struct price_commit_report *rep)
{
	struct price_commit_opts co = { 0 };
	char err[EBS_ERRLEN], as_of[16], notes[200];
	char *source = xstrfmt("fetch:%s", fo->endpoint);
	int rc;

	vintage(pl, as_of, notes, sizeof(notes));
	today(as_of);             /* the Query API answers with today's prices */
	co.source = source;
	co.as_of = as_of;
	co.notes = notes[0] ? notes : NULL;
	co.require = fo->regions;
	co.nrequire = fo->nregions;
	co.require_all = a->all;
	co.accept_changes = a->accept;
	rc = db_prices_commit(ctx->db, pl, &co, rep, err);
	if (rc)
		msg_error("fetched prices from '%s' not stored: %s", fo->endpoint, err);
	free(source);
	return rc ? -1 : 0;
}

/* Print a failed credential search, with what to try next. */
static void creds_error(const char *err)
{
	msg_error("%s", err);
	if (str_starts_with(err, "no AWS credentials"))
		msg_hint("'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials");
}

/*
 * Fetch from the Query API, check, store, report.  The credentials are
 * found here and wiped before returning, whatever happens.
 */
static int fetch(struct cli_ctx *ctx, const struct fetch_args *a)
{
	struct pricing_fetch_opts fo;
	struct pricing_fetch_stats stats;
	struct aws_creds creds = { 0 };
	struct aws_creds_opts co = { 0 };
	struct region_table rt = { 0 };
	struct price_list pl;
	struct price_commit_report rep;
	struct out_doc *doc = NULL;
	struct out_table *t;
	const char *one[1];
	char err[EBS_ERRLEN], sig[32], source[sizeof(creds.source)];
	int rc;

	price_list_init(&pl);
	pricing_fetch_opts_init(&fo);
	fo.endpoint = endpoint_override(a->endpoint);
	if (!fo.endpoint)
		fo.endpoint = PRICING_DEFAULT_ENDPOINT;
	if ((rc = pricing_endpoint_check(fo.endpoint, sig, err))) {
		if (rc == EBS_ERR_USAGE)
			return msg_usage_error("pricing", "%s", err);
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	rc = EXIT_RUNTIME;
	set_deadline(&fo, a, FETCH_TIMEOUT_S);
	co.profile = a->profile;
	co.deadline_ms = fo.deadline_ms;
	if (aws_creds_resolve(&creds, &co, err)) {
		creds_error(err);
		goto out;
	}
	xsnprintf(source, sizeof(source), "%s", creds.source);
	if (db_region_table(ctx->db, &rt, err)) {
		msg_error("%s", err);
		goto out;
	}
	set_regions(&fo, ctx, a, one);
	fo.creds = &creds;
	fo.rt = &rt;
	fo.max_pages = a->max_pages;
	fo.progress = show_progress;
	fetch_tuning_from_env(&fo);
	rc = pricing_fetch(&fo, &pl, &stats, err);
	aws_creds_release(&creds);
	msg_progress_done();
	if (rc) {
		msg_error("%s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (store_fetched(ctx, &fo, a, &pl, &rep)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	doc = out_doc_new();
	t = out_record(doc, NULL, "Fetched prices");
	out_kv_str(t, "endpoint", "Endpoint", fo.endpoint);
	out_kv_str(t, "credentials", "Credentials", source);
	out_kv_int(t, "requests", "Requests", stats.requests);
	out_kv_int(t, "pages", "Pages", stats.pages);
	out_kv_int(t, "retries", "Retries", stats.retries);
	report_list(doc, t, &pl, &rep);
	rc = cli_render(ctx, doc);
out:
	aws_creds_release(&creds);
	region_table_release(&rt);
	price_list_release(&pl);
	out_doc_free(doc);
	return rc;
}

/* ------------------------------------------------------------ bulk */

/* One row of the bulk report. */
static void bulk_row(struct out_table *t, const struct bulk_region *br,
		     const struct price_commit_report *rep, const char *as_of)
{
	out_row(t);
	out_str(t, br->region);
	out_int(t, rep->snapshot_id);
	out_str(t, br->pl.version);
	out_str(t, br->pl.published);
	out_str(t, as_of);
	out_int(t, (long long)br->pl.products);
	out_int(t, (long long)rep->inserted);
	out_int(t, (long long)rep->carried);
	out_int(t, (long long)rep->changed);
	out_int(t, (long long)br->pl.unknown);
	out_int(t, br->bytes);
	out_str(t, br->url);
}

static struct out_doc *bulk_report(const struct bulk_result *res,
				   const struct pricing_fetch_stats *st,
				   const struct price_commit_report *reps,
				   char (*as_of)[16])
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_record(doc, NULL, "Fetched prices (bulk)");

	out_kv_str(t, "mode", "Mode", "bulk");
	out_kv_int(t, "requests", "Requests", st->requests);
	out_kv_int(t, "retries", "Retries", st->retries);
	out_kv_int(t, "resumes", "Resumed", st->resumes);
	out_kv_int(t, "bytes", "Bytes read", st->bytes);
	t = out_list(doc, "regions", NULL);
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "snapshot_id", "Snap", OUT_INT);
	out_col(t, "version", "Version", OUT_TEXT);
	out_col(t, "published", "Published", OUT_TEXT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "products", "Products", OUT_INT);
	out_col(t, "prices", "Prices", OUT_INT);
	out_col(t, "carried", "Carried", OUT_INT);
	out_col(t, "changed", "Changed", OUT_INT);
	out_col(t, "unknown", "Unknown", OUT_INT);
	out_col(t, "bytes", "Bytes", OUT_INT);
	out_col(t, "url", "Offer file", OUT_TEXT);
	for (size_t i = 0; i < res->n; i++)
		bulk_row(t, &res->v[i], &reps[i], as_of[i]);
	return doc;
}

/*
 * Store every region's prices as its own snapshot, all in one
 * transaction; prints the error.  0 or -1.
 */
static int store_bulk(struct cli_ctx *ctx, const struct fetch_args *a,
		      const struct bulk_result *res,
		      struct price_commit_report *reps, char (*as_of)[16])
{
	const struct price_list **pls = xcalloc(res->n, sizeof(*pls));
	struct price_commit_opts *co = xcalloc(res->n, sizeof(*co));
	char (*notes)[200] = xcalloc(res->n, sizeof(*notes));
	char **sources = xcalloc(res->n, sizeof(*sources));
	const char **req = xcalloc(res->n, sizeof(*req));
	char err[EBS_ERRLEN];
	int rc;

	for (size_t i = 0; i < res->n; i++) {
		pls[i] = &res->v[i].pl;
		vintage(pls[i], as_of[i], notes[i], sizeof(notes[i]));
		sources[i] = xstrfmt("bulk:%s", res->v[i].url);
		req[i] = res->v[i].region;
		co[i].source = sources[i];
		co[i].as_of = as_of[i];
		co[i].notes = notes[i][0] ? notes[i] : NULL;
		co[i].require = &req[i];
		co[i].nrequire = 1;
		co[i].accept_changes = a->accept;
	}
	rc = db_prices_commit_many(ctx->db, pls, co, res->n, reps, err);
	if (rc)
		msg_error("bulk prices not stored: %s", err);
	for (size_t i = 0; i < res->n; i++)
		free(sources[i]);
	free(sources);
	free(req);
	free(notes);
	free(co);
	free(pls);
	return rc ? -1 : 0;
}

/* `pricing fetch --bulk`: the public offer files, no credentials. */
static int fetch_bulk(struct cli_ctx *ctx, const struct fetch_args *a)
{
	struct pricing_fetch_opts fo;
	struct pricing_fetch_stats stats;
	struct region_table rt = { 0 };
	struct bulk_result res = { NULL, 0 };
	struct price_commit_report *reps = NULL;
	char (*as_of)[16] = NULL;
	struct out_doc *doc = NULL;
	const char *one[1];
	char err[EBS_ERRLEN], sig[32];
	int rc = EXIT_RUNTIME;

	pricing_fetch_opts_init(&fo);
	fo.endpoint = endpoint_override(a->endpoint);
	if (fo.endpoint && (rc = pricing_endpoint_check(fo.endpoint, sig, err))) {
		if (rc == EBS_ERR_USAGE)
			return msg_usage_error("pricing", "%s", err);
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	rc = EXIT_RUNTIME;
	if (db_region_table(ctx->db, &rt, err)) {
		msg_error("%s", err);
		goto out;
	}
	set_deadline(&fo, a, 0);
	set_regions(&fo, ctx, a, one);
	fo.rt = &rt;
	fo.progress_bulk = show_bulk_progress;
	fetch_tuning_from_env(&fo);
	if (pricing_fetch_bulk(&fo, &res, &stats, err)) {
		msg_progress_done();
		msg_error("%s", err);
		goto out;
	}
	msg_progress_done();
	reps = xcalloc(res.n, sizeof(*reps));
	as_of = xcalloc(res.n, sizeof(*as_of));
	if (store_bulk(ctx, a, &res, reps, as_of))
		goto out;
	doc = bulk_report(&res, &stats, reps, as_of);
	rc = cli_render(ctx, doc);
out:
	bulk_result_release(&res);
	region_table_release(&rt);
	free(reps);
	free(as_of);
	out_doc_free(doc);
	return rc;
}

/* ------------------------------------------------------------ credentials */

static void add_trace(void *arg, const char *source, const char *result)
{
	struct out_table *t = arg;

	out_row(t);
	out_str(t, source);
	out_str(t, result);
}

/*
 * `pricing fetch --explain-credentials`: which source the chain would
 * use and what it tried before, never a secret (the key id is masked).
 */
static int explain_credentials(struct cli_ctx *ctx, const struct fetch_args *a)
{
	struct aws_creds creds = { 0 };
	struct aws_creds_opts co = { 0 };
	struct out_doc *doc = out_doc_new();
	struct out_table *r = out_record(doc, NULL, "Credentials"), *t;
	char err[EBS_ERRLEN], key[24], when[32];
	int rc;

	t = out_list(doc, "tried", "Tried, in order");
	out_col(t, "source", "Source", OUT_TEXT);
	out_col(t, "result", "Result", OUT_TEXT);
	co.profile = a->profile;
	co.deadline_ms = a->start_ms + (long long)(a->timeout_s ? a->timeout_s : 60) * 1000;
	co.trace = add_trace;
	co.trace_arg = t;
	rc = aws_creds_resolve(&creds, &co, err);
	out_kv_str(r, "source", "Source", rc ? NULL : creds.source);
	aws_creds_mask_key(creds.access_key_id, key);
	out_kv_str(r, "access_key_id", "Access key id", rc ? NULL : key);
	out_kv_bool(r, "session_token", "Session token", creds.session_token != NULL);
	if (creds.expiration) {
		time_t e = (time_t)creds.expiration;
		struct tm tm;

		gmtime_r(&e, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		out_kv_str(r, "expires", "Expires", when);
	} else {
		out_kv_null(r, "expires", "Expires", OUT_TEXT);
	}
	aws_creds_release(&creds);
	if (cli_render(ctx, doc)) {
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	out_doc_free(doc);
	if (rc) {
		creds_error(err);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Checks between options of fetch; prints the usage error.  0 or 2. */
static int fetch_args_check(struct cli_ctx *ctx, const struct fetch_args *a)
{
	if (a->all && ctx->region_from_opt)
		return msg_usage_error("pricing", "give --region or --all-regions, not both");
	if (a->bulk && (a->profile || a->explain))
		return msg_usage_error("pricing", "--bulk needs no credentials: drop %s",
				       a->profile ? "--profile" : "--explain-credentials");
	if (a->bulk && a->max_pages_set)
		return msg_usage_error("pricing", "--max-pages is for the Query API, not --bulk");
	return 0;
}

static int cmd_fetch(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "all-regions", no_argument, NULL, 'a' },
		{ "endpoint", required_argument, NULL, 'e' },
		{ "accept-changes", no_argument, NULL, 'A' },
		{ "max-pages", required_argument, NULL, 'p' },
		{ "bulk", no_argument, NULL, 'B' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "profile", required_argument, NULL, 'P' },
		{ "explain-credentials", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct fetch_args a = { 0 };
	int c;

	a.max_pages = 100;
	a.start_ms = http_now_ms();
	while ((c = cmd_getopt("pricing", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'a':
			a.all = 1;
			break;
		case 'e':
			a.endpoint = optarg;
			break;
		case 'A':
			a.accept = 1;
			break;
		case 'p':
			a.max_pages_set = 1;
			if (cmd_parse_long("pricing", "--max-pages", optarg, 1, 100000,
					   &a.max_pages))
				return EXIT_USAGE;
			break;
		case 'B':
			a.bulk = 1;
			break;
		case 'T':
			if (cmd_parse_long("pricing", "--timeout", optarg, 1, 86400,
					   &a.timeout_s))
				return EXIT_USAGE;
			break;
		case 'P':
			a.profile = optarg;
			break;
		case 'X':
			a.explain = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return msg_usage_error("pricing", "unexpected argument '%s'", argv[optind]);
	if (fetch_args_check(ctx, &a))
		return EXIT_USAGE;
	if (a.explain)
		return explain_credentials(ctx, &a);
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	return a.bulk ? fetch_bulk(ctx, &a) : fetch(ctx, &a);
}

/* ------------------------------------------------------------ import */

/* Bytes read from an import file at a time. */
#define IMPORT_CHUNK (1u << 20)

/*
 * Stream one file ("-": stdin) through the Price List parser into pl:
 * read a chunk, feed it, repeat, so a whole offer file of any size is
 * read in bounded memory.
 */
static int import_file(const char *path, const struct region_table *rt,
		       struct price_list *pl, char *err)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	struct pricing_stream *ps;
	char *buf;
	size_t n;
	int rc = EBS_OK;

	if (!f)
		return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s", path,
				strerror(errno));
	ps = pricing_stream_new(path, rt, pl);
	buf = xmalloc(IMPORT_CHUNK);
	while (!rc && (n = fread(buf, 1, IMPORT_CHUNK, f)) > 0)
		rc = pricing_stream_feed(ps, buf, n, err);
	if (!rc && ferror(f))
		rc = ebs_fail(err, EBS_ERR_IO, "cannot read '%s': %s", path,
			      strerror(errno ? errno : EIO));
	if (!rc)
		rc = pricing_stream_finish(ps, NULL, err);
	pricing_stream_free(ps);
	free(buf);
	if (!is_stdin)
		fclose(f);
	return rc;
}

static int import(struct cli_ctx *ctx, char **files, int nfiles, int accept)
{
	struct region_table rt = { 0 };
	struct price_list pl;
	struct price_commit_report rep;
	struct price_commit_opts co = { 0 };
	struct out_doc *doc = NULL;
	struct out_table *t;
	struct sbuf src = SBUF_INIT(4096);
	char err[EBS_ERRLEN], as_of[16], notes[200];
	int rc = EXIT_RUNTIME;

	price_list_init(&pl);
	if (db_region_table(ctx->db, &rt, err)) {
		msg_error("%s", err);
		goto out;
	}
	sbuf_addstr(&src, "import:");
	for (int i = 0; i < nfiles; i++) {
		const char *base = strrchr(files[i], '/');

		if (import_file(files[i], &rt, &pl, err)) {
			msg_error("%s", err);
			goto out;
		}
		sbuf_addf(&src, "%s%s", i ? "," : "", base ? base + 1 : files[i]);
	}
	vintage(&pl, as_of, notes, sizeof(notes));
	co.source = src.buf;
	co.as_of = as_of;
	co.notes = notes[0] ? notes : NULL;
	co.accept_changes = accept;
	if (db_prices_commit(ctx->db, &pl, &co, &rep, err)) {
		msg_error("prices from '%s' not stored: %s", files[0], err);
		goto out;
	}
	doc = out_doc_new();
	t = out_record(doc, NULL, "Imported prices");
	out_kv_int(t, "files", "Files", nfiles);
	out_kv_str(t, "as_of", "As of", as_of);
	out_kv_str(t, "version", "Version", pl.version[0] ? pl.version : NULL);
	report_list(doc, t, &pl, &rep);
	rc = cli_render(ctx, doc);
out:
	region_table_release(&rt);
	price_list_release(&pl);
	sbuf_release(&src);
	out_doc_free(doc);
	return rc;
}

static int cmd_import(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "accept-changes", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, accept = 0;

	while ((c = cmd_getopt("pricing", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'A':
			accept = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return msg_usage_error("pricing", "import needs at least one FILE");
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	return import(ctx, argv + optind, argc - optind, accept);
}

/* ------------------------------------------------------------ history */

static int add_snapshot(const struct snapshot_info *si, void *arg)
{
	struct out_table *t = arg;

	out_row(t);
	out_int(t, si->id);
	out_str(t, si->source);
	out_str(t, si->fetched_at);
	out_str(t, si->as_of);
	out_bool(t, si->complete);
	out_int(t, si->regions);
	out_int(t, si->prices);
	out_bool(t, si->in_force_regions > 0);
	out_int(t, si->in_force_regions);
	return 0;
}

static int cmd_history(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *region = ctx->region_from_opt ? ctx->region : NULL;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int c, rc;

	while ((c = cmd_getopt("pricing", argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return EXIT_OK;
		}
		return EXIT_USAGE;
	}
	if (optind < argc)
		return msg_usage_error("pricing", "unexpected argument '%s'", argv[optind]);
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	doc = out_doc_new();
	t = out_list(doc, "snapshots", NULL);
	out_col(t, "id", "Snap", OUT_INT);
	out_col(t, "source", "Source", OUT_TEXT);
	out_col(t, "fetched_at", "Fetched at", OUT_TEXT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "complete", "Complete", OUT_BOOL);
	out_col(t, "regions", "Regions", OUT_INT);
	out_col(t, "prices", "Prices", OUT_INT);
	out_col(t, "in_force", "In force", OUT_BOOL);
	out_col(t, "in_force_regions", "In force for", OUT_INT);
	if (db_each_snapshot(ctx->db, region, add_snapshot, t, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

/* ------------------------------------------------------------ diff */

struct diff_ctx {
	struct out_table *t;
	size_t n;
};

static int add_change(const struct price_change *pc, void *arg)
{
	struct diff_ctx *dc = arg;
	struct out_table *t = dc->t;

	out_row(t);
	out_str(t, pc->region);
	out_str(t, pc->volume_type);
	out_str(t, pc->dimension);
	out_num(t, pc->begin_range);
	out_str(t, pc->currency);
	if (pc->has_old)
		out_num(t, pc->old_price);
	else
		out_null(t);
	if (pc->has_new)
		out_num(t, pc->new_price);
	else
		out_null(t);
	if (pc->has_old && pc->has_new && pc->old_price > 0)
		out_num(t, (pc->new_price / pc->old_price - 1) * 100);
	else
		out_null(t);
	out_str(t, !pc->has_old ? "added" : !pc->has_new ? "removed" : "changed");
	dc->n++;
	return 0;
}

/* Does snapshot id exist?  Prints the error itself when not. */
static int snapshot_known(struct cli_ctx *ctx, long long id)
{
	if (db_snapshot_exists(ctx->db, id))
		return 1;
	msg_error("no price snapshot %lld", id);
	msg_hint("'ebsize pricing history' lists the snapshots");
	return 0;
}

static int diff(struct cli_ctx *ctx, long long a, long long b,
		const char *region)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *r;
	struct diff_ctx dc = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	r = out_record(doc, NULL, "Price diff");
	out_kv_int(r, "from", "From snapshot", a);
	out_kv_int(r, "to", "To snapshot", b);
	dc.t = out_list(doc, "changes", NULL);
	out_col(dc.t, "region", "Region", OUT_TEXT);
	out_col(dc.t, "volume_type", "Type", OUT_TEXT);
	out_col(dc.t, "dimension", "Dimension", OUT_TEXT);
	out_col(dc.t, "begin_range", "From", OUT_INT);
	out_col(dc.t, "currency", "Cur", OUT_TEXT);
	out_col(dc.t, "old_price", "Old", OUT_EXACT);
	out_col(dc.t, "new_price", "New", OUT_EXACT);
	out_col(dc.t, "change_pct", "Change", OUT_PCT);
	out_col(dc.t, "status", "Status", OUT_TEXT);
	if (db_diff_snapshots(ctx->db, a, b, region, add_change, &dc, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	out_doc_notes_key(doc);
	if (!dc.n)
		out_note(doc, "no price differs between snapshots %lld and %lld over the regions both hold",
			 a, b);
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

static int cmd_diff(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *region = ctx->region_from_opt ? ctx->region : NULL;
	char err[EBS_ERRLEN];
	long long older = 0, newer = 0;
	long ids[2] = { 0, 0 };
	int c, nargs;

	while ((c = cmd_getopt("pricing", argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return EXIT_OK;
		}
		return EXIT_USAGE;
	}
	nargs = argc - optind;
	if (nargs > 2)
		return msg_usage_error("pricing", "unexpected argument '%s'", argv[optind + 2]);
	for (int i = 0; i < nargs; i++)
		if (cmd_parse_long("pricing", "a snapshot id", argv[optind + i], 1,
				   2147483647L, &ids[i]))
			return EXIT_USAGE;
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	if (nargs < 2 &&
	    db_two_newest_snapshots(ctx->db, region, &older, &newer, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (nargs == 0)
		return diff(ctx, older, newer, region);
	if (!snapshot_known(ctx, ids[0]) || (nargs == 2 && !snapshot_known(ctx, ids[1])))
		return EXIT_RUNTIME;
	return diff(ctx, ids[0], nargs == 2 ? ids[1] : newer, region);
}

/* ------------------------------------------------------------ dispatch */

/* In the order the help lists them. */
static const struct subcmd subcommands[] = {
	{ "show", cmd_show },
	{ "fetch", cmd_fetch },
	{ "import", cmd_import },
	{ "history", cmd_history },
	{ "diff", cmd_diff },
};

int cmd_pricing(int argc, char **argv, struct cli_ctx *ctx)
{
	return cmd_dispatch("pricing", usage_text, subcommands,
			    ARRAY_SIZE(subcommands), argc, argv, ctx);
}
