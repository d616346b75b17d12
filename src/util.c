/*
 * util.c - allocation wrappers, strict number parsing, capped buffers and
 * file helpers.  No module-specific logic lives here.
 */
#include "ebsize/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * A message longer than the buffer (a very long path quoted in it) keeps
 * its start and its end, where the reason is, around "...": cut at
 * UTF-8 character boundaries.
 */
int ebs_fail(char *err, int code, const char *fmt, ...)
{
	va_list ap;
	char *m;
	size_t len, head, tail;

	if (!err)
		return code;
	va_start(ap, fmt);
	m = xvstrfmt(fmt, ap);
	va_end(ap);
	len = strlen(m);
	if (len < EBS_ERRLEN) {
		memcpy(err, m, len + 1);
		free(m);
		return code;
	}
	head = EBS_ERRLEN / 2 - 2;
	while (head && ((unsigned char)m[head] & 0xc0) == 0x80)
		head--;
	tail = len - (EBS_ERRLEN - head - 4);
	while (tail < len && ((unsigned char)m[tail] & 0xc0) == 0x80)
		tail++;
	memcpy(err, m, head);
	memcpy(err + head, "...", 3);
	memcpy(err + head + 3, m + tail, len - tail + 1);
	free(m);
	return code;
}

static void die_oom(size_t n)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die_oom(n);
	return q;
}

void xgrow(void **p, size_t *alloc, size_t want, size_t elem_size)
{
	size_t n = *alloc;

	if (want <= n)
		return;
	if (n < 8)
		n = 8;
	while (n < want) {
		if (n > SIZE_MAX / 2)
			die_oom(SIZE_MAX);
		n *= 2;
	}
	if (n > SIZE_MAX / elem_size)
		die_oom(SIZE_MAX);
	*p = xrealloc(*p, n * elem_size);
	*alloc = n;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvstrfmt(const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	char *p;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		n = 0;
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvstrfmt(fmt, ap);
	va_end(ap);
	return p;
}

void xsnprintf(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!n)
		return;
	va_start(ap, fmt);
	vsnprintf(dst, n, fmt, ap);
	va_end(ap);
}

int xsnprintf_fit(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (!n)
		return -1;
	va_start(ap, fmt);
	len = vsnprintf(dst, n, fmt, ap);
	va_end(ap);
	return len >= 0 && (size_t)len < n ? 0 : -1;
}

/* ---------------------------------------------------------------- numbers */

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	/* refuse hex floats, "inf" and "nan": numbers from outside are decimal */
	for (const char *p = s; *p; p++)
		if (!strchr("0123456789+-.eE", *p))
			return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_nonneg_double(const char *s, double *out)
{
	double v;

	if (parse_double(s, &v) || v < 0 || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_long_range(const char *s, long min, long max, long *out)
{
	uint64_t v;
	int neg = 0;

	if (s && *s == '-' && min < 0) {
		neg = 1;
		s++;
	}
	if (parse_u64(s, &v) || v > (uint64_t)LONG_MAX)
		return -1;
	if ((neg ? -(long)v : (long)v) < min ||
	    (neg ? -(long)v : (long)v) > max)
		return -1;
	*out = neg ? -(long)v : (long)v;
	return 0;
}

/* ---------------------------------------------------------------- sbuf */

void sbuf_init(struct sbuf *sb, size_t cap)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->cap = cap;
}

int sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	if (len > sb->cap || sb->len > sb->cap - len)
		return EBS_ERR_TOO_BIG;
	xgrow((void **)&sb->buf, &sb->alloc, sb->len + len + 1, 1);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return EBS_OK;
}

int sbuf_addstr(struct sbuf *sb, const char *s)
{
	return sbuf_add(sb, s, strlen(s));
}

int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	va_start(ap, fmt);
	s = xvstrfmt(fmt, ap);
	va_end(ap);
	rc = sbuf_addstr(sb, s);
	free(s);
	return rc;
}

