/*
 * out.c - render result documents as table, CSV, JSON or Markdown, and
 * hand workbooks to xlsx_export.c.
 *
 * Builds nothing itself: commands fill struct out_doc through out.h.  JSON
 * is written by hand (cJSON stays in the parsers): strings are escaped and
 * invalid UTF-8 is replaced, numbers are written so they read back exactly,
 * non-finite numbers become null.  CSV is one table, quoted per RFC 4180,
 * with spreadsheet formulas in text cells defused.
 *
 * Text from outside (names, tags, labels) never drives a terminal: no
 * format writes a control character raw.  C0 controls, DEL and the C1
 * controls (U+0080..U+009F, in their UTF-8 form too) are shown as \xHH,
 * \r, \n, \t or \u00HH (util.c's sbuf_add_visible) in table and md, and
 * in CSV, which keeps only newline and tab (inside quotes); JSON escapes
 * them as \u00HH.  Markdown also escapes what would make markup (HTML
 * tags and entities, links, emphasis, code) so that a pasted table
 * renders the text.
 */
#include "ebsize/out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/util.h"
#include "out_internal.h"

int out_format_parse(const char *s, enum out_format *f)
{
	static const char *names[] = { "table", "csv", "json", "md", "xlsx" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*f = (enum out_format)i;
			return 0;
		}
	}
	return -1;
}

struct out_doc *out_doc_new(void)
{
	return xcalloc(1, sizeof(struct out_doc));
}

static void chart_free(struct out_chart *c)
{
	free(c->title);
	free(c->x_key);
	free(c->x_title);
	free(c->y_title);
	for (size_t i = 0; i < c->nseries; i++)
		free(c->y_keys[i]);
	free(c);
}

static void table_free(struct out_table *t)
{
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].key);
		free(t->cols[i].title);
		free(t->cols[i].formula);
	}
	for (size_t i = 0; i < t->ncharts; i++)
		chart_free(t->charts[i]);
	for (size_t i = 0; i < t->ncells; i++) {
		free(t->cells[i].owned);
		if (t->cells[i].sub)
			table_free(t->cells[i].sub);
		for (size_t j = 0; j < t->cells[i].nlist; j++)
			free(t->cells[i].list[j]);
		free(t->cells[i].list);
	}
	free(t->cols);
	free(t->cells);
	free(t->name);
	free(t->title);
	free(t->sheet);
	free(t);
}

void out_doc_free(struct out_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->n; i++)
		table_free(doc->t[i]);
	for (size_t i = 0; i < doc->nnotes; i++)
		free(doc->notes[i]);
	for (size_t i = 0; i < doc->nimages; i++)
		free(doc->images[i]);
	for (size_t i = 0; i < doc->nabout; i++)
		free(doc->about[i]);
	for (size_t i = 0; i < doc->nnames; i++)
		free(doc->names[i]);
	free(doc->names);
	free(doc->t);
	free(doc->notes);
	free(doc->images);
	free(doc->about);
	free(doc);
}

static struct out_table *add_section(struct out_doc *doc, const char *name,
				     const char *title, int is_record)
{
	struct out_table *t = xcalloc(1, sizeof(*t));

	t->name = name ? xstrdup(name) : NULL;
	t->title = title ? xstrdup(title) : NULL;
	t->is_record = is_record;
	xgrow((void **)&doc->t, &doc->alloc, doc->n + 1, sizeof(*doc->t));
	doc->t[doc->n++] = t;
	if (is_record)
		t->nrows = 1;
	return t;
}

struct out_table *out_record(struct out_doc *doc, const char *name,
			     const char *title)
{
	return add_section(doc, name, title, 1);
}

struct out_table *out_list(struct out_doc *doc, const char *name,
			   const char *title)
{
	return add_section(doc, name, title, 0);
}

void out_doc_notes_key(struct out_doc *doc)
{
	doc->notes_key = 1;
}

void out_note(struct out_doc *doc, const char *fmt, ...)
{
	va_list ap;

	xgrow((void **)&doc->notes, &doc->anotes, doc->nnotes + 1,
	      sizeof(*doc->notes));
	va_start(ap, fmt);
	doc->notes[doc->nnotes++] = xvstrfmt(fmt, ap);
	va_end(ap);
}

void out_md_image(struct out_doc *doc, const char *alt, const char *path)
{
	xgrow((void **)&doc->images, &doc->aimages, doc->nimages + 2,
	      sizeof(*doc->images));
	doc->images[doc->nimages++] = xstrdup(alt);
	doc->images[doc->nimages++] = xstrdup(path);
}

void out_json_only(struct out_table *t)
{
	t->json_only = 1;
}

void out_human_only(struct out_table *t)
{
	t->human_only = 1;
}

void out_xlsx_only(struct out_table *t)
{
	t->xlsx_only = 1;
}

void out_main(struct out_table *t)
{
	t->is_main = 1;
}

void out_sheet(struct out_table *t, const char *sheet)
{
	free(t->sheet);
	t->sheet = xstrdup(sheet);
}

void out_about(struct out_doc *doc, const char *key, const char *fmt, ...)
{
	va_list ap;

	xgrow((void **)&doc->about, &doc->aabout, doc->nabout + 2,
	      sizeof(*doc->about));
	doc->about[doc->nabout++] = xstrdup(key);
	va_start(ap, fmt);
	doc->about[doc->nabout++] = xvstrfmt(fmt, ap);
	va_end(ap);
}

void out_name(struct out_doc *doc, const char *name, const char *ref)
{
	xgrow((void **)&doc->names, &doc->anames, doc->nnames + 2,
	      sizeof(*doc->names));
	doc->names[doc->nnames++] = xstrdup(name);
	doc->names[doc->nnames++] = xstrdup(ref);
}

size_t out_doc_nnotes(const struct out_doc *doc)
{
	return doc->nnotes;
}

const char *out_doc_note(const struct out_doc *doc, size_t i)
{
	return i < doc->nnotes ? doc->notes[i] : NULL;
}

