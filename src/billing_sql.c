/*
 * billing_sql.c - the billing analysis as one SQL query, for DuckDB or
 * Athena, over a FOCUS, CUR 2.0 or legacy CUR table.
 *
 * The query is written from the same sources as the C code, never by
 * hand: column names, usage types, units, charge descriptions and region
 * prefixes from the tables in billing_rules.c; the gp2 / io1 / gp3 rules
 * from the constants of model.h and the struct volume_limits in force;
 * the prices from the struct price_set of each region, as a VALUES table.
 * tests/unit/test_billing.c runs it in real DuckDB and checks it against
 * billing_analyze_volume to the cent.
 *
 * What it leaves out (said in its header comment): the describe-volumes
 * join, tags, the currency-mix check per file, and for FOCUS the
 * x_UsageType column (read through the charge description instead).
 */
#include "billing_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

#define SQL_CAP ((size_t)64 << 20)

struct gen {
	struct sbuf sb;
	const struct bill_sql_opts *o;
	const struct volume_limits *lim;
};

static void add(struct gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvstrfmt(fmt, ap);
	va_end(ap);
	sbuf_addstr(&g->sb, s); /* over SQL_CAP: caught at the end */
	free(s);
}

/* A double as the shortest text that reads back to the same value. */
static void num(char *buf, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		xsnprintf(buf, n, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		xsnprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

/* A string literal: quotes doubled; pre and post (a LIKE's '%') kept
 * outside the value. */
static void lit_around(struct gen *g, const char *pre, const char *s,
		       const char *post)
{
	sbuf_addstr(&g->sb, "'");
	sbuf_addstr(&g->sb, pre);
	for (const char *q; (q = strchr(s, '\'')); s = q + 1) {
		sbuf_add(&g->sb, s, (size_t)(q - s));
		sbuf_addstr(&g->sb, "''");
	}
	sbuf_addstr(&g->sb, s);
	sbuf_addstr(&g->sb, post);
	sbuf_addstr(&g->sb, "'");
}

static void lit(struct gen *g, const char *s)
{
	lit_around(g, "", s, "");
}

/* Athena's name of a legacy CUR column: lineItem/UsageType ->
 * line_item_usage_type (what the CUR Athena integration creates). */
static void athena_cur_name(const char *s, char *out, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; s[i] && o + 3 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '/' || c == ':') {
			out[o++] = '_';
			continue;
		}
		if (isupper(c) && i > 0 && s[i - 1] != '/' &&
		    (islower((unsigned char)s[i - 1]) ||
		     isdigit((unsigned char)s[i - 1])))
			out[o++] = '_';
		out[o++] = (char)tolower(c);
	}
	out[o] = '\0';
}

/* The quoted column c of the schema, as the dialect names it. */
static const char *col(const struct gen *g, enum bill_col c, char *buf,
		       size_t n)
{
	const char *name = billing_column(g->o->schema, c);
	char conv[128];

	if (!name)
		return NULL;
	if (g->o->dialect == BILL_SQL_ATHENA && g->o->schema == BILL_FMT_CUR) {
		athena_cur_name(name, conv, sizeof(conv));
		name = conv;
	}
	xsnprintf(buf, n, "\"%s\"", name);
	return buf;
}

/* A timestamp column read whatever its type (text or timestamp). */
static void ts(struct gen *g, enum bill_col c, const char *as)
{
	char b[160];

	col(g, c, b, sizeof(b));
	if (g->o->dialect == BILL_SQL_DUCKDB)
		add(g, "    TRY_CAST(%s AS TIMESTAMP) AS %s,\n", b, as);
	else /* Trino: ISO 8601 text with 'T' and 'Z' needs its own parser */
		add(g,
		    "    COALESCE(TRY_CAST(CAST(%s AS VARCHAR) AS TIMESTAMP),\n"
		    "             CAST(TRY(from_iso8601_timestamp(CAST(%s AS VARCHAR))) AS TIMESTAMP)) AS %s,\n",
		    b, b, as);
}

/* ------------------------------------------------------------ parts */

