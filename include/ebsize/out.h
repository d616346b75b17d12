/*
 * out.h - the one output layer.  A command builds its result once, as
 * sections of rows and columns, and out_render_to() writes it as an
 * aligned table, CSV, JSON, Markdown or an xlsx workbook.  Commands never printf
 * results themselves.
 *
 * A document holds sections.  A record is one row of named fields; a list
 * is rows under fixed columns.  Column keys are JSON member names; a dotted
 * key ("monthly_usd.total") nests, and keys sharing a prefix must be
 * adjacent.  A record with a NULL name puts its fields at the JSON root.
 * Tables and Markdown round for people; CSV and JSON are exact and typed
 * under one rule (out_fmt_machine): money, rates and counts to a
 * millionth, percentages to a hundredth, durations in whole seconds --
 * never binary noise such as 0.6000000000000001.
 *
 * CSV is one table: the main one (out_main, else the first list, else all
 * records as one row) or the one out_target.table names.  A workbook has
 * one sheet per section, named as the section (the root record is
 * "result") unless out_sheet says otherwise, plus "notes" and "About";
 * cells are typed, and columns may be live formulas (out_formula) and
 * carry charts (out_chart).
 */
#ifndef EBSIZE_OUT_H
#define EBSIZE_OUT_H

#include <stdio.h>

enum out_format { OUT_TABLE, OUT_CSV, OUT_JSON, OUT_MD, OUT_XLSX };

/* Column display styles. */
enum out_style {
	OUT_TEXT,
	OUT_INT,  /* integral number, thousands separators on display */
	OUT_NUM0, /* number shown with 0..3 decimals */
	OUT_NUM1,
	OUT_NUM2,
	OUT_NUM3,
	OUT_USD, /* money: $1,234.56 on display (another currency:
		      * "CNY 1,234.56", see out_table_currency and
		      * out_money), full precision in data */
	OUT_PCT, /* number shown as 12.3 % */
	OUT_BOOL,
	OUT_EXACT,   /* a price as stored (money: to a millionth in data) */
	OUT_DURATION /* seconds: "45 s", "56 min", "2.1 h", "3.5 d" on
			display, integer seconds in data */
};

struct out_doc;
struct out_table;

/* Parse "table|csv|json|md|xlsx"; 0 on success, -1 otherwise. */
int out_format_parse(const char *s, enum out_format *f);

struct out_doc *out_doc_new(void);
void out_doc_free(struct out_doc *doc);

/* Add a one-row section of fields.  name NULL: fields go at the JSON root. */
struct out_table *out_record(struct out_doc *doc, const char *name,
			     const char *title);
/* Add a list section; declare its columns, then add rows. */
struct out_table *out_list(struct out_doc *doc, const char *name,
			   const char *title);
