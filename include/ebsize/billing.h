/*
 * billing.h - EBS volumes from billing exports: FOCUS 1.0+ CSV, legacy CUR
 * CSV and CUR 2.0 CSV (plain or gzip), told apart by the header.
 *
 * Three layers, each usable alone:
 *   reading   billing_parser_* take bytes pushed in chunks (no I/O; what
 *             the fuzzer feeds) and add each row to a struct billing_data
 *             that aggregates per volume, so memory grows with the number
 *             of volumes, never with the file; billing_read_file and
 *             billing_scan_files read files (plain or .gz, zlib).
 *   rules     billing_analyze_volume: pure rules over one reconstructed
 *             volume and the prices in force in its region (model.c's
 *             gp2 -> gp3 equivalence, io1 -> io2 / gp3, gp2 sized for
 *             IOPS), then billing_totals per currency, account, region,
 *             tag.
 *   SQL       billing_sql: the same reconstruction and rules as one query
 *             for DuckDB or Athena, generated from the same tables
 *             (billing_rules.c) and the same model constants.
 *
 * Formats and what real exports look like: ../shared/formats.md, section
 * "Billing exports"; usage types and region prefixes: ebs-facts.md T9, T10.
 * Nothing here prints.  Money is in the export's currency (never added
 * across currencies); "GB" in GB-Mo is taken as GiB (T6).
 */
#ifndef EBSIZE_BILLING_H
#define EBSIZE_BILLING_H

#include <stddef.h>

#include "ebsize/model.h"
#include "ebsize/idset.h"
#include "ebsize/strmap.h"

enum bill_format {
	BILL_FMT_UNKNOWN,
	BILL_FMT_FOCUS, /* FOCUS 1.0+ (AWS Data Exports) */
	BILL_FMT_CUR,	/* legacy CUR: lineItem/UsageType ... */
	BILL_FMT_CUR2,	/* CUR 2.0: line_item_usage_type ... */
	BILL_FMT_COUNT
};

/* "focus", "cur", "cur2"; NULL out of range.  Parse: 0 or -1. */
const char *billing_format_name(enum bill_format f);
int billing_format_parse(const char *s, enum bill_format *out);

/* What a billing row pays for. */
enum bill_comp {
	BILL_STORAGE,	 /* GB-Mo */
	BILL_IOPS,	 /* IOPS-Mo (gp3 above 3,000; io1; io2 tiers) */
	BILL_THROUGHPUT, /* gp3 above 125 MiB/s (GiBps-mo) */
	BILL_IO,	 /* standard: I/O requests */
	BILL_COMP_COUNT
};
const char *billing_comp_name(enum bill_comp c);

/* Why a row was not used (counted per file; the first few are kept). */
enum bill_bad {
	BILL_BAD_FIELDS,   /* field count differs from the header's */
	BILL_BAD_NO_ID,	   /* no resource id (export without them?) */
	BILL_BAD_UNIT,	   /* unknown unit, or one the usage type rules out */
	BILL_BAD_NUMBER,   /* quantity not a number */
	BILL_BAD_NEGATIVE, /* negative quantity */
	BILL_BAD_DATE,	   /* usage start/end unreadable or not increasing */
	BILL_BAD_CURRENCY, /* a currency other than the file's first */
	BILL_BAD_COUNT
};
const char *billing_bad_name(enum bill_bad b);

/* Caps: one CSV record, one file's kept messages, tags per volume. */
#define BILL_MAX_RECORD		 ((size_t)1 << 20)
#define BILL_MAX_ISSUES_PER_FILE 20
#define BILL_MAX_TAGS		 64

struct bill_tag {
	const char *key;
	const char *value;
};

/*
 * One volume as its billing rows describe it, after billing_data_finish.
 * Strings are owned by the billing_data (interned); "" when unknown.
 */
