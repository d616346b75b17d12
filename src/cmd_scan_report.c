/*
 * cmd_scan_report.c - the output of `ebsize scan`: the summary, every
 * finding (in full for JSON and CSV, compact with its commands for the
 * table and Markdown, rendered row by row so 100,000 findings are never
 * held as text), and the totals by category, region and tag.
 */
#include "cmd_scan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/msg.h"
#include "ebsize/util.h"


/* By currency (USD first: amounts in two currencies are not compared),
 * then by savings, then by id. */
static int rec_cmp(const void *a, const void *b)
{
	const struct scan_rec *x = a, *y = b;
	int c = strcmp(x->currency, y->currency);

	if (c)
		return !strcmp(x->currency, "USD") ? -1 :
		       !strcmp(y->currency, "USD") ? 1 : c;
	if (x->f.save_usd != y->f.save_usd)
		return x->f.save_usd < y->f.save_usd ? 1 : -1;
	return strcmp(x->id, y->id);
}

/* "gp3 2,000 GiB 6,000 IOPS 250 MiB/s" for the human table. */
static void describe(const struct vol_config *c, char *buf, size_t n)
{
	if (!c->count) {
		xsnprintf(buf, n, "delete (after a snapshot)");
		return;
	}
	if (c->type == VT_GP3)
		xsnprintf(buf, n, "gp3 %ld GiB %ld IOPS %ld MiB/s", c->size_gib,
			  c->iops, c->throughput_mibps);
	else if (c->iops)
		xsnprintf(buf, n, "%s %ld GiB %ld IOPS", model_type_name(c->type),
			  c->size_gib, c->iops);
	else
		xsnprintf(buf, n, "%s %ld GiB", model_type_name(c->type), c->size_gib);
}

/* The five cells of config_cols; none: a proposal that is no volume. */
static void config_cells(struct out_table *t, const struct vol_config *c,
			 double usd, int none)
{
	if (none) {
		out_null(t);
		out_null(t);
		out_null(t);
		out_null(t);
	} else {
		out_str_ref(t, model_type_name(c->type));
		out_int(t, c->size_gib);
		if (c->iops)
			out_int(t, c->iops);
		else
			out_null(t);
		if (c->throughput_mibps)
			out_int(t, c->throughput_mibps);
		else
			out_null(t);
	}
	out_num(t, usd);
}

static void config_cols(struct out_table *t, const char *prefix)
{
	char k[64];

	xsnprintf(k, sizeof(k), "%s.type", prefix);
	out_col(t, k, k, OUT_TEXT);
	xsnprintf(k, sizeof(k), "%s.size_gib", prefix);
	out_col(t, k, k, OUT_INT);
	xsnprintf(k, sizeof(k), "%s.iops", prefix);
	out_col(t, k, k, OUT_INT);
	xsnprintf(k, sizeof(k), "%s.throughput_mibps", prefix);
	out_col(t, k, k, OUT_INT);
	xsnprintf(k, sizeof(k), "%s.monthly_usd", prefix);
	out_col(t, k, k, OUT_USD);
}

static void str_or_null(struct out_table *t, char *s)
{
	out_str(t, s);
	free(s);
}

/*
 * One row of the full findings list (JSON and CSV).  Strings that outlive
 * the render (the recs, interned regions, static names) are not copied.
 */
