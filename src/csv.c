/*
 * csv.c - RFC 4180 CSV reading from memory.  Does not guess delimiters or
 * encodings: comma-separated, UTF-8 or ASCII, an optional UTF-8 BOM.
 */
#include "ebsize/csv.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

void csv_init(struct csv_reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->p = buf;
	r->end = buf + len;
	r->line = 1;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		r->p += 3;
}

int csv_next(struct csv_reader *r, char ***fields, size_t *n)
{
	size_t nf = 0, o = 0, start_line;
	size_t *offs = NULL, aoffs = 0;
	int rc = 1;

	/* skip blank lines */
	while (r->p < r->end && (*r->p == '\n' || *r->p == '\r')) {
		if (*r->p == '\n')
			r->line++;
		r->p++;
	}
	if (r->p >= r->end)
		return 0;
	start_line = r->line;
	r->record_line = start_line;
	xgrow((void **)&r->scratch, &r->scratch_alloc,
	      (size_t)(r->end - r->p) + 1, 1);
	xgrow((void **)&offs, &aoffs, 1, sizeof(*offs));
	offs[nf++] = 0;
	while (r->p < r->end) {
		char c = *r->p;

		if (c == '"' && o == offs[nf - 1]) {
			/* quoted field */
			r->p++;
			for (;;) {
				if (r->p >= r->end) {
					rc = -1;
					goto out;
				}
				if (*r->p == '"') {
					if (r->p + 1 < r->end && r->p[1] == '"') {
						r->scratch[o++] = '"';
						r->p += 2;
						continue;
					}
					r->p++;
					break;
				}
				if (*r->p == '\n')
					r->line++;
				r->scratch[o++] = *r->p++;
			}
			continue;
		}
		if (c == ',') {
			r->scratch[o++] = '\0';
			xgrow((void **)&offs, &aoffs, nf + 1, sizeof(*offs));
			offs[nf++] = o;
			r->p++;
			continue;
		}
		if (c == '\r' && r->p + 1 < r->end && r->p[1] == '\n') {
			r->p++;
			continue;
		}
		if (c == '\n') {
			r->p++;
			r->line++;
			break;
		}
		r->scratch[o++] = c;
		r->p++;
	}
	r->scratch[o] = '\0';
	xgrow((void **)&r->fields, &r->fields_alloc, nf, sizeof(*r->fields));
	for (size_t i = 0; i < nf; i++)
		r->fields[i] = r->scratch + offs[i];
	*fields = r->fields;
	*n = nf;
out:
	free(offs);
	return rc;
}

void csv_release(struct csv_reader *r)
{
	if (!r)
		return;
	free(r->scratch);
	free(r->fields);
	r->scratch = NULL;
	r->fields = NULL;
}
