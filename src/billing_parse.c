/*
 * billing_parse.c - billing exports (FOCUS, legacy CUR, CUR 2.0 CSV) to
 * per-volume aggregates, row by row.
 *
 * Bytes come in through a push interface (billing_parser_feed) and go
 * through csv_stream, which holds one record at a time; each EBS volume
 * row updates its volume's running figures (largest hourly rate per
 * component, hours, costs), so memory grows with the number of volumes
 * and distinct tag sets, never with the file.  Which rows count and what
 * they mean comes from the tables of billing_rules.c, shared with the SQL
 * generator.  cJSON reads the JSON tag cells (FOCUS Tags, CUR 2.0
 * resource_tags), once per distinct cell.
 *
 * Does not read files (billing_read.c does), price anything or print.
 */
#include "billing_internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/csv.h"
#include "ebsize/err.h"
#include "ebsize/util.h"

/* Distinct charge descriptions remembered per file (then looked up). */
#define BILL_DESC_CACHE 4096

/* A volume while rows come in; vol[] points at .v. */
struct vol_acc {
	struct bill_volume v; /* first: the public part */
	long long type_key;   /* latest storage row: hour x 8 + type */
	long long any_key;    /* latest row of any component */
	enum vol_type any_type;
	int storage_types;    /* bit per type seen on storage rows */
	long long tags_key;   /* hour of the row the tags came from */
	const char *tags_raw; /* interned cell they were parsed from */
};

/* A parsed tag cell, shared by every volume with the same cell. */
struct tagset {
	struct bill_tag *t;
	size_t n;
};

struct billing_parser {
	struct billing_data *d;
	size_t fi; /* index of its struct bill_file */
	struct csv_stream cs;
	int have_header;
	enum bill_format fmt;
	int col[BC_COUNT]; /* field index, -1 absent */
	size_t nfields;
	size_t *tag_cols; /* legacy CUR resourceTags/ columns */
	char **tag_keys;
	size_t ntag_cols;
	struct sbuf scratch;	  /* lowercased description, tag text */
	struct strmap desc_cache; /* description -> rule (or "none") */
	size_t issues;		  /* kept for this file */
	char err[EBS_ERRLEN];
};

/* ------------------------------------------------------------ data */

struct billing_data *billing_data_new(void)
{
	struct billing_data *d = xcalloc(1, sizeof(*d));

	return d;
}

static void free_string(const char *key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

static void free_tagset(const char *key, void *val, void *arg)
{
	struct tagset *ts = val;

	(void)key;
	(void)arg;
	free(ts->t);
	free(ts);
}

void billing_data_free(struct billing_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nvol; i++) {
		free((char *)(uintptr_t)d->vol[i]->id);
		free(d->vol[i]);
	}
	free(d->vol);
	for (size_t i = 0; i < d->nfiles; i++) {
		free(d->files[i].name);
		free(d->files[i].error);
	}
	free(d->files);
	for (size_t i = 0; i < d->nissues; i++)
		free(d->issues[i].msg);
	free(d->issues);
	strmap_release(&d->by_id);
	strmap_each(&d->strings, free_string, NULL);
	strmap_release(&d->strings);
	strmap_each(&d->tagsets, free_tagset, NULL);
	strmap_release(&d->tagsets);
	free(d);
}

/* The one copy of s kept by d (regions, accounts, tag text...). */
static const char *intern(struct billing_data *d, const char *s)
{
	char *v = strmap_get(&d->strings, s);

	if (v)
		return v;
	v = xstrdup(s);
	strmap_put(&d->strings, s, v);
	return v;
}

static int vol_cmp(const void *a, const void *b)
{
	const struct bill_volume *x = *(struct bill_volume *const *)a;
	const struct bill_volume *y = *(struct bill_volume *const *)b;

	return strcmp(x->id, y->id);
}

