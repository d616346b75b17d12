/* test_util.c - strict number parsing, the CSV reader, the capped buffer. */
#include <stdint.h>
#include <string.h>

#include "test.h"
#include "ebsize/csv.h"
#include "ebsize/util.h"

static void test_parse(void)
{
	static const struct {
		const char *s;
		int ok;
		double v;
	} dcases[] = {
		{ "1", 1, 1 },	    { "0.0800000000", 1, 0.08 },
		{ "1e3", 1, 1000 }, { "-2.5", 1, -2.5 },
		{ "", 0, 0 },	    { " 1", 0, 0 },
		{ "1 ", 0, 0 },	    { "1x", 0, 0 },
		{ "inf", 0, 0 },    { "nan", 0, 0 },
		{ "0x10", 0, 0 },   { "1e999", 0, 0 },
	};
	static const struct {
		const char *s;
		int ok;
		long v;
	} lcases[] = {
		{ "100", 1, 100 },
		{ "0", 0, 0 },
		{ "-5", 0, 0 },
		{ "5.0", 0, 0 },
		{ "99999999999999999999", 0, 0 },
		{ "+5", 0, 0 },
		{ "", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(dcases) / sizeof(*dcases); i++) {
		double v = -12345;
		int rc = parse_double(dcases[i].s, &v);

		CHECK((rc == 0) == dcases[i].ok &&
			  (!dcases[i].ok || v == dcases[i].v),
		      "parse_double('%s')", dcases[i].s);
	}
	for (size_t i = 0; i < sizeof(lcases) / sizeof(*lcases); i++) {
		long v = -1;
		int rc = parse_long_range(lcases[i].s, 1, 1000000, &v);

		CHECK((rc == 0) == lcases[i].ok &&
			  (!lcases[i].ok || v == lcases[i].v),
		      "parse_long_range('%s', 1, 1e6)", lcases[i].s);
	}
	{
		double v;

		CHECK(parse_nonneg_double("-0", &v) != 0,
		      "parse_nonneg_double refuses -0");
	}
}

static void test_csv(void)
{
	const char *in =
	    "\xEF\xBB\xBF"
	    "a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\n\nlast,\"multi\nline\",z\n\"open";
	struct csv_reader r;
	char **f;
	size_t n;

	csv_init(&r, in, strlen(in));
	CHECK(csv_next(&r, &f, &n) == 1 && n == 3 && !strcmp(f[0], "a") &&
		  !strcmp(f[2], "c"),
	      "csv: header after BOM");
	CHECK(csv_next(&r, &f, &n) == 1 && n == 3 && !strcmp(f[0], "x,1") &&
		  !strcmp(f[1], "say \"hi\"") && !strcmp(f[2], ""),
	      "csv: quotes, doubled quotes, empty last field");
	CHECK(csv_next(&r, &f, &n) == 1 && n == 3 &&
		  !strcmp(f[1], "multi\nline") && r.record_line == 4,
	      "csv: blank line skipped, quoted newline kept, line 4");
	CHECK(csv_next(&r, &f, &n) == -1 && r.record_line == 6,
	      "csv: unterminated quote is an error at line 6");
	csv_release(&r);
}

static void test_sbuf(void)
{
	struct sbuf sb = SBUF_INIT(8);

	CHECK(sbuf_addstr(&sb, "12345678") == 0 && sb.len == 8,
	      "sbuf: fills to cap");
	CHECK(sbuf_addstr(&sb, "9") == EBS_ERR_TOO_BIG && sb.len == 8,
	      "sbuf: refuses to grow past cap, content kept");
	sbuf_release(&sb);
}

/* Every 0xc3 followed by 0xa9 and every 0xa9 preceded by 0xc3. */
static int pairs_whole(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; u[i]; i++)
		if ((u[i] == 0xc3 && u[i + 1] != 0xa9) ||
		    (u[i] == 0xa9 && (!i || u[i - 1] != 0xc3)))
			return 0;
	return 1;
}

