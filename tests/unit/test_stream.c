/*
 * test_stream.c - the push JSON tokenizer (json_stream), the streaming
 * Price List reader fed in pieces, and the parsers of the credential
 * chain (aws_config_parse.c): INI, times, command splitting, SHA-1, the
 * JSON and XML answers.  Expected values are worked out by hand in the
 * rows; SHA-1 vectors are FIPS 180's.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/aws_config.h"
#include "ebsize/aws_creds.h"
#include "ebsize/json_stream.h"
#include "ebsize/pricing.h"
#include "ebsize/util.h"

/* ------------------------------------------------------------ tokenizer */

/* Tokens as a string: one letter per event, keys and strings spelled. */
static int collect(void *arg, const struct js_token *t, char *err)
{
	struct sbuf *sb = arg;
	static const char letters[] = "{}[]ksntfFcD";

	(void)err;
	sbuf_add(sb, &letters[t->ev], 1);
	if (t->ev == JS_KEY || t->ev == JS_STRING || t->ev == JS_NUMBER ||
	    t->ev == JS_CAPTURED)
		sbuf_addf(sb, "(%.*s)", (int)t->len, t->s);
	if (t->ev == JS_KEY && !strcmp(t->s, "skip"))
		return JS_SKIP;
	if (t->ev == JS_KEY && !strcmp(t->s, "cap"))
		return JS_CAPTURE;
	return JS_GO;
}

/* Feed doc in pieces of `piece` bytes; returns the rc, tokens in sb. */
static int tokenize(const char *doc, size_t piece, struct sbuf *sb, char *err)
{
	struct json_stream *js = js_new(collect, sb, 64);
	size_t len = strlen(doc);
	int rc = EBS_OK;

	for (size_t off = 0; off < len && !rc; off += piece)
		rc = js_feed(js, doc + off,
			     len - off < piece ? len - off : piece, err);
	if (!rc)
		rc = js_finish(js, err);
	js_free(js);
	return rc;
}

static void test_tokenizer(void)
{
	static const struct {
		const char *doc, *tokens, *err;
	} cases[] = {
		{ "{\"a\": [1, -2.5e3, true, null], \"b\": \"x\\u00e9\\n\"}",
		  "{k(a)[n(1)n(-2.5e3)tF]k(b)s(x\xc3\xa9\n)}D", NULL },
		/* skipped values give no tokens; captured ones their raw text */
		{ "{\"skip\": {\"a\": [1, {\"b\": 2}]}, \"cap\": {\"c\" : [ ]}, \"d\": 0}",
		  "{k(skip)k(cap)c({\"c\" : [ ]})k(d)n(0)}D", NULL },
		{ "{\"cap\": \"q\\\"\", \"cap\": 12}",
		  "{k(cap)c(\"q\\\"\")k(cap)c(12)}D", NULL },
		{ "{}{} []", "{}D{}D[]D", NULL },
		{ "\"\\ud83d\\ude00\"", "s(\xf0\x9f\x98\x80)D", NULL },
		{ "12", "n(12)D", NULL },
		{ "", NULL, "empty" },
		{ "  \n ", NULL, "empty" },
		{ "{\"a\": 1,}", NULL, "line 1: not valid JSON" },
		{ "[01]", NULL, "line 1: not valid JSON" },
		{ "[1.]", NULL, "line 1: not valid JSON" },
		{ "[-]", NULL, "line 1: not valid JSON" },
		{ "[tru]", NULL, "line 1: not valid JSON" },
		{ "{\"a\"\n:\n", NULL, "line 3: not valid JSON (cut short)" },
		{ "\"a\tb\"", NULL,
		  "line 1: not valid JSON (control character in a string)" },
		{ "\"\\x\"", NULL,
		  "line 1: not valid JSON (bad escape in a string)" },
		{ "\"\\ud83d\"", NULL,
		  "line 1: not valid JSON (unpaired surrogate)" },
		{ "\"\\ude00\"", NULL,
		  "line 1: not valid JSON (unpaired surrogate)" },
		{ "\"\\u12g4\"", NULL,
		  "line 1: not valid JSON (bad \\u escape)" },
		/* the skipped part is validated too */
		{ "{\"skip\": [1 2]}", NULL, "line 1: not valid JSON" },
		/* max_value 64: a longer string or capture is refused */
		{ "[\"0123456789012345678901234567890123456789012345678901234567890123456789\"]",
		  NULL, "line 1: a value longer than 64 bytes" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		/* whole, then byte by byte, then in 3s: the same tokens */
		static const size_t pieces[] = { 1000, 1, 3 };

		for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
			struct sbuf sb = SBUF_INIT(1u << 16);
			char err[EBS_ERRLEN] = "";
			int rc;

			sbuf_addstr(&sb, "");
			rc = tokenize(cases[i].doc, pieces[k], &sb, err);
			if (cases[i].tokens)
				CHECK(
				    rc == EBS_OK &&
					!strcmp(sb.buf, cases[i].tokens),
				    "tokenizer %zu (pieces of %zu): '%s' (%s)",
				    i, pieces[k], sb.buf, err);
			else
				CHECK(
				    rc == EBS_ERR_PARSE &&
					!strcmp(err, cases[i].err),
				    "tokenizer %zu (pieces of %zu) refused: '%s'",
				    i, pieces[k], err);
			sbuf_release(&sb);
		}
	}
}