static void full_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	const struct scan_rec *r = &st->fleet.recs[row];
	const struct scan_finding *f = &r->f;
	int k8s = r->ns || r->pvc;
	int none = f->cat == SCAN_EXCLUDED || f->cat == SCAN_UNATTACHED;
	char why[320];

	scan_reason(f, why, sizeof(why));
	out_str_ref(t, r->id);
	out_str_ref(t, r->name);
	out_str_ref(t, r->group);
	out_str_ref(t, r->ns);
	out_str_ref(t, r->pvc);
	str_or_null(t, k8s ? scan_vac_manifest(f) : NULL);
	str_or_null(t, k8s ? scan_kubectl_patch(f, r->ns, r->pvc) : NULL);
	out_str_ref(t, r->region);
	out_str_ref(t, r->currency);
	out_str_ref(t, r->az);
	out_str_ref(t, scan_cat_name(f->cat));
	config_cells(t, &f->cur, f->cur_usd, 0);
	config_cells(t, &f->prop, f->prop_usd, none);
	out_bool(t, f->new_volume);
	out_num(t, f->save_usd);
	out_num(t, scan_usd(f->save_usd * 12));
	out_num(t, f->extra_usd);
	out_str_ref(t, f->cat == SCAN_EXCLUDED ? NULL : scan_level_name(f->risk));
	out_str_ref(t, scan_level_name(f->confidence));
	if (f->cliff_s >= 0)
		out_num(t, floor(f->cliff_s));
	else
		out_null(t);
	out_str(t, why);
	str_or_null(t, f->new_volume && !r->az ? NULL :
		    scan_command(f, r->id, r->region, r->az));
	if (f->alarm_pct > 0 && f->cat != SCAN_EXCLUDED) {
		out_num(t, f->alarm_pct);
		out_num(t, floor(f->alarm_lead_s));
		out_num(t, f->alarm_load_iops);
		str_or_null(t, scan_alarm_command(f, r->id, r->region));
	} else {
		out_null(t);
		out_null(t);
		out_null(t);
		out_null(t);
	}
}

/* The full findings list (JSON and CSV), rendered row by row. */
static void full_findings(struct out_doc *doc, struct scan_state *st)
{
	struct out_table *t = out_list(doc, "findings", "Findings");
	static const char *const cols[] = {
		"volume_id", "name", "tag", "k8s.namespace", "k8s.pvc",
		"k8s.volume_attributes_class", "k8s.patch_command", "region",
		"currency", "availability_zone", "category",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		out_col(t, cols[i], cols[i], OUT_TEXT);
	config_cols(t, "current");
	config_cols(t, "proposed");
	out_col(t, "proposed.new_volume", "proposed.new_volume", OUT_BOOL);
	out_col(t, "savings.monthly_usd", "savings.monthly_usd", OUT_USD);
	out_col(t, "savings.annual_usd", "savings.annual_usd", OUT_USD);
	out_col(t, "extra_cost.monthly_usd", "extra_cost.monthly_usd", OUT_USD);
	out_col(t, "risk", "risk", OUT_TEXT);
	out_col(t, "confidence", "confidence", OUT_TEXT);
	out_col(t, "cliff_seconds", "cliff_seconds", OUT_INT);
	out_col(t, "reason", "reason", OUT_TEXT);
	out_col(t, "command", "command", OUT_TEXT);
	out_col(t, "alarm.threshold_pct", "alarm.threshold_pct", OUT_INT);
	out_col(t, "alarm.lead_seconds", "alarm.lead_seconds", OUT_INT);
	out_col(t, "alarm.load_iops", "alarm.load_iops", OUT_INT);
	out_col(t, "alarm.command", "alarm.command", OUT_TEXT);
	out_rows_on_demand(t, st->fleet.nrecs, full_row, st);
}

/*
 * Tag values and names are user-controlled: in the human formats, control
 * characters (newlines, terminal escapes) become '?' so that a value stays
 * one cell.  JSON and CSV get them exactly (escaped / quoted by out.c).
 */
static const char *one_line(const char *s, char *buf, size_t n)
{
	size_t i = 0;

	for (; s && *s && i + 1 < n; s++)
		buf[i++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	buf[i] = '\0';
	return buf;
}

/* One row of the compact findings table (table and md). */
static void human_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	const struct scan_rec *r = &st->fleet.recs[row];
	const struct scan_finding *f = &r->f;
	char now[96], prop[96], who[160], clean[160];

	describe(&f->cur, now, sizeof(now));
	if (f->cat == SCAN_EXCLUDED)
		xsnprintf(prop, sizeof(prop), "(excluded)");
	else
		describe(&f->prop, prop, sizeof(prop));
	if (r->ns || r->pvc)
		xsnprintf(who, sizeof(who), "%s/%s", r->ns ? r->ns : "",
			  r->pvc ? r->pvc : "");
	else
		xsnprintf(who, sizeof(who), "%s", r->name ? r->name : "");
	out_str(t, r->id);
	out_str(t, one_line(who, clean, sizeof(clean)));
	out_str(t, r->region);
	out_str(t, scan_cat_name(f->cat));
	out_str(t, now);
	out_str(t, prop);
	out_money(t, f->cur_usd, r->currency);
	out_money(t, f->save_usd, r->currency);
	out_money(t, scan_usd(f->save_usd * 12), r->currency);
	out_str(t, f->cat == SCAN_EXCLUDED ? "" : scan_level_name(f->risk));
	out_str(t, scan_level_name(f->confidence));
}

/* Kinds of command rows in the human output (cmd_rows: rec << 2 | kind). */
enum { CMD_FIX, CMD_ALARM, CMD_VAC };

/*
 * The fix command, the alarm command or the VolumeAttributesClass the
 * kubectl patch names (which: CMD_*) of a finding; heap string or NULL.
 */
static char *rec_command(const struct scan_rec *r, int which)
{
	const struct scan_finding *f = &r->f;
	char *cmd = NULL;

	if (which == CMD_ALARM)
		return f->cat == SCAN_EXCLUDED ? NULL :
			scan_alarm_command(f, r->id, r->region);
	if (which == CMD_VAC)
		return scan_vac_apply_command(f);
	if (r->ns && r->pvc)
		cmd = scan_kubectl_patch(f, r->ns, r->pvc);
	if (!cmd && (!f->new_volume || r->az))
		cmd = scan_command(f, r->id, r->region, r->az);
	return cmd;
}

static void command_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	uint32_t x = st->cmd_rows[row];
	const struct scan_rec *r = &st->fleet.recs[x >> 2];

	out_str(t, r->id);
	str_or_null(t, rec_command(r, (int)(x & 3)));
}

