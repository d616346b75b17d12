/*
 * report.c - the report document: sections of charts, each chart with the
 * table of its data, rendered as one self-contained HTML page (inline CSS
 * and SVG, no script, nothing fetched) and written with every chart also
 * as its own SVG file.  Files are written all or nothing.
 *
 * The charts themselves are built in report_charts.c; this file knows
 * nothing about EBS.  It does not delete files a previous report left.
 */
#include "report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ebsize/out.h"

#ifndef EBSIZE_VERSION
#define EBSIZE_VERSION "0.1.0"
#endif

struct item {
	char *title; /* a section when chart is NULL */
	char *text;
	struct report_chart *chart;
};

struct report {
	char *title;
	char *intro;
	struct item *items;
	size_t n, alloc;
	size_t ncharts;
};

/* ------------------------------------------------------------ tables */

void report_table_head(struct report_table *t, const char *const *cols,
		       size_t n)
{
	t->head = xcalloc(n ? n : 1, sizeof(*t->head));
	for (size_t i = 0; i < n; i++)
		t->head[i] = xstrdup(cols[i]);
	t->ncols = n;
}

void report_table_add(struct report_table *t, const char *cell)
{
	xgrow((void **)&t->cells, &t->acells, t->ncells + 1, sizeof(*t->cells));
	t->cells[t->ncells++] = xstrdup(cell ? cell : "-");
}

void report_table_addf(struct report_table *t, const char *fmt, ...)
{
	va_list ap;

	xgrow((void **)&t->cells, &t->acells, t->ncells + 1, sizeof(*t->cells));
	va_start(ap, fmt);
	t->cells[t->ncells++] = xvstrfmt(fmt, ap);
	va_end(ap);
}

