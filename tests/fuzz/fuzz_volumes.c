/*
 * fuzz_volumes.c - libFuzzer harness for `aws ec2 describe-volumes`
 * input (inventory_parse.c): inventory_detect on the bytes, then the
 * streamed walk of Volumes[] with every member of every record read in
 * the callback (ASan checks that each pointer is valid there).  The walk
 * runs twice, the second time stopped by the callback at the second
 * record, which must be what it returns.  Pure: bytes in, nothing kept.
 * Not part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	size_t n;
	size_t bytes;
	size_t stop_at;          /* 0: never stop */
	size_t last_end;
};

static size_t len_or_0(const char *s)
{
	return s ? strlen(s) : 0;
}

static int on_volume(const struct inv_volume *v, void *arg)
{
	struct seen *s = arg;

	s->n++;
	s->bytes += len_or_0(v->id) + len_or_0(v->state) + len_or_0(v->az) +
		    len_or_0(v->kms_key_id) + len_or_0(v->problem);
	for (size_t i = 0; i < v->ntags; i++)
		s->bytes += len_or_0(v->tags[i].key) + len_or_0(v->tags[i].value);
	if (v->ntags > INV_MAX_TAGS || (int)v->type < 0 || v->type >= VT_COUNT)
		__builtin_trap();
	/* a KMS key that reaches a shell line must be a safe one */
	if (!v->problem && v->kms_key_id && !inventory_valid_kms_key(v->kms_key_id))
		__builtin_trap();
	if (!v->problem && v->id && !inventory_valid_volume_id(v->id))
		__builtin_trap();
	/* the walk moves forward */
	if (v->end_offset < s->last_end)
		__builtin_trap();
	s->last_end = v->end_offset;
	return s->stop_at && s->n == s->stop_at ? 7 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen a = { 0 }, b = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	(void)inventory_detect((const char *)data, size);
	rc = inventory_each_volume("fuzz.json", (const char *)data, size,
				   on_volume, &a, err);
	if (rc == 7)
		__builtin_trap();    /* a value the callback never returned */
	b.stop_at = 2;
	rc = inventory_each_volume("fuzz.json", (const char *)data, size,
				   on_volume, &b, err);
	if (a.n >= 2 && (rc != 7 || b.n != 2))
		__builtin_trap();
	return 0;
}
