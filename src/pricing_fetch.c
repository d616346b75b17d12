/*
 * pricing_fetch.c - the two ways to get live prices from AWS:
 *
 *  - the Price List Query API: GetProducts over HTTPS, signed with SigV4,
 *    paginated with NextToken, parsed page by page;
 *  - the public bulk Price List (no credentials): the AmazonEC2 region
 *    index, then one offer file per region (hundreds of MB each), streamed
 *    through the offer parser as it arrives, resumed with Range requests
 *    when a transfer breaks.
 *
 * Both retry throttling, 5xx and transient network errors with
 * exponential backoff and jitter, abort a stalled transfer (the
 * low-speed limit) and stop at the whole-fetch deadline.  The transport
 * is src/http.c (libcurl, loaded on first use); JSON is
 * src/pricing_parse.c.  Nothing here touches the database.
 *
 * The secret key goes to libcurl only (for signing); no message here
 * includes it, nor the session token.
 */
#include "ebsize/pricing.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ebsize/aws_creds.h"
#include "ebsize/err.h"
#include "ebsize/http.h"
#include "ebsize/util.h"

/*
 * The GetProducts queries behind the EBS prices: productFamily x
 * volumeApiName (ebs-facts.md T10; formats.md 1.1).  TERM_MATCH takes one
 * value, so each pair is its own query.
 */
static const struct {
	const char *family;
	const char *volume;
} queries[] = {
	{ "Storage", "gp2" },
	{ "Storage", "gp3" },
	{ "Storage", "io1" },
	{ "Storage", "io2" },
	{ "Storage", "st1" },
	{ "Storage", "sc1" },
	{ "Storage", "standard" },
	{ "System Operation", "gp3" },
	{ "System Operation", "io1" },
	{ "System Operation", "io2" },
	{ "System Operation", "standard" },
	{ "Provisioned Throughput", "gp3" },
};

void pricing_fetch_opts_init(struct pricing_fetch_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_pages = 100;
	o->max_attempts = 5;
	o->backoff_ms = 500;
	o->max_retry_ms = 60000;
	o->connect_timeout_s = 10;
	o->timeout_s = 60;
	o->bulk_region_s = 600;
	o->low_speed_bytes = 100;
	o->low_speed_s = 30;
	o->max_body = 16u << 20;
}

/* ------------------------------------------------------------ endpoint */

/*
 * The signing region of an api.pricing.<region>.amazonaws.com host (or
 * .amazonaws.com.cn in China) into region (32 bytes); left alone for any
 * other host.
 */
static void region_of_host(const char *host, char *region)
{
	static const char *const suffixes[] = {
		".amazonaws.com",
		".amazonaws.com.cn",
	};

	if (!str_starts_with(host, "api.pricing."))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		const char *r = host + strlen("api.pricing.");
		size_t len = strlen(r), sl = strlen(suffixes[i]);

		if (len > sl && len - sl < 32 && str_ends_with(r, suffixes[i]))
			xsnprintf(region, 32, "%.*s", (int)(len - sl), r);
	}
}

int pricing_endpoint_check(const char *url, char *signing_region, char *err)
{
	char host[256];
	int rc;

	xsnprintf(signing_region, 32, "us-east-1");
	if ((rc = http_url_check(url, "endpoint", 0, host, sizeof(host), err)))
		return rc;
	region_of_host(host, signing_region);
	return EBS_OK;
}

/* ------------------------------------------------------------ retrying */

struct fetcher {
	const struct pricing_fetch_opts *o;
	struct http *http;
	unsigned rand_state;
	struct pricing_fetch_stats *stats;
};

/* Milliseconds left before the deadline; LONG_MAX without one. */
static long remaining_ms(const struct pricing_fetch_opts *o)
{
	long long left;

	if (!o->deadline_ms)
		return LONG_MAX;
	left = o->deadline_ms - http_now_ms();
	return left > LONG_MAX ? LONG_MAX : left < 0 ? 0 : (long)left;
}

