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

/* "gp3 2,000 GiB 6,000 IOPS 250 MiB/s" for the human table and charts. */
void scan_describe(const struct vol_config *c, char *buf, size_t n)
{
	if (!c->count) {
		xsnprintf(buf, n, "delete (after a snapshot)");
		return;
	}
	if (c->type == VT_GP3)
		xsnprintf(buf, n, "gp3 %ld GiB %ld IOPS %ld MiB/s", c->size_gib,
			  c->iops, c->throughput_mibps);
	else if (c->iops)
		xsnprintf(buf, n, "%s %ld GiB %ld IOPS",
			  model_type_name(c->type), c->size_gib, c->iops);
	else
		xsnprintf(buf, n, "%s %ld GiB", model_type_name(c->type),
			  c->size_gib);
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

/* ------------------------------------------------------------ Kubernetes */

/* How a plan changes the volume (k8s.change_with); NULL: not Kubernetes. */
static const char *change_with(const struct scan_k8s_plan *p)
{
	switch (p->method) {
	case SCAN_K8S_VAC: return "volume_attributes_class";
	case SCAN_K8S_MODIFY_VOLUME: return "aws_modify_volume";
	case SCAN_K8S_BLOCKED: return "wait_for_modification";
	case SCAN_K8S_NONE: break;
	}
	return NULL;
}

/* The k8s.* columns of the full findings list (see k8s_cells). */
static void k8s_cols(struct out_table *t)
{
	static const struct {
		const char *key;
		enum out_style style;
	} cols[] = {
		{ "k8s.namespace", OUT_TEXT },
		{ "k8s.pvc", OUT_TEXT },
		{ "k8s.in_tree", OUT_BOOL },
		{ "k8s.change_with", OUT_TEXT },
		{ "k8s.volume_attributes_class", OUT_TEXT },
		{ "k8s.volume_attributes_class_name", OUT_TEXT },
		{ "k8s.volume_attributes_class_reused", OUT_BOOL },
		{ "k8s.apply_command", OUT_TEXT },
		{ "k8s.patch_command", OUT_TEXT },
		{ "k8s.verify_command", OUT_TEXT },
		{ "k8s.modify_status", OUT_TEXT },
		{ "k8s.modify_target", OUT_TEXT },
		{ "k8s.note", OUT_TEXT },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		out_col(t, cols[i].key, cols[i].key, cols[i].style);
}

/*
 * The k8s.* cells of a finding: its claim, how it is changed (a
 * VolumeAttributesClass, modify-volume for in-tree volumes, nothing while
 * a modification is under way), the class and the kubectl lines.
 */
static void k8s_cells(struct out_table *t, const struct scan_state *st,
		      const struct scan_rec *r, const struct scan_k8s_plan *p)
{
	const struct scan_k8s *c = &st->fleet.cluster;
	int vac = p->method == SCAN_K8S_VAC;

	out_str_ref(t, r->ns);
	out_str_ref(t, r->pvc);
	if (r->pv)
		out_bool(t, r->pv->in_tree);
	else
		out_null(t);
	out_str_ref(t, change_with(p));
	str_or_null(t, scan_k8s_vac_manifest(c, p, &r->f.prop));
	out_str(t, vac ? p->vac : NULL);
	if (vac)
		out_bool(t, p->reused);
	else
		out_null(t);
	str_or_null(t, scan_k8s_vac_create(c, p, &r->f.prop));
	str_or_null(t, scan_k8s_patch(p, r->ns, r->pvc));
	str_or_null(t, scan_k8s_verify(p, r->ns, r->pvc));
	out_str_ref(t, p->status);
	out_str(t, p->target);
	out_str_ref(t, p->note);
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
	int none = f->cat == SCAN_EXCLUDED || f->cat == SCAN_UNATTACHED ||
		   f->cat == SCAN_NOT_IN_INVENTORY;
	struct scan_k8s_plan p;
	char why[512];

	scan_rec_reason(r, why, sizeof(why));
	scan_k8s_plan(&st->fleet.cluster, r->pv, f, &p);
	out_str_ref(t, r->id);
	out_str_ref(t, r->name);
	out_str_ref(t, r->group);
	k8s_cells(t, st, r, &p);
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
	out_str_ref(t,
		    f->cat == SCAN_EXCLUDED ? NULL : scan_level_name(f->risk));
	out_str_ref(t, scan_level_name(f->confidence));
	if (f->cliff_s >= 0)
		out_num(t, floor(f->cliff_s));
	else
		out_null(t);
	out_str(t, why);
	/* a claim whose modification is under way gets no new command */
	str_or_null(t, (f->new_volume && !r->az) || p.method == SCAN_K8S_BLOCKED
			   ? NULL
			   : scan_command(f, r->id, r->region, r->az));
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
	if (st->bill)
		scan_billing_cells(t, r, 0);
}

/* The full findings list (JSON and CSV), rendered row by row. */
static void full_findings(struct out_doc *doc, struct scan_state *st)
{
	struct out_table *t = out_list(doc, "findings", "Findings");
	static const char *const cols[] = { "volume_id", "name", "tag" };

	out_main(t);
	static const char *const cols2[] = { "region", "currency",
					     "availability_zone", "category" };

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		out_col(t, cols[i], cols[i], OUT_TEXT);
	k8s_cols(t);
	for (size_t i = 0; i < ARRAY_SIZE(cols2); i++)
		out_col(t, cols2[i], cols2[i], OUT_TEXT);
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
	if (st->bill)
		scan_billing_cols(t, 0);
	out_rows_on_demand(t, st->fleet.nrecs, full_row, st);
	if (st->ctx->format == OUT_XLSX)
		scan_book_findings(t);
}

/*
 * Tag values and names are user-controlled: in the human formats, control
 * characters (newlines, terminal escapes) become '?' so that a value stays
 * one cell.  JSON and CSV get them exactly (escaped / quoted by out.c).
 */
const char *scan_one_line(const char *s, char *buf, size_t n)
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

	scan_describe(&f->cur, now, sizeof(now));
	if (f->cat == SCAN_EXCLUDED)
		xsnprintf(prop, sizeof(prop), "(excluded)");
	else if (f->cat == SCAN_NOT_IN_INVENTORY)
		xsnprintf(prop, sizeof(prop), "(not in describe-volumes)");
	else
		scan_describe(&f->prop, prop, sizeof(prop));
	if (r->ns || r->pvc)
		xsnprintf(who, sizeof(who), "%s/%s", r->ns ? r->ns : "",
			  r->pvc ? r->pvc : "");
	else
		xsnprintf(who, sizeof(who), "%s", r->name ? r->name : "");
	out_str(t, r->id);
	out_str(t, scan_one_line(who, clean, sizeof(clean)));
	out_str(t, r->region);
	out_str(t, scan_cat_name(f->cat));
	out_str(t, now);
	out_str(t, prop);
	out_money(t, f->cur_usd, r->currency);
	out_money(t, f->save_usd, r->currency);
	out_money(t, scan_usd(f->save_usd * 12), r->currency);
	out_str(t, f->cat == SCAN_EXCLUDED ? "" : scan_level_name(f->risk));
	out_str(t, scan_level_name(f->confidence));
	if (st->bill)
		scan_billing_cells(t, r, 1);
}

/* Kinds of command rows in the human output (cmd_rows: rec << 2 | kind). */
enum { CMD_FIX, CMD_ALARM, CMD_VAC, CMD_VERIFY };

/* The line that stands for a command a blocked claim does not get. */
static char *blocked_line(const struct scan_rec *r,
			  const struct scan_k8s_plan *p)
{
	return xstrfmt(
	    "# no new command: claim %.64s/%.64s has a modification %s%s%.64s%s",
	    r->ns ? r->ns : "?", r->pvc ? r->pvc : "?", p->status,
	    p->target ? " to '" : "", p->target ? p->target : "",
	    p->target ? "'" : "");
}

/*
 * The fix command, the alarm command, the VolumeAttributesClass the
 * kubectl patch names, or the read that verifies it (which: CMD_*) of a
 * finding; heap string or NULL.
 */
static char *rec_command(const struct scan_state *st, const struct scan_rec *r,
			 int which)
{
	const struct scan_finding *f = &r->f;
	struct scan_k8s_plan p;

	if (which == CMD_ALARM)
		return f->cat == SCAN_EXCLUDED
			   ? NULL
			   : scan_alarm_command(f, r->id, r->region);
	scan_k8s_plan(&st->fleet.cluster, r->pv, f, &p);
	if (which == CMD_VAC)
		return scan_k8s_vac_create(&st->fleet.cluster, &p, &f->prop);
	if (which == CMD_VERIFY)
		return scan_k8s_verify(&p, r->ns, r->pvc);
	if (p.method == SCAN_K8S_BLOCKED)
		return blocked_line(r, &p);
	if (p.method == SCAN_K8S_VAC)
		return scan_k8s_patch(&p, r->ns, r->pvc);
	return f->cat == SCAN_EXCLUDED || (f->new_volume && !r->az)
		   ? NULL
		   : scan_command(f, r->id, r->region, r->az);
}

/*
 * A command in a human table: the table shows at most 511 bytes of a cell,
 * and a command cut short must never be shown, so a longer one (long
 * Kubernetes names, a long key id) is pointed to in JSON instead.
 */
#define HUMAN_COMMAND_MAX 500

static void human_command(struct out_table *t, const char *s)
{
	if (s && strlen(s) > HUMAN_COMMAND_MAX)
		out_str(t, "(longer than 500 characters: see --format json)");
	else
		out_str(t, s);
}

static void command_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	uint32_t x = st->cmd_rows[row];
	const struct scan_rec *r = &st->fleet.recs[x >> 2];
	char *cmd = rec_command(st, r, (int)(x & 3));

	out_str(t, r->id);
	human_command(t, cmd);
	free(cmd);
}