static void header(struct gen *g, size_t nprices)
{
	const struct bill_sql_opts *o = g->o;
	char unbl[128], note[400] = "";

	if (o->schema == BILL_FMT_FOCUS)
		xsnprintf(
		    note, sizeof(note),
		    "  FOCUS: the type comes from ChargeDescription (x_UsageType\n"
		    "-- is optional in FOCUS and not read).");
	else if (o->schema == BILL_FMT_CUR)
		xsnprintf(
		    note, sizeof(note),
		    "  Legacy CUR: billed = %s (its net\n"
		    "-- unblended column exists only in reports with discounts: use it\n"
		    "-- instead when yours has it).",
		    col(g, BC_BILLED2, unbl, sizeof(unbl)));

	add(g, "-- ebsize %s: EBS volumes from a %s billing export, for %s.\n",
	    o->version ? o->version : "",
	    o->schema == BILL_FMT_FOCUS	 ? "FOCUS"
	    : o->schema == BILL_FMT_CUR2 ? "CUR 2.0"
					 : "legacy CUR",
	    o->dialect == BILL_SQL_DUCKDB ? "DuckDB" : "Athena");
	add(g,
	    "--\n"
	    "-- One row per volume: type, size, IOPS and MiB/s rebuilt from the billing\n"
	    "-- rates (the largest per-hour rate: GB-Mo x hours in the month / hours the\n"
	    "-- row covers), the hours billed, the cost as billed and as listed, the cost\n"
	    "-- at the prices in force, and what `ebsize scan` proposes from billing\n"
	    "-- alone: gp2 -> gp3 at the gp2's IOPS and MiB/s (never slower), gp2 sized\n"
	    "-- for IOPS (check used space), io1 -> io2 / gp3.  Savings per month at the\n"
	    "-- prices in force, over the period prorated by the months billed, and at\n"
	    "-- the billed/list ratio of the volume's own rows (discounts visible).\n"
	    "--\n"
	    "-- Generated by ebsize from the rules and tables its C code uses; do not\n"
	    "-- edit by hand (regenerate with `ebsize scan --emit-sql`).  Not done\n"
	    "-- here: the join with describe-volumes, tags, and refusing a file that\n"
	    "-- mixes currencies (amounts are never added across currencies: group by\n"
	    "-- currency).%s\n"
	    "-- Prices: %zu region(s) embedded below.  Money in the billing currency.\n",
	    note, nprices);
	if (o->dialect == BILL_SQL_ATHENA)
		add(g,
		    "-- Athena (Trino): timestamps may be typed or ISO 8601 text.\n");
	else
		add(g,
		    "-- DuckDB: run after SET TimeZone = 'UTC' (a timestamp with a zone is\n"
		    "-- read in the session's zone); columns may be text (CSV) or typed.\n");
	add(g, "WITH\n");
}

/* One row of the prices table: dimension index, tier, price. */
struct price_row {
	int d;
	double begin, end, price;
};

static void prices_cte(struct gen *g, const struct bill_sql_prices *p,
		       size_t np)
{
	static const char *const dims[] = { "storage", "iops", "throughput",
					    "io" };
	char a[40], b[40], c[40];
	int first = 1;

	add(g,
	    "-- Prices in force: one row per region, type, dimension and tier\n"
	    "-- (storage per GiB-month, IOPS per IOPS-month, throughput per\n"
	    "-- MiB/s-month above begin_range, io per million requests).\n"
	    "prices AS (\n"
	    "  SELECT region, currency, volume_type, dimension,\n"
	    "         CAST(begin_range AS DOUBLE) AS begin_range,\n"
	    "         CAST(end_range AS DOUBLE) AS end_range,\n"
	    "         CAST(price AS DOUBLE) AS price\n"
	    "  FROM (VALUES\n");
	for (size_t i = 0; i < np; i++) {
		const struct price_set *ps = p[i].ps;

		for (int t = 0; t < VT_COUNT; t++) {
			const struct type_prices *tp = &ps->type[t];
			struct price_row rows[2 * MODEL_MAX_TIERS + 2];
			size_t nr = 0;

			if (tp->have_storage)
				rows[nr++] = (struct price_row){
					0, 0, -1, tp->storage_per_gib_month
				};
			for (size_t k = 0;
			     k < tp->n_iops && k < MODEL_MAX_TIERS; k++)
				rows[nr++] =
				    (struct price_row){ 1, tp->iops[k].begin,
							tp->iops[k].end,
							tp->iops[k].price };
			for (size_t k = 0;
			     k < tp->n_throughput && k < MODEL_MAX_TIERS; k++)
				rows[nr++] = (struct price_row){
					2, tp->throughput[k].begin,
					tp->throughput[k].end,
					tp->throughput[k].price
				};
			if (tp->have_io)
				rows[nr++] =
				    (struct price_row){ 3, 0, -1,
							tp->io_per_million };
			for (size_t k = 0; k < nr; k++) {
				num(a, sizeof(a), rows[k].begin);
				num(b, sizeof(b), rows[k].end);
				num(c, sizeof(c), rows[k].price);
				add(g, "%s    (", first ? "" : ",\n");
				lit(g, ps->region);
				add(g, ", ");
				lit(g, p[i].currency);
				add(g, ", '%s', '%s', %s, %s, %s)",
				    model_type_name((enum vol_type)t),
				    dims[rows[k].d], a,
				    rows[k].end < 0 ? "NULL" : b, c);
				first = 0;
			}
		}
	}
	if (first) /* no prices at all: an empty table of the right shape */
		add(g, "    (NULL, NULL, NULL, NULL, 0, NULL, 0)");
	add(g,
	    "\n  ) AS t (region, currency, volume_type, dimension, begin_range, end_range, price)%s\n),\n",
	    first ? "\n  WHERE region IS NOT NULL" : "");
}

