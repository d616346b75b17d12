/*
 * cmd_burst.c - `ebsize burst`: run the credit-bucket simulator (burst.c)
 * for one gp2, st1 or sc1 volume under a constant load or a profile file,
 * and report when the bucket empties, what is delivered, how long the
 * refill takes, and the steady state of a repeating profile.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/burst.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/msg.h"
#include "ebsize/report.h"
#include "ebsize/util.h"

#define PROFILE_CAP (1 << 20)
#define MAX_SECONDS (366L * 86400)

struct args {
	enum vol_type type;
	double size_gib;
	double load;
	long duration;
	const char *profile_file;
	long idle;
	int have_idle;
	const char *credits;
	int timeline;
	const char *svg_dir;
	const char *as_of;
};

static const char *const bucket_types[] = { "gp2", "st1", "sc1", NULL };

/* --type: only the types with a credit bucket. */
static int parse_bucket_type(const char *cmd, const char *opt, const char *val,
			     void *target)
{
	enum vol_type *t = target;

	if (model_type_parse(val, t) ||
	    (*t != VT_GP2 && *t != VT_ST1 && *t != VT_SC1)) {
		msg_usage_error(
		    cmd,
		    "--%s must be gp2, st1 or sc1 (the types with a credit bucket), not '%s'",
		    opt, val);
		return -1;
	}
	return 0;
}

#define A(f) offsetof(struct args, f)

static const struct opt burst_opts[] = {
	{ "size", 0, OPT_NUM, A(size_gib), "GIB", "volume size", .min = 1,
	  .max = 65536, .flags = OPT_REQUIRED, .unit = OPT_UNIT_GIB },
	{ "type", 0, OPT_FUNC, A(type), "T", "gp2 (default), st1 or sc1",
	  .parse = parse_bucket_type, .choices = bucket_types, .def = "gp2" },
	{ "load", 0, OPT_NUM, A(load), "RATE", "a constant demand", .min = 0,
	  .max = 1e7, .unit = OPT_UNIT_COUNT },
	{ "duration", 0, OPT_INT, A(duration), "S",
	  "seconds to simulate a constant load (default: until\n"
	  "the bucket is empty plus 10 %, at least 1 hour)",
	  .min = 1, .max = MAX_SECONDS, .unit = OPT_UNIT_SECONDS },
	{ "profile", 0, OPT_STR, A(profile_file), "FILE",
	  "steps, one per line: 'RATE SECONDS' or 'idle SECONDS';\n"
	  "'# comments'; 'repeat N' repeats the whole list",
	  .flags = OPT_PATH },
	{ "idle", 0, OPT_INT, A(idle), "S",
	  "start from an empty bucket after S idle seconds", .min = 0,
	  .max = MAX_SECONDS, .unit = OPT_UNIT_SECONDS },
	{ "credits", 0, OPT_STR, A(credits), "C",
	  "start with C credits, or C% of a full bucket\n"
	  "(default: full, as a new volume)" },
	{ "timeline", 0, OPT_FLAG, A(timeline), NULL,
	  "print the per-second series instead, as CSV unless\n"
	  "--format json|md: t_s,demand,delivered,credits,credits_pct" },
	{ "svg-dir", 0, OPT_STR, A(svg_dir), "DIR",
	  "also chart the run as DIR/burst.svg (delivered against\n"
	  "demand) and DIR/burst-credits.svg (--format md links them)",
	  .flags = OPT_DIRNAME },
	{ "as-of", 0, OPT_DATE, A(as_of), "DATE",
	  "check the size against the volume rules in force on DATE" },
	{ NULL }
};

static int check(struct cli_ctx *ctx, void *args)
{
	struct args *a = args;
	const char *c_ = ctx->cmd_name;
	int have_load = cli_given(ctx, "load");

	a->have_idle = cli_given(ctx, "idle");
	if (have_load == !!a->profile_file)
		return msg_usage_error(
		    c_, "give either --load RATE or --profile FILE");
	if (a->duration && !have_load)
		return msg_usage_error(
		    c_,
		    "--duration goes with --load (a profile sets its own length)");
	if (a->have_idle && a->credits)
		return msg_usage_error(c_,
				       "give --idle or --credits, not both");
	return EXIT_OK;
}

