/*
 * billing_rules.c - what a billing row means and what to propose for a
 * volume reconstructed from billing rows.
 *
 * The tables first (columns, usage types, units, descriptions, region
 * prefixes): billing_parse.c reads rows with them and billing_sql.c turns
 * the very same rows of them into SQL.  Then the rules: pure functions of
 * one struct bill_volume and the prices in force of its region, built on
 * model.c (model_gp3_like_gp2, model_gp3_for_load, model_cost, ...), and
 * the totals.  No I/O, no allocation in the rules.
 */
#include "billing_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

/* ------------------------------------------------------------ names */

static const char *const fmt_names[BILL_FMT_COUNT] = {
	[BILL_FMT_UNKNOWN] = "unknown",
	[BILL_FMT_FOCUS] = "focus",
	[BILL_FMT_CUR] = "cur",
	[BILL_FMT_CUR2] = "cur2",
};

const char *billing_format_name(enum bill_format f)
{
	return (unsigned)f < BILL_FMT_COUNT ? fmt_names[f] : NULL;
}

int billing_format_parse(const char *s, enum bill_format *out)
{
	for (int f = BILL_FMT_FOCUS; f < BILL_FMT_COUNT; f++) {
		if (!strcmp(s, fmt_names[f])) {
			*out = (enum bill_format)f;
			return 0;
		}
	}
	return -1;
}

const char *billing_comp_name(enum bill_comp c)
{
	static const char *const n[BILL_COMP_COUNT] = { "storage", "iops",
							"throughput", "io" };

	return (unsigned)c < BILL_COMP_COUNT ? n[c] : NULL;
}

const char *billing_bad_name(enum bill_bad b)
{
	static const char *const n[BILL_BAD_COUNT] = {
		"field count",	     "no resource id", "unit",	  "quantity",
		"negative quantity", "date",	       "currency"
	};

	return (unsigned)b < BILL_BAD_COUNT ? n[b] : NULL;
}

const char *billing_cat_name(enum bill_cat c)
{
	static const char *const n[BILL_CAT_COUNT] = {
		[BILL_NONE] = "",
		[BILL_GP2_TO_GP3] = "gp2_to_gp3",
		[BILL_GP2_SIZED_FOR_IOPS] = "gp2_sized_for_iops",
		[BILL_IO1_TO_IO2] = "io1_to_io2",
		[BILL_IO1_TO_GP3] = "io1_to_gp3",
		[BILL_NOT_IN_INVENTORY] = "not_in_inventory",
	};

	return (unsigned)c < BILL_CAT_COUNT ? n[c] : NULL;
}

const char *billing_status_name(enum bill_status s)
{
	static const char *const n[BILL_STATUS_COUNT] = { "priced", "no_size",
							  "no_prices",
							  "other_currency" };

	return (unsigned)s < BILL_STATUS_COUNT ? n[s] : NULL;
}

const char *billing_resource_id_hint(enum bill_format f)
{
	switch (f) {
	case BILL_FMT_CUR:
		return "turn on \"Include resource IDs\" in the report's content options (Billing and Cost Management > Data Exports), then wait for the next delivery";
	case BILL_FMT_CUR2:
		return "create the CUR 2.0 export with \"Include resource IDs\" (Data Exports > Create > Standard data export > Additional export content)";
	case BILL_FMT_FOCUS:
		return "FOCUS exports carry ResourceId on resource rows; rows without it cannot be told apart per volume";
	default: return "export with resource ids";
	}
}

/* ------------------------------------------------------------ tables */