void report_table_release(struct report_table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		free(t->head[i]);
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->head);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void report_fmt_num(char *buf, size_t n, double v, int dec)
{
	char tmp[64], out[96];
	const char *s = tmp, *dot;
	size_t digits, o = 0;

	if (!isfinite(v)) {
		xsnprintf(buf, n, "-");
		return;
	}
	xsnprintf(tmp, sizeof(tmp), "%.*f", dec, v);
	if (!strcmp(tmp, "-0") ||
	    (tmp[0] == '-' && strspn(tmp + 1, "0.") == strlen(tmp + 1)))
		s++;
	if (*s == '-')
		out[o++] = *s++;
	dot = strchr(s, '.');
	digits = dot ? (size_t)(dot - s) : strlen(s);
	for (size_t i = 0; i < digits && o + 2 < sizeof(out); i++) {
		if (i && (digits - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = s[i];
	}
	out[o] = '\0';
	xsnprintf(buf, n, "%s%s", out, dot ? dot : "");
}

void report_fmt_usd(char *buf, size_t n, double v)
{
	char num[96];

	if (!isfinite(v)) {
		xsnprintf(buf, n, "-");
		return;
	}
	report_fmt_num(num, sizeof(num), fabs(v), 2);
	xsnprintf(buf, n, "%s$%s", v < -0.004 ? "-" : "", num);
}

/* ------------------------------------------------------------ charts */

struct report_chart *report_chart_from(const char *name, const char *title,
				       struct svg_chart *svg,
				       const char *caption,
				       struct report_table *data)
{
	struct sbuf sb = SBUF_INIT(REPORT_SVG_CAP);
	struct report_chart *c;
	int rc = svg_chart_render(svg, &sb);

	svg_chart_free(svg);
	if (rc) {
		sbuf_release(&sb);
		report_table_release(data);
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->name = xstrdup(name);
	c->title = xstrdup(title);
	c->svg = sbuf_detach(&sb, NULL);
	c->caption = caption ? xstrdup(caption) : NULL;
	c->data = *data;
	memset(data, 0, sizeof(*data));
	return c;
}

void report_chart_free(struct report_chart *c)
{
	if (!c)
		return;
	report_table_release(&c->data);
	free(c->name);
	free(c->title);
	free(c->svg);
	free(c->caption);
	free(c);
}

static char *svg_file_text(const struct report_chart *c)
{
	return xstrfmt("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n%s",
		       c->svg);
}

int report_chart_write_svg(const struct report_chart *c, const char *dir,
			   char *err)
{
	char *path = xstrfmt("%s/%s.svg", dir, c->name);
	char *text = svg_file_text(c);
	int rc = write_file_atomic(path, text, strlen(text), err);

	free(text);
	free(path);
	return rc;
}

/* ------------------------------------------------------------ document */

struct report *report_new(const char *title, const char *intro)
{
	struct report *r = xcalloc(1, sizeof(*r));

	r->title = xstrdup(title ? title : "");
	r->intro = xstrdup(intro ? intro : "");
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->items[i].title);
		free(r->items[i].text);
		report_chart_free(r->items[i].chart);
	}
	free(r->items);
	free(r->title);
	free(r->intro);
	free(r);
}

static struct item *new_item(struct report *r)
{
	struct item *it;

	xgrow((void **)&r->items, &r->alloc, r->n + 1, sizeof(*r->items));
	it = &r->items[r->n++];
	memset(it, 0, sizeof(*it));
	return it;
}

void report_section(struct report *r, const char *title, const char *text)
{
	struct item *it = new_item(r);

	it->title = xstrdup(title ? title : "");
	it->text = text ? xstrdup(text) : NULL;
}

void report_add(struct report *r, struct report_chart *c)
{
	if (!c)
		return;
	new_item(r)->chart = c;
	r->ncharts++;
}

size_t report_chart_count(const struct report *r)
{
	return r->ncharts;
}

/* ------------------------------------------------------------ html */

static const char css[] =
    "body{font-family:sans-serif;color:#222;max-width:800px;margin:2em auto;"
    "padding:0 1em;line-height:1.45}\n"
    "h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\n"
    "figure{margin:1.5em 0}figure svg{max-width:100%;height:auto;"
    "border:1px solid #ddd}\n"
    "figcaption{font-size:.9em;color:#444;margin:.3em 0}\n"
    "details{margin:.3em 0 1em;font-size:.85em}summary{cursor:pointer}\n"
    "table{border-collapse:collapse;margin-top:.5em}"
    "th,td{border:1px solid #ccc;padding:.1em .5em;text-align:left}"
    "th{background:#f3f3f3}td.n{text-align:right}\n"
    "nav ul{padding-left:1.2em}footer{margin-top:3em;font-size:.8em;color:#666}\n";

/* Output with a sticky cap error (as in svg.c). */
struct html {
	struct sbuf *sb;
	int err;
};

static void put(struct html *h, const char *s)
{
	if (!h->err && sbuf_addstr(h->sb, s))
		h->err = EBS_ERR_TOO_BIG;
}

static void text(struct html *h, const char *s)
{
	if (!h->err && svg_escape(h->sb, s, 0))
		h->err = EBS_ERR_TOO_BIG;
}

/* A cell reads as a number ("1,234.5", "$9.12", "-3") when right-aligned. */
static int looks_numeric(const char *s)
{
	char buf[64];
	size_t o = 0;
	double v;

	for (; *s && o + 1 < sizeof(buf); s++)
		if (*s != ',' && *s != '$')
			buf[o++] = *s;
	buf[o] = '\0';
	return o && !*s && !parse_double(buf, &v);
}

static void data_table(struct html *h, const struct report_chart *c)
{
	const struct report_table *t = &c->data;

	if (!t->ncols)
		return;
	put(h, "<details><summary>Data behind &#8220;");
	text(h, c->title);
	put(h, "&#8221;</summary>\n<table>\n<thead><tr>");
	for (size_t i = 0; i < t->ncols; i++) {
		put(h, "<th>");
		text(h, t->head[i]);
		put(h, "</th>");
	}
	put(h, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < t->ncells; i++) {
		if (i % t->ncols == 0)
			put(h, "<tr>");
		put(h,
		    looks_numeric(t->cells[i]) ? "<td class=\"n\">" : "<td>");
		text(h, t->cells[i]);
		put(h, "</td>");
		if (i % t->ncols == t->ncols - 1 || i + 1 == t->ncells)
			put(h, "</tr>\n");
	}
	put(h, "</tbody>\n</table>\n</details>\n");
}

static void figure(struct html *h, const struct report_chart *c)
{
	put(h, "<figure id=\"");
	text(h, c->name);
	put(h, "\">\n");
	put(h, c->svg);
	put(h, "<figcaption>");
	if (c->caption) {
		text(h, c->caption);
		put(h, " ");
	}
	put(h, "(<a href=\"");
	text(h, c->name);
	put(h, ".svg\">");
	text(h, c->name);
	put(h, ".svg</a>)</figcaption>\n");
	data_table(h, c);
	put(h, "</figure>\n");
}

static void contents(struct html *h, const struct report *r)
{
	size_t sec = 0;

	put(h, "<nav><ul>\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];
		char id[32];

		if (it->chart)
			continue;
		xsnprintf(id, sizeof(id), "section-%zu", ++sec);
		put(h, "<li><a href=\"#");
		put(h, id);
		put(h, "\">");
		text(h, it->title);
		put(h, "</a></li>\n");
	}
	put(h, "</ul></nav>\n");
}

int report_html(const struct report *r, struct sbuf *out)
{
	struct html h = { out, 0 };
	size_t sec = 0;
	int open = 0;

	put(&h,
	    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	    "style-src 'unsafe-inline'\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	text(&h, r->title);
	put(&h, "</title>\n<style>\n");
	put(&h, css);
	put(&h, "</style>\n</head>\n<body>\n<header>\n<h1>");
	text(&h, r->title);
	put(&h, "</h1>\n<p>");
	text(&h, r->intro);
	put(&h, "</p>\n");
	contents(&h, r);
	put(&h, "</header>\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct item *it = &r->items[i];
		char buf[64];

		if (it->chart) {
			figure(&h, it->chart);
			continue;
		}
		if (open)
			put(&h, "</section>\n");
		xsnprintf(buf, sizeof(buf),
			  "<section id=\"section-%zu\">\n<h2>", ++sec);
		put(&h, buf);
		text(&h, it->title);
		put(&h, "</h2>\n");
		if (it->text) {
			put(&h, "<p>");
			text(&h, it->text);
			put(&h, "</p>\n");
		}
		open = 1;
	}
	if (open)
		put(&h, "</section>\n");
	put(&h,
	    "<footer>Made by ebsize " EBSIZE_VERSION ": inline SVG and CSS, "
	    "no scripts, nothing fetched.  Each chart is also a file of its own "
	    "beside this page.</footer>\n</body>\n</html>\n");
	return h.err;
}

/* ------------------------------------------------------------ files */

struct pending {
	char *path;
	char *tmp;
};

/* DIR exists as a directory (created when missing)? */
static int prepare_dir(const char *dir, char *err)
{
	struct stat st;
	char *probe;
	int rc;

	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode))
			return ebs_fail(
			    err, EBS_ERR_IO,
			    "cannot write into '%s': it is not a directory",
			    dir);
		return EBS_OK;
	}
	probe = xstrfmt("%s/index.html", dir);
	rc = mkdir_parents(probe, err);
	free(probe);
	return rc;
}

