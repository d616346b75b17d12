/* test_out.c - the output layer renders one document four ways. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "ebsize/out.h"

static char *render(const struct out_doc *doc, enum out_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	out_render(doc, f, m);
	fclose(m);
	return buf;
}

static void test_json_nesting(void)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_record(doc, NULL, "x");
	char *s;

	out_kv_str(t, "type", "Type", "gp3");
	out_kv_num(t, "a.b", "AB", OUT_USD, 0.1 + 0.2);
	out_kv_num(t, "a.c.d", "ACD", OUT_INT, 3);
	out_kv_num(t, "a.e", "AE", OUT_INT, 1.0 / 0.0);
	out_kv_str(t, "tag", "Tag", "q\"\\\n\x01\xff");
	t = out_list(doc, "rows", "Rows");
	out_col(t, "n", "N", OUT_INT);
	out_row(t);
	out_int(t, 1);
	out_row(t);
	out_int(t, 2);
	out_note(doc, "hello");
	s = render(doc, OUT_JSON);
	/* 0.1 + 0.2 is 0.30000000000000004 in binary: money is written to a
	 * millionth (issue 10 item 8) */
	CHECK(!strcmp(s, "{\"type\":\"gp3\",\"a\":{\"b\":0.3,\"c\":{\"d\":3},\"e\":null},"
		      "\"tag\":\"q\\\"\\\\\\n\\u0001\\ufffd\",\"rows\":[{\"n\":1},{\"n\":2}],\"notes\":[\"hello\"]}\n"),
	      "json: nesting, exact numbers, escapes, invalid UTF-8 replaced: %s", s);
	free(s);
	out_doc_free(doc);
}

static void test_csv_and_table(void)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_list(doc, "l", NULL);
	char *s;

	out_col(t, "name", "Name", OUT_TEXT);
	out_col(t, "usd", "Cost", OUT_USD);
	out_row(t);
	out_str(t, "=cmd|' /C calc'!A0");
	out_num(t, 1234.5);
	out_row(t);
	out_str(t, "a,\"b\"");
	out_num(t, 0.125);
	s = render(doc, OUT_CSV);
	CHECK(!strcmp(s, "name,usd\r\n\"'=cmd|' /C calc'!A0\",1234.5\r\n\"a,\"\"b\"\"\",0.125\r\n"),
	      "csv: formula defused, quoting, full precision: %s", s);
	free(s);
	s = render(doc, OUT_TABLE);
	CHECK(!strcmp(s, "Name                     Cost\n"
			 "------------------  ---------\n"
			 "=cmd|' /C calc'!A0  $1,234.50\n"
			 "a,\"b\"                   $0.13\n"),
	      "table: aligned, money rounded for display only:\n%s", s);
	free(s);
	s = render(doc, OUT_MD);
	CHECK(strstr(s, "| =cmd\\|' /C calc'!A0 | $1,234.50 |") != NULL,
	      "md: pipes escaped: %s", s);
	free(s);
	out_doc_free(doc);
}

static void test_usd(void)
{
	char b[32];

	out_fmt_usd(b, sizeof(b), 6843.456);
	CHECK(!strcmp(b, "$6,843.46"), "usd display: %s", b);
	out_fmt_usd(b, sizeof(b), 1234567.0);
	CHECK(!strcmp(b, "$1,234,567.00"), "usd display: %s", b);
	out_fmt_usd(b, sizeof(b), -0.001);
	CHECK(!strcmp(b, "$0.00"), "usd display of tiny negative: %s", b);
}

/*
 * Issue 10 items 8 and 13: the one rule for machine numbers, and
 * durations for people.  Inputs are the noisy values the audit found.
 */
static void test_machine_numbers(void)
{
	static const struct {
		enum out_style st;
		double v;
		const char *want;
	} cases[] = {
		{ OUT_USD, 0.1 + 0.2, "0.3" },
		{ OUT_USD, 666.8000000000001, "666.8" },
		{ OUT_USD, 0.6000000000000001, "0.6" },
		{ OUT_USD, 713.5488, "713.5488" },
		{ OUT_USD, 20.168499999999995, "20.1685" },
		{ OUT_USD, -0.0000001, "0" },
		{ OUT_EXACT, 0.032634, "0.032634" },
		{ OUT_PCT, 99.85000000000001, "99.85" },
		{ OUT_PCT, 23.456, "23.46" },
		{ OUT_DURATION, 3960.0000000000005, "3960" },
		{ OUT_DURATION, 1862.0689655172414, "1862" },
		{ OUT_NUM0, 35.568359375, "35.568359" },
		{ OUT_INT, 9105.612981, "9105.612981" },
		{ OUT_INT, 16000, "16000" },
		{ OUT_NUM3, 0.098816, "0.098816" },
	};
	char b[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out_fmt_machine(b, sizeof(b), cases[i].st, cases[i].v);
		CHECK(!strcmp(b, cases[i].want), "machine %.17g (style %d): %s, want %s",
		      cases[i].v, (int)cases[i].st, b, cases[i].want);
	}
	out_fmt_machine(b, sizeof(b), OUT_USD, 0.0 / 0.0);
	CHECK(!strcmp(b, "null"), "machine NaN: %s", b);
}

static void test_durations(void)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
		{ 14, "14 s" }, { 599, "599 s" }, { 1862, "31 min" },
		{ 3360, "56 min" }, { 3600, "60 min" }, { 7560, "2.1 h" },
		{ 18000, "5.0 h" }, { 302400, "3.5 d" },
	};
	char b[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out_fmt_duration(b, sizeof(b), cases[i].s);
		CHECK(!strcmp(b, cases[i].want), "duration %g s: %s, want %s",
		      cases[i].s, b, cases[i].want);
	}
}

/* Item 9: a list is a JSON array, one field elsewhere. */
static void test_string_lists(void)
{
	static const char *const types[] = { "gp2", "gp3" };
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_record(doc, "request", "Need");
	char *s;

	out_col(t, "types", "Types", OUT_TEXT);
	out_strv(t, types, 2);
	out_kv_num(t, "cliff_s", "Cliff", OUT_DURATION, 1862.0689655172414);
	s = render(doc, OUT_JSON);
	CHECK(!strcmp(s, "{\"request\":{\"types\":[\"gp2\",\"gp3\"],\"cliff_s\":1862}}\n"),
	      "json: list as an array, seconds whole: %s", s);
	free(s);
	s = render(doc, OUT_CSV);
	CHECK(!strcmp(s, "types,cliff_s\r\n\"gp2,gp3\",1862\r\n"), "csv: list in one field: %s", s);
	free(s);
	s = render(doc, OUT_TABLE);
	CHECK(strstr(s, "Types: gp2,gp3") && strstr(s, "Cliff: 31 min"),
	      "table: list joined, duration in minutes: %s", s);
	free(s);
	out_doc_free(doc);
}

void test_out(void)
{
	test_machine_numbers();
	test_durations();
	test_string_lists();
	test_json_nesting();
	test_csv_and_table();
	test_usd();
}