/*
 * A string over max_value whose last piece holds its closing quote: the
 * error stands and no (truncated) string token is handed on -- a handler
 * that parses it (a PriceList item) must never see it or overwrite the
 * error (found while listing the input caps: "not valid JSON" instead of
 * "a value longer than 8 MiB").
 */
static void test_cap_at_the_end(void)
{
	static const size_t pieces[] = { 60, 66, 1000 };
	const char *doc =
	    "[\"01234567890123456789012345678901234567890123456789012345678901234\"]";

	for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
		struct sbuf sb = SBUF_INIT(1u << 16);
		char err[EBS_ERRLEN] = "";
		int rc;

		sbuf_addstr(&sb, "");
		rc = tokenize(doc, pieces[k], &sb, err);
		CHECK(
		    rc == EBS_ERR_PARSE &&
			!strcmp(err, "line 1: a value longer than 64 bytes") &&
			!strchr(sb.buf, 's'),
		    "a 65-byte string, pieces of %zu: refused, no token of it: '%s' (%s)",
		    pieces[k], sb.buf, err);
		sbuf_release(&sb);
	}
}

static void test_deep_nesting(void)
{
	struct sbuf doc = SBUF_INIT(1u << 20), sb = SBUF_INIT(1u << 20);
	char err[EBS_ERRLEN] = "";

	for (int i = 0; i < JS_MAX_DEPTH + 1; i++)
		sbuf_addstr(&doc, "[");
	sbuf_addstr(&sb, "");
	CHECK(tokenize(doc.buf, 4096, &sb, err) == EBS_ERR_PARSE &&
		  !strcmp(err, "line 1: nested deeper than 512"),
	      "nesting beyond 512 refused (%s)", err);
	sbuf_release(&doc);
	sbuf_release(&sb);
}

/* ------------------------------------------------------------ stream */

/*
 * The Price List reader gives the same prices, counts and vintage
 * whatever the pieces: a GetProducts page, an offer file with its terms
 * before the products, and one with two products under one key.
 */
