/*
 * xlsx_export.c - a result document as an xlsx workbook, with
 * libxlsxwriter (the only file that includes xlsxwriter.h).
 *
 * One sheet per section that is not human-only, in document order, named
 * as the section ("result" for the root record), then "notes" and
 * "About".  A list is a header row of column keys and one row per row; a
 * record is one row per field (field, value, description).  Every sheet
 * has its header frozen and an autofilter; numbers are numbers with a
 * format by column style, text is always a text cell (never a formula,
 * whatever it starts with), booleans are booleans.  Columns with a
 * formula template (out_formula) are live formulas carrying ebsize's value
 * as the cached result.  Charts (out_chart) go beside their table.
 *
 * Rows are written in order in libxlsxwriter's constant-memory mode, and
 * on-demand rows are produced one at a time, so a 100,000-row list never
 * sits in memory.  It does not: read workbooks, or write dates (times are
 * ISO text, as in JSON).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "ebsize/err.h"
#include "ebsize/util.h"
#include "out_internal.h"

/* ------------------------------------------------------------ loading */

/*
 * libxlsxwriter is loaded with dlopen() the first time a workbook is
 * written, like libcurl (src/http.c): linking it would make every command
 * relocate it and the libraries it pulls in (libcrypto, minizip) at start,
 * about 2 ms of the 3 a short command took (issue 14).  The header gives
 * the types and the prototypes (the ABI of soname libxlsxwriter.so.4);
 * each function below is called through a pointer of the prototype's
 * type, and the names are macros for those pointers, so the code reads
 * as plain libxlsxwriter calls.
 */
#define XLSX_SONAME "libxlsxwriter.so.4"

/* clang-format off */
#define XLSX_FUNCS(X) \
	X(workbook_new_opt) X(workbook_add_worksheet) X(workbook_add_format) \
	X(workbook_add_chart) X(workbook_define_name) X(workbook_close) \
	X(worksheet_write_string) X(worksheet_write_number) \
	X(worksheet_write_formula_num) X(worksheet_write_boolean) \
	X(worksheet_set_column) X(worksheet_autofilter) \
	X(worksheet_freeze_panes) X(worksheet_insert_chart) \
	X(format_set_num_format) X(format_set_bold) X(chart_add_series) \
	X(chart_series_set_categories) X(chart_series_set_values) \
	X(chart_series_set_name_range) X(chart_title_set_name) \
	X(chart_axis_set_name) X(chart_legend_set_position) X(lxw_strerror)
/* clang-format on */

static struct xlsx_api {
#define XLSX_PTR(f) __typeof__(&f) f;
	XLSX_FUNCS(XLSX_PTR)
#undef XLSX_PTR
} L;

static const struct {
	const char *name;
	size_t off;
} xlsx_symbols[] = {
#define XLSX_SYM(f) { #f, offsetof(struct xlsx_api, f) },
	XLSX_FUNCS(XLSX_SYM)
#undef XLSX_SYM
};

#define workbook_new_opt	    L.workbook_new_opt
#define workbook_add_worksheet	    L.workbook_add_worksheet
#define workbook_add_format	    L.workbook_add_format
#define workbook_add_chart	    L.workbook_add_chart
#define workbook_define_name	    L.workbook_define_name
#define workbook_close		    L.workbook_close
#define worksheet_write_string	    L.worksheet_write_string
#define worksheet_write_number	    L.worksheet_write_number
#define worksheet_write_formula_num L.worksheet_write_formula_num
#define worksheet_write_boolean	    L.worksheet_write_boolean
#define worksheet_set_column	    L.worksheet_set_column
#define worksheet_autofilter	    L.worksheet_autofilter
#define worksheet_freeze_panes	    L.worksheet_freeze_panes
#define worksheet_insert_chart	    L.worksheet_insert_chart
#define format_set_num_format	    L.format_set_num_format
#define format_set_bold		    L.format_set_bold
#define chart_add_series	    L.chart_add_series
#define chart_series_set_categories L.chart_series_set_categories
#define chart_series_set_values	    L.chart_series_set_values
#define chart_series_set_name_range L.chart_series_set_name_range
#define chart_title_set_name	    L.chart_title_set_name
#define chart_axis_set_name	    L.chart_axis_set_name
#define chart_legend_set_position   L.chart_legend_set_position
#define lxw_strerror		    L.lxw_strerror