struct bill_volume {
	const char *id;
	const char *usage_account;
	const char *payer_account;
	const char *region;	  /* region column, else usage-type prefix */
	const char *currency;	  /* the billing currency of its rows */
	enum vol_type type;	  /* of the latest storage row */
	int type_changed;	  /* storage rows of more than one type */
	int have_storage;	  /* storage rows seen (else no size) */
	double size_max_gib;	  /* largest GB-Mo x hours in month / hours */
	long size_gib;		  /* billing_round_units(size_max_gib) */
	double iops_extra_max[3]; /* per tier: largest IOPS-Mo rate */
	long iops;		  /* gp3: included + extra; io1/io2: sum */
	double mibps_extra_max;	  /* gp3: largest MiB/s above the baseline */
	long throughput_mibps;	  /* gp3: included + extra; else 0 */
	double hours;		  /* hours of storage rows */
	double months;		  /* sum of hours / hours of their month */
	double io_requests;	  /* standard: I/O requests */
	double billed[BILL_COMP_COUNT]; /* BilledCost / (net) unblended */
	double list[BILL_COMP_COUNT];	/* ListCost / publicOnDemandCost */
	double billed_total, list_total;
	long long first_start, last_end; /* epoch seconds, UTC */
	const struct bill_tag *tags;	 /* of the latest row carrying tags */
	size_t ntags;
	const char *file; /* where its first row is */
	size_t line;
};

/* Sizes and IOPS from billing rates: the nearest whole number when within
 * 0.01 of it (float noise), else rounded up (a partial hour). */
#define BILL_ROUND_TOL 0.01
long billing_round_units(double v);

/* One file read into the data. */
struct bill_file {
	char *name;
	enum bill_format format;
	const char *currency;	  /* the first row's; "" none yet */
	int have_id_column;	  /* 0: the export has no resource ids */
	unsigned long long bytes; /* CSV text read (after gunzip) */
	size_t rows;		  /* data rows */
	size_t volume_rows;	  /* EBS volume rows used */
	size_t snapshot_rows;	  /* EBS snapshot rows (ARN ids): skipped */
	size_t other_rows;	  /* not EBS volume usage: skipped */
	size_t bad[BILL_BAD_COUNT];
	char *error; /* the file-level error, NULL none */
};

/* A row that was not used, with its place. */
struct bill_issue {
	const char *file;
	size_t line;
	enum bill_bad kind;
	char *msg;
};

/*
 * Everything read so far, over any number of files.  After
 * billing_data_finish, vol[] is sorted by id and period_* hold the span
 * of all volume rows.  Free with billing_data_free.
 */
struct billing_data {
	struct bill_volume **vol;
	size_t nvol, avol;
	long long period_start, period_end; /* epoch seconds; 0 no rows */
	struct bill_file *files;
	size_t nfiles, afiles;
	struct bill_issue *issues;
	size_t nissues, aissues;
	/* internal */
	struct strmap by_id;   /* id -> volume */
	struct strmap strings; /* interned strings */
	struct strmap tagsets; /* tag cell -> parsed tags */
	int finished;
};

struct billing_data *billing_data_new(void);
void billing_data_free(struct billing_data *d);
/* Sort volumes, settle sizes and IOPS from the rates seen (gp3 included
 * values from lim).  Idempotent; call before reading results. */
void billing_data_finish(struct billing_data *d,
			 const struct volume_limits lim[VT_COUNT]);
/* Period hours (period_end - period_start) / 3600. */
double billing_period_hours(const struct billing_data *d);
/* The volume with this id, or NULL. */
const struct bill_volume *billing_find(const struct billing_data *d,
				       const char *id);
/* Total bad rows of one kind over all files. */
size_t billing_bad_total(const struct billing_data *d, enum bill_bad b);

/*
 * How to get resource ids into an export of format f (one sentence for
 * the message that an export lacks them).
 */
const char *billing_resource_id_hint(enum bill_format f);

/* ------------------------------------------------------------ reading */

struct billing_parser;

/*
 * A push parser for one file named name (for messages) adding to d.
 * Feed any chunks; finish at the end.  A file-level failure (no known
 * header, a required column missing, an unterminated quote, a record over
 * BILL_MAX_RECORD) is EBS_ERR_PARSE / EBS_ERR_TOO_BIG with err naming the
 * file and line; rows read before it stay in d, and the file's error is
 * kept in its struct bill_file.  Bad rows are never an error: they are
 * counted in the file's struct bill_file and listed in d->issues.
 */