long out_col_index(const struct out_table *t, const char *key)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].key, key))
			return (long)i;
	return -1;
}

/* Column key of t, which must have been declared: a slip is a bug. */
static struct column *declared_col(struct out_table *t, const char *key)
{
	long i = out_col_index(t, key);

	if (i < 0) {
		fprintf(stderr, "BUG: no column '%s' in section '%s'\n", key,
			t->name ? t->name : "result");
		abort();
	}
	return &t->cols[i];
}

void out_formula(struct out_table *t, const char *key, const char *tmpl)
{
	struct column *c = declared_col(t, key);

	free(c->formula);
	c->formula = xstrdup(tmpl);
}

char *out_formula_text(const char *s)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);

	sbuf_addstr(&sb, "\"");
	for (; *s; s++) {
		if (*s == '"')
			sbuf_addstr(&sb, "\"");
		sbuf_add(&sb, s, 1);
	}
	sbuf_addstr(&sb, "\"");
	return sbuf_detach(&sb, NULL);
}

struct out_chart *out_chart(struct out_table *t, enum out_chart_kind kind,
			    const char *title, const char *x_key)
{
	struct out_chart *c;

	declared_col(t, x_key);
	if (t->ncharts == OUT_MAX_CHARTS) {
		fprintf(stderr, "BUG: more than %d charts on one section\n",
			OUT_MAX_CHARTS);
		abort();
	}
	c = xcalloc(1, sizeof(*c));
	c->kind = kind;
	c->title = xstrdup(title);
	c->x_key = xstrdup(x_key);
	t->charts[t->ncharts++] = c;
	return c;
}

void out_chart_series(struct out_chart *c, const char *y_key)
{
	if (c->nseries == OUT_MAX_SERIES) {
		fprintf(stderr, "BUG: more than %d series in one chart\n",
			OUT_MAX_SERIES);
		abort();
	}
	c->y_keys[c->nseries++] = xstrdup(y_key);
}

void out_chart_axes(struct out_chart *c, const char *x_title,
		    const char *y_title)
{
	free(c->x_title);
	free(c->y_title);
	c->x_title = x_title ? xstrdup(x_title) : NULL;
	c->y_title = y_title ? xstrdup(y_title) : NULL;
}

void out_col(struct out_table *t, const char *key, const char *title,
	     enum out_style style)
{
	xgrow((void **)&t->cols, &t->acols, t->ncols + 1, sizeof(*t->cols));
	t->cols[t->ncols].key = xstrdup(key);
	t->cols[t->ncols].title = xstrdup(title ? title : key);
	t->cols[t->ncols].style = style;
	t->cols[t->ncols].formula = NULL;
	t->ncols++;
}

void out_row(struct out_table *t)
{
	t->nrows++;
}

static struct cell *next_cell(struct out_table *t)
{
	struct cell *c;

	xgrow((void **)&t->cells, &t->acells, t->ncells + 1, sizeof(*t->cells));
	c = &t->cells[t->ncells++];
	memset(c, 0, sizeof(*c));
	memcpy(c->ccy, t->ccy, sizeof(c->ccy));
	return c;
}

/* A 3-letter currency code into dst ("" for NULL or anything else). */
static void set_ccy(char dst[4], const char *code)
{
	memset(dst, 0, 4);
	if (code && strlen(code) == 3)
		memcpy(dst, code, 3);
}

void out_table_currency(struct out_table *t, const char *code)
{
	set_ccy(t->ccy, code);
}

void out_money(struct out_table *t, double v, const char *code)
{
	out_num(t, v);
	set_ccy(t->cells[t->ncells - 1].ccy, code);
}

void out_kv_money(struct out_table *t, const char *key, const char *title,
		  double v, const char *code)
{
	out_col(t, key, title, OUT_USD);
	out_money(t, v, code);
}

void out_str(struct out_table *t, const char *s)
{
	struct cell *c = next_cell(t);

	if (s) {
		c->kind = CELL_STR;
		c->s = c->owned = xstrdup(s);
	}
}

void out_str_ref(struct out_table *t, const char *s)
{
	struct cell *c = next_cell(t);

	if (s) {
		c->kind = CELL_STR;
		c->s = s;
	}
}

void out_num(struct out_table *t, double v)
{
	struct cell *c = next_cell(t);

	c->kind = isfinite(v) ? CELL_NUM : CELL_NULL;
	c->d = v;
}

void out_int(struct out_table *t, long long v)
{
	struct cell *c = next_cell(t);

	c->kind = CELL_INT;
	c->i = v;
}

void out_bool(struct out_table *t, int v)
{
	struct cell *c = next_cell(t);

	c->kind = CELL_BOOL;
	c->i = !!v;
}

void out_null(struct out_table *t)
{
	next_cell(t);
}

void out_strv(struct out_table *t, const char *const *v, size_t n)
{
	struct cell *c = next_cell(t);
	size_t len = 1;

	c->kind = CELL_LIST;
	c->list = xcalloc(n ? n : 1, sizeof(*c->list));
	c->nlist = n;
	for (size_t i = 0; i < n; i++) {
		c->list[i] = xstrdup(v[i]);
		len += strlen(v[i]) + 1;
	}
	c->owned = xmalloc(len);
	c->owned[0] = '\0';
	for (size_t i = 0, o = 0; i < n; i++)
		o += (size_t)snprintf(c->owned + o, len - o, "%s%s",
				      i ? "," : "", v[i]);
	c->s = c->owned;
}

struct out_table *out_nested(struct out_table *t, const char *display)
{
	struct cell *c = next_cell(t);

	c->kind = CELL_NESTED;
	c->s = c->owned = xstrdup(display ? display : "");
	c->sub = xcalloc(1, sizeof(*c->sub));
	return c->sub;
}

void out_kv_str(struct out_table *t, const char *key, const char *title,
		const char *v)
{
	out_col(t, key, title, OUT_TEXT);
	out_str(t, v);
}

