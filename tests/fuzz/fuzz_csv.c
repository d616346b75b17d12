/*
 * fuzz_csv.c - libFuzzer harness for the CSV readers: csv_next over the
 * buffer touches every field, and csv_stream, fed the same bytes in chunks
 * whose size the first byte picks, must return the very same records
 * (differential: the streaming reader keeps csv_next's rules).  Pure:
 * bytes in, fields out, readers released.  Not part of `make test`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/csv.h"
#include "ebsize/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records as text: field lengths and bytes, so NULs inside compare too. */
static void add_record(struct sbuf *sb, char **f, size_t n, size_t line)
{
	sbuf_addf(sb, "%zu@%zu:", n, line);
	for (size_t i = 0; i < n; i++) {
		sbuf_addf(sb, "%zu|", strlen(f[i]));
		sbuf_add(sb, f[i], strlen(f[i]));
	}
	sbuf_add(sb, "\n", 1);
}

static int on_record(char **f, size_t n, size_t line, void *arg)
{
	add_record(arg, f, n, line);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf a = SBUF_INIT(64u << 20), b = SBUF_INIT(64u << 20);
	struct csv_reader r;
	struct csv_stream s;
	size_t chunk = size ? (size_t)data[0] % 17 + 1 : 1, n, total = 0;
	char **f;
	int rc, src = 0;

	csv_init(&r, (const char *)data, size);
	while ((rc = csv_next(&r, &f, &n)) == 1) {
		for (size_t i = 0; i < n; i++)
			total += strlen(f[i]);
		if (total > size + n)
			__builtin_trap();  /* fields longer than the input */
		add_record(&a, f, n, r.record_line);
	}
	csv_release(&r);

	csv_stream_init(&s, size + 1);
	for (size_t off = 0; off < size && !src; off += chunk)
		src = csv_stream_feed(&s, (const char *)data + off,
				      size - off < chunk ? size - off : chunk,
				      on_record, &b);
	if (!src)
		src = csv_stream_finish(&s, on_record, &b);
	csv_stream_release(&s);
	/* the same records; an open quote at the end is an error to both */
	if ((rc == -1) != (src == CSV_MALFORMED) || src == CSV_TOO_BIG ||
	    a.len != b.len || (a.len && memcmp(a.buf, b.buf, a.len)))
		__builtin_trap();
	sbuf_release(&a);
	sbuf_release(&b);
	return 0;
}