struct billing_parser *billing_parser_new(struct billing_data *d,
					  const char *name);
int billing_parser_feed(struct billing_parser *p, const void *buf, size_t len,
			char *err);
int billing_parser_finish(struct billing_parser *p, char *err);
void billing_parser_free(struct billing_parser *p);

/*
 * The format whose header starts buf (plain text: the first line is
 * enough), BILL_FMT_UNKNOWN for anything else (JSON, another CSV).
 */
enum bill_format billing_detect(const void *buf, size_t len);

/*
 * The same for a file, plain or gzip (the first 64 KiB of its text):
 * EBS_OK with *fmt set (UNKNOWN: not a billing export), or EBS_ERR_IO.
 * For `ebsize scan` to tell billing files from the other inputs.
 */
int billing_sniff_file(const char *path, enum bill_format *fmt, char *err);

/* Parse a whole buffer (feed + finish). */
int billing_parse_buffer(struct billing_data *d, const char *name,
			 const void *buf, size_t len, char *err);

/*
 * Read one file (plain or gzip, told by its bytes; "-" is stdin) into d,
 * streaming.  EBS_ERR_IO when it cannot be read, else as the parser.
 */
int billing_read_file(struct billing_data *d, const char *path, char *err);

/* ------------------------------------------------------------ rules */

enum bill_cat {
	BILL_NONE,		 /* nothing to propose */
	BILL_GP2_TO_GP3,	 /* in place, nowhere slower */
	BILL_GP2_SIZED_FOR_IOPS, /* gp3 in place; size looks bought for IOPS */
	BILL_IO1_TO_IO2,	 /* same IOPS, tiered price */
	BILL_IO1_TO_GP3,	 /* gp3 carries the IOPS and MiB/s */
	BILL_NOT_IN_INVENTORY,	 /* billed, absent from describe-volumes */
	BILL_CAT_COUNT
};
/* "gp2_to_gp3", ...; "" for BILL_NONE (the JSON value). */
const char *billing_cat_name(enum bill_cat c);

enum bill_status {
	BILL_PRICED,	     /* current and proposed figures valid */
	BILL_NO_SIZE,	     /* no storage rows: size unknown */
	BILL_NO_PRICES,	     /* no (complete) prices for the region */
	BILL_OTHER_CURRENCY, /* prices in another currency than the bill */
	BILL_STATUS_COUNT
};
const char *billing_status_name(enum bill_status s);

/*
 * Prices in force for one region: the price set and its currency
 * ("USD", "CNY").  Returns 0 with *ps and *currency set (valid until the
 * analysis ends), 1 when the region has no prices, -1 on an error (err
 * filled; the analysis stops).
 */
typedef int (*billing_prices_fn)(const char *region,
				 const struct price_set **ps,
				 const char **currency, void *arg, char *err);

struct bill_finding {
	enum bill_cat cat;
	enum bill_status status;
	int in_inventory;	/* -1 no describe-volumes given, 0 absent, 1 */
	int partial;		/* present for part of the period */
	struct vol_config cur;	/* as billed */
	struct vol_config prop; /* proposal (cat not NONE/NOT_IN_INVENTORY) */
	const char *price_currency;
	/* at the prices in force, full month */
	double cur_per_month;
	double prop_per_month;
	double save_per_month; /* > 0 with a proposal, else 0 */
	/* over the period: x months present (prorated) */
	double cur_period;
	double save_period;
	double discount;	   /* billed / list of the export; 1 none */
	double save_billed_period; /* save_period x discount */
	long target_iops;	   /* gp2 size looks chosen for it; 0 no */
	long alt_size_gib;	   /* gp3 size carrying target_iops */
};

/*
 * The rules for one volume (pure).  ps/currency: the prices in force in
 * its region (ps NULL: none); period_hours: for `partial`; in_inventory:
 * -1 when no describe-volumes set was given.  Money is rounded to 1e-6.
 */
