/*
 * json_walk.c - the byte scanner and the cJSON arena behind the streaming
 * parsers (json_walk.h).  The scanner validates only what it must to find
 * a value's end (strings, nesting); cJSON validates the value itself.
 */
#include "json_walk.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

const char *json_skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

const char *json_skip_string(const char *p, const char *end, const char **fail)
{
	for (p++; p < end; p++) {
		if (*p == '"')
			return p + 1;
		if ((unsigned char)*p < 0x20)
			break;
		if (*p == '\\' && ++p >= end)
			break;
	}
	*fail = p < end ? p : end;
	return NULL;
}

const char *json_skip_value(const char *p, const char *end, const char **fail)
{
	size_t depth = 0;

	if (p >= end) {
		*fail = end;
		return NULL;
	}
	if (*p != '{' && *p != '[') {
		if (*p == '"')
			return json_skip_string(p, end, fail);
		while (p < end && !strchr(",}] \t\r\n", *p))
			p++;
		return p;
	}
	while (p < end) {
		if (*p == '"') {
			if (!(p = json_skip_string(p, end, fail)))
				return NULL;
			continue;
		}
		if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
		}
		p++;
	}
	*fail = end;
	return NULL;
}

int json_key_is(const char *p, const char *kend, const char *want)
{
	size_t n = strlen(want);

	return (size_t)(kend - p) == n + 2 && !memcmp(p + 1, want, n);
}

/* ------------------------------------------------------------ arena */

/*
 * Blocks of 64 KiB (or one block per oversized request); every parse
 * starts by dropping all blocks but the oldest.  Frees are no-ops.
 */
struct arena_block {
	struct arena_block *next;
	size_t size, used;
	max_align_t data[];
};

struct arena {
	struct arena_block *head;
	size_t used, cap; /* bytes handed out in this parse */
	int over;
};

static _Thread_local struct arena arena;

static void *arena_alloc(size_t n)
{
	struct arena_block *b = arena.head;
	size_t a = sizeof(max_align_t);

	n = (n + a - 1) / a * a;
	if (arena.used + n > arena.cap) {
		arena.over = 1;
		return NULL; /* cJSON fails the parse */
	}
	if (!b || b->size - b->used < n) {
		size_t size = n > 65536 ? n : 65536;

		b = xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = arena.head;
		arena.head = b;
	}
	b->used += n;
	arena.used += n;
	return (char *)b->data + b->used - n;
}

static void arena_free(void *p)
{
	(void)p;
}

/* Drop every block but the oldest; all drops that one too. */
static void arena_reset(int all)
{
	while (arena.head && (all || arena.head->next)) {
		struct arena_block *next = arena.head->next;

		free(arena.head);
		arena.head = next;
	}
	if (arena.head)
		arena.head->used = 0;
	arena.used = 0;
	arena.over = 0;
}

void json_arena_begin(size_t cap)
{
	cJSON_Hooks hooks = { arena_alloc, arena_free };

	arena_reset(1);
	arena.cap = cap;
	cJSON_InitHooks(&hooks);
}

void json_arena_end(void)
{
	cJSON_InitHooks(NULL);
	arena_reset(1);
}

cJSON *json_arena_parse(const char *p, const char *end, const char **stop)
{
	cJSON *o;

	arena_reset(0);
	*stop = NULL;
	o = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), stop, 0);
	if (!o && (!*stop || *stop < p || *stop > end))
		*stop = p;
	return o;
}

int json_arena_over(void)
{
	return arena.over;
}