void out_kv_num(struct out_table *t, const char *key, const char *title,
		enum out_style style, double v)
{
	out_col(t, key, title, style);
	out_num(t, v);
}

void out_kv_int(struct out_table *t, const char *key, const char *title,
		long long v)
{
	out_col(t, key, title, OUT_INT);
	out_int(t, v);
}

void out_kv_bool(struct out_table *t, const char *key, const char *title, int v)
{
	out_col(t, key, title, OUT_BOOL);
	out_bool(t, v);
}

void out_kv_null(struct out_table *t, const char *key, const char *title,
		 enum out_style style)
{
	out_col(t, key, title, style);
	out_null(t);
}

void out_rows_on_demand(struct out_table *t, size_t nrows, out_fill_fn fill,
			void *arg)
{
	t->nrows = nrows;
	t->fill = fill;
	t->fill_arg = arg;
	t->filled_row = (size_t)-1;
	t->self = t;
}

/* Replace the one materialised row of an on-demand table by row. */
static void fill_row(struct out_table *t, size_t row)
{
	for (size_t i = 0; i < t->ncells; i++) {
		free(t->cells[i].owned);
		for (size_t j = 0; j < t->cells[i].nlist; j++)
			free(t->cells[i].list[j]);
		free(t->cells[i].list);
	}
	t->ncells = 0;
	t->fill(t, row, t->fill_arg);
	t->filled_row = row;
}

const struct cell *out_cell_at(const struct out_table *t, size_t row,
			       size_t col)
{
	static const struct cell empty;
	size_t idx = row * t->ncols + col;

	if (t->fill) {
		if (row != t->filled_row)
			fill_row(t->self, row);
		idx = col;
	}

	return idx < t->ncells ? &t->cells[idx] : &empty;
}

/* ------------------------------------------------------------ numbers */

/* Decimal text of v (the common case of machine(); no printf). */
static void fmt_int(char *buf, size_t n, long long v)
{
	char tmp[24];
	size_t i = sizeof(tmp);
	unsigned long long u =
	    v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	tmp[--i] = '\0';
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	if (n > sizeof(tmp) - i)
		memcpy(buf, tmp + i, sizeof(tmp) - i);
	else if (n)
		buf[0] = '\0';
}

/*
 * Fast path of out_fmt_exact for money-like values: when v is the double
 * nearest to r / 10^6 (r an integer, 1e-4 <= |v| < 1e9), print that
 * decimal with trailing zeros trimmed.  It is the text "%.15g" gives (at
 * most 15 significant digits, no exponent in that range), and it reads
 * back as v because IEEE division r / 10^6 is correctly rounded, as strtod
 * is.  Returns 0 when v is not such a value.
 */
static int fmt_decimal(char *buf, size_t n, double v)
{
	long long r, ip;
	unsigned long long frac;
	char ibuf[24], fbuf[8];
	int d = 6;

	if (!(fabs(v) < 1e9) || fabs(v) < 1e-4)
		return 0;
	r = llround(v * 1e6);
	if ((double)r / 1e6 != v)
		return 0;
	ip = r / 1000000;
	frac = (unsigned long long)llabs(r % 1000000);
	fmt_int(ibuf, sizeof(ibuf), ip);
	for (int j = d - 1; j >= 0; j--, frac /= 10)
		fbuf[j] = (char)('0' + frac % 10);
	while (d > 0 && fbuf[d - 1] == '0')
		d--;
	fbuf[d] = '\0';
	xsnprintf(buf, n, "%s%s%s%s", v < 0 && ip == 0 ? "-" : "", ibuf,
		  d ? "." : "", fbuf);
	return 1;
}

void out_fmt_exact(char *buf, size_t n, double v)
{
	double back;

	if (!isfinite(v)) {
		xsnprintf(buf, n, "null");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		fmt_int(buf, n, (long long)v);
		return;
	}
	if (fmt_decimal(buf, n, v))
		return;
	for (int prec = 15; prec <= 17; prec++) {
		xsnprintf(buf, n, "%.*g", prec, v);
		back = strtod(buf, NULL);
		if (back == v)
			return;
	}
}

/* v rounded to `decimals` places (half away from zero), when that fits a
 * double exactly enough to matter; larger magnitudes are left alone. */
static double round_to(double v, int decimals)
{
	double scale = pow(10.0, decimals), x = v * scale;

	if (!(fabs(x) < 9007199254740992.0)) /* 2^53: already integral */
		return v;
	x = round(x) / scale;
	return x == 0 ? 0 : x; /* no "-0" */
}

void out_fmt_machine(char *buf, size_t n, enum out_style st, double v)
{
	int decimals;

	switch (st) {
	case OUT_PCT:
		decimals = 2; /* a hundredth of a percent */
		break;
	case OUT_DURATION:
		decimals = 0; /* whole seconds */
		break;
	case OUT_USD:
	case OUT_EXACT:
	case OUT_TEXT:
	case OUT_BOOL:
	case OUT_INT:
	case OUT_NUM0:
	case OUT_NUM1:
	case OUT_NUM2:
	case OUT_NUM3:
	default:
		/* money to a millionth of a dollar; rates, counts and sizes
		 * to a millionth too (fio's own resolution): far below what
		 * is measured or billed, far above binary noise */
		decimals = 6;
		break;
	}
	out_fmt_exact(buf, n, isfinite(v) ? round_to(v, decimals) : v);
}

void out_fmt_duration(char *buf, size_t n, double s)
{
	double a = fabs(s);

	if (!isfinite(s))
		xsnprintf(buf, n, "-");
	else if (a < 600)
		xsnprintf(buf, n, "%.0f s", s);
	else if (a < 90 * 60)
		xsnprintf(buf, n, "%.0f min", s / 60);
	else if (a < 48 * 3600)
		xsnprintf(buf, n, "%.1f h", s / 3600);
	else
		xsnprintf(buf, n, "%.1f d", s / 86400);
}

