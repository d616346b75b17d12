/*
 * svg.c - the SVG chart writer (see svg.h).
 *
 * Layout is fixed and simple: a title line, the plot area with its axes,
 * the axis labels, then the legend in as many rows as it needs.  Text
 * widths are estimated (6.6 px per character at 12 px sans-serif); nothing
 * is measured, so the output is the same on every machine and every run.
 * It does not wrap long titles, avoid overlapping annotations, or draw
 * more than one y axis.
 */
#include "ebsize/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W	     760.0
#define PLOT_H	     300.0
#define TOP	     46.0
#define RIGHT	     28.0
#define CHAR_W	     6.6
#define LEGEND_ROW   18.0
#define LEGEND_CHARS 70
#define MAX_TICKS    64
#define MAX_MARKS    12

struct axis {
	char *label;
	enum svg_unit unit;
	enum svg_scale scale;
	int have_want;
	double want_lo, want_hi;
};

struct series {
	enum svg_kind kind;
	char *name;
	struct svg_style st;
	double *x, *y;
	size_t n;
};

struct note {
	double x, y;
	char *text;
};

struct svg_chart {
	char *id, *title, *desc;
	struct axis ax[2]; /* 0 = x, 1 = y */
	char **cats;
	size_t ncats;
	int horizontal;
	int overlap;
	struct series *s;
	size_t ns, as;
	struct note *notes;
	size_t nnotes, anotes;
};

/* ------------------------------------------------------------ palette */

/*
 * Okabe & Ito's colour-blind-safe palette; dashes and markers differ per
 * type as well so that a grey-scale print still tells them apart.
 */
static const struct {
	const char *type;
	struct svg_style st;
} palette[] = {
	{ "gp3", { "#0072b2", NULL, SVG_MARK_CIRCLE, 0, 0 } },
	{ "gp2", { "#d55e00", "8 4", SVG_MARK_SQUARE, 0, 0 } },
	{ "io2", { "#009e73", "2 3", SVG_MARK_TRIANGLE, 0, 0 } },
	{ "io1", { "#cc79a7", "8 3 2 3", SVG_MARK_DIAMOND, 0, 0 } },
	{ "st1", { "#e69f00", "4 4", SVG_MARK_CROSS, 0, 0 } },
	{ "sc1", { "#56b4e9", "1 4", SVG_MARK_CIRCLE, 0, 0 } },
	{ "standard", { "#000000", "12 4", SVG_MARK_SQUARE, 0, 0 } },
	{ "instance-store", { "#999999", "3 6", SVG_MARK_DIAMOND, 0, 0 } },
	{ "gp3-stripe", { "#003f63", "12 3 3 3", SVG_MARK_DIAMOND, 0, 0 } },
};

void svg_style_for(const char *type, struct svg_style *out)
{
	static const struct svg_style unknown = { "#777777", "6 2",
						  SVG_MARK_CROSS, 0, 0 };

	*out = unknown;
	for (size_t i = 0; type && i < ARRAY_SIZE(palette); i++)
		if (!strcmp(type, palette[i].type))
			*out = palette[i].st;
}

/* ------------------------------------------------------------ building */

struct svg_chart *svg_chart_new(const char *id, const char *title,
				const char *desc)
{
	struct svg_chart *c = xcalloc(1, sizeof(*c));

	c->id = xstrdup(id);
	c->title = xstrdup(title ? title : "");
	c->desc = xstrdup(desc ? desc : "");
	for (int i = 0; i < 2; i++)
		c->ax[i].label = xstrdup("");
	return c;
}

void svg_chart_free(struct svg_chart *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->ns; i++) {
		free(c->s[i].name);
		free(c->s[i].x);
		free(c->s[i].y);
	}
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i].text);
	for (size_t i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	for (int i = 0; i < 2; i++)
		free(c->ax[i].label);
	free(c->cats);
	free(c->s);
	free(c->notes);
	free(c->id);
	free(c->title);
	free(c->desc);
	free(c);
}

void svg_chart_axis(struct svg_chart *c, char which, const char *label,
		    enum svg_unit unit, enum svg_scale scale)
{
	struct axis *a = &c->ax[which == 'y'];

	free(a->label);
	a->label = xstrdup(label ? label : "");
	a->unit = unit;
	a->scale = scale;
}

void svg_chart_range(struct svg_chart *c, char which, double lo, double hi)
{
	struct axis *a = &c->ax[which == 'y'];

	if (!isfinite(lo) || !isfinite(hi))
		return;
	if (a->have_want) {
		lo = fmin(lo, a->want_lo);
		hi = fmax(hi, a->want_hi);
	}
	a->want_lo = fmin(lo, hi);
	a->want_hi = fmax(lo, hi);
	a->have_want = 1;
}

