/*
 * cmd_scan_book.c - the scan workbook (`scan --format xlsx -o fleet.xlsx`),
 * the one finance opens: the sheets Summary (the summary, the price
 * snapshots and the totals by currency, category, region and tag, with a
 * chart of the savings by category), Findings (one row per finding),
 * Unchanged (the volumes without a finding, by configuration) and Prices
 * (the prices in force for every region of the inventory, one editable
 * price_per_unit cell each).
 *
 * Every cost is a live formula: a finding's current and proposed monthly
 * cost over its own type, size, IOPS and throughput cells and the Prices
 * sheet (price_sheet_cost, the way model_cost prices), its savings and
 * extra cost over those two; every total of Summary over Findings and
 * Unchanged.  Edit a price, or a proposed size, and everything follows.
 * Each formula carries ebsize's own figure as its cached value.  What the
 * workbook does not redo is the judgement: which finding a volume gets,
 * and --min-savings, are ebsize's.
 *
 * The documents are cmd_scan_report.c's; this file adds what only a
 * workbook has (formulas, sheets, the Unchanged and Prices lists).
 */
#include "cmd_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/msg.h"
#include "ebsize/price_sheet.h"
#include "ebsize/util.h"

void scan_book_findings(struct out_table *t)
{
	/* over the row's own configuration cells and the Prices sheet */
	char *cur = price_sheet_cost_volume(
	    "{region}", "{current.type}", "{current.size_gib}",
	    "{current.iops}", "{current.throughput_mibps}");
	char *prop = price_sheet_cost_volume(
	    "{region}", "{proposed.type}", "{proposed.size_gib}",
	    "{proposed.iops}", "{proposed.throughput_mibps}");

	out_sheet(t, "Findings");
	out_formula(t, "current.monthly_usd", cur);
	/* unattached and excluded volumes have no proposed volume: blank
	 * cells, which no price matches, cost 0 (as in JSON) */
	out_formula(t, "proposed.monthly_usd", prop);
	/* an excluded volume is never changed, nor is a billed volume
	 * absent from describe-volumes (it has no proposal); a saving is
	 * never negative (a burst-risk fix that costs more has its extra
	 * cost instead) */
	out_formula(
	    t, "savings.monthly_usd",
	    "IF(OR({category}=\"excluded\",{category}=\"not_in_inventory\"),0,"
	    "MAX(0,{current.monthly_usd}-{proposed.monthly_usd}))");
	out_formula(t, "savings.annual_usd", "12*{savings.monthly_usd}");
	out_formula(t, "extra_cost.monthly_usd",
		    "IF({category}=\"gp2_burst_risk\","
		    "MAX(0,{proposed.monthly_usd}-{current.monthly_usd}),0)");
	free(cur);
	free(prop);
}

/*
 * The summary's figures over Findings and Unchanged, in USD (the other
 * currencies are in the totals by currency below it).
 */
void scan_book_summary(struct out_table *t)
{
#define F_USD(col) "SUMIFS({findings!" col "},{findings!currency},\"USD\")"
	out_sheet(t, "Summary");
	out_formula(
	    t, "findings",
	    "COUNTA({findings!volume_id})-COUNTIF({findings!category},\"excluded\")");
	out_formula(t, "excluded", "COUNTIF({findings!category},\"excluded\")");
	out_formula(t, "volumes_without_finding", "SUM({unchanged!volumes})");
	out_formula(t, "volumes_scanned",
		    "{findings}+{excluded}+{volumes_without_finding}");
	out_formula(
	    t, "current_monthly_usd",
	    F_USD(
		"current.monthly_usd") "+SUMIFS({unchanged!monthly_usd},{unchanged!currency},\"USD\")");
	out_formula(t, "monthly_savings_usd", F_USD("savings.monthly_usd"));
	out_formula(t, "annual_savings_usd", "12*{monthly_savings_usd}");
	out_formula(t, "extra_cost_monthly_usd",
		    F_USD("extra_cost.monthly_usd"));
	out_formula(
	    t, "proposed_monthly_usd",
	    "{current_monthly_usd}-{monthly_savings_usd}+{extra_cost_monthly_usd}");
	/* a percentage is a fraction in a workbook */
	out_formula(
	    t, "savings_pct",
	    "IF({current_monthly_usd}>0,{monthly_savings_usd}/{current_monthly_usd},0)");
#undef F_USD
}

