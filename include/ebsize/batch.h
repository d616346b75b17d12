/*
 * batch.h - the requests of `--batch FILE` (issue 14: thousands of what-if
 * questions in one process): one request per line of JSON Lines, or per
 * record of a CSV file with a header.  A request is a list of keys (the
 * command's option names, "region", "id") with their values as text, as
 * they would be typed on the command line, so that the option table's own
 * parser (opt_set) reads them and says the same things about bad ones.
 *
 * The parser takes bytes and returns fields; it never prints.  The command
 * layer (src/cmd_batch.c) reads the file, applies the fields and answers.
 */
#ifndef EBSIZE_BATCH_H
#define EBSIZE_BATCH_H

#include <stddef.h>

enum batch_format { BATCH_AUTO = 0, BATCH_JSONL, BATCH_CSV };

/* What a value was in the input. */
enum batch_kind {
	BATCH_NULL,   /* JSON null, an empty CSV cell: as if not given */
	BATCH_STRING, /* a JSON string or a CSV cell */
	BATCH_NUMBER, /* a JSON number: val is its text as written */
	BATCH_BOOL,   /* JSON true/false: val "true" or "false" */
	BATCH_LIST    /* a JSON array of strings and numbers: val joins
			   them with ',' ("gp3,io2"), as --types takes them */
};

struct batch_field {
	const char *key;
	const char *val; /* NUL-terminated; NULL for BATCH_NULL */
	enum batch_kind kind;
};

/* One request's fields, in input order.  The strings live in buf. */
struct batch_req {
	struct batch_field *f;
	size_t n, alloc;
	char *buf;
	size_t buf_alloc;
};

/*
 * Parse one line of JSON Lines (len bytes, without its line end; a
 * trailing '\r' is white space) into r: one flat object whose members are
 * strings, numbers, true, false, null or arrays of strings and numbers.
 * Keys are unescaped and must be unique; strings must be valid UTF-8
 * without NUL.  Returns 0, or -1 with why (n bytes) naming the column
 * (1-based byte offset): "column 12: expected ':' after a key".
 */
int batch_parse_json(const char *line, size_t len, struct batch_req *r,
		     char *why, size_t n);

/*
 * A CSV record under its header as a request: empty cells are BATCH_NULL,
 * others BATCH_STRING.  -1 with why when the record has another number
 * of fields than the header.
 */
int batch_from_csv(char *const *hdr, size_t nhdr, char *const *fld, size_t nfld,
		   struct batch_req *r, char *why, size_t n);

/*
 * The header of a CSV batch: -1 with why when a column is empty or given
 * twice (column names are checked against the command by the caller).
 */
int batch_check_header(char *const *hdr, size_t nhdr, char *why, size_t n);

/*
 * The format of a batch from its first bytes: JSON Lines when the first
 * byte that is not white space (or a UTF-8 BOM) is '{', else CSV.
 * BATCH_AUTO when the bytes are all blank (decide later).
 */
enum batch_format batch_detect(const char *buf, size_t len);

/* The value of key in r (NULL when absent or null). */
const struct batch_field *batch_find(const struct batch_req *r,
				     const char *key);

void batch_req_release(struct batch_req *r);

#endif
