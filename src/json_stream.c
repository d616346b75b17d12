/*
 * json_stream.c - a push JSON tokenizer (see json_stream.h): a byte-driven
 * state machine that validates everything it reads and hands the handler
 * only what it asked for.  The hot paths are whitespace and string
 * contents, which are scanned in tight loops; skipped values cost one
 * table lookup per byte and no copies.
 *
 * It does not build trees (captured values are for that) and does no I/O.
 */
#include "ebsize/json_stream.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

enum js_state {
	S_TOP,	       /* between top-level values */
	S_VALUE,       /* a value must come */
	S_ARRAY_FIRST, /* after '[': a value or ']' */
	S_KEY_FIRST,   /* after '{': a key or '}' */
	S_KEY,	       /* after ',' in an object: a key */
	S_COLON,       /* after a key */
	S_AFTER,       /* after a value in a container: ',' or the close */
	S_STRING,
	S_NUMBER,
	S_LITERAL
};

enum num_state {
	N_MINUS,
	N_ZERO,
	N_INT,
	N_DOT,
	N_FRAC,
	N_EXP,
	N_EXP_SIGN,
	N_EXP_DIGITS
};

struct json_stream {
	js_handler fn;
	void *arg;
	size_t max_value;
	enum js_state st;
	int depth;			      /* open containers */
	unsigned char kind[JS_MAX_DEPTH + 1]; /* 'o' or 'a' per depth */
	int mute;      /* depth of the muted value, or -1 */
	int capturing; /* the muted value is captured */
	int pending;   /* JS_SKIP / JS_CAPTURE for the next value */
	/* strings */
	int str_key;
	int esc;	/* 0; 1 after '\'; 2-5 in \uXXXX */
	unsigned u, hi; /* \u value; pending high surrogate */
	int need_low;	/* a low surrogate must follow */
	/* numbers and literals */
	enum num_state num;
	const char *lit;
	size_t lit_pos;
	enum js_event lit_ev;
	struct sbuf text;     /* decoded string or number text */
	struct sbuf cap;      /* captured raw text */
	const char *cap_from; /* where capturing resumes in this chunk */
	size_t line;
	size_t docs;
	int err_code;
	char err[EBS_ERRLEN];
};

/* Bytes that may appear unescaped inside a string: not '"', '\', < 0x20. */
static unsigned char str_plain[256];
static unsigned char is_ws[256];

static void init_tables(void)
{
	if (str_plain['a'])
		return;
	for (int c = 0x20; c < 256; c++)
		str_plain[c] = c != '"' && c != '\\';
	is_ws[' '] = is_ws['\t'] = is_ws['\r'] = is_ws['\n'] = 1;
}

struct json_stream *js_new(js_handler fn, void *arg, size_t max_value)
{
	struct json_stream *js = xcalloc(1, sizeof(*js));

	init_tables();
	js->fn = fn;
	js->arg = arg;
	js->max_value = max_value;
	js->st = S_TOP;
	js->mute = -1;
	js->line = 1;
	sbuf_init(&js->text, max_value);
	sbuf_init(&js->cap, max_value);
	return js;
}

void js_free(struct json_stream *js)
{
	if (!js)
		return;
	sbuf_release(&js->text);
	sbuf_release(&js->cap);
	free(js);
}

size_t js_line(const struct json_stream *js)
{
	return js->line;
}

/* Record a syntax error at the current line; returns the code. */
static int bad(struct json_stream *js, const char *why)
{
	if (!js->err_code) {
		js->err_code = EBS_ERR_PARSE;
		xsnprintf(js->err, sizeof(js->err), "line %zu: %s", js->line,
			  why);
	}
	return js->err_code;
}

static int too_long(struct json_stream *js)
{
	char why[96];

	if (js->max_value >= (1u << 20))
		xsnprintf(why, sizeof(why), "a value longer than %zu MiB",
			  js->max_value >> 20);
	else
		xsnprintf(why, sizeof(why), "a value longer than %zu bytes",
			  js->max_value);
	return bad(js, why);
}

/*
 * Call the handler for a token (not while muted).  Returns its answer,
 * or -1 after recording its error.
 */
