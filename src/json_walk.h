/*
 * json_walk.h - private to the JSON parsers of outside input
 * (inventory_parse.c, metrics_parse.c): a bracket- and string-aware
 * scanner over raw bytes, and cJSON allocating from an arena, so a large
 * document is walked element by element instead of held as one tree.
 * Only *_parse.c files include this (they alone use cJSON).
 */
#ifndef EBSIZE_JSON_WALK_H
#define EBSIZE_JSON_WALK_H

#include <stddef.h>

#include <cJSON.h>

/* The first byte at or after p that is not JSON whitespace. */
const char *json_skip_ws(const char *p, const char *end);

/*
 * p at an opening quote: the byte after the closing quote, or NULL at an
 * unterminated string or a raw control character, with *fail set there.
 */
const char *json_skip_string(const char *p, const char *end, const char **fail);

/*
 * A structural skip of the value at p (strings and nesting checked, the
 * rest left to cJSON): the byte after it, or NULL with *fail set.
 */
const char *json_skip_value(const char *p, const char *end, const char **fail);

/* Does the key [p, kend) (quotes included, no escapes) equal want? */
int json_key_is(const char *p, const char *kend, const char *want);

/*
 * cJSON in an arena.  Between json_arena_begin and json_arena_end (on the
 * same thread; they do not nest) cJSON allocates from blocks that
 * json_arena_parse recycles for every value it parses, so memory holds
 * one element, not the document; at most cap bytes per value (over it the
 * parse fails and json_arena_over says so).  cJSON's hooks are
 * process-wide: they are installed only between begin and end, and the
 * arena itself is per thread.
 */
void json_arena_begin(size_t cap);
void json_arena_end(void);

/*
 * Parse the one JSON value at [p, end): the tree (valid until the next
 * call), *stop just after it -- or NULL with *stop at the error.
 */
cJSON *json_arena_parse(const char *p, const char *end, const char **stop);

/* Did the last json_arena_parse fail for want of room (the cap)? */
int json_arena_over(void);

#endif
