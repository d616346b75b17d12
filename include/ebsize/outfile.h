/*
 * outfile.h - a result file that appears whole or not at all (-o FILE).
 *
 * outfile_open creates a temporary file next to PATH (same directory, so
 * the final rename is atomic).  The caller writes through outfile_stream,
 * or, for a library that opens files by name (libxlsxwriter), to
 * outfile_tmp_path.  outfile_commit flushes, fsyncs and renames the
 * temporary file over PATH; outfile_abort removes it.  Until then PATH is
 * untouched: a failure leaves whatever was there before.
 *
 * While a file is open, SIGINT, SIGTERM and SIGHUP remove its temporary
 * file and say so on stderr before the process dies of the signal
 * (signals already ignored stay ignored), and SIGXFSZ is ignored so that a file-size limit is a
 * write error (EFBIG) instead of a silent death.
 *
 * A PATH that exists and is not a regular file (/dev/null, a FIFO) cannot
 * be replaced atomically: it is written in place, unless the caller asks
 * for a regular file (OUTFILE_REGULAR), which is then an error.
 */
#ifndef EBSIZE_OUTFILE_H
#define EBSIZE_OUTFILE_H

#include <stdio.h>

struct outfile;

#define OUTFILE_REGULAR 1 /* refuse targets that are not regular files */

/*
 * Create the temporary file for path.  Returns EBS_OK and *out, or
 * EBS_ERR_IO with a message naming path in err (EBS_ERRLEN): a missing or
 * unwritable directory, a directory at path, too many open outfiles.
 */
int outfile_open(const char *path, unsigned flags, struct outfile **out,
		 char *err);

/* The stream to write the result to (owned by the outfile). */
FILE *outfile_stream(struct outfile *of);
/* The temporary file's name, for writers that open by name; it is
 * path itself when path is written in place. */
const char *outfile_tmp_path(const struct outfile *of);
/* The final name, as given to outfile_open. */
const char *outfile_path(const struct outfile *of);

/*
 * Flush, fsync and close the stream, then rename the temporary file over
 * the final name.  Frees of (always).  EBS_OK, or EBS_ERR_IO with a message
 * naming the final path (the temporary file is removed then).
 */
int outfile_commit(struct outfile *of, char *err);

/* Close and remove the temporary file; free of.  NULL-safe. */
void outfile_abort(struct outfile *of);

/*
 * While msg is set, SIGINT, SIGTERM and SIGHUP also write msg (a whole
 * line, "error: interrupted: ...\n"; it must stay valid) to stderr before
 * the process dies of the signal, as for a file being written; NULL takes
 * it away.  For work that stores nothing until its end (a fetch): clear it
 * before the storing starts.
 */
void outfile_on_interrupt(const char *msg);

#endif
