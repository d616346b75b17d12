/*
 * util.h - allocation wrappers, strict number parsing, a capped growable
 * buffer and whole-file reading.  Nothing here prints or exits except the
 * allocation wrappers, which abort on out-of-memory (git's xmalloc).
 */
#ifndef EBSIZE_UTIL_H
#define EBSIZE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ebsize/err.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Format a message into err (EBS_ERRLEN bytes; may be NULL) and return code,
 * so that failures read `return ebs_fail(err, EBS_ERR_IO, "...", ...);`.
 */
int ebs_fail(char *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow *p (of *alloc elements of elem_size) to hold at least want elements. */
void xgrow(void **p, size_t *alloc, size_t want, size_t elem_size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh heap string; caller frees. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvstrfmt(const char *fmt, va_list ap);

/* snprintf that always terminates and never reports truncation as error. */
void xsnprintf(char *dst, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same; 0 when the whole text fit, -1 when it was cut short (for the
 * places where a cut would be a wrong answer: paths, stored names). */
int xsnprintf_fit(char *dst, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Strict parsers for numbers that come from outside: the whole string must
 * be the number (no leading space, no trailing junk), finite, in range.
 * Return 0 on success, -1 otherwise (*out untouched on failure).
 */
int parse_double(const char *s, double *out);
int parse_nonneg_double(const char *s, double *out);
int parse_u64(const char *s, uint64_t *out);
int parse_long_range(const char *s, long min, long max, long *out);

/*
 * A growable byte buffer with a hard cap (curl's dynbuf).  sbuf_add fails
 * with EBS_ERR_TOO_BIG instead of growing past the cap.  The buffer is
 * always NUL-terminated.  sbuf_release frees and resets; NULL-safe.
 */
struct sbuf {
	char *buf;
	size_t len;
	size_t alloc;
	size_t cap;
};
#define SBUF_INIT(cap)            \
	{                         \
		NULL, 0, 0, (cap) \
	}
void sbuf_init(struct sbuf *sb, size_t cap);
int sbuf_add(struct sbuf *sb, const void *data, size_t len);
int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int sbuf_addstr(struct sbuf *sb, const char *s);
char *sbuf_detach(struct sbuf *sb, size_t *len);
void sbuf_reset(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);

/*
 * Read all of path ("-" = stdin) into a NUL-terminated heap buffer of at
 * most cap bytes.  On failure returns an error code and writes a message
 * naming the file into err -- over the cap: EBS_ERR_TOO_BIG, "'PATH' is
 * larger than the limit of 64 MiB".  Caller frees *data.
 */
int read_file_capped(const char *path, size_t cap, char **data, size_t *len,
		     char *err);
/* A size limit as people read it: "2 GiB", "64 KiB", else "N bytes". */
void fmt_cap(char *buf, size_t n, size_t cap);

/*
 * Write data to path atomically: a temporary file in the same directory,
 * fsync, rename.  Never leaves a half-written file at path.
 */
int write_file_atomic(const char *path, const char *data, size_t len,
		      char *err);
/*
 * Its first half, for writing several files all or nothing: data in a new
 * temporary file beside path, fsync'd and closed; *tmp (heap) names it.
 * The caller renames it over path or unlinks it, and frees *tmp.
 */
int write_file_temp(const char *path, const char *data, size_t len, char **tmp,
		    char *err);

/* Create every missing directory of path's parent (mkdir -p dirname). */
int mkdir_parents(const char *path, char *err);

/* 1-based line number of offset off in buf (for error messages). */
size_t line_of_offset(const char *buf, size_t off);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ". */
void utc_now_iso(char out[32]);

/*
 * Append s to sb with every control character made visible, so text from
 * outside can never drive a terminal: C0 controls and DEL as \n, \r, \t
 * or \xHH (keep_nl: newline and tab stay as they are), C1 controls in
 * their UTF-8 form (U+0080..U+009F, the CSI of ESC [ among them) as
 * \u00HH, and bytes that are not valid UTF-8 as \xHH.  Returns sbuf_add's
 * result.
 */
int sbuf_add_visible(struct sbuf *sb, const char *s, int keep_nl);
/* 1 when s holds anything sbuf_add_visible would escape. */
int str_has_controls(const char *s, int keep_nl);
/*
 * Untrusted text (a tag value, a type name) for a message, into buf (n
 * bytes): at most 64 bytes of it, never cut inside a character, "..."
 * when cut; control characters (C0, DEL, C1 in UTF-8 form) and quotes as
 * '?', so that a message stays one line and its quoting unambiguous.
 */
const char *str_shown(const char *s, char *buf, size_t n);

int str_ieq(const char *a, const char *b);
int str_starts_with(const char *s, const char *prefix);
int str_ends_with(const char *s, const char *suffix);

/* ------------------------------------------------------------ times */

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
long long civil_days(long long y, unsigned m, unsigned d);
/* Days in month m (1-12) of year y; 0 for a month out of range. */
unsigned civil_month_days(long long y, unsigned m);
/*
 * An ISO 8601 time as AWS writes them -- CloudWatch and the AWS CLI
 * ("2024-09-29T22:10:00+00:00", "2013-12-18T22:35:00.000Z"), credential
 * sources ("2026-11-30T12:00:00Z", "...UTC" in old SSO caches) -- to Unix
 * seconds: 'T' (or 't', ' ') between date and time, optional fractional
 * seconds, then "Z", "UTC" or a +HH:MM / -HH:MM offset; the calendar is
 * checked (no 2023-02-29).  0, or -1 for anything else.
 */
int iso8601_to_epoch(const char *s, long long *out);

#endif