/* formats.md, "Billing exports": the column of each need, per format */
static const char *const columns[BILL_FMT_COUNT][BC_COUNT] = {
	[BILL_FMT_FOCUS] = {
		[BC_ID] = "ResourceId",
		[BC_USAGE_TYPE] = "x_UsageType",
		[BC_DESC] = "ChargeDescription",
		[BC_UNIT] = "ConsumedUnit",
		[BC_QTY] = "ConsumedQuantity",
		[BC_START] = "ChargePeriodStart",
		[BC_END] = "ChargePeriodEnd",
		[BC_BILLED] = "BilledCost",
		[BC_LIST] = "ListCost",
		[BC_CURRENCY] = "BillingCurrency",
		[BC_REGION] = "RegionId",
		[BC_PAYER] = "BillingAccountId",
		[BC_ACCOUNT] = "SubAccountId",
		[BC_SERVICE] = "ServiceName",
		[BC_CATEGORY] = "ChargeCategory",
		[BC_TAGS] = "Tags",
	},
	[BILL_FMT_CUR] = {
		[BC_ID] = "lineItem/ResourceId",
		[BC_USAGE_TYPE] = "lineItem/UsageType",
		[BC_DESC] = "lineItem/LineItemDescription",
		[BC_UNIT] = "pricing/unit",
		[BC_QTY] = "lineItem/UsageAmount",
		[BC_START] = "lineItem/UsageStartDate",
		[BC_END] = "lineItem/UsageEndDate",
		[BC_BILLED] = "lineItem/NetUnblendedCost",
		[BC_BILLED2] = "lineItem/UnblendedCost",
		[BC_LIST] = "pricing/publicOnDemandCost",
		[BC_CURRENCY] = "lineItem/CurrencyCode",
		[BC_REGION] = "product/region",
		[BC_PAYER] = "bill/PayerAccountId",
		[BC_ACCOUNT] = "lineItem/UsageAccountId",
		[BC_SERVICE] = "lineItem/ProductCode",
		[BC_CATEGORY] = "lineItem/LineItemType",
		[BC_VOLUME_API] = "product/volumeApiName",
	},
	[BILL_FMT_CUR2] = {
		[BC_ID] = "line_item_resource_id",
		[BC_USAGE_TYPE] = "line_item_usage_type",
		[BC_DESC] = "line_item_line_item_description",
		[BC_UNIT] = "pricing_unit",
		[BC_QTY] = "line_item_usage_amount",
		[BC_START] = "line_item_usage_start_date",
		[BC_END] = "line_item_usage_end_date",
		[BC_BILLED] = "line_item_net_unblended_cost",
		[BC_BILLED2] = "line_item_unblended_cost",
		[BC_LIST] = "pricing_public_on_demand_cost",
		[BC_CURRENCY] = "line_item_currency_code",
		[BC_REGION] = "product_region_code",
		[BC_PAYER] = "bill_payer_account_id",
		[BC_ACCOUNT] = "line_item_usage_account_id",
		[BC_SERVICE] = "line_item_product_code",
		[BC_CATEGORY] = "line_item_line_item_type",
		[BC_TAGS] = "resource_tags",
	},
};

const char *billing_column(enum bill_format f, enum bill_col c)
{
	if ((unsigned)f >= BILL_FMT_COUNT || (unsigned)c >= BC_COUNT)
		return NULL;
	return columns[f][c];
}

int billing_column_required(enum bill_format f, enum bill_col c)
{
	switch (c) {
	case BC_UNIT:
	case BC_QTY:
	case BC_START:
	case BC_END:
	case BC_CURRENCY:
	case BC_SERVICE:
	case BC_CATEGORY: return 1;
	case BC_USAGE_TYPE:
		return f != BILL_FMT_FOCUS; /* FOCUS: the description */
	case BC_DESC: return f == BILL_FMT_FOCUS;
	case BC_BILLED:
		return f == BILL_FMT_FOCUS; /* CUR: net, else unblended */
	case BC_BILLED2: return f != BILL_FMT_FOCUS;
	default: return 0;
	}
}

const char *billing_service(enum bill_format f)
{
	return f == BILL_FMT_FOCUS ? "Amazon Elastic Compute Cloud"
				   : "AmazonEC2";
}

/* formats.md: line item types of usage (not credits, taxes, fees) */
const char *const billing_usage_kinds[] = { "Usage", "DiscountedUsage",
					    "SavingsPlanCoveredUsage", NULL };
const char *const billing_focus_usage_kinds[] = { "Usage", NULL };

/* ebs-facts.md T10 (after the region prefix) */
const struct bill_usage_rule billing_usage_rules[] = {
	{ "EBS:VolumeUsage", BILL_STORAGE, VT_STANDARD, 0 },
	{ "EBS:VolumeUsage.gp2", BILL_STORAGE, VT_GP2, 0 },
	{ "EBS:VolumeUsage.gp3", BILL_STORAGE, VT_GP3, 0 },
	{ "EBS:VolumeUsage.piops", BILL_STORAGE, VT_IO1, 0 },
	{ "EBS:VolumeUsage.io2", BILL_STORAGE, VT_IO2, 0 },
	{ "EBS:VolumeUsage.st1", BILL_STORAGE, VT_ST1, 0 },
	{ "EBS:VolumeUsage.sc1", BILL_STORAGE, VT_SC1, 0 },
	{ "EBS:VolumeP-IOPS.gp3", BILL_IOPS, VT_GP3, 0 },
	{ "EBS:VolumeP-IOPS.piops", BILL_IOPS, VT_IO1, 0 },
	{ "EBS:VolumeP-IOPS.io2", BILL_IOPS, VT_IO2, 0 },
	{ "EBS:VolumeP-IOPS.io2.tier2", BILL_IOPS, VT_IO2, 1 },
	{ "EBS:VolumeP-IOPS.io2.tier3", BILL_IOPS, VT_IO2, 2 },
	{ "EBS:VolumeP-Throughput.gp3", BILL_THROUGHPUT, VT_GP3, 0 },
	{ "EBS:VolumeIOUsage", BILL_IO, VT_STANDARD, 0 },
};
const size_t billing_nusage_rules = ARRAY_SIZE(billing_usage_rules);