/*
 * Load libxlsxwriter ($EBSIZE_LIBXLSXWRITER, else libxlsxwriter.so.4) and
 * resolve every function, once; the handle stays open.  EBS_OK, or
 * EBS_ERR_IO with what is missing and how to install it.
 */
static int xlsx_load(char *err)
{
	static int loaded;
	const char *forced = getenv("EBSIZE_LIBXLSXWRITER");
	const char *soname = forced && *forced ? forced : XLSX_SONAME;
	void *lib;
	const char *e;

	if (loaded)
		return EBS_OK;
	lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		e = dlerror();
		return ebs_fail(
		    err, EBS_ERR_IO,
		    "--format xlsx needs libxlsxwriter, which cannot be loaded (%s); install it (Debian: apt-get install libxlsxwriter4)",
		    e ? e : "dlopen failed");
	}
	for (size_t i = 0; i < ARRAY_SIZE(xlsx_symbols); i++) {
		void *f = dlsym(lib, xlsx_symbols[i].name);

		if (!f) {
			dlclose(lib);
			return ebs_fail(
			    err, EBS_ERR_IO,
			    "--format xlsx needs libxlsxwriter, which cannot be loaded ('%s' lacks %s); install it (Debian: apt-get install libxlsxwriter4)",
			    soname, xlsx_symbols[i].name);
		}
		memcpy((char *)&L + xlsx_symbols[i].off, &f, sizeof(f));
	}
	loaded = 1;
	return EBS_OK;
}

#define XLSX_MAX_ROWS 1048576L /* rows in a sheet, header included */
#define XLSX_MAX_TEXT 32767    /* bytes libxlsxwriter takes in a cell */
#define WIDTH_MIN     6
#define WIDTH_MAX     60
#define WIDTH_ROWS    1000 /* rows measured for column widths */

/* A worksheet: one section, or several one below the other (out_sheet). */
struct page {
	lxw_worksheet *ws;
	char name[32];	    /* sheet name, unique, <= 31 chars */
	const char *shared; /* the out_sheet name that gathers sections */
	size_t sections;
	size_t next_row; /* the first row after its last section */
	size_t *w;	 /* column widths so far */
	size_t nw;
};

/* A section and where it goes. */
struct sheet {
	const struct out_table *t;
	const char *section; /* the name formulas use ("result") */
	char name[32];	     /* its page's name */
	struct page *page;
	size_t row0; /* 0-based row of its header */
};

struct book {
	lxw_workbook *wb;
	lxw_format *style[OUT_DURATION + 1];
	lxw_format *money_cny; /* OUT_USD cells in CNY (China regions) */
	lxw_format *bold;
	struct sheet *sheets;
	size_t n;
	struct page *pages;
	size_t npages;
	struct sbuf text; /* scratch: text made safe */
	struct sbuf cell; /* scratch: one formula */
	char *err;
};

/* ------------------------------------------------------------ names */

/* "A", "B", ... "Z", "AA" for a 0-based column. */
static void col_letters(char *buf, size_t col)
{
	char tmp[8];
	size_t n = 0, c = col + 1;

	while (c && n < sizeof(tmp)) {
		tmp[n++] = (char)('A' + (c - 1) % 26);
		c = (c - 1) / 26;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

static int name_taken(const struct book *b, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (str_ieq(b->pages[i].name, name))
			return 1;
	return str_ieq(name, "About") || str_ieq(name, "notes");
}

/*
 * A sheet name for want: characters Excel refuses ([]:*?/\ and quotes
 * at the ends) become '_', at most 31 characters, unique ignoring case.
 */
static void sheet_name(const struct book *b, size_t idx, const char *want,
		       char out[32])
{
	char base[32];
	size_t n = 0;

	for (const char *p = want; *p && n < 31; p++)
		base[n++] = strchr("[]:*?/\\'", *p) ? '_' : *p;
	base[n] = '\0';
	if (!n)
		xsnprintf(base, sizeof(base), "sheet");
	xsnprintf(out, 32, "%s", base);
	for (int k = 2; name_taken(b, idx, out); k++)
		xsnprintf(out, 32, "%.27s_%d", base, k);
}

static const struct sheet *find_sheet(const struct book *b, const char *section)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->sheets[i].section, section))
			return &b->sheets[i];
	return NULL;
}

/* ------------------------------------------------------------ text */