void svg_chart_categories(struct svg_chart *c, const char *const *names,
			  size_t n, unsigned flags)
{
	for (size_t i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	free(c->cats);
	c->cats = xcalloc(n ? n : 1, sizeof(*c->cats));
	for (size_t i = 0; i < n; i++)
		c->cats[i] = xstrdup(names[i] ? names[i] : "");
	c->ncats = n;
	c->horizontal = !!(flags & SVG_CAT_HORIZONTAL);
	c->overlap = !!(flags & SVG_CAT_OVERLAP);
}

static double *copy_doubles(const double *v, size_t n)
{
	double *p = xmalloc((n ? n : 1) * sizeof(*p));

	for (size_t i = 0; i < n; i++)
		p[i] = v ? v[i] : NAN;
	return p;
}

void svg_chart_series(struct svg_chart *c, enum svg_kind kind, const char *name,
		      const struct svg_style *st, const double *x,
		      const double *y, size_t n)
{
	struct series *s;

	xgrow((void **)&c->s, &c->as, c->ns + 1, sizeof(*c->s));
	s = &c->s[c->ns++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->name = xstrdup(name ? name : "");
	s->st = *st;
	if (!s->st.colour)
		s->st.colour = "#777777";
	if (kind == SVG_BARS && n > c->ncats)
		n = c->ncats;
	s->n = n;
	s->x = copy_doubles(kind == SVG_BARS ? NULL : x, n);
	s->y = copy_doubles(y, n);
}

void svg_chart_annotate(struct svg_chart *c, double x, double y,
			const char *text)
{
	struct note *nt;

	xgrow((void **)&c->notes, &c->anotes, c->nnotes + 1, sizeof(*c->notes));
	nt = &c->notes[c->nnotes++];
	nt->x = x;
	nt->y = y;
	nt->text = xstrdup(text ? text : "");
}

/* ------------------------------------------------------------ text */

/* Length of the valid UTF-8 sequence at s, its code point in *cp; 0 bad. */
static size_t utf8_decode(const unsigned char *s, unsigned *cp)
{
	size_t n;
	unsigned c = s[0], min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0)
		n = 2, c &= 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		n = 3, c &= 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		n = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* May code point cp appear in XML 1.0 text? */
static int xml_char_ok(unsigned cp)
{
	if (cp < 0x20)
		return cp == '\t' || cp == '\n' || cp == '\r';
	return cp != 0xfffe && cp != 0xffff;
}

int svg_escape(struct sbuf *sb, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t chars = 0;
	int rc = 0;

	while (*p && !rc) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);

		if (max_chars && chars == max_chars)
			return sbuf_addstr(sb, "\xe2\x80\xa6");
		chars++;
		if (!n || !xml_char_ok(cp)) {
			rc = sbuf_addstr(sb, "\xef\xbf\xbd");
			p += n ? n : 1;
			continue;
		}
		switch (cp) {
		case '&': rc = sbuf_addstr(sb, "&amp;"); break;
		case '<': rc = sbuf_addstr(sb, "&lt;"); break;
		case '>': rc = sbuf_addstr(sb, "&gt;"); break;
		case '"': rc = sbuf_addstr(sb, "&quot;"); break;
		case '\'': rc = sbuf_addstr(sb, "&#39;"); break;
		default: rc = sbuf_add(sb, p, n); break;
		}
		p += n;
	}
	return rc;
}

/* Characters in s as svg_escape counts them (for width estimates). */
static size_t text_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;

	while (*p) {
		unsigned cp;
		size_t n = utf8_decode(p, &cp);

		p += n ? n : 1;
		chars++;
	}
	return chars;
}

/* ------------------------------------------------------------ ticks */

/* The 1-2-5 step at least raw. */
static double nice_step(double raw)
{
	double mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;

	if (norm <= 1 + 1e-9)
		return mag;
	if (norm <= 2 + 1e-9)
		return 2 * mag;
	if (norm <= 5 + 1e-9)
		return 5 * mag;
	return 10 * mag;
}

static double seconds_divisor(double hi)
{
	if (hi <= 600)
		return 1;
	if (hi <= 3 * 3600)
		return 60;
	return 3600;
}

static size_t linear_ticks(double lo, double hi, double *t, size_t max,
			   double *step)
{
	double st, first, last;
	size_t n = 0;

	if (hi - lo < 1e-12 * fmax(1, fabs(hi))) {
		if (lo == 0) {
			hi = 1;
		} else if (lo > 0) {
			lo = 0;
		} else {
			hi = 0;
		}
	}
	st = nice_step((hi - lo) / 5);
	first = floor(lo / st + 1e-9) * st;
	last = ceil(hi / st - 1e-9) * st;
	for (double k = 0; n < max; k++) {
		double v = first + k * st;

		if (v > last + st * 1e-6)
			break;
		t[n++] = fabs(v) < st * 1e-9 ? 0 : v;
	}
	*step = st;
	return n;
}

