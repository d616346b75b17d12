/*
 * http.c - HTTP(S) through libcurl, loaded with dlopen() the first time a
 * command needs the network (the systemd way of optional dependencies):
 * the binary is not linked against libcurl, so `ebsize version`, `cost`
 * and the other offline commands start without relocating it and the
 * dozens of libraries it pulls in.  The curl headers are still used, for
 * the types and option numbers, which are a stable ABI (soname
 * libcurl.so.4).
 *
 * The only file that includes curl.  It knows nothing about AWS beyond
 * passing a SigV4 spec to libcurl, and it never retries: callers (the
 * Price List client, the credential providers) decide.  Verbose mode is
 * never switched on, so secrets given for signing or in headers are never
 * printed by libcurl.
 */
#include "ebsize/http.h"

#define CURL_DISABLE_TYPECHECK 1
#define CURL_NO_OLDIES	       1
#include <arpa/inet.h>
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ebsize/err.h"

/* ------------------------------------------------------------ loading */

/* The libcurl functions ebsize calls, resolved with dlsym. */
static struct curl_api {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *h, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *h);
	CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
	void (*easy_reset)(CURL *h);
	void (*easy_cleanup)(CURL *h);
	const char *(*easy_strerror)(CURLcode c);
	struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
	void (*slist_free_all)(struct curl_slist *l);
	CURLU *(*url)(void);
	CURLUcode (*url_set)(CURLU *u, CURLUPart what, const char *part,
			     unsigned flags);
	CURLUcode (*url_get)(const CURLU *u, CURLUPart what, char **part,
			     unsigned flags);
	void (*url_cleanup)(CURLU *u);
	void (*free)(void *p);
	curl_version_info_data *(*version_info)(CURLversion v);
} C;

static int loaded; /* 1 once every symbol is there */
static long curl_version_num;

static const struct {
	const char *name;
	size_t off;
} symbols[] = {
	{ "curl_global_init", offsetof(struct curl_api, global_init) },
	{ "curl_easy_init", offsetof(struct curl_api, easy_init) },
	{ "curl_easy_setopt", offsetof(struct curl_api, easy_setopt) },
	{ "curl_easy_perform", offsetof(struct curl_api, easy_perform) },
	{ "curl_easy_getinfo", offsetof(struct curl_api, easy_getinfo) },
	{ "curl_easy_reset", offsetof(struct curl_api, easy_reset) },
	{ "curl_easy_cleanup", offsetof(struct curl_api, easy_cleanup) },
	{ "curl_easy_strerror", offsetof(struct curl_api, easy_strerror) },
	{ "curl_slist_append", offsetof(struct curl_api, slist_append) },
	{ "curl_slist_free_all", offsetof(struct curl_api, slist_free_all) },
	{ "curl_url", offsetof(struct curl_api, url) },
	{ "curl_url_set", offsetof(struct curl_api, url_set) },
	{ "curl_url_get", offsetof(struct curl_api, url_get) },
	{ "curl_url_cleanup", offsetof(struct curl_api, url_cleanup) },
	{ "curl_free", offsetof(struct curl_api, free) },
	{ "curl_version_info", offsetof(struct curl_api, version_info) },
};

/*
 * dlopen one soname and resolve every symbol; on failure err gets the
 * loader's reason.  The handle is never closed: libcurl stays loaded for
 * the life of the process.
 */
static int load_from(const char *soname, char *why, size_t whylen)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!lib) {
		e = dlerror();
		xsnprintf(why, whylen, "%s", e ? e : "dlopen failed");
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(symbols); i++) {
		void *f = dlsym(lib, symbols[i].name);

		if (!f) {
			xsnprintf(why, whylen, "'%s' lacks %s", soname,
				  symbols[i].name);
			dlclose(lib);
			return -1;
		}
		memcpy((char *)&C + symbols[i].off, &f, sizeof(f));
	}
	return 0;
}

