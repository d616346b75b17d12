/*
 * cmd_cheapest.c - `ebsize cheapest`: ranked volume sets (types x stripe
 * widths) that deliver N IOPS, M MiB/s and C GiB, with instance limits,
 * burst-only marks and stored benchmark evidence.  The sizing itself is
 * src/solver.c; this file gathers inputs from the database and presents.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_batch.h"
#include "ebsize/batch.h"
#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/msg.h"
#include "ebsize/report.h"
#include "ebsize/solver.h"
#include "ebsize/strmap.h"
#include "ebsize/util.h"

/*
 * The families `cheapest` suggests sizes of without --instance: common
 * older ones and the current generation, each with its storage (d) and
 * network (n) variants, shown only where a variant fits better (a smaller
 * size carries the need, or the base family cannot).
 */
static const struct {
	const char *base;
	const char *variants[4];
} families[] = {
	{ "m5", { "m5d", "m5n", "m5dn" } },
	{ "m6i", { "m6id", "m6in", "m6idn" } },
	{ "c6i", { "c6id", "c6in" } },
	{ "r6i", { "r6id", "r6in", "r6idn" } },
	{ "m7g", { "m7gd" } },
	{ "m7i", { NULL } },
	{ "c7i", { NULL } },
	{ "r7i", { NULL } },
	{ "m8g", { "m8gd", "m8gn" } },
	{ "c8g", { "c8gd", "c8gn" } },
	{ "r8g", { "r8gd", "r8gn" } },
};

struct args {
	struct need need;
	const char *instance;
	const char *as_of;
	int want[VT_COUNT];
	long max_stripe;
	long top;
	const char *svg_dir;
	const char *batch;
	int batch_format; /* enum batch_format */
};

/* Parse "P:S[/T]" into the need's peak fields; usage error on failure. */
static int parse_peak(const char *cmd, const char *opt, const char *s,
		      void *target)
{
	struct need *nd = target;
	char *copy = xstrdup(s), *colon = strchr(copy, ':'), *slash;
	int rc = 0;

	nd->period_s = 86400;
	if (!colon) {
		rc = -1;
		goto out;
	}
	*colon = '\0';
	slash = strchr(colon + 1, '/');
	if (slash)
		*slash = '\0';
	if (opt_parse_quantity(copy, OPT_UNIT_COUNT, &nd->peak_iops) ||
	    nd->peak_iops <= 0 || nd->peak_iops > 1e7 ||
	    opt_parse_quantity(colon + 1, OPT_UNIT_SECONDS, &nd->peak_s) ||
	    nd->peak_s < 1 ||
	    (slash &&
	     opt_parse_quantity(slash + 1, OPT_UNIT_SECONDS, &nd->period_s)) ||
	    nd->period_s <= nd->peak_s || nd->period_s > 366 * 86400.0)
		rc = -1;
out:
	free(copy);
	if (rc)
		msg_usage_error(
		    cmd,
		    "--%s must be IOPS:SECONDS[/PERIOD] with SECONDS >= 1 and shorter than PERIOD (default 86400, at most a year), not '%s'",
		    opt, s);
	return rc;
}

#define A(f) offsetof(struct args, f)

static const struct opt cheapest_opts[] = {
	{ "iops", 0, OPT_NUM, A(need.iops), "N",
	  "operations per second the workload needs", .min = 1, .max = 1e7,
	  .unit = OPT_UNIT_COUNT },
	{ "throughput", 0, OPT_NUM, A(need.mibps), "MIBPS",
	  "MiB/s it needs, moved in I/O of up to 256 KiB (SSD)\n"
	  "or 1 MiB (HDD); at least N x io-size in any case",
	  .min = 1, .max = 1e6, .unit = OPT_UNIT_MIBPS },
	{ "size", 0, OPT_NUM, A(need.size_gib), "GIB",
	  "usable capacity it needs", .min = 1, .max = 1e8,
	  .unit = OPT_UNIT_GIB },
	{ "io-size", 0, OPT_NUM, A(need.io_kib), "KIB",
	  "I/O size; SSD volumes count I/O in 256 KiB\n"
	  "units, st1/sc1 in 1 MiB units",
	  .min = 0.5, .max = 16384, .def = "16", .unit = OPT_UNIT_KIB },
	{ "instance", 0, OPT_STR, A(instance), "TYPE",
	  "check the set against the instance's EBS limits" },
	{ "types", 0, OPT_FUNC, A(want), "LIST", "volume types to consider",
	  .parse = cli_parse_types, .choices = cli_type_names,
	  .def = "gp2,gp3,io1,io2,st1,sc1" },
	{ "max-stripe", 0, OPT_INT, A(max_stripe), "K",
	  "largest stripe width (1 = single volumes)", .min = 1, .max = 64,
	  .def = "8" },
	{ "peak", 0, OPT_FUNC, A(need), "P:S[/T]",
	  "the workload peaks at P IOPS for S seconds every T\n"
	  "seconds (default T 86400 = 1d; 20k:30m/1d); bursting volumes qualify\n"
	  "when their credits cover the peak and refill in time",
	  .parse = parse_peak },
	{ "top", 0, OPT_INT, A(top), "K", "show the K cheapest options",
	  .min = 1, .max = 1000, .def = "10" },
	{ "as-of", 0, OPT_DATE, A(as_of), "DATE",
	  "use the volume rules and prices in force on DATE" },
	{ "svg-dir", 0, OPT_STR, A(svg_dir), "DIR",
	  "also chart the options as DIR/cheapest-cost.svg\n"
	  "(--format md links it)",
	  .flags = OPT_DIRNAME },
	{ "batch", 0, OPT_STR, A(batch), "FILE",
	  "answer every request of FILE ('-': standard input):\n"
	  "JSON Lines or CSV whose keys are these options' names,\n"
	  "id and region (see below)",
	  .flags = OPT_PATH | OPT_BATCH },
	{ "batch-format", 0, OPT_ENUM, A(batch_format), "FMT",
	  "auto (by the first character: '{' JSON Lines),\njsonl or csv",
	  .choices = batch_format_names, .def = "auto", .flags = OPT_BATCH },
	{ NULL }
};

