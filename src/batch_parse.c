/*
 * batch_parse.c - the request lines of `--batch` (include/ebsize/batch.h):
 * a hand-written reader for one flat JSON object per line, and CSV records
 * under their header turned into the same fields.
 *
 * A line is read in one pass into a buffer of its own length: unescaped
 * strings, numbers as written and joined lists are never longer than the
 * text they come from, so field pointers into the buffer stay valid.
 * Numbers keep their text ("1e3", "16k" is a string) so that the option
 * table reads them exactly as it reads argv.
 */
#include "ebsize/batch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

/* ------------------------------------------------------------ fields */

void batch_req_release(struct batch_req *r)
{
	if (!r)
		return;
	free(r->f);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

static void add_field(struct batch_req *r, const char *key, const char *val,
		      enum batch_kind kind)
{
	xgrow((void **)&r->f, &r->alloc, r->n + 1, sizeof(*r->f));
	r->f[r->n].key = key;
	r->f[r->n].val = val;
	r->f[r->n].kind = kind;
	r->n++;
}

const struct batch_field *batch_find(const struct batch_req *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].val ? &r->f[i] : NULL;
	return NULL;
}

static int has_key(const struct batch_req *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ JSON */

struct jp {
	const unsigned char *s, *p, *end;
	char *out; /* next free byte of the request's buffer */
	char *why;
	size_t whylen;
};

static int fail_at(struct jp *j, const unsigned char *at, const char *what)
{
	xsnprintf(j->why, j->whylen, "column %zu: %s", (size_t)(at - j->s) + 1,
		  what);
	return -1;
}

static void skip_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\r' || *j->p == '\n'))
		j->p++;
}

/* Length of the valid UTF-8 sequence at p (at most end), 0 if invalid. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	size_t n, avail = (size_t)(end - p);
	uint32_t cp;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xC2 && *p <= 0xDF)
		n = 2, cp = *p & 0x1F;
	else if (*p >= 0xE0 && *p <= 0xEF)
		n = 3, cp = *p & 0x0F;
	else if (*p >= 0xF0 && *p <= 0xF4)
		n = 4, cp = *p & 0x07;
	else
		return 0;
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

static int hex4(const unsigned char *p, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = p[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static void put_utf8(struct jp *j, uint32_t cp)
{
	if (cp < 0x80) {
		*j->out++ = (char)cp;
	} else if (cp < 0x800) {
		*j->out++ = (char)(0xC0 | cp >> 6);
		*j->out++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*j->out++ = (char)(0xE0 | cp >> 12);
		*j->out++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*j->out++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*j->out++ = (char)(0xF0 | cp >> 18);
		*j->out++ = (char)(0x80 | (cp >> 12 & 0x3F));
		*j->out++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*j->out++ = (char)(0x80 | (cp & 0x3F));
	}
}

/*
 * The escape at j->p (just after the backslash) into j->out.  A \u escape
 * writes at most 4 bytes for its 6 (or 12 for a surrogate pair): the
 * output never overtakes the input.
 */