/* Add the command rows of finding i (in the order they are run). */
static void add_command_rows(struct scan_state *st, size_t i, size_t *alloc)
{
	const struct scan_rec *r = &st->fleet.recs[i];
	const struct scan_finding *f = &r->f;
	int kinds[4], nk = 0;
	struct scan_k8s_plan p;
	char *s;

	scan_k8s_plan(&st->fleet.cluster, r->pv, f, &p);
	/* the class first: the patch refers to it by name */
	if ((s = scan_k8s_vac_create(&st->fleet.cluster, &p, &f->prop)))
		kinds[nk++] = CMD_VAC;
	free(s);
	if ((s = rec_command(st, r, CMD_FIX)))
		kinds[nk++] = CMD_FIX;
	free(s);
	if ((s = scan_k8s_verify(&p, r->ns, r->pvc)))
		kinds[nk++] = CMD_VERIFY;
	free(s);
	if (f->cat != SCAN_EXCLUDED && f->alarm_pct > 0)
		kinds[nk++] = CMD_ALARM;
	xgrow((void **)&st->cmd_rows, alloc, st->ncmd_rows + (size_t)nk,
	      sizeof(*st->cmd_rows));
	for (int k = 0; k < nk; k++)
		st->cmd_rows[st->ncmd_rows++] =
		    (uint32_t)i << 2 | (uint32_t)kinds[k];
}