/* an unknown suffix of these stems takes its type from volumeApiName */
const struct bill_stem billing_stems[] = {
	{ "EBS:VolumeUsage.", BILL_STORAGE },
	{ "EBS:VolumeP-IOPS.", BILL_IOPS },
	{ "EBS:VolumeP-Throughput.", BILL_THROUGHPUT },
};
const size_t billing_nstems = ARRAY_SIZE(billing_stems);

/*
 * T10 unit strings (Price List / CUR) and the FOCUS ConsumedUnit ones of
 * the real sample; throughput is billed per GiB/s: x 1,024 MiB/s (T6).
 */
const struct bill_unit_rule billing_unit_rules[] = {
	{ "GB-Mo", BILL_STORAGE, 1.0 },
	{ "GB-month", BILL_STORAGE, 1.0 },
	{ "GB-Month", BILL_STORAGE, 1.0 },
	{ "GB-Months", BILL_STORAGE, 1.0 },
	{ "IOPS-Mo", BILL_IOPS, 1.0 },
	{ "IOPS-Month", BILL_IOPS, 1.0 },
	{ "IOPS-Months", BILL_IOPS, 1.0 },
	{ "GiBps-mo", BILL_THROUGHPUT, 1024.0 },
	{ "GiB/Second-Months", BILL_THROUGHPUT, 1024.0 },
	{ "IOs", BILL_IO, 1.0 },
};
const size_t billing_nunit_rules = ARRAY_SIZE(billing_unit_rules);

/*
 * ChargeDescription text (lowercased) of the Price List rates: the real
 * FOCUS sample ("... General Purpose SSD (gp2) provisioned storage",
 * "... provisioned IOPS-month of gp3", "... MiBps-month of gp3",
 * "... Magnetic provisioned storage", "... snapshot data stored",
 * "... for EBS:SnapshotUsage"), and Price List descriptions for io1
 * ("per IOPS-month provisioned", "PIOPS (SSD) provisioned storage") and
 * io2 ("IOPS-month provisioned (io2)", "32001-64000 IOPS").  Order
 * matters: snapshots first, the io1 catch-all last.
 */
const struct bill_desc_rule billing_desc_rules[] = {
	{ "snapshot", 1, VT_COUNT, 0 },
	{ "(gp2)", 0, VT_GP2, 0 },
	{ "gp3", 0, VT_GP3, 0 },
	{ "32001-64000", 0, VT_IO2, 1 },
	{ "(io2)", 0, VT_IO2, 0 },
	{ "(io1)", 0, VT_IO1, 0 },
	{ "piops", 0, VT_IO1, 0 },
	{ "(st1)", 0, VT_ST1, 0 },
	{ "throughput optimized hdd", 0, VT_ST1, 0 },
	{ "(sc1)", 0, VT_SC1, 0 },
	{ "cold hdd", 0, VT_SC1, 0 },
	{ "magnetic", 0, VT_STANDARD, 0 },
	{ "i/o requests", 0, VT_STANDARD, 0 },
	{ "iops-month provisioned", 0, VT_IO1, 0 },
};
const size_t billing_ndesc_rules = ARRAY_SIZE(billing_desc_rules);

/* ebs-facts.md T9: usage-type prefix -> region ("EU" is eu-west-1) */
const struct bill_prefix billing_prefixes[] = {
	{ "", "us-east-1" },	      { "USE1", "us-east-1" },
	{ "USW2", "us-west-2" },      { "EU", "eu-west-1" },
	{ "EUC1", "eu-central-1" },   { "EUW2", "eu-west-2" },
	{ "EUW3", "eu-west-3" },      { "APN1", "ap-northeast-1" },
	{ "APN2", "ap-northeast-2" }, { "APS1", "ap-southeast-1" },
};
const size_t billing_nprefixes = ARRAY_SIZE(billing_prefixes);