/* The compact findings table and the commands (table and md). */
static void human_findings(struct out_doc *doc, struct scan_state *st)
{
	struct out_table *t = out_list(doc, "findings", "Findings (by monthly savings)");
	struct out_table *c = out_list(doc, "commands", "Commands");
	size_t alloc = 0, shown = st->fleet.nrecs;

	if (st->a->limit && (size_t)st->a->limit < shown) {
		shown = (size_t)st->a->limit;
		out_note(doc, "%zu more findings not shown (--limit 0 shows all; csv and json list all)",
			 st->fleet.nrecs - shown);
	}
	out_col(t, "volume_id", "Volume", OUT_TEXT);
	out_col(t, "who", "Name / PVC", OUT_TEXT);
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "category", "Finding", OUT_TEXT);
	out_col(t, "current", "Now", OUT_TEXT);
	out_col(t, "proposed", "Proposed", OUT_TEXT);
	out_col(t, "current_usd", "Now/month", OUT_USD);
	out_col(t, "monthly", "Saves/month", OUT_USD);
	out_col(t, "annual", "Saves/year", OUT_USD);
	out_col(t, "risk", "Risk", OUT_TEXT);
	out_col(t, "confidence", "Confidence", OUT_TEXT);
	out_rows_on_demand(t, shown, human_row, st);
	out_col(c, "volume_id", "Volume", OUT_TEXT);
	out_col(c, "command", "Command", OUT_TEXT);
	for (size_t i = 0; i < shown && i < UINT32_MAX / 4; i++) {
		const struct scan_rec *r = &st->fleet.recs[i];
		const struct scan_finding *f = &r->f;
		int has_fix = f->cat != SCAN_EXCLUDED &&
			      (!f->new_volume || r->az);
		int has_alarm = f->cat != SCAN_EXCLUDED && f->alarm_pct > 0;
		char *patch = r->ns && r->pvc ?
			scan_kubectl_patch(f, r->ns, r->pvc) : NULL;

		xgrow((void **)&st->cmd_rows, &alloc, st->ncmd_rows + 3,
		      sizeof(*st->cmd_rows));
		/* the class first: the patch refers to it by name */
		if (patch)
			st->cmd_rows[st->ncmd_rows++] = (uint32_t)i << 2 | CMD_VAC;
		if (has_fix || patch)
			st->cmd_rows[st->ncmd_rows++] = (uint32_t)i << 2 | CMD_FIX;
		if (has_alarm)
			st->cmd_rows[st->ncmd_rows++] = (uint32_t)i << 2 | CMD_ALARM;
		free(patch);
	}
	out_rows_on_demand(c, st->ncmd_rows, command_row, st);
}