/* The largest 1-2-5 value <= v (up 0) or the smallest >= v (up 1). */
static double log_bound(double v, int up)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double dec = pow(10, floor(log10(v) + 1e-9));

	if (!up) {
		for (size_t i = ARRAY_SIZE(mult); i-- > 0;)
			if (mult[i] * dec <= v * (1 + 1e-9))
				return mult[i] * dec;
		return dec;
	}
	for (size_t i = 0; i < ARRAY_SIZE(mult); i++)
		if (mult[i] * dec >= v * (1 - 1e-9))
			return mult[i] * dec;
	return 10 * dec;
}

/*
 * Log ticks: the axis runs from the 1-2-5 value at or below lo to the one
 * at or above hi; ticks at 1, 2 and 5 of each decade over up to two
 * decades, else at the powers of ten, plus both ends.
 */
static size_t log_ticks(double lo, double hi, double *t, size_t max)
{
	static const double mult[] = { 1, 2, 5 };
	double a, b;
	int sparse;
	size_t n = 0;

	if (!(lo > 0))
		lo = hi > 0 ? hi / 10 : 1;
	if (!(hi > lo))
		hi = lo * 10;
	a = log_bound(lo, 0);
	b = log_bound(hi, 1);
	if (b <= a)
		b = log_bound(a * 1.5, 1);
	sparse = log10(b) - log10(a) > 2 + 1e-9;
	t[n++] = a;
	for (double d = pow(10, floor(log10(a) + 1e-9)); d <= b && n < max;
	     d *= 10) {
		for (size_t m = 0; m < ARRAY_SIZE(mult) && n < max; m++) {
			double v = mult[m] * d;

			if ((sparse && m) || v <= a * (1 + 1e-9) ||
			    v >= b * (1 - 1e-9))
				continue;
			t[n++] = v;
		}
	}
	if (n < max)
		t[n++] = b;
	return n;
}

size_t svg_ticks(double lo, double hi, enum svg_scale scale, enum svg_unit unit,
		 double *ticks, size_t max, double *div, double *step)
{
	double d = unit == SVG_UNIT_SECONDS
		       ? seconds_divisor(fmax(fabs(lo), fabs(hi)))
		       : 1;
	size_t n;

	*div = d;
	*step = 0;
	if (!max)
		return 0;
	if (scale == SVG_LOG)
		n = log_ticks(lo / d, hi / d, ticks, max);
	else
		n = linear_ticks(lo / d, hi / d, ticks, max, step);
	for (size_t i = 0; i < n; i++)
		ticks[i] *= d;
	return n;
}

/* Insert thousands separators into the integer part of buf. */
static void group_thousands(char *buf, size_t n)
{
	char tmp[64];
	const char *s = buf, *dot;
	size_t digits, o = 0;

	if (*s == '-')
		tmp[o++] = *s++;
	dot = strchr(s, '.');
	digits = dot ? (size_t)(dot - s) : strlen(s);
	for (size_t i = 0; i < digits && o + 2 < sizeof(tmp); i++) {
		if (i && (digits - i) % 3 == 0)
			tmp[o++] = ',';
		tmp[o++] = s[i];
	}
	tmp[o] = '\0';
	if (dot)
		xsnprintf(tmp + o, sizeof(tmp) - o, "%s", dot);
	xsnprintf(buf, n, "%s", tmp);
}

/* Decimals needed to show v on a grid of step (0: a log tick). */
static int decimals_for(double v, double step)
{
	double ref = step > 0 ? step : fabs(v);

	if (ref <= 0 || ref >= 1 - 1e-9)
		return 0;
	return (int)ceil(-log10(ref) - 1e-9);
}

void svg_tick_label(double v, enum svg_unit unit, double div, double step,
		    char *buf, size_t n)
{
	static const char *const suffix[] = { "", " IOPS", " MiB/s", " GiB",
					      "", " ms",   "",	     " %" };
	const char *unit_text = suffix[unit];
	char num[64];
	double d = v / (div > 0 ? div : 1);
	const char *k = "";
	int dec;

	if (unit == SVG_UNIT_SECONDS)
		unit_text = div >= 3600 ? " h" : div >= 60 ? " min" : " s";
	if ((unit == SVG_UNIT_IOPS || unit == SVG_UNIT_NONE) &&
	    fabs(d) >= 1e-12 && (step > 0 ? step >= 1e4 : fabs(d) >= 1e4)) {
		d /= 1000;
		step /= 1000;
		k = "k";
	}
	dec = decimals_for(d, step);
	if (fabs(d) < 1e-12)
		d = 0;
	xsnprintf(num, sizeof(num), "%.*f", dec, d);
	group_thousands(num, sizeof(num));
	if (unit == SVG_UNIT_USD)
		xsnprintf(buf, n, "%s$%s", num[0] == '-' ? "-" : "",
			  num[0] == '-' ? num + 1 : num);
	else
		xsnprintf(buf, n, "%s%s%s", num, k, unit_text);
}

