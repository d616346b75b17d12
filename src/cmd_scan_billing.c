/*
 * cmd_scan_billing.c - billing exports in `ebsize scan`: FOCUS 1.0+,
 * legacy CUR and CUR 2.0 files (plain or gzip) told apart from the other
 * inputs by their header and streamed into one struct billing_data
 * (billing_read.c), then, once describe-volumes and the PVs are read,
 * joined to the fleet by volume id:
 *
 *   - a volume also in describe-volumes or a PV keeps the finding the
 *     inventory gives it, with the billed cost (per month billed) as its
 *     current cost;
 *   - a volume known only from the bill but named by metrics or used
 *     space goes through the same scan rules (scan_fleet_billed), from its
 *     configuration as billed, again with the billed cost as current;
 *   - the others get the billing rules' finding (billing_analyze_volume:
 *     gp2 -> gp3, gp2 sized for IOPS, io1 -> io2 / gp3, billed but absent
 *     from describe-volumes), priced at the prices in force of the
 *     volume's region, prorated over the hours billed;
 *   - volumes without a size, prices, or in another currency than the
 *     prices are counted and warned about (no prices: with the same hints
 *     as describe-volumes volumes).
 *
 * Then its part of the report -- the findings list's billing columns, the
 * `billing` record, `billing_files` and `billing_totals` (per currency,
 * account, region and --by-tag value: billed, list and savings over the
 * period, never adding currencies) -- and `--emit-sql`, the same analysis
 * as one SQL query (billing_sql.c) with the prices in force embedded.
 */
#include "cmd_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ebsize/billing.h"
#include "ebsize/db.h"
#include "ebsize/db_prices.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

/* Whose rules made a billed volume's finding. */
enum link_how {
	LINK_NONE,	/* no finding (none, dropped, not analysed) */
	LINK_BILLING,	/* the billing rules */
	LINK_INVENTORY, /* describe-volumes / PV: the scan rules */
	LINK_METRICS,	/* the scan rules on the billed configuration */
};

/* What the report needs of one billed volume (parallel to data->vol). */
struct scan_bill_link {
	const struct bill_volume *v;
	const struct bill_finding *f;
	enum link_how how;
	int in_scope;	/* not outside --region */
	int has_rec;	/* a finding is listed for it */
	int counted;	/* a finding that counts (not excluded) */
	int unpriced;	/* counted as unpriced */
	int cur_billed; /* its current cost is the billed one */
	double save_month, save_period, save_billed;
};

struct scan_bill {
	struct billing_data *d; /* while reading; then r.data */
	struct billing_result r;
	int joined;
	struct scan_bill_link *link;
	size_t issues_said; /* d->issues already warned about */
	int described;	    /* describe-volumes files given */
	/* the billed volumes, by what became of them */
	size_t in_inventory, by_metrics, by_billing, not_in_inventory;
	size_t no_finding, excluded, below_min, other_region, bad_id;
	size_t no_size, no_prices, other_currency, partial, cur_billed;
	const struct bill_volume *no_size_first;
};

static struct scan_bill *bill_state(struct scan_state *st)
{
	if (!st->bill) {
		st->bill = xcalloc(1, sizeof(*st->bill));
		st->bill->d = billing_data_new();
	}
	return st->bill;
}

static struct billing_data *bill_data(const struct scan_bill *b)
{
	return b->joined ? b->r.data : b->d;
}

size_t scan_billing_volumes(const struct scan_state *st)
{
	return st->bill ? bill_data(st->bill)->nvol : 0;
}

void scan_billing_release(struct scan_state *st)
{
	struct scan_bill *b = st->bill;

	if (!b)
		return;
	if (b->joined)
		billing_result_release(&b->r);
	else
		billing_data_free(b->d);
	free(b->link);
	free(b);
	st->bill = NULL;
}

/* ------------------------------------------------------------ reading */

/* "unit 1, negative quantity 2" of the bad rows of f, into buf. */
static void bad_kinds(const struct bill_file *f, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 0; k < BILL_BAD_COUNT && o < n; k++) {
		if (!f->bad[k])
			continue;
		xsnprintf(buf + o, n - o, "%s%s %zu", o ? ", " : "",
			  billing_bad_name((enum bill_bad)k), f->bad[k]);
		o = strlen(buf);
	}
}

static size_t bad_total(const struct bill_file *f)
{
	size_t n = 0;

	for (int k = 0; k < BILL_BAD_COUNT; k++)
		n += f->bad[k];
	return n;
}

/*
 * The warnings of the file just read: its bad rows (how many of each
 * kind, then each kept one with its line), and an export without
 * resource ids with how to get them.
 */