int http_load(const char *what, char *err)
{
	const char *forced = getenv("EBSIZE_LIBCURL");
	char why[400] = "", why2[400] = "";
	curl_version_info_data *vi;

	if (loaded)
		return EBS_OK;
	if (forced && *forced) {
		if (load_from(forced, why, sizeof(why)))
			goto missing;
	} else if (load_from(HTTP_LIBCURL_SONAME, why, sizeof(why)) &&
		   load_from(HTTP_LIBCURL_SONAME_ALT, why2, sizeof(why2))) {
		goto missing;
	}
	vi = C.version_info(CURLVERSION_NOW);
	curl_version_num = vi ? (long)vi->version_num : 0;
	/* CURLOPT_AWS_SIGV4 came in 7.75.0 */
	if (curl_version_num < 0x074b00)
		return ebs_fail(
		    err, EBS_ERR_NETWORK,
		    "'%s' needs libcurl 7.75.0 or newer; this one is %s", what,
		    vi && vi->version ? vi->version : "unknown");
	if (C.global_init(CURL_GLOBAL_DEFAULT))
		return ebs_fail(err, EBS_ERR_NETWORK, "cannot start libcurl");
	loaded = 1;
	return EBS_OK;
missing:
	return ebs_fail(
	    err, EBS_ERR_NETWORK,
	    "'%s' needs libcurl, which cannot be loaded (%s); install it (Debian: apt-get install libcurl4)",
	    what, why);
}

/* ------------------------------------------------------------ URLs */

int http_loopback_host(const char *h)
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
 * The fixed link-local addresses of the EC2 instance metadata service and
 * the ECS/EKS container credential endpoints (the hosts botocore allows
 * over plain http).
 */
static int metadata_host(const char *h)
{
	static const char *const hosts[] = {
		"169.254.169.254", "169.254.170.2",  "169.254.170.23",
		"[fd00:ec2::254]", "[fd00:ec2::23]",
	};

	for (size_t i = 0; i < ARRAY_SIZE(hosts); i++)
		if (!strcasecmp(h, hosts[i]))
			return 1;
	return 0;
}

int http_url_check(const char *url, const char *what, unsigned flags,
		   char *host_out, size_t hostlen, char *err)
{
	CURLU *u;
	char *scheme = NULL, *host = NULL, *user = NULL, *pass = NULL;
	int rc = EBS_OK;

	if ((rc = http_load("pricing fetch", err)))
		return rc;
	if (host_out && hostlen)
		host_out[0] = '\0';
	if (!(u = C.url()))
		abort();
	if (C.url_set(u, CURLUPART_URL, url, 0) ||
	    C.url_get(u, CURLUPART_SCHEME, &scheme, 0) ||
	    C.url_get(u, CURLUPART_HOST, &host, 0)) {
		rc = ebs_fail(err, EBS_ERR_USAGE, "'%s' is not a valid %s URL",
			      url, what);
		goto out;
	}
	/* the URL itself is not echoed: it holds the password */
	if (!C.url_get(u, CURLUPART_USER, &user, 0) ||
	    !C.url_get(u, CURLUPART_PASSWORD, &pass, 0)) {
		rc = ebs_fail(
		    err, EBS_ERR_USAGE,
		    "%s for host '%s' must not contain a user name or password",
		    what, host);
		goto out;
	}
	if (strcmp(scheme, "https") &&
	    !(!strcmp(scheme, "http") &&
	      (http_loopback_host(host) ||
	       ((flags & HTTP_URL_LINK_LOCAL) && metadata_host(host))))) {
		rc = ebs_fail(
		    err, EBS_ERR_USAGE,
		    "%s '%s' must use https (plain http only to a loopback host)",
		    what, url);
		goto out;
	}
	if (host_out && hostlen)
		xsnprintf(host_out, hostlen, "%s", host);
out:
	C.free(scheme);
	C.free(host);
	C.free(user);
	C.free(pass);
	C.url_cleanup(u);
	return rc;
}

char *http_urlencode(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	struct sbuf sb = SBUF_INIT((size_t)-1 / 2);

	sbuf_addstr(&sb, "");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[3] = { '%', hex[c >> 4], hex[c & 15] };

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		    c == '.' || c == '~')
			sbuf_add(&sb, s, 1);
		else
			sbuf_add(&sb, e, 3);
	}
	return sbuf_detach(&sb, NULL);
}