/*
 * s as text a workbook keeps exactly: invalid UTF-8 becomes U+FFFD, a
 * literal "_xHHHH_" (which readers decode as an escape) gets its '_'
 * escaped, and text past the cell limit is cut at a character boundary.
 * Control characters are escaped by libxlsxwriter.  Returns s itself when
 * nothing changes, else the book's scratch buffer.
 */
static const char *safe_text(struct book *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (p[i] >= 0x20 && p[i] < 0x7F && p[i] != '_')
		i++;
	if (!p[i] && i <= XLSX_MAX_TEXT)
		return s;
	sbuf_reset(&b->text);
	for (p = (const unsigned char *)s; *p;) {
		size_t n = out_utf8_seq(p);

		if (b->text.len + (n ? n : 3) + 6 > XLSX_MAX_TEXT)
			break;
		if (!n) {
			sbuf_add(&b->text, "\xEF\xBF\xBD", 3);
			p++;
			continue;
		}
		if (p[0] == '_' && p[1] == 'x' &&
		    strspn((const char *)p + 2, "0123456789abcdefABCDEF") >=
			4 &&
		    p[6] == '_')
			sbuf_addstr(&b->text, "_x005F");
		sbuf_add(&b->text, p, n);
		p += n;
	}
	return b->text.buf ? b->text.buf : "";
}

/* ------------------------------------------------------------ formulas */

/* A compiled template: literal text, then (col >= 0) a same-row cell. */
struct fpart {
	char *lit;
	long col;
};

struct formula {
	struct fpart *parts;
	size_t n, alloc;
};

static void formula_release(struct formula *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->parts[i].lit);
	free(f->parts);
	memset(f, 0, sizeof(*f));
}

static void push_part(struct formula *f, struct sbuf *lit, long col)
{
	xgrow((void **)&f->parts, &f->alloc, f->n + 1, sizeof(*f->parts));
	f->parts[f->n].lit = xstrdup(lit->buf ? lit->buf : "");
	f->parts[f->n].col = col;
	f->n++;
	sbuf_reset(lit);
}

/* Append 'sheet' quoted for a formula ('it''s'). */
static void add_sheet_ref(struct sbuf *sb, const char *name)
{
	sbuf_addstr(sb, "'");
	for (; *name; name++)
		sbuf_add(sb, *name == '\'' ? "''" : name,
			 *name == '\'' ? 2 : 1);
	sbuf_addstr(sb, "'!");
}

/*
 * Resolve {ref} (ref without braces) of a formula on sheet `self`.  A
 * same-row cell of a list becomes a part; everything else is absolute
 * text appended to lit.  0, or -1 with err set.
 */
static int resolve_ref(const struct book *b, const struct sheet *self,
		       const char *ref, struct formula *f, struct sbuf *lit,
		       char *err)
{
	const char *bang = strchr(ref, '!');
	const struct sheet *sh = self;
	const char *key = ref;
	char letters[8];
	long col;

	if (bang) {
		char *section = xstrndup(ref, (size_t)(bang - ref));

		sh = find_sheet(b, section);
		free(section);
		key = bang + 1;
	}
	col = sh ? out_col_index(sh->t, key) : -1;
	if (col < 0)
		return ebs_fail(err, EBS_ERR_USAGE,
				"formula on sheet '%s': no such cell as '{%s}'",
				self->name, ref);
	if (sh->t->is_record) {
		if (sh->page != self->page)
			add_sheet_ref(lit, sh->name);
		sbuf_addf(lit, "$B$%zu", sh->row0 + (size_t)col + 2);
		return 0;
	}
	col_letters(letters, (size_t)col);
	if (sh == self) {
		push_part(f, lit, col);
		return 0;
	}
	add_sheet_ref(lit, sh->name);
	sbuf_addf(lit, "$%s$%zu:$%s$%zu", letters, sh->row0 + 2, letters,
		  sh->row0 + (sh->t->nrows ? sh->t->nrows + 1 : 2));
	return 0;
}