/* Always emit a "notes" array in JSON, even when empty. */
void out_doc_notes_key(struct out_doc *doc);
void out_note(struct out_doc *doc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void out_col(struct out_table *t, const char *key, const char *title,
	     enum out_style style);
void out_row(struct out_table *t);
void out_str(struct out_table *t, const char *s); /* NULL -> null */
/* As out_str without a copy: s must live until the document is freed
 * (or, in an on-demand row, until the render is done). */
void out_str_ref(struct out_table *t, const char *s);
void out_num(struct out_table *t, double v);
void out_int(struct out_table *t, long long v);
void out_bool(struct out_table *t, int v);
void out_null(struct out_table *t);
/* A list of strings: a JSON array; "a,b,c" in the other formats. */
void out_strv(struct out_table *t, const char *const *v, size_t n);

/*
 * A cell holding a list of records (e.g. the evidence of an option): JSON
 * renders an array of objects; table, Markdown and CSV show `display`.
 * Returns the nested list to fill with out_col/out_row; the cell owns it.
 */
struct out_table *out_nested(struct out_table *t, const char *display);

/* Record helpers: declare a field and set its value in one call. */
void out_kv_str(struct out_table *t, const char *key, const char *title,
		const char *v);
void out_kv_num(struct out_table *t, const char *key, const char *title,
		enum out_style style, double v);
void out_kv_int(struct out_table *t, const char *key, const char *title,
		long long v);
void out_kv_bool(struct out_table *t, const char *key, const char *title,
		 int v);
void out_kv_null(struct out_table *t, const char *key, const char *title,
		 enum out_style style);

/*
 * Rows produced while rendering, one at a time, so that a large list is
 * never held whole: fill adds the cells of row `row` with out_str, out_num
 * ... (no out_row).  Declare the columns first.  fill may be called more
 * than once per row (the table format measures widths first).
 */
typedef void (*out_fill_fn)(struct out_table *t, size_t row, void *arg);
void out_rows_on_demand(struct out_table *t, size_t nrows, out_fill_fn fill,
			void *arg);

/*
 * A picture for the Markdown format: "![alt](path)" after the sections
 * (the --svg-dir charts).  Other formats leave it out.
 */
void out_md_image(struct out_doc *doc, const char *alt, const char *path);

/* Show a section only in the machine formats (JSON, CSV). */
void out_json_only(struct out_table *t);
/* Show a section only in the human formats (table, Markdown). */
void out_human_only(struct out_table *t);
/* Show a section only in workbooks (a price list, chart data). */
void out_xlsx_only(struct out_table *t);
/* Make t the table CSV writes when no --table is given. */
void out_main(struct out_table *t);
/*
 * In a workbook, put t on the sheet named sheet instead of one named as
 * the section.  Sections given the same sheet share it, one below the
 * other, each after a blank row and a row with its title (a summary with
 * its totals).  Formulas still name the section ({summary!field}).
 */
void out_sheet(struct out_table *t, const char *sheet);

/*
 * Live formulas (xlsx only; other formats show the values).  The cells of
 * column `key` of t (declared before) are written as the formula tmpl,
 * with each cell's value as the cached result, so that a viewer which does
 * not recalculate shows ebsize's figure.  A null cell stays blank and a
 * text cell stays text.  tmpl is an Excel formula without the '=';
 * references go between braces:
 *   {col}           column col of the same row (a record: the field col)
 *   {section!col}   in another section: a record's field (one cell), or a
 *                   list's whole column (all its rows, for SUMPRODUCT,
 *                   SUMIFS...); the root record is "result"
 * Percentages (OUT_PCT) are fractions in a workbook (0.2 shown as 20.0 %):
 * a formula for one must yield the fraction.  Text put into a formula
 * goes through out_formula_text.
 */
void out_formula(struct out_table *t, const char *key, const char *tmpl);
/* s as an Excel string literal ("a""b"); heap string, caller frees. */
char *out_formula_text(const char *s);
/*
 * A workbook-wide defined name for formulas: name (a valid Excel name,
 * not like a cell such as "AB12") stands for ref, a template of
 * {section!col} references ("{price_list!price_per_unit}": that whole
 * column).  Templates may then use the bare name.
 */
void out_name(struct out_doc *doc, const char *name, const char *ref);

/* Native charts (xlsx only) over the rows of a list. */
enum out_chart_kind {
	OUT_CHART_LINE,	 /* numeric x (size, seconds): lines through points */
	OUT_CHART_COLUMN /* text x (category): one column per row */
};
struct out_chart;
/* A chart of t placed beside it; x_key names the x column. */
struct out_chart *out_chart(struct out_table *t, enum out_chart_kind kind,
			    const char *title, const char *x_key);
/* One series: the values of column y_key, named by its title. */
void out_chart_series(struct out_chart *c, const char *y_key);
/* Axis titles (NULL: none). */
void out_chart_axes(struct out_chart *c, const char *x_title,
		    const char *y_title);

/* A line of a workbook's About sheet (price snapshot, vintage, ...). */
void out_about(struct out_doc *doc, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The notes of doc, for a caller that shows them elsewhere (CSV). */
size_t out_doc_nnotes(const struct out_doc *doc);
const char *out_doc_note(const struct out_doc *doc, size_t i);

/* Where and how out_render_to writes a document. */
struct out_target {
	enum out_format format;
	FILE *f;		  /* text formats */
	const char *path;	  /* xlsx: the file to write (truncated) */
	const char *table;	  /* csv: the table to write; NULL: the main */
	const char *command_line; /* xlsx About sheet; may be NULL */
	const char *version;	  /* xlsx About sheet; may be NULL */
	const char *generated_at; /* xlsx About sheet; NULL: now, UTC */
};

/*
 * Render doc to `to`.  Returns EBS_OK; EBS_ERR_USAGE when to->table names
 * no table of doc (err lists the names); EBS_ERR_IO on a write error (err
 * says why, without the file's name; errno set for text formats).
 */
int out_render_to(const struct out_doc *doc, const struct out_target *to,
		  char *err);
/* out_render_to for a text format on f.  0, or -1 on a write error. */
int out_render(const struct out_doc *doc, enum out_format fmt, FILE *f);
/* "a, b or c": the tables --table accepts for doc, into buf. */
void out_table_names(const struct out_doc *doc, char *buf, size_t n);

/*
 * Streaming for long numeric series (the burst timeline): rows go straight
 * to f instead of into a document, so memory stays flat however long the
 * series.  CSV for table and CSV formats, a Markdown table for md, and for
 * JSON an object {"NAME": [{...}, ...]}.  out_stream_end returns 0, or -1
 * on a write error; it frees the stream.
 */
struct out_stream;
struct out_stream *out_stream_begin(FILE *f, enum out_format fmt,
				    const char *name, const char *const *keys,
				    size_t ncols);
void out_stream_row(struct out_stream *s, const double *values);
int out_stream_end(struct out_stream *s);

/* Format money for human text ("$1,234.56"). */
void out_fmt_usd(char *buf, size_t n, double v);
/* The same in a currency: "$1,234.56" for USD (or NULL/""), else
 * "CNY 1,234.56". */
void out_fmt_money(char *buf, size_t n, double v, const char *code);

/*
 * Currency.  Money cells (OUT_USD columns) display in USD unless their
 * table names another currency (out_table_currency, before its cells are
 * added) or the cell carries its own (out_money: a list mixing
 * currencies).  Only the human formats show it; a document that holds
 * money also says its currency in a field of its own (JSON, CSV).
 */
void out_table_currency(struct out_table *t, const char *code);
void out_money(struct out_table *t, double v, const char *code);
void out_kv_money(struct out_table *t, const char *key, const char *title,
		  double v, const char *code);
/* Shortest decimal text that reads back as v exactly. */
void out_fmt_exact(char *buf, size_t n, double v);
/*
 * The machine (CSV, JSON) text of a number in a column of style st: the
 * one rule every command's data goes through.  OUT_PCT rounds to 1e-2,
 * OUT_DURATION to whole seconds, everything else (money, prices, rates,
 * counts, sizes) to 1e-6; then the shortest text of that value.  "null"
 * for a non-finite v.
 */
void out_fmt_machine(char *buf, size_t n, enum out_style st, double v);
/* Human text of a duration in seconds: "45 s" below 10 minutes, "56 min"
 * below 90, "2.1 h" below 2 days, else "3.5 d". */
void out_fmt_duration(char *buf, size_t n, double seconds);

#endif
