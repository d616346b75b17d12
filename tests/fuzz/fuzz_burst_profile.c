/*
 * fuzz_burst_profile.c - libFuzzer harness for burst_profile_parse() (the
 * `ebsize burst --profile` line format) and burst_profile_seconds() on
 * what it accepts.  The parser takes a C string, so the input is copied
 * and NUL-terminated.  Not part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/burst.h"
#include "ebsize/err.h"
#include "ebsize/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct burst_profile p;
	char err[EBS_ERRLEN];
	char *text = xmalloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	memset(&p, 0, sizeof(p));
	if (!burst_profile_parse(text, &p, err)) {
		(void)burst_profile_seconds(&p);
		burst_profile_release(&p);
	}
	free(text);
	return 0;
}
