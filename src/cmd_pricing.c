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
#include <stddef.h>
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
#include "ebsize/outfile.h"
#include "ebsize/price_sheet.h"
#include "ebsize/pricing.h"
#include "ebsize/util.h"

#define PRICE_UNITS_TEXT                                                             \
	"Units: storage per GiB-month, IOPS per IOPS-month, throughput per\n"        \
	"MiB/s-month (the Price List quotes GiBps-month: divided by 1024), and\n"    \
	"standard I/O per million requests.  Ranges: only units inside\n"            \
	"[from, to) are billed at that price (gp3 IOPS above 3,000, io2 tiers).\n"   \
	"Prices are kept in the currency AWS quotes (CNY in China); answers for a\n" \
	"region use its currency only, and say which."

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

	sc->n++;
	return price_sheet_row(p, sc->t);
}

static int show(struct cli_ctx *ctx, const char *region, const char *type,
		const char *as_of)
{
	struct out_doc *doc = out_doc_new();
	struct show_ctx sc = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	sc.t = out_list(doc, "prices", NULL);
	price_sheet_cols(sc.t);
	if (db_each_price(ctx->db, region, type, as_of, add_price, &sc, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	if (!sc.n) {
		char first[32];

		db_earliest_prices(ctx->db, region, first, sizeof(first));
		if (as_of && *first && strcmp(as_of, first) < 0)
			/* a date before the first snapshot: say which is first */
			msg_error(
			    "no prices for region '%s'%s%s as of %s: the earliest are as of %s",
			    region ? region : "(any)", type ? " and type " : "",
			    type ? type : "", as_of, first);
		else
			msg_error("no prices for region '%s'%s%s%s%s",
				  region ? region : "(any)",
				  type ? " and type " : "", type ? type : "",
				  as_of ? " as of " : "", as_of ? as_of : "");
		if (region)
			cli_price_hints(region, type);
		msg_hint(
		    "'ebsize pricing regions' shows which regions have prices");
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

static const char *const show_type_names[] = { "gp2",	   "gp3",      "io1",
					       "io2",	   "st1",      "sc1",
					       "standard", "snapshot", NULL };

struct show_args {
	int all;
	const char *type;
	const char *as_of;
};

static const struct opt show_opts[] = {
	{ "all-regions", 0, OPT_FLAG, offsetof(struct show_args, all), NULL,
	  "every region (default: the global --region)" },
	{ "type", 0, OPT_STR, offsetof(struct show_args, type), "T",
	  "one volume type, or snapshot (snapshot storage)",
	  .choices = show_type_names },
	{ "as-of", 0, OPT_DATE, offsetof(struct show_args, as_of), "DATE",
	  "the prices in force on DATE" },
	{ NULL }
};

static int cmd_pricing_show(struct cli_ctx *ctx, void *args)
{
	const struct show_args *a = args;
	enum vol_type vt;

	if (a->type && !strcmp(a->type, "snapshot")) /* snapshot storage */
		return show(ctx, a->all ? NULL : ctx->region, a->type,
			    a->as_of);
	if (a->type && model_type_parse(a->type, &vt))
		return msg_usage_error(ctx->cmd_name,
				       "unknown volume type '%s'", a->type);
	return show(ctx, a->all ? NULL : ctx->region,
		    a->type ? model_type_name(vt) : NULL, a->as_of);
}

/* ------------------------------------------------------------ storing */

/* The record every fetch and import prints. */
static void report_list(struct out_doc *doc, struct out_table *t,
			const struct price_list *pl,
			const struct price_commit_report *rep)
{
	/* identical data records nothing: the snapshot in force stays */
	out_kv_int(t, "snapshot_id", "Snapshot",
		   rep->identical ? rep->inforce_id : rep->snapshot_id);
	out_kv_bool(t, "recorded", "New snapshot", !rep->identical);
	out_kv_int(t, "regions", "Regions", (long long)rep->regions);
	out_kv_int(t, "products", "Products read", (long long)pl->products);
	out_kv_int(t, "prices", "Prices stored", (long long)rep->inserted);
	out_kv_int(t, "carried", "Carried forward", (long long)rep->carried);
	out_kv_int(t, "changed", "Changed", (long long)rep->changed);
	out_kv_int(t, "unknown", "Unknown products", (long long)pl->unknown);
	out_kv_int(t, "skipped", "Skipped", (long long)pl->skipped);
	out_kv_int(t, "duplicates", "Duplicates", (long long)pl->duplicates);
	out_doc_notes_key(doc);
	if (rep->identical)
		out_note(
		    doc,
		    "all %zu price%s equal the prices in force (snapshot %lld): nothing new recorded",
		    pl->n, pl->n == 1 ? "" : "s", rep->inforce_id);
	if (pl->unknown)
		out_note(
		    doc,
		    "%zu product%s without an EBS volume price ignored (first: %s)",
		    pl->unknown, pl->unknown == 1 ? "" : "s",
		    pl->first_unknown);
	if (rep->carried)
		out_note(
		    doc,
		    "%zu price%s missing from the new data carried forward from the snapshot in force",
		    rep->carried, rep->carried == 1 ? "" : "s");
}

/* ------------------------------------------------------------ fetch */

/* Default --timeout of a Query API fetch, for the whole fetch. */
#define FETCH_TIMEOUT_S 300

struct fetch_args {
	const char *endpoint;
	int all, accept;
	long max_pages;
	int bulk, explain;
	long timeout_s;	     /* --timeout; 0: the default */
	const char *profile; /* --profile */
	long long start_ms; /* when the command started (the deadline's base) */
};

static void show_progress(void *arg, const char *region, long pages,
			  size_t products)
{
	(void)arg;
	if (msg_progress_enabled())
		msg_progress("fetching prices: %s, %ld page%s, %zu products",
			     region, pages, pages == 1 ? "" : "s", products);
}

/* "fetching prices: us-west-2 (1/3): 120.3 of 474.9 MB, 51.2 MB/s, ETA 7 s" */
static void show_bulk_progress(void *arg, const struct bulk_progress *bp)
{
	char total[32] = "", eta[32] = "";

	(void)arg;
	if (!msg_progress_enabled())
		return;
	if (bp->total > 0)
		xsnprintf(total, sizeof(total), " of %.1f",
			  (double)bp->total / 1e6);
	if (bp->eta_s >= 0)
		xsnprintf(eta, sizeof(eta), ", ETA %ld s", bp->eta_s);
	msg_progress("fetching prices: %s (%zu/%zu): %.1f%s MB, %.1f MB/s%s",
		     bp->region, bp->index, bp->count, (double)bp->bytes / 1e6,
		     total, bp->rate_bps / 1e6, eta);
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
			  pl->version[0] ? pl->version : "(none)",
			  pl->published);
}

/* Store what a fetch got as a new snapshot; prints the error.  0 or -1. */
static int store_fetched(struct cli_ctx *ctx,
			 const struct pricing_fetch_opts *fo,
			 const struct fetch_args *a,
			 const struct price_list *pl,
			 struct price_commit_report *rep)
{
	struct price_commit_opts co = { 0 };
	char err[EBS_ERRLEN], as_of[16], notes[200];
	char *source = xstrfmt("fetch:%s", fo->endpoint);
	int rc;

	vintage(pl, as_of, notes, sizeof(notes));
	today(as_of); /* the Query API answers with today's prices */
	co.source = source;
	co.as_of = as_of;
	co.notes = notes[0] ? notes : NULL;
	co.require = fo->regions;
	co.nrequire = fo->nregions;
	co.require_all = a->all;
	co.accept_changes = a->accept;
	outfile_on_interrupt(NULL); /* storing: a signal now is not "nothing" */
	rc = db_prices_commit(ctx->db, pl, &co, rep, err);
	if (rc)
		msg_error("fetched prices from '%s' not stored: %s",
			  fo->endpoint, err);
	free(source);
	return rc ? -1 : 0;
}

/* Print a failed credential search, with what to try next. */
static void creds_error(const char *err)
{
	msg_error("%s", err);
	if (str_starts_with(err, "no AWS credentials"))
		msg_hint(
		    "'ebsize pricing fetch --explain-credentials' lists each source tried; 'ebsize pricing fetch --bulk' needs no credentials");
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
	/* identical data records nothing: the snapshot in force stays */
	out_int(t, rep->identical ? rep->inforce_id : rep->snapshot_id);
	out_bool(t, !rep->identical);
	out_str(t, br->pl.version);
	out_str(t, br->pl.published);
	out_str(t, as_of);
	out_int(t, (long long)br->pl.products);
	out_int(t, (long long)br->pl.n);
	out_int(t, (long long)rep->inserted);
	out_int(t, (long long)rep->carried);
	out_int(t, (long long)rep->changed);
	out_int(t, (long long)br->pl.unknown);
	out_int(t, (long long)br->pl.duplicates);
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
	out_col(t, "recorded", "New", OUT_BOOL);
	out_col(t, "version", "Version", OUT_TEXT);
	out_col(t, "published", "Published", OUT_TEXT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "products", "Products", OUT_INT);
	out_col(t, "read", "Read", OUT_INT);
	out_col(t, "prices", "Stored", OUT_INT);
	out_col(t, "carried", "Carried", OUT_INT);
	out_col(t, "changed", "Changed", OUT_INT);
	out_col(t, "unknown", "Unknown", OUT_INT);
	out_col(t, "duplicates", "Dup", OUT_INT);
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
	char(*notes)[200] = xcalloc(res->n, sizeof(*notes));
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
	outfile_on_interrupt(NULL); /* storing: a signal now is not "nothing" */
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
	char(*as_of)[16] = NULL;
	struct out_doc *doc = NULL;
	const char *one[1];
	char err[EBS_ERRLEN], sig[32];
	int rc = EXIT_RUNTIME;

	pricing_fetch_opts_init(&fo);
	fo.endpoint = endpoint_override(a->endpoint);
	if (fo.endpoint &&
	    (rc = pricing_endpoint_check(fo.endpoint, sig, err))) {
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
	co.deadline_ms =
	    a->start_ms + (long long)(a->timeout_s ? a->timeout_s : 60) * 1000;
	co.trace = add_trace;
	co.trace_arg = t;
	rc = aws_creds_resolve(&creds, &co, err);
	out_kv_str(r, "source", "Source", rc ? NULL : creds.source);
	aws_creds_mask_key(creds.access_key_id, key);
	out_kv_str(r, "access_key_id", "Access key id", rc ? NULL : key);
	out_kv_bool(r, "session_token", "Session token",
		    creds.session_token != NULL);
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

#define F(f) offsetof(struct fetch_args, f)

static const struct opt fetch_opts[] = {
	{ "bulk", 0, OPT_FLAG, F(bulk), NULL,
	  "the public bulk Price List instead (no credentials): one\n"
	  "offer file per region, streamed, all stored or none" },
	{ "all-regions", 0, OPT_FLAG, F(all), NULL,
	  "no region filter (default: every global --region,\n"
	  "else the default region); --bulk: every region of the\n"
	  "aws and cn indexes" },
	{ "endpoint", 0, OPT_STR, F(endpoint), "URL",
	  "the Price List endpoint (else $AWS_ENDPOINT_URL_PRICING,\n"
	  "$AWS_ENDPOINT_URL, " PRICING_DEFAULT_ENDPOINT ",\n"
	  "with --bulk " PRICING_BULK_HOST ");\n"
	  "https, or http to a loopback host only" },
	{ "accept-changes", 0, OPT_FLAG, F(accept), NULL,
	  "store prices that moved more than 3x" },
	{ "max-pages", 0, OPT_INT, F(max_pages), "N",
	  "pages per query before giving up (not --bulk)", .min = 1,
	  .max = 100000, .def = "100" },
	{ "timeout", 0, OPT_INT, F(timeout_s), "DURATION",
	  "give up after this long in all (default 300 s;\n"
	  "--bulk: 600 s per region file)",
	  .min = 1, .max = 86400, .unit = OPT_UNIT_SECONDS },
	{ "profile", 0, OPT_STR, F(profile), "P",
	  "the AWS profile (else $AWS_PROFILE, 'default');\n"
	  "environment keys are then not used" },
	{ "explain-credentials", 0, OPT_FLAG, F(explain), NULL,
	  "which credential source fetch would use, and what it\n"
	  "tried first; never shows a secret" },
	{ NULL }
};

#undef F

/* Checks between options of fetch; prints the usage error. */
static int fetch_check(struct cli_ctx *ctx, void *args)
{
	const struct fetch_args *a = args;

	if (a->all && ctx->region_from_opt)
		return msg_usage_error(
		    ctx->cmd_name, "give --region or --all-regions, not both");
	if (a->bulk && (a->profile || a->explain))
		return msg_usage_error(
		    ctx->cmd_name, "--bulk needs no credentials: drop %s",
		    a->profile ? "--profile" : "--explain-credentials");
	if (a->bulk && cli_given(ctx, "max-pages"))
		return msg_usage_error(
		    ctx->cmd_name,
		    "--max-pages is for the Query API, not --bulk");
	return EXIT_OK;
}

static int cmd_pricing_fetch(struct cli_ctx *ctx, void *args)
{
	struct fetch_args *a = args;
	int rc;

	a->start_ms = http_now_ms();
	if (a->explain)
		return explain_credentials(ctx, a); /* no database needed */
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	/* until the storing starts, Ctrl-C or SIGTERM leaves the database
	 * as it was, and says so */
	outfile_on_interrupt("error: interrupted: no prices stored\n");
	rc = a->bulk ? fetch_bulk(ctx, a) : fetch(ctx, a);
	outfile_on_interrupt(NULL);
	return rc;
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

static int import(struct cli_ctx *ctx, const char **files, size_t nfiles,
		  int accept)
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
	for (size_t i = 0; i < nfiles; i++) {
		const char *base = strrchr(files[i], '/');

		if (import_file(files[i], &rt, &pl, err)) {
			msg_error("%s", err);
			goto out;
		}
		sbuf_addf(&src, "%s%s", i ? "," : "",
			  base ? base + 1 : files[i]);
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
	out_kv_int(t, "files", "Files", (long long)nfiles);
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

struct import_args {
	int accept;
};

static const struct opt import_opts[] = {
	{ "accept-changes", 0, OPT_FLAG, offsetof(struct import_args, accept),
	  NULL, "store prices that moved more than 3x" },
	{ NULL }
};

static int import_check(struct cli_ctx *ctx, void *args)
{
	(void)args;
	if (!ctx->noperands)
		return msg_usage_error(ctx->cmd_name,
				       "import needs at least one FILE");
	return EXIT_OK;
}

static int cmd_pricing_import(struct cli_ctx *ctx, void *args)
{
	const struct import_args *a = args;

	return import(ctx, ctx->operands, ctx->noperands, a->accept);
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

static int cmd_pricing_history(struct cli_ctx *ctx, void *args)
{
	const char *region = ctx->region_from_opt ? ctx->region : NULL;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

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
	out_str(t, !pc->has_old	  ? "added"
		   : !pc->has_new ? "removed"
				  : "changed");
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
		out_note(
		    doc,
		    "no price differs between snapshots %lld and %lld over the regions both hold",
		    a, b);
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

static int diff_check(struct cli_ctx *ctx, void *args)
{
	long id;

	(void)args;
	for (size_t i = 0; i < ctx->noperands; i++)
		if (parse_long_range(ctx->operands[i], 1, 2147483647L, &id))
			return msg_usage_error(
			    ctx->cmd_name,
			    "a snapshot id must be a whole number from 1 to 2147483647, not '%s'",
			    ctx->operands[i]);
	return EXIT_OK;
}

static int cmd_pricing_diff(struct cli_ctx *ctx, void *args)
{
	const char *region = ctx->region_from_opt ? ctx->region : NULL;
	char err[EBS_ERRLEN];
	long long older = 0, newer = 0;
	long ids[2] = { 0, 0 };
	size_t nargs = ctx->noperands;

	(void)args;
	for (size_t i = 0; i < nargs; i++)
		parse_long_range(ctx->operands[i], 1, 2147483647L, &ids[i]);
	if (nargs < 2 &&
	    db_two_newest_snapshots(ctx->db, region, &older, &newer, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (nargs == 0)
		return diff(ctx, older, newer, region);
	if (!snapshot_known(ctx, ids[0]) ||
	    (nargs == 2 && !snapshot_known(ctx, ids[1])))
		return EXIT_RUNTIME;
	return diff(ctx, ids[0], nargs == 2 ? ids[1] : newer, region);
}

/* ------------------------------------------------------------ regions */

/* The dimensions a volume type needs priced (PRICE_DIM_*); [VT_COUNT] =
 * snapshot storage. */
static unsigned needed_dims(size_t k)
{
	enum vol_type t = (enum vol_type)k;

	if (k >= VT_COUNT)
		return PRICE_DIM_STORAGE;
	return PRICE_DIM_STORAGE |
	       (model_type_buys_iops(t) ? PRICE_DIM_IOPS : 0) |
	       (model_type_buys_throughput(t) ? PRICE_DIM_THROUGHPUT : 0) |
	       (model_type_bills_io(t) ? PRICE_DIM_IO : 0);
}

static const char *dims_name(size_t k)
{
	return k < VT_COUNT ? model_type_name((enum vol_type)k) : "snapshot";
}

struct regions_ctx {
	struct out_table *t;
	size_t n, priced, none, no_io2;
	struct sbuf none_list, io2_list;
};

static int add_region(const struct region_info *ri, void *arg)
{
	struct regions_ctx *rc = arg;
	struct out_table *t = rc->t;
	struct sbuf have = SBUF_INIT(64), miss = SBUF_INIT(64);
	char vintage[40];

	for (size_t k = 0; k <= VT_COUNT; k++) {
		unsigned need = needed_dims(k), got = ri->dims[k] & need;

		if (got == need)
			sbuf_addf(&have, "%s%s", have.len ? " " : "",
				  dims_name(k));
		else if (!got)
			sbuf_addf(&miss, "%s%s", miss.len ? " " : "",
				  dims_name(k));
		else
			sbuf_addf(
			    &miss, "%s%s (%s%s%s%s)", miss.len ? " " : "",
			    dims_name(k),
			    need & ~got & PRICE_DIM_STORAGE ? "storage" : "",
			    need & ~got & PRICE_DIM_IOPS ? "iops" : "",
			    need & ~got & PRICE_DIM_THROUGHPUT ? "throughput"
							       : "",
			    need & ~got & PRICE_DIM_IO ? "io" : "");
	}
	if (!strcmp(ri->oldest, ri->newest))
		xsnprintf(vintage, sizeof(vintage), "%s", ri->oldest);
	else
		xsnprintf(vintage, sizeof(vintage), "%s..%s", ri->oldest,
			  ri->newest);
	out_row(t);
	out_str(t, ri->code);
	out_str(t, *ri->location ? ri->location : NULL);
	out_str(t, *ri->currency ? ri->currency : NULL);
	out_bool(t, ri->prices > 0);
	out_int(t, ri->prices);
	out_str(t, have.len ? have.buf : NULL);
	out_str(t, ri->prices ? (miss.len ? miss.buf : NULL) : "everything");
	if (ri->snapshot_id) {
		out_int(t, ri->snapshot_id);
		out_str(t, ri->source);
		out_str(t, ri->as_of);
		out_str(t, *ri->oldest ? vintage : NULL);
	} else {
		out_null(t);
		out_null(t);
		out_null(t);
		out_null(t);
	}
	rc->n++;
	if (ri->prices) {
		rc->priced++;
		if ((ri->dims[VT_IO2] & needed_dims(VT_IO2)) !=
		    needed_dims(VT_IO2)) {
			rc->no_io2++;
			sbuf_addf(&rc->io2_list, "%s%s",
				  rc->io2_list.len ? ", " : "", ri->code);
		}
	} else {
		rc->none++;
		sbuf_addf(&rc->none_list, "%s%s", rc->none_list.len ? ", " : "",
			  ri->code);
	}
	sbuf_release(&have);
	sbuf_release(&miss);
	return 0;
}

static int regions(struct cli_ctx *ctx, struct regions_ctx *rc, char *err)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_list(doc, "regions", NULL);
	int ret;

	rc->t = t;
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "location", "Location", OUT_TEXT);
	out_col(t, "currency", "Cur", OUT_TEXT);
	out_col(t, "priced", "Priced", OUT_BOOL);
	out_col(t, "prices", "Prices", OUT_INT);
	out_col(t, "types", "Types priced", OUT_TEXT);
	out_col(t, "missing", "Missing", OUT_TEXT);
	out_col(t, "snapshot", "Snap", OUT_INT);
	out_col(t, "source", "Source", OUT_TEXT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "vintage", "Vintage", OUT_TEXT);
	out_doc_notes_key(doc);
	if (db_each_region(ctx->db, add_region, rc, err)) {
		msg_error("%s", err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	out_note(
	    doc,
	    "%zu of %zu regions have prices; never add or compare amounts in different currencies (CNY in China)",
	    rc->priced, rc->n);
	if (rc->none)
		out_note(
		    doc,
		    "no prices for %s: get them with 'ebsize pricing fetch --region R', or import 'aws pricing get-products' output for R with 'ebsize pricing import -'",
		    rc->none_list.buf);
	if (rc->no_io2)
		out_note(
		    doc,
		    "no io2 prices for %s (the 2022 Price List extract predates io2 there)",
		    rc->io2_list.buf);
	out_note(
	    doc,
	    "built-in prices ('embedded') come from the AWS Price List of 2022-02-10 (snapshot storage: AWS's EBS calculator of 2021-05-13), spot-checked against 2026 data for a few regions only: 'ebsize pricing fetch' gets current ones");
	ret = cli_render(ctx, doc);
out:
	out_doc_free(doc);
	sbuf_release(&rc->none_list);
	sbuf_release(&rc->io2_list);
	return ret;
}

static int cmd_pricing_regions(struct cli_ctx *ctx, void *args)
{
	struct regions_ctx rc = { .none_list = SBUF_INIT(256),
				  .io2_list = SBUF_INIT(256) };
	char err[EBS_ERRLEN];

	(void)args;
	return regions(ctx, &rc, err);
}

/* ------------------------------------------------------------ dispatch */

static const struct cmd pricing_show_def = {
	.name = "show",
	.run = cmd_pricing_show,
	.args_size = sizeof(struct show_args),
	.flags = CMD_NEEDS_DB,
	.summary = "the EBS prices in force",
	.description =
	    "The EBS prices in force: for each region the newest complete snapshot\n"
	    "(embedded, fetched or imported).",
	.opts = show_opts,
	.epilog = PRICE_UNITS_TEXT,
	.tables = "prices",
};

static const struct cmd pricing_fetch_def = {
	.name = "fetch",
	.writes = "storing prices",
	.run = cmd_pricing_fetch,
	.args_size = sizeof(struct fetch_args),
	.summary = "get the prices from AWS (Price List Query API or --bulk)",
	.description =
	    "Get the prices from the AWS Price List Query API (GetProducts, SigV4)\n"
	    "and store them as a new snapshot; on any failure the snapshot in force\n"
	    "stays untouched.  With --bulk, from AWS's public bulk Price List\n"
	    "instead (no credentials): one offer file per region, streamed, one\n"
	    "snapshot per region, all stored or none.  Regions: every global\n"
	    "--region (repeat it), else the default region; --all-regions for all\n"
	    "of them.",
	.opts = fetch_opts,
	.check = fetch_check,
	.epilog =
	    "Credentials (without --bulk), the AWS CLI's order: the environment\n"
	    "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN); the\n"
	    "profile in ~/.aws/config and ~/.aws/credentials (role_arn with\n"
	    "source_profile or credential_source, web identity, SSO, static keys,\n"
	    "credential_process); container credentials; EC2 instance metadata\n"
	    "(IMDSv2).  See the README, \"Live prices\".",
	.tables = "(records), result, regions, tried, notes",
};

static const struct cmd pricing_import_def = {
	.name = "import",
	.writes = "storing prices",
	.run = cmd_pricing_import,
	.args_size = sizeof(struct import_args),
	.flags = CMD_NEEDS_DB,
	.summary = "the same from saved responses or an offer file",
	.description =
	    "Store prices from saved responses ('aws pricing get-products ... >\n"
	    "page.json', one or more pages) or offer files of any size (read as a\n"
	    "stream), as a new snapshot; all or nothing.",
	.opts = import_opts,
	.operands = "FILE...",
	.max_operands = -1,
	.check = import_check,
	.tables = "(records), result, notes",
};

static const struct cmd pricing_history_def = {
	.name = "history",
	.run = cmd_pricing_history,
	.flags = CMD_NEEDS_DB,
	.summary = "every snapshot: source, time, counts, in force or not",
	.description =
	    "Every price snapshot: source, time, counts, and whether it is in force\n"
	    "(for the global --region only, when given).",
	.tables = "snapshots",
};

static const struct cmd pricing_diff_def = {
	.name = "diff",
	.run = cmd_pricing_diff,
	.flags = CMD_NEEDS_DB,
	.summary = "per-price changes from snapshot A to B",
	.description =
	    "Per-price changes from snapshot A to B (default: the two newest; A\n"
	    "alone: A against the newest), for the global --region when given.",
	.operands = "[A [B]]",
	.max_operands = 2,
	.check = diff_check,
	.tables = "changes, result, notes",
};

static const struct cmd pricing_regions_def = {
	.name = "regions",
	.run = cmd_pricing_regions,
	.flags = CMD_NEEDS_DB,
	.summary = "every region: currency, what is priced, snapshot, vintage",
	.description =
	    "Every region ebsize knows: its currency, which prices it has and which\n"
	    "it lacks, the snapshot in force, its date and source.",
	.tables = "regions, notes",
};

static const struct cmd *const pricing_subs[] = { &pricing_show_def,
						  &pricing_fetch_def,
						  &pricing_import_def,
						  &pricing_history_def,
						  &pricing_diff_def,
						  &pricing_regions_def,
						  NULL };

const struct cmd cmd_pricing_def = {
	.name = "pricing",
	.summary = "EBS prices: show, fetch from AWS, import, history, diff",
	.description = PRICE_UNITS_TEXT,
	.subs = pricing_subs,
};
