/*
 * cmd_batch.c - `--batch FILE` (src/cmd_batch.h): read the requests,
 * apply each one's keys to a copy of the command line's arguments through
 * the option table, run the command's checks and its answer with the
 * messages captured, and write one result per request.
 *
 * The input is read in chunks and never held whole: JSON Lines line by
 * line (a line over 1 MiB is an error for that line), CSV through the
 * streaming reader (src/csv.c).  JSON Lines and CSV results are written
 * as each request is answered; a table, Markdown or a workbook is written
 * at the end.
 */
#include "cmd_batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/batch.h"
#include "ebsize/csv.h"
#include "ebsize/msg.h"
#include "ebsize/out.h"
#include "ebsize/util.h"

const char *const batch_format_names[] = { "auto", "jsonl", "csv", NULL };

#define BATCH_CHUNK    (1u << 16)
#define BATCH_MAX_LINE (1u << 20) /* one request: 1 MiB */

struct run {
	struct cli_ctx *ctx;
	const struct batch_cmd *bc;
	const void *base;
	void *state;
	const char *path;
	struct opt_seen seen; /* the command line's, batch options out */
	char keys[512];	      /* "id, region, iops ... or as-of" */
	enum out_format fmt;  /* JSON: lines; CSV: streamed rows; else
				      the whole table at the end */
	FILE *out;
	struct out_doc *tdoc; /* the whole table */
	struct out_table *table;
	int header_out; /* CSV: the header is written */
	struct batch_req req;
	struct msg_capture cap;
	char **hdr; /* CSV input: its header */
	size_t nhdr;
	size_t lineno; /* JSON Lines: lines read */
	char *line;    /* JSON Lines: the line being read */
	size_t len, alloc;
	int too_long;
	size_t requests, failed;
	int fatal;	  /* reading stopped: exit 1, output not whole */
	struct sbuf text; /* scratch: joined messages */
	char *mem;	  /* scratch: a rendered CSV row */
	size_t mlen;
};

/* ------------------------------------------------------------ checks */

static int not_per_request(const struct batch_cmd *bc, const char *name)
{
	for (size_t i = 0; bc->not_per_request && bc->not_per_request[i]; i++)
		if (!strcmp(bc->not_per_request[i], name))
			return 1;
	return 0;
}

int batch_check(struct cli_ctx *ctx, const struct batch_cmd *bc)
{
	const struct opt *opts = bc->cmd->opts;

	for (const struct opt *o = opts; o->name; o++) {
		if ((o->flags & OPT_BATCH) && strcmp(o->name, "batch") &&
		    cli_given(ctx, o->name) && !cli_given(ctx, "batch"))
			return msg_usage_error(ctx->cmd_name,
					       "--%s needs --batch", o->name);
		if (not_per_request(bc, o->name) && cli_given(ctx, o->name) &&
		    cli_given(ctx, "batch"))
			return msg_usage_error(
			    ctx->cmd_name, "--%s cannot be used with --batch",
			    o->name);
	}
	if (ctx->table && strcmp(ctx->table, "results"))
		return msg_usage_error(
		    ctx->cmd_name,
		    "with --batch the only table is 'results', not '%s'",
		    ctx->table);
	return EXIT_OK;
}

/* The option of key for a request, or NULL (a usage error said). */
static const struct opt *key_option(struct run *b, const char *cmd,
				    const char *key)
{
	const struct opt *o = opt_find(b->bc->cmd->opts, key);

	if (o && !(o->flags & (OPT_BATCH | OPT_HIDDEN)) &&
	    !not_per_request(b->bc, key))
		return o;
	if (o)
		msg_usage_error(cmd, "'%s' cannot be given per request", key);
	else
		msg_usage_error(cmd, "unknown key '%s' (use %s)", key, b->keys);
	return NULL;
}

