/*
 * fuzz_pricing.c - libFuzzer harness for pricing_parse() (GetProducts
 * pages and bulk offer files), pricing_parse_region_index() and
 * pricing_parse_error_body().  The region
 * table is a fixed copy of part of sql/seed/10_regions.sql, so no
 * database is needed.  Not part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ebsize/err.h"
#include "ebsize/pricing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* as the regions table has them; ap-south-2: neither location nor
 * prefix known (sql/seed/10_regions.sql) */
static struct region_name regions[] = {
	{ "ap-south-2", "", "", 1 },
	{ "ap-southeast-1", "Asia Pacific (Singapore)", "APS1", 0 },
	{ "eu-west-1", "EU (Ireland)", "EU", 0 },
	{ "us-east-1", "US East (N. Virginia)", "", 0 },
	{ "us-west-2", "US West (Oregon)", "USW2", 0 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct region_table rt = { regions, sizeof(regions) / sizeof(*regions) };
	struct price_list pl;
	char *token = NULL;
	char err[EBS_ERRLEN], code[64], msg[256];

	price_list_init(&pl);
	(void)pricing_parse((const char *)data, size, "fuzz.json", &rt, &pl,
			    &token, err);
	free(token);
	price_list_release(&pl);
	{
		struct region_index ri;

		if (!pricing_parse_region_index((const char *)data, size, "fuzz.json",
						&ri, err))
			region_index_release(&ri);
	}
	pricing_parse_error_body((const char *)data, size, code, sizeof(code),
				 msg, sizeof(msg));
	return 0;
}