/* Totals never add two currencies: one per (key, currency). */
struct total {
	const char *key;
	const char *currency;
	long long volumes;
	double current, savings;
};

static struct total *total_for(struct total **t, size_t *n, size_t *alloc,
			       const char *key, const char *currency)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*t)[i].key, key) && !strcmp((*t)[i].currency, currency))
			return &(*t)[i];
	xgrow((void **)t, alloc, *n + 1, sizeof(**t));
	(*t)[*n] = (struct total){ key, currency, 0, 0, 0 };
	return &(*t)[(*n)++];
}

/* By currency (USD first), then by savings. */
static int total_cmp(const void *a, const void *b)
{
	const struct total *x = a, *y = b;
	int c = strcmp(x->currency, y->currency);

	if (c)
		return !strcmp(x->currency, "USD") ? -1 :
		       !strcmp(y->currency, "USD") ? 1 : c;
	if (x->savings != y->savings)
		return x->savings < y->savings ? 1 : -1;
	return strcmp(x->key, y->key);
}

/*
 * One totals list: by category (0), region (1), tag value (2) or currency
 * (3, the per-currency grand totals).
 */
static void totals(struct out_doc *doc, const struct scan_state *st, int by,
		   int human)
{
	static const char *const names[] = { "totals_by_category", "totals_by_region",
					     "totals_by_tag", "totals_by_currency" };
	static const char *const keys[] = { "category", "region", "tag_value",
					    "currency" };
	static const char *const titles[] = { "Totals by category", "Totals by region",
					      "Totals by tag", "Totals by currency" };
	const struct scan_fleet *fl = &st->fleet;
	struct total *t = NULL;
	size_t n = 0, alloc = 0;
	struct out_table *o;

	for (size_t i = 0; i < fl->nrecs; i++) {
		const struct scan_rec *r = &fl->recs[i];
		const char *key = by == 0 ? scan_cat_name(r->f.cat) :
				  by == 1 ? r->region :
				  by == 3 ? r->currency :
				  r->group ? r->group : "(untagged)";
		struct total *x = total_for(&t, &n, &alloc, key, r->currency);

		x->volumes++;
		x->current += r->f.cur_usd;
		x->savings += r->f.save_usd;
	}
	if (n)
		qsort(t, n, sizeof(*t), total_cmp);
	o = out_list(doc, names[by], titles[by]);
	out_col(o, keys[by], by == 2 ? st->a->by_tag : keys[by], OUT_TEXT);
	if (by != 3)
		out_col(o, "currency", "Cur", OUT_TEXT);
	out_col(o, "volumes", "Volumes", OUT_INT);
	/* the keys predate other currencies: amounts are in `currency` */
	out_col(o, by == 3 ? "current_monthly" : "current_monthly_usd", "Now/month", OUT_USD);
	out_col(o, by == 3 ? "monthly_savings" : "monthly_savings_usd", "Saves/month", OUT_USD);
	out_col(o, by == 3 ? "annual_savings" : "annual_savings_usd", "Saves/year", OUT_USD);
	for (size_t i = 0; i < n; i++) {
		char clean[160];

		out_row(o);
		out_str(o, human ? one_line(t[i].key, clean, sizeof(clean)) : t[i].key);
		if (by != 3)
			out_str(o, t[i].currency);
		out_int(o, t[i].volumes);
		out_money(o, scan_usd(t[i].current), t[i].currency);
		out_money(o, scan_usd(t[i].savings), t[i].currency);
		out_money(o, scan_usd(t[i].savings * 12), t[i].currency);
	}
	free(t);
}

/* The root record: counts and total savings (USD: the other currencies
 * are in totals_by_currency). */