/* ------------------------------------------------------------ render */

/* Output with a sticky error: once the cap is hit nothing more is added. */
struct out {
	struct sbuf *sb;
	int err;
};

static void put(struct out *o, const char *s)
{
	if (!o->err && sbuf_addstr(o->sb, s))
		o->err = EBS_ERR_TOO_BIG;
}

static void putf(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void putf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvstrfmt(fmt, ap);
	va_end(ap);
	put(o, s);
	free(s);
}

static void put_text(struct out *o, const char *s, size_t max_chars)
{
	if (!o->err && svg_escape(o->sb, s, max_chars))
		o->err = EBS_ERR_TOO_BIG;
}

/* A scale mapping data values onto pixels. */
struct map {
	enum svg_scale scale;
	enum svg_unit unit;
	double lo, hi; /* domain (first and last tick) */
	double p0, p1; /* pixels of lo and hi */
	double ticks[MAX_TICKS];
	size_t nticks;
	double div, step;
};

static int in_domain(const struct map *m, double v)
{
	return isfinite(v) && (m->scale == SVG_LINEAR || v > 0);
}

static double px(const struct map *m, double v)
{
	double f;

	if (m->scale == SVG_LOG)
		f = (log10(v) - log10(m->lo)) / (log10(m->hi) - log10(m->lo));
	else
		f = (v - m->lo) / (m->hi - m->lo);
	return m->p0 + f * (m->p1 - m->p0);
}

/* The value where bars and areas start: 0, or the bottom of a log axis. */
static double base_value(const struct map *m)
{
	if (m->scale == SVG_LOG)
		return m->lo;
	return m->lo > 0 ? m->lo : m->hi < 0 ? m->hi : 0;
}

struct range {
	double lo, hi;
	int any;
};

static void widen(struct range *r, double v, enum svg_scale scale)
{
	if (!isfinite(v) || (scale == SVG_LOG && v <= 0))
		return;
	if (!r->any || v < r->lo)
		r->lo = v;
	if (!r->any || v > r->hi)
		r->hi = v;
	r->any = 1;
}

/* Data range of axis i (0 x, 1 y) over every series and annotation. */
static void data_range(const struct svg_chart *c, int i, struct range *r)
{
	const struct axis *a = &c->ax[i];
	int value_axis = c->horizontal ? 0 : 1;

	memset(r, 0, sizeof(*r));
	if (a->have_want) {
		widen(r, a->want_lo, a->scale);
		widen(r, a->want_hi, a->scale);
	}
	for (size_t k = 0; k < c->ns; k++) {
		const struct series *s = &c->s[k];

		if (s->kind == SVG_BARS) {
			if (i != value_axis)
				continue;
			/* room above the tallest bar for its label */
			for (size_t j = 0; j < s->n; j++)
				widen(r,
				      s->y[j] *
					  (a->scale == SVG_LOG ? 1.5 : 1.08),
				      a->scale);
			if (a->scale == SVG_LINEAR)
				widen(r, 0, a->scale);
			continue;
		}
		for (size_t j = 0; j < s->n; j++)
			widen(r, i ? s->y[j] : s->x[j], a->scale);
		if (i && s->kind == SVG_AREA && a->scale == SVG_LINEAR)
			widen(r, 0, a->scale);
	}
	for (size_t k = 0; k < c->nnotes; k++)
		widen(r, i ? c->notes[k].y : c->notes[k].x, a->scale);
	if (!r->any) {
		r->lo = a->scale == SVG_LOG ? 1 : 0;
		r->hi = a->scale == SVG_LOG ? 10 : 1;
		r->any = 1;
	}
}

static void make_map(const struct svg_chart *c, int i, double p0, double p1,
		     struct map *m)
{
	struct range r;

	data_range(c, i, &r);
	m->scale = c->ax[i].scale;
	m->unit = c->ax[i].unit;
	m->nticks = svg_ticks(r.lo, r.hi, m->scale, m->unit, m->ticks,
			      MAX_TICKS, &m->div, &m->step);
	m->lo = m->ticks[0];
	m->hi = m->ticks[m->nticks - 1];
	if (!(m->hi > m->lo))
		m->hi = m->lo + 1;
	m->p0 = p0;
	m->p1 = p1;
}

struct layout {
	double w, h;
	double left, top, right, bottom; /* the plot area */
	double legend_y;
	size_t legend_rows;
	int bars; /* a category chart */
	struct map x, y;
};

static int has_bars(const struct svg_chart *c)
{
	for (size_t i = 0; i < c->ns; i++)
		if (c->s[i].kind == SVG_BARS)
			return 1;
	return 0;
}

static size_t legend_chars(const char *name)
{
	size_t n = text_chars(name);

	return n > LEGEND_CHARS ? LEGEND_CHARS + 1 : n;
}

