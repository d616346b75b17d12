/*
 * msg.h - everything ebsize says on stderr goes through here: errors,
 * warnings, hints, informational lines (silenced by -q) and the progress
 * line (only on a TTY).  Only the command layer calls these.
 */
#ifndef EBSIZE_MSG_H
#define EBSIZE_MSG_H

#include <stddef.h>

void msg_set_quiet(int quiet);
int msg_quiet(void);
/* True when stderr is a terminal and progress lines may be drawn. */
int msg_progress_enabled(void);

void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Redraw the progress line in place; msg_progress_done() ends it. */
void msg_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_progress_done(void);

/* Print a usage error with a hint to see `ebsize CMD -h`; returns 2. */
int msg_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Capture instead of print (`--batch`: a request's messages go into its
 * result line): between msg_capture_start and msg_capture_stop, errors,
 * warnings, hints and informational lines are kept in c, as text without
 * the "error: " prefix, and nothing reaches stderr; the "see 'ebsize CMD
 * -h'" hint of a usage error is dropped.  Progress lines are not shown.
 */
struct msg_list {
	char **v;
	size_t n, alloc;
};
struct msg_capture {
	struct msg_list errors, warnings, hints, infos;
};
void msg_capture_start(struct msg_capture *c);
void msg_capture_stop(void);
/* Empty c (free its texts) for the next request. */
void msg_capture_reset(struct msg_capture *c);

#endif