static void list_keys(struct run *b)
{
	const char *names[OPT_MAX + 3];
	size_t n = 0;

	names[n++] = "id";
	names[n++] = "region";
	for (const struct opt *o = b->bc->cmd->opts;
	     o->name && n + 1 < ARRAY_SIZE(names); o++)
		if (!(o->flags & (OPT_BATCH | OPT_HIDDEN)) &&
		    !not_per_request(b->bc, o->name))
			names[n++] = o->name;
	names[n] = NULL;
	opt_join_choices(names, b->keys, sizeof(b->keys));
}

/*
 * The keys of a request into args and ctx (region); EXIT_USAGE after a
 * message for the first bad one.
 */
static int apply(struct run *b, struct cli_ctx *ctx, void *args)
{
	const struct opt *opts = b->bc->cmd->opts;

	for (size_t i = 0; i < b->req.n; i++) {
		const struct batch_field *f = &b->req.f[i];
		const struct opt *o;

		if (!strcmp(f->key, "id"))
			continue;
		if (!strcmp(f->key, "region")) {
			if (!f->val)
				continue;
			if (!cli_region_well_formed(f->val))
				return msg_usage_error(
				    ctx->cmd_name,
				    "'%s' is not an AWS region code (like us-east-1)",
				    f->val);
			ctx->region = f->val;
			continue;
		}
		if (!(o = key_option(b, ctx->cmd_name, f->key)))
			return EXIT_USAGE;
		if (!f->val)
			continue; /* null, an empty cell: not given */
		if (o->kind == OPT_FLAG) {
			if (strcmp(f->val, "true") && strcmp(f->val, "false"))
				return msg_usage_error(
				    ctx->cmd_name,
				    "'%s' is true or false, not '%s'", f->key,
				    f->val);
			if (!strcmp(f->val, "false"))
				continue;
		}
		if (opt_set(ctx->cmd_name, o, f->val, args))
			return EXIT_USAGE;
		ctx->seen.bits |= (uint64_t)1 << (o - opts);
	}
	return EXIT_OK;
}

/* ------------------------------------------------------------ output */

/* Messages of list l joined with "; " (NULL when none). */
static const char *joined(struct run *b, const struct msg_list *l)
{
	sbuf_reset(&b->text);
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			sbuf_addstr(&b->text, "; ");
		sbuf_addstr(&b->text, l->v[i]);
	}
	return l->n ? b->text.buf : NULL;
}

/* doc rendered in fmt into b->mem (b->mlen bytes). */
static void render_mem(struct run *b, const struct out_doc *doc,
		       enum out_format fmt)
{
	FILE *m;

	free(b->mem);
	b->mem = NULL;
	b->mlen = 0;
	m = open_memstream(&b->mem, &b->mlen);
	if (!m || out_render(doc, fmt, m) || fclose(m)) {
		fputs("fatal: out of memory rendering a result\n", stderr);
		abort();
	}
}

/*
 * The JSON line: pre is the first section of doc (a root record, before
 * the command's result), so its fields come first.
 */
static void emit_json(struct run *b, size_t line, const char *id, int rc,
		      struct out_doc *doc, struct out_table *pre)
{
	out_kv_str(pre, "id", "Id", id);
	if (rc) {
		out_kv_int(pre, "line", "Line", (long long)line);
		out_kv_int(pre, "exit", "Exit", rc);
		out_kv_str(pre, "error", "Error", joined(b, &b->cap.errors));
		out_col(pre, "hints", "Hints", OUT_TEXT);
		out_strv(pre, (const char *const *)b->cap.hints.v,
			 b->cap.hints.n);
	}
	out_render(doc, OUT_JSON, b->out);
}

static void table_columns(struct run *b, struct out_table *t)
{
	out_col(t, "id", "Id", OUT_TEXT);
	out_col(t, "line", "Line", OUT_INT);
	out_col(t, "exit", "Exit", OUT_INT);
	out_col(t, "error", "Error", OUT_TEXT);
	b->bc->columns(t);
	out_col(t, "notes", "Notes", OUT_TEXT);
}

