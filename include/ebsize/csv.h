/*
 * csv.h - RFC 4180 CSV readers: csv_next over a buffer in memory, and
 * csv_stream, which is pushed bytes in chunks of any size (a file read
 * piece by piece, a gzip stream) and calls back once per record, so that
 * memory holds one record, not the file.  Quoted fields, doubled quotes,
 * newlines inside quotes, CRLF or LF line ends, an optional UTF-8 BOM.
 * Fields are pointers into a scratch copy owned by the reader, valid until
 * the next call (csv_next) or until the callback returns (csv_stream).
 */
#ifndef EBSIZE_CSV_H
#define EBSIZE_CSV_H

#include <stddef.h>

struct csv_reader {
	const char *p, *end;
	size_t line;	    /* current line (1-based) */
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

/*
 * Called with each record: its fields (NUL-terminated), their number and
 * the line where the record starts (1-based).  Returns 0 to go on; any
 * other value stops the reader and is returned by csv_stream_feed.
 */
typedef int (*csv_record_fn)(char **fields, size_t n, size_t line, void *arg);

#define CSV_MALFORMED (-1) /* a quote still open at the end of input */
#define CSV_TOO_BIG   (-2) /* a record over max_record bytes */

struct csv_stream {
	int state;
	int bom;	    /* bytes of a UTF-8 BOM matched so far, 3 done */
	size_t line;	    /* current line (1-based) */
	size_t record_line; /* line where the current record starts */
	size_t max_record;  /* cap on one record's bytes */
	char *buf;	    /* the current record, fields NUL-separated */
	size_t len, alloc;
	size_t *offs; /* start of each field in buf */
	size_t nf, aoffs;
	char **fields;
	size_t afields;
	int stopped; /* the value that stopped the reader, or 0 */
};

/* Start a reader; records longer than max_record bytes are CSV_TOO_BIG. */
void csv_stream_init(struct csv_stream *s, size_t max_record);
/*
 * Push len bytes, calling fn for each record they complete.  Returns 0, a
 * non-zero value fn returned, or CSV_TOO_BIG (record_line names where);
 * once non-zero, every later call returns the same value.
 */
int csv_stream_feed(struct csv_stream *s, const char *data, size_t len,
		    csv_record_fn fn, void *arg);
/*
 * End of input: hands over a last record without a line end.  Returns 0,
 * fn's value, or CSV_MALFORMED (an unterminated quote, record_line says
 * where it opened).
 */
int csv_stream_finish(struct csv_stream *s, csv_record_fn fn, void *arg);
/* Free the buffers; NULL-safe.  The reader may be initialised again. */
void csv_stream_release(struct csv_stream *s);

#endif