static int formula_compile(const struct book *b, const struct sheet *self,
			   const char *tmpl, struct formula *f, char *err)
{
	struct sbuf lit = SBUF_INIT(SIZE_MAX);
	int rc = 0;

	memset(f, 0, sizeof(*f));
	sbuf_addstr(&lit, "=");
	for (const char *p = tmpl; *p && !rc;) {
		const char *close;
		char *ref;

		if (*p != '{') {
			sbuf_add(&lit, p++, 1);
			continue;
		}
		close = strchr(p, '}');
		if (!close) {
			rc = ebs_fail(err, EBS_ERR_USAGE,
				      "formula on sheet '%s': '{' without '}'",
				      self->name);
			break;
		}
		ref = xstrndup(p + 1, (size_t)(close - p - 1));
		rc = resolve_ref(b, self, ref, f, &lit, err);
		free(ref);
		p = close + 1;
	}
	if (!rc)
		push_part(f, &lit, -1);
	sbuf_release(&lit);
	if (rc)
		formula_release(f);
	return rc;
}

/* The formula text of f on 0-based sheet row `row` (the book's scratch). */
static const char *formula_text(struct book *b, const struct formula *f,
				size_t row)
{
	char letters[8];

	sbuf_reset(&b->cell);
	for (size_t i = 0; i < f->n; i++) {
		sbuf_addstr(&b->cell, f->parts[i].lit);
		if (f->parts[i].col >= 0) {
			col_letters(letters, (size_t)f->parts[i].col);
			sbuf_addf(&b->cell, "%s%zu", letters, row + 1);
		}
	}
	return b->cell.buf;
}

/* The defined names of doc (out_name); 0, or -1 with err set. */
static int define_names(struct book *b, const struct out_doc *doc, char *err)
{
	for (size_t i = 0; i + 1 < doc->nnames && b->n; i += 2) {
		struct formula f;
		int bad;

		if (formula_compile(b, &b->sheets[0], doc->names[i + 1], &f,
				    err))
			return -1;
		bad = f.n != 1 ||
		      workbook_define_name(b->wb, doc->names[i],
					   f.parts[0].lit) != LXW_NO_ERROR;
		formula_release(&f);
		if (bad)
			return ebs_fail(err, EBS_ERR_USAGE,
					"cannot define the name '%s' as '%s'",
					doc->names[i], doc->names[i + 1]),
			       -1;
	}
	return 0;
}

/* ------------------------------------------------------------ cells */

static void make_formats(struct book *b)
{
	static const struct {
		enum out_style st;
		const char *fmt;
	} fmts[] = {
		{ OUT_INT, "#,##0" },
		{ OUT_NUM0, "#,##0" },
		{ OUT_NUM1, "#,##0.0" },
		{ OUT_NUM2, "#,##0.00" },
		{ OUT_NUM3, "#,##0.000" },
		{ OUT_USD, "$#,##0.00" },
		{ OUT_PCT, "0.0%" },
		{ OUT_DURATION, "#,##0" }, /* whole seconds */
	};

	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		b->style[fmts[i].st] = workbook_add_format(b->wb);
		format_set_num_format(b->style[fmts[i].st], fmts[i].fmt);
	}
	b->money_cny = workbook_add_format(b->wb);
	format_set_num_format(b->money_cny, "\"CNY \"#,##0.00");
	b->bold = workbook_add_format(b->wb);
	format_set_bold(b->bold);
}

/*
 * Write one cell; f (may be NULL) is the column's compiled formula.
 * Returns the width its display needs (0 for a blank; numbers are
 * measured only within the first WIDTH_ROWS rows, which is enough for a
 * column's width and saves formatting every number of a large sheet).
 */
static size_t write_cell(struct book *b, lxw_worksheet *ws, size_t row,
			 size_t col, const struct cell *c, enum out_style st,
			 const struct formula *f)
{
	char shown[512];
	lxw_format *fmt;
	double v;

	switch (c->kind) {
	case CELL_NULL: return 0;
	case CELL_STR:
	case CELL_NESTED:
	case CELL_LIST:
		worksheet_write_string(ws, (lxw_row_t)row, (lxw_col_t)col,
				       safe_text(b, c->s), NULL);
		return strlen(c->s);
	case CELL_BOOL:
		worksheet_write_boolean(ws, (lxw_row_t)row, (lxw_col_t)col,
					(int)c->i, NULL);
		return 5;
	case CELL_INT:
	case CELL_NUM: break;
	}
	v = c->kind == CELL_INT ? (double)c->i : c->d;
	shown[0] = '\0';
	if (row <= WIDTH_ROWS)
		out_cell_display(c, st, shown, sizeof(shown));
	if (st == OUT_PCT)
		v /= 100.0; /* a spreadsheet percentage is a fraction */
	fmt = st == OUT_USD && !strcmp(c->ccy, "CNY") ? b->money_cny
						      : b->style[st];
	if (f)
		worksheet_write_formula_num(ws, (lxw_row_t)row, (lxw_col_t)col,
					    formula_text(b, f, row), fmt, v);
	else
		worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col, v,
				       fmt);
	return strlen(shown);
}