static const char *const cheapest_not_per_request[] = { "svg-dir", NULL };
static const struct batch_cmd cheapest_batch;

static int check(struct cli_ctx *ctx, void *args)
{
	struct args *a = args;

	if (cli_given(ctx, "batch") || cli_given(ctx, "batch-format"))
		return batch_check(ctx, &cheapest_batch);

	if (!cli_given(ctx, "iops") && !cli_given(ctx, "throughput") &&
	    !cli_given(ctx, "size"))
		return msg_usage_error(
		    ctx->cmd_name,
		    "say what is needed: --iops, --throughput and/or --size");
	if (a->need.peak_iops > 0 && a->need.peak_iops <= a->need.iops)
		return msg_usage_error(ctx->cmd_name,
				       "--peak IOPS must be above --iops");
	return EXIT_OK;
}

/* ------------------------------------------------------------ state */

/* The instances of a family, in natural size order (db_each_instance). */
struct fam_list {
	int rc;
	struct instance_limits *v;
	size_t n, alloc;
};

/* One instance type as looked up (db_load_instance). */
struct inst_memo {
	int rc;
	struct instance_limits il;
	char err[EBS_ERRLEN];
};

struct inputs {
	struct solver_input in;
	const struct price_set *ps;
	int unpriced[VT_COUNT]; /* wanted, but the region has no price */
};

/*
 * What answers read from the database, read once per process (one
 * request, or every request of a batch: the database does not change
 * meanwhile), and the last answer, for the chart and a batch row.
 */
struct state {
	struct db *db;
	struct cli_memo *memo; /* prices, volume rules */
	struct db_evidence_cache *ev;
	struct strmap families;	 /* family -> struct fam_list */
	struct strmap instances; /* type -> struct inst_memo */
	struct inputs x;
	struct solver_result r, near;
	const char *region; /* of the last answer */
	int human;	    /* build the tables only people
					      read (table, md)? */
#define EV_TEXTS 16
	long long ev_text_run[EV_TEXTS]; /* run_id whose evidence_text ... */
	char ev_text[EV_TEXTS][256];	 /* ... is here (0: none) */
};

static void state_init(struct state *st, struct db *db)
{
	memset(st, 0, sizeof(*st));
	st->db = db;
	st->memo = cli_memo_new();
	st->ev = db_evidence_cache_new(db);
}

static void free_family(const char *key, void *val, void *arg)
{
	struct fam_list *l = val;

	(void)key;
	(void)arg;
	free(l->v);
	free(l);
}

