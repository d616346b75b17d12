/* test_out.c - the output layer renders one document four ways; CSV is
 * one table; -o files appear whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "ebsize/err.h"
#include "ebsize/out.h"
#include "ebsize/outfile.h"
#include "ebsize/util.h"

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
	CHECK(
	    !strcmp(
		s,
		"{\"type\":\"gp3\",\"a\":{\"b\":0.3,\"c\":{\"d\":3},\"e\":null},"
		"\"tag\":\"q\\\"\\\\\\n\\u0001\\ufffd\",\"rows\":[{\"n\":1},{\"n\":2}],\"notes\":[\"hello\"]}\n"),
	    "json: nesting, exact numbers, escapes, invalid UTF-8 replaced: %s",
	    s);
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
	CHECK(
	    !strcmp(
		s,
		"name,usd\r\n\"'=cmd|' /C calc'!A0\",1234.5\r\n\"a,\"\"b\"\"\",0.125\r\n"),
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

/* A raw control byte (C0 but the newlines that end lines, DEL, or a C1 in
 * its UTF-8 form) anywhere in s; csv: CR LF and tab allowed too. */
static int raw_control(const char *s, int csv)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p == '\n' ||
		    (csv && (*p == '\t' || (*p == '\r' && p[1] == '\n'))))
			continue;
		if (*p < 0x20 || *p == 0x7f ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return 1;
	}
	return 0;
}

/* Issue 13 defect 2: the escape sequences of the issue (OSC title, clear
 * screen, UTF-8 CSI) reach no format raw; the human formats show them
 * escaped, JSON as \u00XX, CSV as the visible escapes. */
static void test_controls(void)
{
	static const char osc[] = "m5.\x1b]0;pwned\x07", clr[] = "x\x1b[2J",
			  csi[] = "t3\xc2\x9b"
				  "2J",
			  cr[] = "a\rb\tc\nd\x7f";
	static const enum out_format fmts[] = { OUT_TABLE, OUT_MD, OUT_CSV,
						OUT_JSON };
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_list(doc, "l", "T\x1b[31m");
	struct out_table *r = out_record(doc, "r", NULL);
	char *s;

	out_col(t, "name", "Name\x9b", OUT_TEXT);
	out_col(t, "n", "N", OUT_INT);
	out_row(t);
	out_str(t, osc);
	out_int(t, 1);
	out_row(t);
	out_str(t, clr);
	out_int(t, 2);
	out_row(t);
	out_str(t, csi);
	out_int(t, 3);
	out_row(t);
	out_str(t, cr);
	out_int(t, 4);
	out_kv_str(r, "label", "Label\x1b", osc);
	out_note(doc, "note %s", csi);
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		s = render(doc, fmts[i]);
		CHECK(s && !raw_control(s, fmts[i] == OUT_CSV),
		      "format %zu: no raw control character:\n%s", i,
		      s ? s : "");
		free(s);
	}
	/* shown widths: the first name is 19 columns (3 + 4 + 8 + 4), the
	 * others 8, 10 and 14; then two spaces and the count */
	s = render(doc, OUT_TABLE);
	CHECK(strstr(s, "T\\x1b[31m\n") && strstr(s, "Name\\x9b") &&
		  strstr(s, "m5.\\x1b]0;pwned\\x07  1\n") &&
		  strstr(s, "x\\x1b[2J"
			    "             2\n") &&
		  strstr(s, "t3\\u009b2J"
			    "           3\n") &&
		  strstr(s, "a\\rb\\tc\\nd\\x7f"
			    "       4\n") &&
		  strstr(s, "Label\\x1b: m5.\\x1b]0;pwned\\x07\n") &&
		  strstr(s, "note: note t3\\u009b2J\n"),
	      "table: escapes shown, columns aligned on what is shown:\n%s", s);
	free(s);
	s = render(doc, OUT_JSON);
	CHECK(strstr(s, "\"name\":\"m5.\\u001b]0;pwned\\u0007\"") &&
		  strstr(s, "\"name\":\"t3\\u009b2J\"") &&
		  strstr(s, "\"name\":\"a\\rb\\tc\\nd\\u007f\""),
	      "json: C0, DEL and C1 as \\u00XX: %s", s);
	free(s);
	s = render(doc, OUT_CSV);
	CHECK(!strcmp(s, "name,n\r\nm5.\\x1b]0;pwned\\x07,1\r\nx\\x1b[2J,2\r\n"
			 "t3\\u009b2J,3\r\n\"a\\rb\tc\nd\\x7f\",4\r\n"),
	      "csv: escapes visible, newline and tab kept inside quotes: %s",
	      s);
	free(s);
	out_doc_free(doc);
}