/* The compact findings table and the commands (table and md). */
static void human_findings(struct out_doc *doc, struct scan_state *st)
{
	struct out_table *t =
	    out_list(doc, "findings", "Findings (by monthly savings)");
	struct out_table *c = out_list(doc, "commands", "Commands");

	out_main(t);
	size_t alloc = 0, shown = st->fleet.nrecs;

	/* the fleet kept only the --limit first findings (keep_top) */
	if (st->a->limit && (size_t)st->a->limit < shown)
		shown = (size_t)st->a->limit;
	if (st->fleet.nfindings > shown)
		out_note(
		    doc,
		    "%zu more findings not shown (--limit 0 shows all; csv and json list all)",
		    st->fleet.nfindings - shown);
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
	if (st->bill)
		scan_billing_cols(t, 1);
	out_rows_on_demand(t, shown, human_row, st);
	out_col(c, "volume_id", "Volume", OUT_TEXT);
	out_col(c, "command", "Command", OUT_TEXT);
	for (size_t i = 0; i < shown && i < UINT32_MAX / 4; i++)
		add_command_rows(st, i, &alloc);
	out_rows_on_demand(c, st->ncmd_rows, command_row, st);
}

/* ------------------------------------------------------------ cluster */

/* The classes a cluster finding concerns, as a nested list. */
static void class_cells(struct out_table *t,
			const struct scan_cluster_finding *cf)
{
	struct sbuf b = SBUF_INIT(1 << 14);
	struct out_table *n;

	for (size_t i = 0; i < cf->nclasses; i++) {
		const struct inv_sc *sc = cf->classes[i];

		sbuf_addf(&b, "%s%.64s (%.64s%s%s)", i ? ", " : "", sc->name,
			  sc->provisioner, sc->ebs ? " " : "",
			  sc->ebs ? model_type_name(sc->type) : "");
	}
	n = out_nested(t, b.buf ? b.buf : "");
	sbuf_release(&b);
	out_col(n, "name", "name", OUT_TEXT);
	out_col(n, "provisioner", "provisioner", OUT_TEXT);
	out_col(n, "type", "type", OUT_TEXT);
	out_col(n, "default", "default", OUT_BOOL);
	out_col(n, "in_tree", "in_tree", OUT_BOOL);
	for (size_t i = 0; i < cf->nclasses; i++) {
		const struct inv_sc *sc = cf->classes[i];

		out_row(n);
		out_str(n, sc->name);
		out_str(n, sc->provisioner);
		out_str(n, sc->ebs ? model_type_name(sc->type) : NULL);
		out_bool(n, sc->is_default != 0);
		out_bool(n, sc->in_tree);
	}
}

