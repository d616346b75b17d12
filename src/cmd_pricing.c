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

#include "ebsize/aws_creds.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/db_prices.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/price_sheet.h"
#include "ebsize/pricing.h"
#include "ebsize/util.h"

/*
 * Largest file `pricing import` reads.  A whole bulk offer file for one
 * region is ~475 MB (formats.md 2: us-west-2 was 474,950,676 bytes); it
 * is refused rather than streamed, with a hint to fetch or filter first.
 */
#define IMPORT_CAP (64u << 20)

static const char usage_text[] =
	"usage: ebsize pricing show [--region R | --all-regions] [--type T]\n"
	"       ebsize pricing fetch [--region R ... | --all-regions] [--endpoint URL]\n"
	"                            [--accept-changes] [--max-pages N]\n"
	"       ebsize pricing import [--accept-changes] FILE...\n"
	"       ebsize pricing history [--region R]\n"
	"       ebsize pricing diff [--region R] [A [B]]\n\n"
	"  show            the EBS prices in force: for each region the newest\n"
	"                  complete snapshot (embedded, fetched or imported)\n"
	"  fetch           get the prices from the AWS Price List Query API\n"
	"                  (GetProducts, SigV4) and store them as a new snapshot;\n"
	"                  on any failure the snapshot in force stays untouched\n"
	"  import          the same from saved responses ('aws pricing\n"
	"                  get-products ... > page.json', one or more pages) or a\n"
	"                  one-region offer file of at most 64 MiB\n"
	"  history         every snapshot: source, time, counts, in force or not\n"
	"  diff            per-price changes from snapshot A to B (default: the\n"
	"                  two newest; A alone: A against the newest)\n\n"
	"  --region R      a region (fetch: repeat for several; default: the\n"
	"                  global --region)\n"
	"  --all-regions   show: every region; fetch: no region filter\n"
	"  --type T        show: one volume type\n"
	"  --endpoint URL  fetch: the Price List endpoint (else\n"
	"                  $AWS_ENDPOINT_URL_PRICING, $AWS_ENDPOINT_URL,\n"
	"                  " PRICING_DEFAULT_ENDPOINT ");\n"
	"                  https, or http to a loopback host only\n"
	"  --accept-changes  store prices that moved more than 3x\n"
	"  --max-pages N   fetch: pages per query before giving up (default 100)\n"
	"  -h, --help      this help\n\n"
	"Credentials (fetch): AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and\n"
	"AWS_SESSION_TOKEN, else profile $AWS_PROFILE (default 'default') in\n"
	"$AWS_SHARED_CREDENTIALS_FILE (default ~/.aws/credentials).\n\n"
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

	sc->n++;
	return price_sheet_row(p, sc->t);
}