/* Starting credits from --idle / --credits; usage error on a bad value. */
static int start_credits(const struct args *a, const struct bucket *b,
			 double *credits)
{
	double v;
	size_t n;

	*credits = b->capacity;
	if (a->have_idle) {
		*credits = fmin(b->capacity, b->baseline * (double)a->idle);
		return 0;
	}
	if (!a->credits)
		return 0;
	n = strlen(a->credits);
	if (n > 1 && a->credits[n - 1] == '%') {
		char *num = xstrndup(a->credits, n - 1);
		int bad = parse_nonneg_double(num, &v) || v > 100;

		free(num);
		if (!bad) {
			*credits = b->capacity * v / 100.0;
			return 0;
		}
	} else if (!parse_nonneg_double(a->credits, &v) && v <= b->capacity) {
		*credits = v;
		return 0;
	}
	msg_usage_error(
	    "burst",
	    "--credits must be a percentage (0%% to 100%%) or a count up to %.0f, not '%s'",
	    b->capacity, a->credits);
	return -1;
}

/*
 * Default length of a constant-load run: until the bucket is empty plus
 * 10 %, at least 1 h, at most a year.  Whole seconds, in integers: the
 * seconds to empty (ceil, with a tolerance for the noise of the float
 * division: 5,400,000 / 1,500 is 3,600 s, not 3,600.0000001), then x 11 /
 * 10 rounded up, so 3,600 s gives 3,960 s (issue 10 item 10).
 */
#define SECONDS_EPS 1e-6 /* the float noise of credits / rate */

static long default_duration(const struct bucket *b, double load,
			     double credits)
{
	double spend = fmin(load, b->ceiling) - b->baseline;
	double t = spend > 0 ? credits / spend : 0;
	long empty_s;

	if (t >= (double)MAX_SECONDS)
		return MAX_SECONDS;
	empty_s = (long)ceil(t - SECONDS_EPS);
	empty_s = (empty_s * 11 + 9) / 10;
	if (empty_s < 3600)
		return 3600;
	return empty_s < MAX_SECONDS ? empty_s : MAX_SECONDS;
}

struct timeline {
	struct out_stream *s;
	double capacity;
	/* a workbook: every `stride`-th second kept in memory */
	long stride, total;
	double (*rows)[5];
	size_t n, alloc;
};

/* Rows a workbook's timeline keeps at most (a chart, not the raw series). */
#define XLSX_TIMELINE_ROWS 10000

static const char *const timeline_keys[] = {
	"t_s", "demand", "delivered", "credits", "credits_pct",
};

/* One simulated second, written out at once (memory stays flat). */
static void sample(long t, double demand, double delivered, double credits,
		   void *arg)
{
	struct timeline *tl = arg;
	double row[5] = { (double)t, demand, delivered, credits,
			  credits / tl->capacity * 100.0 };

	if (tl->s) {
		out_stream_row(tl->s, row);
		return;
	}
	if (t != 1 && t % tl->stride && t != tl->total)
		return;
	xgrow((void **)&tl->rows, &tl->alloc, tl->n + 1, sizeof(*tl->rows));
	memcpy(tl->rows[tl->n++], row, sizeof(row));
}

/* The kept timeline as a workbook sheet with two charts. */
static void add_timeline(struct out_doc *doc, const struct args *a,
			 const struct timeline *tl)
{
	const char *unit = a->type == VT_GP2 ? "IOPS" : "MiB/s";
	struct out_table *t = out_list(doc, "timeline", "Timeline");
	struct out_chart *c;
	char title[64];

	out_xlsx_only(t);
	out_col(t, "t_s", "Second", OUT_INT);
	out_col(t, "demand", "Demand", OUT_NUM1);
	out_col(t, "delivered", "Delivered", OUT_NUM1);
	out_col(t, "credits", "Credits", OUT_INT);
	out_col(t, "credits_pct", "Credits (%)", OUT_NUM1);
	for (size_t i = 0; i < tl->n; i++) {
		out_row(t);
		for (size_t k = 0; k < 5; k++)
			out_num(t, tl->rows[i][k]);
	}
	xsnprintf(title, sizeof(title), "Demand and delivered %s", unit);
	c = out_chart(t, OUT_CHART_LINE, title, "t_s");
	out_chart_series(c, "demand");
	out_chart_series(c, "delivered");
	out_chart_axes(c, "seconds", unit);
	c = out_chart(t, OUT_CHART_LINE, "Credits in the bucket", "t_s");
	out_chart_series(c, "credits");
	out_chart_axes(c, "seconds", "credits");
	if (tl->stride > 1)
		out_note(
		    doc,
		    "workbook timeline: every %ld s of %ld (at most %d rows); --timeline --format csv gives every second",
		    tl->stride, tl->total, XLSX_TIMELINE_ROWS);
}

