/*
 * metrics_parse.c - CloudWatch get-metric-data output (and the queries
 * that ask for it): bytes in, series out.  The document is walked one
 * MetricDataResults element at a time (json_walk.c), each element parsed
 * into a recycled arena and its Timestamps and Values read side by side
 * with a hand-written ISO 8601 parser, so memory holds the points kept
 * (16 bytes each), never a tree of the file, and a file of any size is
 * read in one pass.  No I/O; warnings go to a list.
 */
#include "ebsize/inventory.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"
#include "json_walk.h"

static const struct {
	const char *name, *abbr, *stat;
} metrics[IM_COUNT] = {
	/* T15 [S6, C1]: AWS/EBS metrics, dimension VolumeId */
	[IM_READ_OPS] = { "VolumeReadOps", "rops", "Sum" },
	[IM_WRITE_OPS] = { "VolumeWriteOps", "wops", "Sum" },
	[IM_READ_BYTES] = { "VolumeReadBytes", "rbytes", "Sum" },
	[IM_WRITE_BYTES] = { "VolumeWriteBytes", "wbytes", "Sum" },
	[IM_BURST_BALANCE] = { "BurstBalance", "burst", "Minimum" },
	[IM_IOPS_EXCEEDED] = { "VolumeIOPSExceededCheck", "iopsx", "Maximum" },
	[IM_TPUT_EXCEEDED] = { "VolumeThroughputExceededCheck", "tputx",
			       "Maximum" },
};

const char *inventory_metric_name(enum inv_metric m)
{
	return (unsigned)m < IM_COUNT ? metrics[m].name : NULL;
}

const char *inventory_metric_abbr(enum inv_metric m)
{
	return (unsigned)m < IM_COUNT ? metrics[m].abbr : NULL;
}

char *inventory_metric_queries(const char *const *ids, size_t n, long period_s)
{
	cJSON *arr = cJSON_CreateArray();
	char *out;

	for (size_t i = 0; i < n; i++) {
		for (int m = 0; m < IM_COUNT; m++) {
			cJSON *q = cJSON_CreateObject(), *stat, *metric, *dims,
			      *d;
			char id[64], label[96];

			/* Id: ^[a-z][a-zA-Z0-9_]*$ -> rops_300_vol_0abc... */
			xsnprintf(id, sizeof(id), "%s_%ld_vol_%s",
				  metrics[m].abbr, period_s, ids[i] + 4);
			xsnprintf(label, sizeof(label), "%s %s %ld", ids[i],
				  metrics[m].name, period_s);
			cJSON_AddStringToObject(q, "Id", id);
			stat = cJSON_AddObjectToObject(q, "MetricStat");
			metric = cJSON_AddObjectToObject(stat, "Metric");
			cJSON_AddStringToObject(metric, "Namespace", "AWS/EBS");
			cJSON_AddStringToObject(metric, "MetricName",
						metrics[m].name);
			dims = cJSON_AddArrayToObject(metric, "Dimensions");
			d = cJSON_CreateObject();
			cJSON_AddStringToObject(d, "Name", "VolumeId");
			cJSON_AddStringToObject(d, "Value", ids[i]);
			cJSON_AddItemToArray(dims, d);
			cJSON_AddNumberToObject(stat, "Period",
						(double)period_s);
			cJSON_AddStringToObject(stat, "Stat", metrics[m].stat);
			cJSON_AddStringToObject(q, "Label", label);
			cJSON_AddBoolToObject(q, "ReturnData", 1);
			cJSON_AddItemToArray(arr, q);
		}
	}
	out = cJSON_Print(arr);
	cJSON_Delete(arr);
	return out;
}

/* Metric by its abbreviation or AWS name; IM_COUNT when unknown. */
static enum inv_metric metric_lookup(const char *s, size_t n, int by_name)
{
	for (int m = 0; m < IM_COUNT; m++) {
		const char *want = by_name ? metrics[m].name : metrics[m].abbr;

		if (strlen(want) == n && !memcmp(want, s, n))
			return (enum inv_metric)m;
	}
	return IM_COUNT;
}

/* "rops_300_vol_0abc..." -> volume, metric, period.  0 or -1. */
static int parse_query_id(const char *id, struct inv_series *s)
{
	const char *u1 = id ? strchr(id, '_') : NULL, *u2;
	char num[16];
	long period;

	if (!u1 || !(u2 = strchr(u1 + 1, '_')) ||
	    (size_t)(u2 - u1 - 1) >= sizeof(num))
		return -1;
	memcpy(num, u1 + 1, (size_t)(u2 - u1 - 1));
	num[u2 - u1 - 1] = '\0';
	if (parse_long_range(num, 1, 86400 * 31, &period) ||
	    !str_starts_with(u2 + 1, "vol_"))
		return -1;
	s->metric = metric_lookup(id, (size_t)(u1 - id), 0);
	xsnprintf(s->vol_id, sizeof(s->vol_id), "vol-%s", u2 + 5);
	s->period_s = period;
	return s->metric == IM_COUNT || !inventory_valid_volume_id(s->vol_id)
		   ? -1
		   : 0;
}