long long http_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void http_sleep_ms(long ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ requests */

struct http {
	CURL *h;
};

/* What one transfer is doing, for the callbacks. */
struct xfer {
	CURL *h;
	const struct http_request *req;
	struct http_response *resp;
	int too_big;
	int aborted;
};

#define ERROR_BODY_CAP (64u << 10)

void http_response_init(struct http_response *r)
{
	memset(r, 0, sizeof(*r));
	sbuf_init(&r->body, 0);
	r->range_start = -1;
	r->length = -1;
}

void http_response_release(struct http_response *r)
{
	if (r)
		sbuf_release(&r->body);
}

int http_new(struct http **out, const char *what, char *err)
{
	struct http *h;
	int rc;

	*out = NULL;
	if ((rc = http_load(what, err)))
		return rc;
	h = xcalloc(1, sizeof(*h));
	if (!(h->h = C.easy_init())) {
		free(h);
		return ebs_fail(err, EBS_ERR_NETWORK, "cannot start libcurl");
	}
	*out = h;
	return EBS_OK;
}

void http_free(struct http *h)
{
	if (!h)
		return;
	C.easy_cleanup(h->h);
	free(h);
}

static size_t on_write(char *data, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;
	long status = 0;

	C.easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
	if (x->req->on_data && status >= 200 && status < 300) {
		if (x->req->on_data(x->req->arg, status, data, len)) {
			x->aborted = 1;
			return 0;
		}
		return len;
	}
	if (x->req->on_data) {
		/* an error body while streaming: keep its start for the message */
		size_t room = ERROR_BODY_CAP - x->resp->body.len;

		sbuf_add(&x->resp->body, data, len < room ? len : room);
		return len;
	}
	if (sbuf_add(&x->resp->body, data, len)) {
		x->too_big = 1;
		return 0;
	}
	return len;
}

/* Parse a header line we care about (ETag, Content-Range, Content-Length). */
static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;
	char line[256], *v;

	if (len >= sizeof(line))
		return len;
	memcpy(line, data, len);
	line[len] = '\0';
	line[strcspn(line, "\r\n")] = '\0';
	if (!strncmp(line, "HTTP/", 5)) { /* a new response */
		x->resp->etag[0] = '\0';
		x->resp->range_start = -1;
		x->resp->length = -1;
		return len;
	}
	if (!(v = strchr(line, ':')))
		return len;
	*v++ = '\0';
	while (*v == ' ' || *v == '\t')
		v++;
	if (!strcasecmp(line, "ETag")) {
		xsnprintf(x->resp->etag, sizeof(x->resp->etag), "%s", v);
	} else if (!strcasecmp(line, "Content-Range") &&
		   !strncmp(v, "bytes ", 6)) {
		char num[32];
		uint64_t start;

		xsnprintf(num, sizeof(num), "%.*s", (int)strcspn(v + 6, "-"),
			  v + 6);
		if (!parse_u64(num, &start) && start < (1ull << 62))
			x->resp->range_start = (long long)start;
	} else if (!strcasecmp(line, "Content-Length")) {
		uint64_t l;

		if (!parse_u64(v, &l) && l < (1ull << 62))
			x->resp->length = (long long)l;
	}
	return len;
}

static int on_xferinfo(void *arg, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct xfer *x = arg;

	(void)ultotal;
	(void)ulnow;
	x->req->on_progress(x->req->arg, (long long)dlnow,
			    dltotal > 0 ? (long long)dltotal : -1);
	return 0;
}

/* Keep text from outside printable and short: it goes into one line. */
static void clean_text(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

/* Network errors worth another attempt. */
static int transient(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM: return 1;
	default: return 0;
	}
}

/* Set every option of one request on the (reset) handle. */
static struct curl_slist *setup(CURL *h, const struct http_request *r,
				struct xfer *x, char *curl_err)
{
	struct curl_slist *hl = NULL;
	char range[48], ifr[200];