static void test_pricing_pieces(void)
{
	static const char offer[] =
	    "{\"offerCode\" : \"AmazonEC2\", \"version\" : \"20261120093000\","
	    " \"publicationDate\" : \"2026-11-20T09:30:00Z\","
	    " \"terms\" : {\"Reserved\" : {\"X\" : {}}, \"OnDemand\" : {"
	    "  \"G1\" : {\"G1.T\" : {\"effectiveDate\" : \"2026-09-01T00:00:00Z\", \"priceDimensions\" : {"
	    "   \"G1.T.R\" : {\"unit\" : \"GB-Mo\", \"pricePerUnit\" : {\"USD\" : \"0.0800000000\"}}}}},"
	    "  \"C1\" : {\"C1.T\" : {\"priceDimensions\" : {}}}}},"
	    " \"products\" : {"
	    "  \"C1\" : {\"sku\" : \"C1\", \"attributes\" : {\"usagetype\" : \"BoxUsage:m5.large\"}},"
	    "  \"G1\" : {\"sku\" : \"G1\", \"attributes\" : {\"usagetype\" : \"USW2-EBS:VolumeUsage.gp3\","
	    "   \"regionCode\" : \"us-west-2\", \"locationType\" : \"AWS Region\"}}}}";
	size_t len = strlen(offer);

	for (size_t piece = 1; piece <= len; piece = piece * 3 + 1) {
		struct price_list pl;
		struct pricing_stream *ps;
		char err[EBS_ERRLEN] = "";
		int rc = EBS_OK;

		price_list_init(&pl);
		ps = pricing_stream_new("o.json", NULL, &pl);
		for (size_t off = 0; off < len && !rc; off += piece)
			rc = pricing_stream_feed(
			    ps, offer + off,
			    len - off < piece ? len - off : piece, err);
		if (!rc)
			rc = pricing_stream_finish(ps, NULL, err);
		/* gp3 storage 0.08 us-west-2; C1 is an unknown product */
		CHECK(
		    rc == EBS_OK && pl.n == 1 && pl.products == 2 &&
			pl.unknown == 1 && pl.items[0].price_per_unit == 0.08 &&
			!strcmp(pl.items[0].region, "us-west-2") &&
			!strcmp(pl.published, "2026-11-20T09:30:00Z") &&
			!strcmp(pl.version, "20261120093000") &&
			!strcmp(pl.offer_code, "AmazonEC2") &&
			pl.offer_files == 1 &&
			!strcmp(pl.effective, "2026-09-01"),
		    "offer file with terms first, pieces of %zu: rc %d, %zu prices (%s)",
		    piece, rc, pl.n, err);
		pricing_stream_free(ps);
		price_list_release(&pl);
	}
}

/* ------------------------------------------------------------ INI */

static void test_ini(void)
{
	static const char ini[] =
	    "\xef\xbb\xbf# generated\n"
	    "[default]\r\n"
	    "region = us-west-2\r\n"
	    "s3 =\n"
	    "  max_concurrent_requests = 20\n"
	    "  region = eu-west-1\n"
	    "output: json\n"
	    "[profile dev]\n"
	    "  role_arn = arn:aws:iam::1:role/r\n"
	    "  Source_Profile=base\n"
	    "; comment\n"
	    "[profile dev]\n"
	    "role_arn = arn:aws:iam::1:role/r2\n"
	    "[ sso-session corp ]\n"
	    "sso_start_url = https://x.awsapps.com/start\n"
	    "empty =\n"
	    "loose line\n";
	struct aws_ini in;
	const struct aws_ini_section *d, *dev, *corp;

	aws_ini_parse(ini, strlen(ini), &in);
	d = aws_ini_section(&in, "default");
	dev = aws_ini_section(&in, "profile dev");
	corp = aws_ini_section(&in, "sso-session corp");
	CHECK(in.n == 3, "ini: 3 sections (a repeated one merges): %zu", in.n);
	CHECK(d && !strcmp(aws_ini_get(d, "region"), "us-west-2"),
	      "ini: nested s3 block does not override region");
	CHECK(d && !strcmp(aws_ini_get(d, "output"), "json"),
	      "ini: ':' separates too");
	CHECK(d && !aws_ini_get(d, "max_concurrent_requests"),
	      "ini: nested keys are not keys");
	CHECK(
	    dev && !strcmp(aws_ini_get(dev, "source_profile"), "base") &&
		!strcmp(aws_ini_get(dev, "role_arn"), "arn:aws:iam::1:role/r2"),
	    "ini: keys lower-cased, equally indented keys kept, a repeat replaces");
	CHECK(corp && !strcmp(aws_ini_get(corp, "sso_start_url"),
			      "https://x.awsapps.com/start"),
	      "ini: a value holding ':' after '='");
	CHECK(corp && !aws_ini_get(corp, "empty"),
	      "ini: empty value reads as absent");
	aws_ini_release(&in);
}

/* ------------------------------------------------------------ times */