/* "vol-0abc... VolumeReadOps 300" -> volume, metric, period.  0 or -1. */
static int parse_label(const char *label, struct inv_series *s)
{
	const char *sp1 = label ? strchr(label, ' ') : NULL, *sp2;

	if (!sp1 || !(sp2 = strchr(sp1 + 1, ' ')) ||
	    (size_t)(sp1 - label) >= sizeof(s->vol_id))
		return -1;
	xsnprintf(s->vol_id, sizeof(s->vol_id), "%.*s", (int)(sp1 - label),
		  label);
	s->metric = metric_lookup(sp1 + 1, (size_t)(sp2 - sp1 - 1), 1);
	if (parse_long_range(sp2 + 1, 1, 86400 * 31, &s->period_s))
		return -1;
	return s->metric == IM_COUNT || !inventory_valid_volume_id(s->vol_id)
		   ? -1
		   : 0;
}

/*
 * The most any EBS volume does (T1: io2, 256,000 IOPS and 4,000 MiB/s);
 * a CloudWatch average above it is not a measurement.
 */
#define INV_MAX_VOLUME_IOPS  256000.0 /* T1 [A1] io2 */
#define INV_MAX_VOLUME_MIBPS 4000.0   /* T1 [A1, S2] io2 */

/*
 * 1 when v can be a value of metric m over period_s seconds: no count or
 * rate below zero or above what any volume can do, BurstBalance a
 * percentage, the ExceededChecks 0 or 1 (T15).  A value like 1e300 would
 * otherwise reach the proposals.
 */
static int value_possible(enum inv_metric m, long period_s, double v)
{
	double p = period_s > 0 ? (double)period_s : 1.0;

	if (!isfinite(v) || v < 0)
		return 0;
	switch (m) {
	case IM_READ_OPS:
	case IM_WRITE_OPS: return v / p <= INV_MAX_VOLUME_IOPS;
	case IM_READ_BYTES:
	case IM_WRITE_BYTES: return v / p / 1048576.0 <= INV_MAX_VOLUME_MIBPS;
	case IM_BURST_BALANCE: return v <= 100.0;
	case IM_IOPS_EXCEEDED:
	case IM_TPUT_EXCEEDED: return v <= 1.0;
	case IM_COUNT: break;
	}
	return 0;
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * One MetricDataResults entry into m; warnings for unusable ones.  The
 * Timestamps and Values arrays are walked once, side by side.
 */
static void add_result(const char *name, const cJSON *r, struct inv_metrics *m,
		       struct inv_warnings *w)
{
	const char *id = jstr(r, "Id"), *label = jstr(r, "Label");
	const char *status = jstr(r, "StatusCode");
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(r, "Timestamps");
	const cJSON *vs = cJSON_GetObjectItemCaseSensitive(r, "Values");
	const cJSON *t = NULL, *v = NULL;
	struct inv_series s = { .file = name };
	size_t bad = 0, n = 0;
	char b1[96];

	if (parse_query_id(id, &s) && parse_label(label, &s)) {
		inv_warn(
		    w,
		    "'%s': metric result '%s' does not name an EBS volume and metric (see 'ebsize scan --metric-queries'); skipped",
		    name, str_shown(id ? id : "?", b1, sizeof(b1)));
		return;
	}
	if (status && strcmp(status, "Complete"))
		inv_warn(
		    w,
		    "'%s': metric result '%s' has status %s; using the data it has",
		    name, str_shown(id, b1, sizeof(b1)),
		    str_shown(status, b1 + 48, 48));
	if (cJSON_IsArray(ts) && cJSON_IsArray(vs))
		for (t = ts->child, v = vs->child; t && v;
		     t = t->next, v = v->next)
			n++;
	if (!cJSON_IsArray(ts) || !cJSON_IsArray(vs) || t || v) {
		inv_warn(
		    w,
		    "'%s': metric result '%s' has mismatched Timestamps and Values; skipped",
		    name, str_shown(id, b1, sizeof(b1)));
		return;
	}
	s.t = xcalloc(n + 1, sizeof(*s.t));
	s.v = xcalloc(n + 1, sizeof(*s.v));
	for (t = ts->child, v = vs->child; t && v; t = t->next, v = v->next) {
		if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
		    iso8601_to_epoch(cJSON_GetStringValue(t), &s.t[s.n]))
			continue;
		if (!value_possible(s.metric, s.period_s, v->valuedouble)) {
			bad++;
			continue;
		}
		s.v[s.n++] = v->valuedouble;
	}
	if (bad)
		inv_warn(
		    w,
		    "'%s': volume '%s': %s: %zu of %zu values negative or beyond what any EBS volume does; skipped",
		    name, s.vol_id, metrics[s.metric].name, bad, n);
	if (s.n + bad < n)
		inv_warn(
		    w,
		    "'%s': metric result '%s': %zu of %zu points unreadable; skipped",
		    name, str_shown(id, b1, sizeof(b1)), n - s.n - bad, n);
	xgrow((void **)&m->s, &m->alloc, m->n + 1, sizeof(*m->s));
	m->s[m->n++] = s;
}