static void free_instance(const char *key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

static void state_release(struct state *st)
{
	cli_memo_free(st->memo);
	db_evidence_cache_free(st->ev);
	strmap_each(&st->families, free_family, NULL);
	strmap_release(&st->families);
	strmap_each(&st->instances, free_instance, NULL);
	strmap_release(&st->instances);
	solver_result_release(&st->r);
	solver_result_release(&st->near);
}

static int collect(const struct instance_limits *il, void *arg)
{
	struct fam_list *l = arg;

	xgrow((void **)&l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = *il;
	return 0;
}

static const struct fam_list *family_list(struct state *st, const char *family)
{
	struct fam_list *l = strmap_get(&st->families, family);
	char err[EBS_ERRLEN];

	if (!l) {
		l = xcalloc(1, sizeof(*l));
		l->rc = db_each_instance(st->db, NULL, family, collect, l, err);
		strmap_put(&st->families, family, l);
	}
	return l;
}

static const struct inst_memo *instance(struct state *st, const char *type)
{
	struct inst_memo *m = strmap_get(&st->instances, type);

	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->rc = db_load_instance(st->db, type, &m->il, m->err);
		strmap_put(&st->instances, type, m);
	}
	return m;
}

/* ------------------------------------------------------------ output */

static void add_request(struct out_doc *doc, const struct args *a,
			const struct cli_ctx *ctx,
			const struct solver_result *r, const char *currency,
			const char *sustained_by)
{
	struct out_table *t = out_record(doc, "request", "Need");
	const char *types[VT_COUNT];
	size_t ntypes = 0;

	for (int i = 0; i < VT_COUNT; i++)
		if (a->want[i])
			types[ntypes++] = model_type_name((enum vol_type)i);
	out_kv_num(t, "iops", "IOPS", OUT_INT, a->need.iops);
	out_kv_num(t, "throughput_mibps", "MiB/s", OUT_NUM1, a->need.mibps);
	out_kv_num(t, "size_gib", "GiB", OUT_INT, a->need.size_gib);
	out_kv_num(t, "io_kib", "I/O size (KiB)", OUT_NUM0, a->need.io_kib);
	out_kv_num(t, "effective_mibps", "MiB/s incl. N x I/O size", OUT_NUM1,
		   r->mibps);
	if (a->need.peak_iops > 0) {
		out_kv_num(t, "peak.iops", "Peak IOPS", OUT_INT,
			   a->need.peak_iops);
		out_kv_num(t, "peak.seconds", "Peak seconds", OUT_INT,
			   a->need.peak_s);
		out_kv_num(t, "peak.period_s", "Peak every (s)", OUT_INT,
			   a->need.period_s);
	}
	out_kv_str(t, "region", "Region", ctx->region);
	out_kv_str(t, "currency", "Currency", currency);
	out_kv_str(t, "instance", "Instance", a->instance);
	out_kv_str(t, "instance_fit", "Instance fit",
		   a->instance ? solver_fit_name(r->fit) : NULL);
	if (a->instance)
		out_kv_str(t, "instance_sustained_by", "Sustained by",
			   sustained_by);
	out_col(t, "types", "Types", OUT_TEXT);
	out_strv(t, types, ntypes);
	out_kv_int(t, "max_stripe", "Max stripe", a->max_stripe);
	out_kv_str(t, "as_of", "As of", a->as_of);
}

/* One-line evidence text: "label (instance): 3,001 IOPS, p99 12.9 ms". */
static void evidence_text(const struct bench_evidence *e, char *buf, size_t n)
{
	char what[96];

	if (!isnan(e->iops))
		xsnprintf(what, sizeof(what), "%.0f IOPS", e->iops);
	else if (!isnan(e->iops_before_cliff))
		xsnprintf(what, sizeof(what),
			  "%.0f IOPS, %.0f after the cliff at %.0f s",
			  e->iops_before_cliff, e->iops_after_cliff,
			  e->cliff_t_s);
	else
		xsnprintf(what, sizeof(what), "no IOPS figure");
	if (!isnan(e->p99_ms))
		xsnprintf(what + strlen(what), sizeof(what) - strlen(what),
			  ", p99 %.1f ms", e->p99_ms);
	xsnprintf(buf, n, "%s%s%s: %s %s", e->label,
		  *e->instance_type ? " on " : "", e->instance_type, e->phase,
		  what);
}

/*
 * Add the evidence cell for o and return its one-line text (static
 * storage, valid until the next call).
 */
static const char *add_evidence(struct out_table *t, struct state *st,
				const struct candidate *o)
{
	static char text[256];
	struct bench_evidence e;
	struct out_table *ev;
	char err[EBS_ERRLEN];
	int found = 0;

	if (db_bench_evidence_cached(st->ev, &o->cfg, &e, &found, err) ||
	    !found) {
		out_nested(t, ""); /* CSV: empty; JSON: [] */
		return "-";
	}
	/* the text is the run's alone: made once per run */
	if (st->ev_text_run[e.run_id % EV_TEXTS] != e.run_id) {
		evidence_text(&e, st->ev_text[e.run_id % EV_TEXTS],
			      sizeof(text));
		st->ev_text_run[e.run_id % EV_TEXTS] = e.run_id;
	}
	memcpy(text, st->ev_text[e.run_id % EV_TEXTS], sizeof(text));
	ev = out_nested(t, text);
	out_col(ev, "run_id", NULL, OUT_INT);
	out_col(ev, "label", NULL, OUT_TEXT);
	out_col(ev, "source", NULL, OUT_TEXT);
	out_col(ev, "instance_type", NULL, OUT_TEXT);
	out_col(ev, "phase", NULL, OUT_TEXT);
	out_col(ev, "iops", NULL, OUT_NUM0);
	out_col(ev, "iops_before_cliff", NULL, OUT_NUM0);
	out_col(ev, "iops_after_cliff", NULL, OUT_NUM0);
	out_col(ev, "cliff_t_s", NULL, OUT_NUM0);
	out_col(ev, "p99_ms", NULL, OUT_NUM3);
	out_col(ev, "match_distance", NULL, OUT_NUM3);
	out_row(ev);
	out_int(ev, e.run_id);
	out_str(ev, e.label);
	out_str(ev, e.source);
	out_str(ev, *e.instance_type ? e.instance_type : NULL);
	out_str(ev, e.phase);
	out_num(ev, e.iops);
	out_num(ev, e.iops_before_cliff);
	out_num(ev, e.iops_after_cliff);
	out_num(ev, e.cliff_t_s);
	out_num(ev, e.p99_ms);
	out_num(ev, e.distance);
	return text;
}

/* Human note on how the option meets the need over time; NULL when it
 * simply sustains it (JSON null, not a placeholder). */
static const char *burst_text(const struct candidate *o, char *buf, size_t n)
{
	char d[32];

	out_fmt_duration(d, sizeof(d), o->burst_seconds);
	if (o->sustained && o->peak_covered)
		xsnprintf(buf, n, "peak on credits (bucket lasts %s)", d);
	else if (o->sustained)
		return NULL;
	else
		xsnprintf(buf, n, "burst-only: %s from a full bucket", d);
	return buf;
}

/* The compact view people read: one line per option. */
static void add_human_row(struct out_table *h, size_t rank,
			  const struct candidate *o, const char *evidence)
{
	char buf[128];

	out_row(h);
	out_int(h, (long long)rank);
	xsnprintf(buf, sizeof(buf), "%ld x %s %ld GiB", o->cfg.count,
		  model_type_name(o->cfg.type), o->cfg.size_gib);
	out_str(h, buf);
	if (o->cfg.iops)
		out_int(h, o->cfg.iops);
	else
		out_null(h);
	if (o->cfg.throughput_mibps)
		out_int(h, o->cfg.throughput_mibps);
	else
		out_null(h);
	out_num(h, o->cost.total);
	out_num(h, o->usd_per_kiops);
	if (o->sustained && !o->peak_covered)
		/* the volumes sustain it; an instance that only bursts there
		 * does not (T11: 30 minutes per 24 hours) */
		out_str(h, o->fit == FIT_BURST ? "no: instance bursts" : "yes");
	else
		out_str(h, burst_text(o, buf, sizeof(buf)));
	out_num(h, o->headroom_pct);
	out_str(h, o->fit == FIT_UNCHECKED ? "-" : solver_fit_name(o->fit));
	out_str(h, evidence);
}

/* The human table's columns (title NULL in add_options: no human table). */
static void add_human_cols(struct out_table *h, const char *currency)
{
	out_human_only(h);
	out_table_currency(h, currency);
	out_col(h, "rank", "#", OUT_INT);
	out_col(h, "set", "Set", OUT_TEXT);
	out_col(h, "iops", "IOPS each", OUT_INT);
	out_col(h, "mibps", "MiB/s each", OUT_INT);
	out_col(h, "total", "Per month", OUT_USD);
	out_col(h, "kiops", "Per 1k IOPS", OUT_USD);
	out_col(h, "sustained", "Sustained", OUT_TEXT);
	out_col(h, "headroom", "Headroom", OUT_PCT);
	out_col(h, "fit", "Instance", OUT_TEXT);
	out_col(h, "evidence", "Measured evidence", OUT_TEXT);
}

/* The columns of an option after its rank (the options list, a batch row). */
static void option_cols(struct out_table *t)
{
	out_col(t, "type", "Type", OUT_TEXT);
	out_col(t, "count", "Vols", OUT_INT);
	out_col(t, "size_gib", "GiB each", OUT_INT);
	out_col(t, "iops", "IOPS each", OUT_INT);
	out_col(t, "throughput_mibps", "MiB/s each", OUT_INT);
	out_col(t, "monthly_usd.storage", "Storage", OUT_USD);
	out_col(t, "monthly_usd.iops", "IOPS $", OUT_USD);
	out_col(t, "monthly_usd.throughput", "MiB/s $", OUT_USD);
	out_col(t, "monthly_usd.total", "Total/month", OUT_USD);
	out_col(t, "usd_per_1k_iops", "Per 1k IOPS", OUT_NUM2);
	out_col(t, "sustained", "Sustained", OUT_BOOL);
	out_col(t, "peak_covered", "Peak", OUT_BOOL);
	out_col(t, "burst_seconds", "Burst", OUT_DURATION);
	out_col(t, "burst_note", "Credits", OUT_TEXT);
	out_col(t, "baseline_iops", "Set IOPS", OUT_INT);
	out_col(t, "baseline_mibps", "Set MiB/s", OUT_NUM0);
	out_col(t, "headroom_pct", "Headroom", OUT_PCT);
	out_col(t, "instance_fit", "Instance", OUT_TEXT);
	out_col(t, "evidence", "Evidence", OUT_TEXT);
}

/*
 * The cells of option_cols for o; returns its evidence's one-line text.
 * Amounts in currency when not NULL (a batch's rows of several regions),
 * else in the table's.
 */
static const char *option_cells(struct out_table *t, struct state *st,
				const struct candidate *o, const char *currency)
{
	char buf[96];

	out_str(t, model_type_name(o->cfg.type));
	out_int(t, o->cfg.count);
	out_int(t, o->cfg.size_gib);
	if (o->cfg.iops)
		out_int(t, o->cfg.iops);
	else
		out_null(t);
	if (o->cfg.throughput_mibps)
		out_int(t, o->cfg.throughput_mibps);
	else
		out_null(t);
	if (currency) {
		out_money(t, o->cost.storage, currency);
		out_money(t, o->cost.iops, currency);
		out_money(t, o->cost.throughput, currency);
		out_money(t, o->cost.total, currency);
	} else {
		out_num(t, o->cost.storage);
		out_num(t, o->cost.iops);
		out_num(t, o->cost.throughput);
		out_num(t, o->cost.total);
	}
	out_num(t, o->usd_per_kiops);
	out_bool(t, o->sustained);
	out_bool(t, o->peak_covered);
	if (o->burst_seconds > 0)
		out_num(t, o->burst_seconds);
	else
		out_null(t);
	out_str(t, burst_text(o, buf, sizeof(buf)));
	out_num(t, o->perf.baseline_iops);
	out_num(t, o->perf.baseline_mibps);
	out_num(t, o->headroom_pct);
	out_str(t, solver_fit_name(o->fit));
	return add_evidence(t, st, o);
}

static void add_options(struct out_doc *doc, struct state *st,
			const struct solver_result *r, size_t top,
			const char *name, const char *title,
			const char *currency)
{
	struct out_table *t = out_list(doc, name, NULL);
	struct out_table *h = title ? out_list(doc, NULL, title) : NULL;

	out_json_only(t);
	/* money keys predate other currencies: amounts are in request.currency */
	out_table_currency(t, currency);
	if (h)
		add_human_cols(h, currency);

	out_col(t, "rank", "#", OUT_INT);
	option_cols(t);
	for (size_t i = 0; i < r->n && i < top; i++) {
		const struct candidate *o = &r->opts[i];
		const char *ev;

		out_row(t);
		out_int(t, (long long)i + 1);
		ev = option_cells(t, st, o, NULL);
		if (h)
			add_human_row(h, i + 1, o, ev);
	}
}

struct fam_ctx {
	double iops, mibps;
	struct instance_limits ok, burst;
	int have_ok, have_burst;
};

static int fam_visit(const struct instance_limits *il, void *arg)
{
	struct fam_ctx *fc = arg;
	enum instance_fit f;

	if (il->ebs_optimized == EBS_OPT_UNSUPPORTED)
		return 0; /* no EBS limit to check against */
	f = solver_instance_fit(il, fc->iops, fc->mibps);

	if (f == FIT_OK && !fc->have_ok) {
		fc->ok = *il;
		fc->have_ok = 1;
	} else if (f == FIT_BURST && !fc->have_burst) {
		fc->burst = *il;
		fc->have_burst = 1;
	}
	return fc->have_ok;
}

/*
 * Size of an instance type relative to large (medium 0.5, xlarge 2,
 * 24xlarge 48, metal-24xl 48, metal as 96xlarge): to tell which of two
 * families carries a need with the smaller instance.
 */
static double size_rank(const char *type)
{
	const char *s = strchr(type, '.');
	double n = 1;
	char *end;

	if (!s)
		return 1e9;
	s++;
	if (!strcmp(s, "nano"))
		return 0.0625;
	if (!strcmp(s, "micro"))
		return 0.125;
	if (!strcmp(s, "small"))
		return 0.25;
	if (!strcmp(s, "medium"))
		return 0.5;
	if (!strcmp(s, "large"))
		return 1;
	if (!strcmp(s, "metal"))
		return 1e6; /* the family's largest */
	if (!strncmp(s, "metal-", 6))
		s += 6;
	if (*s >= '1' && *s <= '9') {
		n = strtod(s, &end);
		s = end;
	}
	if (!strcmp(s, "xlarge") || !strcmp(s, "xl"))
		return 2 * n;
	return 1e9;
}

/* Visit the instances of family (in size order) until fn says stop. */
static int each_of_family(struct state *st, const char *family,
			  int (*fn)(const struct instance_limits *, void *),
			  void *arg)
{
	const struct fam_list *l = family_list(st, family);

	for (size_t i = 0; !l->rc && i < l->n; i++)
		if (fn(&l->v[i], arg))
			break;
	return l->rc;
}

/* The smallest sizes of family that carry the need (sustained, burst). */
static int family_fit(struct state *st, const char *family,
		      const struct need *nd, double mibps, struct fam_ctx *fc)
{
	memset(fc, 0, sizeof(*fc));
	fc->iops = fmax(nd->iops, nd->peak_iops);
	fc->mibps = mibps;
	return each_of_family(st, family, fam_visit, fc);
}

/* 1 when variant v carries the need with a smaller instance than base b. */
static int fits_better(const struct fam_ctx *v, const struct fam_ctx *b)
{
	if (v->have_ok)
		return !b->have_ok || size_rank(v->ok.instance_type) <
					  size_rank(b->ok.instance_type);
	if (v->have_burst)
		return !b->have_ok && (!b->have_burst ||
				       size_rank(v->burst.instance_type) <
					   size_rank(b->burst.instance_type));
	return 0;
}

static void family_row(struct out_table *t, const char *family,
		       const char *variant_of, const struct fam_ctx *fc)
{
	out_row(t);
	out_str(t, family);
	out_str(t, variant_of);
	out_str(t, fc->have_ok ? fc->ok.instance_type : NULL);
	out_str(t, fc->have_burst ? fc->burst.instance_type : NULL);
}

/*
 * Without --instance: the smallest size per common family that carries
 * it, and the storage/network variants that carry it with less.
 */
static void add_families(struct out_doc *doc, struct state *st,
			 const struct need *nd, const struct solver_result *r)
{
	struct out_table *t =
	    out_list(doc, "instances", "Smallest instances that carry it");

	out_col(t, "family", "Family", OUT_TEXT);
	out_col(t, "variant_of", "Variant of", OUT_TEXT);
	out_col(t, "sustained", "Sustained (baseline)", OUT_TEXT);
	out_col(t, "burst", "Burst only (30 min/24 h)", OUT_TEXT);
	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		struct fam_ctx base, var;

		if (family_fit(st, families[i].base, nd, r->mibps, &base))
			continue;
		family_row(t, families[i].base, NULL, &base);
		for (size_t k = 0; k < ARRAY_SIZE(families[i].variants) &&
				   families[i].variants[k];
		     k++)
			if (!family_fit(st, families[i].variants[k], nd,
					r->mibps, &var) &&
			    fits_better(&var, &base))
				family_row(t, families[i].variants[k],
					   families[i].base, &var);
	}
}

