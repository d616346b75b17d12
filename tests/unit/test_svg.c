/*
 * test_svg.c - the SVG chart writer: nice 1-2-5 ticks (linear and log,
 * durations in s/min/h), tick labels with their units, XML escaping of
 * hostile and broken text, scaling of data onto the plot, the type
 * palette staying apart in grey scale, and well-formed output (checked by
 * a small XML checker here, independent of the writer).
 */
#include <math.h>
#include <string.h>

#include "test.h"
#include "ebsize/svg.h"
#include "ebsize/util.h"
#include "xmlcheck.h"

static void test_ticks(void)
{
	static const struct {
		double lo, hi;
		enum svg_scale scale;
		enum svg_unit unit;
		double div;
		size_t n;
		double t[8];
		const char *why;
	} rows[] = {
		{ 0,
		  2700,
		  SVG_LINEAR,
		  SVG_UNIT_SECONDS,
		  60,
		  6,
		  { 0, 600, 1200, 1800, 2400, 3000 },
		  "2,700 s shown in min: 45/5 = 9 -> step 10 min, 0..50 min" },
		{ 0,
		  3001,
		  SVG_LINEAR,
		  SVG_UNIT_IOPS,
		  1,
		  5,
		  { 0, 1000, 2000, 3000, 4000 },
		  "3,001/5 = 600 -> step 1,000, up to 4,000" },
		{ 0,
		  80012,
		  SVG_LINEAR,
		  SVG_UNIT_IOPS,
		  1,
		  6,
		  { 0, 20000, 40000, 60000, 80000, 100000 },
		  "80,012/5 = 16,002 -> step 20,000" },
		{ 0,
		  3.555,
		  SVG_LINEAR,
		  SVG_UNIT_MS,
		  1,
		  5,
		  { 0, 1, 2, 3, 4 },
		  "3.555/5 = 0.71 -> step 1 ms" },
		{ 0,
		  300,
		  SVG_LINEAR,
		  SVG_UNIT_SECONDS,
		  1,
		  4,
		  { 0, 100, 200, 300 },
		  "300 s stays in s: 60 -> step 100" },
		{ 5,
		  5,
		  SVG_LINEAR,
		  SVG_UNIT_NONE,
		  1,
		  6,
		  { 0, 1, 2, 3, 4, 5 },
		  "one value 5: the axis runs from 0" },
		{ -3,
		  7,
		  SVG_LINEAR,
		  SVG_UNIT_NONE,
		  1,
		  7,
		  { -4, -2, 0, 2, 4, 6, 8 },
		  "negative values: 10/5 = 2 -> step 2, floor(-1.5) x 2 = -4 .. 8" },
		{ 100,
		  256000,
		  SVG_LOG,
		  SVG_UNIT_IOPS,
		  1,
		  5,
		  { 100, 1000, 10000, 100000, 500000 },
		  "log over 3.7 decades: powers of ten, up to the 1-2-5 bound 500k" },
		{ 50,
		  2000,
		  SVG_LOG,
		  SVG_UNIT_GIB,
		  1,
		  6,
		  { 50, 100, 200, 500, 1000, 2000 },
		  "log over 1.6 decades: 1, 2, 5 of each" },
		{ 1862,
		  1.8e6,
		  SVG_LOG,
		  SVG_UNIT_SECONDS,
		  3600,
		  5,
		  { 1800, 3600, 36000, 360000, 1800000 },
		  "log durations in h: 0.52..500 h -> 0.5, 1, 10, 100, 500 h" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		double t[16], div, step;
		size_t n =
		    svg_ticks(rows[i].lo, rows[i].hi, rows[i].scale,
			      rows[i].unit, t, ARRAY_SIZE(t), &div, &step);
		int same = n == rows[i].n;

		for (size_t k = 0; same && k < n; k++)
			same = fabs(t[k] - rows[i].t[k]) <
			       1e-9 * fmax(1, fabs(t[k]));
		CHECK(same && div == rows[i].div,
		      "ticks: %s (got %zu ticks %g..%g, div %g)", rows[i].why,
		      n, n ? t[0] : NAN, n ? t[n - 1] : NAN, div);
	}
}

static void test_tick_labels(void)
{
	static const struct {
		double v;
		enum svg_unit unit;
		double div, step;
		const char *want;
	} rows[] = {
		{ 3000, SVG_UNIT_IOPS, 1, 1000, "3,000 IOPS" },
		{ 100000, SVG_UNIT_IOPS, 1, 20000, "100k IOPS" },
		{ 0, SVG_UNIT_IOPS, 1, 20000, "0 IOPS" },
		{ 20000, SVG_UNIT_IOPS, 1, 0, "20k IOPS" },
		{ 5000, SVG_UNIT_IOPS, 1, 0, "5,000 IOPS" },
		{ 1800, SVG_UNIT_SECONDS, 60, 10, "30 min" },
		{ 1800, SVG_UNIT_SECONDS, 3600, 0, "0.5 h" },
		{ 45, SVG_UNIT_SECONDS, 1, 5, "45 s" },
		{ 1200, SVG_UNIT_USD, 1, 200, "$1,200" },
		{ -1500, SVG_UNIT_USD, 1, 500, "-$1,500" },
		{ 2.5, SVG_UNIT_USD, 1, 0.5, "$2.5" },
		{ 0.2, SVG_UNIT_MS, 1, 0.2, "0.2 ms" },
		{ 0.05, SVG_UNIT_MS, 1, 0, "0.05 ms" },
		{ 50, SVG_UNIT_PCT, 1, 10, "50 %" },
		{ 250, SVG_UNIT_MIBPS, 1, 50, "250 MiB/s" },
		{ 16384, SVG_UNIT_GIB, 1, 2000, "16,384 GiB" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char buf[64];

		svg_tick_label(rows[i].v, rows[i].unit, rows[i].div,
			       rows[i].step, buf, sizeof(buf));
		CHECK(!strcmp(buf, rows[i].want),
		      "tick label %g: '%s' (want '%s')", rows[i].v, buf,
		      rows[i].want);
	}
}

static void test_escape(void)
{
	static const struct {
		const char *in;
		size_t max;
		const char *want;
	} rows[] = {
		{ "<script>alert(1)</script>", 0,
		  "&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "\"><svg onload=alert(1)>", 0,
		  "&quot;&gt;&lt;svg onload=alert(1)&gt;" },
		{ "a&b'c", 0, "a&amp;b&#39;c" },
		{ "&amp;", 0, "&amp;amp;" },
		{ "\x01x\x1f", 0,
		  "\xef\xbf\xbdx\xef\xbf\xbd" }, /* XML 1.0 forbids them */
		{ "tab\tnl\n", 0, "tab\tnl\n" },
		{ "\xff", 0, "\xef\xbf\xbd" }, /* not UTF-8 */
		{ "\xc0\xaf", 0,
		  "\xef\xbf\xbd\xef\xbf\xbd" }, /* overlong '/' */
		{ "\xed\xa0\x80", 0,
		  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* surrogate */
		{ "\xef\xbf\xbe", 0, "\xef\xbf\xbd" },	    /* U+FFFE */
		{ "\xc3\xa9\xe2\x82\xac", 0,
		  "\xc3\xa9\xe2\x82\xac" }, /* e-acute euro */
		{ "abcdef", 3, "abc\xe2\x80\xa6" },
		{ "\xc3\xa9\xe2\x82\xacx", 2,
		  "\xc3\xa9\xe2\x82\xac\xe2\x80\xa6" },
		{ "abc", 3, "abc" },
		{ NULL, 0, "" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct sbuf sb = SBUF_INIT(1024);

		svg_escape(&sb, rows[i].in, rows[i].max);
		CHECK(!strcmp(sb.buf ? sb.buf : "", rows[i].want),
		      "escape row %zu: '%s'", i, sb.buf ? sb.buf : "");
		sbuf_release(&sb);
	}
	{
		struct sbuf sb = SBUF_INIT(5);

		CHECK(svg_escape(&sb, "<<<<", 0) == EBS_ERR_TOO_BIG,
		      "escape stops at the buffer's cap");
		sbuf_release(&sb);
	}
}

/* The d attribute of the first <path> after marker in s, into buf. */
static void path_after(const char *s, const char *marker, char *buf, size_t n)
{
	const char *p = strstr(s, marker), *d, *e;

	buf[0] = '\0';
	if (!p || !(d = strstr(p, "<path d=\"")))
		return;
	d += 9;
	e = strchr(d, '"');
	if (e && (size_t)(e - d) < n) {
		memcpy(buf, d, (size_t)(e - d));
		buf[e - d] = '\0';
	}
}

static void test_scaling(void)
{
	static const double x[] = { 0, 100 }, y[] = { 0, 100 };
	static const double lx[] = { 10, 100, 1000 }, ly[] = { 0, 50, 100 };
	struct svg_style st = { "#000000", NULL, SVG_MARK_NONE, 0, 0 };
	struct sbuf sb = SBUF_INIT(1 << 20);
	struct svg_chart *c;
	char d[256];

	/*
	 * Plot area, by hand: y ticks 0..100 step 20, widest label "100"
	 * (3 chars x 6.6 px = 19.8), so left = 30 + 19.8 + 8 = 57.8; right =
	 * 760 - 28 = 732; top 46; bottom 46 + 300 = 346.
	 */
	c = svg_chart_new("lin", "t", "d");
	svg_chart_series(c, SVG_LINE, "a", &st, x, y, 2);
	svg_chart_render(c, &sb);
	path_after(sb.buf, "data-series=\"a\"", d, sizeof(d));
	CHECK(
	    !strcmp(d, "M57.8 346.0L732.0 46.0"),
	    "linear: (0,0) at the bottom left, (100,100) at the top right: '%s'",
	    d);
	CHECK(strstr(sb.buf, "data-values=\"0,0 100,100\"") != NULL,
	      "the exact values ride along in data-values");
	svg_chart_free(c);
	sbuf_reset(&sb);

	/* log x 10..1000: 100 is halfway, (57.8 + 732) / 2 = 394.9 */
	c = svg_chart_new("log", "t", "d");
	svg_chart_axis(c, 'x', "x", SVG_UNIT_NONE, SVG_LOG);
	svg_chart_series(c, SVG_LINE, "a", &st, lx, ly, 3);
	svg_chart_render(c, &sb);
	path_after(sb.buf, "data-series=\"a\"", d, sizeof(d));
	CHECK(!strcmp(d, "M57.8 346.0L394.9 196.0L732.0 46.0"),
	      "log x: 10, 100, 1000 evenly spaced: '%s'", d);
	svg_chart_free(c);
	sbuf_reset(&sb);

	/* a NAN breaks the line into two subpaths; a log axis skips <= 0 */
	{
		static const double bx[] = { 0, 50, 60, 100 },
				    by[] = { 0, 100, NAN, 100 };

		c = svg_chart_new("gap", "t", "d");
		svg_chart_series(c, SVG_LINE, "a", &st, bx, by, 4);
		svg_chart_render(c, &sb);
		path_after(sb.buf, "data-series=\"a\"", d, sizeof(d));
		CHECK(!strcmp(d, "M57.8 346.0L394.9 46.0M732.0 46.0"),
		      "NAN splits the line: '%s'", d);
		CHECK(strstr(sb.buf, "data-values=\"0,0 50,100 100,100\"") !=
			  NULL,
		      "data-values leave the NAN out");
		svg_chart_free(c);
	}
	sbuf_release(&sb);
}

static void test_hostile_chart(void)
{
	static const char *const evil[] = {
		"<script>alert(1)</script>",
		"\"><svg onload=alert(1)>",
		"a & b",
		"\xff\x01 broken",
	};
	static const double x[] = { 1, 2 }, y[] = { 3, 4 }, bars[] = { 5, NAN };
	struct svg_style st;
	struct sbuf sb = SBUF_INIT(1 << 20);
	struct svg_chart *c = svg_chart_new("evil-1", evil[0], evil[1]);
	char why[256];

	svg_style_for("gp2", &st);
	svg_chart_axis(c, 'x', evil[2], SVG_UNIT_NONE, SVG_LINEAR);
	svg_chart_axis(c, 'y', evil[3], SVG_UNIT_IOPS, SVG_LINEAR);
	svg_chart_series(c, SVG_LINE, evil[0], &st, x, y, 2);
	svg_chart_series(c, SVG_AREA, evil[1], &st, x, y, 2);
	svg_chart_series(c, SVG_POINTS, evil[2], &st, x, y, 2);
	svg_chart_annotate(c, 1.5, NAN, evil[1]);
	svg_chart_annotate(c, 1.5, 3.5, evil[0]);
	CHECK(svg_chart_render(c, &sb) == 0, "hostile text renders");
	CHECK(xml_check(sb.buf, why, sizeof(why)) == 0, "well-formed XML: %s",
	      why);
	CHECK(!strstr(sb.buf, "<script") && !strstr(sb.buf, "<svg onload") &&
		  !strstr(sb.buf, "\xff"),
	      "no raw markup or broken bytes");
	CHECK(
	    strstr(
		sb.buf,
		"<title id=\"evil-1-title\">&lt;script&gt;alert(1)&lt;/script&gt;</title>") &&
		strstr(
		    sb.buf,
		    "<desc id=\"evil-1-desc\">&quot;&gt;&lt;svg onload=alert(1)&gt;</desc>") &&
		strstr(sb.buf, "aria-labelledby=\"evil-1-title evil-1-desc\""),
	    "accessible <title> and <desc>, escaped");
	CHECK(strstr(sb.buf,
		     "data-series=\"&quot;&gt;&lt;svg onload=alert(1)&gt;\"") !=
		  NULL,
	      "names escaped inside attributes too");
	svg_chart_free(c);
	sbuf_reset(&sb);

	c = svg_chart_new("bars", "Bars", "");
	svg_chart_categories(c, evil, 2, 0);
	svg_chart_series(c, SVG_BARS, "b", &st, NULL, bars, 2);
	svg_chart_render(c, &sb);
	CHECK(xml_check(sb.buf, why, sizeof(why)) == 0,
	      "bar chart well-formed: %s", why);
	CHECK(strstr(sb.buf, ">n/a</text>") &&
		  strstr(sb.buf, "data-values=\"5 null\""),
	      "a missing bar says n/a");
	svg_chart_free(c);
	sbuf_reset(&sb);

	c = svg_chart_new("overlap", "Bars", "");
	svg_chart_categories(c, evil, 2, SVG_CAT_HORIZONTAL | SVG_CAT_OVERLAP);
	svg_chart_series(c, SVG_BARS, "b", &st, NULL, bars, 2);
	svg_chart_render(c, &sb);
	CHECK(
	    xml_check(sb.buf, why, sizeof(why)) == 0 && !strstr(sb.buf, "n/a"),
	    "overlapping horizontal bars: well-formed, a missing value draws nothing (%s)",
	    why);
	svg_chart_free(c);
	sbuf_release(&sb);

	{
		struct sbuf small = SBUF_INIT(200);

		c = svg_chart_new("cap", "t", "d");
		CHECK(
		    svg_chart_render(c, &small) == EBS_ERR_TOO_BIG,
		    "a chart larger than the buffer's cap is an error, not a crash");
		svg_chart_free(c);
		sbuf_release(&small);
	}
}

static void test_palette(void)
{
	static const char *const types[] = { "gp2",	  "gp3",
					     "io1",	  "io2",
					     "st1",	  "sc1",
					     "standard",  "instance-store",
					     "gp3-stripe" };
	struct svg_style a, b;
	int apart = 1;

	svg_style_for("gp2", &a);
	CHECK(!strcmp(a.colour, "#d55e00"),
	      "gp2 has the same colour in every chart");
	svg_style_for("gp3", &a);
	CHECK(!strcmp(a.colour, "#0072b2"), "gp3 too");
	/* grey scale: any two types differ in dash pattern or marker */
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		for (size_t j = i + 1; j < ARRAY_SIZE(types); j++) {
			svg_style_for(types[i], &a);
			svg_style_for(types[j], &b);
			if (strcmp(a.colour, b.colour) == 0 ||
			    (a.mark == b.mark && !strcmp(a.dash ? a.dash : "",
							 b.dash ? b.dash : "")))
				apart = 0;
		}
	CHECK(apart,
	      "every two volume types differ in colour and in dash or marker");
	svg_style_for("no-such-type", &a);
	CHECK(!strcmp(a.colour, "#777777"), "an unknown type is grey");
}

void test_svg(void)
{
	test_ticks();
	test_tick_labels();
	test_escape();
	test_scaling();
	test_hostile_chart();
	test_palette();
}