static int metrics_fail(const char *name, const char *buf, const char *at,
			const char *what, char *err)
{
	return ebs_fail(err, EBS_ERR_PARSE, "cannot parse '%s': line %zu: %s",
			name, line_of_offset(buf, (size_t)(at - buf)), what);
}

/* p at '[' of MetricDataResults: parse its elements one at a time. */
static int walk_results(const char *name, const char *buf, const char *p,
			const char *end, struct inv_metrics *m,
			struct inv_warnings *w, const char **after, char *err)
{
	const char *e, *fail;
	cJSON *r;

	if (p >= end || *p != '[')
		return metrics_fail(
		    name, buf, p, "\"MetricDataResults\" is not an array", err);
	p = json_skip_ws(p + 1, end);
	while (p < end && *p != ']') {
		if (!(r = json_arena_parse(p, end, &e))) {
			if (json_arena_over())
				return ebs_fail(
				    err, EBS_ERR_TOO_BIG,
				    "cannot parse '%s': line %zu: metric result over %zu MiB",
				    name,
				    line_of_offset(buf, (size_t)(p - buf)),
				    INV_METRIC_RESULT_CAP >> 20);
			if (!json_skip_value(p, end, &fail))
				return metrics_fail(
				    name, buf, fail,
				    "unterminated string or value", err);
			return metrics_fail(name, buf, e,
					    "invalid JSON in a metric result",
					    err);
		}
		if (!cJSON_IsObject(r))
			return metrics_fail(
			    name, buf, p,
			    "expected an object in \"MetricDataResults\"", err);
		add_result(name, r, m, w);
		p = json_skip_ws(e, end);
		if (p < end && *p == ',')
			p = json_skip_ws(p + 1, end);
		else if (p < end && *p != ']')
			return metrics_fail(
			    name, buf, p,
			    "expected ',' or ']' in \"MetricDataResults\"",
			    err);
	}
	if (p >= end)
		return metrics_fail(name, buf, end, "unexpected end of file",
				    err);
	*after = p + 1;
	return 0;
}

/* The top-level object: walk MetricDataResults, validate the rest. */
static int walk_metrics(const char *name, const char *buf, size_t len,
			struct inv_metrics *m, struct inv_warnings *w,
			char *err)
{
	const char *end = buf + len, *p = json_skip_ws(buf, end), *k, *e,
		   *fail = NULL;
	int seen = 0, rc;

	if (p >= end || *p != '{')
		return metrics_fail(name, buf, p, "expected a JSON object",
				    err);
	p = json_skip_ws(p + 1, end);
	while (p < end && *p != '}') {
		if (*p != '"' || !(k = json_skip_string(p, end, &fail)))
			return metrics_fail(name, buf, fail ? fail : p,
					    "expected a member name", err);
		e = json_skip_ws(k, end);
		if (e >= end || *e != ':')
			return metrics_fail(name, buf, e, "expected ':'", err);
		e = json_skip_ws(e + 1, end);
		if (json_key_is(p, k, "MetricDataResults")) {
			seen = 1;
			if ((rc = walk_results(name, buf, e, end, m, w, &p,
					       err)))
				return rc;
		} else if (!json_arena_parse(e, end, &p)) {
			return metrics_fail(name, buf, p, "invalid JSON", err);
		}
		p = json_skip_ws(p, end);
		if (p < end && *p == ',')
			p = json_skip_ws(p + 1, end);
		else if (p < end && *p != '}')
			return metrics_fail(name, buf, p, "expected ',' or '}'",
					    err);
	}
	if (p >= end)
		return metrics_fail(name, buf, end, "unexpected end of file",
				    err);
	if (json_skip_ws(p + 1, end) != end)
		return metrics_fail(name, buf, json_skip_ws(p + 1, end),
				    "text after the JSON document", err);
	if (!seen)
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': no \"MetricDataResults\" array", name);
	return 0;
}

int inventory_parse_metrics(const char *name, const char *buf, size_t len,
			    struct inv_metrics *m, struct inv_warnings *w,
			    char *err)
{
	int rc;

	json_arena_begin(16 * INV_METRIC_RESULT_CAP);
	rc = walk_metrics(name, buf, len, m, w, err);
	json_arena_end();
	return rc;
}

void inv_metrics_release(struct inv_metrics *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->s[i].t);
		free(m->s[i].v);
	}
	free(m->s);
	memset(m, 0, sizeof(*m));
}
