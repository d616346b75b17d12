/*
 * test_pricing.c - the Price List parser on the real samples in
 * tests/fixtures (values as they appear there, see
 * tests/fixtures/README.md), on small GENERATED items for the cases no
 * real sample shows (io2 tiers by group, Local Zones, zero, negative and
 * non-numeric prices), plus request bodies, error bodies, credentials
 * files, endpoint checks and the describe-instance-types parser.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "test.h"
#include "ebsize/aws_creds.h"
#include "ebsize/db.h"
#include "ebsize/db_prices.h"
#include "ebsize/err.h"
#include "ebsize/instances_parse.h"
#include "ebsize/pricing.h"
#include "ebsize/util.h"

#define FIX "tests/fixtures/"

static const struct price_item *find(const struct price_list *pl,
				     const char *region, const char *type,
				     const char *dim, double begin)
{
	for (size_t i = 0; i < pl->n; i++)
		if (!strcmp(pl->items[i].region, region) &&
		    !strcmp(pl->items[i].volume_type, type) &&
		    !strcmp(pl->items[i].dimension, dim) &&
		    pl->items[i].begin_range == begin)
			return &pl->items[i];
	return NULL;
}

/* Parse a fixture file into pl; returns the parser's code. */
static int parse_fixture(const char *name, const struct region_table *rt,
			 struct price_list *pl, char **token, char *err)
{
	char *buf = NULL, path[256];
	size_t len;
	int rc;

	xsnprintf(path, sizeof(path), FIX "%s", name);
	if ((rc = read_file_capped(path, 1u << 20, &buf, &len, err)))
		return rc;
	rc = pricing_parse(buf, len, name, rt, pl, token, err);
	free(buf);
	return rc;
}