static int emit(struct json_stream *js, enum js_event ev, int depth,
		const char *s, size_t len)
{
	struct js_token t = { ev, depth, s ? s : "", len, js->line };
	int rc;

	/* nothing after an error: a value cut at the cap is never handed on */
	if (js->err_code)
		return -1;
	if (js->mute >= 0)
		return JS_GO;
	rc = js->fn(js->arg, &t, js->err);
	if (rc < 0) {
		js->err_code = -rc;
		return -1;
	}
	return rc;
}

/* Append the captured bytes [cap_from, upto) to the capture buffer. */
static void cap_flush(struct json_stream *js, const char *upto)
{
	if (!js->capturing || !js->cap_from || !upto)
		return;
	if (upto > js->cap_from &&
	    sbuf_add(&js->cap, js->cap_from, (size_t)(upto - js->cap_from)))
		too_long(js);
	js->cap_from = upto;
}

/*
 * A value of depth vd ended; vend is one past its last byte.  Ends a
 * mute or capture that started with it, then moves on.
 */
static void end_value(struct json_stream *js, int vd, const char *vend)
{
	if (js->mute == vd) {
		if (js->capturing) {
			cap_flush(js, vend);
			js->capturing = 0;
			js->mute = -1;
			if (!js->err_code)
				emit(js, JS_CAPTURED, vd, js->cap.buf,
				     js->cap.len);
		}
		js->mute = -1;
	}
	if (vd == 0) {
		js->docs++;
		js->st = S_TOP;
		if (!js->err_code)
			emit(js, JS_END_DOC, 0, NULL, 0);
	} else {
		js->st = S_AFTER;
	}
}

static void open_container(struct json_stream *js, char kind)
{
	int vd = js->depth;
	int rc;

	if (js->depth >= JS_MAX_DEPTH) {
		char why[64];

		xsnprintf(why, sizeof(why), "nested deeper than %d",
			  JS_MAX_DEPTH);
		bad(js, why);
		return;
	}
	js->kind[++js->depth] = (unsigned char)kind;
	js->st = kind == 'o' ? S_KEY_FIRST : S_ARRAY_FIRST;
	rc = emit(js, kind == 'o' ? JS_OBJECT : JS_ARRAY, vd, NULL, 0);
	if (rc == JS_SKIP)
		js->mute = vd;
}

static void close_container(struct json_stream *js, const char *p)
{
	int vd = js->depth - 1;
	char kind = (char)js->kind[js->depth];

	emit(js, kind == 'o' ? JS_END_OBJECT : JS_END_ARRAY, vd, NULL, 0);
	js->depth--;
	end_value(js, vd, p + 1);
}

/* The first byte of a value, at p. */
static void begin_value(struct json_stream *js, const char *p)
{
	unsigned char c = (unsigned char)*p;

	if (js->pending && js->mute < 0) {
		js->mute = js->depth;
		if (js->pending == JS_CAPTURE) {
			js->capturing = 1;
			js->cap_from = p;
			sbuf_reset(&js->cap);
		}
	}
	js->pending = 0;
	switch (c) {
	case '{': open_container(js, 'o'); return;
	case '[': open_container(js, 'a'); return;
	case '"':
		js->st = S_STRING;
		js->str_key = 0;
		js->esc = 0;
		js->need_low = 0;
		sbuf_reset(&js->text);
		return;
	case 't':
	case 'f':
	case 'n':
		js->st = S_LITERAL;
		js->lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
		js->lit_ev = c == 't' ? JS_TRUE : c == 'f' ? JS_FALSE : JS_NULL;
		js->lit_pos = 1;
		return;
	default:
		if (c == '-' || (c >= '0' && c <= '9')) {
			js->st = S_NUMBER;
			js->num = c == '-'   ? N_MINUS
				  : c == '0' ? N_ZERO
					     : N_INT;
			sbuf_reset(&js->text);
			if (js->mute < 0 && sbuf_add(&js->text, p, 1))
				too_long(js);
			return;
		}
		bad(js, "not valid JSON");
	}
}

/* ------------------------------------------------------------ strings */

