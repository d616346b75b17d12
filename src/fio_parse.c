/*
 * fio_parse.c - reads fio's JSON output and IOPS logs from memory into
 * plain structs.  It never touches files or the database, and it is the
 * only module that parses fio JSON with cJSON.  Everything it reads is
 * untrusted: sizes are capped by the caller, numbers are range-checked,
 * missing members become NAN ("not measured"), never zero.
 *
 * Formats (../shared/formats.md section 6): key names contain spaces,
 * option values are strings, text may precede the JSON, bw_bytes exists
 * from fio 3.2 (bw in KiB/s before), percentiles only when measured.
 */
#define _GNU_SOURCE /* memmem */
#include "ebsize/fio_parse.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

/* ------------------------------------------------------------ JSON */

/* Offset of the first line that is exactly "{" (or "{" + CR), or -1. */
static long json_start(const char *buf, size_t len, size_t *noise_lines)
{
	size_t i = 0;

	*noise_lines = 0;
	while (i < len) {
		size_t e = i;

		while (e < len && buf[e] != '\n')
			e++;
		if (e > i && buf[i] == '{' &&
		    (e - i == 1 || (e - i == 2 && buf[i + 1] == '\r')))
			return (long)i;
		if (e > i)
			(*noise_lines)++;
		i = e + 1;
	}
	return -1;
}

static double num_or_nan(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble
							     : NAN;
}

/* Option value (string) from the job's options, else the global ones. */
static const char *option(const cJSON *job, const cJSON *global,
			  const char *key)
{
	const cJSON *v;

	v = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(job, "job options"), key);
	if (!cJSON_IsString(v))
		v = cJSON_GetObjectItemCaseSensitive(global, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static long option_long(const cJSON *job, const cJSON *global, const char *key,
			long dflt)
{
	const char *s = option(job, global, key);
	long v;

	if (s && !parse_long_range(s, 1, 1000000, &v))
		return v;
	return dflt;
}

/* fio time values: "60", "60s", "2m", "1h"; NAN when not understood. */
static double option_seconds(const char *s)
{
	char num[32];
	size_t n;
	double v, mul = 1;

	if (!s || !*s || (n = strlen(s)) >= sizeof(num))
		return NAN;
	memcpy(num, s, n + 1);
	if (num[n - 1] == 's')
		num[--n] = '\0';
	else if (num[n - 1] == 'm')
		num[--n] = '\0', mul = 60;
	else if (num[n - 1] == 'h')
		num[--n] = '\0', mul = 3600;
	if (parse_nonneg_double(num, &v))
		return NAN;
	return v * mul;
}

/* Percentile p ("50.000000") of a clat_ns object, in ns; NAN if absent. */
static double percentile(const cJSON *lat, const char *p)
{
	return num_or_nan(cJSON_GetObjectItemCaseSensitive(lat, "percentile"),
			  p);
}

static void read_dir(const cJSON *d, struct fio_dir_stats *o)
{
	const cJSON *clat = cJSON_GetObjectItemCaseSensitive(d, "clat_ns");
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(d, "lat_ns");
	double bw_kib = num_or_nan(d, "bw");

	o->iops = num_or_nan(d, "iops");
	o->bw_bytes = num_or_nan(d, "bw_bytes");
	if (isnan(o->bw_bytes) && !isnan(bw_kib))
		o->bw_bytes = bw_kib * 1024; /* fio < 3.2: bw in KiB/s */
	o->total_ios = num_or_nan(d, "total_ios");
	o->runtime_ms = num_or_nan(d, "runtime");
	o->clat_mean_ns = num_or_nan(clat, "mean");
	/* gtod_reduce and friends: no latency measured at all */
	if (!cJSON_GetObjectItemCaseSensitive(clat, "percentile") &&
	    o->clat_mean_ns == 0)
		o->clat_mean_ns = NAN;
	o->lat_mean_ns = isnan(o->clat_mean_ns) ? NAN : num_or_nan(lat, "mean");
	o->p50_ns = percentile(clat, "50.000000");
	o->p95_ns = percentile(clat, "95.000000");
	o->p99_ns = percentile(clat, "99.000000");
	o->p999_ns = percentile(clat, "99.900000");
}

static int read_job(const cJSON *j, const cJSON *global, struct fio_job *o,
		    const char *name, size_t idx, char *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "jobname");
	const char *s;

	if (!cJSON_IsObject(j) || !cJSON_IsString(v))
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': jobs[%zu] has no \"jobname\"", name,
		    idx);
	xsnprintf(o->name, sizeof(o->name), "%s", v->valuestring);
	v = cJSON_GetObjectItemCaseSensitive(j, "error");
	o->error = !cJSON_IsNumber(v) || v->valuedouble == 0 ? 0
		   : v->valuedouble > 0 && v->valuedouble < 4096
		       ? (int)v->valuedouble
		       : -1;
	s = option(j, global, "rw");
	if (!s)
		s = option(j, global, "readwrite");
	xsnprintf(o->rw, sizeof(o->rw), "%s", s ? s : "read");
	s = option(j, global, "bs");
	if (!s)
		s = option(j, global, "blocksize");
	xsnprintf(o->bs, sizeof(o->bs), "%s", s ? s : "4k");
	o->iodepth = option_long(j, global, "iodepth", 1);
	o->numjobs = option_long(j, global, "numjobs", 1);
	o->runtime_s = option_seconds(option(j, global, "runtime"));
	read_dir(cJSON_GetObjectItemCaseSensitive(j, "read"), &o->dir[0]);
	read_dir(cJSON_GetObjectItemCaseSensitive(j, "write"), &o->dir[1]);
	return EBS_OK;
}

