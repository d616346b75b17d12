/*
 * fuzz_fio_log.c - libFuzzer harness for fio_parse_iops_log() (fio's
 * comma-separated IOPS logs) and fio_samples_merge() on what it returns.
 * Pure: bytes in, samples out, freed.  Not part of `make test`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ebsize/err.h"
#include "ebsize/fio_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_sample *s = NULL, *copy = NULL;
	size_t n = 0, ncopy = 0;
	char err[EBS_ERRLEN];

	if (fio_parse_iops_log((const char *)data, size, "fuzz.log", &s, &n,
			       err))
		return 0;
	/* merge the series into an empty one and into itself */
	fio_samples_merge(&copy, &ncopy, s, n);
	fio_samples_merge(&copy, &ncopy, s, n);
	free(copy);
	free(s);
	return 0;
}