static int deadline_passed(const struct pricing_fetch_opts *o, char *err)
{
	return ebs_fail(err, EBS_ERR_NETWORK,
			"gave up at the --timeout of %ld s for the whole fetch",
			o->deadline_s);
}

/* A request's time limit: its own (0: none), cut to the deadline. */
static long request_timeout_ms(const struct pricing_fetch_opts *o, long own_ms)
{
	long left = remaining_ms(o);

	if (left == LONG_MAX)
		return own_ms;
	if (left < 1)
		left = 1;
	return own_ms && own_ms < left ? own_ms : left;
}

/* Sleep before attempt `attempt` (>= 2): base x 2^(attempt-2), capped,
 * with full jitter over its upper half, never past the deadline.
 * Returns the milliseconds slept. */
static long backoff(struct fetcher *f, long attempt)
{
	long d = f->o->backoff_ms, left = remaining_ms(f->o);

	for (long i = 2; i < attempt && d < 20000; i++)
		d *= 2;
	if (d > 20000)
		d = 20000;
	d = d / 2 + (long)(rand_r(&f->rand_state) % (unsigned)(d / 2 + 1));
	if (d > left)
		d = left;
	http_sleep_ms(d);
	return d;
}

/*
 * After a failed attempt: 0 after sleeping when another is allowed, else
 * the error (why plus how many attempts) in err.
 */
static int retry_or_fail(struct fetcher *f, long attempt, long *slept,
			 const char *why, char *err)
{
	const struct pricing_fetch_opts *o = f->o;

	if (attempt >= o->max_attempts || *slept >= o->max_retry_ms)
		return ebs_fail(err, EBS_ERR_NETWORK,
				"%s (gave up after %ld attempts)", why,
				attempt);
	if (!remaining_ms(o))
		return deadline_passed(o, err);
	f->stats->retries++;
	*slept += backoff(f, attempt + 1);
	if (!remaining_ms(o))
		return deadline_passed(o, err);
	return EBS_OK;
}

/* ------------------------------------------------------------ Query API */

/* Keep server text printable and short: it goes into a one-line error. */
static void clean_text(char *s, size_t max)
{
	size_t n = 0;

	for (; s[n] && n < max; n++)
		if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f)
			s[n] = ' ';
	s[n] = '\0';
}

static int auth_failure(long status, const char *code)
{
	return status == 401 || status == 403 ||
	       !strcmp(code, "UnrecognizedClientException") ||
	       !strcmp(code, "InvalidSignatureException") ||
	       !strcmp(code, "AccessDeniedException") ||
	       !strcmp(code, "ExpiredTokenException") ||
	       !strcmp(code, "MissingAuthenticationTokenException");
}

/* The signed request every GetProducts call shares. */
struct api_call {
	char url[1024];
	char sigv4[64];
	const char *headers[4];
	size_t nheaders;
	char *token_header; /* X-Amz-Security-Token: ..., wiped on release */
};

static void api_call_init(struct api_call *a,
			  const struct pricing_fetch_opts *o,
			  const char *region)
{
	memset(a, 0, sizeof(*a));
	xsnprintf(a->url, sizeof(a->url), "%s%s", o->endpoint,
		  str_ends_with(o->endpoint, "/") ? "" : "/");
	xsnprintf(a->sigv4, sizeof(a->sigv4), "aws:amz:%s:pricing", region);
	a->headers[a->nheaders++] = "Content-Type: application/x-amz-json-1.1";
	a->headers[a->nheaders++] =
	    "X-Amz-Target: AWSPriceListService.GetProducts";
	if (o->creds->session_token) {
		a->token_header = xstrfmt("X-Amz-Security-Token: %s",
					  o->creds->session_token);
		a->headers[a->nheaders++] = a->token_header;
	}
}