/* Insert thousands separators into the integer part of a decimal string. */
static void group_thousands(char *buf, size_t n)
{
	char tmp[64];
	const char *s = buf;
	size_t o = 0, digits = 0, lead;

	if (*s == '-')
		tmp[o++] = *s++;
	while (s[digits] >= '0' && s[digits] <= '9')
		digits++;
	if (digits > 30 || strlen(buf) > 40)
		return; /* absurd magnitudes stay ungrouped, never cut */
	lead = digits % 3 ? digits % 3 : 3;
	for (size_t i = 0; i < digits && o < sizeof(tmp) - 2; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			tmp[o++] = ',';
		tmp[o++] = s[i];
	}
	s += digits;
	while (*s && o < sizeof(tmp) - 1)
		tmp[o++] = *s++;
	tmp[o] = '\0';
	xsnprintf(buf, n, "%s", tmp);
}

void out_fmt_usd(char *buf, size_t n, double v)
{
	char num[64];
	double a = fabs(v);

	/* cents rounded half away from zero, as people round money */
	a = round(a * 100.0) / 100.0;
	xsnprintf(num, sizeof(num), "%.2f", a);
	group_thousands(num, sizeof(num));
	xsnprintf(buf, n, "%s$%s", v < 0 && a >= 0.005 ? "-" : "", num);
}

void out_fmt_money(char *buf, size_t n, double v, const char *code)
{
	char num[64];
	double a = fabs(v);

	if (!code || !*code || !strcmp(code, "USD")) {
		out_fmt_usd(buf, n, v);
		return;
	}
	a = round(a * 100.0) / 100.0;
	xsnprintf(num, sizeof(num), "%.2f", a);
	group_thousands(num, sizeof(num));
	xsnprintf(buf, n, "%s %s%s", code, v < 0 && a >= 0.005 ? "-" : "", num);
}

void out_cell_display(const struct cell *c, enum out_style st, char *buf,
		      size_t n)
{
	double v = 0;
	int dec;

	switch (c->kind) {
	case CELL_NULL: xsnprintf(buf, n, "-"); return;
	case CELL_STR:
	case CELL_NESTED:
	case CELL_LIST: xsnprintf(buf, n, "%s", c->s); return;
	case CELL_BOOL: xsnprintf(buf, n, "%s", c->i ? "yes" : "no"); return;
	case CELL_INT: v = (double)c->i; break;
	case CELL_NUM: v = c->d; break;
	}
	switch (st) {
	case OUT_USD: out_fmt_money(buf, n, v, c->ccy); return;
	case OUT_PCT: xsnprintf(buf, n, "%.1f %%", v); return;
	case OUT_EXACT: out_fmt_machine(buf, n, OUT_EXACT, v); return;
	case OUT_DURATION: out_fmt_duration(buf, n, v); return;
	case OUT_NUM1: dec = 1; break;
	case OUT_NUM2: dec = 2; break;
	case OUT_NUM3: dec = 3; break;
	case OUT_TEXT:
	case OUT_BOOL:
	case OUT_NUM0:
	case OUT_INT:
	default: dec = 0; break;
	}
	if (c->kind == CELL_INT) {
		xsnprintf(buf, n, "%lld", c->i);
	} else {
		xsnprintf(buf, n, "%.*f", dec, v);
		/* "-0" is not a number anyone wants to read */
		if (!strcmp(buf, "-0"))
			xsnprintf(buf, n, "0");
	}
	if (st != OUT_TEXT)
		group_thousands(buf, n);
}

/* Machine text of a cell of a column of style st: out_fmt_machine for
 * numbers, no grouping. */
static void machine(const struct cell *c, enum out_style st, char *buf,
		    size_t n)
{
	switch (c->kind) {
	case CELL_NULL: buf[0] = '\0'; break;
	case CELL_STR:
	case CELL_LIST:
	case CELL_NESTED: xsnprintf(buf, n, "%s", c->s); break;
	case CELL_BOOL: xsnprintf(buf, n, "%s", c->i ? "true" : "false"); break;
	case CELL_INT: fmt_int(buf, n, c->i); break;
	case CELL_NUM: out_fmt_machine(buf, n, st, c->d); break;
	}
}

static int is_numeric_style(enum out_style st)
{
	return st != OUT_TEXT && st != OUT_BOOL;
}

/* Display width in terminal columns (UTF-8 code points). */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

/* ------------------------------------------------------------ JSON */

size_t out_utf8_seq(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

/*
 * JSON output is byte-at-a-time through putc_unlocked (an inline buffer
 * store; render is single-threaded): for large results (a 100,000-volume
 * scan) the per-call cost of fputc/fwrite dominated.
 */
static void jputs(FILE *f, const char *s)
{
	while (*s)
		putc_unlocked(*s++, f);
}

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char u[8];
	size_t n;

	putc_unlocked('"', f);
	while (*p) {
		if (*p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\') {
			putc_unlocked(*p++, f);
		} else if (*p == '"' || *p == '\\') {
			putc_unlocked('\\', f);
			putc_unlocked(*p++, f);
		} else if (*p == '\n') {
			jputs(f, "\\n");
			p++;
		} else if (*p == '\t') {
			jputs(f, "\\t");
			p++;
		} else if (*p == '\r') {
			jputs(f, "\\r");
			p++;
		} else if (*p < 0x20 || *p == 0x7F) {
			snprintf(u, sizeof(u), "\\u%04x", *p++);
			jputs(f, u);
		} else if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) {
			/* a C1 control (U+0080..U+009F): valid JSON raw, but
			 * a terminal acts on it (U+009B is CSI) */
			snprintf(u, sizeof(u), "\\u%04x", p[1]);
			jputs(f, u);
			p += 2;
		} else if ((n = out_utf8_seq(p)) != 0) {
			while (n--)
				putc_unlocked(*p++, f);
		} else {
			jputs(f, "\\ufffd");
			p++;
		}
	}
	putc_unlocked('"', f);
}

static void json_nested(FILE *f, const struct out_table *sub);

