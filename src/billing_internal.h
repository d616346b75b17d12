/*
 * billing_internal.h - the tables both the C reader (billing_parse.c) and
 * the SQL generator (billing_sql.c) are built from, so that the two read
 * a billing row the same way: column names per format, which rows are EBS
 * volume usage, usage types (ebs-facts.md T10), units, charge descriptions
 * (FOCUS without x_UsageType), region prefixes (T9).  Defined in
 * billing_rules.c.  Not a public interface.
 */
#ifndef EBSIZE_BILLING_INTERNAL_H
#define EBSIZE_BILLING_INTERNAL_H

#include <stddef.h>

#include "ebsize/billing.h"

/* The columns a reader needs, per format (billing_columns). */
enum bill_col {
	BC_ID,	       /* resource id */
	BC_USAGE_TYPE, /* usage type (FOCUS: x_UsageType, optional) */
	BC_DESC,       /* line item / charge description */
	BC_UNIT,       /* pricing / consumed unit */
	BC_QTY,	       /* usage amount / consumed quantity */
	BC_START,      /* usage / charge period start */
	BC_END,
	BC_BILLED,  /* net unblended cost / BilledCost */
	BC_BILLED2, /* unblended cost: when the net one is empty */
	BC_LIST,    /* public on-demand cost / ListCost */
	BC_CURRENCY,
	BC_REGION,
	BC_PAYER,
	BC_ACCOUNT,
	BC_SERVICE,    /* product code / ServiceName */
	BC_CATEGORY,   /* line item type / ChargeCategory */
	BC_TAGS,       /* a JSON object (FOCUS, CUR 2.0) */
	BC_VOLUME_API, /* legacy product/volumeApiName (CUR 2.0: inside
			     the product map, not read: its usage types
			     name every type) */
	BC_COUNT
};

/* Column name of c in format f; NULL when the format has none. */
const char *billing_column(enum bill_format f, enum bill_col c);
/* 1 when a file of format f cannot be read without column c. */
int billing_column_required(enum bill_format f, enum bill_col c);
/* Legacy CUR: each tag is a column "resourceTags/<key>". */
#define BILL_CUR_TAG_PREFIX "resourceTags/"

/* The service and the charge kinds that are EBS volume usage. */
const char *billing_service(enum bill_format f);
extern const char *const billing_usage_kinds[]; /* NULL-terminated */
extern const char *const billing_focus_usage_kinds[];

/* Usage types after the region prefix ("EBS:VolumeUsage.gp2"), T10. */
struct bill_usage_rule {
	const char *suffix;
	enum bill_comp comp;
	enum vol_type type;
	int tier; /* io2 IOPS tier: 0, 1, 2 */
};
extern const struct bill_usage_rule billing_usage_rules[];
extern const size_t billing_nusage_rules;
/* Where the EBS part of a usage type starts, and snapshot usage types. */
#define BILL_EBS_MARK	   "EBS:"
#define BILL_SNAPSHOT_MARK "EBS:Snapshot"

/* Usage-type stems whose type may come from volumeApiName instead. */
struct bill_stem {
	const char *prefix; /* "EBS:VolumeUsage." */
	enum bill_comp comp;
};
extern const struct bill_stem billing_stems[];
extern const size_t billing_nstems;

/* Units as exports write them, with the factor to GiB-month, IOPS-month,
 * MiB/s-month or I/O requests. */
struct bill_unit_rule {
	const char *unit;
	enum bill_comp comp;
	double factor;
};
extern const struct bill_unit_rule billing_unit_rules[];
extern const size_t billing_nunit_rules;

/* Charge descriptions (lowercased), first match wins; the component then
 * comes from the unit. */
struct bill_desc_rule {
	const char *needle;
	int snapshot; /* a snapshot: not a volume */
	enum vol_type type;
	int tier;
};
extern const struct bill_desc_rule billing_desc_rules[];
extern const size_t billing_ndesc_rules;

/* Region prefixes of usage types (T9): "" is us-east-1. */
struct bill_prefix {
	const char *prefix;
	const char *region;
};
extern const struct bill_prefix billing_prefixes[];
extern const size_t billing_nprefixes;

/* Strings in exports that mean "no value". */
int billing_is_null(const char *s);
/* Lookups over the tables; NULL when nothing matches. */
const struct bill_usage_rule *billing_usage_rule(const char *suffix);
const struct bill_unit_rule *billing_unit_rule(const char *unit);
const struct bill_desc_rule *billing_desc_rule(const char *lower_desc);
const char *billing_prefix_region(const char *prefix, size_t len);

/* Rounding of money in findings and totals (to 1e-6). */
double billing_money(double v);
/* Tolerance of every cost comparison (C and SQL). */
#define BILL_COST_EPS 1e-9

#endif