/* Paths and long messages: a cut is said, never silent (issue 16). */
static void test_lengths(void)
{
	char b[8], err[EBS_ERRLEN], path[3000];
	size_t len;

	CHECK(xsnprintf_fit(b, sizeof(b), "%s", "1234567") == 0 &&
		  !strcmp(b, "1234567"),
	      "xsnprintf_fit: 7 chars fit in 8");
	CHECK(xsnprintf_fit(b, sizeof(b), "%s", "12345678") == -1 &&
		  !strcmp(b, "1234567"),
	      "xsnprintf_fit: 8 chars in 8 is a cut, terminated");
	CHECK(xsnprintf_fit(b, 0, "x") == -1, "xsnprintf_fit: no room at all");

	/* a 2,999-byte path quoted in a message: start and reason kept */
	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	path[0] = '/';
	CHECK(ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s", path,
		       "Permission denied") == EBS_ERR_IO,
	      "ebs_fail: returns the code");
	len = strlen(err);
	CHECK(len == EBS_ERRLEN - 1,
	      "ebs_fail: a long message fills the buffer (%zu)", len);
	CHECK(!strncmp(err, "cannot open '/ppp", 17),
	      "ebs_fail: the start is kept");
	CHECK(strstr(err, "...") &&
		  str_ends_with(err, "ppp': Permission denied"),
	      "ebs_fail: the end, the reason, is kept: ...%s", err + len - 30);
	/* a UTF-8 character is never split: 2-byte 'é' everywhere */
	for (size_t i = 0; i + 2 < sizeof(path); i += 2)
		memcpy(path + i, "\xc3\xa9", 2);
	path[sizeof(path) - 1 - (sizeof(path) - 1) % 2] = '\0';
	ebs_fail(err, EBS_ERR_IO, "'%s': bad", path);
	CHECK(pairs_whole(err),
	      "ebs_fail: the cut keeps every character whole");
	ebs_fail(err, EBS_ERR_IO, "short %d", 1);
	CHECK(!strcmp(err, "short 1"), "ebs_fail: a short message unchanged");
}

void test_util(void)
{
	test_parse();
	test_csv();
	test_sbuf();
	test_lengths();
}

/* Control characters made visible (issue 13: terminal escapes from input). */
void test_util_visible(void)
{
	static const struct {
		const char *in;
		int keep_nl;
		const char *want;
	} rows[] = {
		{ "plain text", 0, "plain text" },
		{ "\033]0;title\007", 0,
		  "\\x1b]0;title\\x07" },     /* OSC ... BEL */
		{ "\033[2J", 0, "\\x1b[2J" }, /* clear screen */
		{ "a\nb\tc\rd", 0, "a\\nb\\tc\\rd" },
		{ "a\nb\tc\rd", 1, "a\nb\tc\\rd" }, /* CR never raw */
		{ "del\177", 0, "del\\x7f" },
		{ "\xc2\x9b"
		  "2J",
		  0, "\\u009b2J" }, /* C1 CSI, UTF-8 */
		{ "\x9b"
		  "2J",
		  0, "\\x9b2J" }, /* a lone C1 byte */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  0, /* é, €, emoji */
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "\xc0\xaf", 0, "\\xc0\\xaf" },	  /* overlong '/' */
		{ "\xed\xa0\x80", 0, "\\xed\\xa0\\x80" }, /* a surrogate */
		{ "\xe2\x82", 0, "\\xe2\\x82" },	  /* cut short */
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct sbuf sb = SBUF_INIT(1024);

		sbuf_add_visible(&sb, rows[i].in, rows[i].keep_nl);
		CHECK(sb.buf && !strcmp(sb.buf, rows[i].want),
		      "visible #%zu: '%s'", i, sb.buf ? sb.buf : "(null)");
		CHECK(str_has_controls(rows[i].in, rows[i].keep_nl) ==
			  !!strcmp(rows[i].in, rows[i].want),
		      "str_has_controls #%zu agrees", i);
		sbuf_release(&sb);
	}
}