static void json_cell(FILE *f, const struct cell *c, enum out_style st)
{
	char buf[64];

	if (c->kind == CELL_NESTED) {
		json_nested(f, c->sub);
	} else if (c->kind == CELL_STR) {
		json_string(f, c->s);
	} else if (c->kind == CELL_LIST) {
		putc_unlocked('[', f);
		for (size_t i = 0; i < c->nlist; i++) {
			if (i)
				putc_unlocked(',', f);
			json_string(f, c->list[i]);
		}
		putc_unlocked(']', f);
	} else if (c->kind == CELL_NULL) {
		jputs(f, "null");
	} else {
		machine(c, st, buf, sizeof(buf));
		jputs(f, buf);
	}
}

/* Length of the common dotted prefix (in components) of two keys. */
static size_t common_depth(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t i = 0;

	while (i < na && i < nb && !strcmp(a[i], b[i]))
		i++;
	return i;
}

static size_t split_key(char *key, char **parts, size_t max)
{
	size_t n = 0;
	char *s = key;

	while (n < max) {
		char *dot = strchr(s, '.');

		parts[n++] = s;
		if (!dot)
			break;
		*dot = '\0';
		s = dot + 1;
	}
	return n;
}

#define MAX_DEPTH 8

/* The dotted keys of a table's columns, split once per render. */
struct json_keys {
	char **copy;   /* one split copy per column */
	char **quoted; /* "\"last part\":" per column, escaped */
	char *(*parts)[MAX_DEPTH];
	size_t *np;
	size_t n;
};

/* Would json_string copy s byte for byte (printable ASCII, no '"' or
 * '\\')? */
static int json_plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7F ||
		    *s == '"' || *s == '\\')
			return 0;
	return 1;
}

static void json_keys_init(struct json_keys *k, const struct out_table *t)
{
	k->n = t->ncols;
	k->copy = xcalloc(k->n ? k->n : 1, sizeof(*k->copy));
	k->quoted = xcalloc(k->n ? k->n : 1, sizeof(*k->quoted));
	k->parts = xcalloc(k->n ? k->n : 1, sizeof(*k->parts));
	k->np = xcalloc(k->n ? k->n : 1, sizeof(*k->np));
	for (size_t c = 0; c < k->n; c++) {
		char *buf = NULL;
		const char *last;
		size_t len = 0;
		FILE *m;

		k->copy[c] = xstrdup(t->cols[c].key);
		k->np[c] = split_key(k->copy[c], k->parts[c], MAX_DEPTH);
		/* a key json_string would copy as it is: no stream needed (a
		 * stream per column was most of a small document's render) */
		last = k->parts[c][k->np[c] - 1];
		if (json_plain(last)) {
			len = strlen(last);
			buf = xmalloc(len + 4);
			buf[0] = '"';
			memcpy(buf + 1, last, len);
			memcpy(buf + 1 + len, "\":", 3);
			k->quoted[c] = buf;
			continue;
		}
		m = open_memstream(&buf, &len);
		if (m) {
			json_string(m, k->parts[c][k->np[c] - 1]);
			putc(':', m);
			fclose(m);
		}
		k->quoted[c] = buf;
	}
}

static void json_keys_release(struct json_keys *k)
{
	for (size_t c = 0; c < k->n; c++) {
		free(k->copy[c]);
		free(k->quoted[c]);
	}
	free(k->copy);
	free(k->quoted);
	free(k->parts);
	free(k->np);
}

/* Write the fields of one row, nesting dotted keys.  Fields are written as
 * members of an already-open object; *first tracks comma placement. */
static void json_row_fields(FILE *f, const struct out_table *t, size_t row,
			    int *first, const struct json_keys *k)
{
	char *const *prev = NULL;
	size_t nprev = 0; /* open nested objects = nprev - 1 parts */
	int firsts[MAX_DEPTH + 1];

	firsts[0] = *first;
	for (size_t c = 0; c < k->n; c++) {
		char *const *parts = k->parts[c];
		size_t np = k->np[c], keep, open_prev, open_now;

		open_prev = nprev ? nprev - 1 : 0;
		open_now = np - 1;
		keep =
		    nprev ? common_depth(prev, open_prev, parts, open_now) : 0;
		for (size_t d = open_prev; d > keep; d--)
			putc_unlocked('}', f);
		for (size_t d = keep; d < open_now; d++) {
			if (!firsts[d])
				putc_unlocked(',', f);
			firsts[d] = 0;
			json_string(f, parts[d]);
			jputs(f, ":{");
			firsts[d + 1] = 1;
		}
		if (!firsts[open_now])
			putc_unlocked(',', f);
		firsts[open_now] = 0;
		if (k->quoted[c]) {
			jputs(f, k->quoted[c]);
		} else {
			json_string(f, parts[np - 1]);
			putc_unlocked(':', f);
		}
		json_cell(f, out_cell_at(t, row, c), t->cols[c].style);
		prev = parts;
		nprev = np;
	}
	for (size_t d = nprev ? nprev - 1 : 0; d > 0; d--)
		putc_unlocked('}', f);
	*first = firsts[0];
}

/* A nested list (an option's evidence) as an array of objects. */
static void json_nested(FILE *f, const struct out_table *sub)
{
	struct json_keys k;

	json_keys_init(&k, sub);
	putc_unlocked('[', f);
	for (size_t r = 0; r < sub->nrows; r++) {
		int rf = 1;

		jputs(f, r ? ",{" : "{");
		json_row_fields(f, sub, r, &rf, &k);
		putc_unlocked('}', f);
	}
	putc_unlocked(']', f);
	json_keys_release(&k);
}

