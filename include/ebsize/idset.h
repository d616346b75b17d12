/*
 * idset.h - a set of volume ids, each with a small number (the file it was
 * read from), for the duplicate check of a scan over millions of volumes.
 * An EC2 volume id ("vol-" and 8 or 17 lowercase hex digits) is stored
 * inline, packed into its 16-byte slot: no copy of the string, no pointer,
 * about 32 bytes per id at most (issue 14: 1M volumes in 100 MiB).  Any
 * other id (a Kubernetes volume handle, a test's "vol-1") goes to a
 * strmap beside it, so every string is a valid key.
 */
#ifndef EBSIZE_IDSET_H
#define EBSIZE_IDSET_H

#include <stddef.h>
#include <stdint.h>

#include "ebsize/strmap.h"

struct idset_slot {
	uint64_t lo;  /* the low 64 bits of the hex digits' value */
	uint32_t tag; /* 0 empty; else IDSET_USED | form | top 4 bits */
	uint32_t val;
};

struct idset {
	struct idset_slot *slots;
	size_t cap;	     /* a power of two, or 0 */
	size_t n;	     /* ids held inline */
	struct strmap other; /* ids of any other form -> val + 1 */
};

#define IDSET_INIT                      \
	{                               \
		NULL, 0, 0, STRMAP_INIT \
	}

/*
 * Add id with val.  Returns 1 when id is new; 0 when it was there (the
 * set keeps the first val, and *prev, when not NULL, gets it).
 */
int idset_add(struct idset *s, const char *id, uint32_t val, uint32_t *prev);
/* 1 and *val (when not NULL) set when id is in the set, else 0. */
int idset_get(const struct idset *s, const char *id, uint32_t *val);
/* How many ids the set holds. */
size_t idset_count(const struct idset *s);
void idset_release(struct idset *s);

#endif
