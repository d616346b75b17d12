/*
 * price_sheet.h - the price list of a workbook and live cost formulas over
 * it, for commands whose workbook lets an analyst edit a price and see
 * every cost follow (cost, compare, scan).
 *
 * price_sheet_add puts the prices in force for some regions into a
 * document as the list "price_list", shown only in workbooks, with the
 * columns of `ebsize pricing show --format csv`: one editable
 * price_per_unit cell per price.  price_sheet_cost writes the formula of
 * one cost dimension over that list, for out_formula.
 */
#ifndef EBSIZE_PRICE_SHEET_H
#define EBSIZE_PRICE_SHEET_H

#include <stddef.h>

#include "ebsize/out.h"

struct db;
struct price_row;
struct price_set;

/* The section name formulas refer to ("{price_list!price_per_unit}"). */
#define PRICE_SHEET "price_list"

/* Declare the columns of a price list (pricing show's) on t. */
void price_sheet_cols(struct out_table *t);
/* Add p as a row of a list declared by price_sheet_cols; returns 0
 * (a db_each_price callback; arg is the struct out_table). */
int price_sheet_row(const struct price_row *p, void *arg);

/*
 * Add the xlsx-only list PRICE_SHEET to doc with the prices in force for
 * each of regions[n] (USD prices only), and the defined names
 * price_sheet_cost uses for the list's columns: pr_region, pr_type,
 * pr_dim, pr_price, pr_from, pr_to.  EBS_OK, or an error with a message in
 * err.
 */
int price_sheet_add(struct out_doc *doc, struct db *db,
		    const char *const *regions, size_t n, char *err);

/*
 * The same for the regions of several price sets (db_load_prices's, in
 * force now), each in its set's currency, on the workbook sheet `sheet`
 * (NULL: "price_list").
 */
int price_sheet_add_sets(struct out_doc *doc, struct db *db,
			 const struct price_set *const *ps, size_t n,
			 const char *sheet, char *err);

/* The About lines of a workbook for the prices of ps (snapshot, as of). */
void price_sheet_about(struct out_doc *doc, const struct price_set *ps);

/*
 * A formula template for the monthly cost of `units` of one price
 * dimension ("storage", "iops", "throughput" or "io") of one volume, the
 * way model_cost prices it: for every price row of PRICE_SHEET with
 * that region, type and dimension, price_per_unit times the units inside
 * [begin_range, end_range) (tiers and gp3's free IOPS included).  Needs
 * price_sheet_add in the same document.  region,
 * type and units are template expressions: a reference ("{region}",
 * "{result!size_gib}") or text quoted by out_formula_text.  The result
 * is one term (a function call or parenthesised), safe to combine with
 * other operators.  Heap string; caller frees.
 */
char *price_sheet_cost(const char *region, const char *type,
		       const char *dimension, const char *units);

/*
 * The monthly cost of one volume (storage, IOPS and throughput; not the
 * I/O requests of standard volumes) as one shorter formula, for sheets
 * with a cost per row of 100,000 rows: every price row bills the units of
 * its own dimension -- size, iops or tput, chosen by the defined names
 * pr_st, pr_io, pr_tp that price_sheet_add* define -- with the same tiers
 * as price_sheet_cost.  A blank units cell counts none.  Heap string.
 */
char *price_sheet_cost_volume(const char *region, const char *type,
			      const char *size, const char *iops,
			      const char *tput);

#endif
