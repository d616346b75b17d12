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
					if (r->p + 1 < r->end &&
					    r->p[1] == '"') {
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

/* ------------------------------------------------------------ streaming */

/*
 * The push reader keeps the same rules as csv_next (a quote opens a quoted
 * part only at the start of a field; text after a closing quote and a
 * lone CR are kept as they are; blank lines are skipped), but as a state
 * machine that can stop in the middle of a record at the end of a chunk.
 */
enum {
	CS_RECORD, /* between records: skipping blank lines */
	CS_FIELD,  /* at the start of a field */
	CS_PLAIN,  /* inside an unquoted field (or after a quoted part) */
	CS_QUOTED, /* inside quotes */
	CS_QUOTE,  /* a quote inside quotes: a doubled one, or the end */
	CS_CR	   /* a CR outside quotes: CRLF ends the record */
};

void csv_stream_init(struct csv_stream *s, size_t max_record)
{
	memset(s, 0, sizeof(*s));
	s->line = 1;
	s->max_record = max_record;
}

static int cs_add(struct csv_stream *s, const char *p, size_t n)
{
	if (n > s->max_record - s->len)
		return CSV_TOO_BIG;
	if (s->len + n + 1 > s->alloc)
		xgrow((void **)&s->buf, &s->alloc, s->len + n + 1, 1);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

static void cs_begin_record(struct csv_stream *s)
{
	s->record_line = s->line;
	s->len = 0;
	s->nf = 0;
	if (!s->alloc)
		xgrow((void **)&s->buf, &s->alloc, 256, 1);
	xgrow((void **)&s->offs, &s->aoffs, 1, sizeof(*s->offs));
	s->offs[s->nf++] = 0;
}

static int cs_emit(struct csv_stream *s, csv_record_fn fn, void *arg)
{
	if (s->len + 1 > s->alloc)
		xgrow((void **)&s->buf, &s->alloc, s->len + 1, 1);
	s->buf[s->len] = '\0';
	xgrow((void **)&s->fields, &s->afields, s->nf, sizeof(*s->fields));
	for (size_t i = 0; i < s->nf; i++)
		s->fields[i] = s->buf + s->offs[i];
	s->state = CS_RECORD;
	return fn(s->fields, s->nf, s->record_line, arg);
}

/* Length of the run at p (before end) free of the bytes in stop[]. */
static size_t cs_run(const char *p, const char *end, const unsigned char *stop)
{
	const char *q = p;

	while (q < end && !stop[(unsigned char)*q])
		q++;
	return (size_t)(q - p);
}

/* Bytes that end a run of text inside quotes. */
static const unsigned char cs_stop_quoted[256] = { ['"'] = 1, ['\n'] = 1 };

/*
 * Unquoted text in one sweep (the hot path: most of a billing export):
 * bytes copied, each comma turned into the end of a field, until a line
 * end, a quote opening a field, the end of the chunk or the cap.  Leaves
 * *pp at the byte that stopped it and the state CS_FIELD after a comma,
 * CS_QUOTED after an opening quote, else CS_PLAIN.
 */
static int cs_plain(struct csv_stream *s, const char **pp, const char *end)
{
	const char *p = *pp, *stop;
	size_t want = (size_t)(end - p), room = s->max_record - s->len;
	int at_start = s->state == CS_FIELD;
	char *o;

	if (want > room)
		want = room;
	if (s->len + want + 1 > s->alloc)
		xgrow((void **)&s->buf, &s->alloc, s->len + want + 1, 1);
	o = s->buf + s->len;
	stop = p + want;
	s->state = CS_PLAIN;
	while (p < stop) {
		char c = *p;

		if (c == ',') {
			*o++ = '\0';
			p++;
			if (s->nf + 1 > s->aoffs)
				xgrow((void **)&s->offs, &s->aoffs, s->nf + 1,
				      sizeof(*s->offs));
			s->offs[s->nf++] = (size_t)(o - s->buf);
			at_start = 1;
			if (p < end && *p == '"') {
				p++;
				s->state = CS_QUOTED;
				break;
			}
			continue;
		}
		if (c == '\n' || c == '\r')
			break;
		*o++ = c;
		p++;
		at_start = 0;
	}
	s->len = (size_t)(o - s->buf);
	*pp = p;
	if (s->state == CS_QUOTED)
		return 0;
	if (at_start)
		s->state = CS_FIELD;
	/* every byte read was kept: at the cap with more text to come */
	if (p == stop && p < end && *p != '\n' && *p != '\r')
		return CSV_TOO_BIG;
	return 0;
}

/*
 * The state machine over one chunk.  Each case consumes at least one byte
 * or changes state without consuming, so the loop always ends.
 */
static int cs_run_chunk(struct csv_stream *s, const char *p, const char *end,
			csv_record_fn fn, void *arg)
{
	const unsigned char *inq = cs_stop_quoted;
	size_t n;
	int rc;

	while (p < end) {
		switch (s->state) {
		case CS_RECORD:
			if (*p == '\n' || *p == '\r') {
				s->line += *p == '\n';
				p++;
				continue;
			}
			cs_begin_record(s);
			s->state = CS_FIELD;
			continue;
		case CS_FIELD:
			if (*p == '"') {
				p++;
				s->state = CS_QUOTED;
				continue;
			}
			/* fall through */
		case CS_PLAIN:
			if ((rc = cs_plain(s, &p, end)))
				return rc;
			if (p == end || s->state == CS_QUOTED)
				continue;
			if (*p == '\n') {
				s->line++;
				if ((rc = cs_emit(s, fn, arg)))
					return rc;
			} else {
				s->state = CS_CR;
			}
			p++;
			continue;
		case CS_CR:
			if (*p == '\n') {
				s->line++;
				p++;
				if ((rc = cs_emit(s, fn, arg)))
					return rc;
				continue;
			}
			if ((rc = cs_add(s, "\r", 1)))
				return rc;
			s->state = CS_PLAIN;
			continue;
		case CS_QUOTED:
			n = cs_run(p, end, inq);
			if (n && (rc = cs_add(s, p, n)))
				return rc;
			p += n;
			if (p == end)
				break;
			if (*p == '\n') {
				s->line++;
				if ((rc = cs_add(s, p, 1)))
					return rc;
			} else {
				s->state = CS_QUOTE;
			}
			p++;
			continue;
		case CS_QUOTE:
			if (*p == '"') {
				if ((rc = cs_add(s, p, 1)))
					return rc;
				p++;
				s->state = CS_QUOTED;
				continue;
			}
			s->state = CS_PLAIN;
			continue;
		}
	}
	return 0;
}

int csv_stream_feed(struct csv_stream *s, const char *data, size_t len,
		    csv_record_fn fn, void *arg)
{
	static const char bom[3] = { '\xEF', '\xBB', '\xBF' };
	const char *p = data, *end = data + len;

	if (s->stopped)
		return s->stopped;
	/* a BOM may arrive split over chunks: hold the bytes matched so far
	 * and replay them as text when the match fails */
	while (s->bom < 3 && p < end) {
		if (*p == bom[s->bom]) {
			s->bom++;
			p++;
			continue;
		}
		int held = s->bom;

		s->bom = 3;
		if (held &&
		    (s->stopped = cs_run_chunk(s, bom, bom + held, fn, arg)))
			return s->stopped;
	}
	s->stopped = cs_run_chunk(s, p, end, fn, arg);
	return s->stopped;
}

int csv_stream_finish(struct csv_stream *s, csv_record_fn fn, void *arg)
{
	static const char bom[3] = { '\xEF', '\xBB', '\xBF' };
	int held = s->bom < 3 ? s->bom : 0;

	if (s->stopped)
		return s->stopped;
	s->bom = 3;
	if (held && (s->stopped = cs_run_chunk(s, bom, bom + held, fn, arg)))
		return s->stopped;
	switch (s->state) {
	case CS_RECORD: return 0;
	case CS_QUOTED: return s->stopped = CSV_MALFORMED;
	case CS_CR:
		if ((s->stopped = cs_add(s, "\r", 1)))
			return s->stopped;
		break;
	default: break;
	}
	return s->stopped = cs_emit(s, fn, arg);
}

void csv_stream_release(struct csv_stream *s)
{
	if (!s)
		return;
	free(s->buf);
	free(s->offs);
	free(s->fields);
	s->buf = NULL;
	s->offs = NULL;
	s->fields = NULL;
	s->alloc = s->aoffs = s->afields = s->len = s->nf = 0;
}