/*
 * With --instance above its baseline: the smallest instance of the same
 * family (the type up to its '.') whose baseline carries the need, into
 * out; 0 when found, -1 when none does (or the lookup failed).
 */
static int family_sustains(struct state *st, const char *instance,
			   const struct need *nd, const struct solver_result *r,
			   struct instance_limits *out)
{
	struct fam_ctx fc = { .iops = fmax(nd->iops, nd->peak_iops),
			      .mibps = r->mibps };
	const char *dot = strchr(instance, '.');
	char family[48];

	if (!dot || (size_t)(dot - instance) >= sizeof(family))
		return -1;
	xsnprintf(family, sizeof(family), "%.*s", (int)(dot - instance),
		  instance);
	if (each_of_family(st, family, fam_visit, &fc) || !fc.have_ok)
		return -1;
	*out = fc.ok;
	return 0;
}

/* ------------------------------------------------------------ run */

/*
 * Types wanted but not priced in the region are left out (and noted);
 * when that leaves none, the command needs a price it does not have.
 */
static int drop_unpriced(const struct args *a, struct inputs *x)
{
	int first = -1, left = 0;

	for (int t = 0; t < VT_COUNT; t++) {
		if (!a->want[t])
			continue;
		if (cli_type_priced(x->ps, t)) {
			left++;
			continue;
		}
		x->unpriced[t] = 1;
		if (first < 0)
			first = t;
	}
	return left || first < 0 ? EXIT_OK
				 : cli_type_prices_missing(x->ps, first);
}