static void api_call_release(struct api_call *a)
{
	if (a->token_header) {
		volatile char *p = a->token_header;

		while (*p)
			*p++ = '\0';
		free(a->token_header);
	}
	a->token_header = NULL;
}

/*
 * One attempt of req within the fetch's deadline: *r is http_perform's
 * answer for the caller to judge (retry or not).  EBS_OK, or the error
 * that ends the fetch: the deadline passed, a body over its cap, a
 * failure no retry mends.
 */
static int perform_once(struct fetcher *f, struct http_request *req,
			struct http_response *resp, int *r, char *err)
{
	const struct pricing_fetch_opts *o = f->o;

	if (!remaining_ms(o))
		return deadline_passed(o, err);
	req->timeout_ms = request_timeout_ms(o, o->timeout_s * 1000);
	f->stats->requests++;
	*r = http_perform(f->http, req, resp);
	if (*r == HTTP_TOO_BIG)
		return ebs_fail(err, EBS_ERR_TOO_BIG, "%s", resp->reason);
	if (*r == HTTP_TIMEOUT && !remaining_ms(o))
		return deadline_passed(o, err);
	if (*r == HTTP_FAILED)
		return ebs_fail(err, EBS_ERR_NETWORK, "%s", resp->reason);
	return EBS_OK;
}

/*
 * POST body and leave a 200 response in resp.  Retries what is worth
 * retrying; on failure err holds the reason (without any prefix), and
 * the code says what kind of failure it was.
 */
static int post(struct fetcher *f, const struct api_call *a, const char *body,
		struct http_response *resp, char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	struct http_request req = { 0 };
	long slept = 0, attempt;
	int rc;

	req.method = "POST";
	req.url = a->url;
	req.headers = a->headers;
	req.nheaders = a->nheaders;
	req.body = body;
	req.body_len = strlen(body);
	req.sigv4 = a->sigv4;
	req.user = o->creds->access_key_id;
	req.secret = o->creds->secret_access_key;
	req.connect_timeout_ms = o->connect_timeout_s * 1000;
	req.low_speed_bytes = o->low_speed_bytes;
	req.low_speed_s = o->low_speed_s;
	req.max_body = o->max_body;
	for (attempt = 1;; attempt++) {
		char why[600], code[128], msg[400];
		int r;

		if ((rc = perform_once(f, &req, resp, &r, err)))
			return rc;
		if (r != HTTP_DONE) {
			xsnprintf(why, sizeof(why), "%s", resp->reason);
		} else {
			if (resp->status == 200)
				return EBS_OK;
			pricing_parse_error_body(resp->body.buf, resp->body.len,
						 code, sizeof(code), msg,
						 sizeof(msg));
			clean_text(code, 100);
			clean_text(msg, 300);
			xsnprintf(why, sizeof(why), "HTTP %ld%s%s%s%s",
				  resp->status, *code ? " " : "", code,
				  *msg ? ": " : "", msg);
			if (auth_failure(resp->status, code))
				return ebs_fail(err, EBS_ERR_AUTH,
						"%s (credentials rejected)",
						why);
			if (!(resp->status == 429 || resp->status >= 500 ||
			      !strcmp(code, "ThrottlingException")))
				return ebs_fail(err, EBS_ERR_NETWORK, "%s",
						why);
		}
		if ((rc = retry_or_fail(f, attempt, &slept, why, err)))
			return rc;
	}
}

/* Drop the parser's "cannot parse 'response': " so a prefix can go first. */
static const char *parse_reason(const char *e)
{
	static const char pfx[] = "cannot parse 'response': ";

	return str_starts_with(e, pfx) ? e + sizeof(pfx) - 1 : e;
}