char *sbuf_detach(struct sbuf *sb, size_t *len)
{
	char *p;

	if (!sb->buf)
		sbuf_add(sb, "", 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sbuf_release(struct sbuf *sb)
{
	if (!sb)
		return;
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

/* ---------------------------------------------------------------- files */

void fmt_cap(char *buf, size_t n, size_t cap)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB" };
	size_t u = 0;

	while (u + 1 < ARRAY_SIZE(unit) && cap >= 1024 && cap % 1024 == 0) {
		cap /= 1024;
		u++;
	}
	xsnprintf(buf, n, "%zu %s", cap, unit[u]);
}

int read_file_capped(const char *path, size_t cap, char **data, size_t *len,
		     char *err)
{
	char limit[32];

	struct sbuf sb = SBUF_INIT(cap);
	char chunk[65536];
	FILE *f;
	size_t n;
	int rc = EBS_OK;

	*data = NULL;
	f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s", path,
				strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (sbuf_add(&sb, chunk, n)) {
			fmt_cap(limit, sizeof(limit), cap);
			rc = ebs_fail(err, EBS_ERR_TOO_BIG,
				      "'%s' is larger than the limit of %s",
				      path, limit);
			goto out;
		}
	}
	if (ferror(f)) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot read '%s': %s", path,
			      strerror(errno));
		goto out;
	}
	*data = sbuf_detach(&sb, len);
out:
	if (f != stdin)
		fclose(f);
	sbuf_release(&sb);
	return rc;
}

int write_file_temp(const char *path, const char *data, size_t len,
		    char **tmp_out, char *err)
{
	char *tmp = xstrfmt("%s.tmp.%ld", path, (long)getpid());
	int fd, rc = EBS_OK;
	size_t off = 0;

	*tmp_out = NULL;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot create '%s': %s", path,
			      strerror(errno));
		free(tmp);
		return rc;
	}
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s",
				      path, strerror(errno));
			break;
		}
		off += (size_t)w;
	}
	if (!rc && fsync(fd))
		rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s", path,
			      strerror(errno));
	if (close(fd) && !rc)
		rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s", path,
			      strerror(errno));
	if (rc) {
		unlink(tmp);
		free(tmp);
		return rc;
	}
	*tmp_out = tmp;
	return EBS_OK;
}

int write_file_atomic(const char *path, const char *data, size_t len, char *err)
{
	char *tmp;
	int rc = write_file_temp(path, data, len, &tmp, err);

	if (rc)
		return rc;
	if (rename(tmp, path)) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot write '%s': %s", path,
			      strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

int mkdir_parents(const char *path, char *err)
{
	char *p = xstrdup(path);
	int rc = EBS_OK;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			rc = ebs_fail(err, EBS_ERR_IO,
				      "cannot create directory '%s': %s", p,
				      strerror(errno));
			break;
		}
		*s = '/';
	}
	free(p);
	return rc;
}

size_t line_of_offset(const char *buf, size_t off)
{
	size_t line = 1;

	for (size_t i = 0; i < off && buf[i]; i++)
		if (buf[i] == '\n')
			line++;
	return line;
}