static void note_unpriced(struct out_doc *doc, const struct inputs *x)
{
	for (int t = 0; t < VT_COUNT; t++)
		if (x->unpriced[t])
			out_note(
			    doc,
			    "%s not considered: no %s prices for region '%s' (snapshot %lld, %s, as of %s); 'ebsize pricing fetch --region %s' gets them",
			    model_type_name((enum vol_type)t),
			    model_type_name((enum vol_type)t), x->ps->region,
			    x->ps->snapshot_id, x->ps->source, x->ps->as_of,
			    x->ps->region);
}

static int load_inputs(struct cli_ctx *ctx, const struct args *a,
		       struct state *st, struct inputs *x)
{
	char err[EBS_ERRLEN];
	int rc;

	memset(x, 0, sizeof(*x));
	if ((rc = cli_memo_prices(ctx, st->memo, ctx->region, a->as_of, NULL,
				  &x->ps)) ||
	    (rc = drop_unpriced(a, x)))
		return rc;
	x->in.currency = x->ps->currency;
	for (int t = 0; t < VT_COUNT; t++) {
		const struct volume_limits *lim;

		if (!a->want[t] || x->unpriced[t])
			continue;
		if (cli_memo_limits(ctx, st->memo, t, a->as_of, &lim, err)) {
			msg_warn("%s", err);
			continue;
		}
		x->in.lim[t] = lim;
		x->in.prices[t] = &x->ps->type[t];
	}
	if (a->instance) {
		const struct inst_memo *im = instance(st, a->instance);

		if (im->rc) {
			msg_error("%s", im->err);
			msg_hint(
			    "'ebsize instances show' lists every known type");
			return EXIT_RUNTIME;
		}
		x->in.inst = &im->il;
	}
	x->in.max_stripe = a->max_stripe;
	return EXIT_OK;
}