void scan_book_currency(struct out_table *t)
{
#define F_CUR(col) "SUMIFS({findings!" col "},{findings!currency},{currency})"
	out_sheet(t, "Summary");
	out_formula(t, "volumes", "COUNTIF({findings!currency},{currency})");
	out_formula(t, "current_monthly", F_CUR("current.monthly_usd"));
	out_formula(t, "monthly_savings", F_CUR("savings.monthly_usd"));
	out_formula(t, "annual_savings", "12*{monthly_savings}");
	out_formula(
	    t, "volumes_scanned",
	    "{volumes}+SUMIFS({unchanged!volumes},{unchanged!currency},{currency})");
	out_formula(
	    t, "current_monthly_usd",
	    "{current_monthly}+SUMIFS({unchanged!monthly_usd},{unchanged!currency},{currency})");
	out_formula(t, "extra_cost_monthly_usd",
		    F_CUR("extra_cost.monthly_usd"));
	out_formula(
	    t, "proposed_monthly_usd",
	    "{current_monthly_usd}-{monthly_savings}+{extra_cost_monthly_usd}");
	out_formula(
	    t, "savings_pct",
	    "IF({current_monthly_usd}>0,{monthly_savings}/{current_monthly_usd},0)");
#undef F_CUR
}

void scan_book_totals(struct out_table *t, enum scan_by by)
{
	const char *key = by == SCAN_BY_CATEGORY ? "category"
			  : by == SCAN_BY_REGION ? "region"
						 : "tag_value";
	char *match, *f;

	out_sheet(t, "Summary");
	if (by == SCAN_BY_TAG) {
		/*
		 * Tag values are anything: compared exactly (EXACT, case and
		 * all), never as a SUMIFS criterion, where "<5", "a*" or
		 * "=x" would be operators and wildcards.  "(untagged)"
		 * gathers the findings without the tag (blank cells).
		 */
		match = xstrdup(
		    "((EXACT({findings!tag},{tag_value})"
		    "+({tag_value}=\"(untagged)\")*({findings!tag}=\"\"))>0)"
		    "*({findings!currency}={currency})");
		f = xstrfmt("SUMPRODUCT(%s)", match);
		out_formula(t, "volumes", f);
		free(f);
		f = xstrfmt("SUMPRODUCT(%s*{findings!current.monthly_usd})",
			    match);
		out_formula(t, "current_monthly_usd", f);
		free(f);
		f = xstrfmt("SUMPRODUCT(%s*{findings!savings.monthly_usd})",
			    match);
		out_formula(t, "monthly_savings_usd", f);
		free(f);
		f = xstrfmt("{current_monthly_usd}-{monthly_savings_usd}"
			    "+SUMPRODUCT(%s*{findings!extra_cost.monthly_usd})",
			    match);
		out_formula(t, "proposed_monthly_usd", f);
		free(f);
		free(match);
	} else {
		/* categories and regions are [a-z0-9_-]: safe criteria */
		match =
		    xstrfmt("{findings!%s},{%s},{findings!currency},{currency}",
			    key, key);
		f = xstrfmt("COUNTIFS(%s)", match);
		out_formula(t, "volumes", f);
		free(f);
		f = xstrfmt("SUMIFS({findings!current.monthly_usd},%s)", match);
		out_formula(t, "current_monthly_usd", f);
		free(f);
		f = xstrfmt("SUMIFS({findings!savings.monthly_usd},%s)", match);
		out_formula(t, "monthly_savings_usd", f);
		free(f);
		f = xstrfmt("{current_monthly_usd}-{monthly_savings_usd}"
			    "+SUMIFS({findings!extra_cost.monthly_usd},%s)",
			    match);
		out_formula(t, "proposed_monthly_usd", f);
		free(f);
		free(match);
	}
	out_formula(t, "annual_savings_usd", "12*{monthly_savings_usd}");
	if (by == SCAN_BY_CATEGORY) {
		struct out_chart *c = out_chart(
		    t, OUT_CHART_COLUMN, "Savings by category", "category");

		out_chart_series(c, "monthly_savings_usd");
		out_chart_axes(c, "Finding", "Savings per month");
	}
}