static void add_summary(struct out_doc *doc, const struct args *a,
			const struct bucket *b, const struct burst_result *r,
			const struct burst_profile *p)
{
	const char *unit = a->type == VT_GP2 ? "IOPS" : "MiB/s";
	struct out_table *t;
	char title[96];

	xsnprintf(title, sizeof(title), "%s %g GiB credit bucket (%s)",
		  model_type_name(a->type), a->size_gib, unit);
	t = out_record(doc, NULL, title);
	out_kv_str(t, "type", "Type", model_type_name(a->type));
	out_kv_num(t, "size_gib", "Size (GiB)", OUT_INT, a->size_gib);
	out_kv_str(t, "unit", "Rate unit", unit);
	out_kv_num(t, "baseline", "Baseline (earn rate)", OUT_NUM1,
		   b->baseline);
	out_kv_num(t, "ceiling", "Burst ceiling", OUT_NUM1, b->ceiling);
	out_kv_num(t, "capacity", "Bucket capacity", OUT_INT, b->capacity);
	out_kv_num(t, "start_credits", "Credits at start", OUT_INT,
		   r->start_credits);
	out_kv_num(t, "seconds", "Simulated", OUT_DURATION, (double)r->seconds);
	out_kv_num(t, "average_demand", "Average demand", OUT_NUM1,
		   r->average_demand);
	if (r->time_to_empty_s >= 0)
		out_kv_num(t, "time_to_empty_s", "Bucket empty after",
			   OUT_DURATION, (double)r->time_to_empty_s);
	else
		out_kv_null(t, "time_to_empty_s", "Bucket empty after",
			    OUT_DURATION);
	out_kv_num(t, "average_delivered", "Average delivered", OUT_NUM1,
		   r->average_delivered);
	out_kv_num(t, "min_delivered", "Lowest delivered", OUT_NUM1,
		   r->min_delivered);
	out_kv_num(t, "shortfall_seconds", "Below demand for", OUT_DURATION,
		   (double)r->shortfall_seconds);
	out_kv_num(t, "end_credits", "Credits at end", OUT_INT, r->end_credits);
	out_kv_num(t, "end_credits_pct", "Credits at end (%)", OUT_NUM1,
		   r->end_credits / b->capacity * 100.0);
	out_kv_num(t, "refill_seconds", "Refill at zero I/O", OUT_DURATION,
		   r->refill_seconds);
	if (p->repeat > 1 || a->profile_file) {
		struct burst_result ss;
		double start;
		long periods = burst_steady_state(b, p, r->start_credits, 10000,
						  &ss, &start);

		t = out_record(doc, "steady_state",
			       "Steady state of the repeating profile");
		out_kv_num(t, "period_s", "Period", OUT_DURATION,
			   (double)burst_profile_seconds(p));
		if (periods > 0)
			out_kv_int(t, "periods_to_settle", "Periods to settle",
				   periods);
		else
			out_kv_null(t, "periods_to_settle", "Periods to settle",
				    OUT_INT);
		if (periods < 0)
			out_note(
			    doc,
			    "the profile had not settled after %ld simulated seconds; figures are for the last period simulated",
			    (long)BURST_MAX_TICKS);
		out_kv_num(t, "credits_at_period_start",
			   "Credits at period start", OUT_INT, start);
		out_kv_num(t, "min_credits", "Lowest credits", OUT_INT,
			   ss.min_credits);
		out_kv_num(t, "average_delivered", "Average delivered",
			   OUT_NUM1, ss.average_delivered);
		out_kv_num(t, "shortfall_seconds", "Below demand per period",
			   OUT_DURATION, (double)ss.shortfall_seconds);
	}
}

/* --svg-dir: the run as two chart files, linked from the Markdown
 * (doc NULL with --timeline: the files only). */
static int add_svg(struct out_doc *doc, const char *dir, const struct bucket *b,
		   const struct burst_profile *p, double credits)
{
	struct report_chart *c[2];
	char err[EBS_ERRLEN];
	int rc;

	report_charts_burst("burst", b, p, credits, &c[0], &c[1]);
	rc = report_svg_dir(doc, dir, c, 2, err);
	if (rc)
		msg_error("%s", err);
	report_chart_free(c[0]);
	report_chart_free(c[1]);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}

/*
 * The volume rules of the type in force today (--as-of: on that date) and
 * the size within them: the size limits are dated rows of the database
 * (ebs-facts.md T1), not constants here.  The credit rules themselves
 * (T2, T5) are constants that have not changed.
 */