/* The columns every schema maps to, from the service's usage rows. */
static void src_cte(struct gen *g)
{
	const struct bill_sql_opts *o = g->o;
	char b[160], c2[160];
	const char *const *kinds = o->schema == BILL_FMT_FOCUS
				       ? billing_focus_usage_kinds
				       : billing_usage_kinds;

	add(g,
	    "-- Usage rows of the service (not credits, fees, taxes), columns renamed.\n"
	    "src AS (\n"
	    "  SELECT\n");
	add(g, "    %s AS volume_id,\n", col(g, BC_ID, b, sizeof(b)));
	if (o->schema == BILL_FMT_FOCUS)
		add(g, "    CAST(NULL AS VARCHAR) AS usage_type,\n");
	else
		add(g, "    %s AS usage_type,\n",
		    col(g, BC_USAGE_TYPE, b, sizeof(b)));
	if (o->schema == BILL_FMT_CUR)
		add(g, "    lower(%s) AS volume_api_name,\n",
		    col(g, BC_VOLUME_API, b, sizeof(b)));
	else
		add(g, "    CAST(NULL AS VARCHAR) AS volume_api_name,\n");
	add(g, "    lower(%s) AS descr,\n", col(g, BC_DESC, b, sizeof(b)));
	add(g, "    %s AS unit,\n", col(g, BC_UNIT, b, sizeof(b)));
	add(g, "    TRY_CAST(%s AS DOUBLE) AS qty,\n",
	    col(g, BC_QTY, b, sizeof(b)));
	ts(g, BC_START, "t0");
	ts(g, BC_END, "t1");
	if (o->schema == BILL_FMT_CUR2)
		add(g,
		    "    COALESCE(TRY_CAST(%s AS DOUBLE), TRY_CAST(%s AS DOUBLE), 0) AS billed,\n",
		    col(g, BC_BILLED, b, sizeof(b)),
		    col(g, BC_BILLED2, c2, sizeof(c2)));
	else
		add(g, "    COALESCE(TRY_CAST(%s AS DOUBLE), 0) AS billed,\n",
		    col(g, o->schema == BILL_FMT_CUR ? BC_BILLED2 : BC_BILLED,
			b, sizeof(b)));
	add(g, "    COALESCE(TRY_CAST(%s AS DOUBLE), 0) AS list,\n",
	    col(g, BC_LIST, b, sizeof(b)));
	add(g, "    %s AS currency,\n", col(g, BC_CURRENCY, b, sizeof(b)));
	add(g, "    NULLIF(NULLIF(%s, ''), 'NULL') AS region_col,\n",
	    col(g, BC_REGION, b, sizeof(b)));
	add(g, "    %s AS usage_account,\n", col(g, BC_ACCOUNT, b, sizeof(b)));
	add(g, "    %s AS payer_account\n", col(g, BC_PAYER, b, sizeof(b)));
	add(g, "  FROM %s\n", o->table);
	add(g, "  WHERE %s = ", col(g, BC_SERVICE, b, sizeof(b)));
	lit(g, billing_service(o->schema));
	add(g, "\n    AND %s IN (", col(g, BC_CATEGORY, b, sizeof(b)));
	for (size_t i = 0; kinds[i]; i++) {
		add(g, "%s", i ? ", " : "");
		lit(g, kinds[i]);
	}
	add(g, ")\n),\n");
}

/* CASE over the usage-type table: one column of it (comp/type/tier). */
static void usage_case(struct gen *g, int what)
{
	add(g, "      CASE suffix");
	for (size_t i = 0; i < billing_nusage_rules; i++) {
		const struct bill_usage_rule *u = &billing_usage_rules[i];

		add(g, "\n        WHEN ");
		lit(g, u->suffix);
		if (what == 0)
			add(g, " THEN '%s'", billing_comp_name(u->comp));
		else if (what == 1)
			add(g, " THEN '%s'", model_type_name(u->type));
		else
			add(g, " THEN %d", u->tier);
	}
}

/* The stems whose type comes from volumeApiName (legacy CUR). */
static void stem_fallback(struct gen *g, int what)
{
	for (size_t i = 0; i < billing_nstems; i++) {
		add(g, "\n        WHEN suffix LIKE ");
		lit_around(g, "", billing_stems[i].prefix, "%");
		add(g, " AND volume_api_name IN (");
		for (int t = 0; t < VT_COUNT; t++)
			add(g, "%s'%s'", t ? ", " : "",
			    model_type_name((enum vol_type)t));
		if (what == 0)
			add(g, ") THEN '%s'",
			    billing_comp_name(billing_stems[i].comp));
		else if (what == 1)
			add(g, ") THEN volume_api_name");
		else
			add(g, ") THEN 0");
	}
}

/* CASE over the description table (FOCUS): type or tier. */
static void desc_case(struct gen *g, int what)
{
	add(g, "      CASE");
	for (size_t i = 0; i < billing_ndesc_rules; i++) {
		const struct bill_desc_rule *d = &billing_desc_rules[i];

		add(g, "\n        WHEN descr LIKE ");
		lit_around(g, "%", d->needle, "%");
		if (what == 1)
			add(g, " THEN '%s'",
			    d->snapshot ? "snapshot"
					: model_type_name(d->type));
		else
			add(g, " THEN %d", d->tier);
	}
	add(g, "\n      END");
}

static void units_case(struct gen *g, int factor)
{
	char f[40];

	add(g, "      CASE unit");
	for (size_t i = 0; i < billing_nunit_rules; i++) {
		const struct bill_unit_rule *u = &billing_unit_rules[i];

		num(f, sizeof(f), u->factor);
		add(g, "\n        WHEN ");
		lit(g, u->unit);
		if (factor)
			add(g, " THEN %s", f);
		else
			add(g, " THEN '%s'", billing_comp_name(u->comp));
	}
	add(g, "\n      END");
}

