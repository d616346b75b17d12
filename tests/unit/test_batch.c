/*
 * test_batch.c - the request lines of --batch (src/batch_parse.c): one
 * flat JSON object per line into keys and values as typed on a command
 * line, the errors with their columns, CSV records under a header, and
 * telling the formats apart.
 */
#include <string.h>

#include "test.h"
#include "ebsize/batch.h"
#include "ebsize/db.h"
#include "ebsize/util.h"

/* "key=val|key=val" of r (val "(null)" for null), for comparing. */
static void flat(const struct batch_req *r, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->n && o < n; i++) {
		int w =
		    snprintf(buf + o, n - o, "%s%s=%s", i ? "|" : "",
			     r->f[i].key, r->f[i].val ? r->f[i].val : "(null)");

		if (w < 0)
			break;
		o += (size_t)w;
	}
}

static void test_json_ok(void)
{
	static const struct {
		const char *line, *want;
		enum batch_kind kind0;
	} cases[] = {
		{ "{\"iops\":12000,\"size\":\"1TiB\",\"id\":\"db-7\"}",
		  "iops=12000|size=1TiB|id=db-7", BATCH_NUMBER },
		/* numbers keep their text: the option table reads it */
		{ "{\"iops\":1e3,\"x\":-0.50E+2}", "iops=1e3|x=-0.50E+2",
		  BATCH_NUMBER },
		{ "  { \"a\" : \"b\" , \"c\" : null }  \r", "a=b|c=(null)",
		  BATCH_STRING },
		{ "{}", "", BATCH_NULL },
		{ "{\"types\":[\"gp2\",\"gp3\"]}", "types=gp2,gp3",
		  BATCH_LIST },
		{ "{\"l\":[ 1 , \"b\" ]}", "l=1,b", BATCH_LIST },
		{ "{\"l\":[]}", "l=", BATCH_LIST },
		{ "{\"f\":true,\"g\":false}", "f=true|g=false", BATCH_BOOL },
		/* escapes: \" \\ \/ \n, \u00e9 as UTF-8, a surrogate pair */
		{ "{\"id\":\"a\\\"b\\\\c\\/d\\u00e9\\ud83d\\ude00\"}",
		  "id=a\"b\\c/d\xc3\xa9\xf0\x9f\x98\x80", BATCH_STRING },
		{ "{\"k\\u0041\":\"\xc3\xa9\"}", "kA=\xc3\xa9", BATCH_STRING },
		{ "\xef\xbb\xbf{}", NULL,
		  BATCH_NULL }, /* a BOM is the caller's */
	};
	struct batch_req r = { 0 };
	char why[160], got[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int rc = batch_parse_json(cases[i].line, strlen(cases[i].line),
					  &r, why, sizeof(why));

		if (!cases[i].want) {
			CHECK(rc == -1, "batch_parse_json refuses '%s'",
			      cases[i].line);
			continue;
		}
		flat(&r, got, sizeof(got));
		CHECK(rc == 0 && !strcmp(got, cases[i].want),
		      "batch_parse_json(%s): got '%s' (%s), want '%s'",
		      cases[i].line, got, rc ? why : "ok", cases[i].want);
		if (!rc && r.n)
			CHECK(r.f[0].kind == cases[i].kind0,
			      "batch_parse_json(%s): kind %d", cases[i].line,
			      (int)r.f[0].kind);
	}
	/* a line without its newline, not NUL-terminated */
	{
		const char text[] = "{\"a\":1}XYZ";

		CHECK(batch_parse_json(text, 7, &r, why, sizeof(why)) == 0 &&
			  r.n == 1 && !strcmp(r.f[0].val, "1"),
		      "batch_parse_json reads only len bytes");
	}
	CHECK(batch_parse_json("{\"a\":\"x\",\"b\":null}", 18, &r, why,
			       sizeof(why)) == 0 &&
		  batch_find(&r, "a") &&
		  !strcmp(batch_find(&r, "a")->val, "x") &&
		  !batch_find(&r, "b") && !batch_find(&r, "c"),
	      "batch_find: a value, null and absent");
	batch_req_release(&r);
}

