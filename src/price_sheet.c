/*
 * price_sheet.c - a workbook's price list and cost formulas over it (see
 * price_sheet.h).  The formula mirrors model_cost and model_tiered_cost:
 * a unit count U is billed price x (min(U, end) - begin) on every row
 * whose range it reaches; an empty end_range is unbounded.  Written with
 * SUMPRODUCT over the whole list (SUMIFS for storage and I/O, which have
 * one price from 0) so that one template serves every type and region, and
 * an edited price_per_unit cell changes every cost.  The list's columns
 * have short defined names (pr_region, pr_type, pr_dim, pr_price, pr_from,
 * pr_to): the formula is repeated in every cost cell of a large workbook,
 * and its length is most of the file.  A region's prices are listed in
 * the currency its costs are in: USD for cost and compare,
 * the price set's own (CNY in China) for scan.
 */
#include "ebsize/price_sheet.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/db.h"
#include "ebsize/model.h"
#include "ebsize/util.h"

void price_sheet_cols(struct out_table *t)
{
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "volume_type", "Type", OUT_TEXT);
	out_col(t, "dimension", "Dimension", OUT_TEXT);
	out_col(t, "price_per_unit", "Price", OUT_EXACT);
	out_col(t, "currency", "Cur", OUT_TEXT);
	out_col(t, "unit", "Unit", OUT_TEXT);
	out_col(t, "begin_range", "From", OUT_INT);
	out_col(t, "end_range", "To", OUT_INT);
	out_col(t, "usagetype", "Usage type", OUT_TEXT);
	out_col(t, "snapshot", "Snap", OUT_INT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "source", "Source", OUT_TEXT);
}

int price_sheet_row(const struct price_row *p, void *arg)
{
	struct out_table *t = arg;

	out_row(t);
	out_str(t, p->region);
	out_str(t, p->volume_type);
	out_str(t, p->dimension);
	out_num(t, p->price_per_unit);
	out_str(t, p->currency);
	out_str(t, p->unit);
	out_num(t, p->begin_range);
	if (p->end_range >= 0)
		out_num(t, p->end_range);
	else
		out_null(t);
	out_str(t, p->usagetype);
	out_int(t, p->snapshot_id);
	out_str(t, p->as_of);
	out_str(t, p->source);
	return 0;
}

/* The rows of one currency into a price list. */
struct in_currency {
	struct out_table *t;
	const char *currency;
};

static int currency_row(const struct price_row *p, void *arg)
{
	const struct in_currency *c = arg;

	return strcmp(p->currency, c->currency) ? 0 : price_sheet_row(p, c->t);
}

/* The list PRICE_SHEET and the defined names over its columns. */
static struct out_table *sheet_new(struct out_doc *doc)
{
	static const char *const names[][2] = {
		{ "pr_region", "region" },    { "pr_type", "volume_type" },
		{ "pr_dim", "dimension" },    { "pr_price", "price_per_unit" },
		{ "pr_from", "begin_range" }, { "pr_to", "end_range" },
	};
	/* per price row: which units it bills (price_sheet_cost_volume) */
	static const char *const masks[][2] = {
		{ "pr_st", "{" PRICE_SHEET "!dimension}=\"storage\"" },
		{ "pr_io", "{" PRICE_SHEET "!dimension}=\"iops\"" },
		{ "pr_tp", "{" PRICE_SHEET "!dimension}=\"throughput\"" },
		{ "pr_end", "{" PRICE_SHEET "!end_range}<>\"\"" },
	};
	struct out_table *t = out_list(doc, PRICE_SHEET, "Prices");

	out_xlsx_only(t);
	price_sheet_cols(t);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *ref = xstrfmt("{" PRICE_SHEET "!%s}", names[i][1]);

		out_name(doc, names[i][0], ref);
		free(ref);
	}
	for (size_t i = 0; i < ARRAY_SIZE(masks); i++)
		out_name(doc, masks[i][0], masks[i][1]);
	return t;
}

int price_sheet_add(struct out_doc *doc, struct db *db,
		    const char *const *regions, size_t n, char *err)
{
	/* costs are USD here (as db_load_prices for these regions) */
	struct in_currency c = { sheet_new(doc), "USD" };
	int rc;

	for (size_t i = 0; i < n; i++)
		if ((rc = db_each_price(db, regions[i], NULL, NULL,
					currency_row, &c, err)))
			return rc;
	return EBS_OK;
}

int price_sheet_add_sets(struct out_doc *doc, struct db *db,
			 const struct price_set *const *ps, size_t n,
			 const char *sheet, char *err)
{
	struct in_currency c = { sheet_new(doc), NULL };
	int rc;

	if (sheet)
		out_sheet(c.t, sheet);
	for (size_t i = 0; i < n; i++) {
		c.currency = ps[i]->currency;
		if ((rc = db_each_price(db, ps[i]->region, NULL, NULL,
					currency_row, &c, err)))
			return rc;
	}
	return EBS_OK;
}

void price_sheet_about(struct out_doc *doc, const struct price_set *ps)
{
	out_about(doc, "prices_region", "%s", ps->region);
	out_about(doc, "price_snapshot", "%lld", ps->snapshot_id);
	out_about(doc, "prices_as_of", "%s", ps->as_of);
	out_about(doc, "prices_source", "%s", ps->source);
}

char *price_sheet_cost(const char *region, const char *type,
		       const char *dimension, const char *units)
{
	char *dim = out_formula_text(dimension), *s;

	/* storage and I/O have one price from 0 (model_cost): U x price */
	if (!strcmp(dimension, "storage") || !strcmp(dimension, "io"))
		s = xstrfmt(
		    "(SUMIFS(pr_price,pr_region,%s,pr_type,%s,pr_dim,%s)*(%s))",
		    region, type, dim, units);
	else /* (U > from) x (U - from - [to set] x (U > to) x (U - to)) */
		s = xstrfmt(
		    "SUMPRODUCT((pr_region=%s)*(pr_type=%s)*(pr_dim=%s)*pr_price"
		    "*((%s)>pr_from)*((%s)-pr_from-(pr_to<>\"\")*((%s)>pr_to)*((%s)-pr_to)))",
		    region, type, dim, units, units, units, units);
	free(dim);
	return s;
}

char *price_sheet_cost_volume(const char *region, const char *type,
			      const char *size, const char *iops,
			      const char *tput)
{
	char *u = xstrfmt("(pr_st*%s+pr_io*%s+pr_tp*%s)", size, iops, tput);
	char *s =
	    xstrfmt("SUMPRODUCT((pr_region=%s)*(pr_type=%s)*pr_price"
		    "*(%s>pr_from)*(%s-pr_from-pr_end*(%s>pr_to)*(%s-pr_to)))",
		    region, type, u, u, u, u);

	free(u);
	return s;
}