/* Size, IOPS and MiB/s of one volume from the largest rates seen. */
static void settle_volume(struct bill_volume *v, double period_hours,
			  const struct volume_limits lim[VT_COUNT])
{
	double extra =
	    v->iops_extra_max[0] + v->iops_extra_max[1] + v->iops_extra_max[2];

	v->size_gib = billing_round_units(v->size_max_gib);
	v->iops = 0;
	v->throughput_mibps = 0;
	if (v->type == VT_GP3) {
		/* T3: rows bill only above the included 3,000 / 125 */
		v->iops =
		    lim[VT_GP3].included_iops + billing_round_units(extra);
		v->throughput_mibps = (long)lim[VT_GP3].included_mibps +
				      billing_round_units(v->mibps_extra_max);
	} else if (model_type_needs_iops(v->type)) {
		/* io2 tiers are separate rows: each tier's rate peaks at the
		 * hour the total does, so the sum of the maxima is the max */
		v->iops = billing_round_units(extra);
	}
	/* the same hour twice (a file given twice): never more than the
	 * period */
	if (period_hours > 0 && v->hours > period_hours) {
		v->months *= period_hours / v->hours;
		v->hours = period_hours;
	}
	v->billed_total = v->list_total = 0;
	for (int c = 0; c < BILL_COMP_COUNT; c++) {
		v->billed_total += v->billed[c];
		v->list_total += v->list[c];
	}
}

void billing_data_finish(struct billing_data *d,
			 const struct volume_limits lim[VT_COUNT])
{
	double ph = billing_period_hours(d);

	if (!d->finished && d->nvol)
		qsort(d->vol, d->nvol, sizeof(*d->vol), vol_cmp);
	for (size_t i = 0; i < d->nvol; i++)
		settle_volume(d->vol[i], ph, lim);
	d->finished = 1;
}

double billing_period_hours(const struct billing_data *d)
{
	return d->period_end > d->period_start
		   ? (double)(d->period_end - d->period_start) / 3600.0
		   : 0.0;
}

const struct bill_volume *billing_find(const struct billing_data *d,
				       const char *id)
{
	return strmap_get(&d->by_id, id);
}

size_t billing_bad_total(const struct billing_data *d, enum bill_bad b)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nfiles; i++)
		n += d->files[i].bad[b];
	return n;
}

/* ------------------------------------------------------------ values */