static void table_row(struct run *b, struct out_table *t, size_t line,
		      const char *id, int rc, const void *args,
		      const struct out_doc *doc)
{
	out_row(t);
	out_str(t, id);
	out_int(t, (long long)line);
	out_int(t, rc);
	out_str(t, rc ? joined(b, &b->cap.errors) : NULL);
	b->bc->row(t, args, b->state, doc != NULL);
	sbuf_reset(&b->text);
	for (size_t i = 0; doc && i < out_doc_nnotes(doc); i++) {
		if (i)
			sbuf_addstr(&b->text, "; ");
		sbuf_addstr(&b->text, out_doc_note(doc, i));
	}
	out_str(t, doc && out_doc_nnotes(doc) ? b->text.buf : NULL);
}

/* One CSV row: a one-row document, its header written only once. */
static void emit_csv(struct run *b, size_t line, const char *id, int rc,
		     const void *args, const struct out_doc *doc)
{
	struct out_doc *d = out_doc_new();
	struct out_table *t = out_list(d, "results", NULL);
	char *row;

	out_main(t);
	table_columns(b, t);
	table_row(b, t, line, id, rc, args, doc);
	render_mem(b, d, OUT_CSV);
	row = b->header_out ? memchr(b->mem, '\n', b->mlen) : NULL;
	row = row ? row + 1 : b->mem;
	fwrite(row, 1, b->mlen - (size_t)(row - b->mem), b->out);
	b->header_out = 1;
	out_doc_free(d);
}

/* ------------------------------------------------------------ requests */

/* Did writing a streamed result fail (a full disk)? */
static int out_failed(const struct run *b)
{
	return b->out && ferror(b->out);
}

/*
 * Answer the request in b->req (parsed: why NULL; else the reason it
 * could not be read) from line `line`, and write its result.
 */
static void answer_one(struct run *b, size_t line, const char *why)
{
	const struct cmd *c = b->bc->cmd;
	const struct batch_field *idf = why ? NULL : batch_find(&b->req, "id");
	struct cli_ctx ctx = *b->ctx;
	struct out_doc *doc = out_doc_new();
	struct out_table *pre = out_record(doc, NULL, NULL);
	void *args = xmalloc(c->args_size);
	const char *id = idf ? idf->val : NULL;
	int rc, answered = 0;

	memcpy(args, b->base, c->args_size);
	ctx.seen = b->seen;
	msg_capture_start(&b->cap);
	if (why) {
		msg_error("cannot parse '%s': line %zu: %s", b->path, line,
			  why);
		rc = EXIT_USAGE;
	} else {
		rc = apply(b, &ctx, args);
	}
	if (!rc && opt_check_required(ctx.cmd_name, c->opts, &ctx.seen))
		rc = EXIT_USAGE;
	if (!rc && c->check)
		rc = c->check(&ctx, args);
	if (!rc)
		rc = b->bc->answer(&ctx, args, b->state, doc, &answered);
	msg_capture_stop();
	b->requests++;
	if (rc)
		b->failed++;
	if (!answered) {
		/* whatever the answer began is no result */
		out_doc_free(doc);
		doc = out_doc_new();
		pre = out_record(doc, NULL, NULL);
	}
	if (b->fmt == OUT_JSON)
		emit_json(b, line, id, rc, doc, pre);
	else if (b->fmt == OUT_CSV)
		emit_csv(b, line, id, rc, args, answered ? doc : NULL);
	else
		table_row(b, b->table, line, id, rc, args,
			  answered ? doc : NULL);
	/* warnings and notes are not the result: stderr, with the line */
	for (size_t i = 0; i < b->cap.warnings.n; i++)
		msg_warn("line %zu: %s", line, b->cap.warnings.v[i]);
	for (size_t i = 0; i < b->cap.infos.n; i++)
		msg_info("line %zu: %s", line, b->cap.infos.v[i]);
	msg_capture_reset(&b->cap);
	out_doc_free(doc);
	free(args);
}