/* Every page of one query, appended to out. */
static int run_query(struct fetcher *f, const struct api_call *a, size_t q,
		     const char *region, struct price_list *out,
		     long *pages_total, char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	struct http_response resp;
	char *token = NULL, *next = NULL, reason[EBS_ERRLEN];
	long page = 0;
	int rc = EBS_OK;

	http_response_init(&resp);
	do {
		char *body;

		page++;
		if (page > o->max_pages) {
			xsnprintf(
			    reason, sizeof(reason),
			    "NextToken did not end after %ld pages (the limit)",
			    o->max_pages);
			rc = EBS_ERR_NETWORK;
			break;
		}
		body = pricing_request_body(queries[q].family,
					    queries[q].volume, region, token);
		rc = post(f, a, body, &resp, reason);
		free(body);
		if (rc)
			break;
		f->stats->pages++;
		(*pages_total)++;
		rc = pricing_parse(resp.body.buf, resp.body.len, "response",
				   o->rt, out, &next, reason);
		if (rc) {
			memmove(reason, parse_reason(reason),
				strlen(parse_reason(reason)) + 1);
			break;
		}
		if (next && token && !strcmp(next, token)) {
			xsnprintf(reason, sizeof(reason),
				  "the same NextToken came back twice");
			rc = EBS_ERR_NETWORK;
			break;
		}
		free(token);
		token = next;
		next = NULL;
		if (o->progress)
			o->progress(o->progress_arg,
				    region ? region : "all regions",
				    *pages_total, out->products);
	} while (token);
	if (rc)
		ebs_fail(
		    err, rc,
		    "cannot fetch prices from '%s': page %ld of %s/%s%s%s: %s",
		    o->endpoint, page, queries[q].family, queries[q].volume,
		    region ? " in " : "", region ? region : "", reason);
	free(token);
	free(next);
	http_response_release(&resp);
	return rc;
}

