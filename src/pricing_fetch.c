/*
 * pricing_fetch.c - the AWS Price List Query API client: GetProducts over
 * HTTPS, signed with libcurl's built-in SigV4, paginated with NextToken,
 * retried with exponential backoff and jitter, capped in size.  The only
 * file that includes curl.  It turns pages into rows through
 * pricing_parse() and never touches the database.
 *
 * The secret key goes to libcurl only (CURLOPT_PASSWORD, for signing);
 * verbose mode is never switched on and no message here includes it.
 */
#include "ebsize/pricing.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ebsize/aws_creds.h"
#include "ebsize/err.h"
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
	o->max_body = 16u << 20;
}

/* ------------------------------------------------------------ endpoint */

/*
 * True only for a host that cannot leave this machine: an IPv4 literal in
 * 127.0.0.0/8, the IPv6 loopback (bracketed or not), or exactly
 * "localhost".  A name that merely starts with "127." is not one.
 */
static int loopback_host(const char *h)
{
	struct in_addr a4;
	struct in6_addr a6;
	char v6[64];
	size_t n = strlen(h);

	if (!strcmp(h, "localhost"))
		return 1;
	if (inet_pton(AF_INET, h, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (n >= 2 && h[0] == '[' && h[n - 1] == ']' && n - 2 < sizeof(v6)) {
		xsnprintf(v6, sizeof(v6), "%.*s", (int)(n - 2), h + 1);
		h = v6;
	}
	return inet_pton(AF_INET6, h, &a6) == 1 &&
	       !memcmp(&a6, &in6addr_loopback, sizeof(a6));
}

/*
 * The signing region of an api.pricing.<region>.amazonaws.com host (or
 * .amazonaws.com.cn in China) into region (32 bytes); left alone for any
 * other host.
 */
static void region_of_host(const char *host, char *region)
{
	static const char *const suffixes[] = {
		".amazonaws.com", ".amazonaws.com.cn",
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

/* Nonzero when the URL carries a user name or a password. */
static int has_userinfo(CURLU *u)
{
	char *user = NULL, *pass = NULL;
	int found = !curl_url_get(u, CURLUPART_USER, &user, 0) ||
		    !curl_url_get(u, CURLUPART_PASSWORD, &pass, 0);

	curl_free(user);
	curl_free(pass);
	return found;
}

int pricing_endpoint_check(const char *url, char *signing_region, char *err)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL;
	int rc = EBS_OK;

	xsnprintf(signing_region, 32, "us-east-1");
	if (!u)
		abort();
	if (curl_url_set(u, CURLUPART_URL, url, 0) ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0)) {
		rc = ebs_fail(err, EBS_ERR_USAGE, "'%s' is not a valid endpoint URL", url);
		goto out;
	}
	/* the URL itself is not echoed: it holds the password */
	if (has_userinfo(u)) {
		rc = ebs_fail(err, EBS_ERR_USAGE,
			      "endpoint for host '%s' must not contain a user name or password",
			      host);
		goto out;
	}
	if (strcmp(scheme, "https") &&
	    !(!strcmp(scheme, "http") && loopback_host(host))) {
		rc = ebs_fail(err, EBS_ERR_USAGE,
			      "endpoint '%s' must use https (plain http only to a loopback host)",
			      url);
		goto out;
	}
	region_of_host(host, signing_region);
out:
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return rc;
}

/* ------------------------------------------------------------ transport */

struct fetcher {
	const struct pricing_fetch_opts *o;
	CURL *h;
	struct curl_slist *headers;
	struct sbuf resp;
	int too_big;
	char curl_err[CURL_ERROR_SIZE];
	unsigned rand_state;
	struct pricing_fetch_stats *stats;
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct fetcher *f = arg;

	if (sbuf_add(&f->resp, data, size * n)) {
		f->too_big = 1;
		return 0;
	}
	return size * n;
}

/* Set up the easy handle once; requests reuse it (and its connection). */
static int fetcher_init(struct fetcher *f, const char *url,
			const char *region, char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	char sigv4[64];

	sbuf_init(&f->resp, o->max_body);
	f->rand_state = (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
	if (!(f->h = curl_easy_init()))
		return ebs_fail(err, EBS_ERR_NETWORK, "cannot start libcurl");
	xsnprintf(sigv4, sizeof(sigv4), "aws:amz:%s:pricing", region);
	f->headers = curl_slist_append(NULL, "Content-Type: application/x-amz-json-1.1");
	f->headers = curl_slist_append(f->headers, "X-Amz-Target: AWSPriceListService.GetProducts");
	f->headers = curl_slist_append(f->headers, "Expect:");
	if (o->creds->session_token) {
		char *h = xstrfmt("X-Amz-Security-Token: %s", o->creds->session_token);

		f->headers = curl_slist_append(f->headers, h);
		free(h);
	}
	curl_easy_setopt(f->h, CURLOPT_URL, url);
	curl_easy_setopt(f->h, CURLOPT_HTTPHEADER, f->headers);
	curl_easy_setopt(f->h, CURLOPT_AWS_SIGV4, sigv4);
	curl_easy_setopt(f->h, CURLOPT_USERNAME, o->creds->access_key_id);
	curl_easy_setopt(f->h, CURLOPT_PASSWORD, o->creds->secret_access_key);
	curl_easy_setopt(f->h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(f->h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(f->h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(f->h, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(f->h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(f->h, CURLOPT_CONNECTTIMEOUT, o->connect_timeout_s);
	curl_easy_setopt(f->h, CURLOPT_TIMEOUT, o->timeout_s);
	curl_easy_setopt(f->h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_body);
	curl_easy_setopt(f->h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(f->h, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(f->h, CURLOPT_ERRORBUFFER, f->curl_err);
	curl_easy_setopt(f->h, CURLOPT_USERAGENT, "ebsize/" EBSIZE_VERSION);
	return EBS_OK;
}

static void fetcher_release(struct fetcher *f)
{
	curl_easy_cleanup(f->h);
	curl_slist_free_all(f->headers);
	sbuf_release(&f->resp);
}

/* Network errors worth another attempt. */
static int transient(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

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

/* Sleep before attempt `attempt` (>= 2): base x 2^(attempt-2), capped,
 * with full jitter over its upper half.  Returns the milliseconds slept. */
static long backoff(struct fetcher *f, long attempt)
{
	long d = f->o->backoff_ms;

	for (long i = 2; i < attempt && d < 20000; i++)
		d *= 2;
	if (d > 20000)
		d = 20000;
	d = d / 2 + (long)(rand_r(&f->rand_state) % (unsigned)(d / 2 + 1));
	if (d > 0) {
		struct timespec ts = { d / 1000, (d % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
	return d;
}

/*
 * POST body and leave a 200 response in f->resp.  Retries what is worth
 * retrying; on failure err holds the reason (without any prefix), and
 * the code says what kind of failure it was.
 */
static int post(struct fetcher *f, const char *body, char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	long slept = 0, attempt;
	char why[600] = "";

	curl_easy_setopt(f->h, CURLOPT_POSTFIELDS, body);
	for (attempt = 1;; attempt++) {
		CURLcode c;
		long status = 0;
		char code[128], msg[400];

		sbuf_reset(&f->resp);
		f->too_big = 0;
		f->curl_err[0] = '\0';
		f->stats->requests++;
		c = curl_easy_perform(f->h);
		if (f->too_big || c == CURLE_FILESIZE_EXCEEDED)
			return ebs_fail(err, EBS_ERR_TOO_BIG,
					"response larger than the limit of %zu MiB",
					o->max_body >> 20);
		if (c != CURLE_OK) {
			xsnprintf(why, sizeof(why), "%s",
				  f->curl_err[0] ? f->curl_err : curl_easy_strerror(c));
			clean_text(why, 300);
			if (!transient(c))
				return ebs_fail(err, EBS_ERR_NETWORK, "%s", why);
		} else {
			curl_easy_getinfo(f->h, CURLINFO_RESPONSE_CODE, &status);
			if (status == 200)
				return EBS_OK;
			pricing_parse_error_body(f->resp.buf, f->resp.len, code,
						 sizeof(code), msg, sizeof(msg));
			clean_text(code, 100);
			clean_text(msg, 300);
			xsnprintf(why, sizeof(why), "HTTP %ld%s%s%s%s", status,
				  *code ? " " : "", code, *msg ? ": " : "", msg);
			if (auth_failure(status, code))
				return ebs_fail(err, EBS_ERR_AUTH,
						"%s (credentials rejected)", why);
			if (!(status == 429 || status >= 500 ||
			      !strcmp(code, "ThrottlingException")))
				return ebs_fail(err, EBS_ERR_NETWORK, "%s", why);
		}
		if (attempt >= o->max_attempts || slept >= o->max_retry_ms)
			return ebs_fail(err, EBS_ERR_NETWORK, "%s (gave up after %ld attempts)",
					why, attempt);
		f->stats->retries++;
		slept += backoff(f, attempt + 1);
	}
}

/* ------------------------------------------------------------ queries */

/* Drop the parser's "cannot parse 'response': " so a prefix can go first. */
static const char *parse_reason(const char *e)
{
	static const char pfx[] = "cannot parse 'response': ";

	return str_starts_with(e, pfx) ? e + sizeof(pfx) - 1 : e;
}

/* Every page of one query, appended to out. */
static int run_query(struct fetcher *f, size_t q, const char *region,
		     struct price_list *out, long *pages_total, char *err)
{
	const struct pricing_fetch_opts *o = f->o;
	char *token = NULL, *next = NULL, reason[EBS_ERRLEN];
	long page = 0;
	int rc = EBS_OK;

	do {
		char *body;

		page++;
		if (page > o->max_pages) {
			xsnprintf(reason, sizeof(reason),
				  "NextToken did not end after %ld pages (the limit)",
				  o->max_pages);
			rc = EBS_ERR_NETWORK;
			break;
		}
		body = pricing_request_body(queries[q].family, queries[q].volume,
					    region, token);
		rc = post(f, body, reason);
		free(body);
		if (rc)
			break;
		f->stats->pages++;
		(*pages_total)++;
		rc = pricing_parse(f->resp.buf, f->resp.len, "response", o->rt,
				   out, &next, reason);
		if (rc) {
			memmove(reason, parse_reason(reason),
				strlen(parse_reason(reason)) + 1);
			break;
		}
		if (next && token && !strcmp(next, token)) {
			xsnprintf(reason, sizeof(reason), "the same NextToken came back twice");
			rc = EBS_ERR_NETWORK;
			break;
		}
		free(token);
		token = next;
		next = NULL;
		if (o->progress)
			o->progress(o->progress_arg, region ? region : "all regions",
				    *pages_total, out->products);
	} while (token);
	if (rc)
		ebs_fail(err, rc, "cannot fetch prices from '%s': page %ld of %s/%s%s%s: %s",
			 o->endpoint, page, queries[q].family, queries[q].volume,
			 region ? " in " : "", region ? region : "", reason);
	free(token);
	free(next);
	return rc;
}

int pricing_fetch(const struct pricing_fetch_opts *o, struct price_list *out,
		  struct pricing_fetch_stats *stats, char *err)
{
	struct fetcher f;
	char region[32], *url = NULL;
	long pages = 0;
	int rc;

	memset(stats, 0, sizeof(*stats));
	memset(&f, 0, sizeof(f));
	f.o = o;
	f.stats = stats;
	if ((rc = pricing_endpoint_check(o->endpoint, region, err)))
		return rc;
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return ebs_fail(err, EBS_ERR_NETWORK, "cannot start libcurl");
	url = str_ends_with(o->endpoint, "/") ? xstrdup(o->endpoint) :
		xstrfmt("%s/", o->endpoint);
	if ((rc = fetcher_init(&f, url, region, err)))
		goto out;
	for (size_t r = 0; r < (o->nregions ? o->nregions : 1) && !rc; r++)
		for (size_t q = 0; q < ARRAY_SIZE(queries) && !rc; q++)
			rc = run_query(&f, q, o->nregions ? o->regions[r] : NULL,
				       out, &pages, err);
out:
	fetcher_release(&f);
	free(url);
	curl_global_cleanup();
	return rc;
}