void utc_now_iso(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int str_ieq(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

int str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ------------------------------------------------------------ visible text */

/*
 * Length of the valid UTF-8 sequence at s (2 to 4 bytes, no overlong form,
 * no surrogate, at most U+10FFFF) with its code point in *cp; 0 if invalid.
 */
static size_t utf8_seq(const unsigned char *s, unsigned long *cp)
{
	size_t n;
	unsigned long c, min;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* How byte(s) at p are shown: 0 as they are, else the escape in esc. */
static size_t visible_at(const unsigned char *p, int keep_nl, char esc[8],
			 size_t *len)
{
	unsigned long cp;
	size_t n;

	*len = 1;
	if (*p == '\n' || *p == '\t') {
		if (keep_nl)
			return 0;
		xsnprintf(esc, 8, "\\%c", *p == '\n' ? 'n' : 't');
		return 2;
	}
	if (*p == '\r') {
		xsnprintf(esc, 8, "\\r");
		return 2;
	}
	if (*p < 0x20 || *p == 0x7f) {
		xsnprintf(esc, 8, "\\x%02x", *p);
		return 4;
	}
	if (*p < 0x80)
		return 0;
	if (!(n = utf8_seq(p, &cp))) {
		xsnprintf(esc, 8, "\\x%02x", *p);
		return 4;
	}
	*len = n;
	if (cp <= 0x9f) {
		xsnprintf(esc, 8, "\\u%04lx", cp);
		return 6;
	}
	return 0;
}

int sbuf_add_visible(struct sbuf *sb, const char *s, int keep_nl)
{
	const unsigned char *p = (const unsigned char *)s;
	int rc = 0;

	while (*p && !rc) {
		const unsigned char *q = p;
		char esc[8];
		size_t len = 0, e = 0;

		/* a run of bytes shown as they are */
		while (*q && !(e = visible_at(q, keep_nl, esc, &len)))
			q += len;
		if (q > p)
			rc = sbuf_add(sb, p, (size_t)(q - p));
		if (!*q || rc)
			break;
		rc = sbuf_add(sb, esc, e);
		p = q + len;
	}
	return rc;
}

int str_has_controls(const char *s, int keep_nl)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];
	size_t len;

	for (; *p; p += len)
		if (visible_at(p, keep_nl, esc, &len))
			return 1;
	return 0;
}

const char *str_shown(const char *s, char *buf, size_t n)
{
	size_t i = 0;

	for (; s && *s && i + 4 < n && i < 64; s++) {
		unsigned char c = (unsigned char)*s;

		/* a C1 control in its UTF-8 form (U+0080..U+009F: U+009B is
		 * a terminal's CSI) is one '?' too */
		if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
		    (unsigned char)s[1] <= 0x9f) {
			buf[i++] = '?';
			s++;
			continue;
		}
		buf[i++] = (c < 0x20 || c == '\'' || c == 0x7f) ? '?' : (char)c;
	}
	/* cut short: never in the middle of a character */
	if (s && *s && ((unsigned char)*s & 0xc0) == 0x80) {
		while (i && ((unsigned char)buf[i - 1] & 0xc0) == 0x80)
			i--;
		if (i && (unsigned char)buf[i - 1] >= 0xc0)
			i--;
	}
	if (s && *s && i + 4 < n) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* ------------------------------------------------------------ times */

long long civil_days(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	/* Howard Hinnant's days_from_civil (proleptic Gregorian) */
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

unsigned civil_month_days(long long y, unsigned m)
{
	static const unsigned char dm[12] = { 31, 28, 31, 30, 31, 30,
					      31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m < 1 || m > 12 ? 0 : m == 2 ? 28u + (unsigned)leap : dm[m - 1];
}

/* n decimal digits at s into *v; 0, or -1 when one is not a digit. */
static int time_digits(const char *s, int n, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (unsigned)(s[i] - '0');
	}
	return 0;
}

int iso8601_to_epoch(const char *s, long long *out)
{
	unsigned y, mo, d, h, mi, se, oh = 0, om = 0;
	const char *p;
	long long off = 0;

	if (!s || strlen(s) < 19 || time_digits(s, 4, &y) || s[4] != '-' ||
	    time_digits(s + 5, 2, &mo) || s[7] != '-' ||
	    time_digits(s + 8, 2, &d) ||
	    (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
	    time_digits(s + 11, 2, &h) || s[13] != ':' ||
	    time_digits(s + 14, 2, &mi) || s[16] != ':' ||
	    time_digits(s + 17, 2, &se))
		return -1;
	if (d < 1 || d > civil_month_days(y, mo) || h > 23 || mi > 59 ||
	    se > 60)
		return -1;
	p = s + 19;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	if (!strcmp(p, "Z") || !strcmp(p, "z") || !strcmp(p, "UTC")) {
		off = 0;
	} else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':' &&
		   !time_digits(p + 1, 2, &oh) && !time_digits(p + 4, 2, &om) &&
		   oh < 24 && om < 60) {
		off = (long long)(oh * 3600 + om * 60) * (*p == '+' ? 1 : -1);
	} else {
		return -1;
	}
	*out = civil_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - off;
	return 0;
}