static int unescape(struct jp *j)
{
	const unsigned char *at = j->p - 1;
	uint32_t cp, lo;

	if (j->p >= j->end)
		return fail_at(j, at, "unterminated string");
	switch (*j->p++) {
	case '"': *j->out++ = '"'; return 0;
	case '\\': *j->out++ = '\\'; return 0;
	case '/': *j->out++ = '/'; return 0;
	case 'b': *j->out++ = '\b'; return 0;
	case 'f': *j->out++ = '\f'; return 0;
	case 'n': *j->out++ = '\n'; return 0;
	case 'r': *j->out++ = '\r'; return 0;
	case 't': *j->out++ = '\t'; return 0;
	case 'u': break;
	default: return fail_at(j, at, "unknown escape in a string");
	}
	if (j->end - j->p < 4 || hex4(j->p, &cp))
		return fail_at(j, at, "\\u needs four hexadecimal digits");
	j->p += 4;
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return fail_at(j, at, "a low surrogate without a high one");
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
		    hex4(j->p + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
			return fail_at(j, at,
				       "a high surrogate without a low one");
		j->p += 6;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	if (!cp)
		return fail_at(j, at, "\\u0000 is not allowed in a string");
	put_utf8(j, cp);
	return 0;
}

/* The string at j->p (its opening quote) into j->out, NUL-terminated. */
static int string(struct jp *j, const char **out)
{
	const unsigned char *open = j->p++;

	*out = j->out;
	for (;;) {
		size_t n;

		if (j->p >= j->end)
			return fail_at(j, open, "unterminated string");
		if (*j->p == '"') {
			j->p++;
			*j->out++ = '\0';
			return 0;
		}
		if (*j->p == '\\') {
			j->p++;
			if (unescape(j))
				return -1;
			continue;
		}
		if (*j->p < 0x20)
			return fail_at(
			    j, j->p,
			    "a control character in a string (escape it)");
		if (!(n = utf8_len(j->p, j->end)))
			return fail_at(j, j->p, "not valid UTF-8");
		memcpy(j->out, j->p, n);
		j->out += n;
		j->p += n;
	}
}

/* A JSON number at j->p, its text copied as written. */
static int number(struct jp *j, const char **out)
{
	const unsigned char *p = j->p, *start = j->p;

	if (p < j->end && *p == '-')
		p++;
	if (p >= j->end || *p < '0' || *p > '9')
		return fail_at(
		    j, start,
		    "expected a value (a string, a number, true, false, null or a list)");
	if (*p == '0')
		p++;
	else
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	if (p < j->end && *p == '.') {
		p++;
		if (p >= j->end || *p < '0' || *p > '9')
			return fail_at(j, start,
				       "a number needs digits after '.'");
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= j->end || *p < '0' || *p > '9')
			return fail_at(j, start,
				       "a number needs digits in its exponent");
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	}
	*out = j->out;
	memcpy(j->out, start, (size_t)(p - start));
	j->out += p - start;
	*j->out++ = '\0';
	j->p = p;
	return 0;
}

static int word(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(j->end - j->p) >= n && !memcmp(j->p, w, n);
}

/* A list of strings and numbers, joined with ',' into one string. */
static int list(struct jp *j, const char **out)
{
	const unsigned char *open = j->p++;
	char *joined = j->out;
	int first = 1;

	skip_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		*j->out++ = '\0';
		*out = joined;
		return 0;
	}
	for (;;) {
		const char *item;

		skip_ws(j);
		/* each item is written after the comma that joins it: the
		 * comma costs the byte of the item's opening quote or of the
		 * separator in the input */
		if (!first)
			*j->out++ = ',';
		if (j->p < j->end && *j->p == '"') {
			if (string(j, &item))
				return -1;
		} else if (j->p < j->end &&
			   (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))) {
			if (number(j, &item))
				return -1;
		} else {
			return fail_at(j, j->p,
				       "a list holds strings and numbers only");
		}
		j->out--; /* drop the item's NUL: the list goes on */
		if (strchr(item, ','))
			return fail_at(j, open, "a list item holds a ','");
		first = 0;
		skip_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			*j->out++ = '\0';
			*out = joined;
			return 0;
		}
		return fail_at(j, j->p, "expected ',' or ']' in a list");
	}
}

static int value(struct jp *j, const char **val, enum batch_kind *kind)
{
	if (j->p >= j->end)
		return fail_at(j, j->p, "expected a value");
	switch (*j->p) {
	case '"': *kind = BATCH_STRING; return string(j, val);
	case '[': *kind = BATCH_LIST; return list(j, val);
	case '{': return fail_at(j, j->p, "a value cannot be an object");
	case 't':
	case 'f':
		if (word(j, "true") || word(j, "false")) {
			int t = *j->p == 't';

			*val = j->out;
			memcpy(j->out, t ? "true" : "false", t ? 5 : 6);
			j->out += t ? 5 : 6;
			j->p += t ? 4 : 5;
			*kind = BATCH_BOOL;
			return 0;
		}
		break;
	case 'n':
		if (word(j, "null")) {
			j->p += 4;
			*val = NULL;
			*kind = BATCH_NULL;
			return 0;
		}
		break;
	default: *kind = BATCH_NUMBER; return number(j, val);
	}
	return fail_at(
	    j, j->p,
	    "expected a value (a string, a number, true, false, null or a list)");
}