static void widen(size_t *w, size_t need)
{
	if (need > *w)
		*w = need;
}

/* The page's width of column c, the array grown as needed. */
static size_t *page_width(struct page *p, size_t c)
{
	if (c >= p->nw) {
		size_t n = c + 8;

		p->w = xrealloc(p->w, n * sizeof(*p->w));
		memset(p->w + p->nw, 0, (n - p->nw) * sizeof(*p->w));
		p->nw = n;
	}
	return &p->w[c];
}

static void set_widths(struct page *p)
{
	for (size_t c = 0; c < p->nw; c++) {
		size_t width = p->w[c] + 2;

		if (!p->w[c])
			continue;
		if (width < WIDTH_MIN)
			width = WIDTH_MIN;
		if (width > WIDTH_MAX)
			width = WIDTH_MAX;
		worksheet_set_column(p->ws, (lxw_col_t)c, (lxw_col_t)c,
				     (double)width, NULL);
	}
}

/*
 * The header row of a section at row0; a section below another on its
 * page gets its title in the row above.  The first section's header is
 * frozen.
 */
static void header_row(struct book *b, const struct sheet *sh,
		       const char *const *names, size_t n)
{
	lxw_worksheet *ws = sh->page->ws;

	if (sh->row0) {
		worksheet_write_string(
		    ws, (lxw_row_t)(sh->row0 - 1), 0,
		    safe_text(b, sh->t->title ? sh->t->title : sh->section),
		    b->bold);
	}
	for (size_t c = 0; c < n; c++) {
		worksheet_write_string(ws, (lxw_row_t)sh->row0, (lxw_col_t)c,
				       safe_text(b, names[c]), b->bold);
		widen(page_width(sh->page, c), strlen(names[c]));
	}
	if (!sh->row0)
		worksheet_freeze_panes(ws, 1, 0);
}

/* An autofilter over a section, when it has its page to itself (a
 * worksheet has one). */
static void autofilter(const struct sheet *sh, size_t last_row, size_t last_col)
{
	if (sh->page->sections == 1)
		worksheet_autofilter(sh->page->ws, (lxw_row_t)sh->row0, 0,
				     (lxw_row_t)last_row, (lxw_col_t)last_col);
}

/* ------------------------------------------------------------ sheets */

/* Compile the formula columns of sheet sh into f[ncols]. */
static int compile_all(const struct book *b, const struct sheet *sh,
		       struct formula *f, char *err)
{
	for (size_t c = 0; c < sh->t->ncols; c++) {
		memset(&f[c], 0, sizeof(f[c]));
		if (sh->t->cols[c].formula &&
		    formula_compile(b, sh, sh->t->cols[c].formula, &f[c], err))
			return -1;
	}
	return 0;
}

static void add_charts(struct book *b, const struct sheet *sh);

static int write_list(struct book *b, const struct sheet *sh, char *err)
{
	const struct out_table *t = sh->t;
	lxw_worksheet *ws = sh->page->ws;
	struct formula *f = xcalloc(t->ncols ? t->ncols : 1, sizeof(*f));
	const char **keys = xcalloc(t->ncols ? t->ncols : 1, sizeof(*keys));
	int rc = -1;

	if (sh->row0 + t->nrows >= (size_t)XLSX_MAX_ROWS) {
		ebs_fail(err, EBS_ERR_IO,
			 "'%s' has %zu rows, more than a sheet holds (%ld)",
			 sh->name, t->nrows,
			 XLSX_MAX_ROWS - 1 - (long)sh->row0);
		goto out;
	}
	if (compile_all(b, sh, f, err))
		goto out;
	for (size_t c = 0; c < t->ncols; c++)
		keys[c] = t->cols[c].key;
	header_row(b, sh, keys, t->ncols);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			widen(page_width(sh->page, c),
			      write_cell(b, ws, sh->row0 + r + 1, c,
					 out_cell_at(t, r, c), t->cols[c].style,
					 f[c].n ? &f[c] : NULL));
	if (t->ncols)
		autofilter(sh, sh->row0 + t->nrows, t->ncols - 1);
	add_charts(b, sh);
	rc = 0;
out:
	for (size_t c = 0; c < t->ncols; c++)
		formula_release(&f[c]);
	free(f);
	free(keys);
	return rc;
}