/* ------------------------------------------------------------ JSON Lines */

static void jsonl_line(struct run *b)
{
	char why[160];
	const char *p = b->line;
	size_t len = b->len;

	b->lineno++;
	if (b->too_long) {
		xsnprintf(why, sizeof(why), "longer than %u bytes",
			  BATCH_MAX_LINE);
		answer_one(b, b->lineno, why);
		return;
	}
	if (b->lineno == 1 && len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3, len -= 3;
	if (strspn(p, " \t\r") == len)
		return; /* a blank line: no request */
	if (batch_parse_json(p, len, &b->req, why, sizeof(why)))
		answer_one(b, b->lineno, why);
	else
		answer_one(b, b->lineno, NULL);
}

static void jsonl_feed(struct run *b, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) : n;

		if (!b->too_long && b->len + take > BATCH_MAX_LINE)
			b->too_long = 1;
		if (!b->too_long) {
			xgrow((void **)&b->line, &b->alloc, b->len + take + 1,
			      1);
			memcpy(b->line + b->len, p, take);
			b->len += take;
			b->line[b->len] = '\0';
		}
		if (!nl)
			return;
		jsonl_line(b);
		b->len = 0;
		b->too_long = 0;
		if (b->line)
			b->line[0] = '\0';
		p = nl + 1;
		n -= take + 1;
	}
}

static void jsonl_finish(struct run *b)
{
	if (b->len || b->too_long)
		jsonl_line(b);
}

/* ------------------------------------------------------------ CSV */

static int csv_header(struct run *b, char **fld, size_t n, size_t line)
{
	char why[160];

	if (batch_check_header(fld, n, why, sizeof(why))) {
		msg_error("cannot read '%s': line %zu: %s", b->path, line, why);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct opt *o = opt_find(b->bc->cmd->opts, fld[i]);

		if (!strcmp(fld[i], "id") || !strcmp(fld[i], "region"))
			continue;
		if (!o || (o->flags & (OPT_BATCH | OPT_HIDDEN)) ||
		    not_per_request(b->bc, fld[i])) {
			msg_error(
			    "cannot read '%s': line %zu: %s column '%s' (use %s)",
			    b->path, line, o ? "no per-request" : "unknown",
			    fld[i], b->keys);
			return -1;
		}
	}
	b->hdr = xcalloc(n, sizeof(*b->hdr));
	for (size_t i = 0; i < n; i++)
		b->hdr[i] = xstrdup(fld[i]);
	b->nhdr = n;
	return 0;
}

static int csv_record(char **fld, size_t n, size_t line, void *arg)
{
	struct run *b = arg;
	char why[160];
	size_t empty = 0;

	if (!b->hdr)
		return csv_header(b, fld, n, line) ? 1 : 0;
	for (size_t i = 0; i < n; i++)
		empty += !*fld[i];
	if (empty == n)
		return 0; /* ",,,": a spreadsheet's empty row */
	if (batch_from_csv(b->hdr, b->nhdr, fld, n, &b->req, why, sizeof(why)))
		answer_one(b, line, why);
	else
		answer_one(b, line, NULL);
	return out_failed(b) ? 2 : 0;
}

/* ------------------------------------------------------------ run */

/* Why reading stopped (csv_stream codes), said once. */
static void csv_stopped(struct run *b, int rc, const struct csv_stream *cs)
{
	if (rc == CSV_TOO_BIG)
		msg_error(
		    "cannot read '%s': line %zu: a record longer than %u bytes",
		    b->path, cs->record_line, BATCH_MAX_LINE);
	else if (rc == CSV_MALFORMED)
		msg_error("cannot read '%s': line %zu: a quote is never closed",
			  b->path, cs->record_line);
	b->fatal = 1;
}

