/*
 * cmd_scan.h - private to the `ebsize scan` command files: cmd_scan.c
 * (options, the run), cmd_scan_input.c (files: mapping, telling inputs
 * apart, streaming describe-volumes into the fleet rules),
 * cmd_scan_report.c (the findings, commands and totals as a document),
 * cmd_scan_book.c (the workbook), cmd_scan_charts.c (the charts of
 * --svg-dir and of `ebsize report --scan`, whose cmd_report.c uses
 * scan_collect) and cmd_scan_billing.c (billing exports: reading,
 * joining them to the fleet, their part of the report, --emit-sql).  The
 * rules themselves are the library's (scan_fleet.c, scan.c, billing_*.c).
 */
#ifndef EBSIZE_CMD_SCAN_H
#define EBSIZE_CMD_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "ebsize/cli.h"
#include "ebsize/err.h"
#include "ebsize/inventory.h"
#include "ebsize/scan_fleet.h"

#define SCAN_MAX_FILES	   4096
#define SCAN_MAX_EXCLUDES  32
#define SCAN_SHOW_WARNINGS 20

struct scan_args {
	const char **files; /* the operands */
	size_t nfiles;
	struct opt_list metrics;
	const char *usage;
	struct opt_list excl;
	const char *by_tag;
	const char *queries;
	long period_s;
	long limit;
	double alarm_minutes;
	int emit_sql;	     /* enum bill_dialect, when given */
	int schema;	     /* index in scan_schema_names */
	const char *svg_dir; /* --svg-dir: the charts as SVG files */
	struct scan_opts opts;
};

/* --schema values, in the order of enum bill_format from FOCUS on. */
extern const char *const scan_schema_names[];
extern const char *const scan_dialect_names[];

/* A file's bytes: mapped when possible (len 0 files and stdin are read). */
struct scan_input {
	const char *name;
	char *data;
	size_t len;
	int mapped;
	size_t released;
};

/* Map (or, for stdin and special files, read) a file of at most cap bytes. */
int scan_input_open(struct scan_input *in, const char *name, size_t cap,
		    char *err);
/* Give back the pages of a mapped file below offset (scanned already). */
void scan_input_release_before(struct scan_input *in, size_t off);
void scan_input_close(struct scan_input *in);

/* kinds[i] of a billing export among the operands (not an enum inv_kind). */
#define SCAN_KIND_BILLING 'b'

struct scan_bill; /* billing exports read (cmd_scan_billing.c) */

/* The prices of a region, loaded once from the database. */
struct scan_region_prices {
	char region[32];
	int ok;
	struct price_set ps;
};

struct scan_state {
	struct cli_ctx *ctx;
	const struct scan_args *a;
	struct scan_fleet fleet;
	struct scan_region_prices **rp; /* each on its own: pointers stay */
	size_t nrp, arp;
	struct inv_k8s k8s;
	struct inv_metrics metrics;
	struct inv_usage usage;
	struct inv_warnings warn;   /* the parsers' warnings */
	size_t nwarn;		    /* printed so far (capped) */
	size_t no_price_said;	    /* fleet.no_price entries warned about */
	struct scan_input stdin_in; /* stdin, read once when a volume file */
	struct scan_input *cur;	    /* the describe-volumes file being read */
	size_t nread;		    /* volume records read (progress) */
	const char *progress;	    /* the progress line's prefix, or NULL */
	uint32_t *cmd_rows; /* report: human commands (rec << 2 | kind) */
	size_t ncmd_rows;
	struct scan_bill *bill; /* billing exports; NULL: none given */
	char err[EBS_ERRLEN];
};

/* The prices of region (read once), NULL: none (cmd_scan.c). */
const struct price_set *scan_prices_for(struct scan_state *st,
					const char *region);
/* scan's checks of its options (--exclude-tag; the alarm lead time). */
int scan_args_check(const char *cmd, struct scan_args *a);

/*
 * The whole analysis of a scan's inputs into st (which it fills from
 * zero): limits, the side inputs, the describe-volumes files streamed,
 * the PVs, the warnings.  keep_top and group_unchanged as in struct
 * scan_fleet_opts; progress prefixes the progress line (NULL: none).
 * EXIT_OK, or an exit code (the error printed).  Release st with
 * scan_state_release either way.  `ebsize report --scan` uses it too
 * (cmd_report.c).
 */
int scan_collect(struct cli_ctx *ctx, const struct scan_args *a,
		 size_t keep_top, int group_unchanged, const char *progress,
		 struct scan_state *st);
void scan_state_release(struct scan_state *st);

