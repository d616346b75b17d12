/*
 * cli_prices.c - loading the prices a command needs, and saying clearly
 * when there are none: which region, what is missing, and the two ways to
 * get it (a live fetch, or saved AWS CLI output imported).  Shared by
 * cost, compare, cheapest and scan so that every command says it alike.
 */
#include <stdio.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/err.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

void cli_price_hints(const char *region, const char *type)
{
	msg_hint("get them with 'ebsize pricing fetch --region %s', or with"
		 " 'aws pricing get-products --region us-east-1 --service-code AmazonEC2"
		 " --filters Type=TERM_MATCH,Field=regionCode,Value=%s"
		 " Type=TERM_MATCH,Field=volumeApiName,Value=%s | ebsize pricing import -'"
		 "%s", region, region, type ? type : "gp3",
		 type ? "" : " (one volume type per call)");
}

/* Whether region has prices at any date (err then names the earliest). */
static int has_earliest(struct db *db, const char *region, char *first,
			size_t n)
{
	db_earliest_prices(db, region, first, n);
	return *first != '\0';
}

int cli_load_prices(struct cli_ctx *ctx, const char *region, const char *as_of,
		    const char *type, struct price_set *ps)
{
	char err[EBS_ERRLEN], cur[8], first[32];
	int rc = db_load_prices(ctx->db, region, as_of, ps, err);

	if (rc == EBS_OK)
		return EXIT_OK;
	if (rc != EBS_ERR_NOT_FOUND) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (as_of && has_earliest(ctx->db, region, first, sizeof(first))) {
		/* err names the earliest date; a fetch would not help */
		msg_error("%s", err);
		msg_hint("'--as-of %s' or later uses the earliest prices ebsize holds",
			 first);
		return EXIT_RUNTIME;
	}
	if (!db_region_currency(ctx->db, region, cur, sizeof(cur)))
		msg_error("%s: ebsize does not know region '%s' (a typing error, or a region newer than its data)",
			  err, region);
	else if (as_of)
		msg_error("%s: no price snapshot that old holds it", err);
	else
		msg_error("%s: neither the built-in price data nor any fetch or import holds it",
			  err);
	cli_price_hints(region, type);
	msg_hint("'ebsize pricing regions' shows which regions have prices");
	return EXIT_RUNTIME;
}

int cli_type_prices_missing(const struct price_set *ps, int type)
{
	const char *name = model_type_name((enum vol_type)type);

	msg_error("no %s prices for region '%s' in the prices in force (snapshot %lld, %s, as of %s)",
		  name, ps->region, ps->snapshot_id, ps->source, ps->as_of);
	cli_price_hints(ps->region, name);
	return EXIT_RUNTIME;
}

int cli_type_priced(const struct price_set *ps, int type)
{
	return model_type_priced(ps, (enum vol_type)type);
}