static void file_warnings(struct scan_state *st, struct scan_bill *b,
			  const struct bill_file *f)
{
	struct billing_data *d = b->d;
	size_t bad = bad_total(f), named = 0;
	char kinds[256];

	if (!f->have_id_column || (f->bad[BILL_BAD_NO_ID] && !f->volume_rows)) {
		msg_warn(
		    "'%s': %s: its %zu EBS volume row(s) cannot be told apart per volume",
		    f->name,
		    f->have_id_column ? "no EBS volume row has a resource id"
				      : "the export has no resource id column",
		    f->bad[BILL_BAD_NO_ID]);
		msg_hint("%s", billing_resource_id_hint(f->format));
	}
	if (bad) {
		bad_kinds(f, kinds, sizeof(kinds));
		inv_warn(&st->warn, "'%s': %zu bad row(s) skipped (%s)",
			 f->name, bad, kinds);
	}
	for (; b->issues_said < d->nissues; b->issues_said++) {
		const struct bill_issue *is = &d->issues[b->issues_said];

		inv_warn(&st->warn, "'%s': line %zu: %s; skipped", is->file,
			 is->line, is->msg);
		named++;
	}
	if (bad > named)
		inv_warn(
		    &st->warn,
		    "'%s': %zu more bad row(s) not named (the first %d of each file are)",
		    f->name, bad - named, BILL_MAX_ISSUES_PER_FILE);
	scan_flush_warnings(st);
}

int scan_billing_input(struct scan_state *st, const char *name,
		       const struct scan_input *in, int *taken)
{
	enum bill_format fmt = BILL_FMT_UNKNOWN;
	struct scan_bill *b;
	char err[EBS_ERRLEN];
	struct stat sb;
	int rc;

	*taken = 0;
	if (!in) {
		/* only a regular file can be looked at twice (not a pipe);
		 * one that cannot be opened is the caller's to report */
		if (!strcmp(name, "-") || stat(name, &sb) ||
		    !S_ISREG(sb.st_mode) ||
		    billing_sniff_file(name, &fmt, err) ||
		    fmt == BILL_FMT_UNKNOWN)
			return 0;
	} else {
		fmt = billing_detect(in->data, in->len);
		if (fmt == BILL_FMT_UNKNOWN && in->len >= 2 &&
		    (unsigned char)in->data[0] == 0x1f &&
		    (unsigned char)in->data[1] == 0x8b) {
			msg_error(
			    "'%s': gzip data from standard input or a pipe: give the billing export's file name (plain CSV can come from a pipe)",
			    name);
			return 1;
		}
		if (fmt == BILL_FMT_UNKNOWN)
			return 0;
	}
	*taken = 1;
	b = bill_state(st);
	if (msg_progress_enabled())
		msg_progress("reading billing export '%s'", name);
	rc = in ? billing_parse_buffer(b->d, name, in->data, in->len, err)
		: billing_read_file(b->d, name, err);
	msg_progress_done();
	if (rc) {
		msg_error("%s", err);
		return 1;
	}
	file_warnings(st, b, &b->d->files[b->d->nfiles - 1]);
	return 0;
}

/* ------------------------------------------------------------ joining */

/* billing_prices_fn: the prices in force of region from the database. */
static int bill_prices(const char *region, const struct price_set **ps,
		       const char **currency, void *arg, char *err)
{
	const struct price_set *p;

	(void)err;
	if (strlen(region) >=
		sizeof(((struct scan_region_prices *)0)->region) ||
	    !(p = scan_prices_for(arg, region)))
		return 1;
	*ps = p;
	*currency = p->currency;
	return 0;
}