static void render_json(const struct out_doc *doc, FILE *f)
{
	int first = 1;

	fputc('{', f);
	for (size_t i = 0; i < doc->n; i++) {
		const struct out_table *t = doc->t[i];
		struct json_keys k;

		if (t->human_only || t->xlsx_only)
			continue;
		json_keys_init(&k, t);
		if (t->is_record && !t->name) {
			json_row_fields(f, t, 0, &first, &k);
			json_keys_release(&k);
			continue;
		}
		if (!first)
			fputc(',', f);
		first = 0;
		json_string(f, t->name ? t->name : "rows");
		fputc(':', f);
		if (t->is_record) {
			int rf = 1;

			fputc('{', f);
			json_row_fields(f, t, 0, &rf, &k);
			fputc('}', f);
			json_keys_release(&k);
			continue;
		}
		fputc('[', f);
		for (size_t r = 0; r < t->nrows; r++) {
			int rf = 1;

			fputs(r ? ",{" : "{", f);
			json_row_fields(f, t, r, &rf, &k);
			fputc('}', f);
		}
		fputc(']', f);
		json_keys_release(&k);
	}
	if (doc->nnotes || doc->notes_key) {
		if (!first)
			fputc(',', f);
		fputs("\"notes\":[", f);
		for (size_t i = 0; i < doc->nnotes; i++) {
			if (i)
				fputc(',', f);
			json_string(f, doc->notes[i]);
		}
		fputc(']', f);
	}
	fputs("}\n", f);
}

/* ------------------------------------------------------------ CSV */

static void csv_field_raw(FILE *f, const char *s, int is_text)
{
	int quote = strpbrk(s, ",\"\r\n") != NULL;
	/* a text cell starting like a formula is defused with a quote mark */
	/* "-" alone (a placeholder) or "-5" cannot run; "=1+1" or "-1+cmd" can */
	int defuse = is_text && s[0] &&
		     (strchr("=@\t\r", s[0]) ||
		      (strchr("+-", s[0]) &&
		       strspn(s + 1, "0123456789.") != strlen(s + 1)));

	if (defuse)
		quote = 1;
	if (!quote) {
		jputs(f, s);
		return;
	}
	putc_unlocked('"', f);
	if (defuse)
		putc_unlocked('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			putc_unlocked('"', f);
		putc_unlocked(*s, f);
	}
	putc_unlocked('"', f);
}

/*
 * A CSV field: control characters but newline and tab made visible first
 * (\xHH, \r, \u00HH as sbuf_add_visible writes them), so that `cat` of
 * the file cannot drive a terminal; a backslash of the data itself is
 * written as it is (JSON carries the exact text).
 */
static void csv_field(FILE *f, const char *s, int is_text)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);

	if (!str_has_controls(s, 1)) {
		csv_field_raw(f, s, is_text);
		return;
	}
	sbuf_add_visible(&sb, s, 1);
	csv_field_raw(f, sb.buf ? sb.buf : "", is_text);
	sbuf_release(&sb);
}

static int csv_visible(const struct out_table *t)
{
	return !t->human_only && !t->xlsx_only;
}

static const char *section_name(const struct out_table *t)
{
	return t->name ? t->name : "result";
}

/* What --format csv writes: one section, the notes, or all records. */
struct csv_pick {
	const struct out_table *t; /* NULL: notes or all records */
	int notes;
};

/* The table CSV writes by default (struct csv_pick all zero: records). */
static struct csv_pick csv_main(const struct out_doc *doc)
{
	struct csv_pick p = { NULL, 0 };

	for (size_t i = 0; i < doc->n && !p.t; i++)
		if (csv_visible(doc->t[i]) && doc->t[i]->is_main)
			p.t = doc->t[i];
	for (size_t i = 0; i < doc->n && !p.t; i++)
		if (csv_visible(doc->t[i]) && !doc->t[i]->is_record)
			p.t = doc->t[i];
	return p;
}

static int has_notes(const struct out_doc *doc)
{
	return doc->nnotes || doc->notes_key;
}

/* The table called name; -1 when there is none. */
static int csv_find(const struct out_doc *doc, const char *name,
		    struct csv_pick *p)
{
	p->t = NULL;
	p->notes = 0;
	for (size_t i = 0; i < doc->n; i++)
		if (csv_visible(doc->t[i]) &&
		    !strcmp(section_name(doc->t[i]), name)) {
			p->t = doc->t[i];
			return 0;
		}
	if (has_notes(doc) && !strcmp(name, "notes")) {
		p->notes = 1;
		return 0;
	}
	return -1;
}

void out_table_names(const struct out_doc *doc, char *buf, size_t n)
{
	const char *names[64];
	size_t k = 0, o = 0;

	for (size_t i = 0; i < doc->n && k + 1 < ARRAY_SIZE(names); i++) {
		const char *name = section_name(doc->t[i]);
		int dup = 0;

		if (!csv_visible(doc->t[i]))
			continue;
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(names[j], name);
		if (!dup)
			names[k++] = name;
	}
	if (has_notes(doc))
		names[k++] = "notes";
	buf[0] = '\0';
	for (size_t i = 0; i < k && o < n; i++) {
		xsnprintf(buf + o, n - o, "%s%s",
			  !i	       ? ""
			  : i + 1 == k ? " or "
				       : ", ",
			  names[i]);
		o = strlen(buf);
	}
}

static void csv_cell(FILE *f, const struct cell *cl, enum out_style st)
{
	char buf[64];

	if (cl->kind == CELL_STR || cl->kind == CELL_NESTED ||
	    cl->kind == CELL_LIST) {
		csv_field(f, cl->s, 1);
	} else {
		machine(cl, st, buf, sizeof(buf));
		jputs(f, buf);
	}
}

static void csv_list(FILE *f, const struct out_table *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			putc_unlocked(',', f);
		csv_field(f, t->cols[c].key, 1);
	}
	if (t->ncols)
		jputs(f, "\r\n");
	for (size_t r = 0; r < t->nrows && t->ncols; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				putc_unlocked(',', f);
			csv_cell(f, out_cell_at(t, r, c), t->cols[c].style);
		}
		jputs(f, "\r\n");
	}
}

/*
 * Records as one row.  only NULL: every record, keys as JSON paths
 * ("monthly_usd.total"); else that record alone (the root record: all
 * root records), keys as they are.
 */