/* Append o to r (a result assembled by hand for the nearest options). */
static void push(struct solver_result *r, const struct candidate *o)
{
	r->opts = xrealloc(r->opts, (r->n + 1) * sizeof(*r->opts));
	r->opts[r->n++] = *o;
}

/*
 * Nothing met the need: find the nearest feasible options.  When the
 * instance cannot carry the need (solved->fit): the need capped at what it
 * carries.  Otherwise: the narrowest wider stripe (up to 64) that meets it
 * and, when cheaper, the cheapest stripe up to 64.  Returns 1 with *near
 * and a description, 0 if nothing nearby is feasible either.
 */
static int nearest(const struct inputs *x, const struct need *nd,
		   const struct solver_result *solved,
		   struct solver_result *near, char *how, size_t n)
{
	struct solver_input wide = x->in;
	struct solver_result tmp;
	struct need capped = *nd;
	long cap;

	memset(near, 0, sizeof(*near));
	if (x->in.inst && solved->fit == FIT_NO) {
		double max_mibps =
		    model_mbytes_to_mibps(x->in.inst->max_mbytes_per_s);

		capped.iops = fmin(nd->iops, x->in.inst->max_iops);
		capped.mibps = fmin(capped.mibps, max_mibps);
		if (capped.iops * capped.io_kib / 1024 > max_mibps)
			capped.iops = floor(max_mibps * 1024 / capped.io_kib);
		capped.peak_iops = 0;
		solver_run(&wide, &capped, near);
		if (near->n) {
			xsnprintf(
			    how, n,
			    "the most %s carries: %.0f IOPS and %.1f MiB/s",
			    x->in.inst->instance_type, capped.iops,
			    near->mibps);
			return 1;
		}
		return 0;
	}
	/* up to 64 volumes, or what the instance can attach */
	wide.max_stripe = 64;
	cap = solver_max_stripe(&wide);
	for (wide.max_stripe = x->in.max_stripe + 1; wide.max_stripe <= cap;
	     wide.max_stripe++) {
		solver_run(&wide, nd, &tmp);
		if (tmp.n) {
			push(near, &tmp.opts[0]);
			xsnprintf(how, n,
				  "a stripe of %ld volumes (--max-stripe %ld)",
				  tmp.opts[0].cfg.count, wide.max_stripe);
			solver_result_release(&tmp);
			break;
		}
		solver_result_release(&tmp);
	}
	if (!near->n)
		return 0;
	if (wide.max_stripe < cap) {
		wide.max_stripe = cap;
		solver_run(&wide, nd, &tmp);
		if (tmp.n &&
		    tmp.opts[0].cost.total < near->opts[0].cost.total - 0.005) {
			push(near, &tmp.opts[0]);
			xsnprintf(how + strlen(how), n - strlen(how),
				  "; cheapest: %ld x %s (--max-stripe %ld)",
				  tmp.opts[0].cfg.count,
				  model_type_name(tmp.opts[0].cfg.type),
				  tmp.opts[0].cfg.count);
		}
		solver_result_release(&tmp);
	}
	return 1;
}