static void test_times(void)
{
	static const struct {
		const char *s;
		int ok;
		long long t;
	} cases[] = {
		/* 2026-11-30: 20,787 days after 1970-01-01 (hand count via
		 * days_from_civil), x 86,400 = 1,795,996,800 */
		{ "2026-11-30T00:00:00Z", 1, 1795996800LL },
		{ "2026-11-30T12:34:56.789Z", 1, 1795996800LL + 45296 },
		{ "2026-11-30T12:34:56UTC", 1, 1795996800LL + 45296 },
		{ "2026-11-30T12:34:56+02:00", 1, 1795996800LL + 45296 - 7200 },
		{ "2026-11-30T12:34:56-05:30", 1,
		  1795996800LL + 45296 + 19800 },
		{ "1970-01-01T00:00:00Z", 1, 0 },
		{ "2000-02-29T00:00:00Z", 1, 951782400LL },
		{ "2026-02-30T00:00:00Z", 0, 0 },
		/* 2026 is no leap year: Feb 29 was read as March 1 before
		 * the credential and CloudWatch readers became one */
		{ "2026-02-29T00:00:00Z", 0, 0 },
		{ "1900-02-29T00:00:00Z", 0, 0 },
		/* 2024-02-29 is day 19,782 (hand count: 54 years of 365 days
		 * plus 13 leap days to 2024-01-01 = 19,723, + 59) */
		{ "2024-02-29T00:00:00Z", 1, 1709164800LL },
		{ "2026-11-30T24:00:00Z", 0, 0 },
		{ "2026-11-30T12:34:56", 0, 0 },
		{ "2026-11-30T12:34:56Zjunk", 0, 0 },
		{ "2026-11-30", 0, 0 },
		{ "", 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		long long t = -1;
		int rc = iso8601_to_epoch(cases[i].s, &t);

		CHECK(cases[i].ok ? rc == 0 && t == cases[i].t : rc == -1,
		      "time '%s': rc %d, %lld", cases[i].s, rc, t);
	}
}

/* ------------------------------------------------------------ commands */

static void test_split(void)
{
	static const struct {
		const char *cmd;
		const char *words; /* joined with '|', NULL: refused */
	} cases[] = {
		{ "/bin/helper --profile x", "/bin/helper|--profile|x" },
		{ "  a   'b c'  \"d \\\" e\" f\\ g ", "a|b c|d \" e|f g" },
		{ "a '' b", "a||b" },
		{ "\"/path with space/x\" 'it''s'", "/path with space/x|its" },
		{ "echo $(id) `id` ;", "echo|$(id)|`id`|;" },
		{ "a \"b\\n\"", "a|b\\n" },
		{ "'unclosed", NULL },
		{ "x\\", NULL },
		{ "   ", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb = SBUF_INIT(4096);
		char **argv = NULL, err[EBS_ERRLEN] = "";
		size_t argc = 0;
		int rc = aws_split_command(cases[i].cmd, &argv, &argc, err);

		sbuf_addstr(&sb, "");
		for (size_t k = 0; !rc && k < argc; k++)
			sbuf_addf(&sb, "%s%s", k ? "|" : "", argv[k]);
		if (cases[i].words)
			CHECK(rc == EBS_OK && !strcmp(sb.buf, cases[i].words) &&
				  !argv[argc],
			      "split '%s': '%s'", cases[i].cmd, sb.buf);
		else
			CHECK(rc == EBS_ERR_PARSE && !argv,
			      "split '%s' refused: %s", cases[i].cmd, err);
		aws_argv_free(argv);
		sbuf_release(&sb);
	}
}

static void test_sha1(void)
{
	char hex[41];

	aws_sha1_hex("abc", hex);
	CHECK(!strcmp(hex, "a9993e364706816aba3e25717850c26c9cd0d89d"),
	      "sha1('abc') %s", hex);
	aws_sha1_hex("", hex);
	CHECK(!strcmp(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
	      "sha1('') %s", hex);
	aws_sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		     hex);
	CHECK(!strcmp(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
	      "sha1(448 bits) %s", hex);
}

/* ------------------------------------------------------------ answers */

/* aws_parse_creds_json over a C string. */
static int creds_json(enum aws_doc kind, const char *doc, const char *what,
		      struct aws_creds *c, char *err)
{
	return aws_parse_creds_json(kind, doc, strlen(doc), what, c, err);
}

static void test_answers(void)
{
	struct aws_creds c;
	char err[EBS_ERRLEN] = "", *tok = NULL;
	long long exp = 0;
	static const char sts[] =
	    "<AssumeRoleResponse><AssumeRoleResult><Credentials>"
	    "<AccessKeyId>ASIAX</AccessKeyId><SecretAccessKey>s&amp;c&#47;r&lt;t</SecretAccessKey>"
	    "<SessionToken>T</SessionToken><Expiration>2026-11-30T00:00:00Z</Expiration>"
	    "</Credentials></AssumeRoleResult></AssumeRoleResponse>";
	static const char sts_err[] =
	    "<ErrorResponse><Error><Code>AccessDenied</Code><Message>no &amp; no\n"
	    "</Message></Error></ErrorResponse>";

	CHECK(aws_parse_sts_xml(sts, strlen(sts), "sts", &c, err) == EBS_OK &&
		  !strcmp(c.access_key_id, "ASIAX") &&
		  !strcmp(c.secret_access_key, "s&c/r<t") &&
		  !strcmp(c.session_token, "T") && c.expiration == 1795996800LL,
	      "sts: credentials and entities decoded (%s)", err);
	aws_creds_release(&c);
	CHECK(aws_parse_sts_xml(sts_err, strlen(sts_err), "sts", &c, err) ==
		      EBS_ERR_AUTH &&
		  !strcmp(err, "sts: AccessDenied: no & no "),
	      "sts: error code and message (%s)", err);
	CHECK(aws_parse_sts_xml("<x/>", 4, "sts", &c, err) == EBS_ERR_PARSE,
	      "sts: junk refused");
	CHECK(
	    creds_json(
		AWS_DOC_PROCESS,
		"{\"Version\":1,\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"S3CR3T\"}",
		"p", &c, err) == EBS_OK &&
		!c.session_token && !c.expiration,
	    "process: minimal answer (%s)", err);
	aws_creds_release(&c);
	CHECK(
	    creds_json(
		AWS_DOC_PROCESS,
		"{\"Version\":1,\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"S3CR3T\",\"Expiration\":\"soon\"}",
		"p", &c, err) == EBS_ERR_PARSE &&
		!strstr(err, "S3CR3T") &&
		!strcmp(err, "p: \"Expiration\" is not an ISO 8601 time"),
	    "process: bad Expiration, no secret in the message (%s)", err);
	CHECK(
	    creds_json(
		AWS_DOC_CONTAINER,
		"{\"Code\":\"Failure\",\"AccessKeyId\":\"A\",\"SecretAccessKey\":\"S\"}",
		"imds", &c, err) == EBS_ERR_AUTH,
	    "imds: Code Failure refused (%s)", err);
	CHECK(
	    creds_json(
		AWS_DOC_SSO_ROLE,
		"{\"roleCredentials\":{\"accessKeyId\":\"A\",\"secretAccessKey\":\"S\","
		"\"sessionToken\":\"T\",\"expiration\":1795996800000}}",
		"sso", &c, err) == EBS_OK &&
		c.expiration == 1795996800LL,
	    "sso: expiration in milliseconds (%s)", err);
	aws_creds_release(&c);
	CHECK(
	    aws_parse_sso_cache(
		"{\"accessToken\":\"tok\",\"expiresAt\":\"2026-11-30T00:00:00UTC\"}",
		strlen(
		    "{\"accessToken\":\"tok\",\"expiresAt\":\"2026-11-30T00:00:00UTC\"}"),
		"cache", &tok, &exp, err) == EBS_OK &&
		!strcmp(tok, "tok") && exp == 1795996800LL,
	    "sso cache: token and UTC expiry (%s)", err);
	free(tok);
}

void test_stream(void)
{
	test_cap_at_the_end();
	test_tokenizer();
	test_deep_nesting();
	test_pricing_pieces();
	test_ini();
	test_times();
	test_split();
	test_sha1();
	test_answers();
}
