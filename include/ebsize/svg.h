/*
 * svg.h - a small SVG chart writer, part of the output layer: lines,
 * steps drawn as lines, areas, points and (grouped, vertical or
 * horizontal) bars on linear or log axes, with nice 1-2-5 ticks that carry
 * their unit, a legend, annotations, an accessible <title> and <desc>, and
 * every text from outside XML-escaped (invalid UTF-8 and characters XML
 * forbids become U+FFFD).  Pure: it writes text into a struct sbuf; no
 * files, no globals, no knowledge of EBS beyond the palette of volume types.
 *
 * A chart is built, rendered and freed:
 *
 *	struct svg_chart *c = svg_chart_new("cost-iops", "Cost", "desc...");
 *	svg_chart_axis(c, 'x', "Required IOPS", SVG_UNIT_IOPS, SVG_LOG);
 *	svg_chart_axis(c, 'y', "Monthly cost", SVG_UNIT_USD, SVG_LINEAR);
 *	svg_style_for("gp3", &st);
 *	svg_chart_series(c, SVG_LINE, "gp3", &st, x, y, n);
 *	svg_chart_render(c, &sb);      <svg ...>...</svg>, no XML declaration
 *	svg_chart_free(c);
 *
 * Each series' exact values are kept in a data-values attribute
 * ("x,y x,y ..." or, for bars, "y y ...") so tests and tools can read the
 * numbers back without scraping pixels.
 */
#ifndef EBSIZE_SVG_H
#define EBSIZE_SVG_H

#include <stddef.h>

#include "ebsize/util.h"

/* Units: what tick labels say after the number. */
enum svg_unit {
	SVG_UNIT_NONE,
	SVG_UNIT_IOPS,	  /* "3,000 IOPS", "200k IOPS" */
	SVG_UNIT_MIBPS,	  /* "250 MiB/s" */
	SVG_UNIT_GIB,	  /* "1,000 GiB" */
	SVG_UNIT_USD,	  /* "$1,200" (USD per month by context) */
	SVG_UNIT_MS,	  /* "10 ms" */
	SVG_UNIT_SECONDS, /* values in s, shown in s, min or h by range */
	SVG_UNIT_PCT	  /* "50 %" */
};

enum svg_scale { SVG_LINEAR, SVG_LOG };

enum svg_mark {
	SVG_MARK_NONE,
	SVG_MARK_CIRCLE,
	SVG_MARK_SQUARE,
	SVG_MARK_TRIANGLE,
	SVG_MARK_DIAMOND,
	SVG_MARK_CROSS
};

/* How a series looks.  colour and dash are trusted literals, not input. */
struct svg_style {
	const char *colour; /* "#0072b2" */
	const char *dash;   /* stroke-dasharray, NULL: solid */
	enum svg_mark mark;
	double width;	/* stroke width in px; 0: 2 */
	double opacity; /* fill opacity of areas and bars; 0: default */
};

/*
 * The style of a volume type ("gp2", "gp3", "io1", "io2", "st1", "sc1",
 * "standard", "instance-store", "gp3-stripe"), the same in every chart:
 * a colour-blind-safe colour plus a dash pattern and a marker of its own,
 * so the types stay apart in grey scale.  Unknown names get grey.
 */
void svg_style_for(const char *type, struct svg_style *out);

enum svg_kind {
	SVG_LINE,   /* polyline; NAN breaks it */
	SVG_AREA,   /* filled down to the axis, outlined */
	SVG_POINTS, /* markers only */
	SVG_BARS    /* one bar per category (y only) */
};

struct svg_chart;

/*
 * A new chart.  id names it in the document ([a-z0-9-] only; it prefixes
 * the element ids, so two charts inline in one page never clash); title
 * and desc become <title> and <desc> (any text: escaped).
 */
struct svg_chart *svg_chart_new(const char *id, const char *title,
				const char *desc);
void svg_chart_free(struct svg_chart *c);

/* Axis 'x' or 'y': its label, unit and scale. */
void svg_chart_axis(struct svg_chart *c, char which, const char *label,
		    enum svg_unit unit, enum svg_scale scale);
/* Make the axis span at least lo..hi (the data widen it further). */
void svg_chart_range(struct svg_chart *c, char which, double lo, double hi);

/*
 * Categories for bar charts, in order (copied).  Flags:
 * SVG_CAT_HORIZONTAL: categories run down the y axis and the bars grow to
 * the right (for long labels); SVG_CAT_OVERLAP: every bar series uses the
 * whole slot of a category (one series per category has a value; the
 * series only give it its style), and a NAN draws nothing.
 */
#define SVG_CAT_HORIZONTAL 1
#define SVG_CAT_OVERLAP	   2
void svg_chart_categories(struct svg_chart *c, const char *const *names,
			  size_t n, unsigned flags);

/*
 * Add a series (name shown in the legend; NULL or "" keeps it out of it).
 * x and y are copied.  For SVG_BARS x is ignored (may be NULL) and n must
 * equal the number of categories; a NAN y draws "n/a" instead of a bar.
 */
void svg_chart_series(struct svg_chart *c, enum svg_kind kind, const char *name,
		      const struct svg_style *st, const double *x,
		      const double *y, size_t n);

/*
 * An annotation: with y NAN a vertical rule at x labelled text (a cliff,
 * a crossover size); otherwise a ringed point at (x, y) labelled text.
 */
void svg_chart_annotate(struct svg_chart *c, double x, double y,
			const char *text);

/*
 * Append the chart as one <svg> element (no XML declaration, so the same
 * text goes inline into HTML and, after a declaration, into a file).
 * Returns 0, or EBS_ERR_TOO_BIG when out's cap is reached.
 */
int svg_chart_render(const struct svg_chart *c, struct sbuf *out);

/* ------------------------------------------------------------ parts */

/*
 * Ticks for an axis over lo..hi (values in base units: seconds for
 * SVG_UNIT_SECONDS).  Linear: a 1-2-5 step giving about 4 to 8 ticks,
 * the ends rounded out to the step.  Log: 1-2-5 per decade over up to
 * three decades, else powers of ten.  Writes at most max ticks to ticks;
 * returns the count.  *div gets the display divisor (1, 60 or 3,600 for
 * seconds shown as s, min or h; else 1), *step the step in display units
 * (linear) or 0 (log).
 */
size_t svg_ticks(double lo, double hi, enum svg_scale scale, enum svg_unit unit,
		 double *ticks, size_t max, double *div, double *step);

/*
 * The label of tick v (base units) with its unit: "3,000 IOPS", "$20",
 * "30 min", "200k IOPS".  div and step as returned by svg_ticks.
 */
void svg_tick_label(double v, enum svg_unit unit, double div, double step,
		    char *buf, size_t n);

/*
 * Append s escaped for XML text and attribute values: & < > " ' as
 * entities; invalid UTF-8, control characters and U+FFFE/U+FFFF as
 * U+FFFD.  max_chars > 0 cuts the text after that many characters and
 * appends an ellipsis.  Returns 0, or EBS_ERR_TOO_BIG at sb's cap.
 */
int svg_escape(struct sbuf *sb, const char *s, size_t max_chars);

#endif