static double legend_item_w(const char *name)
{
	return 28 + 6 + (double)legend_chars(name) * CHAR_W + 18;
}

static size_t count_legend_rows(const struct svg_chart *c, double width)
{
	double x = 0;
	size_t rows = 0;

	for (size_t i = 0; i < c->ns; i++) {
		double w = legend_item_w(c->s[i].name);

		if (!*c->s[i].name)
			continue;
		if (!rows || (x > 0 && x + w > width)) {
			rows++;
			x = 0;
		}
		x += w;
	}
	return rows;
}

/* Widest tick label of an axis, in characters. */
static size_t widest_tick(const struct map *m)
{
	size_t w = 0;
	char buf[64];

	for (size_t i = 0; i < m->nticks; i++) {
		svg_tick_label(m->ticks[i], m->unit, m->div, m->step, buf,
			       sizeof(buf));
		if (strlen(buf) > w)
			w = strlen(buf);
	}
	return w;
}

static void layout(const struct svg_chart *c, struct layout *l)
{
	double label_w;
	size_t cat_chars = 0;

	memset(l, 0, sizeof(*l));
	l->bars = has_bars(c) && c->ncats;
	l->w = CHART_W;
	l->top = TOP;
	l->bottom =
	    TOP + (l->bars && c->horizontal ? fmax(120, 26.0 * (double)c->ncats)
					    : PLOT_H);
	/* provisional maps give the tick label widths */
	make_map(c, 1, l->bottom, l->top, &l->y);
	for (size_t i = 0; i < c->ncats; i++)
		if (legend_chars(c->cats[i]) > cat_chars)
			cat_chars = legend_chars(c->cats[i]);
	if (l->bars && c->horizontal)
		label_w = fmin(40.0, (double)cat_chars) * CHAR_W;
	else
		label_w = (double)widest_tick(&l->y) * CHAR_W;
	l->left = 30 + label_w + 8;
	l->right = l->w - RIGHT;
	make_map(c, 0, l->left, l->right, &l->x);
	make_map(c, 1, l->bottom, l->top, &l->y);
	l->legend_rows = count_legend_rows(c, l->right - l->left);
	l->legend_y = l->bottom + 54;
	l->h = l->legend_y + (double)l->legend_rows * LEGEND_ROW + 8;
}

/* ---- pieces */

static void marker(struct out *o, enum svg_mark m, double x, double y,
		   const char *colour)
{
	switch (m) {
	case SVG_MARK_NONE: break;
	case SVG_MARK_CIRCLE:
		putf(o,
		     "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>",
		     x, y, colour);
		break;
	case SVG_MARK_SQUARE:
		putf(
		    o,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"%s\"/>",
		    x - 3.5, y - 3.5, colour);
		break;
	case SVG_MARK_TRIANGLE:
		putf(
		    o,
		    "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>",
		    x, y - 4.5, x + 4.5, y + 3.5, x - 4.5, y + 3.5, colour);
		break;
	case SVG_MARK_DIAMOND:
		putf(
		    o,
		    "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>",
		    x, y - 5, x + 5, y, x, y + 5, x - 5, y, colour);
		break;
	case SVG_MARK_CROSS:
		putf(
		    o,
		    "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2\"/>",
		    x - 4, y - 4, x + 4, y + 4, x - 4, y + 4, x + 4, y - 4,
		    colour);
		break;
	}
}

static double stroke_w(const struct svg_style *st)
{
	return st->width > 0 ? st->width : 2;
}

static void stroke_attrs(struct out *o, const struct svg_style *st)
{
	putf(o, " stroke=\"%s\" stroke-width=\"%.2g\"", st->colour,
	     stroke_w(st));
	if (st->dash)
		putf(o, " stroke-dasharray=\"%s\"", st->dash);
}

static void number(struct out *o, double v)
{
	putf(o, "%.10g", v);
}

/* data-values="x,y ..." (finite points) or "y ..." for bars. */
static void data_values(struct out *o, const struct series *s)
{
	int first = 1;

	put(o, " data-values=\"");
	for (size_t i = 0; i < s->n; i++) {
		if (s->kind == SVG_BARS) {
			put(o, first ? "" : " ");
			if (isfinite(s->y[i]))
				number(o, s->y[i]);
			else
				put(o, "null");
			first = 0;
			continue;
		}
		if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
			continue;
		put(o, first ? "" : " ");
		number(o, s->x[i]);
		put(o, ",");
		number(o, s->y[i]);
		first = 0;
	}
	put(o, "\"");
}

static int point_ok(const struct layout *l, const struct series *s, size_t i)
{
	return in_domain(&l->x, s->x[i]) && in_domain(&l->y, s->y[i]);
}

