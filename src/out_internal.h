/*
 * out_internal.h - shared by out.c and xlsx_export.c only: the structs
 * behind struct out_doc and the cell accessors.  Commands use out.h.
 */
#ifndef EBSIZE_OUT_INTERNAL_H
#define EBSIZE_OUT_INTERNAL_H

#include <stddef.h>

#include "ebsize/out.h"

enum cell_kind {
	CELL_NULL,
	CELL_STR,
	CELL_NUM,
	CELL_INT,
	CELL_BOOL,
	CELL_NESTED,
	CELL_LIST
};

struct cell {
	enum cell_kind kind;
	double d;
	long long i;
	const char *s;	       /* text; display text of a nested list */
	char *owned;	       /* s when the cell owns it, else NULL */
	struct out_table *sub; /* CELL_NESTED */
	char **list;	       /* CELL_LIST: the strings (s: joined) */
	size_t nlist;
	char ccy[4]; /* money (OUT_USD) currency; "" = USD */
};

struct column {
	char *key;
	char *title;
	enum out_style style;
	char *formula; /* xlsx template (out_formula), or NULL */
};

#define OUT_MAX_CHARTS 4
#define OUT_MAX_SERIES 8

struct out_chart {
	enum out_chart_kind kind;
	char *title;
	char *x_key;
	char *x_title, *y_title;
	char *y_keys[OUT_MAX_SERIES];
	size_t nseries;
};

struct out_table {
	char *name;
	char *title;
	int is_record;
	int json_only;
	int human_only;
	int xlsx_only;
	int is_main;
	struct column *cols;
	size_t ncols, acols;
	struct cell *cells; /* nrows * ncols, row-major */
	size_t ncells, acells;
	size_t nrows;
	out_fill_fn fill; /* rows on demand: cells hold one row */
	void *fill_arg;
	size_t filled_row;
	struct out_table *self; /* writable alias for cell_at */
	struct out_chart *charts[OUT_MAX_CHARTS];
	size_t ncharts;
	char ccy[4]; /* currency of its money cells; "" = USD */
	char *sheet; /* xlsx: its sheet (out_sheet); NULL: name */
};

struct out_doc {
	struct out_table **t;
	size_t n, alloc;
	char **notes;
	size_t nnotes, anotes;
	int notes_key;
	char **about; /* key, value, key, value, ... */
	size_t nabout, aabout;
	char **names; /* defined name, template, ... (xlsx) */
	size_t nnames, anames;
	char **images; /* alt, path, alt, path, ... (md) */
	size_t nimages, aimages;
};

/* The cell at (row, col) of t; an empty cell past the end. */
const struct cell *out_cell_at(const struct out_table *t, size_t row,
			       size_t col);
/* Human display text of a cell in style st ("$1,234.50", "yes"). */
void out_cell_display(const struct cell *c, enum out_style st, char *buf,
		      size_t n);
/* Length of the valid UTF-8 sequence at s, or 0 if invalid. */
size_t out_utf8_seq(const unsigned char *s);
/* Index of the column named key in t, or -1. */
long out_col_index(const struct out_table *t, const char *key);

/*
 * Write doc as an xlsx workbook to path (xlsx_export.c).  EBS_OK, or
 * EBS_ERR_IO with the reason in err (without the path).
 */
int xlsx_export(const struct out_doc *doc, const struct out_target *to,
		char *err);

#endif