/* --svg-dir: the options shown as a chart file, linked from the Markdown. */
static int add_svg(struct out_doc *doc, const char *dir,
		   const struct solver_result *r, size_t top)
{
	struct report_chart *c = report_chart_cheapest("cheapest-cost", r->opts,
						       r->n < top ? r->n : top);
	char err[EBS_ERRLEN];
	int rc = report_svg_dir(doc, dir, &c, 1, err);

	if (rc)
		msg_error("%s", err);
	report_chart_free(c);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}

/* The failure of an answer whose result shows the nearest options. */
static void say_nothing(const struct args *a)
{
	msg_error("no volume set meets the need%s%s", a->instance ? " on " : "",
		  a->instance ? a->instance : "");
}

/*
 * Answer one request: its exit code and, when the need could be weighed,
 * the result into *docp (also when nothing meets it: exit 1, the nearest
 * options shown; batch: said here, else by the caller after the result).
 */
static int answer(struct cli_ctx *ctx, const struct args *a, struct state *st,
		  int batch, struct out_doc *doc, int *answered)
{
	struct inputs *x = &st->x;
	struct solver_result *r = &st->r, *near = &st->near;
	struct instance_limits sustains = { 0 };
	char how[160], family[192] = "";
	int rc;

	*answered = 0;
	solver_result_release(r);
	solver_result_release(near);
	st->region = ctx->region;
	if ((rc = load_inputs(ctx, a, st, x)))
		return rc;
	solver_run(&x->in, &a->need, r);
	out_doc_notes_key(doc);
	if (a->instance && (r->fit == FIT_BURST || r->fit == FIT_NO)) {
		if (!family_sustains(st, a->instance, &a->need, r, &sustains))
			xsnprintf(
			    family, sizeof(family),
			    "the smallest size of the same family that sustains it: %s (baseline %g IOPS, %.1f MiB/s)",
			    sustains.instance_type, sustains.baseline_iops,
			    model_mbytes_to_mibps(
				sustains.baseline_mbytes_per_s));
		else
			xsnprintf(
			    family, sizeof(family),
			    "no size of the %.*s family sustains it at baseline",
			    (int)strcspn(a->instance, "."), a->instance);
	}
	add_request(doc, a, ctx, r, x->ps->currency,
		    *sustains.instance_type ? sustains.instance_type : NULL);
	if (r->n) {
		add_options(doc, st, r, (size_t)a->top, "options",
			    st->human ? "Options" : NULL, x->ps->currency);
		if (!a->instance)
			add_families(doc, st, &a->need, r);
	} else {
		/* no rows, but the columns: CSV keeps its header */
		add_options(doc, st, r, 0, "options", NULL, x->ps->currency);
		if (nearest(x, &a->need, r, near, how, sizeof(how))) {
			add_options(doc, st, near, 2, "nearest",
				    st->human ? "Nearest feasible" : NULL,
				    x->ps->currency);
			out_note(doc,
				 "nothing meets the need; nearest feasible: %s",
				 how);
		} else {
			out_note(
			    doc,
			    "nothing meets the need, and no nearby need is feasible either");
		}
	}
	for (size_t i = 0; i < r->nnotes; i++) {
		out_note(doc, "%s", r->notes[i]);
		/* the family's answer right after the instance's limits */
		if (!i && *family)
			out_note(doc, "%s", family);
	}
	note_unpriced(doc, x);
	if (r->n > (size_t)a->top)
		out_note(doc, "%zu more option%s; --top %zu shows all",
			 r->n - (size_t)a->top,
			 r->n - (size_t)a->top == 1 ? "" : "s", r->n);
	*answered = 1;
	if (r->n)
		return EXIT_OK;
	if (batch)
		say_nothing(a);
	return EXIT_RUNTIME;
}

static int run(struct cli_ctx *ctx, void *args)
{
	const struct args *a = args;
	struct state st;
	struct out_doc *doc = NULL;
	char err[EBS_ERRLEN];
	int rc, answered;

	if ((rc = db_read_begin(ctx->db, err)))
		return cli_fail(ctx, rc, err);
	state_init(&st, ctx->db);
	/* the human-only tables are left out of the other formats anyway */
	st.human =
	    !a->batch && (ctx->format == OUT_TABLE || ctx->format == OUT_MD);
	if (a->batch) {
		rc = batch_run(ctx, &cheapest_batch, a->batch, a->batch_format,
			       a, &st);
		goto out;
	}
	doc = out_doc_new();
	rc = answer(ctx, a, &st, 0, doc, &answered);
	if (!answered)
		goto out;
	if (a->svg_dir && st.r.n &&
	    (rc = add_svg(doc, a->svg_dir, &st.r, (size_t)a->top)))
		goto out;
	rc = cli_render(ctx, doc);
	if (!rc && !st.r.n) {
		say_nothing(a);
		rc = EXIT_RUNTIME;
	}
out:
	out_doc_free(doc);
	state_release(&st);
	db_read_end(ctx->db);
	return rc;
}

