/*
 * cmd_scan_charts.c - the pictures of a scan: current against proposed
 * monthly cost by category, by region and (--by-tag) by tag value, and the
 * top volumes by savings, each with the data behind it (report.h's chart
 * builders).  One set per currency, USD first: amounts in two currencies
 * are never drawn on one axis.  `scan --svg-dir DIR` writes them as SVG
 * files linked from the Markdown; `ebsize report --scan` puts them in the
 * report (cmd_report.c).
 *
 * The fleet's totals count every finding; the top chart draws from the
 * findings kept (the --limit first of each currency in a table, else all).
 */
#include "cmd_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/msg.h"
#include "ebsize/report.h"
#include "ebsize/util.h"

/* Descriptions of one finding's configurations, kept while charting. */
struct described {
	char now[96], prop[96];
};

/* By savings, most first, then by key. */
static int total_cmp(const void *a, const void *b)
{
	const struct report_scan_total *x = a, *y = b;

	if (x->save_usd != y->save_usd)
		return x->save_usd < y->save_usd ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The totals by `by` in one currency, as the chart builders take them. */
static struct report_scan_total *totals_in(const struct scan_fleet *fl,
					   enum scan_by by,
					   const char *currency, size_t *n)
{
	const struct scan_totals *src = &fl->by[by];
	struct report_scan_total *t = xcalloc(src->n ? src->n : 1, sizeof(*t));

	*n = 0;
	for (size_t i = 0; i < src->n; i++) {
		const struct scan_total *x = &src->t[i];

		if (!x->findings || strcmp(x->currency, currency))
			continue;
		t[*n].key = x->key;
		t[*n].volumes = (long)x->findings;
		t[*n].cur_usd = scan_total_money(x->current_u);
		t[*n].save_usd = scan_total_money(x->savings_u);
		t[*n].prop_usd =
		    scan_total_money(x->current_u - x->savings_u + x->extra_u);
		(*n)++;
	}
	if (*n > 1)
		qsort(t, *n, sizeof(*t), total_cmp);
	return t;
}

/* Add c to the list (NULL ignored). */
static void push(struct report_chart ***v, size_t *n, size_t *alloc,
		 struct report_chart *c)
{
	if (!c)
		return;
	xgrow((void **)v, alloc, *n + 1, sizeof(**v));
	(*v)[(*n)++] = c;
}

/* The charts of one currency, named PREFIX-categories[-ccy] ... */
static void charts_in(const struct scan_state *st, const char *currency,
		      const struct scan_chart_opts *o, struct report_chart ***v,
		      size_t *n, size_t *alloc)
{
	const struct scan_fleet *fl = &st->fleet;
	struct report_scan_finding *f =
	    xcalloc(fl->nrecs ? fl->nrecs : 1, sizeof(*f));
	struct described *d = xcalloc(fl->nrecs ? fl->nrecs : 1, sizeof(*d));
	struct report_scan s = { 0 };
	struct report_scan_total *cat, *reg, *tag = NULL;
	char suffix[16] = "", *name;

	if (strcmp(currency, "USD")) {
		xsnprintf(suffix, sizeof(suffix), "-%.8s", currency);
		for (char *p = suffix; *p; p++)
			*p = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a')
						    : *p;
	}
	s.source = o->source;
	s.generated = o->generated;
	s.currency = currency;
	s.top = o->top;
	s.tag_key = st->a->by_tag;
	for (size_t i = 0; i < fl->nrecs; i++) {
		const struct scan_rec *r = &fl->recs[i];
		struct report_scan_finding *x = &f[s.nfindings];

		if (strcmp(r->currency, currency))
			continue;
		scan_describe(&r->f.cur, d[s.nfindings].now,
			      sizeof(d[s.nfindings].now));
		if (r->f.cat == SCAN_EXCLUDED)
			xsnprintf(d[s.nfindings].prop,
				  sizeof(d[s.nfindings].prop), "(excluded)");
		else
			scan_describe(&r->f.prop, d[s.nfindings].prop,
				      sizeof(d[s.nfindings].prop));
		x->volume_id = r->id;
		x->name = r->name ? r->name : r->pvc;
		x->region = r->region;
		x->category = scan_cat_name(r->f.cat);
		x->current = d[s.nfindings].now;
		x->proposed = d[s.nfindings].prop;
		x->cur_usd = r->f.cur_usd;
		x->save_usd = r->f.save_usd;
		x->prop_usd = r->f.cur_usd - r->f.save_usd + r->f.extra_usd;
		s.nfindings++;
	}
	s.findings = f;
	s.by_category = cat =
	    totals_in(fl, SCAN_BY_CATEGORY, currency, &s.ncategories);
	s.by_region = reg =
	    totals_in(fl, SCAN_BY_REGION, currency, &s.nregions);
	if (st->a->by_tag)
		s.by_tag = tag = totals_in(fl, SCAN_BY_TAG, currency, &s.ntags);
	name = xstrfmt("%s-categories%s", o->prefix, suffix);
	push(v, n, alloc, report_chart_scan_totals(name, &s, 0));
	free(name);
	name = xstrfmt("%s-regions%s", o->prefix, suffix);
	push(v, n, alloc, report_chart_scan_totals(name, &s, 1));
	free(name);
	if (tag) {
		name = xstrfmt("%s-tags%s", o->prefix, suffix);
		push(v, n, alloc, report_chart_scan_totals(name, &s, 2));
		free(name);
	}
	name = xstrfmt("%s-top%s", o->prefix, suffix);
	push(v, n, alloc, report_chart_scan_top(name, &s));
	free(name);
	free(cat);
	free(reg);
	free(tag);
	free(f);
	free(d);
}

struct report_chart **scan_charts(const struct scan_state *st,
				  const struct scan_chart_opts *o, size_t *n)
{
	const struct scan_totals *cur = &st->fleet.by[SCAN_BY_CURRENCY];
	struct report_chart **v = NULL;
	size_t alloc = 0;
	int usd = 0;

	*n = 0;
	for (size_t i = 0; i < cur->n; i++)
		usd |= cur->t[i].findings && !strcmp(cur->t[i].currency, "USD");
	if (usd)
		charts_in(st, "USD", o, &v, n, &alloc);
	for (size_t i = 0; i < cur->n; i++)
		if (cur->t[i].findings && strcmp(cur->t[i].currency, "USD"))
			charts_in(st, cur->t[i].currency, o, &v, n, &alloc);
	return v;
}

void scan_charts_free(struct report_chart **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		report_chart_free(v[i]);
	free(v);
}

int scan_svg_dir(struct out_doc *doc, const struct scan_state *st)
{
	struct scan_chart_opts o = { "scan", NULL, 0, 10 };
	struct sbuf src = SBUF_INIT(4096);
	struct report_chart **v;
	char err[EBS_ERRLEN];
	size_t n;
	int rc;

	for (size_t i = 0; i < st->a->nfiles; i++)
		sbuf_addf(&src, "%s%s", i ? ", " : "", st->a->files[i]);
	o.source = src.buf;
	/* a table shows --limit findings: the top chart draws from them */
	if (st->a->limit && (size_t)st->a->limit < o.top)
		o.top = (size_t)st->a->limit;
	v = scan_charts(st, &o, &n);
	rc = report_svg_dir(doc, st->a->svg_dir, v, n, err);
	if (rc)
		msg_error("%s", err);
	scan_charts_free(v, n);
	sbuf_release(&src);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}