static void test_fixtures(const struct region_table *rt)
{
	struct price_list pl;
	const struct price_item *it;
	char err[EBS_ERRLEN], *token = NULL;
	int rc;

	/* us-west-2 bulk offer extract (formats.md 1.3) */
	price_list_init(&pl);
	rc =
	    parse_fixture("pricing-offer-extract-usw2-gp3-iops-throughput.json",
			  rt, &pl, NULL, err);
	CHECK(rc == EBS_OK, "usw2 extract parses (%s)", rc ? err : "ok");
	CHECK(pl.n == 3 && pl.products == 4 && pl.unknown == 1,
	      "usw2: 3 EBS prices of 4 products, 1 unknown (got %zu/%zu/%zu)",
	      pl.n, pl.products, pl.unknown);
	CHECK(!strcmp(pl.first_unknown, "USW2-CPUCredits:t4g"),
	      "usw2: unknown is the CPU credits SKU");
	it = find(&pl, "us-west-2", "gp3", "throughput", 125);
	CHECK(it != NULL, "usw2: gp3 throughput row, billed above 125 MiB/s");
	if (it) {
		CHECK_NEAR(it->price_per_unit, 40.96 / 1024, 1e-15,
			   "usw2: 40.96 per GiBps-mo stored per MiB/s-month");
		CHECK_NEAR(it->price_per_unit, 0.04, 1e-15,
			   "usw2: = 0.04 (description says $0.04)");
		CHECK(!strcmp(it->unit, "MiBps-month"),
		      "usw2: throughput unit MiBps-month");
		CHECK(!strcmp(it->sku, "3MQHJKUUZSKTF82F"),
		      "usw2: throughput SKU kept");
		CHECK(it->end_range < 0, "usw2: throughput unbounded");
	}
	it = find(&pl, "us-west-2", "gp3", "iops", 3000);
	CHECK(it && it->price_per_unit == 0.005 &&
		  !strcmp(it->unit, "IOPS-month"),
	      "usw2: gp3 IOPS 0.005 per IOPS-month above 3,000");
	it = find(&pl, "us-west-2", "gp3", "storage", 0);
	CHECK(it && it->price_per_unit == 0.08 &&
		  !strcmp(it->unit, "GiB-month") &&
		  !strcmp(it->currency, "USD") &&
		  !strcmp(it->usagetype, "USW2-EBS:VolumeUsage.gp3"),
	      "usw2: gp3 storage 0.08 USD per GiB-month");
	CHECK(!strcmp(pl.effective, "2026-09-01"),
	      "usw2: effective date 2026-09-01");
	price_list_release(&pl);

	/* aws-cli GetProducts example: 2018 item, no regionCode */
	price_list_init(&pl);
	rc = parse_fixture("pricing-getproducts-io1-aps1-awscli-example.json",
			   rt, &pl, &token, err);
	CHECK(rc == EBS_OK, "aps1 page parses (%s)", rc ? err : "ok");
	it = find(&pl, "ap-southeast-1", "io1", "storage", 0);
	CHECK(
	    pl.n == 1 && it && it->price_per_unit == 0.138,
	    "aps1: io1 storage 0.138 in ap-southeast-1, region from 'location'");
	CHECK(token &&
		  str_starts_with(
		      token, "WGDY7ko8fQXdlaUZVdasFQ==:RVSagyIFn770XQOz") &&
		  str_ends_with(token, "/zk"),
	      "aps1: NextToken returned whole");
	free(token);
	price_list_release(&pl);

	price_list_init(&pl);
	rc = parse_fixture("pricing-getproducts-io1-aps1-awscli-example.json",
			   NULL, &pl, NULL, err);
	CHECK(rc == EBS_OK && pl.n == 0 && pl.unknown == 1,
	      "aps1 without a regions table: region unknown, counted");
	price_list_release(&pl);

	/* China offer fragment: CNY, never USD */
	price_list_init(&pl);
	rc = parse_fixture("pricing-offer-fragment-cnnw1-gp3-cny-opencost.json",
			   rt, &pl, NULL, err);
	it = find(&pl, "cn-northwest-1", "gp3", "storage", 0);
	CHECK(rc == EBS_OK && pl.n == 1 && it && !strcmp(it->currency, "CNY") &&
		  it->price_per_unit == 0.5312,
	      "cnw1: gp3 storage 0.5312 CNY kept as CNY");
	price_list_release(&pl);
}

/* ------------------------------------------------------------ generated */

/* A GENERATED GetProducts page with one item; fields are filled in. */
static char *page(const char *family, const char *usagetype, const char *api,
		  const char *group, const char *loctype, const char *unit,
		  const char *price)
{
	return xstrfmt(
	    "{\"PriceList\": [\"{\\\"product\\\": {\\\"productFamily\\\": \\\"%s\\\","
	    " \\\"sku\\\": \\\"GENSKU\\\", \\\"attributes\\\": {\\\"usagetype\\\": \\\"%s\\\","
	    " \\\"regionCode\\\": \\\"us-east-1\\\", \\\"volumeApiName\\\": \\\"%s\\\","
	    " \\\"group\\\": \\\"%s\\\", \\\"locationType\\\": \\\"%s\\\"}},"
	    " \\\"terms\\\": {\\\"OnDemand\\\": {\\\"GENSKU.T\\\": {\\\"priceDimensions\\\":"
	    " {\\\"GENSKU.T.R\\\": {\\\"unit\\\": \\\"%s\\\", \\\"pricePerUnit\\\":"
	    " {\\\"USD\\\": \\\"%s\\\"}}}}}}}\"]}",
	    family, usagetype, api, group, loctype, unit, price);
}

struct gen_case {
	const char *usagetype, *api, *group, *loctype, *unit, *price;
	int want_rc;
	size_t want_n, want_unknown, want_skipped;
	double want_price, want_begin, want_end;
	const char *want_err; /* substring */
	const char *why;
};

