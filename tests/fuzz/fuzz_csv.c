/*
 * fuzz_csv.c - libFuzzer harness for the CSV reader (csv_next() over a
 * buffer): reads every record and touches every field.  Pure: bytes in,
 * fields out, reader released.  Not part of `make test`.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ebsize/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv_reader r;
	char **f;
	size_t n, total = 0;
	int rc;

	csv_init(&r, (const char *)data, size);
	while ((rc = csv_next(&r, &f, &n)) == 1) {
		for (size_t i = 0; i < n; i++)
			total += strlen(f[i]);
		if (total > size + n)
			__builtin_trap();  /* fields longer than the input */
	}
	csv_release(&r);
	return 0;
}
