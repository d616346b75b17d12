/*
 * pricing.h - EBS prices from the AWS Price List: the parsed form (struct
 * price_list), the parser over GetProducts pages and bulk offer files
 * (src/pricing_parse.c, cJSON), and the Price List Query API client
 * (src/pricing_fetch.c, libcurl with SigV4).  Writing the result to the
 * database is db_prices.h's job; nothing here touches SQLite.
 *
 * Normalised units (sql/schema.sql): GiB-month, IOPS-month, MiBps-month,
 * per-1M-IO.  The Price List quotes gp3 throughput per GiBps-month; the
 * parser divides it by 1024 (ebs-facts.md T6 "gp3 throughput unit" [P1 P3]).
 */
#ifndef EBSIZE_PRICING_H
#define EBSIZE_PRICING_H

#include <stddef.h>

struct aws_creds;

/* One price as it will be stored (one row of the prices table). */
struct price_item {
	char region[32];
	char volume_type[16]; /* gp2 gp3 io1 io2 st1 sc1 standard */
	char dimension[16];   /* storage iops throughput io */
	char unit[16];	      /* normalised */
	char currency[8];     /* USD, CNY, ... as quoted */
	double price_per_unit;
	double begin_range;
	double end_range; /* < 0: unbounded */
	char sku[32];
	char usagetype[64];
};

/*
 * The prices parsed from one or more documents.  Products that carry no
 * EBS volume price (snapshots, CPU credits, ...) are counted in unknown;
 * Local Zone / Outposts products and zero prices in skipped; a second
 * product for the same (region, type, dimension, range, currency) in
 * duplicates (the first one wins).
 */
struct price_list {
	struct price_item *items;
	size_t n, alloc;
	size_t products;
	size_t unknown;
	size_t skipped;
	size_t duplicates;
	char first_unknown[96]; /* usagetype (or sku) of the first unknown */
	char effective[16];	/* newest term effectiveDate (YYYY-MM-DD) */
	/* vintage: the newest publicationDate seen (offer files, PriceList
	 * items) and the version published with it; "" when none */
	char published[40];
	char version[32];
	char offer_code[32]; /* offerCode of the last offer file ("AmazonEC2") */
	size_t offer_files;  /* offer-file documents read */
};

/*
 * Most distinct prices one parse keeps (duplicates are not counted): the
 * real list has a few hundred (regions x usage types), and the duplicate
 * check is linear.  Beyond it pricing_parse() fails.
 */
#define PRICE_LIST_MAX_ITEMS 10000

void price_list_init(struct price_list *pl);
void price_list_release(struct price_list *pl);

/* Region names the parser maps `location` and usage-type prefixes with. */
struct region_name {
	char code[32];
	char location[64]; /* "": not known (never matches) */
	char prefix[16];   /* usage-type prefix; "" for us-east-1 */
	int no_prefix;	   /* 1: prefix not known (never matches) */
};
struct region_table {
	struct region_name *v;
	size_t n;
};
void region_table_release(struct region_table *rt);

/*
 * Streaming: bytes pushed in pieces of any size, read document by
 * document (see pricing_parse).  Memory stays bounded whatever the input
 * size: one product or PriceList item at a time, plus the EBS products
 * of the current document with their terms (at most
 * PRICING_STREAM_MAX_HELD bytes, PRICING_STREAM_MAX_HELD_PRODUCTS
 * products).  name labels messages and must outlive the stream.
 * feed/finish return EBS_OK or EBS_ERR_PARSE (after which the stream is
 * dead); finish gives the last document's NextToken as pricing_parse.
 */
#define PRICING_STREAM_MAX_HELD		 (32u << 20)
#define PRICING_STREAM_MAX_HELD_PRODUCTS 100000
struct pricing_stream;
struct pricing_stream *pricing_stream_new(const char *name,
					  const struct region_table *rt,
					  struct price_list *out);
int pricing_stream_feed(struct pricing_stream *ps, const char *buf, size_t len,
			char *err);
int pricing_stream_finish(struct pricing_stream *ps, char **next_token,
			  char *err);
void pricing_stream_free(struct pricing_stream *ps);

/*
 * Parse buf (len bytes): one or more JSON documents back to back, each a
 * GetProducts response ({"PriceList": [ "<json>", ... ], "NextToken"}) or
 * a bulk offer file for one region ({"products": {...}, "terms":
 * {"OnDemand": ...}}, or an extract with "on_demand_terms").  Rows are
 * appended to out.  name labels error messages ('page.json', a URL).
 * When next_token is not NULL it receives the last document's NextToken
 * (heap string, NULL when absent or null); the caller frees it.
 * Returns EBS_OK or EBS_ERR_PARSE (message in err, naming name and place:
 * the document, the PriceList item or SKU, or "line N").  The same
 * reader as the stream above, fed once.
 */
int pricing_parse(const char *buf, size_t len, const char *name,
		  const struct region_table *rt, struct price_list *out,
		  char **next_token, char *err);

/*
 * The JSON body of one GetProducts request for AmazonEC2, TERM_MATCH on
 * productFamily and volumeApiName, and on regionCode when region is not
 * NULL; MaxResults 100; NextToken when next_token is not NULL.
 * Heap string; the caller frees it.
 */
char *pricing_request_body(const char *family, const char *volume_api_name,
			   const char *region, const char *next_token);

/*
 * Read an awsJson1_1 error body: {"__type": "ns#Code:extra", "message" |
 * "Message": "..."}.  code gets the bare code ("ThrottlingException"),
 * msg the message; both "" when absent.  Never fails.
 */
void pricing_parse_error_body(const char *buf, size_t len, char *code,
			      size_t code_len, char *msg, size_t msg_len);

