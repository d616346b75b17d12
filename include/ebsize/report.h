/*
 * report.h - the pictures: charts built from ebsize's own results (bench
 * runs, the burst simulator, the solver, scan findings) with svg.h, each
 * with the table of the data behind it, and the self-contained HTML report
 * that holds them (`ebsize report`; the --svg-dir charts of compare,
 * cheapest and burst).
 *
 * Chart builders are pure: they take structs and return a heap struct
 * report_chart (caller frees with report_chart_free, or hands it to a
 * report with report_add).  Only report_write and report_svg_dir touch
 * files, and they write every file whole or not at all.
 *
 * Measured data is drawn as measured, published summaries as published
 * points and levels; the model's lines are labelled "modelled".  Nothing
 * here invents a measured series.
 */
#ifndef EBSIZE_REPORT_H
#define EBSIZE_REPORT_H

#include <stddef.h>

#include "ebsize/bench.h"
#include "ebsize/burst.h"
#include "ebsize/model.h"
#include "ebsize/solver.h"
#include "ebsize/util.h"

/* The data behind a chart: text cells, row-major. */
struct report_table {
	char **head;
	size_t ncols;
	char **cells;
	size_t ncells, acells;
};

struct report_chart {
	char *name; /* file stem and HTML id: [a-z0-9-] */
	char *title;
	char *svg;     /* one <svg> element */
	char *caption; /* prose under the chart, or NULL */
	struct report_table data;
};

void report_chart_free(struct report_chart *c);

/*
 * Write c as DIR/NAME.svg (an XML declaration, then the <svg> element),
 * atomically.  EBS_ERR_IO with a message naming the file.
 */
int report_chart_write_svg(const struct report_chart *c, const char *dir,
			   char *err);

/* ------------------------------------------------------------ the report */

struct report;

/* A report titled title with an introduction (plain text, escaped). */
struct report *report_new(const char *title, const char *intro);
void report_free(struct report *r);

/* Start a section; charts added next belong to it. */
void report_section(struct report *r, const char *title, const char *text);
/* Add a chart (the report owns it); NULL is ignored. */
void report_add(struct report *r, struct report_chart *c);
size_t report_chart_count(const struct report *r);

/*
 * The page: one HTML document with inline CSS and inline SVG, no script,
 * nothing fetched (a Content-Security-Policy says so too); each chart is
 * followed by its data in a collapsed <details> table.  Appends to out;
 * 0 or EBS_ERR_TOO_BIG.
 */
int report_html(const struct report *r, struct sbuf *out);

/*
 * Write DIR/index.html and DIR/NAME.svg for every chart, creating DIR.
 * Every file is written to a temporary file in DIR first; only when all
 * are written are they renamed into place (index.html last), so a failure
 * leaves no partial report.  EBS_ERR_IO with a message naming the path.
 */
int report_write(const struct report *r, const char *dir, char *err);

/* ------------------------------------------------------------ bench */

/* One stored run with its phases and their per-second samples. */
struct report_run {
	const struct bench_run *run;
	const struct bench_phase_result *phases;
	size_t nphases;
	struct bench_sample *const *samples; /* per phase; NULL: none */
	const size_t *nsamples;
};

/*
 * IOPS over time for the runs of one group, one phase each (the first with
 * a per-second series, else the first random-I/O phase): measured series
 * as lines, published or summary levels as thick segments, the cliff
 * annotated (time, level before and after) and, for a volume the model
 * knows, the modelled timeline from the burst simulator at the volume's
 * limit from a full bucket, labelled "modelled".  NULL when no run has a
 * figure to draw.
 */
struct report_chart *report_chart_iops(const char *name, const char *title,
				       const struct report_run *runs, size_t n);

/*
 * Latency percentiles (p50, p95, p99) of the phase named phase, one bar
 * series per run that has any of them, side by side.  NULL when none has.
 */
struct report_chart *report_chart_latency(const char *name, const char *title,
					  const struct report_run *runs,
					  size_t n, const char *phase);

/*
 * The modelled per-second series of a volume under a constant demand from
 * a full bucket, as step vertices (t, IOPS): gp2 through the burst
 * simulator, gp3/io1/io2 flat at the provisioned IOPS.  Returns the number
 * of vertices written to t and v (room for max; 4 suffice for gp2), 0 when
 * the model has nothing to say (unknown type or size, HDD, standard).
 */
size_t report_model_series(const char *volume_type, double size_gib, long iops,
			   long seconds, double *t, double *v, size_t max,
			   double *demand);

/* ------------------------------------------------------------ costs */