static int show(struct cli_ctx *ctx, const char *region, const char *type)
{
	struct out_doc *doc = out_doc_new();
	struct show_ctx sc = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	sc.t = out_list(doc, "prices", NULL);
	price_sheet_cols(sc.t);
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

static void show_progress(void *arg, const char *region, long pages,
			  size_t products)
{
	(void)arg;
	if (msg_progress_enabled())
		msg_progress("fetching prices: %s, %ld page%s, %zu products", region,
			     pages, pages == 1 ? "" : "s", products);
}

static const char *endpoint_default(const char *opt)
{
	const char *e = opt;

	if (!e || !*e)
		e = getenv("AWS_ENDPOINT_URL_PRICING");
	if (!e || !*e)
		e = getenv("AWS_ENDPOINT_URL");
	return e && *e ? e : PRICING_DEFAULT_ENDPOINT;
}

/* EBSIZE_FETCH_BACKOFF_MS: the first retry delay (tests set it low). */
static void backoff_from_env(struct pricing_fetch_opts *fo)
{
	const char *v = getenv("EBSIZE_FETCH_BACKOFF_MS");
	long ms;

	if (v && !parse_long_range(v, 0, 60000, &ms))
		fo->backoff_ms = ms;
}

struct fetch_args {
	const char *endpoint;
	int all, accept;
	long max_pages;
};

/* Store what a fetch got as a new snapshot; prints the error.  0 or -1. */
static int store_fetched(struct cli_ctx *ctx, const struct pricing_fetch_opts *fo,
			 const struct fetch_args *a, const struct price_list *pl,
			 struct price_commit_report *rep)
{
	struct price_commit_opts co = { 0 };
	char err[EBS_ERRLEN], as_of[16], *source = xstrfmt("fetch:%s", fo->endpoint);
	int rc;

	today(as_of);
	co.source = source;
	co.as_of = as_of;
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

/*
 * Fetch, check, store, report.  The credentials are loaded here and
 * wiped before returning, whatever happens.
 */
static int fetch(struct cli_ctx *ctx, const struct fetch_args *a)
{
	struct pricing_fetch_opts fo;
	struct pricing_fetch_stats stats;
	struct aws_creds creds = { 0 };
	struct region_table rt = { 0 };
	struct price_list pl;
	struct price_commit_report rep;
	struct out_doc *doc = NULL;
	struct out_table *t;
	const char *one[1] = { ctx->region };
	char err[EBS_ERRLEN], sig[32];
	int rc = EXIT_RUNTIME;

	price_list_init(&pl);
	pricing_fetch_opts_init(&fo);
	fo.endpoint = endpoint_default(a->endpoint);
	if (pricing_endpoint_check(fo.endpoint, sig, err))
		return msg_usage_error("pricing", "%s", err);
	if (aws_creds_load(&creds, err) || db_region_table(ctx->db, &rt, err)) {
		msg_error("%s", err);
		goto out;
	}
	fo.regions = a->all ? NULL : ctx->nregions ? ctx->regions : one;
	fo.nregions = a->all ? 0 : ctx->nregions ? ctx->nregions : 1;
	fo.creds = &creds;
	fo.rt = &rt;
	fo.max_pages = a->max_pages;
	fo.progress = show_progress;
	backoff_from_env(&fo);
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

static int cmd_fetch(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "all-regions", no_argument, NULL, 'a' },
		{ "endpoint", required_argument, NULL, 'e' },
		{ "accept-changes", no_argument, NULL, 'A' },
		{ "max-pages", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct fetch_args a = { NULL, 0, 0, 100 };
	int c;

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
			if (cmd_parse_long("pricing", "--max-pages", optarg, 1, 100000,
					   &a.max_pages))
				return EXIT_USAGE;
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
	if (a.all && ctx->region_from_opt)
		return msg_usage_error("pricing", "give --region or --all-regions, not both");
	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	return fetch(ctx, &a);
}

/* ------------------------------------------------------------ import */

/* Read and parse one file into pl; refuses files over IMPORT_CAP. */
static int import_file(const char *path, const struct region_table *rt,
		       struct price_list *pl, char *err)
{
	struct stat sb;
	char *buf = NULL;
	size_t len;
	int rc;

	if (strcmp(path, "-") && !stat(path, &sb) && S_ISREG(sb.st_mode) &&
	    (unsigned long long)sb.st_size > IMPORT_CAP)
		return ebs_fail(err, EBS_ERR_TOO_BIG,
				"'%s' is %llu MiB, over the import limit of %u MiB; whole offer files are not streamed: use 'ebsize pricing fetch', or import 'aws pricing get-products' output",
				path, (unsigned long long)sb.st_size >> 20, IMPORT_CAP >> 20);
	if ((rc = read_file_capped(path, IMPORT_CAP, &buf, &len, err)))
		return rc;
	rc = pricing_parse(buf, len, path, rt, pl, NULL, err);
	free(buf);
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
	char err[EBS_ERRLEN], as_of[16];
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
	if (pl.effective[0])
		xsnprintf(as_of, sizeof(as_of), "%s", pl.effective);
	else
		today(as_of);
	co.source = src.buf;
	co.as_of = as_of;
	co.accept_changes = accept;
	if (db_prices_commit(ctx->db, &pl, &co, &rep, err)) {
		msg_error("prices from '%s' not stored: %s", files[0], err);
		goto out;
	}
	doc = out_doc_new();
	t = out_record(doc, NULL, "Imported prices");
	out_kv_int(t, "files", "Files", nfiles);
	out_kv_str(t, "as_of", "As of", as_of);
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
