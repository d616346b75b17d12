/*
 * csv.h - an RFC 4180 CSV reader over a buffer in memory.  Quoted fields,
 * doubled quotes, CRLF or LF line ends.  Fields are returned as pointers
 * into a scratch copy owned by the reader, valid until the next call.
 */
#ifndef EBSIZE_CSV_H
#define EBSIZE_CSV_H

#include <stddef.h>

struct csv_reader {
	const char *p, *end;
	size_t line;        /* current line (1-based) */
	size_t record_line; /* line where the last record read starts */
	char *scratch;
	size_t scratch_alloc;
	char **fields;
	size_t fields_alloc;
};

void csv_init(struct csv_reader *r, const char *buf, size_t len);
/*
 * Read the next record.  Returns 1 with fields and n set, 0 at end of input,
 * -1 on a malformed record (unterminated quote); record_line names it.
 * Blank lines are skipped.
 */
int csv_next(struct csv_reader *r, char ***fields, size_t *n);
void csv_release(struct csv_reader *r);

#endif
