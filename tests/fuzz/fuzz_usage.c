/*
 * fuzz_usage.c - libFuzzer harness for scan --usage's CSV
 * (inventory_parse_usage: volume_id,used_gib): every row returned must
 * hold a valid volume id and a finite, non-negative size.  Pure: bytes
 * in, rows out, released.  Not part of `make test`; `make fuzz` runs it.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inv_usage u;
	char err[EBS_ERRLEN];

	memset(&u, 0, sizeof(u));
	(void)inventory_parse_usage("fuzz.csv", (const char *)data, size, &u, err);
	for (size_t i = 0; i < u.n; i++)
		if (!inventory_valid_volume_id(u.row[i].vol_id) ||
		    !isfinite(u.row[i].used_gib) || u.row[i].used_gib < 0 ||
		    u.row[i].line == 0)
			__builtin_trap();
	inv_usage_release(&u);
	return 0;
}