/* The volumes without a finding, by configuration, priced live. */
static void unchanged(struct out_doc *doc, const struct scan_fleet *fl)
{
	struct out_table *t = out_list(
	    doc, "unchanged", "Volumes without a finding, by configuration");
	char *each = price_sheet_cost_volume("{region}", "{type}", "{size_gib}",
					     "{iops}", "{throughput_mibps}");

	out_xlsx_only(t);
	out_sheet(t, "Unchanged");
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "currency", "Cur", OUT_TEXT);
	out_col(t, "type", "Type", OUT_TEXT);
	out_col(t, "size_gib", "GiB", OUT_INT);
	out_col(t, "iops", "IOPS", OUT_INT);
	out_col(t, "throughput_mibps", "MiB/s", OUT_INT);
	out_col(t, "volumes", "Volumes", OUT_INT);
	out_col(t, "monthly_usd_each", "Each/month", OUT_USD);
	out_col(t, "monthly_usd", "All/month", OUT_USD);
	for (size_t i = 0; i < fl->ngroups; i++) {
		const struct scan_group *g = &fl->groups[i];

		out_row(t);
		out_str(t, g->region);
		out_str(t, g->currency);
		out_str(t, model_type_name(g->cfg.type));
		out_int(t, g->cfg.size_gib);
		if (g->cfg.iops)
			out_int(t, g->cfg.iops);
		else
			out_null(t);
		if (g->cfg.throughput_mibps)
			out_int(t, g->cfg.throughput_mibps);
		else
			out_null(t);
		out_int(t, (long long)g->volumes);
		out_money(t, g->usd_each, g->currency);
		out_money(t, scan_usd(g->usd_each * (double)g->volumes),
			  g->currency);
	}
	out_formula(t, "monthly_usd_each", each);
	out_formula(t, "monthly_usd", "{volumes}*{monthly_usd_each}");
	free(each);
}

/* The price sets that priced a volume, in region order. */
static const struct price_set **priced_sets(const struct scan_state *st,
					    size_t *n)
{
	const struct price_set **ps =
	    xcalloc(st->nrp ? st->nrp : 1, sizeof(*ps));

	*n = 0;
	for (size_t i = 0; i < st->nrp; i++)
		if (st->rp[i]->ok)
			ps[(*n)++] = &st->rp[i]->ps;
	for (size_t i = 1; i < *n; i++) /* a handful: insertion sort */
		for (size_t k = i;
		     k && strcmp(ps[k - 1]->region, ps[k]->region) > 0; k--) {
			const struct price_set *x = ps[k];

			ps[k] = ps[k - 1];
			ps[k - 1] = x;
		}
	return ps;
}

/* The snapshot and vintage of each region's prices (Summary, About). */
static void snapshots(struct out_doc *doc, const struct price_set *const *ps,
		      size_t n)
{
	struct out_table *t = out_list(doc, "price_snapshots", "Prices used");

	out_xlsx_only(t);
	out_sheet(t, "Summary");
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "currency", "Cur", OUT_TEXT);
	out_col(t, "snapshot", "Snapshot", OUT_INT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "source", "Source", OUT_TEXT);
	for (size_t i = 0; i < n; i++) {
		out_row(t);
		out_str(t, ps[i]->region);
		out_str(t, ps[i]->currency);
		out_int(t, ps[i]->snapshot_id);
		out_str(t, ps[i]->as_of);
		out_str(t, ps[i]->source);
		out_about(doc, "prices", "%s: snapshot %lld (%s), as of %s",
			  ps[i]->region, ps[i]->snapshot_id, ps[i]->source,
			  ps[i]->as_of);
	}
}

int scan_book_sheets(struct out_doc *doc, struct scan_state *st)
{
	size_t n;
	const struct price_set **ps = priced_sets(st, &n);
	int rc;

	unchanged(doc, &st->fleet);
	snapshots(doc, ps, n);
	rc = price_sheet_add_sets(doc, st->ctx->db, ps, n, "Prices", st->err);
	free(ps);
	if (rc) {
		msg_error("%s", st->err);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
