/*
 * idset.c - volume ids packed into their hash slots (see idset.h).  Open
 * addressing with linear probing, grown at 75 % load; no deletion (a scan
 * only adds).  "vol-" + 17 hex digits is a 68-bit number: the low 64 bits
 * in lo, the top 4 in the tag with a bit for the 8-digit form, so that
 * "vol-0000000a" and "vol-0000000000000000a" stay apart.
 */
#include "ebsize/idset.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

#define IDSET_USED  0x80000000u
#define IDSET_SHORT 0x10u

/* The packed form of id: 0 and lo/tag set, or -1 when id is not
 * "vol-" with 8 or 17 lowercase hex digits. */
static int pack(const char *id, uint64_t *lo, uint32_t *tag)
{
	uint64_t v = 0;
	uint32_t top = 0;
	size_t n;

	if (strncmp(id, "vol-", 4))
		return -1;
	id += 4;
	for (n = 0; id[n]; n++) {
		unsigned d;

		if (id[n] >= '0' && id[n] <= '9')
			d = (unsigned)(id[n] - '0');
		else if (id[n] >= 'a' && id[n] <= 'f')
			d = (unsigned)(id[n] - 'a' + 10);
		else
			return -1;
		if (n >= 17)
			return -1;
		top = (top << 4 | (uint32_t)(v >> 60)) & 0xFu;
		v = v << 4 | d;
	}
	if (n != 8 && n != 17)
		return -1;
	*lo = v;
	*tag = IDSET_USED | (n == 8 ? IDSET_SHORT : 0) | top;
	return 0;
}

/* splitmix64's finaliser: every bit of the id moves the slot. */
static uint64_t mix(uint64_t lo, uint32_t tag)
{
	uint64_t z = lo ^ ((uint64_t)tag << 32);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static struct idset_slot *find(const struct idset *s, uint64_t lo, uint32_t tag)
{
	size_t i = (size_t)mix(lo, tag) & (s->cap - 1);

	while (s->slots[i].tag &&
	       (s->slots[i].tag != tag || s->slots[i].lo != lo))
		i = (i + 1) & (s->cap - 1);
	return &s->slots[i];
}

static void grow(struct idset *s)
{
	struct idset old = *s;

	s->cap = old.cap ? old.cap * 2 : 1024;
	s->slots = xcalloc(s->cap, sizeof(*s->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].tag)
			*find(s, old.slots[i].lo, old.slots[i].tag) =
			    old.slots[i];
	free(old.slots);
}

int idset_add(struct idset *s, const char *id, uint32_t val, uint32_t *prev)
{
	struct idset_slot *slot;
	uint64_t lo;
	uint32_t tag;
	void *had;

	if (pack(id, &lo, &tag)) {
		had = strmap_get(&s->other, id);
		if (had) {
			if (prev)
				*prev = (uint32_t)((uintptr_t)had - 1);
			return 0;
		}
		strmap_put(&s->other, id, (void *)((uintptr_t)val + 1));
		return 1;
	}
	if ((s->n + 1) * 4 > s->cap * 3)
		grow(s);
	slot = find(s, lo, tag);
	if (slot->tag) {
		if (prev)
			*prev = slot->val;
		return 0;
	}
	slot->lo = lo;
	slot->tag = tag;
	slot->val = val;
	s->n++;
	return 1;
}

int idset_get(const struct idset *s, const char *id, uint32_t *val)
{
	const struct idset_slot *slot;
	uint64_t lo;
	uint32_t tag;
	void *had;

	if (pack(id, &lo, &tag)) {
		if (!(had = strmap_get(&s->other, id)))
			return 0;
		if (val)
			*val = (uint32_t)((uintptr_t)had - 1);
		return 1;
	}
	if (!s->cap)
		return 0;
	slot = find(s, lo, tag);
	if (!slot->tag)
		return 0;
	if (val)
		*val = slot->val;
	return 1;
}

size_t idset_count(const struct idset *s)
{
	return s->n + s->other.n;
}

void idset_release(struct idset *s)
{
	if (!s)
		return;
	free(s->slots);
	strmap_release(&s->other);
	memset(s, 0, sizeof(*s));
}