static void test_json_errors(void)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "",
		  "column 1: expected '{' (a request is one JSON object per line)" },
		{ "[1]",
		  "column 1: expected '{' (a request is one JSON object per line)" },
		{ "{\"a\":1", "column 7: expected ',' or '}' after a value" },
		{ "{\"iops\":3000 \"id\":\"x\"}",
		  "column 14: expected ',' or '}' after a value" },
		{ "{a:1}", "column 2: expected a key in double quotes" },
		{ "{\"a\" 1}", "column 6: expected ':' after a key" },
		{ "{\"a\":}",
		  "column 6: expected a value (a string, a number, true, false, null or a list)" },
		{ "{\"a\":1,}", "column 8: expected a key in double quotes" },
		{ "{\"a\":1,\"a\":2}", "column 8: key 'a' given twice" },
		{ "{\"a\":{\"b\":1}}",
		  "column 6: a value cannot be an object" },
		{ "{\"a\":[[1]]}",
		  "column 7: a list holds strings and numbers only" },
		{ "{\"a\":[\"x,y\"]}", "column 6: a list item holds a ','" },
		{ "{\"a\":01}", "column 7: expected ',' or '}' after a value" },
		{ "{\"a\":1.}", "column 6: a number needs digits after '.'" },
		{ "{\"a\":1e}",
		  "column 6: a number needs digits in its exponent" },
		{ "{\"a\":-}",
		  "column 6: expected a value (a string, a number, true, false, null or a list)" },
		{ "{\"a\":tru}",
		  "column 6: expected a value (a string, a number, true, false, null or a list)" },
		{ "{\"a\":\"x}", "column 6: unterminated string" },
		{ "{\"a\":\"\\q\"}", "column 7: unknown escape in a string" },
		{ "{\"a\":\"\\u12\"}",
		  "column 7: \\u needs four hexadecimal digits" },
		{ "{\"a\":\"\\ud800\"}",
		  "column 7: a high surrogate without a low one" },
		{ "{\"a\":\"\\udc00\"}",
		  "column 7: a low surrogate without a high one" },
		{ "{\"a\":\"\\u0000\"}",
		  "column 7: \\u0000 is not allowed in a string" },
		{ "{\"a\":\"x\ty\"}",
		  "column 8: a control character in a string (escape it)" },
		{ "{\"a\":\"\xc3\"}", "column 7: not valid UTF-8" },
		{ "{\"a\":\"\xed\xa0\x80\"}",
		  "column 7: not valid UTF-8" }, /* a surrogate */
		{ "{\"a\":\"\xc0\xaf\"}",
		  "column 7: not valid UTF-8" }, /* overlong */
		{ "{\"a\":1} {\"b\":2}",
		  "column 9: text after the object (one request per line)" },
	};
	struct batch_req r = { 0 };
	char why[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int rc = batch_parse_json(cases[i].line, strlen(cases[i].line),
					  &r, why, sizeof(why));

		CHECK(rc == -1 && !strcmp(why, cases[i].why),
		      "batch_parse_json(%s) fails: '%s', want '%s'",
		      cases[i].line, rc ? why : "(no error)", cases[i].why);
	}
	batch_req_release(&r);
}

