/*
 * fuzz_instances.c - libFuzzer harness for instances_parse()
 * (`aws ec2 describe-instance-types` JSON).  Pure: bytes in, list out,
 * released.  Not part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/instances_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct instance_list il;
	char err[EBS_ERRLEN];

	memset(&il, 0, sizeof(il));
	(void)instances_parse((const char *)data, size, "fuzz.json", "fuzz",
			      "2026-01-01", &il, err);
	instance_list_release(&il);
	return 0;
}