static void summary(struct out_doc *doc, const struct scan_state *st)
{
	const struct scan_fleet *fl = &st->fleet;
	struct out_table *t = out_record(doc, "summary", "Summary");
	struct sbuf regions = SBUF_INIT(4096);
	double save = 0;
	size_t excluded = 0;

	for (size_t i = 0; i < fl->nrecs; i++) {
		if (!strcmp(fl->recs[i].currency, "USD"))
			save += fl->recs[i].f.save_usd;
		excluded += fl->recs[i].f.cat == SCAN_EXCLUDED;
	}
	for (size_t i = 0; i < fl->nno_price; i++) {
		const char *r = fl->no_price[i].region;
		int dup = 0;

		for (size_t k = 0; k < i; k++)
			dup |= !strcmp(fl->no_price[k].region, r);
		if (!dup)
			sbuf_addf(&regions, "%s%s", regions.len ? ", " : "", r);
	}
	out_kv_int(t, "volumes_scanned", "Volumes scanned", (long long)fl->scanned);
	out_kv_int(t, "findings", "Findings", (long long)(fl->nrecs - excluded));
	out_kv_int(t, "excluded", "Excluded by tag", (long long)excluded);
	out_kv_int(t, "skipped", "Skipped (see warnings)", (long long)fl->skipped);
	out_kv_int(t, "other_regions", "In other regions", (long long)fl->other_region);
	out_kv_int(t, "skipped_no_price", "Skipped, no prices", (long long)fl->skipped_no_price);
	out_kv_str(t, "skipped_no_price_regions", "Regions without prices",
		   regions.len ? regions.buf : NULL);
	out_kv_num(t, "monthly_savings_usd", "Savings per month (USD)", OUT_USD, scan_usd(save));
	out_kv_num(t, "annual_savings_usd", "Savings per year (USD)", OUT_USD, scan_usd(save * 12));
	out_kv_num(t, "headroom_pct", "Headroom", OUT_PCT, st->a->opts.headroom_pct);
	out_kv_num(t, "min_savings_usd", "Minimum savings", OUT_USD,
		   st->a->opts.min_savings_usd);
	sbuf_release(&regions);
}

/*
 * Sort findings by currency and savings and render: the full list for
 * csv/json, the compact table and commands for table/md, then the totals.
 * Exit 1 when nothing could be priced at all.
 */
int scan_report(struct scan_state *st)
{
	const struct scan_fleet *fl = &st->fleet;
	struct out_doc *doc = out_doc_new();
	int human = st->ctx->format == OUT_TABLE || st->ctx->format == OUT_MD;
	int rc;

	if (fl->nrecs)
		qsort(st->fleet.recs, fl->nrecs, sizeof(*fl->recs), rec_cmp);
	out_doc_notes_key(doc);
	summary(doc, st);
	if (human)
		human_findings(doc, st);
	else
		full_findings(doc, st);
	totals(doc, st, 3, human);
	totals(doc, st, 0, human);
	totals(doc, st, 1, human);
	if (st->a->by_tag)
		totals(doc, st, 2, human);
	for (size_t i = 0; i < fl->nno_price; i++)
		out_note(doc, "%zu volume(s) in %s skipped: no %s%sprices for that region (see ebsize pricing regions)",
			 fl->no_price[i].volumes, fl->no_price[i].region,
			 fl->no_price[i].type ? fl->no_price[i].type : "",
			 fl->no_price[i].type ? " " : "");
	out_note(doc, "prices: on-demand per month in each region's currency (CNY in China; amounts in two currencies are never added: totals are per currency, and the summary's savings are USD); savings before snapshot storage; one modify-volume per volume (AWS allows 4 per 24 h)");
	rc = cli_render(st->ctx, doc);
	out_doc_free(doc);
	if (!rc && !fl->scanned && fl->skipped_no_price) {
		msg_error("no volume could be priced: all %zu skipped for want of prices (regions: see the summary)",
			  fl->skipped_no_price);
		rc = EXIT_RUNTIME;
	}
	return rc;
}