int billing_is_null(const char *s)
{
	return !s || !*s || !strcmp(s, "NULL");
}

const struct bill_usage_rule *billing_usage_rule(const char *suffix)
{
	for (size_t i = 0; i < billing_nusage_rules; i++)
		if (!strcmp(suffix, billing_usage_rules[i].suffix))
			return &billing_usage_rules[i];
	return NULL;
}

const struct bill_unit_rule *billing_unit_rule(const char *unit)
{
	for (size_t i = 0; i < billing_nunit_rules; i++)
		if (!strcmp(unit, billing_unit_rules[i].unit))
			return &billing_unit_rules[i];
	return NULL;
}

const struct bill_desc_rule *billing_desc_rule(const char *lower_desc)
{
	for (size_t i = 0; i < billing_ndesc_rules; i++)
		if (strstr(lower_desc, billing_desc_rules[i].needle))
			return &billing_desc_rules[i];
	return NULL;
}

const char *billing_prefix_region(const char *prefix, size_t len)
{
	for (size_t i = 0; i < billing_nprefixes; i++)
		if (strlen(billing_prefixes[i].prefix) == len &&
		    !memcmp(prefix, billing_prefixes[i].prefix, len))
			return billing_prefixes[i].region;
	return NULL;
}

double billing_money(double v)
{
	return round(v * 1e6) / 1e6;
}

long billing_round_units(double v)
{
	double r = round(v);

	if (!(v > 0))
		return 0;
	if (v > 1e12)
		return (long)1e12;
	return (long)(fabs(v - r) <= BILL_ROUND_TOL ? r : ceil(v));
}

/* ------------------------------------------------------------ rules */

/* Monthly cost of c under p, or -1 when p lacks a price c needs. */
static int month_cost(const struct type_prices *p, const struct vol_config *c,
		      double *out)
{
	struct cost k;

	if (model_cost(p, c, &k))
		return -1;
	*out = k.total;
	return 0;
}

/* The configuration as billed (count 1). */
static void current_config(const struct bill_volume *v, struct vol_config *c)
{
	memset(c, 0, sizeof(*c));
	c->type = v->type;
	c->size_gib = v->size_gib;
	c->count = 1;
	if (model_type_buys_iops(v->type))
		c->iops = v->iops;
	if (model_type_buys_throughput(v->type))
		c->throughput_mibps = v->throughput_mibps;
	if (model_type_bills_io(v->type) && v->months > 0)
		c->io_per_month = v->io_requests / v->months;
}

/*
 * gp2: the gp3 that is nowhere slower (model_gp3_like_gp2), flagged when
 * the size looks bought for IOPS (model_gp2_sized_for_iops).
 */
static void gp2_rule(const struct price_set *ps,
		     const struct volume_limits lim[VT_COUNT],
		     struct bill_finding *f)
{
	double cost;

	model_gp3_like_gp2(&lim[VT_GP3], f->cur.size_gib, &f->prop);
	if (month_cost(&ps->type[VT_GP3], &f->prop, &cost) ||
	    !(cost < f->cur_per_month - BILL_COST_EPS))
		return;
	f->prop_per_month = cost;
	f->cat = BILL_GP2_TO_GP3;
	if (model_gp2_sized_for_iops(f->cur.size_gib, &f->target_iops)) {
		f->cat = BILL_GP2_SIZED_FOR_IOPS;
		f->alt_size_gib =
		    model_min_size_for_iops(&lim[VT_GP3], f->target_iops);
	}
}

/*
 * io1: io2 at the same size and IOPS (tiered IOPS price, T6), then gp3
 * when it carries the IOPS and the MiB/s io1 allows them
 * (model_gp3_for_load); the cheaper wins, each only when cheaper than
 * what is billed (the order scan.c uses).
 */
static void io1_rule(const struct price_set *ps,
		     const struct volume_limits lim[VT_COUNT],
		     struct bill_finding *f)
{
	struct vol_config c = f->cur;
	double best = f->cur_per_month, cost, mibps;

