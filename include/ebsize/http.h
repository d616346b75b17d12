/*
 * http.h - the one door to the network: HTTP(S) requests through libcurl,
 * which is loaded at run time (dlopen of its soname) the first time a
 * command needs it, so that commands that never touch the network do not
 * pay for relocating libcurl and its ~30 dependencies at start-up.
 *
 * src/http.c is the only file that includes curl.  Callers describe a
 * request (method, URL, headers, body, optional SigV4 signing, time
 * limits) and get back the status, a capped body or a stream of body
 * bytes, and a one-line reason when the transfer failed.  Nothing here
 * retries: the caller decides what is worth another attempt.
 */
#ifndef EBSIZE_HTTP_H
#define EBSIZE_HTTP_H

#include <stddef.h>

#include "ebsize/util.h"

/* Sonames tried in order, unless EBSIZE_LIBCURL names one. */
#define HTTP_LIBCURL_SONAME	"libcurl.so.4"
#define HTTP_LIBCURL_SONAME_ALT "libcurl-gnutls.so.4"

/*
 * Load libcurl (once per process) and initialise it.  EBS_OK, or
 * EBS_ERR_NETWORK with a message naming the library, why it could not be
 * loaded and how to install it.  `what` names the command that needs it
 * ("pricing fetch").  Every other function here calls it first.
 */
int http_load(const char *what, char *err);

/* How a request ended. */
enum http_result {
	HTTP_DONE = 0,	/* a response arrived (any status) */
	HTTP_TRANSIENT, /* network failure worth another attempt */
	HTTP_FAILED,	/* failure not worth another attempt (TLS, URL) */
	HTTP_TOO_BIG,	/* buffered body over max_body */
	HTTP_ABORTED,	/* on_data asked to stop */
	HTTP_TIMEOUT,	/* timeout_ms passed */
	HTTP_STALLED	/* below low_speed_bytes for low_speed_s */
};

struct http_request {
	const char *method; /* "GET" (NULL), "POST", "PUT" */
	const char *url;
	const char *const *headers; /* "Name: value" lines */
	size_t nheaders;
	const char *body; /* POST/PUT body (may be NULL) */
	size_t body_len;
	/* SigV4 signing ("aws:amz:REGION:SERVICE") with user and secret */
	const char *sigv4;
	const char *user;
	const char *secret;
	long connect_timeout_ms;
	long timeout_ms;       /* whole request; 0: none */
	long low_speed_bytes;  /* abort below this many bytes/s ... */
	long low_speed_s;      /* ... for this long (0: never) */
	long long resume_from; /* Range: bytes=N- when > 0 */
	const char *if_range;  /* If-Range value (an ETag) or NULL */
	size_t max_body;       /* cap of the buffered body */
	/*
	 * Streaming: when set, 2xx body bytes go here instead of the buffer
	 * (non-2xx bodies are still buffered, up to 64 KiB).  Return 0 to go
	 * on, nonzero to stop the transfer (HTTP_ABORTED).
	 */
	int (*on_data)(void *arg, long status, const char *data, size_t len);
	/* Called as bytes arrive (may be NULL): received and expected
	 * (-1 when unknown) for this response. */
	void (*on_progress)(void *arg, long long now, long long total);
	void *arg;
};

struct http_response {
	long status;	       /* 0 when no response */
	struct sbuf body;      /* buffered body (NUL-terminated) */
	char etag[160];	       /* ETag header, "" when none */
	long long range_start; /* Content-Range start, -1 when none */
	long long length;      /* Content-Length, -1 when unknown */
	char reason[320];      /* why the transfer failed (printable) */
};

void http_response_init(struct http_response *r);
void http_response_release(struct http_response *r);

/* One client: a libcurl handle that keeps its connections between
 * requests.  NULL-safe free. */
struct http;
int http_new(struct http **out, const char *what, char *err);
void http_free(struct http *h);

/*
 * Perform req; fills resp (reset first).  Returns an enum http_result.
 * TLS peers are always verified; redirects are never followed; only
 * http and https are spoken.
 */
int http_perform(struct http *h, const struct http_request *req,
		 struct http_response *resp);

/* Flags for http_url_check. */
#define HTTP_URL_LINK_LOCAL \
	1 /* also allow http to the EC2/ECS
				* metadata addresses (IMDS, containers) */

/*
 * Check a URL: https, or plain http only to a loopback host (an IPv4
 * literal in 127.0.0.0/8, ::1, exactly "localhost"; with
 * HTTP_URL_LINK_LOCAL also 169.254.169.254, 169.254.170.2,
 * 169.254.170.23, fd00:ec2::254, fd00:ec2::23), and no user name or
 * password in it.  host (hostlen bytes, may be NULL) gets the host name.
 * EBS_OK or EBS_ERR_USAGE with a message in which `what` names the URL's
 * role ("endpoint").  Loads libcurl (its URL parser is the one requests
 * use, so the check and the request cannot disagree).
 */
int http_url_check(const char *url, const char *what, unsigned flags,
		   char *host, size_t hostlen, char *err);

/* True only for a loopback host as described above. */
int http_loopback_host(const char *host);

/* Milliseconds on a monotonic clock, for deadlines. */
long long http_now_ms(void);

/* Sleep ms milliseconds (nothing when ms <= 0). */
void http_sleep_ms(long ms);

/* Percent-encode s for a query string or form body (unreserved kept). */
char *http_urlencode(const char *s);

#endif