struct report_cost_input {
	const char *region;
	const char *prices_note; /* "snapshot 1 (embedded, as of ...)" */
	const struct volume_limits *lim;  /* [VT_COUNT]: gp2, gp3, io2 used */
	const struct type_prices *prices; /* [VT_COUNT] */
	const long *sizes;		  /* the sizes asked for (GiB) */
	size_t nsizes;
	long iops;	     /* the compare load (3,000) */
	double capacity_gib; /* capacity of the IOPS curve (100) */
	double io_kib;	     /* I/O size of the IOPS curve (16) */
	long max_stripe;     /* widest gp3 stripe (8) */
};

/*
 * Monthly cost against required IOPS (at capacity_gib, io_kib I/O) for
 * gp2, gp3, io2 single volumes and the cheapest gp3 stripe, from the
 * solver; crossovers labelled.
 */
struct report_chart *report_chart_cost_iops(const char *name,
					    const struct report_cost_input *in);

/*
 * Monthly cost against size: gp2, and the gp3, io2 and cheapest gp3 stripe
 * that are never slower than it (model_like_gp2, as `compare`);
 * crossovers labelled, the sizes asked for marked.
 */
struct report_chart *report_chart_cost_size(const char *name,
					    const struct report_cost_input *in);

/* gp2: how long a full bucket lasts under load_iops, against size. */
struct report_chart *report_chart_burst_sizes(const char *name,
					      double load_iops,
					      const long *sizes, size_t nsizes);

/* ------------------------------------------------------------ commands */

/* One row of `compare`: the monthly cost of type at a gp2 size. */
struct report_compare_row {
	long gp2_size_gib;
	enum vol_type type;
	double usd_per_month;
};

/* `compare`: monthly cost per type against the gp2 size. */
struct report_chart *report_chart_compare(const char *name, const char *region,
					  const struct report_compare_row *rows,
					  size_t n);

/* `cheapest`: the options' monthly cost, cheapest first (top n). */
struct report_chart *report_chart_cheapest(const char *name,
					   const struct candidate *opts,
					   size_t n);

/*
 * `burst`: simulate b under p from credits and chart what is delivered
 * against the demand (*rate) and the credits left (*credits).  Long runs
 * are reduced to the vertices where the lines bend.
 */
void report_charts_burst(const char *name, const struct bucket *b,
			 const struct burst_profile *p, double credits,
			 struct report_chart **rate,
			 struct report_chart **credits_out);

struct out_doc;

/*
 * Write charts (n of them, NULL entries skipped) as DIR/NAME.svg (DIR
 * created) and add a Markdown image line "![title](DIR/NAME.svg)" for each
 * to doc (unless doc is NULL).  EBS_ERR_IO with a message naming the file.
 */
int report_svg_dir(struct out_doc *doc, const char *dir,
		   struct report_chart *const *charts, size_t n, char *err);

/* ------------------------------------------------------------ scan */

/*
 * What `scan` hands the report: per-finding rows and totals per category
 * and per region (the scan side fills these from its findings; text is
 * borrowed, not copied, and may be anything: it is escaped).
 */
struct report_scan_finding {
	const char *volume_id;
	const char *name; /* Name tag, or NULL */
	const char *region;
	const char *category; /* scan_cat_name() */
	const char *current;  /* "gp2 500 GiB" */
	const char *proposed; /* "gp3 500 GiB 3,000 IOPS", "delete" */
	double cur_usd, prop_usd, save_usd; /* per month */
};

struct report_scan_total {
	const char *key; /* category or region */
	long volumes;
	double cur_usd, prop_usd, save_usd;
};

struct report_scan {
	const char *source; /* the inventory, for captions */
	int generated;	    /* a generated (not real) inventory */
	const struct report_scan_finding *findings;
	size_t nfindings;
	const struct report_scan_total *by_category;
	size_t ncategories;
	const struct report_scan_total *by_region;
	size_t nregions;
	size_t top;	      /* volumes in the top-savings chart */
	const char *currency; /* of every amount; NULL: USD */
	const struct report_scan_total *by_tag; /* by the value of tag_key */
	size_t ntags;
	const char *tag_key;
};

/*
 * Current against proposed monthly cost per category (by 0), region (1)
 * or value of the tag s->tag_key (2).
 */
struct report_chart *report_chart_scan_totals(const char *name,
					      const struct report_scan *s,
					      int by);
/* The top s->top volumes by monthly savings. */
struct report_chart *report_chart_scan_top(const char *name,
					   const struct report_scan *s);

#endif