/* The path of a line (subpaths split at gaps), or of an area. */
static void line_path(struct out *o, const struct layout *l,
		      const struct series *s, int area)
{
	double base = px(&l->y, base_value(&l->y)), last_x = 0;
	int open = 0;

	put(o, " d=\"");
	for (size_t i = 0; i <= s->n; i++) {
		int ok = i < s->n && point_ok(l, s, i);

		if (!ok) {
			if (open && area)
				putf(o, "L%.1f %.1fZ", last_x, base);
			open = 0;
			continue;
		}
		last_x = px(&l->x, s->x[i]);
		if (!open && area)
			putf(o, "M%.1f %.1fL%.1f %.1f", last_x, base, last_x,
			     px(&l->y, s->y[i]));
		else
			putf(o, "%s%.1f %.1f", open ? "L" : "M", last_x,
			     px(&l->y, s->y[i]));
		open = 1;
	}
	put(o, "\"");
}

/* Markers on at most MAX_MARKS points, evenly spread (all for points). */
static void series_marks(struct out *o, const struct layout *l,
			 const struct series *s)
{
	size_t valid = 0, every, k = 0;

	if (s->st.mark == SVG_MARK_NONE)
		return;
	for (size_t i = 0; i < s->n; i++)
		valid += (size_t)point_ok(l, s, i);
	every = s->kind == SVG_POINTS || valid <= MAX_MARKS
		    ? 1
		    : (valid + MAX_MARKS - 1) / MAX_MARKS;
	for (size_t i = 0; i < s->n; i++) {
		if (!point_ok(l, s, i))
			continue;
		if (k++ % every == 0)
			marker(o, s->st.mark, px(&l->x, s->x[i]),
			       px(&l->y, s->y[i]), s->st.colour);
	}
}

static void draw_xy_series(struct out *o, const struct layout *l,
			   const struct series *s)
{
	if (s->kind == SVG_AREA) {
		put(o, "<path");
		line_path(o, l, s, 1);
		putf(o, " fill=\"%s\" fill-opacity=\"%.2g\" stroke=\"none\"/>",
		     s->st.colour, s->st.opacity > 0 ? s->st.opacity : 0.25);
	}
	if (s->kind != SVG_POINTS) {
		put(o, "<path");
		line_path(o, l, s, 0);
		put(o, " fill=\"none\"");
		stroke_attrs(o, &s->st);
		put(o, " stroke-linejoin=\"round\"/>");
	}
	series_marks(o, l, s);
}

/* Index of series k among the bar series, and how many there are. */
static size_t bar_slot(const struct svg_chart *c, size_t k, size_t *nbars)
{
	size_t slot = 0;

	*nbars = 0;
	for (size_t i = 0; i < c->ns; i++) {
		if (c->s[i].kind != SVG_BARS)
			continue;
		if (i < k)
			slot++;
		(*nbars)++;
	}
	return slot;
}

/* Short value label for a bar: 4 significant digits (no trailing
 * zeros) below 1,000, whole numbers above; the unit as on the ticks. */
static void bar_label(double v, enum svg_unit unit, char *buf, size_t n)
{
	int dec = 0;

	if (fabs(v) < 1000 && v != 0)
		dec = (int)fmax(0, 3 - floor(log10(fabs(v))));
	if (unit == SVG_UNIT_USD)
		dec = fabs(v) >= 100 ? 0 : 2;
	svg_tick_label(v, unit == SVG_UNIT_SECONDS ? SVG_UNIT_NONE : unit, 1,
		       dec ? pow(10, -dec) : 1, buf, n);
	if (dec && unit != SVG_UNIT_USD) {
		/* "12.90 ms" -> "12.9 ms" */
		char *dot = strchr(buf, '.'), *end;

		if (!dot)
			return;
		end = dot + strspn(dot + 1, "0123456789") + 1;
		while (end > dot + 1 && end[-1] == '0')
			memmove(end - 1, end, strlen(end) + 1), end--;
		if (end == dot + 1)
			memmove(dot, end, strlen(end) + 1);
	}
}