static void classify_cte(struct gen *g)
{
	int focus = g->o->schema == BILL_FMT_FOCUS;

	add(g,
	    "-- What each row is (usage types: ebs-facts.md T10; prefixes: T9).\n"
	    "parts AS (\n"
	    "  SELECT *,\n"
	    "    CASE WHEN strpos(usage_type, 'EBS:') > 0\n"
	    "      THEN substr(usage_type, strpos(usage_type, 'EBS:')) END AS suffix,\n"
	    "    CASE WHEN strpos(usage_type, 'EBS:') > 0\n"
	    "      THEN substr(usage_type, 1, strpos(usage_type, 'EBS:') - 1) END AS prefix_raw\n"
	    "  FROM src\n"
	    "),\n"
	    "classified AS (\n"
	    "  SELECT volume_id, qty, t0, t1, billed, list, currency,\n"
	    "    usage_account, payer_account,\n");
	if (focus) {
		add(g, "    region_col AS region,\n");
		desc_case(g, 1);
		add(g, " AS vtype,\n");
		desc_case(g, 2);
		add(g, " AS tier,\n");
		units_case(g, 0);
		add(g, " AS comp,\n");
	} else {
		add(g,
		    "    COALESCE(region_col, CASE CASE WHEN prefix_raw LIKE '%%-'\n"
		    "        THEN substr(prefix_raw, 1, length(prefix_raw) - 1) ELSE prefix_raw END");
		for (size_t i = 0; i < billing_nprefixes; i++) {
			add(g, "\n        WHEN ");
			lit(g, billing_prefixes[i].prefix);
			add(g, " THEN ");
			lit(g, billing_prefixes[i].region);
		}
		add(g, " END) AS region,\n");
		add(g,
		    "    CASE WHEN suffix LIKE '%s%%' THEN 'snapshot' ELSE\n",
		    BILL_SNAPSHOT_MARK);
		usage_case(g, 1);
		add(g, "\n        ELSE CASE");
		stem_fallback(g, 1);
		add(g, " END END END AS vtype,\n");
		usage_case(g, 2);
		add(g, "\n        ELSE CASE");
		stem_fallback(g, 2);
		add(g, " END END AS tier,\n");
		usage_case(g, 0);
		add(g, "\n        ELSE CASE");
		stem_fallback(g, 0);
		add(g, " END END AS comp,\n");
	}
	units_case(g, 0);
	add(g, " AS unit_comp,\n");
	units_case(g, 1);
	add(g, " AS factor\n  FROM parts\n),\n");
}

static void rows_cte(struct gen *g)
{
	add(g,
	    "-- Rows that count (the tests billing_parse.c applies): a volume row\n"
	    "-- (snapshots carry ARNs), an id, a known unit that fits the row, a\n"
	    "-- quantity >= 0, a usage period.  rate: the row's quantity per month.\n"
	    "usable AS (\n"
	    "  SELECT *,\n"
	    "    date_diff('second', t0, t1) / 3600e0 AS row_hours,\n"
	    "    24 * CASE EXTRACT(MONTH FROM t0)\n"
	    "      WHEN 2 THEN CASE WHEN (EXTRACT(YEAR FROM t0) %% 4 = 0 AND EXTRACT(YEAR FROM t0) %% 100 <> 0)\n"
	    "                          OR EXTRACT(YEAR FROM t0) %% 400 = 0 THEN 29 ELSE 28 END\n"
	    "      WHEN 4 THEN 30 WHEN 6 THEN 30 WHEN 9 THEN 30 WHEN 11 THEN 30\n"
	    "      ELSE 31 END AS month_hours,\n"
	    "    -- the latest row wins the type: hour x 8 + type rank\n"
	    "    floor(date_diff('second', TIMESTAMP '1970-01-01 00:00:00', t0) / 3600e0) * 8 +\n"
	    "      CASE vtype");
	for (int t = 0; t < VT_COUNT; t++)
		add(g, " WHEN '%s' THEN %d", model_type_name((enum vol_type)t),
		    t);
	add(g,
	    " END AS type_key\n"
	    "  FROM classified\n"
	    "  WHERE vtype IS NOT NULL AND vtype <> 'snapshot' AND comp IS NOT NULL\n"
	    "    AND volume_id IS NOT NULL AND volume_id NOT IN ('', 'NULL')\n"
	    "    AND volume_id NOT LIKE 'arn:%%'\n"
	    "    AND unit_comp = comp\n"
	    "    AND qty IS NOT NULL AND qty >= 0\n"
	    "    AND t0 IS NOT NULL AND t1 IS NOT NULL AND t1 > t0\n"
	    "),\n"
	    "rated AS (\n"
	    "  SELECT *, qty * factor * month_hours / row_hours AS rate FROM usable\n"
	    "),\n"
	    "period AS (\n"
	    "  SELECT date_diff('second', min(t0), max(t1)) / 3600e0 AS period_hours FROM usable\n"
	    "),\n");
}