/* Print the parsers' and the rules' new warnings, the first 20 in all. */
void scan_flush_warnings(struct scan_state *st);

/*
 * Pass 1: read every input but describe-volumes (told apart by content;
 * kinds[i] gets the kind of file i) into the fleet.  0, or 1 (printed).
 */
int scan_load_inputs(struct scan_state *st, char *kinds);
/* Pass 2: stream the describe-volumes files, then the PVs not covered. */
int scan_read_volumes(struct scan_state *st, const char *kinds);
/* --metric-queries: the GetMetricData queries for the in-use volumes. */
int scan_write_queries(const struct scan_args *a, struct cli_ctx *ctx);
/*
 * Tag values and names in the human formats (cmd_scan_report.c): control
 * characters as '?', so that a value stays one cell on one line.
 */
const char *scan_one_line(const char *s, char *buf, size_t n);

/* Sort the findings and render them with their totals; an exit code. */
int scan_report(struct scan_state *st);

/* ------------------------------------------------------------ billing */

/*
 * Is `name` a billing export (FOCUS, legacy CUR, CUR 2.0; told by its
 * header)?  in NULL: a regular file is sniffed (plain or gzip) and, when
 * it is one, streamed into st->bill; other files are left for the caller
 * to read.  in not NULL: the bytes already read (stdin, a pipe), parsed
 * from memory.  *taken is 1 when it was an export.  0, or 1 after
 * printing an error (a file that cannot be read, an export that is not
 * well-formed: the file and line named).
 */
int scan_billing_input(struct scan_state *st, const char *name,
		       const struct scan_input *in, int *taken);
/* Volumes read from billing exports so far. */
size_t scan_billing_volumes(const struct scan_state *st);
/*
 * After the describe-volumes files and PVs: analyse the billed volumes
 * (prices in force per region) and join them to the fleet: volumes also
 * in describe-volumes or a PV keep that finding with the billed cost as
 * current; with metrics or used space they go through the scan rules;
 * the others get the billing rules' finding.  described: describe-volumes
 * files were given (volumes billed but absent from them are reported).
 * 0, or 1 after printing an error.
 */
int scan_billing_join(struct scan_state *st, int described);
void scan_billing_release(struct scan_state *st);
/* The findings list's billing columns (after the others) and cells. */
void scan_billing_cols(struct out_table *t, int human);
void scan_billing_cells(struct out_table *t, const struct scan_rec *r,
			int human);
/* Why, for any finding (the billing rules' words for theirs). */
void scan_rec_reason(const struct scan_rec *r, char *buf, size_t n);
/* The billing record, files and totals, and their notes. */
void scan_billing_report(struct out_doc *doc, const struct scan_state *st,
			 int human);
/* --emit-sql: print the billing analysis as SQL; an exit code. */
int scan_emit_sql(const struct scan_args *a, struct cli_ctx *ctx);
/*
 * The workbook (cmd_scan_book.c): live formulas and sheets for the
 * sections scan_report builds -- the findings list, the summary, the
 * totals by currency and by category, region or tag -- and the sections
 * only a workbook has (Unchanged, the price snapshots, Prices).
 * scan_book_sheets returns an exit code (1: printed).
 */
void scan_book_findings(struct out_table *t);
void scan_book_summary(struct out_table *t);
void scan_book_currency(struct out_table *t);
void scan_book_totals(struct out_table *t, enum scan_by by);
int scan_book_sheets(struct out_doc *doc, struct scan_state *st);

/* "gp3 2,000 GiB 6,000 IOPS 250 MiB/s", "delete (after a snapshot)". */
void scan_describe(const struct vol_config *c, char *buf, size_t n);

/*
 * The charts of a scan (cmd_scan_charts.c): current against proposed
 * monthly cost by category, region and --by-tag value, and the top
 * volumes by savings; one set per currency, USD first.  Named
 * PREFIX-categories, PREFIX-regions, PREFIX-tags, PREFIX-top (another
 * currency's with "-cny" ... after).  After scan_fleet_sort.
 */
struct scan_chart_opts {
	const char *prefix; /* file stems: "scan" */
	const char *source; /* the inventory, for captions */
	int generated;	    /* generated test data: said so */
	size_t top;	    /* volumes in the top chart */
};

struct report_chart;
struct report_chart **scan_charts(const struct scan_state *st,
				  const struct scan_chart_opts *o, size_t *n);
void scan_charts_free(struct report_chart **v, size_t n);
/* --svg-dir: the charts into a->svg_dir, linked from doc's Markdown. */
int scan_svg_dir(struct out_doc *doc, const struct scan_state *st);

#endif