/* A path the rename could not replace: a directory in the way. */
static int check_target(const char *path, char *err)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISDIR(st.st_mode))
		return ebs_fail(err, EBS_ERR_IO,
				"cannot write '%s': it is a directory", path);
	return EBS_OK;
}

static void discard(struct pending *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i].tmp)
			unlink(p[i].tmp);
		free(p[i].tmp);
		free(p[i].path);
	}
	free(p);
}

int report_write(const struct report *r, const char *dir, char *err)
{
	struct sbuf html = SBUF_INIT(REPORT_HTML_CAP);
	size_t n = r->ncharts + 1, k = 0;
	struct pending *p = xcalloc(n, sizeof(*p));
	int rc;

	if ((rc = prepare_dir(dir, err)))
		goto out;
	if (report_html(r, &html)) {
		rc = ebs_fail(err, EBS_ERR_TOO_BIG,
			      "the report would be larger than %u MiB",
			      REPORT_HTML_CAP >> 20);
		goto out;
	}
	for (size_t i = 0; i < r->n; i++)
		if (r->items[i].chart)
			p[k++].path =
			    xstrfmt("%s/%s.svg", dir, r->items[i].chart->name);
	p[k].path = xstrfmt("%s/index.html", dir);
	for (size_t i = 0; i < n; i++)
		if ((rc = check_target(p[i].path, err)))
			goto out;
	k = 0;
	for (size_t i = 0; i < r->n && !rc; i++) {
		char *svg;

		if (!r->items[i].chart)
			continue;
		svg = svg_file_text(r->items[i].chart);
		rc = write_file_temp(p[k].path, svg, strlen(svg), &p[k].tmp,
				     err);
		free(svg);
		k++;
	}
	if (!rc)
		rc = write_file_temp(p[n - 1].path, html.buf, html.len,
				     &p[n - 1].tmp, err);
	/* all written: move them into place, the page last */
	for (size_t i = 0; i < n && !rc; i++) {
		if (rename(p[i].tmp, p[i].path))
			rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s",
				      p[i].path, strerror(errno));
		else
			free(p[i].tmp), p[i].tmp = NULL;
	}
out:
	discard(p, n);
	sbuf_release(&html);
	return rc;
}

/* ------------------------------------------------------------ --svg-dir */

int report_svg_dir(struct out_doc *doc, const char *dir,
		   struct report_chart *const *charts, size_t n, char *err)
{
	int rc;

	if ((rc = prepare_dir(dir, err)))
		return rc;
	for (size_t i = 0; i < n; i++)
		if (charts[i] &&
		    (rc = report_chart_write_svg(charts[i], dir, err)))
			return rc;
	for (size_t i = 0; doc && i < n; i++) {
		char *path;

		if (!charts[i])
			continue;
		path = xstrfmt("%s/%s.svg", dir, charts[i]->name);
		out_md_image(doc, charts[i]->title, path);
		free(path);
	}
	return EBS_OK;
}