static void fetcher_init(struct fetcher *f, const struct pricing_fetch_opts *o,
			 struct pricing_fetch_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	memset(f, 0, sizeof(*f));
	f->o = o;
	f->stats = stats;
	f->rand_state = (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
}

int pricing_fetch(const struct pricing_fetch_opts *o, struct price_list *out,
		  struct pricing_fetch_stats *stats, char *err)
{
	struct fetcher f;
	struct api_call a;
	char region[32];
	long pages = 0;
	int rc;

	fetcher_init(&f, o, stats);
	if ((rc = pricing_endpoint_check(o->endpoint, region, err)))
		return rc;
	if ((rc = http_new(&f.http, "pricing fetch", err)))
		return rc;
	api_call_init(&a, o, region);
	for (size_t r = 0; r < (o->nregions ? o->nregions : 1) && !rc; r++)
		for (size_t q = 0; q < ARRAY_SIZE(queries) && !rc; q++)
			rc = run_query(&f, &a, q,
				       o->nregions ? o->regions[r] : NULL, out,
				       &pages, err);
	api_call_release(&a);
	http_free(f.http);
	return rc;
}

/* ------------------------------------------------------------ bulk */

/* The two partitions of the bulk Price List. */
static const struct partition {
	const char *name; /* path segment */
	const char *host;
} partitions[] = {
	{ "aws", PRICING_BULK_HOST },
	{ "cn", PRICING_BULK_HOST_CN },
};

static const struct partition *partition_of(const char *region)
{
	return &partitions[str_starts_with(region, "cn-") ? 1 : 0];
}

/* Base URL (no trailing slash) for a partition: the endpoint override
 * when one is set, else the partition's public host. */
static char *base_url(const struct pricing_fetch_opts *o,
		      const struct partition *p)
{
	const char *e = o->endpoint ? o->endpoint : p->host;
	size_t n = strlen(e);

	while (n && e[n - 1] == '/')
		n--;
	return xstrndup(e, n);
}

/* GET url into resp (2xx) with retries; err gets the reason alone. */
static int get_small(struct fetcher *f, const char *url,
		     struct http_response *resp, char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	struct http_request req = { 0 };
	long slept = 0;
	int rc;

	req.url = url;
	req.connect_timeout_ms = o->connect_timeout_s * 1000;
	req.low_speed_bytes = o->low_speed_bytes;
	req.low_speed_s = o->low_speed_s;
	req.max_body = o->max_body;
	for (long attempt = 1;; attempt++) {
		char why[400];
		int r;

		if ((rc = perform_once(f, &req, resp, &r, err)))
			return rc;
		if (r == HTTP_DONE && resp->status >= 200 && resp->status < 300)
			return EBS_OK;
		if (r == HTTP_DONE) {
			xsnprintf(why, sizeof(why), "HTTP %ld", resp->status);
			if (resp->status != 429 && resp->status < 500)
				return ebs_fail(err,
						resp->status == 404
						    ? EBS_ERR_NOT_FOUND
						    : EBS_ERR_NETWORK,
						"%s", why);
		} else {
			xsnprintf(why, sizeof(why), "%s", resp->reason);
		}
		if ((rc = retry_or_fail(f, attempt, &slept, why, err)))
			return rc;
	}
}

/* The region index of one partition. */
static int fetch_index(struct fetcher *f, const char *base,
		       const struct partition *p, struct region_index *ri,
		       char *err)
{
	struct http_response resp;
	char *url =
	    xstrfmt("%s/offers/v1.0/%s/AmazonEC2/current/region_index.json",
		    base, p->name);
	char why[EBS_ERRLEN];
	int rc;

	http_response_init(&resp);
	rc = get_small(f, url, &resp, why);
	if (!rc)
		rc = pricing_parse_region_index(resp.body.buf, resp.body.len,
						url, ri, why);
	if (rc == EBS_ERR_PARSE)
		xsnprintf(err, EBS_ERRLEN, "%s", why);
	else if (rc)
		ebs_fail(err, rc, "cannot fetch the price list index '%s': %s",
			 url, why);
	http_response_release(&resp);
	free(url);
	return rc;
}

/* "a, b, c" of every region in the index (heap). */
static char *index_regions(const struct region_index *ri)
{
	struct sbuf sb = SBUF_INIT(1u << 20);

	sbuf_addstr(&sb, "");
	for (size_t i = 0; i < ri->n; i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", ri->v[i].region);
	return sbuf_detach(&sb, NULL);
}

static const struct region_index_entry *index_find(
    const struct region_index *ri, const char *region)
{
	for (size_t i = 0; i < ri->n; i++)
		if (!strcmp(ri->v[i].region, region))
			return &ri->v[i];
	return NULL;
}

/* One offer file being streamed. */
struct bulk_xfer {
	struct fetcher *f;
	struct bulk_region *br;
	struct pricing_stream *ps;
	struct http_response *resp;
	long long fed;	  /* bytes given to the parser */
	long long offset; /* where this attempt started */
	int first;	  /* no data yet in this attempt */
	int bad_resume;	  /* the server answered a Range wrongly */
	int parse_rc;
	char perr[EBS_ERRLEN];
	size_t index, count;
	long long t0_ms, last_ms;
};

/* Start reading the region's file from scratch. */
static void xfer_restart(struct bulk_xfer *x)
{
	pricing_stream_free(x->ps);
	price_list_release(&x->br->pl);
	price_list_init(&x->br->pl);
	x->ps = pricing_stream_new(x->br->url, x->f->o->rt, &x->br->pl);
	x->fed = 0;
}

static int bulk_on_data(void *arg, long status, const char *data, size_t len)
{
	struct bulk_xfer *x = arg;

	if (x->first) {
		x->first = 0;
		if (x->offset > 0 && status == 200) {
			xfer_restart(x); /* the whole file again */
		} else if (x->offset > 0 &&
			   (status != 206 ||
			    x->resp->range_start != x->offset)) {
			x->bad_resume = 1;
			return 1;
		}
	}
	x->parse_rc = pricing_stream_feed(x->ps, data, len, x->perr);
	if (x->parse_rc)
		return 1;
	x->fed += (long long)len;
	x->f->stats->bytes += (long long)len;
	return 0;
}

static void bulk_on_progress(void *arg, long long now, long long total)
{
	struct bulk_xfer *x = arg;
	const struct pricing_fetch_opts *o = x->f->o;
	struct bulk_progress bp;
	long long t = http_now_ms(), done = x->offset + now;
	double secs;

	if (!o->progress_bulk || t - x->last_ms < 200)
		return;
	x->last_ms = t;
	secs = (double)(t - x->t0_ms) / 1000.0;
	bp.region = x->br->region;
	bp.index = x->index;
	bp.count = x->count;
	bp.bytes = done;
	bp.total = total > 0 ? x->offset + total : -1;
	bp.rate_bps = secs > 0.2 ? (double)done / secs : 0;
	bp.eta_s = bp.total > 0 && bp.rate_bps > 0
		       ? (long)((double)(bp.total - done) / bp.rate_bps + 0.5)
		       : -1;
	o->progress_bulk(o->progress_arg, &bp);
}

/* The version segment of an offer path (".../AmazonEC2/<v>/<region>/..."),
 * or "" for "current". */
static void version_of_path(const char *path, char *out, size_t n)
{
	const char *p = strstr(path, "/AmazonEC2/");
	size_t len;

	out[0] = '\0';
	if (!p)
		return;
	p += strlen("/AmazonEC2/");
	len = strcspn(p, "/");
	if (len && len < n && strncmp(p, "current", len))
		xsnprintf(out, n, "%.*s", (int)len, p);
}

/* What the finished file must be: the offer, version and region asked for. */
static int check_offer(const struct bulk_region *br, const char *path,
		       char *err)
{
	const struct price_list *pl = &br->pl;
	char want[32];

	if (!pl->offer_files)
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot fetch prices from '%s': not an offer file (no \"products\")",
		    br->url);
	if (strcmp(pl->offer_code, "AmazonEC2"))
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "cannot fetch prices from '%s': offer '%s', not AmazonEC2",
		    br->url, pl->offer_code);
	version_of_path(path, want, sizeof(want));
	if (!pl->published[0])
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "cannot fetch prices from '%s': no publicationDate in the offer file",
		    br->url);
	if (*want && strcmp(want, pl->version))
		return ebs_fail(
		    err, EBS_ERR_SANITY,
		    "cannot fetch prices from '%s': the file is version '%s' (published %s), but the index points to version '%s'",
		    br->url, pl->version, pl->published, want);
	for (size_t i = 0; i < pl->n; i++)
		if (strcmp(pl->items[i].region, br->region))
			return ebs_fail(
			    err, EBS_ERR_SANITY,
			    "cannot fetch prices from '%s': the offer file for '%s' holds prices for '%s' (SKU %s)",
			    br->url, br->region, pl->items[i].region,
			    pl->items[i].sku);
	return EBS_OK;
}