/* A record: one row per field (field, value, description). */
static int write_record(struct book *b, const struct sheet *sh, char *err)
{
	static const char *const head[] = { "field", "value", "description" };
	const struct out_table *t = sh->t;
	lxw_worksheet *ws = sh->page->ws;
	struct formula *f = xcalloc(t->ncols ? t->ncols : 1, sizeof(*f));
	int rc = -1;

	if (compile_all(b, sh, f, err))
		goto out;
	header_row(b, sh, head, 3);
	for (size_t c = 0; c < t->ncols; c++) {
		const struct column *col = &t->cols[c];
		lxw_row_t row = (lxw_row_t)(sh->row0 + c + 1);

		worksheet_write_string(ws, row, 0, safe_text(b, col->key),
				       NULL);
		widen(page_width(sh->page, 0), strlen(col->key));
		widen(page_width(sh->page, 1),
		      write_cell(b, ws, sh->row0 + c + 1, 1,
				 out_cell_at(t, 0, c), col->style,
				 f[c].n ? &f[c] : NULL));
		if (strcmp(col->title, col->key)) {
			worksheet_write_string(ws, row, 2,
					       safe_text(b, col->title), NULL);
			widen(page_width(sh->page, 2), strlen(col->title));
		}
	}
	autofilter(sh, sh->row0 + t->ncols, 2);
	rc = 0;
out:
	for (size_t c = 0; c < t->ncols; c++)
		formula_release(&f[c]);
	free(f);
	return rc;
}

/* Rows of (text, text) under a header, for notes and About. */
static int write_pairs(struct book *b, const char *name,
		       const char *const *head, size_t ncols,
		       const char *const *cells, size_t nrows, char *err)
{
	struct page p = { 0 };
	struct sheet sh = { 0 };

	if (!(p.ws = workbook_add_worksheet(b->wb, name)))
		return ebs_fail(err, EBS_ERR_IO, "cannot add sheet '%s'", name),
		       -1;
	p.sections = 1;
	sh.page = &p;
	sh.section = name;
	header_row(b, &sh, head, ncols);
	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; c < ncols; c++) {
			const char *s = cells[r * ncols + c];

			worksheet_write_string(p.ws, (lxw_row_t)(r + 1),
					       (lxw_col_t)c, safe_text(b, s),
					       NULL);
			widen(page_width(&p, c), strlen(s));
		}
	autofilter(&sh, nrows, ncols - 1);
	set_widths(&p);
	free(p.w);
	return 0;
}

static int write_notes(struct book *b, const struct out_doc *doc, char *err)
{
	static const char *const head[] = { "note" };

	return write_pairs(b, "notes", head, 1, (const char *const *)doc->notes,
			   doc->nnotes, err);
}

/* About: how the workbook was made, then the document's own lines. */
static int write_about(struct book *b, const struct out_doc *doc,
		       const struct out_target *to, char *err)
{
	static const char *const head[] = { "field", "value" };
	const char **cells = xcalloc(6 + doc->nabout, sizeof(*cells));
	char now[32];
	size_t n = 0;
	int rc;

	if (!to->generated_at)
		utc_now_iso(now);
	cells[n++] = "command";
	cells[n++] = to->command_line ? to->command_line : "";
	cells[n++] = "ebsize_version";
	cells[n++] = to->version ? to->version : "";
	cells[n++] = "generated_at";
	cells[n++] = to->generated_at ? to->generated_at : now;
	for (size_t i = 0; i < doc->nabout; i++)
		cells[n++] = doc->about[i];
	rc = write_pairs(b, "About", head, 2, cells, n / 2, err);
	free(cells);
	return rc;
}

/* ------------------------------------------------------------ charts */