	for (size_t i = 0; i < r->nheaders; i++)
		hl = C.slist_append(hl, r->headers[i]);
	hl = C.slist_append(hl, "Expect:");
	if (r->resume_from > 0 && r->if_range && *r->if_range) {
		xsnprintf(ifr, sizeof(ifr), "If-Range: %s", r->if_range);
		hl = C.slist_append(hl, ifr);
	}
	C.easy_setopt(h, CURLOPT_URL, r->url);
	C.easy_setopt(h, CURLOPT_HTTPHEADER, hl);
	if (curl_version_num >= 0x075500)
		C.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	else
		C.easy_setopt(h, (CURLoption)181 /* CURLOPT_PROTOCOLS */,
			      (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	C.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	C.easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	C.easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	C.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	C.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, r->connect_timeout_ms);
	C.easy_setopt(h, CURLOPT_TIMEOUT_MS, r->timeout_ms);
	if (r->low_speed_s > 0) {
		C.easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, r->low_speed_bytes);
		C.easy_setopt(h, CURLOPT_LOW_SPEED_TIME, r->low_speed_s);
	}
	if (!r->on_data && r->max_body)
		C.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
			      (curl_off_t)r->max_body);
	C.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
	C.easy_setopt(h, CURLOPT_WRITEDATA, x);
	C.easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	C.easy_setopt(h, CURLOPT_HEADERDATA, x);
	C.easy_setopt(h, CURLOPT_ERRORBUFFER, curl_err);
	C.easy_setopt(h, CURLOPT_USERAGENT, "ebsize/" EBSIZE_VERSION);
	/* no Accept-Encoding: a resumed offer file counts identity bytes */
	if (r->on_progress) {
		C.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_xferinfo);
		C.easy_setopt(h, CURLOPT_XFERINFODATA, x);
		C.easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	}
	if (r->resume_from > 0) {
		xsnprintf(range, sizeof(range), "%lld-", r->resume_from);
		C.easy_setopt(h, CURLOPT_RANGE, range);
	}
	if (r->sigv4) {
		C.easy_setopt(h, CURLOPT_AWS_SIGV4, r->sigv4);
		C.easy_setopt(h, CURLOPT_USERNAME, r->user);
		C.easy_setopt(h, CURLOPT_PASSWORD, r->secret);
	}
	if (r->method && strcmp(r->method, "GET")) {
		C.easy_setopt(h, CURLOPT_POSTFIELDS, r->body ? r->body : "");
		C.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
			      (curl_off_t)(r->body ? r->body_len : 0));
		if (strcmp(r->method, "POST"))
			C.easy_setopt(h, CURLOPT_CUSTOMREQUEST, r->method);
	} else {
		C.easy_setopt(h, CURLOPT_HTTPGET, 1L);
	}
	return hl;
}

/* Sort a failed transfer into an http_result with a reason. */
static int classify(CURLcode c, const char *curl_err,
		    const struct http_request *r, struct http_response *resp)
{
	xsnprintf(resp->reason, sizeof(resp->reason), "%s",
		  curl_err[0] ? curl_err : C.easy_strerror(c));
	clean_text(resp->reason);
	if (c == CURLE_OPERATION_TIMEDOUT) {
		if (strstr(curl_err, "too slow")) {
			xsnprintf(
			    resp->reason, sizeof(resp->reason),
			    "transfer stalled: less than %ld bytes/s for %ld s",
			    r->low_speed_bytes, r->low_speed_s);
			return HTTP_STALLED;
		}
		if (strstr(curl_err, "onnect")) /* connection timed out */
			return HTTP_TRANSIENT;
		xsnprintf(resp->reason, sizeof(resp->reason),
			  "no answer within %ld s",
			  (r->timeout_ms + 999) / 1000);
		return HTTP_TIMEOUT;
	}
	return transient(c) ? HTTP_TRANSIENT : HTTP_FAILED;
}

int http_perform(struct http *hc, const struct http_request *r,
		 struct http_response *resp)
{
	struct xfer x = { hc->h, r, resp, 0, 0 };
	char curl_err[CURL_ERROR_SIZE] = "";
	struct curl_slist *hl;
	CURLcode c;

	sbuf_release(&resp->body);
	http_response_init(resp);
	sbuf_init(&resp->body, r->on_data    ? ERROR_BODY_CAP
			       : r->max_body ? r->max_body
					     : (16u << 20));
	sbuf_add(&resp->body, "", 0);
	C.easy_reset(hc->h);
	hl = setup(hc->h, r, &x, curl_err);
	c = C.easy_perform(hc->h);
	C.easy_getinfo(hc->h, CURLINFO_RESPONSE_CODE, &resp->status);
	C.slist_free_all(hl);
	if (x.aborted)
		return HTTP_ABORTED;
	if (x.too_big || c == CURLE_FILESIZE_EXCEEDED) {
		char limit[32];

		fmt_cap(limit, sizeof(limit),
			r->max_body ? r->max_body : (16u << 20));
		xsnprintf(resp->reason, sizeof(resp->reason),
			  "response larger than the limit of %s", limit);
		return HTTP_TOO_BIG;
	}
	if (c != CURLE_OK)
		return classify(c, curl_err, r, resp);
	return HTTP_DONE;
}
