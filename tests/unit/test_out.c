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

void test_out(void)
{
	test_json_nesting();
	test_csv_and_table();
	test_usd();
}
