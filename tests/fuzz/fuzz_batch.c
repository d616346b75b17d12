/*
 * fuzz_batch.c - libFuzzer harness for the --batch request parser
 * (src/batch_parse.c).  Every line of the input goes through
 * batch_parse_json; a line it accepts must be JSON that cJSON reads the
 * same way (differential: the same keys in the same order, the same
 * strings byte for byte, numbers of the same value, lists joined), with
 * every key and value valid UTF-8 inside the request's buffer and keys
 * unique.  The whole input also goes through the CSV path: its first
 * record as a header, every later one as a request under it.  Pure: bytes
 * in, fields out.  Not part of `make test`.
 */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/batch.h"
#include "ebsize/csv.h"
#include "ebsize/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int utf8_ok(const unsigned char *s)
{
	while (*s) {
		size_t n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 :
			   (*s & 0xF0) == 0xE0 ? 3 : (*s & 0xF8) == 0xF0 ? 4 : 0;

		if (!n || (n > 1 && *s < 0xC2) || *s > 0xF4)
			return 0;
		for (size_t i = 1; i < n; i++)
			if ((s[i] & 0xC0) != 0x80)
				return 0;
		s += n;
	}
	return 1;
}

static int inside(const struct batch_req *r, const char *p)
{
	return p >= r->buf && p < r->buf + r->buf_alloc &&
	       memchr(p, '\0', (size_t)(r->buf + r->buf_alloc - p));
}

/* The value of item as ebsize passes it on, into buf; 0, or -1. */
static int as_text(const cJSON *item, char *buf, size_t n)
{
	size_t o = 0;

	if (cJSON_IsString(item)) {
		xsnprintf(buf, n, "%s", item->valuestring);
		return 0;
	}
	if (!cJSON_IsArray(item))
		return -1;
	buf[0] = '\0';
	for (const cJSON *e = item->child; e; e = e->next) {
		if (!cJSON_IsString(e))
			continue;   /* numbers: checked by value below */
		xsnprintf(buf + o, n - o, "%s%s", o ? "," : "", e->valuestring);
		o = strlen(buf);
	}
	return 0;
}

static void check_line(const char *line, size_t len, struct batch_req *r)
{
	char why[160], text[4096];
	cJSON *doc, *m;
	size_t i = 0;

	if (batch_parse_json(line, len, r, why, sizeof(why))) {
		if (strncmp(why, "column ", 7))
			__builtin_trap();     /* every error names its column */
		return;
	}
	doc = cJSON_ParseWithLength(line, len);
	if (!doc || !cJSON_IsObject(doc))
		__builtin_trap();       /* we took what is not JSON */
	for (m = doc->child; m; m = m->next, i++) {
		const struct batch_field *f;

		if (i >= r->n)
			__builtin_trap();
		f = &r->f[i];
		if (!inside(r, f->key) || !utf8_ok((const unsigned char *)f->key) ||
		    strcmp(f->key, m->string))
			__builtin_trap();
		for (size_t k = 0; k < i; k++)
			if (!strcmp(r->f[k].key, f->key))
				__builtin_trap();
		if (f->kind == BATCH_NULL) {
			if (f->val || !cJSON_IsNull(m))
				__builtin_trap();
			continue;
		}
		if (!f->val || !inside(r, f->val) || !utf8_ok((const unsigned char *)f->val))
			__builtin_trap();
		switch (f->kind) {
		case BATCH_NUMBER:
			if (!cJSON_IsNumber(m) || strtod(f->val, NULL) != m->valuedouble)
				__builtin_trap();
			break;
		case BATCH_BOOL:
			if (!cJSON_IsBool(m) || strcmp(f->val, cJSON_IsTrue(m) ? "true" : "false"))
				__builtin_trap();
			break;
		case BATCH_STRING:
			if (as_text(m, text, sizeof(text)) || !cJSON_IsString(m) ||
			    (strlen(m->valuestring) < sizeof(text) - 1 && strcmp(text, f->val)))
				__builtin_trap();
			break;
		case BATCH_LIST:
			if (!cJSON_IsArray(m))
				__builtin_trap();
			if (cJSON_GetArraySize(m) == 0 && *f->val)
				__builtin_trap();
			break;
		case BATCH_NULL:
			break;
		}
	}
	if (i != r->n)
		__builtin_trap();
	cJSON_Delete(doc);
}

struct csv_state {
	char **hdr;
	size_t nhdr;
	struct batch_req r;
};

static int on_record(char **f, size_t n, size_t line, void *arg)
{
	struct csv_state *st = arg;
	char why[160];

	(void)line;
	if (!st->hdr) {
		if (batch_check_header(f, n, why, sizeof(why)))
			return 1;
		st->hdr = xcalloc(n, sizeof(*st->hdr));
		for (size_t i = 0; i < n; i++)
			st->hdr[i] = xstrdup(f[i]);
		st->nhdr = n;
		return 0;
	}
	if (batch_from_csv(st->hdr, st->nhdr, f, n, &st->r, why, sizeof(why)))
		return n == st->nhdr ? (__builtin_trap(), 1) : 0;
	if (st->r.n != st->nhdr)
		__builtin_trap();
	for (size_t i = 0; i < n; i++)
		if ((st->r.f[i].val == NULL) != !*f[i])
			__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct batch_req r = { 0 };
	struct csv_state st = { 0 };
	struct csv_stream cs;

	(void)batch_detect(p, size);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		check_line(p, len, &r);
		p += len + (nl != NULL);
	}
	batch_req_release(&r);

	csv_stream_init(&cs, size + 1);
	if (!csv_stream_feed(&cs, (const char *)data, size, on_record, &st))
		csv_stream_finish(&cs, on_record, &st);
	csv_stream_release(&cs);
	for (size_t i = 0; i < st.nhdr; i++)
		free(st.hdr[i]);
	free(st.hdr);
	batch_req_release(&st.r);
	return 0;
}