/*
 * After one attempt at an offer file: EBS_OK when it is complete and
 * parsed; 1 when another attempt is worth it (the reason in why); else
 * an error code with the whole message in err.
 */
static int bulk_attempt_result(struct bulk_xfer *x, int r, char *why,
			       size_t whylen, char *err)
{
	const struct pricing_fetch_opts *o = x->f->o;
	long status = x->resp->status;
	int rc;

	if (x->parse_rc)
		return ebs_fail(err, x->parse_rc, "%s", x->perr);
	if (r == HTTP_DONE && (status == 200 || status == 206)) {
		if ((rc = pricing_stream_finish(x->ps, NULL, x->perr)))
			return ebs_fail(err, rc, "%s", x->perr);
		return EBS_OK;
	}
	if (r == HTTP_TIMEOUT && !remaining_ms(o)) {
		deadline_passed(o, why);
		return ebs_fail(err, EBS_ERR_NETWORK,
				"cannot fetch prices from '%s': %s", x->br->url,
				why);
	}
	if (r == HTTP_DONE) {
		xsnprintf(why, whylen, "HTTP %ld", status);
		if (status == 429 || status >= 500)
			return 1;
		return ebs_fail(
		    err,
		    status == 404 || status == 403 ? EBS_ERR_NOT_FOUND
						   : EBS_ERR_NETWORK,
		    "cannot fetch prices from '%s': %s", x->br->url, why);
	}
	xsnprintf(why, whylen, "%s",
		  x->bad_resume
		      ? "the server did not resume where the transfer broke"
		      : x->resp->reason);
	if (r == HTTP_FAILED)
		return ebs_fail(err, EBS_ERR_NETWORK,
				"cannot fetch prices from '%s': %s", x->br->url,
				why);
	return 1;
}