/* Append code point cp as UTF-8 to the decoded text. */
static void put_utf8(struct json_stream *js, unsigned cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (js->mute < 0 && sbuf_add(&js->text, b, n))
		too_long(js);
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One byte of an escape sequence (js->esc > 0). */
static void escape_byte(struct json_stream *js, unsigned char c)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	int h;

	if (js->esc == 1) {
		if (c == 'u') {
			js->esc = 2;
			js->u = 0;
			return;
		}
		if (js->need_low || !c || !(e = strchr(from, c))) {
			bad(js, "not valid JSON (bad escape in a string)");
			return;
		}
		js->esc = 0;
		if (js->mute < 0 && sbuf_add(&js->text, &to[e - from], 1))
			too_long(js);
		return;
	}
	if ((h = hexval(c)) < 0) {
		bad(js, "not valid JSON (bad \\u escape)");
		return;
	}
	js->u = js->u * 16 + (unsigned)h;
	if (++js->esc < 6)
		return;
	js->esc = 0;
	if (js->need_low) {
		if (js->u < 0xdc00 || js->u > 0xdfff) {
			bad(js, "not valid JSON (unpaired surrogate)");
			return;
		}
		js->need_low = 0;
		put_utf8(js, 0x10000 + ((js->hi - 0xd800) << 10) +
				 (js->u - 0xdc00));
	} else if (js->u >= 0xd800 && js->u <= 0xdbff) {
		js->hi = js->u;
		js->need_low = 1;
	} else if (js->u >= 0xdc00 && js->u <= 0xdfff) {
		bad(js, "not valid JSON (unpaired surrogate)");
	} else {
		put_utf8(js, js->u);
	}
}

/* A string ended at p (its closing quote). */
static void end_string(struct json_stream *js, const char *p)
{
	if (js->str_key) {
		int rc;

		js->st = S_COLON;
		rc = emit(js, JS_KEY, js->depth, js->text.buf, js->text.len);
		if (rc == JS_SKIP || rc == JS_CAPTURE)
			js->pending = rc;
		return;
	}
	emit(js, JS_STRING, js->depth, js->text.buf, js->text.len);
	end_value(js, js->depth, p + 1);
}

/* Inside a string: consume what we can of [p, end); returns the new p. */
static const char *string_run(struct json_stream *js, const char *p,
			      const char *end)
{
	while (p < end && !js->err_code) {
		const char *q = p;
		unsigned char c;

		if (js->esc) {
			escape_byte(js, (unsigned char)*p);
			p++;
			continue;
		}
		if (js->need_low && *p != '\\') {
			bad(js, "not valid JSON (unpaired surrogate)");
			break;
		}
		while (q < end && str_plain[(unsigned char)*q])
			q++;
		if (q > p && js->mute < 0 &&
		    sbuf_add(&js->text, p, (size_t)(q - p))) {
			too_long(js);
			break;
		}
		p = q;
		if (p == end)
			break;
		c = (unsigned char)*p;
		if (c == '"') {
			if (js->mute < 0 && !js->text.buf)
				sbuf_add(&js->text, "", 0);
			end_string(js, p);
			return p + 1;
		}
		if (c == '\\') {
			js->esc = 1;
			p++;
			continue;
		}
		bad(js, "not valid JSON (control character in a string)");
	}
	return p;
}

/* ------------------------------------------------------------ numbers */

static int digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The number ended just before p: emit it.  Returns 0, or -1 when it
 * was incomplete ("1.", "-", "1e").
 */
static int end_number(struct json_stream *js, const char *p)
{
	if (js->num != N_ZERO && js->num != N_INT && js->num != N_FRAC &&
	    js->num != N_EXP_DIGITS) {
		bad(js, "not valid JSON");
		return -1;
	}
	if (js->mute < 0 && !js->text.buf)
		sbuf_add(&js->text, "", 0);
	emit(js, JS_NUMBER, js->depth, js->text.buf, js->text.len);
	end_value(js, js->depth, p);
	return 0;
}

/* Consume number bytes from p; returns the new p (the byte that ended
 * the number is left for the next state). */