static int digits(const char *s, int n, long *out)
{
	long v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/*
 * "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS[.fff]]" or with 'T', optionally
 * ending in "Z" or "+00:00" (exports are UTC; another offset is refused).
 * Epoch seconds and the hours of the month it falls in.
 */
static int parse_time(const char *s, long long *t, double *month_hours)
{
	long y, mo, d, h = 0, mi = 0, sec = 0;
	const char *p = s + 10;

	if (strlen(s) < 10 || digits(s, 4, &y) || s[4] != '-' ||
	    digits(s + 5, 2, &mo) || s[7] != '-' || digits(s + 8, 2, &d) ||
	    mo < 1 || mo > 12 || d < 1 ||
	    d > (long)civil_month_days(y, (unsigned)mo))
		return -1;
	if (*p == 'T' || *p == ' ') {
		if (digits(p + 1, 2, &h) || p[3] != ':' ||
		    digits(p + 4, 2, &mi))
			return -1;
		p += 6;
		if (*p == ':') {
			if (digits(p + 1, 2, &sec))
				return -1;
			p += 3;
			if (*p == '.') {
				for (p++; isdigit((unsigned char)*p); p++)
					;
			}
		}
		if (h > 23 || mi > 59 || sec > 60)
			return -1;
	}
	if (*p == 'Z')
		p++;
	else if (!strcmp(p, "+00:00") || !strcmp(p, "+0000"))
		p += strlen(p);
	if (*p)
		return -1;
	*t = civil_days(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 +
	     mi * 60 + sec;
	*month_hours = 24.0 * civil_month_days(y, (unsigned)mo);
	return 0;
}

/*
 * parse_double's contract (decimal only: no space, hex, inf or nan; the
 * whole cell; finite) with a table instead of strchr per character: three
 * numbers a row, millions of rows.
 */
static int number(const char *s, double *out)
{
	static const unsigned char ok[256] = {
		['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
		['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
		['+'] = 1, ['-'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
	};
	const unsigned char *p = (const unsigned char *)s;
	char *end;
	double v;

	if (!*p)
		return -1;
	for (; *p; p++)
		if (!ok[*p])
			return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* A cost cell: a number, else 0 (empty, "NULL"). */
static double cost_of(const char *s)
{
	double v;

	return billing_is_null(s) || number(s, &v) ? 0.0 : v;
}

/* ------------------------------------------------------------ issues */

/*
 * Count a bad row in its file, and keep its message while the file has
 * kept fewer than BILL_MAX_ISSUES_PER_FILE.
 */
static void bad_row(struct billing_parser *p, size_t line, enum bill_bad kind,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void bad_row(struct billing_parser *p, size_t line, enum bill_bad kind,
		    const char *fmt, ...)
{
	struct billing_data *d = p->d;
	struct bill_file *f = &d->files[p->fi];
	struct bill_issue *is;
	va_list ap;

	f->bad[kind]++;
	if (p->issues >= BILL_MAX_ISSUES_PER_FILE)
		return;
	p->issues++;
	xgrow((void **)&d->issues, &d->aissues, d->nissues + 1,
	      sizeof(*d->issues));
	is = &d->issues[d->nissues++];
	is->file = f->name;
	is->line = line;
	is->kind = kind;
	va_start(ap, fmt);
	is->msg = xvstrfmt(fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ header */

static enum bill_format detect(char **fields, size_t n)
{
	int period = 0, billed = 0, cur = 0, cur2 = 0;

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(fields[i], "lineItem/UsageType"))
			cur = 1;
		else if (!strcmp(fields[i], "line_item_usage_type"))
			cur2 = 1;
		else if (!strcmp(fields[i], "ChargePeriodStart"))
			period = 1;
		else if (!strcmp(fields[i], "BilledCost"))
			billed = 1;
	}
	if (cur)
		return BILL_FMT_CUR;
	if (cur2)
		return BILL_FMT_CUR2;
	return period && billed ? BILL_FMT_FOCUS : BILL_FMT_UNKNOWN;
}

enum bill_format billing_detect(const void *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);
	enum bill_format fmt = BILL_FMT_UNKNOWN;
	struct csv_reader r;
	char **f;
	size_t n;

	/* the header line only: it holds no quoted newline */
	csv_init(&r, buf, nl ? (size_t)(nl - (const char *)buf) : len);
	if (csv_next(&r, &f, &n) == 1)
		fmt = detect(f, n);
	csv_release(&r);
	return fmt;
}

static int header(struct billing_parser *p, char **fields, size_t n,
		  size_t line)
{
	struct bill_file *f = &p->d->files[p->fi];
	const char *name;

	p->fmt = detect(fields, n);
	f->format = p->fmt;
	if (p->fmt == BILL_FMT_UNKNOWN)
		return ebs_fail(
		    p->err, EBS_ERR_PARSE,
		    "cannot read '%s': line %zu: not a FOCUS, CUR or CUR 2.0 export (no \"ChargePeriodStart\", \"lineItem/UsageType\" or \"line_item_usage_type\" column)",
		    f->name, line);
	p->nfields = n;
	for (int c = 0; c < BC_COUNT; c++) {
		p->col[c] = -1;
		name = billing_column(p->fmt, (enum bill_col)c);
		for (size_t i = 0; name && i < n; i++) {
			if (!strcmp(fields[i], name)) {
				p->col[c] = (int)i;
				break;
			}
		}
	}
	for (int c = 0; c < BC_COUNT; c++) {
		name = billing_column(p->fmt, (enum bill_col)c);
		if (p->col[c] < 0 &&
		    billing_column_required(p->fmt, (enum bill_col)c))
			return ebs_fail(
			    p->err, EBS_ERR_PARSE,
			    "cannot read '%s': line %zu: %s export without a \"%s\" column",
			    f->name, line, billing_format_name(p->fmt), name);
	}
	f->have_id_column = p->col[BC_ID] >= 0;
	if (p->fmt == BILL_FMT_CUR) {
		size_t plen = strlen(BILL_CUR_TAG_PREFIX);

		for (size_t i = 0; i < n; i++) {
			if (strncmp(fields[i], BILL_CUR_TAG_PREFIX, plen) ||
			    !fields[i][plen])
				continue;
			p->tag_cols =
			    xrealloc(p->tag_cols,
				     (p->ntag_cols + 1) * sizeof(*p->tag_cols));
			p->tag_keys =
			    xrealloc(p->tag_keys,
				     (p->ntag_cols + 1) * sizeof(*p->tag_keys));
			p->tag_cols[p->ntag_cols] = i;
			/* "user:Name" is the user tag "Name" */
			name = fields[i] + plen;
			if (!strncmp(name, "user:", 5))
				name += 5;
			p->tag_keys[p->ntag_cols++] = xstrdup(name);
		}
	}
	p->have_header = 1;
	return 0;
}

/* ------------------------------------------------------------ rows */

/* The cell of column c, NULL when the file has no such column. */
static const char *cell(const struct billing_parser *p, char **fields,
			enum bill_col c)
{
	return p->col[c] >= 0 ? fields[p->col[c]] : NULL;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

/* What one row is about, before it touches a volume. */
struct row {
	enum bill_comp comp;
	enum vol_type type;
	int tier;
	const char *region; /* NULL: from the usage-type prefix failed */
};

enum { ROW_USE, ROW_SKIP, ROW_SNAPSHOT };

/*
 * Classify a row by its usage type (T10): the part from "EBS:" on names
 * component, type and tier; the part before it the region (T9).
 */
static int by_usage_type(const struct billing_parser *p, char **fields,
			 const char *ut, struct row *r)
{
	const char *ebs = strstr(ut, BILL_EBS_MARK);
	const struct bill_usage_rule *u;
	size_t plen;

	if (!ebs)
		return ROW_SKIP;
	if (!strncmp(ebs, BILL_SNAPSHOT_MARK, strlen(BILL_SNAPSHOT_MARK)))
		return ROW_SNAPSHOT;
	plen = (size_t)(ebs - ut);
	if (plen && ut[plen - 1] == '-')
		plen--;
	r->region = billing_prefix_region(ut, plen);
	if ((u = billing_usage_rule(ebs))) {
		r->comp = u->comp;
		r->type = u->type;
		r->tier = u->tier;
		return ROW_USE;
	}
	for (size_t i = 0; i < billing_nstems; i++) {
		const char *api = cell(p, fields, BC_VOLUME_API);
		size_t sl = strlen(billing_stems[i].prefix);

		if (strncmp(ebs, billing_stems[i].prefix, sl))
			continue;
		if (api && !model_type_parse(api, &r->type)) {
			r->comp = billing_stems[i].comp;
			r->tier = 0;
			return ROW_USE;
		}
	}
	return ROW_SKIP;
}

/*
 * The description rule of desc (lowercased, first match), remembered per
 * distinct description: an export has few, repeated on every row.
 */
static const struct bill_desc_rule *desc_rule(struct billing_parser *p,
					      const char *desc)
{
	static const char none; /* cached "no rule" */
	const struct bill_desc_rule *dr = strmap_get(&p->desc_cache, desc);
	size_t n = strlen(desc);

	if (dr)
		return (const void *)dr == (const void *)&none ? NULL : dr;
	sbuf_reset(&p->scratch);
	if (sbuf_add(&p->scratch, desc, n))
		return NULL;
	for (size_t i = 0; i < n; i++)
		p->scratch.buf[i] =
		    (char)tolower((unsigned char)p->scratch.buf[i]);
	dr = billing_desc_rule(p->scratch.buf);
	if (p->desc_cache.n < BILL_DESC_CACHE)
		strmap_put(&p->desc_cache, desc,
			   dr ? (void *)(uintptr_t)dr
			      : (void *)(uintptr_t)&none);
	return dr;
}

/* Classify a FOCUS row without x_UsageType by its ChargeDescription. */
static int by_description(struct billing_parser *p, const char *desc,
			  const struct bill_unit_rule *unit, struct row *r)
{
	const struct bill_desc_rule *dr = desc_rule(p, desc);

	if (!dr)
		return ROW_SKIP;
	if (dr->snapshot)
		return ROW_SNAPSHOT;
	r->type = dr->type;
	r->tier = dr->tier;
	/* an unknown unit is counted by check_row */
	r->comp = unit ? unit->comp : BILL_COMP_COUNT;
	r->region = NULL;
	return ROW_USE;
}

/* Tags of a JSON object cell: string values only (others skipped). */
static struct tagset *parse_json_tags(struct billing_data *d, const char *raw)
{
	struct tagset *ts = xcalloc(1, sizeof(*ts));
	cJSON *o = cJSON_Parse(raw), *it;

	if (cJSON_IsObject(o)) {
		cJSON_ArrayForEach(it, o)
		{
			if (!cJSON_IsString(it) || !it->string ||
			    ts->n >= BILL_MAX_TAGS)
				continue;
			ts->t = xrealloc(ts->t, (ts->n + 1) * sizeof(*ts->t));
			ts->t[ts->n].key = intern(d, it->string);
			ts->t[ts->n].value = intern(d, it->valuestring);
			ts->n++;
		}
	}
	cJSON_Delete(o);
	return ts;
}

/* Tags of the legacy text "key\x1fvalue\x1e..." built by cur_tags. */
static struct tagset *parse_text_tags(struct billing_data *d, const char *raw)
{
	struct tagset *ts = xcalloc(1, sizeof(*ts));
	char *copy = xstrdup(raw), *rec = copy, *next, *sep;

	for (; *rec && ts->n < BILL_MAX_TAGS; rec = next) {
		next = strchr(rec, '\x1e');
		if (next)
			*next++ = '\0';
		else
			next = rec + strlen(rec);
		if (!(sep = strchr(rec, '\x1f')))
			continue;
		*sep = '\0';
		ts->t = xrealloc(ts->t, (ts->n + 1) * sizeof(*ts->t));
		ts->t[ts->n].key = intern(d, rec);
		ts->t[ts->n].value = intern(d, sep + 1);
		ts->n++;
	}
	free(copy);
	return ts;
}

/* Legacy CUR: the non-empty resourceTags/ cells as one text. */
static const char *cur_tags(struct billing_parser *p, char **fields)
{
	sbuf_reset(&p->scratch);
	for (size_t i = 0; i < p->ntag_cols; i++) {
		const char *v = fields[p->tag_cols[i]];

		if (!*v)
			continue;
		if (sbuf_addf(&p->scratch, "%s\x1f%s\x1e", p->tag_keys[i], v))
			break;
	}
	return p->scratch.buf ? p->scratch.buf : "";
}

/* Point v at the tags of this row when it is its latest so far. */
static void update_tags(struct billing_parser *p, struct vol_acc *a,
			char **fields, long long key)
{
	struct billing_data *d = p->d;
	const char *raw, *in;
	struct tagset *ts;

	if (key < a->tags_key)
		return;
	if (p->fmt == BILL_FMT_CUR)
		raw = cur_tags(p, fields);
	else
		raw = cell(p, fields, BC_TAGS);
	if (billing_is_null(raw))
		raw = "";
	a->tags_key = key;
	if (a->tags_raw && !strcmp(a->tags_raw, raw))
		return;
	in = intern(d, raw);
	a->tags_raw = in;
	if (!(ts = strmap_get(&d->tagsets, in))) {
		ts = p->fmt == BILL_FMT_CUR ? parse_text_tags(d, in)
		     : *in		    ? parse_json_tags(d, in)
					    : xcalloc(1, sizeof(*ts));
		strmap_put(&d->tagsets, in, ts);
	}
	a->v.tags = ts->t;
	a->v.ntags = ts->n;
}

static struct vol_acc *volume(struct billing_parser *p, const char *id,
			      char **fields, const char *region,
			      const char *currency, size_t line)
{
	struct billing_data *d = p->d;
	struct vol_acc *a = strmap_get(&d->by_id, id);
	const char *s;

	if (a) {
		/* SQL takes the smallest non-empty value: the same as long
		 * as a volume has one region, as volumes do */
		if (!*a->v.region && region && *region)
			a->v.region = intern(d, region);
		return a;
	}
	a = xcalloc(1, sizeof(*a));
	a->type_key = a->any_key = a->tags_key = -1;
	a->v.id = xstrdup(id); /* one per volume: not worth interning */
	s = cell(p, fields, BC_ACCOUNT);
	a->v.usage_account = intern(d, billing_is_null(s) ? "" : s);
	s = cell(p, fields, BC_PAYER);
	a->v.payer_account = intern(d, billing_is_null(s) ? "" : s);
	a->v.region = intern(d, region ? region : "");
	a->v.currency = intern(d, currency);
	a->v.file = d->files[p->fi].name;
	a->v.line = line;
	a->v.first_start = INT64_MAX;
	a->v.last_end = INT64_MIN;
	strmap_put(&d->by_id, id, a);
	xgrow((void **)&d->vol, &d->avol, d->nvol + 1, sizeof(*d->vol));
	d->vol[d->nvol++] = &a->v;
	d->finished = 0;
	return a;
}

/* The running figures of a volume, from one usable row. */
static void add_row(struct vol_acc *a, const struct row *r, double rate,
		    double qty, double row_hours, double month_hours,
		    long long start, long long end)
{
	struct bill_volume *v = &a->v;
	long long key = (start / 3600) * 8 + (long long)r->type;

	if (key > a->any_key) {
		a->any_key = key;
		a->any_type = r->type;
		if (a->type_key < 0)
			v->type = r->type;
	}
	switch (r->comp) {
	case BILL_STORAGE:
		if (rate > v->size_max_gib)
			v->size_max_gib = rate;
		if (qty > 0) {
			v->hours += row_hours;
			v->months += row_hours / month_hours;
		}
		a->storage_types |= 1 << r->type;
		v->type_changed =
		    (a->storage_types & (a->storage_types - 1)) != 0;
		v->have_storage = 1;
		if (key > a->type_key) {
			a->type_key = key;
			v->type = r->type;
		}
		break;
	case BILL_IOPS:
		if (rate > v->iops_extra_max[r->tier])
			v->iops_extra_max[r->tier] = rate;
		break;
	case BILL_THROUGHPUT:
		if (rate > v->mibps_extra_max)
			v->mibps_extra_max = rate;
		break;
	case BILL_IO: v->io_requests += qty; break;
	default: break;
	}
	if (start < v->first_start)
		v->first_start = start;
	if (end > v->last_end)
		v->last_end = end;
}

/* Is this row EBS volume usage of the file's service?  (no: skip) */
static int is_usage(const struct billing_parser *p, char **fields)
{
	const char *svc = cell(p, fields, BC_SERVICE);
	const char *cat = cell(p, fields, BC_CATEGORY);

	if (strcmp(svc, billing_service(p->fmt)))
		return 0;
	return in_list(cat, p->fmt == BILL_FMT_FOCUS ? billing_focus_usage_kinds
						     : billing_usage_kinds);
}

/* Classify: by usage type when there is one, else by description. */
static int classify(struct billing_parser *p, char **fields,
		    const struct bill_unit_rule *unit, struct row *r)
{
	const char *ut = cell(p, fields, BC_USAGE_TYPE);
	const char *desc = cell(p, fields, BC_DESC);

	if (!billing_is_null(ut))
		return by_usage_type(p, fields, ut, r);
	if (p->fmt == BILL_FMT_FOCUS && desc)
		return by_description(p, desc, unit, r);
	return ROW_SKIP;
}

/*
 * Everything a row must pass before it counts (the same tests, in the
 * same order, as the WHERE clauses of billing_sql).  Returns 0 with the
 * numbers set, or 1 after counting it as bad.
 */
struct nums {
	double qty, row_hours, month_hours;
	long long start, end;
};

static int check_row(struct billing_parser *p, char **fields, size_t line,
		     const struct row *r, const struct bill_unit_rule *unit,
		     const char *unit_s, struct nums *x)
{
	const char *q = cell(p, fields, BC_QTY);
	double mh_end;

	if (!unit || unit->comp != r->comp) {
		bad_row(p, line, BILL_BAD_UNIT,
			unit ? "unit \"%s\" does not fit an EBS %s row"
			     : "unknown unit \"%s\" on an EBS %s row",
			unit_s,
			r->comp < BILL_COMP_COUNT ? billing_comp_name(r->comp)
						  : "volume");
		return 1;
	}
	if (number(q, &x->qty)) {
		bad_row(p, line, BILL_BAD_NUMBER,
			"quantity \"%s\" is not a number", q);
		return 1;
	}
	if (x->qty < 0) {
		bad_row(p, line, BILL_BAD_NEGATIVE, "negative quantity %s", q);
		return 1;
	}
	if (parse_time(cell(p, fields, BC_START), &x->start, &x->month_hours) ||
	    parse_time(cell(p, fields, BC_END), &x->end, &mh_end) ||
	    x->end <= x->start) {
		bad_row(p, line, BILL_BAD_DATE,
			"usage period \"%s\" to \"%s\" unreadable or empty",
			cell(p, fields, BC_START), cell(p, fields, BC_END));
		return 1;
	}
	x->row_hours = (double)(x->end - x->start) / 3600.0;
	return 0;
}

static int row(struct billing_parser *p, char **fields, size_t n, size_t line)
{
	struct billing_data *d = p->d;
	struct bill_file *f = &d->files[p->fi];
	const char *unit_s, *id, *cur, *reg, *b;
	const struct bill_unit_rule *unit;
	struct row r = { 0 };
	struct nums x;
	struct vol_acc *a;
	double rate;
	int k;

	f->rows++;
	if (n != p->nfields) {
		bad_row(p, line, BILL_BAD_FIELDS,
			"%zu fields, the header has %zu", n, p->nfields);
		return 0;
	}
	if (!is_usage(p, fields)) {
		f->other_rows++;
		return 0;
	}
	unit_s = cell(p, fields, BC_UNIT);
	unit = billing_unit_rule(unit_s);
	k = classify(p, fields, unit, &r);
	id = cell(p, fields, BC_ID);
	if (k == ROW_USE && id && !strncmp(id, "arn:", 4))
		k = ROW_SNAPSHOT; /* snapshots carry ARNs, volumes ids */
	if (k != ROW_USE) {
		if (k == ROW_SNAPSHOT)
			f->snapshot_rows++;
		else
			f->other_rows++;
		return 0;
	}
	if (billing_is_null(id)) {
		bad_row(p, line, BILL_BAD_NO_ID,
			"EBS %s row without a resource id",
			billing_comp_name(r.comp));
		return 0;
	}
	if (check_row(p, fields, line, &r, unit, unit_s, &x))
		return 0;
	cur = cell(p, fields, BC_CURRENCY);
	if (!*f->currency)
		f->currency = intern(d, cur);
	else if (strcmp(cur, f->currency)) {
		bad_row(p, line, BILL_BAD_CURRENCY,
			"currency \"%s\" in a file billed in %s", cur,
			f->currency);
		return 0;
	}
	reg = cell(p, fields, BC_REGION);
	if (billing_is_null(reg))
		reg = r.region;
	a = volume(p, id, fields, reg, cur, line);
	/* formats.md: rate = quantity x hours in the month / hours covered */
	rate = x.qty * unit->factor * x.month_hours / x.row_hours;
	add_row(a, &r, rate, x.qty * unit->factor, x.row_hours, x.month_hours,
		x.start, x.end);
	b = cell(p, fields, BC_BILLED);
	if (p->fmt != BILL_FMT_FOCUS && billing_is_null(b))
		b = cell(p, fields, BC_BILLED2);
	a->v.billed[r.comp] += cost_of(b);
	a->v.list[r.comp] += cost_of(cell(p, fields, BC_LIST));
	if (p->fmt == BILL_FMT_CUR ? p->ntag_cols > 0 : p->col[BC_TAGS] >= 0)
		update_tags(p, a, fields, x.start / 3600);
	if (!d->period_end || x.start < d->period_start)
		d->period_start = x.start;
	if (x.end > d->period_end)
		d->period_end = x.end;
	f->volume_rows++;
	return 0;
}

static int on_record(char **fields, size_t n, size_t line, void *arg)
{
	struct billing_parser *p = arg;

	if (!p->have_header)
		return header(p, fields, n, line) ? 1 : 0;
	return row(p, fields, n, line);
}

/* ------------------------------------------------------------ parser */

struct billing_parser *billing_parser_new(struct billing_data *d,
					  const char *name)
{
	struct billing_parser *p = xcalloc(1, sizeof(*p));
	struct bill_file *f;

	p->d = d;
	xgrow((void **)&d->files, &d->afiles, d->nfiles + 1, sizeof(*d->files));
	p->fi = d->nfiles++;
	f = &d->files[p->fi];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->currency = "";
	csv_stream_init(&p->cs, BILL_MAX_RECORD);
	sbuf_init(&p->scratch, BILL_MAX_RECORD);
	return p;
}

/* Turn a csv_stream stop into the parser's error (kept in the file). */
static int stopped(struct billing_parser *p, int rc, char *err)
{
	struct bill_file *f = &p->d->files[p->fi];
	int code = EBS_ERR_PARSE;

	if (rc == CSV_TOO_BIG) {
		code = EBS_ERR_TOO_BIG;
		ebs_fail(
		    p->err, code,
		    "cannot read '%s': line %zu: a record over %zu bytes (an unterminated quote?)",
		    f->name, p->cs.record_line, BILL_MAX_RECORD);
	} else if (rc == CSV_MALFORMED) {
		ebs_fail(
		    p->err, code,
		    "cannot read '%s': line %zu: quote not closed before the end of the file",
		    f->name, p->cs.record_line);
	}
	if (!f->error)
		f->error = xstrdup(p->err);
	if (err)
		xsnprintf(err, EBS_ERRLEN, "%s", p->err);
	return code;
}

int billing_parser_feed(struct billing_parser *p, const void *buf, size_t len,
			char *err)
{
	int rc;

	p->d->files[p->fi].bytes += len;
	rc = csv_stream_feed(&p->cs, buf, len, on_record, p);

	return rc ? stopped(p, rc, err) : EBS_OK;
}

int billing_parser_finish(struct billing_parser *p, char *err)
{
	struct bill_file *f = &p->d->files[p->fi];
	int rc = csv_stream_finish(&p->cs, on_record, p);

	if (rc)
		return stopped(p, rc, err);
	if (!p->have_header) {
		ebs_fail(p->err, EBS_ERR_PARSE,
			 "cannot read '%s': empty file, no header", f->name);
		return stopped(p, 1, err);
	}
	return EBS_OK;
}

void billing_parser_free(struct billing_parser *p)
{
	if (!p)
		return;
	csv_stream_release(&p->cs);
	sbuf_release(&p->scratch);
	strmap_release(&p->desc_cache);
	for (size_t i = 0; i < p->ntag_cols; i++)
		free(p->tag_keys[i]);
	free(p->tag_keys);
	free(p->tag_cols);
	free(p);
}

int billing_parse_buffer(struct billing_data *d, const char *name,
			 const void *buf, size_t len, char *err)
{
	struct billing_parser *p = billing_parser_new(d, name);
	int rc = billing_parser_feed(p, buf, len, err);

	if (!rc)
		rc = billing_parser_finish(p, err);
	billing_parser_free(p);
	return rc;
}