static void volumes_cte(struct gen *g)
{
	add(g,
	    "-- Per volume: the largest rate per component (io2 tiers are separate\n"
	    "-- rows; each peaks with the total, so their maxima add up), hours and\n"
	    "-- months billed, costs as billed and listed.\n"
	    "volumes AS (\n"
	    "  SELECT volume_id,\n"
	    "    min(usage_account) AS usage_account, min(payer_account) AS payer_account,\n"
	    "    min(region) AS region, min(currency) AS currency,\n"
	    "    COALESCE(max_by(vtype, CASE WHEN comp = 'storage' THEN type_key END),\n"
	    "             max_by(vtype, type_key)) AS volume_type,\n"
	    "    max(CASE WHEN comp = 'storage' THEN 1 ELSE 0 END) AS have_storage,\n"
	    "    max(CASE WHEN comp = 'storage' THEN rate END) AS size_max,\n"
	    "    COALESCE(max(CASE WHEN comp = 'iops' AND tier = 0 THEN rate END), 0) +\n"
	    "      COALESCE(max(CASE WHEN comp = 'iops' AND tier = 1 THEN rate END), 0) +\n"
	    "      COALESCE(max(CASE WHEN comp = 'iops' AND tier = 2 THEN rate END), 0) AS iops_extra,\n"
	    "    COALESCE(max(CASE WHEN comp = 'throughput' THEN rate END), 0) AS mibps_extra,\n"
	    "    COALESCE(sum(CASE WHEN comp = 'storage' AND qty > 0 THEN row_hours END), 0) AS hours_raw,\n"
	    "    COALESCE(sum(CASE WHEN comp = 'storage' AND qty > 0 THEN row_hours / month_hours END), 0) AS months_raw,\n"
	    "    COALESCE(sum(CASE WHEN comp = 'io' THEN qty * factor END), 0) AS io_requests,\n"
	    "    sum(billed) AS billed_cost, sum(list) AS list_cost,\n"
	    "    min(t0) AS first_start, max(t1) AS last_end\n"
	    "  FROM rated\n"
	    "  GROUP BY volume_id\n"
	    "),\n");
}

/* SQL for billing_round_units(x). */
static void round_units(struct gen *g, const char *x)
{
	char tol[32];

	num(tol, sizeof(tol), BILL_ROUND_TOL);
	add(g,
	    "CASE WHEN %s IS NULL OR %s <= 0 THEN 0 WHEN abs(%s - round(%s)) <= %s THEN round(%s) ELSE ceil(%s) END",
	    x, x, x, x, tol, x, x);
}

static void settled_cte(struct gen *g)
{
	const struct volume_limits *gp3 = &g->lim[VT_GP3];
	char inc_m[32];

	num(inc_m, sizeof(inc_m), gp3->included_mibps);
	add(g,
	    "-- Size (GiB), IOPS and MiB/s: rates to whole units; gp3 rows bill only\n"
	    "-- above the included %ld IOPS and %s MiB/s (T3).\n"
	    "settled AS (\n"
	    "  SELECT v.*,\n    ",
	    gp3->included_iops, inc_m);
	round_units(g, "size_max");
	add(g,
	    " AS size_gib,\n"
	    "    CASE volume_type WHEN 'gp3' THEN %ld + ",
	    gp3->included_iops);
	round_units(g, "iops_extra");
	add(g, "\n      WHEN 'io1' THEN ");
	round_units(g, "iops_extra");
	add(g, "\n      WHEN 'io2' THEN ");
	round_units(g, "iops_extra");
	add(g,
	    "\n      ELSE 0 END AS iops,\n"
	    "    CASE volume_type WHEN 'gp3' THEN %s + ",
	    inc_m);
	round_units(g, "mibps_extra");
	add(g,
	    " ELSE 0 END AS throughput_mibps,\n"
	    "    CASE WHEN p.period_hours > 0 AND hours_raw > p.period_hours THEN p.period_hours ELSE hours_raw END AS hours,\n"
	    "    CASE WHEN p.period_hours > 0 AND hours_raw > p.period_hours\n"
	    "      THEN months_raw * (p.period_hours / hours_raw) ELSE months_raw END AS months,\n"
	    "    p.period_hours\n"
	    "  FROM volumes v CROSS JOIN period p\n"
	    "),\n");
}

/*
 * Candidates: the configuration as billed and the ones the rules try
 * (model_gp3_like_gp2 for gp2; io2 and model_gp3_for_load for io1).
 */