/* A region code as AWS writes them (it goes into hints and commands). */
static int region_ok(const char *r)
{
	size_t n = strlen(r);

	return n >= 4 && n < 32 &&
	       strspn(r, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

static enum scan_cat cat_of(enum bill_cat c)
{
	switch (c) {
	case BILL_GP2_TO_GP3: return SCAN_GP2_TO_GP3;
	case BILL_GP2_SIZED_FOR_IOPS: return SCAN_GP2_SIZED_FOR_IOPS;
	case BILL_IO1_TO_IO2: return SCAN_IO1_TO_IO2;
	case BILL_IO1_TO_GP3: return SCAN_IO1_TO_GP3;
	default: return SCAN_NOT_IN_INVENTORY;
	}
}

/*
 * The billing rules' finding as a scan finding.  Risk and confidence as
 * scan.c rates the same changes without metrics: gp3 in place of gp2 and
 * io2 in place of io1 are low risk and sure; io1 -> gp3 changes latency
 * and Multi-Attach (unknown here): medium; a volume absent from
 * describe-volumes may be in an account or region not described.
 */
static void finding_of(const struct bill_finding *bf, double headroom_pct,
		       struct scan_finding *fd)
{
	memset(fd, 0, sizeof(*fd));
	fd->cat = cat_of(bf->cat);
	fd->cur = bf->cur;
	fd->prop = bf->prop;
	fd->cur_usd = bf->cur_per_month;
	fd->prop_usd = bf->prop_per_month;
	fd->save_usd = bf->save_per_month;
	fd->risk = fd->cat == SCAN_IO1_TO_GP3 ? SCAN_MEDIUM : SCAN_LOW;
	fd->confidence =
	    fd->cat == SCAN_IO1_TO_GP3 || fd->cat == SCAN_NOT_IN_INVENTORY
		? SCAN_MEDIUM
		: SCAN_HIGH;
	fd->cliff_s = -1;
	fd->used_gib = -1;
	fd->peak_iops = -1;
	fd->load_iops = -1;
	fd->burst_min_pct = -1;
	fd->headroom_pct = headroom_pct;
	fd->target_iops = bf->target_iops;
}

/* The volume as the scan rules see it, with its tags (tags[] of ntags). */
static void billed_of(const struct bill_volume *v, const struct bill_finding *f,
		      struct inv_tag *tags, struct scan_billed *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->id = v->id;
	sb->region = v->region;
	sb->cfg = f->cur;
	sb->cfg.count = 1;
	for (size_t i = 0; i < v->ntags && i < BILL_MAX_TAGS; i++) {
		tags[i].key = v->tags[i].key;
		tags[i].value = v->tags[i].value;
	}
	sb->tags = tags;
	sb->ntags = v->ntags < BILL_MAX_TAGS ? v->ntags : BILL_MAX_TAGS;
}

/*
 * A finding of the scan rules (describe-volumes, a PV, metrics) for a
 * billed volume: its current cost becomes the billed one, per month
 * billed, when the bill and the prices are in the same currency.
 */
static void attach(struct scan_fleet *fl, struct scan_bill *b,
		   struct scan_rec *r, struct scan_bill_link *l,
		   enum link_how how)
{
	const struct bill_volume *v = l->v;

	r->bill = l;
	l->how = how;
	l->has_rec = 1;
	l->counted = r->f.cat != SCAN_EXCLUDED;
	if (v->months > 0 && !strcmp(v->currency, r->currency)) {
		scan_fleet_set_current(fl, r,
				       scan_usd(v->billed_total / v->months));
		l->cur_billed = 1;
		b->cur_billed++;
	}
	l->save_month = r->f.save_usd;
	l->save_period = scan_usd(r->f.save_usd * v->months);
	l->save_billed = scan_usd(r->f.save_usd * v->months * l->f->discount);
}

/* One billed volume known only from the bill: its own rules. */
static int join_billed(struct scan_state *st, struct scan_bill *b,
		       struct scan_bill_link *l)
{
	struct scan_fleet *fl = &st->fleet;
	const struct bill_volume *v = l->v;
	const struct bill_finding *f = l->f;
	struct inv_tag tags[BILL_MAX_TAGS];
	struct scan_billed sb;
	struct scan_finding fd;
	struct scan_rec *r;
	size_t before;

	billed_of(v, f, tags, &sb);
	if (f->status != BILL_NO_SIZE && f->in_inventory != 0 &&
	    scan_fleet_has_side_inputs(fl, v->id)) {
		before = fl->nrecs;
		if (scan_fleet_billed(fl, v->file, &sb, st->err)) {
			msg_error("%s", st->err);
			return 1;
		}
		b->by_metrics++;
		if (fl->nrecs > before)
			attach(fl, b, &fl->recs[before], l, LINK_METRICS);
		return 0;
	}
	switch (f->status) {
	case BILL_NO_SIZE:
		/* one warning for all of them (join): a sample of rows has many */
		fl->skipped++;
		if (!b->no_size++)
			b->no_size_first = v;
		l->unpriced = 1;
		return 0;
	case BILL_NO_PRICES:
		b->no_prices++;
		l->unpriced = 1;
		scan_fleet_no_price(fl, v->region,
				    scan_prices_for(st, v->region)
					? model_type_name(v->type)
					: NULL);
		return 0;
	case BILL_OTHER_CURRENCY:
		fl->skipped++;
		b->other_currency++;
		l->unpriced = 1;
		inv_warn(
		    &st->warn,
		    "'%s': line %zu: volume '%s' is billed in %s, the prices of region '%s' are in %s: not compared; skipped",
		    v->file, v->line, v->id, v->currency, v->region,
		    f->price_currency ? f->price_currency : "?");
		return 0;
	default: break;
	}
	scan_fleet_count(fl, v->region, v->currency, f->cur_per_month);
	if (f->cat == BILL_NONE) {
		b->no_finding++;
		return 0;
	}
	finding_of(f, st->a->opts.headroom_pct, &fd);
	if (!(r = scan_fleet_keep(fl, &sb, v->currency, &fd))) {
		b->below_min++;
		return 0;
	}
	r->bill = l;
	l->how = LINK_BILLING;
	l->has_rec = 1;
	if (r->f.cat == SCAN_EXCLUDED) {
		b->excluded++;
		return 0;
	}
	l->counted = 1;
	b->by_billing++;
	b->not_in_inventory += r->f.cat == SCAN_NOT_IN_INVENTORY;
	l->save_month = f->save_per_month;
	l->save_period = f->save_period;
	l->save_billed = f->save_billed_period;
	return 0;
}

int scan_billing_join(struct scan_state *st, int described)
{
	struct scan_bill *b = st->bill;
	struct scan_fleet *fl = &st->fleet;
	const char *only = fl->o.only_region;
	struct strmap rec_of = STRMAP_INIT;
	struct billing_data *d;
	int rc = 0;

	b->described = described;
	for (size_t i = 0; i < fl->nrecs; i++)
		strmap_put(&rec_of, fl->recs[i].id, (void *)(uintptr_t)(i + 1));
	/* billing_analyze owns the data from here, error or not */
	b->joined = 1;
	if (billing_analyze(b->d, bill_prices, st, fl->lim,
			    described ? scan_fleet_ids(fl) : NULL, &b->r,
			    st->err)) {
		msg_error("%s", st->err);
		strmap_release(&rec_of);
		return 1;
	}
	b->d = NULL;
	d = b->r.data;
	b->link = xcalloc(d->nvol ? d->nvol : 1, sizeof(*b->link));
	for (size_t i = 0; i < d->nvol && !rc; i++) {
		struct scan_bill_link *l = &b->link[i];
		const struct bill_volume *v = d->vol[i];
		uintptr_t at;

		l->v = v;
		l->f = &b->r.f[i];
		l->in_scope = 1;
		b->partial += l->f->partial;
		if (scan_fleet_has_volume(fl, v->id)) {
			/* described (or a PV): that record decides */
			b->in_inventory++;
			if ((at = (uintptr_t)strmap_get(&rec_of, v->id)))
				attach(fl, b, &fl->recs[at - 1], l,
				       LINK_INVENTORY);
			continue;
		}
		if (!region_ok(v->region)) {
			fl->skipped++;
			b->bad_id++;
			l->in_scope = 0;
			inv_warn(
			    &st->warn,
			    "'%s': line %zu: volume '%s' has no usable region ('%s'); skipped",
			    v->file, v->line, v->id, v->region);
			continue;
		}
		if (only && strcmp(v->region, only)) {
			fl->other_region++;
			b->other_region++;
			l->in_scope = 0;
			continue;
		}
		if (strlen(v->id) >= sizeof(fl->recs[0].id)) {
			fl->skipped++;
			b->bad_id++;
			l->in_scope = 0;
			inv_warn(
			    &st->warn,
			    "'%s': line %zu: resource id '%.64s' is longer than an EBS volume id; skipped",
			    v->file, v->line, v->id);
			continue;
		}
		rc = join_billed(st, b, l);
	}
	strmap_release(&rec_of);
	if (b->no_size)
		inv_warn(
		    &st->warn,
		    "%zu billed volume(s) have IOPS or throughput rows but no storage rows, so no size, such as '%s' ('%s' line %zu); skipped",
		    b->no_size, b->no_size_first->id, b->no_size_first->file,
		    b->no_size_first->line);
	scan_flush_warnings(st);
	return rc;
}

/* ------------------------------------------------------------ findings */

static const char *const how_names[] = {
	[LINK_NONE] = NULL,
	[LINK_BILLING] = "billing",
	[LINK_INVENTORY] = "inventory",
	[LINK_METRICS] = "metrics",
};

void scan_rec_reason(const struct scan_rec *r, char *buf, size_t n)
{
	const struct scan_bill_link *l = r->bill;
	size_t len;

	if (l && l->how == LINK_BILLING && r->f.cat != SCAN_EXCLUDED) {
		billing_reason(l->v, l->f, buf, n);
		return;
	}
	scan_reason(&r->f, buf, n);
	if (l && l->cur_billed && (len = strlen(buf)) + 1 < n)
		xsnprintf(buf + len, n - len,
			  "; current cost as billed (%.0f h)", l->v->hours);
}

static const struct {
	const char *key;
	enum out_style style;
} bill_cols[] = {
	{ "account", OUT_TEXT },
	{ "billing.payer_account", OUT_TEXT },
	{ "billing.finding_from", OUT_TEXT },
	{ "billing.file", OUT_TEXT },
	{ "billing.hours", OUT_NUM1 },
	{ "billing.months", OUT_NUM3 },
	{ "billing.partial", OUT_BOOL },
	{ "billing.in_inventory", OUT_BOOL },
	{ "billing.billed", OUT_USD },
	{ "billing.list", OUT_USD },
	{ "billing.billed_to_list", OUT_NUM3 },
	{ "billing.billed_monthly", OUT_USD },
	{ "billing.savings_period", OUT_USD },
	{ "billing.savings_period_billed", OUT_USD },
};

void scan_billing_cols(struct out_table *t, int human)
{
	if (human) {
		out_col(t, "account", "Account", OUT_TEXT);
		out_col(t, "billed", "Billed", OUT_USD);
		out_col(t, "list", "List", OUT_USD);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(bill_cols); i++)
		out_col(t, bill_cols[i].key, bill_cols[i].key,
			bill_cols[i].style);
}

void scan_billing_cells(struct out_table *t, const struct scan_rec *r,
			int human)
{
	const struct scan_bill_link *l = r->bill;
	const struct bill_volume *v = l ? l->v : NULL;
	char buf[64];

	if (human) {
		if (!v) {
			out_null(t);
			out_null(t);
			out_null(t);
			return;
		}
		out_str(t, scan_one_line(v->usage_account, buf, sizeof(buf)));
		out_money(t, scan_usd(v->billed_total), v->currency);
		out_money(t, scan_usd(v->list_total), v->currency);
		return;
	}
	if (!v) {
		for (size_t i = 0; i < ARRAY_SIZE(bill_cols); i++)
			out_null(t);
		return;
	}
	out_str_ref(t, *v->usage_account ? v->usage_account : NULL);
	out_str_ref(t, *v->payer_account ? v->payer_account : NULL);
	out_str_ref(t, how_names[l->how]);
	out_str_ref(t, v->file);
	out_num(t, v->hours);
	out_num(t, v->months);
	out_bool(t, l->f->partial);
	if (l->f->in_inventory < 0)
		out_null(t);
	else
		out_bool(t, l->f->in_inventory);
	out_money(t, scan_usd(v->billed_total), v->currency);
	out_money(t, scan_usd(v->list_total), v->currency);
	out_num(t, l->f->discount);
	if (v->months > 0)
		out_money(t, scan_usd(v->billed_total / v->months),
			  v->currency);
	else
		out_null(t);
	out_money(t, l->save_period, v->currency);
	out_money(t, l->save_billed, v->currency);
}

/* ------------------------------------------------------------ report */

static void iso_time(long long t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
}

/* The `billing` record: the period and what became of the volumes. */
static void bill_record(struct out_doc *doc, const struct scan_bill *b)
{
	const struct billing_data *d = b->r.data;
	struct out_table *t = out_record(doc, "billing", "Billing exports");
	size_t rows = 0, vrows = 0, snap = 0, other = 0, bad = 0;
	char from[32], to[32];

	for (size_t i = 0; i < d->nfiles; i++) {
		rows += d->files[i].rows;
		vrows += d->files[i].volume_rows;
		snap += d->files[i].snapshot_rows;
		other += d->files[i].other_rows;
		bad += bad_total(&d->files[i]);
	}
	iso_time(d->period_start, from, sizeof(from));
	iso_time(d->period_end, to, sizeof(to));
	out_kv_int(t, "files", "Files", (long long)d->nfiles);
	out_kv_str(t, "period_start", "Period from", *from ? from : NULL);
	out_kv_str(t, "period_end", "... to", *to ? to : NULL);
	out_kv_num(t, "period_hours", "Hours in the period", OUT_NUM1,
		   billing_period_hours(d));
	out_kv_int(t, "rows", "Rows", (long long)rows);
	out_kv_int(t, "volume_rows", "EBS volume rows", (long long)vrows);
	out_kv_int(t, "snapshot_rows", "Snapshot rows (skipped)",
		   (long long)snap);
	out_kv_int(t, "other_rows", "Other rows (skipped)", (long long)other);
	out_kv_int(t, "bad_rows", "Bad rows (skipped)", (long long)bad);
	out_kv_int(t, "volumes", "Volumes billed", (long long)d->nvol);
	out_kv_int(t, "partial", "... billed part of the period",
		   (long long)b->partial);
	out_kv_int(t, "in_inventory", "... in describe-volumes or a PV",
		   (long long)b->in_inventory);
	out_kv_int(t, "by_metrics", "... with metrics or used space",
		   (long long)b->by_metrics);
	out_kv_int(t, "billing_findings", "Findings of the billing rules",
		   (long long)b->by_billing);
	out_kv_int(t, "not_in_inventory", "... billed, not in describe-volumes",
		   (long long)b->not_in_inventory);
	out_kv_int(t, "no_finding", "Priced, nothing to propose",
		   (long long)b->no_finding);
	out_kv_int(t, "below_min_savings", "Below --min-savings",
		   (long long)b->below_min);
	out_kv_int(t, "excluded", "Excluded by tag", (long long)b->excluded);
	out_kv_int(t, "no_size", "No storage rows (size unknown)",
		   (long long)b->no_size);
	out_kv_int(t, "no_prices", "No prices for the region or type",
		   (long long)b->no_prices);
	out_kv_int(t, "other_currency",
		   "Billed in another currency than the prices",
		   (long long)b->other_currency);
	out_kv_int(t, "other_regions", "Outside --region",
		   (long long)b->other_region);
	out_kv_int(t, "unusable", "Unusable id or region",
		   (long long)b->bad_id);
	out_kv_bool(t, "described", "describe-volumes given", b->described);
}

static const struct {
	const char *key, *title;
	enum out_style style;
	int machine_only;
} file_cols[] = {
	{ "file", "File", OUT_TEXT, 0 },
	{ "format", "Format", OUT_TEXT, 0 },
	{ "currency", "Cur", OUT_TEXT, 0 },
	{ "resource_ids", "Ids", OUT_BOOL, 0 },
	{ "bytes", "Bytes", OUT_INT, 1 },
	{ "rows", "Rows", OUT_INT, 0 },
	{ "volume_rows", "Volume rows", OUT_INT, 0 },
	{ "snapshot_rows", "Snapshot rows", OUT_INT, 0 },
	{ "other_rows", "Other rows", OUT_INT, 0 },
	{ "bad_rows", "Bad rows", OUT_INT, 0 },
	/* in the order of enum bill_bad */
	{ "bad.field_count", NULL, OUT_INT, 1 },
	{ "bad.no_resource_id", NULL, OUT_INT, 1 },
	{ "bad.unit", NULL, OUT_INT, 1 },
	{ "bad.quantity", NULL, OUT_INT, 1 },
	{ "bad.negative_quantity", NULL, OUT_INT, 1 },
	{ "bad.date", NULL, OUT_INT, 1 },
	{ "bad.currency", NULL, OUT_INT, 1 },
};

/* `billing_files`: one row per file read. */
static void bill_files(struct out_doc *doc, const struct billing_data *d,
		       int human)
{
	struct out_table *t = out_list(doc, "billing_files", "Billing files");
	char buf[256];

	for (size_t i = 0; i < ARRAY_SIZE(file_cols); i++)
		if (!human || !file_cols[i].machine_only)
			out_col(t, file_cols[i].key,
				human ? file_cols[i].title : file_cols[i].key,
				file_cols[i].style);
	for (size_t i = 0; i < d->nfiles; i++) {
		const struct bill_file *f = &d->files[i];

		out_row(t);
		out_str(t, human ? scan_one_line(f->name, buf, sizeof(buf))
				 : f->name);
		out_str(t, billing_format_name(f->format));
		out_str(t, *f->currency ? f->currency : NULL);
		out_bool(t, f->have_id_column);
		if (!human)
			out_int(t, (long long)f->bytes);
		out_int(t, (long long)f->rows);
		out_int(t, (long long)f->volume_rows);
		out_int(t, (long long)f->snapshot_rows);
		out_int(t, (long long)f->other_rows);
		out_int(t, (long long)bad_total(f));
		for (int k = 0; !human && k < BILL_BAD_COUNT; k++)
			out_int(t, (long long)f->bad[k]);
	}
}

/* One line of `billing_totals`: a group value in one currency. */
struct btotal {
	int by;
	const char *key;
	const char *currency;
	size_t volumes, findings, unpriced;
	double billed, list, save_month, save_period, save_billed;
};

enum { BY_CURRENCY, BY_ACCOUNT, BY_REGION, BY_TAG, BY_COUNT };
static const char *const by_names[BY_COUNT] = { "currency", "account", "region",
						"tag" };

static int btotal_cmp(const void *a, const void *b)
{
	const struct btotal *x = a, *y = b;
	int c;

	if (x->by != y->by)
		return x->by < y->by ? -1 : 1;
	if ((c = strcmp(x->key, y->key)))
		return c;
	return strcmp(x->currency, y->currency);
}

static const char *group_key(const struct bill_volume *v, int by,
			     const char *tag_key)
{
	const char *s;

	switch (by) {
	case BY_CURRENCY: return v->currency;
	case BY_ACCOUNT: return v->usage_account;
	case BY_REGION: return v->region;
	default: s = billing_tag(v, tag_key); return s ? s : "";
	}
}

/*
 * `billing_totals`: per currency, usage account, region and --by-tag
 * value (each in each currency: never added across), the billed and list
 * cost over the period of every billed volume in scope, and the savings
 * of the findings listed for them (per month, and over the period as
 * listed and as billed).
 */
static void bill_totals(struct out_doc *doc, const struct scan_state *st,
			int human)
{
	const struct scan_bill *b = st->bill;
	const struct billing_data *d = b->r.data;
	struct strmap idx = STRMAP_INIT;
	struct btotal *t = NULL;
	struct out_table *o;
	size_t n = 0, alloc = 0;
	char clean[160];

	for (size_t i = 0; i < d->nvol; i++) {
		const struct scan_bill_link *l = &b->link[i];

		if (!l->in_scope)
			continue;
		for (int by = 0; by < BY_COUNT; by++) {
			const char *key;
			struct btotal *x;
			char *k;
			uintptr_t at;

			if (by == BY_TAG && !st->a->by_tag)
				continue;
			key = group_key(l->v, by, st->a->by_tag);
			k = xstrfmt("%d\x1f%s\x1f%s", by, key, l->v->currency);
			if (!(at = (uintptr_t)strmap_get(&idx, k))) {
				xgrow((void **)&t, &alloc, n + 1, sizeof(*t));
				memset(&t[n], 0, sizeof(*t));
				t[n].by = by;
				t[n].key = key;
				t[n].currency = l->v->currency;
				at = ++n;
				strmap_put(&idx, k, (void *)at);
			}
			free(k);
			x = &t[at - 1];
			x->volumes++;
			x->findings += l->counted;
			x->unpriced += l->unpriced;
			x->billed += l->v->billed_total;
			x->list += l->v->list_total;
			if (l->counted) {
				x->save_month += l->save_month;
				x->save_period += l->save_period;
				x->save_billed += l->save_billed;
			}
		}
	}
	strmap_release(&idx);
	if (n)
		qsort(t, n, sizeof(*t), btotal_cmp);
	o = out_list(doc, "billing_totals", "Billing totals (over the period)");
	out_col(o, "by", "By", OUT_TEXT);
	out_col(o, "value", "Value", OUT_TEXT);
	out_col(o, "currency", "Cur", OUT_TEXT);
	out_col(o, "volumes", "Volumes", OUT_INT);
	out_col(o, "findings", "Findings", OUT_INT);
	out_col(o, "unpriced", "Unpriced", OUT_INT);
	out_col(o, "billed", "Billed", OUT_USD);
	out_col(o, "list", "List", OUT_USD);
	out_col(o, "savings_monthly", "Saves/month", OUT_USD);
	out_col(o, "savings_period", "Saves (period)", OUT_USD);
	out_col(o, "savings_period_billed", "... as billed", OUT_USD);
	for (size_t i = 0; i < n; i++) {
		const char *key =
		    t[i].by == BY_TAG && !*t[i].key ? "(untagged)" : t[i].key;

		out_row(o);
		out_str(o, by_names[t[i].by]);
		out_str(o,
			human ? scan_one_line(key, clean, sizeof(clean)) : key);
		out_str(o, t[i].currency);
		out_int(o, (long long)t[i].volumes);
		out_int(o, (long long)t[i].findings);
		out_int(o, (long long)t[i].unpriced);
		out_money(o, scan_usd(t[i].billed), t[i].currency);
		out_money(o, scan_usd(t[i].list), t[i].currency);
		out_money(o, scan_usd(t[i].save_month), t[i].currency);
		out_money(o, scan_usd(t[i].save_period), t[i].currency);
		out_money(o, scan_usd(t[i].save_billed), t[i].currency);
	}
	free(t);
}

void scan_billing_report(struct out_doc *doc, const struct scan_state *st,
			 int human)
{
	const struct scan_bill *b = st->bill;

	if (!b || !b->joined)
		return;
	bill_record(doc, b);
	bill_files(doc, b->r.data, human);
	bill_totals(doc, st, human);
	out_note(
	    doc,
	    "billing: billed (BilledCost, net unblended cost) and list (ListCost, public on-demand cost) are over the period billed, in the bill's currency; findings of billed volumes are priced per month at the prices in force, and over the period prorated by the months billed (billing.savings_period) and at the volume's billed/list ratio (billing.savings_period_billed)");
	if (b->partial)
		out_note(
		    doc,
		    "%zu billed volume(s) were billed for part of the period (billing.partial): their savings over the period are prorated",
		    b->partial);
	if (b->cur_billed)
		out_note(
		    doc,
		    "%zu volume(s) also in describe-volumes, a PV, metrics or used space: the finding is the inventory's rules', its current cost the billed one per month billed (billed / months)",
		    b->cur_billed);
	if (b->not_in_inventory)
		out_note(
		    doc,
		    "%zu volume(s) billed but not in the describe-volumes files: deleted since, or in an account or region not described",
		    b->not_in_inventory);
}

/* ------------------------------------------------------------ SQL */

struct region_list {
	char (*code)[32];
	size_t n, alloc;
};

/* db_each_region: the regions with prices in force. */
static int priced_region(const struct region_info *ri, void *arg)
{
	struct region_list *l = arg;

	if (!ri->snapshot_id || !ri->prices)
		return 0;
	xgrow((void **)&l->code, &l->alloc, l->n + 1, sizeof(*l->code));
	xsnprintf(l->code[l->n++], sizeof(*l->code), "%s", ri->code);
	return 0;
}

/*
 * The prices embedded: those of every --region given (each must have
 * prices), else of every region with prices in force.
 */
static int sql_regions(struct cli_ctx *ctx, struct region_list *l)
{
	char err[EBS_ERRLEN];

	if (!ctx->region_from_opt) {
		if (db_each_region(ctx->db, priced_region, l, err))
			return cli_fail(ctx, EBS_ERR_DB, err);
		return EXIT_OK;
	}
	for (size_t i = 0; i < ctx->nregions; i++) {
		int dup = 0;

		for (size_t k = 0; k < l->n; k++)
			dup |= !strcmp(l->code[k], ctx->regions[i]);
		if (dup)
			continue;
		xgrow((void **)&l->code, &l->alloc, l->n + 1, sizeof(*l->code));
		xsnprintf(l->code[l->n++], sizeof(*l->code), "%s",
			  ctx->regions[i]);
	}
	return EXIT_OK;
}

int scan_emit_sql(const struct scan_args *a, struct cli_ctx *ctx)
{
	struct volume_limits lim[VT_COUNT];
	struct region_list regions = { 0 };
	struct price_set *sets = NULL;
	struct bill_sql_prices *p = NULL;
	struct bill_sql_opts o = { 0 };
	char err[EBS_ERRLEN], *sql = NULL;
	enum bill_format schema;
	FILE *f;
	int rc;

	for (int t = 0; t < VT_COUNT; t++)
		if ((rc = db_load_limits(ctx->db, (enum vol_type)t, NULL,
					 &lim[t], err)))
			return cli_fail(ctx, rc, err);
	if ((rc = sql_regions(ctx, &regions)))
		goto out;
	sets = xcalloc(regions.n ? regions.n : 1, sizeof(*sets));
	p = xcalloc(regions.n ? regions.n : 1, sizeof(*p));
	for (size_t i = 0; i < regions.n; i++) {
		if ((rc = cli_load_prices(ctx, regions.code[i], NULL, NULL,
					  &sets[i])))
			goto out;
		p[i].ps = &sets[i];
		p[i].currency = sets[i].currency;
	}
	if (billing_format_parse(scan_schema_names[a->schema], &schema)) {
		rc = cli_fail(ctx, EBS_ERR_USAGE, "no such billing schema");
		goto out;
	}
	o.dialect = (enum bill_dialect)a->emit_sql;
	o.schema = schema;
	o.table = ctx->table;
	o.version = EBSIZE_VERSION;
	if (!(sql = billing_sql(&o, p, regions.n, lim, err))) {
		rc = cli_fail(ctx,
			      o.table && !billing_sql_table_ok(o.table)
				  ? EBS_ERR_USAGE
				  : EBS_ERR_TOO_BIG,
			      err);
		goto out;
	}
	if (!(f = cli_out(ctx, ctx->cmd_name, "SQL"))) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = fputs(sql, f) < 0 ? cli_write_error(ctx) : EXIT_OK;
out:
	free(sql);
	free(p);
	free(sets);
	free(regions.code);
	return rc;
}
