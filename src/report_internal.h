/*
 * report_internal.h - helpers shared by report.c (the document and its
 * files) and report_charts.c (the chart builders).  Not part of the API.
 */
#ifndef EBSIZE_REPORT_INTERNAL_H
#define EBSIZE_REPORT_INTERNAL_H

#include "ebsize/report.h"
#include "ebsize/svg.h"

/* Cap on one chart's SVG text and on the whole page. */
#define REPORT_SVG_CAP	(16u << 20)
#define REPORT_HTML_CAP (256u << 20)

/* Set the column titles of t (n of them, copied). */
void report_table_head(struct report_table *t, const char *const *cols,
		       size_t n);
/* Append one cell (copied; NULL shows as "-"); rows fill left to right. */
void report_table_add(struct report_table *t, const char *cell);
void report_table_addf(struct report_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void report_table_release(struct report_table *t);

/*
 * A new chart named name from svg (rendered, then freed), with caption
 * (may be NULL) and the table data (moved into the chart; *data is left
 * empty).  NULL, with svg and data freed, if the SVG would be larger than
 * REPORT_SVG_CAP.
 */
struct report_chart *report_chart_from(const char *name, const char *title,
				       struct svg_chart *svg,
				       const char *caption,
				       struct report_table *data);

/* "1,234" / "1,234.5": v with dec decimals and thousands separators. */
void report_fmt_num(char *buf, size_t n, double v, int dec);
/* "$1,234.56" */
void report_fmt_usd(char *buf, size_t n, double v);

#endif