/*
 * Parse the last of the JSON documents starting at buf[start].  Returns
 * the root (caller deletes) or NULL with err set.
 */
static cJSON *parse_last_doc(const char *buf, size_t len, size_t start,
			     const char *name, char *err)
{
	cJSON *root = NULL;
	size_t off = start;

	while (off < len) {
		const char *end = NULL;
		cJSON *doc =
		    cJSON_ParseWithLengthOpts(buf + off, len - off, &end, 0);

		if (!doc) {
			if (root)
				break; /* trailing text after a document */
			ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': line %zu: invalid JSON", name,
			    line_of_offset(
				buf, (size_t)(end ? end - buf : (long)off)));
			return NULL;
		}
		cJSON_Delete(root);
		root = doc;
		off = (size_t)(end - buf);
		while (off < len && strchr(" \t\r\n", buf[off]))
			off++;
	}
	return root;
}

int fio_parse_result(const char *buf, size_t len, const char *name,
		     struct fio_result *out, char *err)
{
	cJSON *root = NULL;
	const cJSON *jobs, *global, *v;
	long start;
	int rc = EBS_OK;

	memset(out, 0, sizeof(*out));
	start = json_start(buf, len, &out->noise_lines);
	if (start < 0)
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': no fio JSON output (no line '{')",
		    name);
	out->interrupted =
	    memmem(buf, (size_t)start, "terminating on signal", 21) != NULL;
	if (!(root = parse_last_doc(buf, len, (size_t)start, name, err)))
		return EBS_ERR_PARSE;
	v = cJSON_GetObjectItemCaseSensitive(root, "fio version");
	if (cJSON_IsString(v))
		xsnprintf(out->version, sizeof(out->version), "%s",
			  v->valuestring);
	{
		double ts = num_or_nan(root, "timestamp");

		out->timestamp = ts >= 0 && ts < 1e15 ? (long long)ts : 0;
	}
	global = cJSON_GetObjectItemCaseSensitive(root, "global options");
	jobs = cJSON_GetObjectItemCaseSensitive(root, "jobs");
	if (!cJSON_IsArray(jobs))
		jobs = cJSON_GetObjectItemCaseSensitive(root, "client_stats");
	if (!cJSON_IsArray(jobs) || !cJSON_GetArraySize(jobs)) {
		rc = ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': no \"jobs\" in the fio output", name);
		goto out;
	}
	out->jobs =
	    xcalloc((size_t)cJSON_GetArraySize(jobs), sizeof(*out->jobs));
	for (const cJSON *j = jobs->child; j; j = j->next) {
		if ((rc = read_job(j, global, &out->jobs[out->njobs], name,
				   out->njobs, err)))
			goto out;
		/* client/server mode adds an aggregate pseudo-job */
		if (strcmp(out->jobs[out->njobs].name, "All clients"))
			out->njobs++;
	}
out:
	cJSON_Delete(root);
	if (rc)
		fio_result_release(out);
	return rc;
}