	if (f->cur.iops <= 0)
		return;
	c.type = VT_IO2;
	if (!month_cost(&ps->type[VT_IO2], &c, &cost) &&
	    cost < best - BILL_COST_EPS) {
		best = cost;
		f->prop = c;
		f->cat = BILL_IO1_TO_IO2;
	}
	mibps = fmin(lim[VT_GP3].max_mibps,
		     model_piops_max_mibps(VT_IO1, (double)f->cur.iops));
	if (!model_gp3_for_load(&lim[VT_GP3], f->cur.size_gib,
				(double)f->cur.iops, mibps, &c) &&
	    !month_cost(&ps->type[VT_GP3], &c, &cost) &&
	    cost < best - BILL_COST_EPS) {
		best = cost;
		f->prop = c;
		f->cat = BILL_IO1_TO_GP3;
	}
	if (f->cat != BILL_NONE)
		f->prop_per_month = best;
}

/* Money figures of a finding from its monthly ones. */
static void settle_money(const struct bill_volume *v, struct bill_finding *f)
{
	if (f->cat == BILL_NONE || f->cat == BILL_NOT_IN_INVENTORY)
		f->prop_per_month = f->cur_per_month;
	f->save_per_month = f->cur_per_month - f->prop_per_month;
	f->discount = v->list_total > 0 ? v->billed_total / v->list_total : 1.0;
	f->cur_period = billing_money(f->cur_per_month * v->months);
	f->save_period = billing_money(f->save_per_month * v->months);
	f->save_billed_period =
	    billing_money(f->save_per_month * v->months * f->discount);
	f->cur_per_month = billing_money(f->cur_per_month);
	f->prop_per_month = billing_money(f->prop_per_month);
	f->save_per_month = billing_money(f->save_per_month);
}

void billing_analyze_volume(const struct bill_volume *v,
			    const struct price_set *ps, const char *currency,
			    const struct volume_limits lim[VT_COUNT],
			    double period_hours, int in_inventory,
			    struct bill_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->in_inventory = in_inventory;
	f->partial = v->hours < period_hours - BILL_COST_EPS;
	f->discount = 1.0;
	current_config(v, &f->cur);
	f->prop = f->cur;
	if (!v->have_storage || v->size_gib <= 0) {
		f->status = BILL_NO_SIZE;
		return;
	}
	if (!ps) {
		f->status = BILL_NO_PRICES;
		return;
	}
	f->price_currency = currency;
	if (!currency || strcmp(currency, v->currency)) {
		f->status = BILL_OTHER_CURRENCY;
		return;
	}
	if (month_cost(&ps->type[v->type], &f->cur, &f->cur_per_month)) {
		f->status = BILL_NO_PRICES;
		return;
	}
	if (in_inventory == 0)
		f->cat = BILL_NOT_IN_INVENTORY;
	else if (v->type == VT_GP2)
		gp2_rule(ps, lim, f);
	else if (v->type == VT_IO1)
		io1_rule(ps, lim, f);
	if (f->cat == BILL_NONE || f->cat == BILL_NOT_IN_INVENTORY)
		f->prop = f->cur;
	settle_money(v, f);
}

/* ------------------------------------------------------------ reasons */

static void utc_date(long long t, char out[32])
{
	long long days = t >= 0 ? t / 86400 : (t - 86399) / 86400;
	long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
	long long doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long y = yoe + era * 400,
		  doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long long mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1;
	long long m = mp < 10 ? mp + 3 : mp - 9;

	/* Howard Hinnant's civil_from_days */
	xsnprintf(out, 32, "%04lld-%02lld-%02lld", y + (m <= 2), m, d);
}