static const struct gen_case gen_cases[] = {
	{ "EBS:VolumeP-IOPS.io2", "io2", "EBS IOPS Tier 2", "AWS Region",
	  "IOPS-Mo", "0.0455", 0, 1, 0, 0, 0.0455, 32000, 64000, NULL,
	  "io2 tier 2 told by group alone (T6 tier ranges)" },
	{ "EBS:VolumeP-IOPS.io2.tier3", "io2", "EBS IOPS Tier 3", "AWS Region",
	  "IOPS-Mo", "0.03185", 0, 1, 0, 0, 0.03185, 64000, -1, NULL,
	  "io2 tier 3 by usagetype" },
	{ "EBS:VolumeUsage.io2", "io2", "", "AWS Region", "GB-month", "0.125",
	  0, 1, 0, 0, 0.125, 0, -1, NULL, "io2 storage in GB-month" },
	{ "EBS:VolumeIOUsage", "standard", "", "AWS Region", "IOs",
	  "0.0000000500", 0, 1, 0, 0, 0.05, 0, -1, NULL,
	  "standard I/O per request x 1e6" },
	{ "EBS:VolumeUsage.gp3", "gp3", "", "AWS Local Zone", "GB-Mo", "0.096",
	  0, 0, 0, 1, 0, 0, 0, NULL, "Local Zone product skipped" },
	{ "EBS:VolumeUsage.gp3", "gp3", "", "AWS Region", "GB-Mo",
	  "0.0000000000", 0, 0, 0, 1, 0, 0, 0, NULL, "zero price skipped" },
	{ "EBS:VolumeUsage.gp3", "gp3", "", "AWS Region", "Hrs", "0.08", 0, 0,
	  1, 0, 0, 0, 0, NULL, "unknown unit counted" },
	{ "EBS:VolumeUsage.gp3", "gp2", "", "AWS Region", "GB-Mo", "0.08", 0, 0,
	  1, 0, 0, 0, 0, NULL,
	  "volumeApiName disagreeing with usagetype counted" },
	{ "EBS:SnapshotUsage", "", "", "AWS Region", "GB-Mo", "0.05", 0, 0, 1,
	  0, 0, 0, 0, NULL, "snapshot storage is not a volume price" },
	{ "EBS:VolumeUsage.gp3", "gp3", "", "AWS Region", "GB-Mo", "-0.08",
	  EBS_ERR_PARSE, 0, 0, 0, 0, 0, 0, "SKU GENSKU: negative price -0.08",
	  "negative price" },
	{ "EBS:VolumeUsage.gp3", "gp3", "", "AWS Region", "GB-Mo", "0.08x",
	  EBS_ERR_PARSE, 0, 0, 0, 0, 0, 0, "price is not a number: 0.08x",
	  "non-numeric price" },
	{ "EBS:VolumeUsage.gp3", "gp3", "", "AWS Region", "GB-Mo", "nan",
	  EBS_ERR_PARSE, 0, 0, 0, 0, 0, 0, "price is not a number: nan",
	  "NaN price" },
};

static void test_generated(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(gen_cases); i++) {
		const struct gen_case *c = &gen_cases[i];
		char *doc = page("Storage", c->usagetype, c->api, c->group,
				 c->loctype, c->unit, c->price);
		struct price_list pl;
		char err[EBS_ERRLEN] = "";
		int rc;

		price_list_init(&pl);
		rc = pricing_parse(doc, strlen(doc), "gen", NULL, &pl, NULL,
				   err);
		CHECK(rc == c->want_rc && pl.n == c->want_n &&
			  pl.unknown == c->want_unknown &&
			  pl.skipped == c->want_skipped,
		      "generated: %s (rc %d n %zu unknown %zu skipped %zu)",
		      c->why, rc, pl.n, pl.unknown, pl.skipped);
		if (c->want_n && pl.n)
			CHECK(fabs(pl.items[0].price_per_unit - c->want_price) <
				      1e-12 &&
				  pl.items[0].begin_range == c->want_begin &&
				  pl.items[0].end_range == c->want_end,
			      "generated: %s: price %g range %g-%g", c->why,
			      pl.items[0].price_per_unit,
			      pl.items[0].begin_range, pl.items[0].end_range);
		if (c->want_err)
			CHECK(strstr(err, c->want_err) != NULL,
			      "generated: %s: message '%s'", c->why, err);
		price_list_release(&pl);
		free(doc);
	}
}

