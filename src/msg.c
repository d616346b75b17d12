/*
 * msg.c - stderr messages in one voice (git's conventions): lowercase,
 * no full stop, the subject quoted.  Progress is drawn only on a TTY and
 * never when -q is given.
 */
#include "ebsize/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ebsize/cli.h"
#include "ebsize/util.h"

static int quiet;
static int progress_shown;
static struct msg_capture *capture;

void msg_capture_start(struct msg_capture *c)
{
	capture = c;
}

void msg_capture_stop(void)
{
	capture = NULL;
}

static void list_free(struct msg_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void msg_capture_reset(struct msg_capture *c)
{
	list_free(&c->errors);
	list_free(&c->warnings);
	list_free(&c->hints);
	list_free(&c->infos);
}

/* Keep text (the caller's) in the capture list for prefix. */
static void keep(const char *prefix, char *text)
{
	struct msg_list *l = !strcmp(prefix, "error: ")	    ? &capture->errors
			     : !strcmp(prefix, "warning: ") ? &capture->warnings
			     : !strcmp(prefix, "hint: ")    ? &capture->hints
							    : &capture->infos;

	xgrow((void **)&l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = text;
}

void msg_set_quiet(int q)
{
	quiet = q;
}

int msg_quiet(void)
{
	return quiet;
}

int msg_progress_enabled(void)
{
	return !quiet && !capture && isatty(STDERR_FILENO);
}

static void clear_progress(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

/*
 * One line on stderr: the formatted text with every control character
 * made visible (messages quote names, tags and values from outside, and
 * an escape sequence in them must not reach the terminal).
 */
static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	struct sbuf sb = SBUF_INIT((size_t)1 << 20);
	char *text = xvstrfmt(fmt, ap);

	if (capture) {
		keep(prefix, text);
		return;
	}
	clear_progress();
	sbuf_add_visible(&sb, text, 0);
	fputs(prefix, stderr);
	fputs(sb.buf ? sb.buf : "", stderr);
	fputc('\n', stderr);
	sbuf_release(&sb);
	free(text);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("error: ", fmt, ap);
	va_end(ap);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("warning: ", fmt, ap);
	va_end(ap);
}

void msg_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("hint: ", fmt, ap);
	va_end(ap);
}

void msg_info(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}

void msg_progress(const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT(4096);
	va_list ap;
	char *text;

	if (!msg_progress_enabled())
		return;
	va_start(ap, fmt);
	text = xvstrfmt(fmt, ap);
	va_end(ap);
	sbuf_add_visible(&sb, text, 0);
	fputs("\r\033[K", stderr);
	fputs(sb.buf ? sb.buf : "", stderr);
	fflush(stderr);
	progress_shown = 1;
	sbuf_release(&sb);
	free(text);
}

void msg_progress_done(void)
{
	clear_progress();
}

int msg_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("error: ", fmt, ap);
	va_end(ap);
	if (capture)
		return EXIT_USAGE;
	if (cmd)
		fprintf(stderr, "hint: see 'ebsize %s -h'\n", cmd);
	else
		fputs("hint: see 'ebsize help'\n", stderr);
	return EXIT_USAGE;
}
