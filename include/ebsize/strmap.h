/*
 * strmap.h - a string-keyed hash map (open addressing, linear probing) for
 * lookups by volume id over inventories of 100,000+ volumes.  Keys are
 * copied; values are caller-owned pointers the map never frees.
 */
#ifndef EBSIZE_STRMAP_H
#define EBSIZE_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	char *key;
	void *val;
	uint64_t hash;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

#define STRMAP_INIT        \
	{                  \
		NULL, 0, 0 \
	}

/* The value stored under key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);
/*
 * Store val under key.  Returns the previous value when key was present
 * (and replaces it), else NULL.
 */
void *strmap_put(struct strmap *m, const char *key, void *val);
/* Visit every entry (any order). */
void strmap_each(const struct strmap *m,
		 void (*fn)(const char *key, void *val, void *arg), void *arg);
/* Free the keys and the table (not the values); NULL-safe, reusable. */
void strmap_release(struct strmap *m);

#endif