/*
 * The region index of a bulk offer (region_index.json): for each region
 * the path of its current offer file.  Paths are checked to stay on the
 * pricing host (they start "/offers/v1.0/" and hold no "..", "//",
 * query, fragment, backslash or space).
 */
struct region_index_entry {
	char region[32];
	char path[256];
};
struct region_index {
	struct region_index_entry *v;
	size_t n;
};
int pricing_parse_region_index(const char *buf, size_t len, const char *name,
			       struct region_index *out, char *err);
void region_index_release(struct region_index *ri);

/* ------------------------------------------------------------ fetch */

/* Where a bulk fetch stands, for a progress line. */
struct bulk_progress {
	const char *region;
	size_t index, count;	/* 1-based region number, of count */
	long long bytes, total; /* total -1 when unknown */
	double rate_bps;	/* bytes/s over this file so far */
	long eta_s;		/* -1 when unknown */
};

struct pricing_fetch_opts {
	const char *endpoint;	    /* https://..., or http:// loopback;
					  * NULL for bulk: the partition's host */
	const char *const *regions; /* regionCode filters; none: all */
	size_t nregions;
	const struct aws_creds *creds; /* Query API only */
	const struct region_table *rt;
	long max_pages;	   /* per query: a NextToken that never ends */
	long max_attempts; /* per request, first try included */
	long backoff_ms;   /* first retry delay (doubles, jittered) */
	long max_retry_ms; /* total sleeping per request */
	long connect_timeout_s;
	long timeout_s;	       /* one Query API request */
	long long deadline_ms; /* whole fetch, on http_now_ms()'s
					  * clock; 0: none */
	long deadline_s;       /* the same in seconds, for messages */
	long bulk_region_s;    /* bulk without a deadline: this many
					  * seconds per region file */
	long low_speed_bytes;  /* a transfer below this rate ... */
	long low_speed_s;      /* ... for this long is a stall */
	size_t max_body;       /* bytes per Query API response */
	/* called after every page (may be NULL) */
	void (*progress)(void *arg, const char *region, long pages,
			 size_t products);
	/* called as an offer file arrives, at most 5 times a second */
	void (*progress_bulk)(void *arg, const struct bulk_progress *bp);
	void *progress_arg;
};

struct pricing_fetch_stats {
	long requests;
	long pages;
	long retries;
	long resumes;	 /* bulk: transfers resumed mid-file */
	long long bytes; /* bulk: body bytes read */
};

/* Defaults for everything but endpoint, regions, creds and rt. */
void pricing_fetch_opts_init(struct pricing_fetch_opts *o);

#define PRICING_DEFAULT_ENDPOINT "https://api.pricing.us-east-1.amazonaws.com"
/* The public bulk Price List hosts (no credentials). */
#define PRICING_BULK_HOST    "https://pricing.us-east-1.amazonaws.com"
#define PRICING_BULK_HOST_CN "https://pricing.cn-north-1.amazonaws.com.cn"

/*
 * Check an endpoint URL: https, or plain http to a loopback host only
 * (an IPv4 literal in 127.0.0.0/8, ::1, exactly "localhost"), and no
 * user name or password in it.  Fills signing_region (32 bytes) with the
 * region named in an api.pricing.<region>.amazonaws.com(.cn) host, else
 * us-east-1.  EBS_OK, EBS_ERR_USAGE with a message, or EBS_ERR_NETWORK
 * when libcurl (whose URL parser this uses) cannot be loaded.
 */
int pricing_endpoint_check(const char *url, char *signing_region, char *err);

/*
 * Run every GetProducts query the EBS prices need (for each region or for
 * all at once), following NextToken, and parse the pages into out.
 * Retries throttling, 5xx and transient network errors with exponential
 * backoff and jitter, bounded in attempts, in total sleep and by the
 * whole-fetch deadline; a stalled transfer (below low_speed_bytes for
 * low_speed_s) counts as transient.  Returns EBS_OK, EBS_ERR_NETWORK,
 * EBS_ERR_AUTH, EBS_ERR_TOO_BIG or EBS_ERR_PARSE; the message names the
 * endpoint and the page and never holds a secret.
 */
int pricing_fetch(const struct pricing_fetch_opts *o, struct price_list *out,
		  struct pricing_fetch_stats *stats, char *err);

/* One region's offer file, read by a bulk fetch. */
struct bulk_region {
	char region[32];
	char *url;	      /* the offer file's URL (heap) */
	struct price_list pl; /* its EBS prices and vintage */
	long long bytes;
};

struct bulk_result {
	struct bulk_region *v;
	size_t n;
};
void bulk_result_release(struct bulk_result *r);

/*
 * The bulk Price List, no credentials: for each partition needed (aws;
 * cn for cn-* regions) GET .../offers/v1.0/<partition>/AmazonEC2/current/
 * region_index.json, then each requested region's offer file (all of
 * both indexes when nregions is 0), streamed through the offer parser as
 * it arrives (never held whole).  A transfer cut short is resumed with a
 * Range request when the server names an ETag, else started again.
 * Each file must be an AmazonEC2 offer file of the version the index
 * points to, with EBS prices for its own region only.  An unknown region
 * fails with the list of those the index has.  out gets one entry per
 * region, in order.  Returns EBS_OK or an error (EBS_ERR_NETWORK,
 * EBS_ERR_PARSE, EBS_ERR_NOT_FOUND, EBS_ERR_SANITY) naming the URL.
 */
int pricing_fetch_bulk(const struct pricing_fetch_opts *o,
		       struct bulk_result *out,
		       struct pricing_fetch_stats *stats, char *err);

#endif
