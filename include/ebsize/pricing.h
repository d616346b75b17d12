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
	char volume_type[16];    /* gp2 gp3 io1 io2 st1 sc1 standard */
	char dimension[16];      /* storage iops throughput io */
	char unit[16];           /* normalised */
	char currency[8];        /* USD, CNY, ... as quoted */
	double price_per_unit;
	double begin_range;
	double end_range;        /* < 0: unbounded */
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
	char first_unknown[96];  /* usagetype (or sku) of the first unknown */
	char effective[16];      /* newest term effectiveDate (YYYY-MM-DD) */
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
	char location[64];       /* "": not known (never matches) */
	char prefix[16];         /* usage-type prefix; "" for us-east-1 */
	int no_prefix;           /* 1: prefix not known (never matches) */
};
struct region_table {
	struct region_name *v;
	size_t n;
};
void region_table_release(struct region_table *rt);

/*
 * Parse buf (len bytes): one or more JSON documents back to back, each a
 * GetProducts response ({"PriceList": [ "<json>", ... ], "NextToken"}) or
 * a bulk offer file for one region ({"products": {...}, "terms":
 * {"OnDemand": ...}}, or an extract with "on_demand_terms").  Rows are
 * appended to out.  name labels error messages ('page.json', a URL).
 * When next_token is not NULL it receives the last document's NextToken
 * (heap string, NULL when absent or null); the caller frees it.
 * Returns EBS_OK or EBS_ERR_PARSE (message in err, naming name and place:
 * the document, the PriceList item or SKU).
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

/* ------------------------------------------------------------ fetch */

struct pricing_fetch_opts {
	const char *endpoint;            /* https://..., or http:// loopback */
	const char *const *regions;      /* regionCode filters; none: all */
	size_t nregions;
	const struct aws_creds *creds;
	const struct region_table *rt;
	long max_pages;                  /* per query: a NextToken that never ends */
	long max_attempts;               /* per request, first try included */
	long backoff_ms;                 /* first retry delay (doubles, jittered) */
	long max_retry_ms;               /* total sleeping per request */
	long connect_timeout_s;
	long timeout_s;                  /* whole request */
	size_t max_body;                 /* bytes per response */
	/* called after every page (may be NULL) */
	void (*progress)(void *arg, const char *region, long pages,
			 size_t products);
	void *progress_arg;
};

struct pricing_fetch_stats {
	long requests;
	long pages;
	long retries;
};

/* Defaults for everything but endpoint, regions, creds and rt. */
void pricing_fetch_opts_init(struct pricing_fetch_opts *o);

#define PRICING_DEFAULT_ENDPOINT "https://api.pricing.us-east-1.amazonaws.com"

/*
 * Check an endpoint URL: https, or plain http to a loopback host only
 * (an IPv4 literal in 127.0.0.0/8, ::1, exactly "localhost"), and no
 * user name or password in it.  Fills signing_region (32 bytes) with the
 * region named in an api.pricing.<region>.amazonaws.com(.cn) host, else
 * us-east-1.  EBS_OK or EBS_ERR_USAGE with a message.
 */
int pricing_endpoint_check(const char *url, char *signing_region, char *err);

/*
 * Run every GetProducts query the EBS prices need (for each region or for
 * all at once), following NextToken, and parse the pages into out.
 * Retries throttling, 5xx and transient network errors with exponential
 * backoff and jitter, bounded in attempts and in total time.  Returns
 * EBS_OK, EBS_ERR_NETWORK, EBS_ERR_AUTH, EBS_ERR_TOO_BIG or EBS_ERR_PARSE;
 * the message names the endpoint and the page and never holds a secret.
 */
int pricing_fetch(const struct pricing_fetch_opts *o, struct price_list *out,
		  struct pricing_fetch_stats *stats, char *err);

#endif