static void candidates_cte(struct gen *g)
{
	const struct volume_limits *gp3 = &g->lim[VT_GP3];
	char inc_m[32], ratio[32], max_m[32], ipg[32];

	num(inc_m, sizeof(inc_m), gp3->included_mibps);
	num(ratio, sizeof(ratio), gp3->max_mibps_per_iops);
	num(max_m, sizeof(max_m), gp3->max_mibps);
	num(ipg, sizeof(ipg), gp3->max_iops_per_gib);
	add(g,
	    "-- io1 -> gp3 (model_gp3_for_load): IOPS as billed, MiB/s as io1 allows\n"
	    "-- them (T4: <= %g IOPS: %g KiB per I/O up to %g MiB/s, else %g KiB up to\n"
	    "-- %g), within gp3's limits in force (T3).\n"
	    "gp3_load AS (\n"
	    "  SELECT volume_id, size_gib, l_iops, l_mibps,\n"
	    "    l_iops <= LEAST(%ld, %s * size_gib) AND l_mibps <= %s\n"
	    "      AND NOT (%s > 0 AND l_mibps > %s * l_iops + 1e-9) AS fits\n"
	    "  FROM (\n"
	    "    SELECT volume_id, size_gib, l_mibps,\n"
	    "      CASE WHEN %s > 0 THEN GREATEST(l_iops0, ceil(l_mibps / %s - 1e-9)) ELSE l_iops0 END AS l_iops\n"
	    "    FROM (\n"
	    "      SELECT volume_id, size_gib,\n"
	    "        GREATEST(%ld, ceil(iops - 1e-9)) AS l_iops0,\n"
	    "        GREATEST(%s, ceil(LEAST(%s, CASE WHEN iops <= %g THEN LEAST(%g, iops * %g / 1024)\n"
	    "                                         ELSE LEAST(%g, iops * %g / 1024) END) - 1e-9)) AS l_mibps\n"
	    "      FROM settled WHERE volume_type = 'io1' AND iops > 0\n"
	    "    ) a\n"
	    "  ) b\n"
	    "),\n",
	    IO1_LOW_IOPS, IO1_LOW_KIB_PER_IOPS, IO1_LOW_MAX_MIBPS,
	    IO1_HIGH_KIB_PER_IOPS, IO1_MAX_MIBPS, gp3->max_iops, ipg, max_m,
	    ratio, ratio, ratio, ratio, gp3->included_iops, inc_m, max_m,
	    IO1_LOW_IOPS, IO1_LOW_MAX_MIBPS, IO1_LOW_KIB_PER_IOPS,
	    IO1_MAX_MIBPS, IO1_HIGH_KIB_PER_IOPS);
	add(g,
	    "cand AS (\n"
	    "  SELECT volume_id, 'cur' AS cand, volume_type AS type, size_gib, iops,\n"
	    "    throughput_mibps AS mibps,\n"
	    "    CASE WHEN volume_type = 'standard' AND months > 0 THEN io_requests / months ELSE 0 END AS io_per_month\n"
	    "  FROM settled\n"
	    "  UNION ALL\n"
	    "  -- gp2 -> gp3 nowhere slower (model_gp3_like_gp2, T2): IOPS = the gp2\n"
	    "  -- baseline max(%g, min(%g, %g x GiB)) but at least %ld; %d MiB/s above\n"
	    "  -- %d GiB, else %s\n"
	    "  SELECT volume_id, 'gp3_like', 'gp3', size_gib,\n"
	    "    GREATEST(%ld, GREATEST(%g, LEAST(%g, %g * size_gib))),\n"
	    "    CASE WHEN size_gib > %d THEN %d ELSE %s END, 0\n"
	    "  FROM settled WHERE volume_type = 'gp2'\n"
	    "  UNION ALL\n"
	    "  SELECT volume_id, 'io2', 'io2', size_gib, iops, 0, 0\n"
	    "  FROM settled WHERE volume_type = 'io1' AND iops > 0\n"
	    "  UNION ALL\n"
	    "  SELECT volume_id, 'gp3_load', 'gp3', size_gib, l_iops, l_mibps, 0\n"
	    "  FROM gp3_load WHERE fits\n"
	    "),\n",
	    GP2_MIN_IOPS, GP2_MAX_IOPS, GP2_IOPS_PER_GIB, gp3->included_iops,
	    GP2_HIGH_MIBPS, GP2_HIGH_MIBPS_ABOVE_GIB, inc_m, gp3->included_iops,
	    GP2_MIN_IOPS, GP2_MAX_IOPS, GP2_IOPS_PER_GIB,
	    GP2_HIGH_MIBPS_ABOVE_GIB, GP2_HIGH_MIBPS, inc_m);
}

/* The types whose IOPS / MiB/s are bought (model_type_buys_*). */
static void type_list(struct gen *g, int (*buys)(enum vol_type))
{
	int first = 1;

	for (int t = 0; t < VT_COUNT; t++) {
		if (!buys((enum vol_type)t))
			continue;
		add(g, "%s'%s'", first ? "" : ", ",
		    model_type_name((enum vol_type)t));
		first = 0;
	}
}

static void cost_cte(struct gen *g)
{
	add(g,
	    "-- Monthly cost of each candidate at the prices in force (model_cost:\n"
	    "-- storage x GiB, tiered IOPS and MiB/s, standard I/O per million);\n"
	    "-- complete only when every price it needs exists.\n"
	    "cost AS (\n"
	    "  SELECT c.volume_id, c.cand, c.type, c.size_gib, c.iops, c.mibps,\n"
	    "    max(p.currency) AS price_currency,\n"
	    "    max(CASE WHEN p.dimension = 'storage' THEN 1 ELSE 0 END) = 1\n"
	    "      AND (c.type NOT IN (");
	type_list(g, model_type_buys_iops);
	add(g,
	    ") OR max(CASE WHEN p.dimension = 'iops' THEN 1 ELSE 0 END) = 1)\n"
	    "      AND (c.type NOT IN (");
	type_list(g, model_type_buys_throughput);
	add(g,
	    ") OR max(CASE WHEN p.dimension = 'throughput' THEN 1 ELSE 0 END) = 1)\n"
	    "      AND (c.type <> 'standard' OR c.io_per_month <= 0\n"
	    "           OR max(CASE WHEN p.dimension = 'io' THEN 1 ELSE 0 END) = 1) AS complete,\n"
	    "    sum(CASE\n"
	    "      WHEN p.dimension = 'storage' THEN c.size_gib * p.price\n"
	    "      WHEN p.dimension = 'iops' AND c.type IN (");
	type_list(g, model_type_buys_iops);
	add(g,
	    ") THEN\n"
	    "        GREATEST(0, COALESCE(LEAST(c.iops, p.end_range), c.iops) - p.begin_range) * p.price\n"
	    "      WHEN p.dimension = 'throughput' AND c.type IN (");
	type_list(g, model_type_buys_throughput);
	add(g,
	    ") THEN\n"
	    "        GREATEST(0, COALESCE(LEAST(c.mibps, p.end_range), c.mibps) - p.begin_range) * p.price\n"
	    "      WHEN p.dimension = 'io' AND c.type = 'standard' AND c.io_per_month > 0 THEN\n"
	    "        c.io_per_month / 1e6 * p.price\n"
	    "      ELSE 0 END) AS per_month\n"
	    "  FROM cand c\n"
	    "  JOIN settled v ON v.volume_id = c.volume_id\n"
	    "  LEFT JOIN prices p ON p.region = v.region AND p.volume_type = c.type\n"
	    "  GROUP BY c.volume_id, c.cand, c.type, c.size_gib, c.iops, c.mibps, c.io_per_month\n"
	    "),\n");
}