static void csv_records(FILE *f, const struct out_doc *doc,
			const struct out_table *only)
{
	int first = 1;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < doc->n; i++) {
			const struct out_table *t = doc->t[i];

			if (!csv_visible(t) || !t->is_record)
				continue;
			if (only && t != only && (only->name || t->name))
				continue;
			for (size_t c = 0; c < t->ncols; c++) {
				if (!first)
					putc_unlocked(',', f);
				first = 0;
				if (pass == 1) {
					csv_cell(f, out_cell_at(t, 0, c),
						 t->cols[c].style);
				} else if (t->name && !only) {
					char *key = xstrfmt("%s.%s", t->name,
							    t->cols[c].key);

					csv_field(f, key, 1);
					free(key);
				} else {
					csv_field(f, t->cols[c].key, 1);
				}
			}
		}
		if (!first)
			jputs(f, "\r\n");
		first = 1;
	}
}

static void csv_notes(FILE *f, const struct out_doc *doc)
{
	jputs(f, "note\r\n");
	for (size_t i = 0; i < doc->nnotes; i++) {
		csv_field(f, doc->notes[i], 1);
		jputs(f, "\r\n");
	}
}

/* One table of doc as CSV; EBS_ERR_USAGE when `table` names none. */
static int render_csv(const struct out_doc *doc, const char *table, FILE *f,
		      char *err)
{
	struct csv_pick p;

	if (!table) {
		p = csv_main(doc);
	} else if (csv_find(doc, table, &p)) {
		char names[512];

		out_table_names(doc, names, sizeof(names));
		return ebs_fail(err, EBS_ERR_USAGE,
				"unknown table '%s' (use %s)", table, names);
	}
	if (p.notes)
		csv_notes(f, doc);
	else if (!p.t || p.t->is_record)
		csv_records(f, doc, p.t);
	else
		csv_list(f, p.t);
	return EBS_OK;
}

/* ------------------------------------------------------------ table, md */

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

/*
 * s as the table and md formats show it: every control character visible
 * (newline and tab too: a cell stays one line), in sb; s itself when it
 * has none.
 */
static const char *shown(const char *s, struct sbuf *sb)
{
	if (!str_has_controls(s, 0))
		return s;
	sbuf_reset(sb);
	sbuf_add_visible(sb, s, 0);
	return sb->buf ? sb->buf : "";
}

static int ascii_alnum(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * Text in Markdown (GitHub's flavour: CommonMark and its tables) that
 * renders as exactly that text: HTML-significant characters as entities
 * (no tag, comment or entity of the input survives: `<script>`,
 * `<img onerror=...>`), and backslash escapes for the characters that
 * make markup inline -- `|` (a cell's end), `\`, brackets (so `[x](javascript:...)`
 * is no link), backquotes, `*`, `~`, and `_` unless between letters or
 * digits (where it cannot emphasise: snake_case stays readable).  Quotes
 * need nothing once no tag can open.  s is already free of control
 * characters (shown()).
 */
static void md_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", f); continue;
		case '>': fputs("&gt;", f); continue;
		case '&': fputs("&amp;", f); continue;
		case '_':
			if (p > s && ascii_alnum((unsigned char)p[-1]) &&
			    ascii_alnum((unsigned char)p[1]))
				break;
			/* fallthrough */
		case '|':
		case '\\':
		case '[':
		case ']':
		case '`':
		case '*':
		case '~': fputc('\\', f); break;
		default: break;
		}
		fputc(*p, f);
	}
}

/* One piece of human text: shown, then Markdown-escaped for md. */
static void human_text(FILE *f, const char *s, int md, struct sbuf *sb)
{
	const char *v = shown(s, sb);

	if (md)
		md_text(f, v);
	else
		fputs(v, f);
}

static void render_record(const struct out_table *t, FILE *f, int md)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);
	size_t w = 0;
	char buf[512];

	for (size_t c = 0; c < t->ncols; c++)
		if (text_width(shown(t->cols[c].title, &sb)) > w)
			w = text_width(shown(t->cols[c].title, &sb));
	if (md) {
		fputs("| field | value |\n|---|---|\n", f);
	}
	for (size_t c = 0; c < t->ncols; c++) {
		const struct cell *cl = out_cell_at(t, 0, c);

		out_cell_display(cl, t->cols[c].style, buf, sizeof(buf));
		if (md) {
			fputs("| ", f);
			human_text(f, t->cols[c].title, 1, &sb);
			fputs(" | ", f);
			human_text(f, buf, 1, &sb);
			fputs(" |\n", f);
		} else {
			const char *title = shown(t->cols[c].title, &sb);

			fprintf(f, "  %s:", title);
			pad(f, w - text_width(title) + 1);
			fprintf(f, "%s\n", shown(buf, &sb));
		}
	}
	sbuf_release(&sb);
}

static void render_list(const struct out_table *t, FILE *f, int md)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);
	size_t *w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));
	char buf[512];

	for (size_t c = 0; c < t->ncols; c++)
		w[c] = text_width(shown(t->cols[c].title, &sb));
	for (size_t r = 0; r < t->nrows && !md; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw;

			out_cell_display(out_cell_at(t, r, c), t->cols[c].style,
					 buf, sizeof(buf));
			if ((cw = text_width(shown(buf, &sb))) > w[c])
				w[c] = cw;
		}
	for (size_t c = 0; c < t->ncols; c++) {
		int right = is_numeric_style(t->cols[c].style);
		const char *title = shown(t->cols[c].title, &sb);
		size_t gap = w[c] - text_width(title);

		fputs(md ? "| " : (c ? "  " : ""), f);
		if (right && !md)
			pad(f, gap);
		if (md)
			md_text(f, title);
		else
			fputs(title, f);
		if (!right && !md && c + 1 < t->ncols)
			pad(f, gap);
		if (md)
			fputc(' ', f);
	}
	fputs(md ? "|\n" : "\n", f);
	for (size_t c = 0; c < t->ncols; c++) {
		if (md) {
			fputs(is_numeric_style(t->cols[c].style) ? "|--:"
								 : "|---",
			      f);
			continue;
		}
		fputs(c ? "  " : "", f);
		for (size_t i = 0; i < w[c]; i++)
			fputc('-', f);
	}
	fputs(md ? "|\n" : "\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			int right = is_numeric_style(t->cols[c].style);
			const char *v;
			size_t gap;

			out_cell_display(out_cell_at(t, r, c), t->cols[c].style,
					 buf, sizeof(buf));
			v = shown(buf, &sb);
			gap = md ? 0 : w[c] - text_width(v);
			fputs(md ? "| " : (c ? "  " : ""), f);
			if (right && !md)
				pad(f, gap);
			if (md)
				md_text(f, v);
			else
				fputs(v, f);
			if (!right && !md && c + 1 < t->ncols)
				pad(f, gap);
			if (md)
				fputc(' ', f);
		}
		fputs(md ? "|\n" : "\n", f);
	}
	free(w);
	sbuf_release(&sb);
}