static void test_bad_documents(void)
{
	static const struct {
		const char *doc, *want;
	} cases[] = {
		{ "", "cannot parse 'x': empty" },
		{ "{\"PriceList\": [\"{not json\"]}",
		  "cannot parse 'x': PriceList item 1: not valid JSON" },
		{ "{\"PriceList\": [1]}",
		  "cannot parse 'x': PriceList item 1: not a string" },
		{ "{\"PriceList\": {}}",
		  "cannot parse 'x': \"PriceList\" is not an array" },
		{ "{\"PriceList\": []}\n{\"PriceList\": 3}",
		  "cannot parse 'x': document 2: \"PriceList\" is not an array" },
		{ "{\"a\": 1}", "cannot parse 'x': document 1 is neither" },
		{ "{\"PriceList\": []}\n\n{",
		  "cannot parse 'x': line 3: not valid JSON" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct price_list pl;
		char err[EBS_ERRLEN] = "";
		int rc;

		price_list_init(&pl);
		rc = pricing_parse(cases[i].doc, strlen(cases[i].doc), "x",
				   NULL, &pl, NULL, err);
		CHECK(rc == EBS_ERR_PARSE &&
			  str_starts_with(err, cases[i].want),
		      "bad document %zu: '%s'", i, err);
		price_list_release(&pl);
	}
}

/*
 * Generated offer file: n gp2 storage products, each in its own made-up
 * region ("gen-K", so none is a duplicate), terms listed in reverse order.
 */
static char *offer_file(size_t n)
{
	struct sbuf sb = SBUF_INIT(64u << 20);
	char *s;

	sbuf_addstr(&sb, "{\"products\": {");
	for (size_t k = 0; k < n; k++)
		sbuf_addf(
		    &sb,
		    "%s\"S%zu\": {\"sku\": \"S%zu\", \"attributes\": {"
		    "\"usagetype\": \"EBS:VolumeUsage.gp2\", \"regionCode\": \"gen-%zu\"}}",
		    k ? ", " : "", k, k, k);
	sbuf_addstr(&sb, "}, \"terms\": {\"OnDemand\": {");
	for (size_t k = n; k-- > 0;)
		sbuf_addf(
		    &sb,
		    "\"S%zu\": {\"S%zu.T\": {\"priceDimensions\": {\"S%zu.T.R\":"
		    " {\"unit\": \"GB-Mo\", \"pricePerUnit\": {\"USD\": \"0.1\"}}}}}%s",
		    k, k, k, k ? ", " : "");
	sbuf_addstr(&sb, "}}}");
	s = sbuf_detach(&sb, NULL);
	return s;
}

/*
 * Found in review while fuzzing: every product's terms were looked up by
 * a linear search (quadratic in the products of an offer file), and the
 * duplicate check over the prices is linear, so the list is now capped.
 */
static void test_offer_file_size(void)
{
	static const struct {
		size_t products;
		int want_rc;
		size_t want_n;
		const char *want_err;
	} cases[] = {
		{ 3000, EBS_OK, 3000, "" },
		{ PRICE_LIST_MAX_ITEMS, EBS_OK, PRICE_LIST_MAX_ITEMS, "" },
		{ PRICE_LIST_MAX_ITEMS + 1, EBS_ERR_PARSE, PRICE_LIST_MAX_ITEMS,
		  "cannot parse 'big.json': offer file: SKU S10000: more than 10000 EBS prices" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *doc = offer_file(cases[i].products);
		struct price_list pl;
		char err[EBS_ERRLEN] = "";
		int rc;

		price_list_init(&pl);
		rc = pricing_parse(doc, strlen(doc), "big.json", NULL, &pl,
				   NULL, err);
		CHECK(rc == cases[i].want_rc && pl.n == cases[i].want_n &&
			  !strcmp(err, cases[i].want_err),
		      "offer file of %zu products: rc %d, %zu prices, '%s'",
		      cases[i].products, rc, pl.n, err);
		price_list_release(&pl);
		free(doc);
	}
}

static void test_request_and_errors(void)
{
	char *b = pricing_request_body("Storage", "gp3", "us-west-2", "a=:/+");
	char code[64], msg[128];

	CHECK(
	    !strcmp(
		b,
		"{\"Filters\":[{\"Type\":\"TERM_MATCH\",\"Field\":\"productFamily\",\"Value\":\"Storage\"},"
		"{\"Type\":\"TERM_MATCH\",\"Field\":\"volumeApiName\",\"Value\":\"gp3\"},"
		"{\"Type\":\"TERM_MATCH\",\"Field\":\"regionCode\",\"Value\":\"us-west-2\"}],"
		"\"ServiceCode\":\"AmazonEC2\",\"FormatVersion\":\"aws_v1\",\"MaxResults\":100,"
		"\"NextToken\":\"a=:/+\"}"),
	    "request body: filters, MaxResults, NextToken (%s)", b);
	free(b);
	b = pricing_request_body("Storage", "gp2", NULL, NULL);
	CHECK(!strstr(b, "regionCode") && !strstr(b, "NextToken"),
	      "request body without region or token");
	free(b);
	pricing_parse_error_body(
	    "{\"__type\":\"com.amazonaws.awspricing#ThrottlingException:http://x\",\"Message\":\"slow\"}",
	    84, code, sizeof(code), msg, sizeof(msg));
	CHECK(!strcmp(code, "ThrottlingException") && !strcmp(msg, "slow"),
	      "error body: namespace and suffix stripped, Message read (%s/%s)",
	      code, msg);
	pricing_parse_error_body(
	    "{\"__type\":\"InternalErrorException\",\"message\":\"m\"}", 49,
	    code, sizeof(code), msg, sizeof(msg));
	CHECK(!strcmp(code, "InternalErrorException") && !strcmp(msg, "m"),
	      "error body: bare code, lowercase message");
	pricing_parse_error_body("<html>", 6, code, sizeof(code), msg,
				 sizeof(msg));
	CHECK(!*code && !*msg,
	      "error body: not JSON gives empty code and message");
}

static void test_endpoints(void)
{
	static const struct {
		const char *url;
		int ok;
		const char *region;
	} cases[] = {
		{ "https://api.pricing.us-east-1.amazonaws.com", 1,
		  "us-east-1" },
		{ "https://api.pricing.ap-south-1.amazonaws.com/", 1,
		  "ap-south-1" },
		{ "https://pricing.example.com", 1, "us-east-1" },
		{ "http://127.0.0.1:8080", 1, "us-east-1" },
		{ "http://127.0.0.2", 1, "us-east-1" },
		{ "http://localhost:1", 1, "us-east-1" },
		{ "http://[::1]:1", 1, "us-east-1" },
		{ "http://127.255.255.254/", 1, "us-east-1" },
		{ "https://api.pricing.cn-northwest-1.amazonaws.com.cn", 1,
		  "cn-northwest-1" },
		{ "https://api.pricing.cn-north-1.amazonaws.com.cn/", 1,
		  "cn-north-1" },
		{ "https://api.pricing.amazonaws.com.cn", 1, "us-east-1" },
		{ "https://api.pricing.amazonaws.com", 1, "us-east-1" },
		{ "https://127.0.0.1.example/", 1, "us-east-1" },
		/* found in review: a name starting "127." is not loopback */
		{ "http://127.evil.example/", 0, "" },
		{ "http://127.0.0.1.evil.example/", 0, "" },
		{ "http://localhost.evil.example/", 0, "" },
		{ "http://128.0.0.1/", 0, "" },
		{ "http://[::2]/", 0, "" },
		/* found in review: userinfo would reach messages and the DB */
		{ "https://user:pass@api.pricing.us-east-1.amazonaws.com/", 0,
		  "" },
		{ "https://user@pricing.example.com/", 0, "" },
		{ "http://:pass@127.0.0.1:9/", 0, "" },
		{ "http://example.com", 0, "" },
		{ "http://10.0.0.1", 0, "" },
		{ "ftp://127.0.0.1", 0, "" },
		{ "not a url", 0, "" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char region[32], err[EBS_ERRLEN];
		int rc = pricing_endpoint_check(cases[i].url, region, err);

		CHECK((rc == EBS_OK) == cases[i].ok &&
			  (!cases[i].ok || !strcmp(region, cases[i].region)),
		      "endpoint '%s': %s, signing region %s", cases[i].url,
		      cases[i].ok ? "accepted" : "refused", region);
	}
}

/* The refusal of userinfo names the host but never echoes the password. */
static void test_endpoint_userinfo(void)
{
	char region[32], err[EBS_ERRLEN];
	int rc = pricing_endpoint_check(
	    "https://me:hunter2@pricing.example.com/", region, err);

	CHECK(
	    rc == EBS_ERR_USAGE &&
		!strcmp(
		    err,
		    "endpoint for host 'pricing.example.com' must not contain a user name or password"),
	    "endpoint with userinfo: refused without the password (%s)", err);
}

static void test_creds(void)
{
	static const char ini[] =
	    "# generated test file\n[default]\naws_access_key_id=AKIDDEFAULT\n"
	    "aws_secret_access_key = defaultSECRET \n\n"
	    "[ test ]\r\naws_access_key_id = AKIDTEST\r\n"
	    "aws_secret_access_key=testSECRET\r\naws_session_token = TOK\r\n"
	    "[half]\naws_secret_access_key = halfSECRET\n";
	struct aws_creds c;
	char err[EBS_ERRLEN];

	CHECK(aws_creds_from_ini(ini, "default", "f", &c, err) == EBS_OK &&
		  !strcmp(c.access_key_id, "AKIDDEFAULT") &&
		  !strcmp(c.secret_access_key, "defaultSECRET") &&
		  !c.session_token,
	      "creds: default profile, spaces trimmed");
	aws_creds_release(&c);
	CHECK(aws_creds_from_ini(ini, "test", "f", &c, err) == EBS_OK &&
		  !strcmp(c.access_key_id, "AKIDTEST") &&
		  !strcmp(c.secret_access_key, "testSECRET") &&
		  c.session_token && !strcmp(c.session_token, "TOK"),
	      "creds: [ test ] with CRLF and a session token");
	CHECK(!strcmp(c.source, "profile 'test' in 'f'"),
	      "creds: source named");
	aws_creds_release(&c);
	CHECK(c.secret_access_key == NULL, "creds: release clears");
	CHECK(
	    aws_creds_from_ini(ini, "half", "f", &c, err) == EBS_ERR_AUTH &&
		!strstr(err, "halfSECRET"),
	    "creds: profile without a key id fails, secret not in message (%s)",
	    err);
	CHECK(aws_creds_from_ini(ini, "nope", "f", &c, err) == EBS_ERR_AUTH &&
		  !strcmp(err, "no AWS credentials: 'f' has no profile 'nope'"),
	      "creds: missing profile message");
}

/*
 * Found in review: keys are case-insensitive in the AWS CLI, and a UTF-8
 * BOM (Windows editors) hid the first section header.
 */
static void test_creds_case_and_bom(void)
{
	static const char ini[] =
	    "\xef\xbb\xbf[default]\r\nAWS_ACCESS_KEY_ID = AKIDUPPER\r\n"
	    "Aws_Secret_Access_Key=upperSECRET\r\nAWS_SESSION_TOKEN=UTOK\r\n";
	struct aws_creds c;
	char err[EBS_ERRLEN] = "";

	CHECK(aws_creds_from_ini(ini, "default", "f", &c, err) == EBS_OK &&
		  !strcmp(c.access_key_id, "AKIDUPPER") &&
		  !strcmp(c.secret_access_key, "upperSECRET") &&
		  c.session_token && !strcmp(c.session_token, "UTOK"),
	      "creds: BOM skipped, upper- and mixed-case keys read (%s)", err);
	aws_creds_release(&c);
}

/* Found in review: a crash with credentials loaded could dump them. */
static void test_creds_no_core(void)
{
	struct rlimit rl = { 0 };

	aws_creds_protect_process();
	CHECK(!getrlimit(RLIMIT_CORE, &rl) && rl.rlim_cur == 0,
	      "creds: core dumps off (RLIMIT_CORE soft limit 0)");
#ifdef __linux__
	CHECK(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0,
	      "creds: process not dumpable");
#endif
}

static void test_instances(void)
{
	struct instance_list il = { 0 };
	char *buf = NULL, err[EBS_ERRLEN];
	size_t len;
	int rc;

	rc = read_file_capped(
	    FIX "describe-instance-types-2xlarge-group-instance-selector.json",
	    1u << 20, &buf, &len, err);
	if (!rc)
		rc = instances_parse(buf, len, "g", "src", "2026-01-01", &il,
				     err);
	CHECK(rc == EBS_OK && il.n == 6 && il.skipped == 1 &&
		  !strcmp(il.first_skipped, "g2.2xlarge"),
	      "instances: 6 with limits, g2.2xlarge skipped");
	for (size_t i = 0; i < il.n; i++) {
		const struct instance_limits *l = &il.v[i];

		if (strcmp(l->instance_type, "c5d.2xlarge"))
			continue;
		/* formats.md 4: 2300 / 287.5 / 10000 ; 4750 / 593.75 / 20000 */
		CHECK(l->baseline_mbps == 2300 &&
			  l->baseline_mbytes_per_s == 287.5 &&
			  l->baseline_iops == 10000 && l->max_mbps == 4750 &&
			  l->max_mbytes_per_s == 593.75 &&
			  l->max_iops == 20000 && l->burst &&
			  !strcmp(l->source, "src") &&
			  !strcmp(l->as_of, "2026-01-01"),
		      "instances: c5d.2xlarge limits as published");
	}
	free(buf);
	instance_list_release(&il);
}

/*
 * Found in review while fuzzing: NUL bytes counted as blanks between
 * documents (strchr finds the terminator), so a file of NULs was "empty"
 * and NULs after a document were accepted.
 */
/* A generated entry with the given BaselineBandwidthInMbps and BaselineIops. */
#define CAPPED(mbps, iops)                                                    \
	"{\"InstanceTypes\": [{\"InstanceType\": \"x1.large\", \"EbsInfo\": " \
	"{\"EbsOptimizedInfo\": {\"BaselineBandwidthInMbps\": " mbps ", "     \
	"\"MaximumBandwidthInMbps\": 1, \"BaselineThroughputInMBps\": 1, "    \
	"\"MaximumThroughputInMBps\": 1, \"BaselineIops\": " iops ", "        \
	"\"MaximumIops\": 1}}}]}"

static void test_instances_bad(void)
{
	static const struct {
		const char *doc;
		size_t len;
		const char *want;
	} cases[] = {
		{ "\0\0", 2, "cannot parse 'i.json': line 1: not valid JSON" },
		{ "{\"InstanceTypes\": []}\0", 22,
		  "cannot parse 'i.json': line 1: not valid JSON" },
		{ " \n", 2, "cannot parse 'i.json': empty" },
		{ "{\"InstanceTypes\": [{}]}", 23,
		  "cannot parse 'i.json': InstanceTypes entry 1: no \"InstanceType\"" },
		/* found in review: a huge double was cast to an integer */
		{ CAPPED("1e300", "1000"), sizeof(CAPPED("1e300", "1000")) - 1,
		  "cannot parse 'i.json': 'x1.large': \"BaselineBandwidthInMbps\" is 1e+300, above the sanity cap of 10000000" },
		{ CAPPED("1000", "1e300"), sizeof(CAPPED("1000", "1e300")) - 1,
		  "cannot parse 'i.json': 'x1.large': \"BaselineIops\" is 1e+300, above the sanity cap of 1000000000" },
		{ CAPPED("1000", "1000000001"),
		  sizeof(CAPPED("1000", "1000000001")) - 1,
		  "cannot parse 'i.json': 'x1.large': \"BaselineIops\" is 1000000001, above the sanity cap of 1000000000" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct instance_list il = { 0 };
		char err[EBS_ERRLEN] = "";
		int rc = instances_parse(cases[i].doc, cases[i].len, "i.json",
					 "src", "2026-01-01", &il, err);

		CHECK(rc == EBS_ERR_PARSE && !strcmp(err, cases[i].want),
		      "bad instances document %zu: '%s'", i, err);
		instance_list_release(&il);
	}
}

/* A failing commit leaves no snapshot behind (real SQLite). */
static void test_commit_refusals(void)
{
	struct db *db = test_db();
	struct price_list pl;
	struct price_item it = {
		"us-east-1", "gp3", "storage", "GiB-month",	     "USD", 0.8,
		0,	     -1,    "GEN",     "EBS:VolumeUsage.gp3"
	};
	struct price_commit_opts o = {
		"test", "2026-01-01", NULL, NULL, 0, 0, 0
	};
	struct price_commit_report rep;
	char err[EBS_ERRLEN];

	price_list_init(&pl);
	CHECK(db_prices_commit(db, &pl, &o, &rep, err) == EBS_ERR_SANITY,
	      "commit: an empty list is refused");
	pl.items = &it;
	pl.n = 1;
	CHECK(db_prices_commit(db, &pl, &o, &rep, err) == EBS_ERR_SANITY &&
		  strstr(
		      err,
		      "moved from 0.08 to 0.8 USD (x10.00) against snapshot 1"),
	      "commit: a 10x move is refused (%s)", err);
	CHECK(!db_snapshot_exists(db, 2),
	      "commit: no snapshot row left behind");
	it.price_per_unit = -1;
	CHECK(db_prices_commit(db, &pl, &o, &rep, err) == EBS_ERR_SANITY,
	      "commit: a negative price is refused");
	it.price_per_unit = 0.08;
	o.require = (const char *const[]){ "us-east-1" };
	o.nrequire = 1;
	CHECK(
	    db_prices_commit(db, &pl, &o, &rep, err) == EBS_ERR_SANITY &&
		strstr(err,
		       "no gp2 and gp3 storage prices for region 'us-east-1'"),
	    "commit: a required region without gp2 is refused");
	CHECK(!db_snapshot_exists(db, 2), "commit: still no snapshot row");
}

void test_pricing(void)
{
	struct region_table rt;
	char err[EBS_ERRLEN];

	if (db_region_table(test_db(), &rt, err)) {
		CHECK(0, "regions table: %s", err);
		return;
	}
	/* every region of pricing/sources/ebs-prices-all-regions.csv (38,
	 * 26 of them priced; SOURCES.md lists the 12 with no data) */
	CHECK(rt.n == 38, "regions table: 38 regions (pricing/sources)");
	test_fixtures(&rt);
	region_table_release(&rt);
	test_generated();
	test_bad_documents();
	test_offer_file_size();
	test_request_and_errors();
	test_endpoints();
	test_endpoint_userinfo();
	test_creds();
	test_creds_case_and_bom();
	test_instances();
	test_instances_bad();
	test_commit_refusals();
	test_creds_no_core();
}