/* Issue 13 defect 3: Markdown that renders the text, not markup. */
static void test_md_escapes(void)
{
	static const struct {
		const char *in, *md;
	} cases[] = {
		{ "<script>alert(1)</script>",
		  "&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "<img src=x onerror=alert(1)>",
		  "&lt;img src=x onerror=alert(1)&gt;" },
		{ "[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))" },
		{ "a\rb", "a\\\\rb" },
		{ "AT&T &amp;", "AT&amp;T &amp;amp;" },
		{ "a|b\\|c", "a\\|b\\\\\\|c" },
		{ "*em* `code` ~s~", "\\*em\\* \\`code\\` \\~s\\~" },
		{ "team_name _x_ y_", "team_name \\_x\\_ y\\_" },
		{ "it's \"quoted\"", "it's \"quoted\"" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct out_doc *doc = out_doc_new();
		struct out_table *t = out_list(doc, "l", NULL);
		char *s, *want;

		out_col(t, "v", "V", OUT_TEXT);
		out_row(t);
		out_str(t, cases[i].in);
		out_note(doc, "%s", cases[i].in);
		s = render(doc, OUT_MD);
		want = xstrfmt("| V |\n|---|\n| %s |\n\n- %s\n", cases[i].md,
			       cases[i].md);
		CHECK(!strcmp(s, want),
		      "md %zu: '%s' escaped: got\n%s\nwant\n%s", i, cases[i].in,
		      s, want);
		free(want);
		free(s);
		out_doc_free(doc);
	}
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

/* Render doc as CSV with --table `table`; *rc gets out_render_to's code. */
static char *render_csv(const struct out_doc *doc, const char *table, int *rc,
			char *err)
{
	struct out_target to = { .format = OUT_CSV, .table = table };
	char *buf = NULL;
	size_t len = 0;

	to.f = open_memstream(&buf, &len);
	*rc = out_render_to(doc, &to, err);
	fclose(to.f);
	return buf;
}

/* A document like cost's: records only, then one with a list too. */
static void test_csv_one_table(void)
{
	struct out_doc *doc = out_doc_new();
	struct out_table *t = out_record(doc, NULL, "x");
	char err[EBS_ERRLEN], names[256], *s;
	int rc;

	out_kv_str(t, "type", "Type", "gp3");
	t = out_record(doc, "monthly_usd", "Money");
	out_kv_num(t, "total", "Total", OUT_USD, 8);
	out_formula(t, "total", "{result!size}*2"); /* ignored by CSV */
	t = out_list(doc, "wb", NULL);
	out_xlsx_only(t);
	out_col(t, "hidden", "Hidden", OUT_TEXT);
	out_note(doc, "a note");
	s = render_csv(doc, NULL, &rc, err);
	CHECK(rc == 0 && !strcmp(s, "type,monthly_usd.total\r\ngp3,8\r\n"),
	      "csv of records: one row, keys as JSON paths: %s", s);
	free(s);
	s = render_csv(doc, "monthly_usd", &rc, err);
	CHECK(rc == 0 && !strcmp(s, "total\r\n8\r\n"),
	      "csv --table monthly_usd: %s", s);
	free(s);
	s = render_csv(doc, "notes", &rc, err);
	CHECK(rc == 0 && !strcmp(s, "note\r\na note\r\n"),
	      "csv --table notes: %s", s);
	free(s);
	s = render_csv(doc, "wb", &rc, err);
	CHECK(rc == EBS_ERR_USAGE &&
		  !strcmp(
		      err,
		      "unknown table 'wb' (use result, monthly_usd or notes)"),
	      "csv: workbook-only sections are not tables: %s", err);
	free(s);
	out_table_names(doc, names, sizeof(names));
	CHECK(!strcmp(names, "result, monthly_usd or notes"), "table names: %s",
	      names);

	t = out_list(doc, "rows", NULL);
	out_col(t, "n", "N", OUT_INT);
	out_row(t);
	out_int(t, 1);
	t = out_list(doc, "more", NULL);
	out_col(t, "m", "M", OUT_INT);
	s = render_csv(doc, NULL, &rc, err);
	CHECK(rc == 0 && !strcmp(s, "n\r\n1\r\n"),
	      "csv: the first list by default: %s", s);
	free(s);
	out_main(t);
	s = render_csv(doc, NULL, &rc, err);
	CHECK(rc == 0 && !strcmp(s, "m\r\n"),
	      "csv: out_main picks the default: %s", s);
	free(s);
	s = out_formula_text("say \"hi\"");
	CHECK(!strcmp(s, "\"say \"\"hi\"\"\""),
	      "formula text doubles quotes: %s", s);
	free(s);
	out_doc_free(doc);
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
		CHECK(!strcmp(b, cases[i].want),
		      "machine %.17g (style %d): %s, want %s", cases[i].v,
		      (int)cases[i].st, b, cases[i].want);
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
		{ 14, "14 s" },	    { 599, "599 s" },	 { 1862, "31 min" },
		{ 3360, "56 min" }, { 3600, "60 min" },	 { 7560, "2.1 h" },
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
	CHECK(
	    !strcmp(
		s,
		"{\"request\":{\"types\":[\"gp2\",\"gp3\"],\"cliff_s\":1862}}\n"),
	    "json: list as an array, seconds whole: %s", s);
	free(s);
	s = render(doc, OUT_CSV);
	/* one table: the record as one row, keys as JSON paths */
	CHECK(
	    !strcmp(s, "request.types,request.cliff_s\r\n\"gp2,gp3\",1862\r\n"),
	    "csv: list in one field: %s", s);
	free(s);
	s = render(doc, OUT_TABLE);
	CHECK(strstr(s, "Types: gp2,gp3") && strstr(s, "Cliff: 31 min"),
	      "table: list joined, duration in minutes: %s", s);
	free(s);
	out_doc_free(doc);
}

static char *slurp(const char *path)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strdup(buf);
}

/* How many entries does dir hold (the temporary file included)? */
static int entries(const char *dir)
{
	char cmd[128];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void test_outfile(void)
{
	char dir[] = "/tmp/ebsize-outfile.XXXXXX", path[96], err[EBS_ERRLEN],
	     *s;
	struct outfile *of;
	struct stat st;

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/r.txt", dir);
	CHECK(!outfile_open(path, 0, &of, err), "outfile_open: %s", err);
	fputs("new\n", outfile_stream(of));
	CHECK(access(path, F_OK) && entries(dir) == 1,
	      "before commit: only the temporary file (%s)",
	      outfile_tmp_path(of));
	CHECK(!outfile_commit(of, err), "commit: %s", err);
	s = slurp(path);
	CHECK(s && !strcmp(s, "new\n") && entries(dir) == 1,
	      "after commit: the file, alone");
	free(s);
	chmod(path, 0600);
	CHECK(!outfile_open(path, 0, &of, err), "outfile_open over a file");
	fputs("half", outfile_stream(of));
	outfile_abort(of);
	s = slurp(path);
	CHECK(s && !strcmp(s, "new\n") && entries(dir) == 1,
	      "abort: the old file untouched, nothing else");
	free(s);
	CHECK(!outfile_open(path, 0, &of, err) && !outfile_commit(of, err) &&
		  !stat(path, &st) && (st.st_mode & 0777) == 0600,
	      "commit keeps the old mode");
	CHECK(outfile_open(dir, 0, &of, err) == EBS_ERR_IO &&
		  strstr(err, "Is a directory"),
	      "a directory is refused: %s", err);
	CHECK(outfile_open("/dev/null", OUTFILE_REGULAR, &of, err) ==
		  EBS_ERR_IO,
	      "OUTFILE_REGULAR refuses a device: %s", err);
	CHECK(!outfile_open("/dev/null", 0, &of, err) &&
		  !outfile_commit(of, err),
	      "a device is written in place");
	unlink(path);
	rmdir(dir);
}

void test_out(void)
{
	test_machine_numbers();
	test_durations();
	test_string_lists();
	test_json_nesting();
	test_csv_and_table();
	test_csv_one_table();
	test_usd();
	test_controls();
	test_md_escapes();
	test_outfile();
}