static void add_charts(struct book *b, const struct sheet *sh)
{
	const struct out_table *t = sh->t;
	lxw_row_t first = (lxw_row_t)(sh->row0 + 1);
	lxw_row_t last = (lxw_row_t)(sh->row0 + (t->nrows ? t->nrows : 1));

	for (size_t i = 0; i < t->ncharts; i++) {
		const struct out_chart *c = t->charts[i];
		long x = out_col_index(t, c->x_key);
		lxw_chart *ch =
		    workbook_add_chart(b->wb, c->kind == OUT_CHART_LINE
						  ? LXW_CHART_SCATTER_STRAIGHT
						  : LXW_CHART_COLUMN);

		if (!ch || x < 0)
			continue;
		chart_title_set_name(ch, c->title);
		for (size_t s = 0; s < c->nseries; s++) {
			long y = out_col_index(t, c->y_keys[s]);
			lxw_chart_series *se;

			if (y < 0)
				continue;
			se = chart_add_series(ch, NULL, NULL);
			chart_series_set_categories(se, sh->name, first,
						    (lxw_col_t)x, last,
						    (lxw_col_t)x);
			chart_series_set_values(se, sh->name, first,
						(lxw_col_t)y, last,
						(lxw_col_t)y);
			chart_series_set_name_range(
			    se, sh->name, (lxw_row_t)sh->row0, (lxw_col_t)y);
		}
		if (c->x_title)
			chart_axis_set_name(ch->x_axis, c->x_title);
		if (c->y_title)
			chart_axis_set_name(ch->y_axis, c->y_title);
		chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
		/* side by side to the right of the table, 20 rows apart */
		worksheet_insert_chart(sh->page->ws,
				       (lxw_row_t)(sh->row0 + 1 + 20 * i),
				       (lxw_col_t)(t->ncols + 1), ch);
	}
}

/* ------------------------------------------------------------ book */

/* The rows a section takes below its header. */
static size_t section_rows(const struct out_table *t)
{
	return t->is_record ? t->ncols : t->nrows;
}

/*
 * The sheets of doc: every section but the human-only ones, each on a page
 * of its own or, when out_sheet names one already planned, below the
 * sections there (a blank row, its title, its header).
 */
static void plan_sheets(struct book *b, const struct out_doc *doc)
{
	int roots = 0;

	b->sheets = xcalloc(doc->n ? doc->n : 1, sizeof(*b->sheets));
	b->pages = xcalloc(doc->n ? doc->n : 1, sizeof(*b->pages));
	for (size_t i = 0; i < doc->n; i++) {
		const struct out_table *t = doc->t[i];
		struct sheet *sh = &b->sheets[b->n];
		struct page *p = NULL;

		if (t->human_only)
			continue;
		sh->t = t;
		sh->section = t->name ? t->name : roots++ ? "" : "result";
		for (size_t k = 0; t->sheet && k < b->npages && !p; k++)
			if (b->pages[k].shared &&
			    !strcmp(b->pages[k].shared, t->sheet))
				p = &b->pages[k];
		if (p) {
			sh->row0 = p->next_row + 2;
		} else {
			p = &b->pages[b->npages];
			sheet_name(b, b->npages,
				   t->sheet  ? t->sheet
				   : t->name ? t->name
					     : "result",
				   p->name);
			p->shared = t->sheet;
			b->npages++;
		}
		p->sections++;
		p->next_row = sh->row0 + 1 + section_rows(t);
		sh->page = p;
		memcpy(sh->name, p->name, sizeof(sh->name));
		b->n++;
	}
}

/* A worksheet for every page, in order; 0, or -1 with err set. */
static int add_pages(struct book *b, char *err)
{
	for (size_t i = 0; i < b->npages; i++)
		if (!(b->pages[i].ws =
			  workbook_add_worksheet(b->wb, b->pages[i].name)))
			return ebs_fail(err, EBS_ERR_IO,
					"cannot add sheet '%s'",
					b->pages[i].name),
			       -1;
	return 0;
}

/*
 * libxlsxwriter reports its own failures on stderr, naming our temporary
 * file; ebsize says what failed in one line of its own.  So stderr is
 * parked on /dev/null while the library creates and closes the workbook
 * (the only calls that fail on I/O).  mute returns the saved descriptor.
 */
static int mute_stderr(void)
{
	int saved, null;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved >= 0 && null >= 0)
		dup2(null, STDERR_FILENO);
	if (null >= 0)
		close(null);
	return saved;
}

static void unmute_stderr(int saved)
{
	if (saved < 0)
		return;
	dup2(saved, STDERR_FILENO);
	close(saved);
}