void billing_reason(const struct bill_volume *v, const struct bill_finding *f,
		    char *buf, size_t n)
{
	const struct vol_config *p = &f->prop;
	char part[96] = "", day[32];

	if (f->partial && f->cat != BILL_NOT_IN_INVENTORY)
		xsnprintf(part, sizeof(part),
			  " (billed %.0f h of the period: prorated)", v->hours);
	switch (f->status) {
	case BILL_NO_SIZE:
		xsnprintf(buf, n, "no storage rows: size unknown");
		return;
	case BILL_NO_PRICES:
		xsnprintf(buf, n, "no %s prices for region '%s'",
			  model_type_name(v->type), v->region);
		return;
	case BILL_OTHER_CURRENCY:
		xsnprintf(buf, n, "billed in %s, prices in %s: not compared",
			  v->currency,
			  f->price_currency ? f->price_currency : "?");
		return;
	default: break;
	}
	switch (f->cat) {
	case BILL_GP2_TO_GP3:
		xsnprintf(
		    buf, n,
		    "gp3 at %ld IOPS and %ld MiB/s is nowhere slower than gp2 of %ld GiB%s",
		    p->iops, p->throughput_mibps, f->cur.size_gib, part);
		break;
	case BILL_GP2_SIZED_FOR_IOPS:
		xsnprintf(
		    buf, n,
		    "gp3 at %ld IOPS and %ld MiB/s is nowhere slower; the size looks chosen for %ld IOPS, which a gp3 of %ld GiB carries: check used space%s",
		    p->iops, p->throughput_mibps, f->target_iops,
		    f->alt_size_gib, part);
		break;
	case BILL_IO1_TO_IO2:
		xsnprintf(
		    buf, n,
		    "io2 at the same %ld IOPS costs less (tiered IOPS price) and is more durable%s",
		    f->cur.iops, part);
		break;
	case BILL_IO1_TO_GP3:
		xsnprintf(
		    buf, n,
		    "gp3 at %ld IOPS and %ld MiB/s carries what io1 allows; not for Multi-Attach, latency single-digit ms instead of sub-ms%s",
		    p->iops, p->throughput_mibps, part);
		break;
	case BILL_NOT_IN_INVENTORY:
		utc_date(v->last_end, day);
		xsnprintf(
		    buf, n,
		    "billed until %s but not in the describe-volumes files: deleted since, or in an account or region not described",
		    day);
		break;
	default:
		xsnprintf(buf, n, "nothing to propose from billing alone%s",
			  part);
		break;
	}
}

/* ------------------------------------------------------------ totals */

const char *billing_tag(const struct bill_volume *v, const char *key)
{
	for (size_t i = 0; i < v->ntags; i++)
		if (!strcmp(v->tags[i].key, key))
			return v->tags[i].value;
	return NULL;
}

static const char *group_key(const struct bill_volume *v, enum bill_group g,
			     const char *tag_key)
{
	const char *s;

	switch (g) {
	case BILL_BY_ACCOUNT: return v->usage_account;
	case BILL_BY_PAYER: return v->payer_account;
	case BILL_BY_REGION: return v->region;
	case BILL_BY_TAG:
		s = tag_key ? billing_tag(v, tag_key) : NULL;
		return s ? s : "";
	default: return "";
	}
}

static int total_cmp(const void *a, const void *b)
{
	const struct bill_total *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->currency, y->currency);
}

static void total_add(struct bill_total *t, const struct bill_volume *v,
		      const struct bill_finding *f)
{
	t->volumes++;
	t->billed += v->billed_total;
	t->list += v->list_total;
	if (f->status != BILL_PRICED) {
		t->unpriced++;
		return;
	}
	t->findings[f->cat]++;
	t->cur_period += f->cur_period;
	t->save_period += f->save_period;
	t->save_billed_period += f->save_billed_period;
	t->save_per_month += f->save_per_month;
}

void billing_totals(const struct billing_data *d, const struct bill_finding *f,
		    enum bill_group g, const char *tag_key,
		    struct bill_total **out, size_t *n)
{
	struct strmap idx = STRMAP_INIT;
	struct bill_total *t = NULL;
	size_t nt = 0, at = 0;
	char *k;

	for (size_t i = 0; i < d->nvol; i++) {
		const struct bill_volume *v = d->vol[i];
		const char *key = group_key(v, g, tag_key);
		void *slot;

		k = xstrfmt("%s\x1f%s", key, v->currency);
		slot = strmap_get(&idx, k);
		if (!slot) {
			xgrow((void **)&t, &at, nt + 1, sizeof(*t));
			memset(&t[nt], 0, sizeof(*t));
			t[nt].key = key;
			t[nt].currency = v->currency;
			slot = (void *)(uintptr_t)(nt + 1);
			strmap_put(&idx, k, slot);
			nt++;
		}
		free(k);
		total_add(&t[(uintptr_t)slot - 1], v, &f[i]);
	}
	strmap_release(&idx);
	for (size_t i = 0; i < nt; i++) {
		t[i].billed = billing_money(t[i].billed);
		t[i].list = billing_money(t[i].list);
		t[i].cur_period = billing_money(t[i].cur_period);
		t[i].save_period = billing_money(t[i].save_period);
		t[i].save_billed_period =
		    billing_money(t[i].save_billed_period);
		t[i].save_per_month = billing_money(t[i].save_per_month);
	}
	if (nt)
		qsort(t, nt, sizeof(*t), total_cmp);
	*out = t;
	*n = nt;
}
