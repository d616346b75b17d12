/*
 * cli_prices.c - loading the prices a command needs, and saying clearly
 * when there are none: which region, what is missing, and the two ways to
 * get it (a live fetch, or saved AWS CLI output imported).  Shared by
 * cost, compare, cheapest and scan so that every command says it alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/err.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/strmap.h"
#include "ebsize/util.h"

void cli_price_hints(const char *region, const char *type)
{
	msg_hint(
	    "get them with 'ebsize pricing fetch --region %s', or with"
	    " 'aws pricing get-products --region us-east-1 --service-code AmazonEC2"
	    " --filters Type=TERM_MATCH,Field=regionCode,Value=%s"
	    " Type=TERM_MATCH,Field=volumeApiName,Value=%s | ebsize pricing import -'"
	    "%s",
	    region, region, type ? type : "gp3",
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
		msg_hint(
		    "'--as-of %s' or later uses the earliest prices ebsize holds",
		    first);
		return EXIT_RUNTIME;
	}
	if (!db_region_currency(ctx->db, region, cur, sizeof(cur)))
		msg_error(
		    "%s: ebsize does not know region '%s' (a typing error, or a region newer than its data)",
		    err, region);
	else if (as_of)
		msg_error("%s: no price snapshot that old holds it", err);
	else
		msg_error(
		    "%s: neither the built-in price data nor any fetch or import holds it",
		    err);
	cli_price_hints(region, type);
	msg_hint("'ebsize pricing regions' shows which regions have prices");
	return EXIT_RUNTIME;
}

int cli_type_prices_missing(const struct price_set *ps, int type)
{
	const char *name = model_type_name((enum vol_type)type);

	msg_error(
	    "no %s prices for region '%s' in the prices in force (snapshot %lld, %s, as of %s)",
	    name, ps->region, ps->snapshot_id, ps->source, ps->as_of);
	cli_price_hints(ps->region, name);
	return EXIT_RUNTIME;
}

int cli_type_priced(const struct price_set *ps, int type)
{
	return model_type_priced(ps, (enum vol_type)type);
}

/* ------------------------------------------------------------ memo */

struct limits_memo {
	int rc;
	struct volume_limits lim;
	char err[EBS_ERRLEN];
};

struct cli_memo {
	struct strmap prices; /* "REGION\nAS_OF" -> struct price_set */
	struct strmap limits; /* "TYPE\nAS_OF" -> struct limits_memo */
};

struct cli_memo *cli_memo_new(void)
{
	return xcalloc(1, sizeof(struct cli_memo));
}

static void free_val(const char *key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

void cli_memo_free(struct cli_memo *m)
{
	if (!m)
		return;
	strmap_each(&m->prices, free_val, NULL);
	strmap_each(&m->limits, free_val, NULL);
	strmap_release(&m->prices);
	strmap_release(&m->limits);
	free(m);
}

int cli_memo_prices(struct cli_ctx *ctx, struct cli_memo *m, const char *region,
		    const char *as_of, const char *type,
		    const struct price_set **ps)
{
	char key[96];
	struct price_set *got;
	int rc;

	xsnprintf(key, sizeof(key), "%s\n%s", region, as_of ? as_of : "");
	if ((got = strmap_get(&m->prices, key))) {
		*ps = got;
		return EXIT_OK;
	}
	got = xmalloc(sizeof(*got));
	if ((rc = cli_load_prices(ctx, region, as_of, type, got))) {
		free(got);
		return rc;
	}
	strmap_put(&m->prices, key, got);
	*ps = got;
	return EXIT_OK;
}

int cli_memo_limits(struct cli_ctx *ctx, struct cli_memo *m, int type,
		    const char *as_of, const struct volume_limits **lim,
		    char *err)
{
	char key[48];
	struct limits_memo *got;

	xsnprintf(key, sizeof(key), "%d\n%s", type, as_of ? as_of : "");
	if (!(got = strmap_get(&m->limits, key))) {
		got = xcalloc(1, sizeof(*got));
		got->rc = db_load_limits(ctx->db, (enum vol_type)type, as_of,
					 &got->lim, got->err);
		strmap_put(&m->limits, key, got);
	}
	*lim = &got->lim;
	if (got->rc)
		xsnprintf(err, EBS_ERRLEN, "%s", got->err);
	return got->rc;
}