/* ------------------------------------------------------------ batch */

static int batch_answer(struct cli_ctx *ctx, void *args, void *state,
			struct out_doc *doc, int *answered)
{
	return answer(ctx, args, state, 1, doc, answered);
}

/* A request's row: what it asked, then the cheapest option (the first). */
static void batch_columns(struct out_table *t)
{
	out_col(t, "request.iops", "IOPS", OUT_INT);
	out_col(t, "request.throughput_mibps", "MiB/s", OUT_NUM1);
	out_col(t, "request.size_gib", "GiB", OUT_INT);
	out_col(t, "request.io_kib", "I/O size (KiB)", OUT_NUM0);
	out_col(t, "request.effective_mibps", "MiB/s incl. N x I/O size",
		OUT_NUM1);
	out_col(t, "request.peak.iops", "Peak IOPS", OUT_INT);
	out_col(t, "request.peak.seconds", "Peak seconds", OUT_INT);
	out_col(t, "request.peak.period_s", "Peak every (s)", OUT_INT);
	out_col(t, "request.region", "Region", OUT_TEXT);
	out_col(t, "request.currency", "Currency", OUT_TEXT);
	out_col(t, "request.instance", "Instance", OUT_TEXT);
	out_col(t, "request.instance_fit", "Instance fit", OUT_TEXT);
	out_col(t, "request.types", "Types", OUT_TEXT);
	out_col(t, "request.max_stripe", "Max stripe", OUT_INT);
	out_col(t, "request.as_of", "As of", OUT_TEXT);
	out_col(t, "options_found", "Options", OUT_INT);
	option_cols(t);
}

static void batch_row(struct out_table *t, const void *args, void *state,
		      int answered)
{
	const struct args *a = args;
	struct state *st = state;
	const struct solver_result *r = &st->r;
	const char *types[VT_COUNT];
	size_t ntypes = 0, ncols = 16 + 19;

	if (!answered) {
		for (size_t i = 0; i < ncols; i++)
			out_null(t);
		return;
	}
	for (int i = 0; i < VT_COUNT; i++)
		if (a->want[i])
			types[ntypes++] = model_type_name((enum vol_type)i);
	out_num(t, a->need.iops);
	out_num(t, a->need.mibps);
	out_num(t, a->need.size_gib);
	out_num(t, a->need.io_kib);
	out_num(t, r->mibps);
	if (a->need.peak_iops > 0) {
		out_num(t, a->need.peak_iops);
		out_num(t, a->need.peak_s);
		out_num(t, a->need.period_s);
	} else {
		out_null(t);
		out_null(t);
		out_null(t);
	}
	out_str(t, st->region);
	out_str(t, st->x.ps->currency);
	out_str(t, a->instance);
	out_str(t, a->instance ? solver_fit_name(r->fit) : NULL);
	out_strv(t, types, ntypes);
	out_int(t, a->max_stripe);
	out_str(t, a->as_of);
	out_int(t, (long long)r->n);
	if (r->n) {
		option_cells(t, st, &r->opts[0], st->x.ps->currency);
	} else {
		for (size_t i = 0; i < 19; i++)
			out_null(t);
	}
}

static const struct batch_cmd cheapest_batch = {
	.cmd = &cmd_cheapest_def,
	.not_per_request = cheapest_not_per_request,
	.answer = batch_answer,
	.columns = batch_columns,
	.row = batch_row,
};

const struct cmd cmd_cheapest_def = {
	.name = "cheapest",
	.run = run,
	.args_size = sizeof(struct args),
	.flags = CMD_NEEDS_DB,
	.summary = "the cheapest volume sets for IOPS, MiB/s and GiB",
	.description =
	    "The cheapest ways to get N IOPS, M MiB/s and C GiB: for every volume type\n"
	    "the cheapest legal single volume and, when cheaper, a RAID 0 stripe of k\n"
	    "identical volumes; sustained options first, then burst-only ones (gp2,\n"
	    "st1, sc1 meeting the need only while credits last), each by monthly cost.",
	.opts = cheapest_opts,
	.check = check,
	.epilog =
	    "Exit status: 0 options found, 1 nothing meets the need (the nearest\n"
	    "feasible option is shown), 2 usage error.\n"
	    "\n"
	    "--batch FILE answers many requests in one process: one per line of\n"
	    "JSON Lines, {\"id\":\"db-7\",\"iops\":12000,\"size\":\"1TiB\",\"region\":\"eu-west-1\"},\n"
	    "or per row of CSV under a header (id,iops,size,region); the first\n"
	    "character that is not blank tells them apart ('{': JSON Lines).  Keys\n"
	    "are the option names, id and region; values read as on the command\n"
	    "line (numbers, or text with units); options given with --batch are\n"
	    "every request's defaults.  Output: one JSON line per request (what\n"
	    "--format json prints for it, with \"id\" first; a failed request also\n"
	    "has \"line\", \"exit\", \"error\" and \"hints\"), or with --format csv,\n"
	    "xlsx, table or md one row per request (the table 'results').  Exit\n"
	    "status 1 when a request failed; the other requests are answered.",
	.tables = "options, request, instances, nearest, notes",
};