static void draw_bars(struct out *o, const struct svg_chart *c,
		      const struct layout *l, size_t k)
{
	const struct series *s = &c->s[k];
	const struct map *val = c->horizontal ? &l->x : &l->y;
	double span = c->horizontal ? l->bottom - l->top : l->right - l->left;
	double band = span / (double)c->ncats, base = px(val, base_value(val));
	size_t nbars, slot = bar_slot(c, k, &nbars);

	if (c->overlap)
		nbars = 1, slot = 0;
	double bw = band * 0.8 / (double)(nbars ? nbars : 1);
	char buf[64];

	for (size_t i = 0; i < s->n; i++) {
		double off = (c->horizontal ? l->top : l->left) +
			     band * (double)i + band * 0.1 + bw * (double)slot;
		double v = s->y[i], end;

		if (!in_domain(val, v)) {
			if (c->overlap)
				continue;
			putf(
			    o,
			    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#666\"%s>n/a</text>",
			    c->horizontal ? base + 4 : off + bw / 2,
			    c->horizontal ? off + bw / 2 + 3 : base - 4,
			    c->horizontal ? "" : " text-anchor=\"middle\"");
			continue;
		}
		end = px(val, v);
		put(o, "<rect");
		if (c->horizontal)
			putf(
			    o,
			    " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			    fmin(base, end), off, fabs(end - base), bw);
		else
			putf(
			    o,
			    " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			    off, fmin(base, end), bw, fabs(end - base));
		putf(o, " fill=\"%s\" fill-opacity=\"%.2g\"", s->st.colour,
		     s->st.opacity > 0 ? s->st.opacity : 0.75);
		stroke_attrs(o, &(struct svg_style){ s->st.colour, s->st.dash,
						     SVG_MARK_NONE, 1, 0 });
		put(o, "/>");
		/* the type's marker inside the end of the bar, for grey scale */
		if (fabs(end - base) >= 14 && bw >= 9) {
			if (c->horizontal)
				marker(o, s->st.mark,
				       end + (end > base ? -8 : 8),
				       off + bw / 2, "#ffffff");
			else
				marker(o, s->st.mark, off + bw / 2,
				       end + (end < base ? 8 : -8), "#ffffff");
		}
		if (bw < 16 && !c->horizontal)
			continue;
		bar_label(v, val->unit, buf, sizeof(buf));
		if (c->horizontal)
			putf(
			    o,
			    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>",
			    end + 8, off + bw / 2 + 3.5, buf);
		else
			putf(
			    o,
			    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">%s</text>",
			    off + bw / 2, end - 4, buf);
	}
}

static void draw_series(struct out *o, const struct svg_chart *c,
			const struct layout *l)
{
	for (size_t k = 0; k < c->ns; k++) {
		const struct series *s = &c->s[k];

		put(o, "<g class=\"series\" data-series=\"");
		put_text(o, s->name, 0);
		put(o, "\"");
		data_values(o, s);
		put(o, ">");
		if (s->kind == SVG_BARS) {
			if (l->bars)
				draw_bars(o, c, l, k);
		} else {
			draw_xy_series(o, l, s);
		}
		put(o, "</g>\n");
	}
}

/* Gridlines, ticks and tick labels of the numeric axes; an x label that
 * would overlap the one before it is left out (its gridline stays). */
static void draw_value_axis(struct out *o, const struct layout *l, int is_y)
{
	const struct map *m = is_y ? &l->y : &l->x;
	double last_right = -INFINITY;
	char buf[64];

	for (size_t i = 0; i < m->nticks; i++) {
		double p = px(m, m->ticks[i]), w, left;
		int end;

		svg_tick_label(m->ticks[i], m->unit, m->div, m->step, buf,
			       sizeof(buf));
		if (is_y) {
			putf(
			    o,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			    l->left, p, l->right, p, l->left - 6, p + 4, buf);
			continue;
		}
		putf(
		    o,
		    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>",
		    p, l->top, p, l->bottom);
		w = (double)strlen(buf) * CHAR_W;
		end = p + w / 2 > l->w - 2;
		left = end ? p - w : p - w / 2;
		if (left < last_right + 6) {
			put(o, "\n");
			continue;
		}
		last_right = left + w;
		putf(
		    o,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
		    p, l->bottom + 16, end ? "end" : "middle", buf);
	}
}

static void draw_category_axis(struct out *o, const struct svg_chart *c,
			       const struct layout *l)
{
	double span = c->horizontal ? l->bottom - l->top : l->right - l->left;
	double band = span / (double)c->ncats;
	size_t fit = (size_t)fmax(3, band / CHAR_W - 1);

	for (size_t i = 0; i < c->ncats; i++) {
		double mid = (c->horizontal ? l->top : l->left) +
			     band * ((double)i + 0.5);

		if (c->horizontal)
			putf(o,
			     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			     l->left - 6, mid + 4);
		else
			putf(
			    o,
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			    mid, l->bottom + 16);
		put_text(o, c->cats[i], c->horizontal ? 40 : fit);
		put(o, "</text>\n");
	}
}

static void draw_axes(struct out *o, const struct svg_chart *c,
		      const struct layout *l)
{
	double mid_y = (l->top + l->bottom) / 2,
	       mid_x = (l->left + l->right) / 2;

	if (!l->bars || c->horizontal)
		draw_value_axis(o, l, 0);
	if (!l->bars || !c->horizontal)
		draw_value_axis(o, l, 1);
	if (l->bars)
		draw_category_axis(o, c, l);
	putf(
	    o,
	    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
	    l->left, l->top, l->right - l->left, l->bottom - l->top);
	putf(
	    o,
	    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">",
	    mid_x, l->bottom + 36);
	put_text(o, c->ax[0].label, 100);
	putf(
	    o,
	    "</text>\n<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\" transform=\"rotate(-90 14 %.1f)\">",
	    mid_y, mid_y);
	put_text(o, c->ax[1].label, 60);
	put(o, "</text>\n");
}

static void draw_notes(struct out *o, const struct svg_chart *c,
		       const struct layout *l)
{
	size_t rule = 0;

	for (size_t i = 0; i < c->nnotes; i++) {
		const struct note *n = &c->notes[i];
		int has_y = isfinite(n->y);
		double x, y, frac;
		const char *anchor;

		if (!in_domain(&l->x, n->x) ||
		    (has_y && !in_domain(&l->y, n->y)))
			continue;
		x = px(&l->x, n->x);
		frac = (x - l->left) / (l->right - l->left);
		anchor = frac > 0.6 ? "end" : "start";
		put(o, "<g class=\"annotation\" data-x=\"");
		number(o, n->x);
		if (has_y) {
			put(o, "\" data-y=\"");
			number(o, n->y);
		}
		put(o, "\">");
		if (has_y) {
			y = px(&l->y, n->y);
			putf(
			    o,
			    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\"/>",
			    x, y);
			y += y - l->top < 30 ? 18 : -10;
		} else {
			putf(
			    o,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-dasharray=\"3 3\"/>",
			    x, l->top, x, l->bottom);
			y = l->top + 14 + 15 * (double)(rule++ % 6);
		}
		putf(
		    o,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"11\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
		    x + (frac > 0.6 ? -6 : 6), y, anchor);
		put_text(o, n->text, 90);
		put(o, "</text></g>\n");
	}
}

static void legend_swatch(struct out *o, const struct series *s, double x,
			  double y)
{
	if (s->kind == SVG_BARS || s->kind == SVG_AREA) {
		putf(
		    o,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"10\" fill=\"%s\" fill-opacity=\"%.2g\"",
		    x, y - 5, s->st.colour,
		    s->st.opacity > 0	  ? s->st.opacity
		    : s->kind == SVG_BARS ? 0.75
					  : 0.25);
		stroke_attrs(o, &(struct svg_style){ s->st.colour, s->st.dash,
						     SVG_MARK_NONE, 1.5, 0 });
		put(o, "/>");
	} else if (s->kind == SVG_LINE) {
		putf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
		     x, y, x + 28, y);
		stroke_attrs(o, &s->st);
		put(o, "/>");
	}
	marker(o, s->st.mark, x + 14, y,
	       s->kind == SVG_BARS ? "#ffffff" : s->st.colour);
}

static void draw_legend(struct out *o, const struct svg_chart *c,
			const struct layout *l)
{
	double x = 0, y = l->legend_y - LEGEND_ROW, width = l->right - l->left;

	if (!l->legend_rows)
		return;
	put(o, "<g class=\"legend\">");
	for (size_t i = 0; i < c->ns; i++) {
		const struct series *s = &c->s[i];
		double w = legend_item_w(s->name);

		if (!*s->name)
			continue;
		if (y < l->legend_y || (x > 0 && x + w > width)) {
			y += LEGEND_ROW;
			x = 0;
		}
		legend_swatch(o, s, l->left + x, y);
		putf(o, "<text x=\"%.1f\" y=\"%.1f\">", l->left + x + 34,
		     y + 4);
		put_text(o, s->name, LEGEND_CHARS);
		put(o, "</text>");
		x += w;
	}
	put(o, "</g>\n");
}

int svg_chart_render(const struct svg_chart *c, struct sbuf *sb)
{
	struct out o = { sb, 0 };
	struct layout l;

	layout(c, &l);
	putf(
	    &o,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\""
	    " role=\"img\" aria-labelledby=\"%s-title %s-desc\" class=\"ebsize-chart\" data-chart=\"%s\""
	    " font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">\n",
	    l.w, l.h, l.w, l.h, c->id, c->id, c->id);
	putf(&o, "<title id=\"%s-title\">", c->id);
	put_text(&o, c->title, 0);
	putf(&o, "</title>\n<desc id=\"%s-desc\">", c->id);
	put_text(&o, c->desc, 0);
	put(&o, "</desc>\n");
	putf(&o, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", l.w,
	     l.h);
	put(&o,
	    "<text x=\"14\" y=\"24\" font-size=\"15\" font-weight=\"bold\">");
	put_text(&o, c->title, 84);
	put(&o, "</text>\n");
	putf(
	    &o,
	    "<clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n",
	    c->id, l.left - 6, l.top - 6, l.right - l.left + 12,
	    l.bottom - l.top + 12);
	draw_axes(&o, c, &l);
	putf(&o, "<g clip-path=\"url(#%s-clip)\">\n", c->id);
	draw_series(&o, c, &l);
	put(&o, "</g>\n");
	draw_notes(&o, c, &l);
	draw_legend(&o, c, &l);
	put(&o, "</svg>\n");
	return o.err;
}