static void test_csv_fields(void)
{
	char *hdr[] = { "id", "type", "size" };
	char *ok[] = { "web, tier 1", "gp3", "" };
	char *few[] = { "a", "gp3" };
	struct batch_req r = { 0 };
	char why[160], got[256];
	char *dup[] = { "id", "size", "size" };
	char *blank[] = { "id", "" };

	CHECK(batch_from_csv(hdr, 3, ok, 3, &r, why, sizeof(why)) == 0,
	      "a CSV record");
	flat(&r, got, sizeof(got));
	CHECK(!strcmp(got, "id=web, tier 1|type=gp3|size=(null)") &&
		  r.f[2].kind == BATCH_NULL && r.f[1].kind == BATCH_STRING,
	      "CSV: cells as strings, an empty one null: %s", got);
	CHECK(batch_from_csv(hdr, 3, few, 2, &r, why, sizeof(why)) == -1 &&
		  !strcmp(why, "2 fields where the header has 3"),
	      "CSV: a short record: %s", why);
	CHECK(batch_check_header(hdr, 3, why, sizeof(why)) == 0, "a header");
	CHECK(batch_check_header(dup, 3, why, sizeof(why)) == -1 &&
		  !strcmp(why, "column 'size' is in the header twice"),
	      "a header twice: %s", why);
	CHECK(batch_check_header(blank, 2, why, sizeof(why)) == -1 &&
		  !strcmp(why, "column 2 of the header has no name"),
	      "a header without a name: %s", why);
	batch_req_release(&r);
}

static void test_detect(void)
{
	static const struct {
		const char *s;
		enum batch_format want;
	} cases[] = {
		{ "{\"iops\":1}\n", BATCH_JSONL },
		{ "\n\n  \t{", BATCH_JSONL },
		{ "\xef\xbb\xbf{", BATCH_JSONL },
		{ "id,iops\n", BATCH_CSV },
		{ "\xef\xbb\xbfid,iops", BATCH_CSV },
		{ "\"id\",\"iops\"", BATCH_CSV },
		{ "", BATCH_AUTO },
		{ " \r\n\t", BATCH_AUTO },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		CHECK(batch_detect(cases[i].s, strlen(cases[i].s)) ==
			  cases[i].want,
		      "batch_detect case %zu", i);
}

/* Instance types in visiting order, one string. */
struct names {
	struct sbuf sb;
	const char *family; /* only these (NULL: all) */
};

static int add_name(const struct instance_limits *il, void *arg)
{
	struct names *nm = arg;
	size_t n = nm->family ? strlen(nm->family) : 0;

	if (!nm->family || (!strncmp(il->instance_type, nm->family, n) &&
			    il->instance_type[n] == '.'))
		sbuf_addf(&nm->sb, "%s ", il->instance_type);
	return 0;
}

/*
 * A family's instances come from a primary-key range sorted in C (the
 * start-up work of issue 14); the order must be the general query's, for
 * every family of the seeded data.
 */
static void test_family_order(void)
{
	struct db *db = test_db();
	struct names all = { SBUF_INIT(1 << 20), NULL };
	char err[EBS_ERRLEN];
	size_t families = 0, same = 0;
	const char *p;

	db_each_instance(db, NULL, NULL, add_name, &all, err);
	for (p = all.sb.buf; p && *p;) {
		char fam[48];
		size_t n = strcspn(p, ".");
		struct names one = { SBUF_INIT(1 << 20), fam },
			     want = { SBUF_INIT(1 << 20), fam };

		xsnprintf(fam, sizeof(fam), "%.*s", (int)n, p);
		db_each_instance(db, NULL, fam, add_name, &one, err);
		db_each_instance(db, NULL, NULL, add_name, &want, err);
		families++;
		same += one.sb.len && !strcmp(one.sb.buf, want.sb.buf);
		/* the next family */
		while (*p && !strncmp(p, fam, n) && p[n] == '.')
			p += strcspn(p, " ") + 1;
		sbuf_release(&one.sb);
		sbuf_release(&want.sb);
	}
	CHECK(
	    families > 150 && same == families,
	    "db_each_instance(family): the general query's order for %zu of %zu families",
	    same, families);
	sbuf_release(&all.sb);
}

void test_batch(void)
{
	test_family_order();
	test_json_ok();
	test_json_errors();
	test_csv_fields();
	test_detect();
}