static int read_input(struct run *b, FILE *f, int fmt)
{
	struct csv_stream cs;
	char *buf = xmalloc(BATCH_CHUNK);
	size_t have = 0, n, blank = 0;
	int rc = 0;

	csv_stream_init(&cs, BATCH_MAX_LINE);
	/* until the format is known: the first byte that is not blank */
	while (fmt == BATCH_AUTO) {
		if (have == BATCH_CHUNK) {
			/* a chunk of blanks: forget it, but not its lines */
			for (size_t i = 0; i < have; i++)
				blank += buf[i] == '\n';
			have = 0;
		}
		n = fread(buf + have, 1, BATCH_CHUNK - have, f);
		have += n;
		fmt = batch_detect(buf, have);
		if (!n)
			break;
	}
	cs.line += blank;
	b->lineno += blank;
	n = have;
	do {
		if (fmt == BATCH_CSV) {
			if ((rc = csv_stream_feed(&cs, buf, n, csv_record, b)))
				break;
		} else {
			jsonl_feed(b, buf, n);
			if (out_failed(b))
				break;
		}
	} while ((n = fread(buf, 1, BATCH_CHUNK, f)) > 0);
	if (ferror(f)) {
		msg_error("cannot read '%s': %s", b->path,
			  strerror(errno ? errno : EIO));
		b->fatal = 1;
	} else if (fmt == BATCH_CSV && !rc) {
		rc = csv_stream_finish(&cs, csv_record, b);
	} else if (fmt != BATCH_CSV && !out_failed(b)) {
		jsonl_finish(b);
	}
	if (rc == 1)
		b->fatal = 1; /* the header was said to be bad */
	else if (rc && rc != 2)
		csv_stopped(b, rc, &cs);
	csv_stream_release(&cs);
	free(buf);
	return b->fatal ? -1 : 0;
}

int batch_run(struct cli_ctx *ctx, const struct batch_cmd *bc, const char *path,
	      int fmt, const void *base, void *state)
{
	const struct opt *opts = bc->cmd->opts;
	struct run b = { 0 };
	int is_stdin = !strcmp(path, "-"), rc = EXIT_OK;
	FILE *f;

	b.ctx = ctx;
	b.bc = bc;
	b.base = base;
	b.state = state;
	b.path = path;
	b.seen = ctx->seen;
	for (const struct opt *o = opts; o->name; o++)
		if (o->flags & OPT_BATCH)
			b.seen.bits &= ~((uint64_t)1 << (o - opts));
	list_keys(&b);
	sbuf_init(&b.text, SIZE_MAX);
	/* JSON Lines unless a table format is asked for */
	b.fmt = ctx->format_set ? ctx->format : OUT_JSON;
	if (b.fmt == OUT_JSON || b.fmt == OUT_CSV) {
		if (!(b.out = cli_out(ctx, ctx->cmd_name, "batch results")))
			return EXIT_USAGE;
	} else {
		b.tdoc = out_doc_new();
		b.table = out_list(b.tdoc, "results", "Results");
		out_main(b.table);
		table_columns(&b, b.table);
	}
	if (!(f = is_stdin ? stdin : fopen(path, "rb"))) {
		msg_error("cannot open '%s': %s", path, strerror(errno));
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (read_input(&b, f, fmt))
		rc = EXIT_RUNTIME;
	if (!is_stdin)
		fclose(f);
	if (!rc && out_failed(&b))
		rc = cli_write_error(ctx);
	if (!rc && b.tdoc)
		rc = cli_render(ctx, b.tdoc);
	if (!rc && !b.requests)
		msg_info("note: no requests in '%s'", path);
	if (!rc && b.failed) {
		msg_info("%zu of %zu requests failed", b.failed, b.requests);
		/* the output is whole: -o keeps it */
		ctx->out_complete = 1;
		rc = EXIT_RUNTIME;
	}
out:
	for (size_t i = 0; i < b.nhdr; i++)
		free(b.hdr[i]);
	free(b.hdr);
	free(b.line);
	batch_req_release(&b.req);
	msg_capture_reset(&b.cap);
	sbuf_release(&b.text);
	free(b.mem);
	out_doc_free(b.tdoc);
	return rc;
}