static void findings(struct gen *g)
{
	const struct volume_limits *gp3 = &g->lim[VT_GP3];
	char ipg[32];

	num(ipg, sizeof(ipg), gp3->max_iops_per_gib);
	add(g,
	    "-- One finding per volume, as billing_analyze_volume decides it.\n"
	    "decided AS (\n"
	    "  SELECT v.*,\n"
	    "    cur.per_month AS cur_pm, cur.complete AS cur_ok,\n"
	    "    (SELECT max(currency) FROM prices p WHERE p.region = v.region) AS price_currency,\n"
	    "    gl.per_month AS gl_pm, gl.complete AS gl_ok, gl.iops AS gl_iops, gl.mibps AS gl_mibps,\n"
	    "    i2.per_month AS i2_pm, i2.complete AS i2_ok,\n"
	    "    g3.per_month AS g3_pm, g3.complete AS g3_ok, g3.iops AS g3_iops, g3.mibps AS g3_mibps,\n"
	    "    -- model_gp2_sized_for_iops: size = ceil(%d k / %g), k = %g..%g\n"
	    "    floor(%g * v.size_gib / %d) AS sized_k\n"
	    "  FROM settled v\n"
	    "  LEFT JOIN cost cur ON cur.volume_id = v.volume_id AND cur.cand = 'cur'\n"
	    "  LEFT JOIN cost gl ON gl.volume_id = v.volume_id AND gl.cand = 'gp3_like'\n"
	    "  LEFT JOIN cost i2 ON i2.volume_id = v.volume_id AND i2.cand = 'io2'\n"
	    "  LEFT JOIN cost g3 ON g3.volume_id = v.volume_id AND g3.cand = 'gp3_load'\n"
	    "),\n",
	    GP2_SIZED_STEP_IOPS, GP2_IOPS_PER_GIB,
	    GP2_BURST_IOPS / GP2_SIZED_STEP_IOPS,
	    GP2_MAX_IOPS / GP2_SIZED_STEP_IOPS, GP2_IOPS_PER_GIB,
	    GP2_SIZED_STEP_IOPS);
	add(g,
	    "statused AS (\n"
	    "  SELECT d.*,\n"
	    "    CASE WHEN have_storage = 0 OR size_gib <= 0 THEN 'no_size'\n"
	    "         WHEN price_currency IS NULL THEN 'no_prices'\n"
	    "         WHEN price_currency <> currency THEN 'other_currency'\n"
	    "         WHEN NOT cur_ok THEN 'no_prices'\n"
	    "         ELSE 'priced' END AS status,\n"
	    "    CASE WHEN i2_ok AND i2_pm < cur_pm - %g THEN i2_pm ELSE cur_pm END AS io1_best\n"
	    "  FROM decided d\n"
	    "),\n",
	    BILL_COST_EPS);
	add(g,
	    "found AS (\n"
	    "  SELECT s.*,\n"
	    "    CASE WHEN status <> 'priced' THEN ''\n"
	    "      WHEN volume_type = 'gp2' AND gl_ok AND gl_pm < cur_pm - %g THEN\n"
	    "        CASE WHEN sized_k >= %g AND sized_k <= %g\n"
	    "               AND %g * size_gib - %d * sized_k <= %g\n"
	    "             THEN 'gp2_sized_for_iops' ELSE 'gp2_to_gp3' END\n"
	    "      WHEN volume_type = 'io1' AND iops > 0 AND g3_ok AND g3_pm < io1_best - %g THEN 'io1_to_gp3'\n"
	    "      WHEN volume_type = 'io1' AND iops > 0 AND i2_ok AND i2_pm < cur_pm - %g THEN 'io1_to_io2'\n"
	    "      ELSE '' END AS finding\n"
	    "  FROM statused s\n"
	    ")\n",
	    BILL_COST_EPS, GP2_BURST_IOPS / GP2_SIZED_STEP_IOPS,
	    GP2_MAX_IOPS / GP2_SIZED_STEP_IOPS, GP2_IOPS_PER_GIB,
	    GP2_SIZED_STEP_IOPS, GP2_IOPS_PER_GIB - 1, BILL_COST_EPS,
	    BILL_COST_EPS);
	add(g,
	    "SELECT\n"
	    "  volume_id, usage_account, payer_account, region, currency, volume_type,\n"
	    "  size_gib, iops, throughput_mibps, hours, months,\n"
	    "  hours < period_hours - %g AS partial,\n"
	    "  round(billed_cost, 6) AS billed_cost, round(list_cost, 6) AS list_cost,\n"
	    "  status, finding,\n"
	    "  CASE finding WHEN 'gp2_to_gp3' THEN 'gp3' WHEN 'gp2_sized_for_iops' THEN 'gp3'\n"
	    "    WHEN 'io1_to_gp3' THEN 'gp3' WHEN 'io1_to_io2' THEN 'io2' ELSE volume_type END AS prop_type,\n"
	    "  CASE WHEN finding IN ('gp2_to_gp3', 'gp2_sized_for_iops') THEN gl_iops\n"
	    "    WHEN finding = 'io1_to_gp3' THEN g3_iops ELSE iops END AS prop_iops,\n"
	    "  CASE WHEN finding IN ('gp2_to_gp3', 'gp2_sized_for_iops') THEN gl_mibps\n"
	    "    WHEN finding = 'io1_to_gp3' THEN g3_mibps WHEN finding = 'io1_to_io2' THEN 0\n"
	    "    ELSE throughput_mibps END AS prop_throughput_mibps,\n"
	    "  CASE WHEN status = 'priced' THEN round(cur_pm, 6) END AS cur_per_month,\n"
	    "  CASE WHEN status = 'priced' THEN round(prop_pm, 6) END AS prop_per_month,\n"
	    "  CASE WHEN status = 'priced' THEN round(cur_pm - prop_pm, 6) END AS save_per_month,\n"
	    "  CASE WHEN status = 'priced' THEN round(cur_pm * months, 6) END AS cur_period,\n"
	    "  CASE WHEN status = 'priced' THEN round((cur_pm - prop_pm) * months, 6) END AS save_period,\n"
	    "  discount,\n"
	    "  CASE WHEN status = 'priced' THEN round((cur_pm - prop_pm) * months * discount, 6) END AS save_billed_period,\n"
	    "  CASE WHEN finding = 'gp2_sized_for_iops' THEN %d * sized_k ELSE 0 END AS target_iops,\n"
	    "  -- the smallest gp3 for the target (model_min_size_for_iops): any size\n"
	    "  -- carries the included IOPS; above them, the IOPS-per-GiB rule\n"
	    "  CASE WHEN finding = 'gp2_sized_for_iops' AND %d * sized_k <= %ld THEN %ld\n"
	    "    WHEN finding = 'gp2_sized_for_iops'\n"
	    "    THEN GREATEST(%ld, ceil(%d * sized_k / %s - 1e-9)) ELSE 0 END AS alt_size_gib\n"
	    "FROM (\n"
	    "  SELECT f.*,\n"
	    "    CASE finding WHEN 'gp2_to_gp3' THEN gl_pm WHEN 'gp2_sized_for_iops' THEN gl_pm\n"
	    "      WHEN 'io1_to_gp3' THEN g3_pm WHEN 'io1_to_io2' THEN i2_pm ELSE cur_pm END AS prop_pm,\n"
	    "    CASE WHEN list_cost > 0 THEN billed_cost / list_cost ELSE 1 END AS discount\n"
	    "  FROM found f\n"
	    ") r\n"
	    "ORDER BY volume_id\n",
	    BILL_COST_EPS, GP2_SIZED_STEP_IOPS, GP2_SIZED_STEP_IOPS,
	    gp3->min_iops, gp3->min_size_gib, gp3->min_size_gib,
	    GP2_SIZED_STEP_IOPS, ipg);
}