void fio_result_release(struct fio_result *r)
{
	if (!r)
		return;
	free(r->jobs);
	r->jobs = NULL;
	r->njobs = 0;
}

static double nan_add(double a, double b)
{
	if (isnan(b))
		return a;
	return isnan(a) ? b : a + b;
}

static double ns_to_ms(double ns)
{
	return ns / 1e6;
}

/*
 * Note in out->notes when the percentiles are not of the whole phase:
 * fio without group_reporting reports each of numjobs jobs apart (only
 * the first one's are kept), and a mixed job has a read and a write
 * distribution (only the busier one's are kept).
 */
static void note_percentiles(const struct fio_result *r,
			     const struct fio_job *first, int dir,
			     struct bench_phase_result *out)
{
	size_t same = 0;
	int both = first->dir[0].total_ios > 0 && first->dir[1].total_ios > 0;

	for (size_t i = 0; i < r->njobs; i++)
		same += !strcmp(r->jobs[i].name, first->name);
	if (isnan(first->dir[dir].p50_ns))
		return;
	if (same > 1 && both)
		xsnprintf(
		    out->notes, sizeof(out->notes),
		    "latency percentiles are of the first of %zu jobs (no group_reporting) and of its %s direction only",
		    same, dir ? "write" : "read");
	else if (same > 1)
		xsnprintf(
		    out->notes, sizeof(out->notes),
		    "latency percentiles are of the first of %zu jobs only (no group_reporting)",
		    same);
	else if (both)
		xsnprintf(
		    out->notes, sizeof(out->notes),
		    "latency percentiles are of the %s direction only (rw=%s)",
		    dir ? "write" : "read", first->rw);
}

/* The busiest direction of job j (0 read, 1 write). */
static int busiest(const struct fio_job *j)
{
	double r = isnan(j->dir[0].total_ios) ? 0 : j->dir[0].total_ios;
	double w = isnan(j->dir[1].total_ios) ? 0 : j->dir[1].total_ios;

	return w > r;
}

int fio_result_phase(const struct fio_result *r, const char *jobname,
		     const char *name, struct bench_phase_result *out,
		     char *err)
{
	const struct fio_job *first = NULL;
	double lat_weighted = 0, lat_ios = 0, runtime_ms = NAN;
	double tot_weighted = 0, tot_ios = 0;

	bench_phase_result_init(out);
	for (size_t i = 0; i < r->njobs; i++) {
		const struct fio_job *j = &r->jobs[i];

		if (jobname && strcmp(j->name, jobname))
			continue;
		if (j->error)
			return ebs_fail(
			    err, EBS_ERR_EXEC,
			    "'%s': fio job '%s' failed with error %d (%s)",
			    name, j->name, j->error, strerror(j->error));
		if (!first)
			first = j;
		for (int d = 0; d < 2; d++) {
			const struct fio_dir_stats *s = &j->dir[d];

			if (isnan(s->total_ios) || s->total_ios <= 0)
				continue;
			out->iops = nan_add(out->iops, s->iops);
			out->bw_mibps =
			    nan_add(out->bw_mibps, s->bw_bytes / 1048576.0);
			if (!isnan(s->clat_mean_ns)) {
				lat_weighted += s->clat_mean_ns * s->total_ios;
				lat_ios += s->total_ios;
			}
			if (!isnan(s->lat_mean_ns)) {
				tot_weighted += s->lat_mean_ns * s->total_ios;
				tot_ios += s->total_ios;
			}
			if (isnan(runtime_ms) || s->runtime_ms > runtime_ms)
				runtime_ms = s->runtime_ms;
		}
	}
	if (!first)
		return ebs_fail(err, EBS_ERR_PARSE,
				"'%s': no fio job named '%s'", name,
				jobname ? jobname : "");
	if (isnan(out->iops))
		return ebs_fail(err, EBS_ERR_SANITY,
				"'%s': fio job '%s' did no I/O", name,
				first->name);
	xsnprintf(out->phase, sizeof(out->phase), "%s", first->name);
	xsnprintf(out->rw, sizeof(out->rw), "%s", first->rw);
	xsnprintf(out->bs, sizeof(out->bs), "%s", first->bs);
	out->iodepth = first->iodepth;
	out->numjobs = first->numjobs;
	out->runtime_s = runtime_ms / 1000.0;
	if (lat_ios > 0)
		out->lat_mean_ms = ns_to_ms(lat_weighted / lat_ios);
	if (tot_ios > 0)
		out->lat_total_ms = ns_to_ms(tot_weighted / tot_ios);
	{
		const struct fio_dir_stats *s = &first->dir[busiest(first)];

		note_percentiles(r, first, busiest(first), out);
		out->p50_ms = ns_to_ms(s->p50_ns);
		out->p95_ms = ns_to_ms(s->p95_ns);
		out->p99_ms = ns_to_ms(s->p99_ns);
		out->p999_ms = ns_to_ms(s->p999_ns);
	}
	return EBS_OK;
}