/* Money per GiB-month of a priced finding ("$0.0912" for people), else null. */
static void rate_cell(struct out_table *t, int priced, double v, int human)
{
	char buf[32];

	if (!priced) {
		out_null(t);
	} else if (human) {
		scan_k8s_fmt_rate(v, buf, sizeof(buf));
		out_str(t, buf);
	} else {
		out_num(t, v);
	}
}

/* The columns of the cluster findings: key, human title (NULL: machine
 * formats only), style in machine and human formats. */
static const struct {
	const char *key, *title;
	enum out_style style, human_style;
} cluster_cols[] = {
	{ "category", "Finding", OUT_TEXT, OUT_TEXT },
	{ "storage_classes", "StorageClasses", OUT_TEXT, OUT_TEXT },
	{ "claims_on_gp2_classes", "Claims on gp2", OUT_INT, OUT_INT },
	{ "region", NULL, OUT_TEXT, OUT_TEXT },
	{ "per_gib_month.gp2_usd", "gp2 /GiB-month", OUT_USD, OUT_TEXT },
	{ "per_gib_month.gp3_usd", "gp3 /GiB-month", OUT_USD, OUT_TEXT },
	{ "per_gib_month.savings_usd", NULL, OUT_USD, OUT_USD },
	{ "per_gib_month.savings_pct", NULL, OUT_PCT, OUT_PCT },
	{ "reason", "Why", OUT_TEXT, OUT_TEXT },
	{ "fix.storage_class", NULL, OUT_TEXT, OUT_TEXT },
	{ "fix.existing_class", NULL, OUT_BOOL, OUT_BOOL },
	{ "fix.manifest", NULL, OUT_TEXT, OUT_TEXT },
	{ "fix.annotate_command", NULL, OUT_TEXT, OUT_TEXT },
	{ "fix.apply_command", NULL, OUT_TEXT, OUT_TEXT },
	{ "fix.default_command", NULL, OUT_TEXT, OUT_TEXT },
};

/* One cluster finding's cells (the human formats: the titled columns). */
static void cluster_row(struct out_table *t, const struct scan_fleet *fl,
			const struct scan_cluster_finding *cf, int human)
{
	double save = cf->gp2_usd_per_gib - cf->gp3_usd_per_gib;
	int priced = cf->priced;

	out_row(t);
	out_str(t, scan_cluster_cat_name(cf->cat));
	class_cells(t, cf);
	out_int(t, (long long)cf->gp2_pvcs);
	if (!human)
		out_str(t, fl->cl_region[0] ? fl->cl_region : NULL);
	rate_cell(t, priced, cf->gp2_usd_per_gib, human);
	rate_cell(t, priced, cf->gp3_usd_per_gib, human);
	if (!human) {
		rate_cell(t, priced, scan_usd(save), 0);
		rate_cell(t, priced,
			  priced
			      ? round(save / cf->gp2_usd_per_gib * 1e4) / 100.0
			      : 0,
			  0);
	}
	out_str(t, cf->reason);
	if (human)
		return;
	out_str(t, cf->has_fix ? cf->spec.name : NULL);
	if (cf->has_fix)
		out_bool(t, cf->keep != NULL);
	else
		out_null(t);
	out_str(t, cf->manifest);
	out_str(t, cf->annotate);
	out_str(t, cf->create);
	out_str(t, cf->make_default);
}

/* The cluster commands in the order they are run (human formats). */
static void cluster_commands(struct out_doc *doc, const struct scan_fleet *fl)
{
	struct out_table *c =
	    out_list(doc, "cluster_commands", "Cluster commands");

	out_col(c, "category", "Finding", OUT_TEXT);
	out_col(c, "command", "Command", OUT_TEXT);
	for (size_t i = 0; i < fl->ncl; i++) {
		const char *cmds[] = { fl->cl[i].annotate, fl->cl[i].create,
				       fl->cl[i].make_default };

		for (size_t j = 0; j < ARRAY_SIZE(cmds); j++) {
			if (!cmds[j])
				continue;
			out_row(c);
			out_str(c, scan_cluster_cat_name(fl->cl[i].cat));
			human_command(c, cmds[j]);
		}
	}
}

