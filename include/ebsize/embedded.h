/*
 * embedded.h - data compiled into the binary by tools/embed.c from sql/
 * and pricing/ (build/gen/embedded.c, generated, not in git).
 */
#ifndef EBSIZE_EMBEDDED_H
#define EBSIZE_EMBEDDED_H

#include <stddef.h>

struct embedded_file {
	const char *name; /* path relative to the source tree */
	const char *data; /* NUL-terminated */
	size_t len;
};

extern const struct embedded_file embedded_files[];
extern const size_t embedded_files_count;

/* The embedded file called name, or NULL. */
const struct embedded_file *embedded_find(const char *name);

#endif