static int check_rules(struct cli_ctx *ctx, const struct args *a)
{
	struct volume_limits lim;
	char err[EBS_ERRLEN], when[32];
	int rc;

	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	if ((rc = db_load_limits(ctx->db, a->type, a->as_of, &lim, err)))
		return cli_fail(ctx, rc, err);
	if (a->size_gib < (double)lim.min_size_gib ||
	    a->size_gib > (double)lim.max_size_gib) {
		if (a->as_of)
			xsnprintf(when, sizeof(when), "on %s", a->as_of);
		else
			xsnprintf(when, sizeof(when), "today");
		return msg_usage_error(
		    ctx->cmd_name,
		    "%s volumes are %ld to %ld GiB under the rules in force %s; %g GiB is out of range",
		    model_type_name(a->type), lim.min_size_gib,
		    lim.max_size_gib, when, a->size_gib);
	}
	return EXIT_OK;
}

static int run(struct cli_ctx *ctx, void *args)
{
	const struct args *a = args;
	struct burst_profile p = { 0 };
	struct burst_step step;
	struct burst_result r;
	struct bucket b;
	struct out_doc *doc = NULL;
	struct timeline tl = { 0 };
	char err[EBS_ERRLEN], *text = NULL;
	double credits;
	int rc;

	if ((rc = check_rules(ctx, a)))
		return rc;
	burst_bucket(a->type, a->size_gib, &b);
	if (start_credits(a, &b, &credits))
		return EXIT_USAGE;
	if (a->profile_file) {
		if ((rc = read_file_capped(a->profile_file, PROFILE_CAP, &text,
					   NULL, err)))
			return cli_fail(ctx, rc, err);
		rc = burst_profile_parse(text, &p, err);
		free(text);
		if (rc) {
			msg_error("cannot parse profile '%s': %s",
				  a->profile_file, err);
			return EXIT_RUNTIME;
		}
	} else {
		step.rate = a->load;
		step.seconds = a->duration
				   ? a->duration
				   : default_duration(&b, a->load, credits);
		p.steps = &step;
		p.n = 1;
		p.repeat = 1;
	}
	if (a->timeline && a->svg_dir &&
	    (rc = add_svg(NULL, a->svg_dir, &b, &p, credits)))
		goto out;
	tl.capacity = b.capacity;
	if (a->timeline && ctx->format != OUT_XLSX) {
		tl.s = out_stream_begin(
		    cli_out(ctx, ctx->cmd_name, "a timeline"), ctx->format,
		    "timeline", timeline_keys, ARRAY_SIZE(timeline_keys));
		burst_simulate(&b, &p, credits, sample, &tl, &r);
		rc = EXIT_OK;
		if (out_stream_end(tl.s))
			rc = cli_write_error(ctx);
	} else {
		int book = ctx->format == OUT_XLSX;
		double total =
		    (double)burst_profile_seconds(&p) * (double)p.repeat;

		/* a workbook always gets the (sampled) timeline and its charts */
		tl.total = (long)fmin(total, (double)BURST_MAX_TICKS);
		tl.stride = (long)fmax(1.0, ceil(total / XLSX_TIMELINE_ROWS));
		burst_simulate(&b, &p, credits, book ? sample : NULL, &tl, &r);
		doc = out_doc_new();
		add_summary(doc, a, &b, &r, &p);
		if (book)
			add_timeline(doc, a, &tl);
		rc = a->svg_dir ? add_svg(doc, a->svg_dir, &b, &p, credits)
				: EXIT_OK;
		if (!rc)
			rc = cli_render(ctx, doc);
		out_doc_free(doc);
		free(tl.rows);
	}
out:
	if (a->profile_file)
		burst_profile_release(&p);
	return rc;
}

const struct cmd cmd_burst_def = {
	.name = "burst",
	.run = run,
	.args_size = sizeof(struct args),
	.summary = "simulate a gp2/st1/sc1 credit bucket second by second",
	.synopsis =
	    "--size GIB [--type gp2|st1|sc1] (--load RATE [--duration S] | --profile FILE)"
	    " [--idle S | --credits PCT%|N] [--timeline] [--svg-dir DIR] [--as-of DATE]",
	.description =
	    "Simulate a volume's credit bucket second by second: gp2 I/O credits\n"
	    "(RATE in IOPS) or st1/sc1 throughput credits (RATE in MiB/s).  Reports\n"
	    "when the bucket runs dry, what the volume delivers, the average over the\n"
	    "run, the time to refill it at zero I/O, and for a repeating profile the\n"
	    "steady state.",
	.opts = burst_opts,
	.check = check,
	.tables = "(records), result, steady_state, notes",
};
