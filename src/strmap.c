/*
 * strmap.c - string-keyed hash map (FNV-1a, linear probing, grows at 70 %
 * load).  No deletion: scan inputs only ever add.  Values are not owned.
 */
#include "ebsize/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/*
 * Slot for key (of hash h): the one holding it, or the empty one where it
 * belongs.  Stored hashes spare most string compares and all rehashing.
 */
static struct strmap_slot *find(const struct strmap *m, const char *key,
				uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->slots[i].key &&
	       (m->slots[i].hash != h || strcmp(m->slots[i].key, key)))
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

void *strmap_get(const struct strmap *m, const char *key)
{
	struct strmap_slot *s;

	if (!m->cap)
		return NULL;
	s = find(m, key, hash(key));
	return s->key ? s->val : NULL;
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*find(m, old.slots[i].key, old.slots[i].hash) =
			    old.slots[i];
	free(old.slots);
}

void *strmap_put(struct strmap *m, const char *key, void *val)
{
	struct strmap_slot *s;
	uint64_t h = hash(key);
	void *prev;

	if ((m->n + 1) * 10 >= m->cap * 7)
		grow(m);
	s = find(m, key, h);
	if (s->key) {
		prev = s->val;
		s->val = val;
		return prev;
	}
	s->key = xstrdup(key);
	s->val = val;
	s->hash = h;
	m->n++;
	return NULL;
}

void strmap_each(const struct strmap *m,
		 void (*fn)(const char *key, void *val, void *arg), void *arg)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			fn(m->slots[i].key, m->slots[i].val, arg);
}

void strmap_release(struct strmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