/* ------------------------------------------------------------ logs */

/* A log field: decimal, or hex "0x..." (priority since fio 3.28). */
static int log_field(const char *s, long long *v)
{
	uint64_t u;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		errno = 0;
		u = strtoull(s + 2, &end, 16);
		if (errno || end == s + 2 || *end)
			return -1;
	} else if (parse_u64(s, &u)) {
		return -1;
	}
	if (u > (uint64_t)1 << 62)
		return -1;
	*v = (long long)u;
	return 0;
}

/* Split line into at most 8 fields at commas (in place). */
static size_t split_fields(char *line, char **f)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n == 8)
			return 9;
		f[n++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

static int parse_log_line(char *line, long long *t, long long *v, int *ddir,
			  long long *bs)
{
	char *f[9];
	long long x;
	size_t n = split_fields(line, f);

	if (n < 4 || n > 8)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (log_field(f[i], &x))
			return -1;
	log_field(f[0], t);
	log_field(f[1], v);
	log_field(f[2], &x);
	if (x > 2)
		return -1;
	*ddir = (int)x;
	log_field(f[3], bs);
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Without log_avg_msec fio logs every I/O (value 1, bs set): count them
 * per second instead.  s has room for rows samples.
 */
static size_t per_second(const long long *t, const long long *v, size_t rows,
			 struct bench_sample *s)
{
	size_t ns = 0;

	for (size_t r = 0; r < rows; r++) {
		long long end = (t[r] / 1000 + 1) * 1000;

		if (!ns || s[ns - 1].t_ms != end) {
			s[ns].t_ms = end;
			s[ns++].iops = 0;
		}
		s[ns - 1].iops += (double)v[r];
	}
	return ns;
}

/* Median spacing of the distinct timestamps (the logging interval). */
static long long interval_of(const long long *t, size_t n)
{
	long long *d, med;
	size_t m = 0;

	if (n < 2)
		return 1000;
	d = xcalloc(n, sizeof(*d));
	for (size_t i = 1; i < n; i++)
		if (t[i] > t[i - 1])
			d[m++] = t[i] - t[i - 1];
	if (m)
		qsort(d, m, sizeof(*d), cmp_ll);
	med = m ? d[m / 2] : 1000;
	free(d);
	return med > 0 ? med : 1000;
}

/* The rows of a log, column by column. */
struct log_rows {
	long long *t, *v;
	int *dd;
	size_t n, at, av, ad;
	int per_io; /* every row has a bs: one row per I/O */
};

static void log_rows_release(struct log_rows *lr)
{
	free(lr->t);
	free(lr->v);
	free(lr->dd);
}

/* Read every line of buf into lr; EBS_ERR_PARSE naming the line. */
static int read_rows(const char *buf, size_t len, const char *name,
		     struct log_rows *lr, char *err)
{
	size_t i = 0, line = 0;
	long long bs;

	lr->per_io = 1;
	while (i < len) {
		char tmp[256];
		size_t e = i;

		while (e < len && buf[e] != '\n')
			e++;
		line++;
		if (e - i >= sizeof(tmp))
			return ebs_fail(err, EBS_ERR_PARSE,
					"cannot parse '%s': line %zu: too long",
					name, line);
		memcpy(tmp, buf + i, e - i);
		tmp[e - i] = '\0';
		if (e - i && tmp[e - i - 1] == '\r')
			tmp[e - i - 1] = '\0';
		i = e + 1;
		if (!tmp[0])
			continue;
		xgrow((void **)&lr->t, &lr->at, lr->n + 1, sizeof(*lr->t));
		xgrow((void **)&lr->v, &lr->av, lr->n + 1, sizeof(*lr->v));
		xgrow((void **)&lr->dd, &lr->ad, lr->n + 1, sizeof(*lr->dd));
		if (parse_log_line(tmp, &lr->t[lr->n], &lr->v[lr->n],
				   &lr->dd[lr->n], &bs) ||
		    (lr->n && lr->t[lr->n] < lr->t[lr->n - 1]))
			return ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': line %zu: expected 'time, value, direction, bs[, offset][, prio]' with time not going back",
			    name, line);
		lr->per_io &= bs != 0; /* averaged logs have bs 0 */
		lr->n++;
	}
	if (!lr->n)
		return ebs_fail(err, EBS_ERR_PARSE,
				"cannot parse '%s': empty IOPS log", name);
	return EBS_OK;
}

/*
 * One sample per logging interval: rows of other directions within half
 * an interval add, a repeated direction (the final flush row) is dropped.
 */
static size_t per_interval(const struct log_rows *lr, struct bench_sample *s)
{
	long long iv = interval_of(lr->t, lr->n);
	size_t ns = 0;

	for (size_t r = 0; r < lr->n; r++) {
		int seen_dir = 0;

		if (ns && lr->t[r] - s[ns - 1].t_ms < iv / 2) {
			/* rows of this sample only (times never go back), and
			 * stop at the first match: linear, not quadratic, in
			 * rows that share one time stamp */
			for (size_t q = r;
			     q-- > 0 && lr->t[q] >= s[ns - 1].t_ms;)
				if (lr->dd[q] == lr->dd[r]) {
					seen_dir = 1;
					break;
				}
			if (!seen_dir)
				s[ns - 1].iops += (double)lr->v[r];
			continue;
		}
		s[ns].t_ms = lr->t[r];
		s[ns++].iops = (double)lr->v[r];
	}
	return ns;
}

int fio_parse_iops_log(const char *buf, size_t len, const char *name,
		       struct bench_sample **out, size_t *n, char *err)
{
	struct log_rows lr = { 0 };
	int rc;

	*out = NULL;
	*n = 0;
	if (!(rc = read_rows(buf, len, name, &lr, err))) {
		*out = xcalloc(lr.n, sizeof(**out));
		*n = lr.per_io ? per_second(lr.t, lr.v, lr.n, *out)
			       : per_interval(&lr, *out);
	}
	log_rows_release(&lr);
	return rc;
}

void fio_samples_merge(struct bench_sample **a, size_t *na,
		       const struct bench_sample *b, size_t nb)
{
	struct bench_sample *m = xcalloc(*na + nb + 1, sizeof(*m));
	size_t i = 0, k = 0, n = 0;

	/* both in time order: walk them together, adding samples less than
	 * half a second apart (per-job logs of one phase) */
	while (i < *na || k < nb) {
		if (k >= nb || (i < *na && (*a)[i].t_ms + 500 <= b[k].t_ms)) {
			m[n++] = (*a)[i++];
		} else if (i >= *na || b[k].t_ms + 500 <= (*a)[i].t_ms) {
			m[n++] = b[k++];
		} else {
			m[n] = (*a)[i++];
			m[n++].iops += b[k++].iops;
		}
	}
	free(*a);
	*a = m;
	*na = n;
}
