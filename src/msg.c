/*
 * msg.c - stderr messages in one voice (git's conventions): lowercase,
 * no full stop, the subject quoted.  Progress is drawn only on a TTY and
 * never when -q is given.
 */
#include "ebsize/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "ebsize/cli.h"

static int quiet;
static int progress_shown;

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
	return !quiet && isatty(STDERR_FILENO);
}

static void clear_progress(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = 0;
	}
}

static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	clear_progress();
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	va_list ap;

	if (!msg_progress_enabled())
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = 1;
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
	if (cmd)
		fprintf(stderr, "hint: see 'ebsize %s -h'\n", cmd);
	else
		fputs("hint: see 'ebsize help'\n", stderr);
	return EXIT_USAGE;
}