/* ![alt](path): alt as Markdown text, URL-unsafe bytes of path
 * percent-encoded (spaces, parentheses, angle brackets, %, controls and
 * every byte of a non-ASCII character). */
static void md_image(FILE *f, const char *alt, const char *path)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);

	fputs("![", f);
	human_text(f, alt, 1, &sb);
	fputs("](", f);
	for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
		if (*s <= ' ' || *s == '(' || *s == ')' || *s == '<' ||
		    *s == '>' || *s == '%' || *s >= 0x7f)
			fprintf(f, "%%%02X", *s);
		else
			fputc(*s, f);
	}
	fputs(")\n", f);
	sbuf_release(&sb);
}

static void render_human(const struct out_doc *doc, FILE *f, int md)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);
	int blocks = 0;

	for (size_t i = 0; i < doc->n; i++) {
		const struct out_table *t = doc->t[i];

		if (t->json_only || t->xlsx_only || !t->ncols)
			continue;
		if (blocks++)
			fputc('\n', f);
		if (t->title) {
			fputs(md ? "### " : "", f);
			human_text(f, t->title, md, &sb);
			fputs(md ? "\n\n" : "\n", f);
		}
		if (t->is_record)
			render_record(t, f, md);
		else
			render_list(t, f, md);
	}
	for (size_t i = 0; md && i + 1 < doc->nimages; i += 2) {
		if (blocks++ || i)
			fputc('\n', f);
		md_image(f, doc->images[i], doc->images[i + 1]);
	}
	if (doc->nnotes)
		fputc('\n', f);
	for (size_t i = 0; i < doc->nnotes; i++) {
		if (md)
			fputs("- ", f);
		else
			fputs("note: ", f);
		human_text(f, doc->notes[i], md, &sb);
		fputc('\n', f);
	}
	sbuf_release(&sb);
}

/* ------------------------------------------------------------ streams */

struct out_stream {
	FILE *f;
	enum out_format fmt;
	const char *const *keys;
	size_t ncols;
	size_t rows;
};

struct out_stream *out_stream_begin(FILE *f, enum out_format fmt,
				    const char *name, const char *const *keys,
				    size_t ncols)
{
	struct out_stream *s = xcalloc(1, sizeof(*s));

	s->f = f;
	s->fmt = fmt;
	s->keys = keys;
	s->ncols = ncols;
	if (fmt == OUT_JSON) {
		fputc('{', f);
		json_string(f, name);
		fputs(":[", f);
		return s;
	}
	for (size_t c = 0; c < ncols; c++)
		fprintf(f, "%s%s", fmt == OUT_MD ? "| " : (c ? "," : ""),
			keys[c]);
	fputs(fmt == OUT_MD ? " |\n" : "\r\n", f);
	if (fmt == OUT_MD) {
		for (size_t c = 0; c < ncols; c++)
			fputs("|--:", f);
		fputs("|\n", f);
	}
	return s;
}

void out_stream_row(struct out_stream *s, const double *v)
{
	char buf[64];

	if (s->fmt == OUT_JSON)
		fputs(s->rows ? ",{" : "{", s->f);
	for (size_t c = 0; c < s->ncols; c++) {
		/* the series are rates and credits: the rate rule */
		out_fmt_machine(buf, sizeof(buf), OUT_NUM3, v[c]);
		if (s->fmt == OUT_JSON) {
			if (c)
				fputc(',', s->f);
			json_string(s->f, s->keys[c]);
			fputc(':', s->f);
			fputs(buf, s->f);
		} else {
			fprintf(s->f, "%s%s",
				s->fmt == OUT_MD ? "| " : (c ? "," : ""), buf);
		}
	}
	fputs(s->fmt == OUT_JSON ? "}"
	      : s->fmt == OUT_MD ? " |\n"
				 : "\r\n",
	      s->f);
	s->rows++;
}

int out_stream_end(struct out_stream *s)
{
	int rc;

	if (s->fmt == OUT_JSON)
		fputs("]}\n", s->f);
	rc = ferror(s->f) ? -1 : 0;
	free(s);
	return rc;
}

int out_render_to(const struct out_doc *doc, const struct out_target *to,
		  char *err)
{
	int rc = EBS_OK;

	switch (to->format) {
	case OUT_XLSX: return xlsx_export(doc, to, err);
	case OUT_JSON: render_json(doc, to->f); break;
	case OUT_CSV: rc = render_csv(doc, to->table, to->f, err); break;
	case OUT_MD: render_human(doc, to->f, 1); break;
	case OUT_TABLE: render_human(doc, to->f, 0); break;
	}
	if (!rc && ferror(to->f))
		rc = ebs_fail(err, EBS_ERR_IO, "%s",
			      strerror(errno ? errno : EIO));
	return rc;
}

int out_render(const struct out_doc *doc, enum out_format fmt, FILE *f)
{
	struct out_target to = { .format = fmt, .f = f };
	char err[EBS_ERRLEN];

	return out_render_to(doc, &to, err) ? -1 : 0;
}