int batch_parse_json(const char *line, size_t len, struct batch_req *r,
		     char *why, size_t n)
{
	struct jp j = { (const unsigned char *)line,
			(const unsigned char *)line,
			(const unsigned char *)line + len,
			NULL,
			why,
			n };

	r->n = 0;
	/* +1: a NUL for a value that ends the input (always an error, but
	 * the value is read before that is known) */
	xgrow((void **)&r->buf, &r->buf_alloc, len + 1, 1);
	j.out = r->buf;
	skip_ws(&j);
	if (j.p >= j.end || *j.p != '{')
		return fail_at(
		    &j, j.p,
		    "expected '{' (a request is one JSON object per line)");
	j.p++;
	skip_ws(&j);
	if (j.p < j.end && *j.p == '}') {
		j.p++;
		goto end;
	}
	for (;;) {
		const unsigned char *kat;
		const char *key, *val;
		enum batch_kind kind;

		skip_ws(&j);
		kat = j.p;
		if (j.p >= j.end || *j.p != '"')
			return fail_at(&j, j.p,
				       "expected a key in double quotes");
		if (string(&j, &key))
			return -1;
		if (has_key(r, key)) {
			char what[96];

			xsnprintf(what, sizeof(what), "key '%.60s' given twice",
				  key);
			return fail_at(&j, kat, what);
		}
		skip_ws(&j);
		if (j.p >= j.end || *j.p != ':')
			return fail_at(&j, j.p, "expected ':' after a key");
		j.p++;
		skip_ws(&j);
		if (value(&j, &val, &kind))
			return -1;
		add_field(r, key, val, kind);
		skip_ws(&j);
		if (j.p < j.end && *j.p == ',') {
			j.p++;
			continue;
		}
		if (j.p < j.end && *j.p == '}') {
			j.p++;
			break;
		}
		return fail_at(&j, j.p, "expected ',' or '}' after a value");
	}
end:
	skip_ws(&j);
	if (j.p < j.end)
		return fail_at(&j, j.p,
			       "text after the object (one request per line)");
	return 0;
}

/* ------------------------------------------------------------ CSV */

int batch_check_header(char *const *hdr, size_t nhdr, char *why, size_t n)
{
	for (size_t i = 0; i < nhdr; i++) {
		if (!*hdr[i]) {
			xsnprintf(why, n,
				  "column %zu of the header has no name",
				  i + 1);
			return -1;
		}
		for (size_t k = 0; k < i; k++) {
			if (!strcmp(hdr[i], hdr[k])) {
				xsnprintf(
				    why, n,
				    "column '%.60s' is in the header twice",
				    hdr[i]);
				return -1;
			}
		}
	}
	return 0;
}

int batch_from_csv(char *const *hdr, size_t nhdr, char *const *fld, size_t nfld,
		   struct batch_req *r, char *why, size_t n)
{
	r->n = 0;
	if (nfld != nhdr) {
		xsnprintf(why, n, "%zu field%s where the header has %zu", nfld,
			  nfld == 1 ? "" : "s", nhdr);
		return -1;
	}
	for (size_t i = 0; i < nhdr; i++)
		add_field(r, hdr[i], *fld[i] ? fld[i] : NULL,
			  *fld[i] ? BATCH_STRING : BATCH_NULL);
	return 0;
}

enum batch_format batch_detect(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		i = 3;
	for (; i < len; i++) {
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
		    buf[i] == '\n')
			continue;
		return buf[i] == '{' ? BATCH_JSONL : BATCH_CSV;
	}
	return BATCH_AUTO;
}
