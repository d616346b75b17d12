/*
 * json_stream.h - a push JSON tokenizer for inputs too big to hold: bytes
 * are fed in pieces of any size (a file read, a network buffer), and a
 * handler sees one token at a time.  The whole input is validated
 * (RFC 8259 grammar, string escapes, nesting), including the parts the
 * handler chooses not to look at, so a truncated or corrupt file is
 * always an error.
 *
 * The handler steers the reading: after a key it may ask for the value
 * to be skipped (validated, no tokens: the fast path) or captured (its
 * raw text handed over whole in one JS_CAPTURED token, ready for a DOM
 * parser).  Memory is bounded by the longest string or captured value
 * (max_value) and the nesting depth, never by the input size.
 *
 * No I/O and no other library: src/json_stream.c.
 */
#ifndef EBSIZE_JSON_STREAM_H
#define EBSIZE_JSON_STREAM_H

#include <stddef.h>

enum js_event {
	JS_OBJECT,     /* '{' */
	JS_END_OBJECT, /* '}' */
	JS_ARRAY,      /* '[' */
	JS_END_ARRAY,  /* ']' */
	JS_KEY,	       /* a member name (decoded) */
	JS_STRING,     /* a string value (decoded) */
	JS_NUMBER,     /* a number (its text) */
	JS_TRUE,
	JS_FALSE,
	JS_NULL,
	JS_CAPTURED, /* the raw text of a value the handler captured */
	JS_END_DOC   /* a top-level value is complete */
};

/*
 * One token.  depth counts the containers around the value: a top-level
 * value (and its JS_END_DOC) has depth 0, the keys of a top-level object
 * depth 1, and so on; JS_END_OBJECT/ARRAY carry their opening's depth.
 * s/len: decoded text for keys and strings (NUL-terminated; may hold
 * NULs from \u0000), the number text, or the captured raw text; valid
 * only during the call.  line: the 1-based line where the token ends.
 */
struct js_token {
	enum js_event ev;
	int depth;
	const char *s;
	size_t len;
	size_t line;
};

/* What a handler returns. */
#define JS_GO 0 /* go on, tokens for what follows */
#define JS_SKIP \
	1	     /* after JS_KEY: read its value silently; after
			 * JS_OBJECT/JS_ARRAY: its contents and its end */
#define JS_CAPTURE 2 /* after JS_KEY: hand over its value's raw text */
/* A negative value (-EBS_ERR_...) stops the stream with that error; the
 * handler has written the message into err. */

typedef int (*js_handler)(void *arg, const struct js_token *t, char *err);

struct json_stream;

/* Deepest nesting accepted. */
#define JS_MAX_DEPTH 512

/*
 * A new tokenizer calling fn(arg, ...) for every token.  max_value caps
 * a decoded string, a number's text and a captured value, in bytes.
 * Free with js_free (NULL-safe).
 */
struct json_stream *js_new(js_handler fn, void *arg, size_t max_value);
void js_free(struct json_stream *js);

/*
 * Feed the next len bytes.  Back-to-back top-level values (whitespace
 * between them optional) are read in turn.  Returns EBS_OK, EBS_ERR_PARSE
 * with "line N: ..." in err, or the handler's error.  After an error
 * every further call returns it again.
 */
int js_feed(struct json_stream *js, const char *buf, size_t len, char *err);

/*
 * The input is complete.  EBS_OK when it ended between top-level values
 * and held at least one; else EBS_ERR_PARSE ("empty", or "line N: not
 * valid JSON (cut short)").
 */
int js_finish(struct json_stream *js, char *err);

/* The current 1-based line, for messages. */
size_t js_line(const struct json_stream *js);

#endif