/* Stream one region's offer file into br->pl, with retries and resume. */
static int fetch_offer(struct fetcher *f, const char *path,
		       struct bulk_region *br, size_t index, size_t count,
		       char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	struct http_response resp;
	struct http_request req = { 0 };
	struct bulk_xfer x;
	char etag[160] = "", why[EBS_ERRLEN], gave_up[EBS_ERRLEN];
	long slept = 0;
	int rc = EBS_OK;

	http_response_init(&resp);
	memset(&x, 0, sizeof(x));
	x.f = f;
	x.br = br;
	x.resp = &resp;
	x.index = index;
	x.count = count;
	xfer_restart(&x);
	req.url = br->url;
	req.connect_timeout_ms = o->connect_timeout_s * 1000;
	req.low_speed_bytes = o->low_speed_bytes;
	req.low_speed_s = o->low_speed_s;
	req.on_data = bulk_on_data;
	req.on_progress = bulk_on_progress;
	req.arg = &x;
	req.if_range = etag;
	x.t0_ms = http_now_ms();
	for (long attempt = 1;; attempt++) {
		int r;

		if (!remaining_ms(o)) {
			deadline_passed(o, gave_up);
			rc = ebs_fail(err, EBS_ERR_NETWORK,
				      "cannot fetch prices from '%s': %s",
				      br->url, gave_up);
			break;
		}
		if (x.fed > 0 && (!*etag || x.bad_resume)) {
			xfer_restart(&x); /* cannot resume safely */
			etag[0] = '\0';
		}
		req.resume_from = x.fed;
		req.timeout_ms = request_timeout_ms(o, 0);
		x.offset = x.fed;
		x.first = 1;
		x.bad_resume = 0;
		if (x.fed > 0)
			f->stats->resumes++;
		f->stats->requests++;
		r = http_perform(f->http, &req, &resp);
		if (resp.etag[0] && (resp.status == 200 || resp.status == 206))
			xsnprintf(etag, sizeof(etag), "%s", resp.etag);
		rc = bulk_attempt_result(&x, r, why, sizeof(why), err);
		if (rc != 1)
			break;
		if ((rc = retry_or_fail(f, attempt, &slept, why, gave_up))) {
			ebs_fail(err, rc, "cannot fetch prices from '%s': %s",
				 br->url, gave_up);
			break;
		}
	}
	if (!rc)
		rc = check_offer(br, path, err);
	br->bytes = x.fed;
	pricing_stream_free(x.ps);
	http_response_release(&resp);
	return rc;
}

void bulk_result_release(struct bulk_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].url);
		price_list_release(&r->v[i].pl);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

/* The region index of every partition the request needs (aws for all
 * but cn-* regions; both for all regions). */
static int fetch_indexes(struct fetcher *f, struct region_index ri[2],
			 char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	int need[2] = { !o->nregions, !o->nregions };
	int rc = EBS_OK;

	for (size_t i = 0; i < o->nregions; i++)
		need[partition_of(o->regions[i]) - partitions] = 1;
	for (size_t p = 0; p < 2 && !rc; p++) {
		char *base;

		if (!need[p])
			continue;
		base = base_url(o, &partitions[p]);
		rc = fetch_index(f, base, &partitions[p], &ri[p], err);
		free(base);
	}
	return rc;
}