/*
 * The cluster findings (a default StorageClass that provisions gp2, is
 * in-tree, several defaults, none): listed before the volume findings.
 * JSON and CSV get every field (the list always, empty or not), the human
 * formats a compact table, when there is a finding, and the commands.
 */
static void cluster_findings(struct out_doc *doc, const struct scan_state *st,
			     int human)
{
	const struct scan_fleet *fl = &st->fleet;
	struct out_table *t;

	if (human && !fl->ncl)
		return;
	t = out_list(doc, "cluster_findings",
		     "Cluster findings (no single volume)");
	for (size_t i = 0; i < ARRAY_SIZE(cluster_cols); i++) {
		if (human && !cluster_cols[i].title)
			continue;
		out_col(t, cluster_cols[i].key,
			human ? cluster_cols[i].title : cluster_cols[i].key,
			human ? cluster_cols[i].human_style
			      : cluster_cols[i].style);
	}
	for (size_t i = 0; i < fl->ncl; i++)
		cluster_row(t, fl, &fl->cl[i], human);
	if (human)
		cluster_commands(doc, fl);
}

/*
 * The Kubernetes record (when the inputs had Kubernetes objects) and the
 * notes on the plans: which API version the manifests use and why, the
 * rules of ModifyVolume, in-tree volumes, claims left alone.
 */
static void kubernetes(struct out_doc *doc, const struct scan_state *st)
{
	const struct inv_k8s *k = &st->k8s;
	const struct scan_k8s *c = &st->fleet.cluster;
	const struct scan_fleet *fl = &st->fleet;
	struct out_table *t;
	size_t defaults = 0, under_way = 0;

	if (!k->nsc && !k->npv && !k->npvc && !k->nvac)
		return;
	for (size_t i = 0; i < k->nsc; i++)
		defaults += k->sc[i].is_default != 0;
	for (size_t i = 0; i < k->npvc; i++)
		under_way += k->pvc[i].modify != INV_MOD_NONE;
	t = out_record(doc, "kubernetes", "Kubernetes");
	out_kv_int(t, "storage_classes", "StorageClasses", (long long)k->nsc);
	out_kv_int(t, "default_classes", "Default StorageClasses",
		   (long long)defaults);
	out_kv_int(t, "persistent_volumes", "EBS PersistentVolumes",
		   (long long)k->npv);
	out_kv_int(t, "claims", "PersistentVolumeClaims", (long long)k->npvc);
	out_kv_int(t, "claims_on_gp2_classes", "Claims on gp2 classes",
		   (long long)scan_k8s_gp2_claims(c));
	out_kv_int(t, "modifications_under_way",
		   "Modifications under way or refused", (long long)under_way);
	out_kv_int(t, "volume_attributes_classes", "VolumeAttributesClasses",
		   (long long)k->nvac);
	out_kv_int(t, "volume_attributes_classes_reused",
		   "Findings reusing a class", (long long)fl->k8s_reused);
	out_kv_str(t, "volume_attributes_class_api",
		   "VolumeAttributesClass API", c->vac_api);
	out_kv_str(t, "volume_attributes_class_api_from", "... read from",
		   c->vac_api_from_cluster ? "cluster" : "default");
	if (fl->k8s_vac) {
		if (c->vac_api_from_cluster)
			out_note(
			    doc,
			    "VolumeAttributesClass manifests use %s, the version of the cluster's classes",
			    c->vac_api);
		else
			out_note(
			    doc,
			    "VolumeAttributesClass manifests use %s (Kubernetes 1.34+; no class was given to read the version from): on 1.31-1.33 write storage.k8s.io/v1beta1 and enable the VolumeAttributesClass feature gate",
			    c->vac_api);
		out_note(
		    doc,
		    "one VolumeAttributesClass per volume carries type, IOPS and throughput together; each modification must complete before the next, at most four per volume in a rolling 24 hours; after the patch, the verify command prints the class once it is applied");
	}
	if (fl->k8s_in_tree)
		out_note(
		    doc,
		    "%zu in-tree awsElasticBlockStore volume(s): a VolumeAttributesClass does not reach them; their command is aws ec2 modify-volume",
		    fl->k8s_in_tree);
	if (fl->k8s_blocked)
		out_note(
		    doc,
		    "%zu claim(s) with a modification under way or refused: listed with its status (k8s.modify_status), no new command",
		    fl->k8s_blocked);
}