/* Why libxlsxwriter failed: errno's reason, else its own words. */
static int lxw_fail(char *err, lxw_error le, int saved_errno)
{
	char why[256];
	size_t n;

	if (saved_errno)
		return ebs_fail(err, EBS_ERR_IO, "%s", strerror(saved_errno));
	xsnprintf(why, sizeof(why), "%s", lxw_strerror(le));
	n = strlen(why);
	if (n && why[n - 1] == '.')
		why[n - 1] = '\0';
	return ebs_fail(err, EBS_ERR_IO, "%s", why);
}

/* The directory of path, for libxlsxwriter's temporary files. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * A zip ends with its end-of-central-directory record (22 bytes without
 * a comment): if the last write was lost (a full disk noticed only at
 * close), it is missing.  0 when path ends as a complete zip.
 */
static int zip_complete(const char *path)
{
	unsigned char eocd[4];
	FILE *f = fopen(path, "rb");
	int ok;

	if (!f)
		return -1;
	ok = !fseek(f, -22, SEEK_END) && fread(eocd, 1, 4, f) == 4 &&
	     !memcmp(eocd, "PK\x05\x06", 4);
	fclose(f);
	return ok ? 0 : -1;
}

/*
 * In constant-memory mode libxlsxwriter writes each sheet's rows to a
 * temporary file and ignores write errors there: a full disk or a file
 * size limit gave a workbook with a truncated sheet and no error.  Flush
 * them before the close and check: 0, or -1 with errno set.
 */
static int sheets_written(lxw_workbook *wb)
{
	lxw_worksheet *ws;

	LXW_FOREACH_WORKSHEET(ws, wb)
	{
		FILE *f = ws->optimize_tmpfile;

		if (!f)
			continue;
		if (fflush(f) || ferror(f)) {
			if (!errno)
				errno = EIO;
			return -1;
		}
	}
	return 0;
}

int xlsx_export(const struct out_doc *doc, const struct out_target *to,
		char *err)
{
	lxw_workbook_options opt = { 0 };
	struct book b = { 0 };
	char *dir = NULL;
	lxw_error le;
	int rc = -1, muted, saved_errno;

	if (!to->path)
		return ebs_fail(err, EBS_ERR_USAGE,
				"a workbook needs a file to write");
	if ((rc = xlsx_load(err)))
		return rc;
	dir = dir_of(to->path);
	opt.constant_memory = LXW_TRUE;
	opt.tmpdir = dir;
	sbuf_init(&b.text, SIZE_MAX);
	sbuf_init(&b.cell, SIZE_MAX);
	muted = mute_stderr();
	errno = 0;
	b.wb = workbook_new_opt(to->path, &opt);
	saved_errno = errno;
	unmute_stderr(muted);
	if (!b.wb) {
		rc = ebs_fail(err, EBS_ERR_IO, "%s",
			      strerror(saved_errno ? saved_errno : EIO));
		goto out;
	}
	make_formats(&b);
	plan_sheets(&b, doc);
	rc = add_pages(&b, err);
	if (!rc)
		rc = define_names(&b, doc, err);
	for (size_t i = 0; i < b.n && !rc; i++)
		rc = b.sheets[i].t->is_record
			 ? write_record(&b, &b.sheets[i], err)
			 : write_list(&b, &b.sheets[i], err);
	for (size_t i = 0; i < b.npages && !rc; i++)
		set_widths(&b.pages[i]);
	if (!rc && doc->nnotes)
		rc = write_notes(&b, doc, err);
	if (!rc)
		rc = write_about(&b, doc, to, err);
	errno = 0;
	if (!rc && sheets_written(b.wb))
		rc = ebs_fail(err, EBS_ERR_IO,
			      "temporary sheet data in '%s': %s", dir,
			      strerror(errno));
	muted = mute_stderr();
	errno = 0;
	le = workbook_close(b.wb);
	saved_errno = errno;
	unmute_stderr(muted);
	if (!rc && le != LXW_NO_ERROR)
		rc = lxw_fail(err, le, saved_errno);
	else if (!rc && zip_complete(to->path))
		rc = ebs_fail(err, EBS_ERR_IO, "the workbook was cut short: %s",
			      strerror(errno ? errno : EIO));
	else if (rc)
		rc = EBS_ERR_IO;
out:
	sbuf_release(&b.text);
	sbuf_release(&b.cell);
	for (size_t i = 0; i < b.npages; i++)
		free(b.pages[i].w);
	free(b.pages);
	free(b.sheets);
	free(dir);
	return rc;
}