static const char *number_run(struct json_stream *js, const char *p,
			      const char *end)
{
	const char *start = p;

	for (; p < end && js->st == S_NUMBER && !js->err_code; p++) {
		unsigned char c = (unsigned char)*p;
		enum num_state n = js->num;

		if (digit(c) && n != N_ZERO)
			js->num = n == N_MINUS ? (c == '0' ? N_ZERO : N_INT)
				  : n == N_DOT ? N_FRAC
				  : n == N_EXP || n == N_EXP_SIGN ? N_EXP_DIGITS
								  : n;
		else if (c == '.' && (n == N_ZERO || n == N_INT))
			js->num = N_DOT;
		else if ((c == 'e' || c == 'E') &&
			 (n == N_ZERO || n == N_INT || n == N_FRAC))
			js->num = N_EXP;
		else if ((c == '+' || c == '-') && n == N_EXP)
			js->num = N_EXP_SIGN;
		else {
			if (js->mute < 0 && p > start &&
			    sbuf_add(&js->text, start, (size_t)(p - start)))
				too_long(js);
			if (!js->err_code)
				end_number(js, p);
			return p;
		}
	}
	if (js->mute < 0 && p > start && !js->err_code &&
	    sbuf_add(&js->text, start, (size_t)(p - start)))
		too_long(js);
	return p;
}

/* ------------------------------------------------------------ feeding */

/* One structural byte (not whitespace) in states S_TOP .. S_AFTER. */
static void structural(struct json_stream *js, const char *p)
{
	unsigned char c = (unsigned char)*p;

	switch (js->st) {
	case S_TOP:
	case S_VALUE: begin_value(js, p); return;
	case S_ARRAY_FIRST:
		if (c == ']')
			close_container(js, p);
		else
			begin_value(js, p);
		return;
	case S_KEY_FIRST:
	case S_KEY:
		if (c == '"') {
			js->st = S_STRING;
			js->str_key = 1;
			js->esc = 0;
			js->need_low = 0;
			sbuf_reset(&js->text);
		} else if (c == '}' && js->st == S_KEY_FIRST) {
			close_container(js, p);
		} else {
			bad(js, "not valid JSON");
		}
		return;
	case S_COLON:
		if (c == ':')
			js->st = S_VALUE;
		else
			bad(js, "not valid JSON");
		return;
	case S_AFTER:
		if (c == ',')
			js->st = js->kind[js->depth] == 'o' ? S_KEY : S_VALUE;
		else if ((c == '}' && js->kind[js->depth] == 'o') ||
			 (c == ']' && js->kind[js->depth] == 'a'))
			close_container(js, p);
		else
			bad(js, "not valid JSON");
		return;
	default: bad(js, "not valid JSON");
	}
}

int js_feed(struct json_stream *js, const char *buf, size_t len, char *err)
{
	const char *p = buf, *end = buf + len;

	if (js->capturing)
		js->cap_from = buf;
	while (p < end && !js->err_code) {
		switch (js->st) {
		case S_STRING: p = string_run(js, p, end); break;
		case S_NUMBER: p = number_run(js, p, end); break;
		case S_LITERAL:
			if (*p != js->lit[js->lit_pos]) {
				bad(js, "not valid JSON");
				break;
			}
			if (!js->lit[++js->lit_pos]) {
				emit(js, js->lit_ev, js->depth, NULL, 0);
				end_value(js, js->depth, p + 1);
			}
			p++;
			break;
		default:
			while (p < end && is_ws[(unsigned char)*p]) {
				if (*p == '\n')
					js->line++;
				p++;
			}
			if (p < end) {
				structural(js, p);
				p++;
			}
		}
	}
	if (!js->err_code && js->capturing)
		cap_flush(js, end);
	if (js->err_code) {
		if (err)
			memcpy(err, js->err, sizeof(js->err));
		return js->err_code;
	}
	return EBS_OK;
}

int js_finish(struct json_stream *js, char *err)
{
	if (!js->err_code && js->st == S_NUMBER && js->depth == 0)
		end_number(js, NULL);
	if (!js->err_code && js->st != S_TOP)
		bad(js, "not valid JSON (cut short)");
	if (!js->err_code && !js->docs) {
		js->err_code = EBS_ERR_PARSE;
		xsnprintf(js->err, sizeof(js->err), "empty");
	}
	if (js->err_code) {
		if (err)
			memcpy(err, js->err, sizeof(js->err));
		return js->err_code;
	}
	return EBS_OK;
}