/* ------------------------------------------------------------ totals */

/* By currency (USD first), then by savings, then by key. */
static int total_cmp(const void *a, const void *b)
{
	const struct scan_total *x = *(const struct scan_total *const *)a;
	const struct scan_total *y = *(const struct scan_total *const *)b;
	int c = strcmp(x->currency, y->currency);

	if (c)
		return !strcmp(x->currency, "USD")   ? -1
		       : !strcmp(y->currency, "USD") ? 1
						     : c;
	if (x->savings_u != y->savings_u)
		return x->savings_u < y->savings_u ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* What the volumes of a total cost after the proposals (millionths). */
static long long proposed_u(long long current_u, const struct scan_total *t)
{
	return current_u - t->savings_u + t->extra_u;
}

/* Savings as a percentage of current (0 when nothing costs anything). */
static double savings_pct(long long savings_u, long long current_u)
{
	return current_u > 0 ? (double)savings_u * 100.0 / (double)current_u
			     : 0;
}

/*
 * The rows of the totals by `by`, sorted: the groups with findings (by
 * category, region, tag) or every currency with a scanned volume.
 * Heap array of pointers into the fleet; *n of them.
 */
static const struct scan_total **sorted_totals(const struct scan_fleet *fl,
					       enum scan_by by, size_t *n)
{
	const struct scan_totals *src = &fl->by[by];
	const struct scan_total **t = xcalloc(src->n ? src->n : 1, sizeof(*t));

	*n = 0;
	for (size_t i = 0; i < src->n; i++)
		if (src->t[i].findings ||
		    (by == SCAN_BY_CURRENCY && src->t[i].scanned))
			t[(*n)++] = &src->t[i];
	if (*n > 1)
		qsort(t, *n, sizeof(*t), total_cmp);
	return t;
}

/* The money columns of a totals list: key, title, style. */
struct money_col {
	const char *key, *title;
	enum out_style style;
};

/*
 * The totals of the currencies: per currency, the findings' figures as
 * always (volumes, current_monthly, monthly_savings, annual_savings: the
 * volumes with a finding) and the fleet's -- every scanned volume --
 * volumes_scanned, current_monthly_usd, proposed_monthly_usd (after every
 * proposal: current - savings + extra_cost), savings_pct of the current
 * cost and extra_cost_monthly_usd (what burst-risk fixes add).
 */
static void totals_by_currency(struct out_doc *doc, const struct scan_state *st,
			       int human)
{
	static const struct money_col machine[] = {
		{ "volumes", NULL, OUT_INT },
		{ "current_monthly", NULL, OUT_USD },
		{ "monthly_savings", NULL, OUT_USD },
		{ "annual_savings", NULL, OUT_USD },
		{ "volumes_scanned", NULL, OUT_INT },
		{ "current_monthly_usd", NULL, OUT_USD },
		{ "proposed_monthly_usd", NULL, OUT_USD },
		{ "savings_pct", NULL, OUT_PCT },
		{ "extra_cost_monthly_usd", NULL, OUT_USD },
	};
	static const struct money_col people[] = {
		{ "volumes_scanned", "Volumes", OUT_INT },
		{ "volumes", "Findings", OUT_INT },
		{ "current_monthly_usd", "Now/month", OUT_USD },
		{ "proposed_monthly_usd", "Proposed/month", OUT_USD },
		{ "monthly_savings", "Saves/month", OUT_USD },
		{ "annual_savings", "Saves/year", OUT_USD },
		{ "savings_pct", "Saves", OUT_PCT },
	};
	const struct money_col *cols = human ? people : machine;
	size_t ncols = human ? ARRAY_SIZE(people) : ARRAY_SIZE(machine), n;
	const struct scan_total **t =
	    sorted_totals(&st->fleet, SCAN_BY_CURRENCY, &n);
	struct out_table *o =
	    out_list(doc, "totals_by_currency", "Totals by currency");

	out_col(o, "currency", "Currency", OUT_TEXT);
	for (size_t c = 0; c < ncols; c++)
		out_col(o, cols[c].key,
			cols[c].title ? cols[c].title : cols[c].key,
			cols[c].style);
	for (size_t i = 0; i < n; i++) {
		const struct scan_total *x = t[i];
		long long prop = proposed_u(x->scanned_u, x);

		out_row(o);
		out_str(o, x->currency);
		for (size_t c = 0; c < ncols; c++) {
			const char *k = cols[c].key;

			if (!strcmp(k, "volumes"))
				out_int(o, (long long)x->findings);
			else if (!strcmp(k, "volumes_scanned"))
				out_int(o, (long long)x->scanned);
			else if (!strcmp(k, "current_monthly"))
				out_money(o, scan_total_money(x->current_u),
					  x->currency);
			else if (!strcmp(k, "monthly_savings"))
				out_money(o, scan_total_money(x->savings_u),
					  x->currency);
			else if (!strcmp(k, "annual_savings"))
				out_money(o,
					  scan_total_money(x->savings_u * 12),
					  x->currency);
			else if (!strcmp(k, "current_monthly_usd"))
				out_money(o, scan_total_money(x->scanned_u),
					  x->currency);
			else if (!strcmp(k, "proposed_monthly_usd"))
				out_money(o, scan_total_money(prop),
					  x->currency);
			else if (!strcmp(k, "savings_pct"))
				out_num(
				    o, savings_pct(x->savings_u, x->scanned_u));
			else
				out_money(o, scan_total_money(x->extra_u),
					  x->currency);
		}
	}
	free(t);
	if (st->ctx->format == OUT_XLSX)
		scan_book_currency(o);
}

/*
 * The totals of the findings by category, region or tag value: one row
 * per key and currency (amounts in two currencies are never added).
 */
static void totals(struct out_doc *doc, const struct scan_state *st,
		   enum scan_by by, int human)
{
	static const char *const names[] = { "totals_by_category",
					     "totals_by_region",
					     "totals_by_tag" };
	static const char *const keys[] = { "category", "region", "tag_value" };
	static const char *const titles[] = { "Totals by category",
					      "Totals by region",
					      "Totals by tag" };
	size_t n;
	const struct scan_total **t = sorted_totals(&st->fleet, by, &n);
	struct out_table *o = out_list(doc, names[by], titles[by]);

	out_col(o, keys[by], by == SCAN_BY_TAG ? st->a->by_tag : keys[by],
		OUT_TEXT);
	out_col(o, "currency", "Cur", OUT_TEXT);
	out_col(o, "volumes", "Volumes", OUT_INT);
	/* the keys predate other currencies: amounts are in `currency` */
	out_col(o, "current_monthly_usd", "Now/month", OUT_USD);
	out_col(o, "monthly_savings_usd", "Saves/month", OUT_USD);
	out_col(o, "annual_savings_usd", "Saves/year", OUT_USD);
	/* added last, so that the CSV columns before it keep their places */
	out_col(o, "proposed_monthly_usd", "Proposed/month", OUT_USD);
	for (size_t i = 0; i < n; i++) {
		const struct scan_total *x = t[i];
		char clean[160];

		out_row(o);
		out_str(o, human ? scan_one_line(x->key, clean, sizeof(clean))
				 : x->key);
		out_str(o, x->currency);
		out_int(o, (long long)x->findings);
		out_money(o, scan_total_money(x->current_u), x->currency);
		out_money(o, scan_total_money(x->savings_u), x->currency);
		out_money(o, scan_total_money(x->savings_u * 12), x->currency);
		out_money(o, scan_total_money(proposed_u(x->current_u, x)),
			  x->currency);
	}
	free(t);
	if (st->ctx->format == OUT_XLSX)
		scan_book_totals(o, by);
}

/* The total of one currency, or NULL when nothing was priced in it. */
static const struct scan_total *currency_total(const struct scan_fleet *fl,
					       const char *code)
{
	const struct scan_totals *t = &fl->by[SCAN_BY_CURRENCY];

	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->t[i].currency, code))
			return &t->t[i];
	return NULL;
}