/* Add e to the plan unless it is there (a region asked for twice). */
static void plan_add(const struct region_index_entry ***plan, size_t *n,
		     size_t *alloc, const struct region_index_entry *e)
{
	for (size_t i = 0; i < *n; i++)
		if ((*plan)[i] == e)
			return;
	xgrow((void **)plan, alloc, *n + 1, sizeof(**plan));
	(*plan)[(*n)++] = e;
}

/*
 * The offer files to read, in order: every region of the indexes, or the
 * requested ones; an unknown region fails with the index's list.
 */
static int plan_files(const struct pricing_fetch_opts *o,
		      const struct region_index ri[2],
		      const struct region_index_entry ***plan, size_t *n,
		      char *err)
{
	size_t alloc = 0;

	for (size_t p = 0; p < 2 && !o->nregions; p++)
		for (size_t i = 0; i < ri[p].n; i++)
			plan_add(plan, n, &alloc, &ri[p].v[i]);
	for (size_t i = 0; i < o->nregions; i++) {
		const struct partition *part = partition_of(o->regions[i]);
		const struct region_index *idx = &ri[part - partitions];
		const struct region_index_entry *e =
		    index_find(idx, o->regions[i]);
		char *list, *base;
		int rc;

		if (e) {
			plan_add(plan, n, &alloc, e);
			continue;
		}
		list = index_regions(idx);
		base = base_url(o, part);
		rc = ebs_fail(
		    err, EBS_ERR_NOT_FOUND,
		    "region '%s' is not in the AmazonEC2 price list index of '%s'; it lists: %s",
		    o->regions[i], base, list);
		free(base);
		free(list);
		return rc;
	}
	return EBS_OK;
}

int pricing_fetch_bulk(const struct pricing_fetch_opts *o,
		       struct bulk_result *out,
		       struct pricing_fetch_stats *stats, char *err)
{
	struct pricing_fetch_opts oo = *o;
	struct region_index ri[2] = { { NULL, 0 }, { NULL, 0 } };
	const struct region_index_entry **plan = NULL;
	size_t nplan = 0;
	struct fetcher f;
	int rc;

	memset(out, 0, sizeof(*out));
	fetcher_init(&f, &oo, stats);
	if (o->endpoint &&
	    (rc = http_url_check(o->endpoint, "endpoint", 0, NULL, 0, err)))
		return rc;
	if ((rc = http_new(&f.http, "pricing fetch", err)))
		return rc;
	if (!(rc = fetch_indexes(&f, ri, err)))
		rc = plan_files(o, ri, &plan, &nplan, err);
	/* without --timeout: bulk_region_s for each file */
	if (!rc && !o->deadline_ms && o->bulk_region_s > 0) {
		oo.deadline_s = o->bulk_region_s * (long)nplan;
		oo.deadline_ms =
		    http_now_ms() + (long long)oo.deadline_s * 1000;
	}
	out->v = nplan ? xcalloc(nplan, sizeof(*out->v)) : NULL;
	for (size_t i = 0; i < nplan && !rc; i++) {
		struct bulk_region *br = &out->v[out->n++];
		char *base = base_url(o, partition_of(plan[i]->region));

		xsnprintf(br->region, sizeof(br->region), "%s",
			  plan[i]->region);
		br->url = xstrfmt("%s%s", base, plan[i]->path);
		price_list_init(&br->pl);
		free(base);
		rc = fetch_offer(&f, plan[i]->path, br, i + 1, nplan, err);
	}
	free(plan);
	region_index_release(&ri[0]);
	region_index_release(&ri[1]);
	http_free(f.http);
	if (rc)
		bulk_result_release(out);
	return rc;
}