/* ------------------------------------------------------------ entry */

int billing_sql_table_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > 200)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && !strchr("_.\"`", c))
			return 0;
	}
	return 1;
}

char *billing_sql(const struct bill_sql_opts *o,
		  const struct bill_sql_prices *prices, size_t nprices,
		  const struct volume_limits lim[VT_COUNT], char *err)
{
	struct bill_sql_opts oo = *o;
	struct gen g = { SBUF_INIT(SQL_CAP), &oo, lim };

	if (!oo.table)
		oo.table = oo.schema == BILL_FMT_FOCUS	? "focus"
			   : oo.schema == BILL_FMT_CUR2 ? "cur2"
							: "cur";
	if (!billing_sql_table_ok(oo.table)) {
		ebs_fail(err, EBS_ERR_USAGE,
			 "table name '%s' is not a plain (schema.)table name",
			 oo.table);
		return NULL;
	}
	if (oo.schema <= BILL_FMT_UNKNOWN || oo.schema >= BILL_FMT_COUNT) {
		ebs_fail(err, EBS_ERR_USAGE, "no such billing schema");
		return NULL;
	}
	header(&g, nprices);
	prices_cte(&g, prices, nprices);
	src_cte(&g);
	classify_cte(&g);
	rows_cte(&g);
	volumes_cte(&g);
	settled_cte(&g);
	candidates_cte(&g);
	cost_cte(&g);
	findings(&g);
	if (g.sb.len >= SQL_CAP - 1) {
		sbuf_release(&g.sb);
		ebs_fail(err, EBS_ERR_TOO_BIG, "generated SQL over %zu bytes",
			 SQL_CAP);
		return NULL;
	}
	return sbuf_detach(&g.sb, NULL);
}