/*
 * The root record: counts, and the fleet's cost now and after the
 * proposals with the savings (USD: the other currencies are in
 * totals_by_currency).
 */
static void summary(struct out_doc *doc, const struct scan_state *st)
{
	static const struct scan_total none = { 0 };
	const struct scan_fleet *fl = &st->fleet;
	const struct scan_total *usd = currency_total(fl, "USD");
	struct out_table *t = out_record(doc, "summary", "Summary");
	struct sbuf regions = SBUF_INIT(4096);
	size_t excluded = 0;

	if (!usd)
		usd = &none;
	for (size_t i = 0; i < fl->by[SCAN_BY_CATEGORY].n; i++)
		if (!strcmp(fl->by[SCAN_BY_CATEGORY].t[i].key,
			    scan_cat_name(SCAN_EXCLUDED)))
			excluded += fl->by[SCAN_BY_CATEGORY].t[i].findings;
	for (size_t i = 0; i < fl->nno_price; i++) {
		const char *r = fl->no_price[i].region;
		int dup = 0;

		for (size_t k = 0; k < i; k++)
			dup |= !strcmp(fl->no_price[k].region, r);
		if (!dup)
			sbuf_addf(&regions, "%s%s", regions.len ? ", " : "", r);
	}
	out_kv_int(t, "volumes_scanned", "Volumes scanned",
		   (long long)fl->scanned);
	out_kv_int(t, "findings", "Findings",
		   (long long)(fl->nfindings - excluded));
	out_kv_int(t, "excluded", "Excluded by tag", (long long)excluded);
	out_kv_int(t, "volumes_without_finding", "Without a finding",
		   (long long)(fl->scanned - fl->nfindings));
	out_kv_int(t, "skipped", "Skipped (see warnings)",
		   (long long)fl->skipped);
	out_kv_int(t, "other_regions", "In other regions",
		   (long long)fl->other_region);
	out_kv_int(t, "skipped_no_price", "Skipped, no prices",
		   (long long)fl->skipped_no_price);
	out_kv_str(t, "skipped_no_price_regions", "Regions without prices",
		   regions.len ? regions.buf : NULL);
	out_kv_num(t, "current_monthly_usd", "Fleet cost/month (USD)", OUT_USD,
		   scan_total_money(usd->scanned_u));
	out_kv_num(t, "proposed_monthly_usd", "Proposed/month (USD)", OUT_USD,
		   scan_total_money(proposed_u(usd->scanned_u, usd)));
	out_kv_num(t, "monthly_savings_usd", "Savings per month (USD)", OUT_USD,
		   scan_total_money(usd->savings_u));
	out_kv_num(t, "annual_savings_usd", "Savings per year (USD)", OUT_USD,
		   scan_total_money(usd->savings_u * 12));
	out_kv_num(t, "savings_pct", "Savings (% of cost)", OUT_PCT,
		   savings_pct(usd->savings_u, usd->scanned_u));
	out_kv_num(t, "extra_cost_monthly_usd", "Extra cost/month (USD)",
		   OUT_USD, scan_total_money(usd->extra_u));
	out_kv_num(t, "headroom_pct", "Headroom", OUT_PCT,
		   st->a->opts.headroom_pct);
	out_kv_num(t, "min_savings_usd", "Minimum savings", OUT_USD,
		   st->a->opts.min_savings_usd);
	sbuf_release(&regions);
	if (st->ctx->format == OUT_XLSX)
		scan_book_summary(t);
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

	scan_fleet_sort(&st->fleet);
	out_doc_notes_key(doc);
	summary(doc, st);
	kubernetes(doc, st);
	cluster_findings(doc, st, human);
	if (human)
		human_findings(doc, st);
	else
		full_findings(doc, st);
	totals_by_currency(doc, st, human);
	totals(doc, st, SCAN_BY_CATEGORY, human);
	totals(doc, st, SCAN_BY_REGION, human);
	if (st->a->by_tag)
		totals(doc, st, SCAN_BY_TAG, human);
	if (st->bill)
		scan_billing_report(doc, st, human);
	if ((st->ctx->format == OUT_XLSX && (rc = scan_book_sheets(doc, st))) ||
	    (st->a->svg_dir && (rc = scan_svg_dir(doc, st)))) {
		out_doc_free(doc);
		return rc;
	}
	for (size_t i = 0; i < fl->nno_price; i++)
		out_note(
		    doc,
		    "%zu volume(s) in %s skipped: no %s%sprices for that region (see ebsize pricing regions)",
		    fl->no_price[i].volumes, fl->no_price[i].region,
		    fl->no_price[i].type ? fl->no_price[i].type : "",
		    fl->no_price[i].type ? " " : "");
	out_note(
	    doc,
	    "prices: on-demand per month in each region's currency (CNY in China; amounts in two currencies are never added: totals are per currency, and the summary's savings are USD); savings before snapshot storage; one modify-volume per volume (AWS allows 4 per 24 h)");
	rc = cli_render(st->ctx, doc);
	out_doc_free(doc);
	if (!rc && !fl->scanned && fl->skipped_no_price) {
		msg_error(
		    "no volume could be priced: all %zu skipped for want of prices (regions: see the summary)",
		    fl->skipped_no_price);
		rc = EXIT_RUNTIME;
	}
	return rc;
}