void billing_analyze_volume(const struct bill_volume *v,
			    const struct price_set *ps, const char *currency,
			    const struct volume_limits lim[VT_COUNT],
			    double period_hours, int in_inventory,
			    struct bill_finding *f);

/* Why: one line explaining f, into buf. */
void billing_reason(const struct bill_volume *v, const struct bill_finding *f,
		    char *buf, size_t n);

enum bill_group {
	BILL_BY_CURRENCY,
	BILL_BY_ACCOUNT, /* usage account */
	BILL_BY_PAYER,
	BILL_BY_REGION,
	BILL_BY_TAG, /* the value of one tag key ("" untagged) */
	BILL_GROUP_COUNT
};

struct bill_total {
	const char *key; /* group value (not owned) */
	const char *currency;
	size_t volumes;
	size_t findings[BILL_CAT_COUNT];
	size_t unpriced;
	double billed;	   /* from the export */
	double list;	   /* from the export */
	double cur_period; /* at the prices in force */
	double save_period;
	double save_billed_period;
	double save_per_month;
};

/*
 * Totals of the analysed volumes (f parallel to d->vol) per (group value,
 * currency), sorted by key then currency; never adds currencies.  *out is
 * a heap array the caller frees.  tag_key is used with BILL_BY_TAG.
 */
void billing_totals(const struct billing_data *d, const struct bill_finding *f,
		    enum bill_group g, const char *tag_key,
		    struct bill_total **out, size_t *n);

/* The value of tag key on v (case-sensitive), NULL when untagged. */
const char *billing_tag(const struct bill_volume *v, const char *key);

/* ------------------------------------------------------------ one call */

/*
 * What `ebsize scan` needs from billing files: read them all (plain or
 * gzip, any mix of formats), analyse every volume with the prices fn
 * gives for its region, and mark volumes absent from known_ids (the ids
 * of describe-volumes files given alongside; NULL: not given).
 */
struct billing_result {
	struct billing_data *data;
	struct bill_finding *f; /* parallel to data->vol */
	size_t files_failed;
};

/*
 * Returns EBS_OK when every file was read, else the first file's error
 * (err names it) with everything readable still in *out; an error from
 * prices stops the analysis.  Release *out with billing_result_release.
 */
int billing_scan_files(const char *const *paths, size_t n,
		       billing_prices_fn prices, void *arg,
		       const struct volume_limits lim[VT_COUNT],
		       const struct idset *known_ids,
		       struct billing_result *out, char *err);

/*
 * Analyse an already-read d into *out, which is overwritten (out->data = d,
 * owned by out from then, also on error).  An error of prices stops it
 * (its err).
 */
int billing_analyze(struct billing_data *d, billing_prices_fn prices, void *arg,
		    const struct volume_limits lim[VT_COUNT],
		    const struct idset *known_ids, struct billing_result *out,
		    char *err);

void billing_result_release(struct billing_result *r);

/* ------------------------------------------------------------ SQL */

enum bill_dialect { BILL_SQL_DUCKDB, BILL_SQL_ATHENA };

/* One region's prices, as billing_sql embeds them. */
struct bill_sql_prices {
	const struct price_set *ps;
	const char *currency;
};

struct bill_sql_opts {
	enum bill_dialect dialect;
	enum bill_format schema; /* FOCUS, CUR or CUR2 */
	const char *table;	 /* FROM target; NULL: a default name */
	const char *version;	 /* ebsize version for the header; NULL ok */
};

/*
 * One self-contained, commented query computing per volume the
 * reconstruction and the findings above (without the describe-volumes
 * join), prices embedded as a VALUES table.  A heap string the caller
 * frees; NULL with err set for a bad option (an unsafe table name).
 */
char *billing_sql(const struct bill_sql_opts *o,
		  const struct bill_sql_prices *prices, size_t nprices,
		  const struct volume_limits lim[VT_COUNT], char *err);

/* 1 when s may be pasted as a table name (identifiers, dots, quotes). */
int billing_sql_table_ok(const char *s);

#endif
