/*
 * fuzz_offer_stream.c - libFuzzer harness for the streaming Price List
 * reader (pricing_stream_*, over json_stream): the input is fed in pieces
 * whose sizes come from its first bytes, and the result - return code,
 * message, every price, every count, the vintage - must be exactly what
 * reading it whole gives (pricing_parse).  Any difference aborts.  Not
 * part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/pricing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct region_name regions[] = {
	{ "ap-southeast-1", "Asia Pacific (Singapore)", "APS1" },
	{ "eu-west-1", "EU (Ireland)", "EU" },
	{ "us-east-1", "US East (N. Virginia)", "" },
	{ "us-west-2", "US West (Oregon)", "USW2" },
};

static int same_list(const struct price_list *a, const struct price_list *b)
{
	return a->n == b->n && a->products == b->products &&
	       a->unknown == b->unknown && a->skipped == b->skipped &&
	       a->duplicates == b->duplicates && a->offer_files == b->offer_files &&
	       !strcmp(a->first_unknown, b->first_unknown) &&
	       !strcmp(a->effective, b->effective) &&
	       !strcmp(a->published, b->published) &&
	       !strcmp(a->version, b->version) &&
	       !strcmp(a->offer_code, b->offer_code) &&
	       (!a->n || !memcmp(a->items, b->items, a->n * sizeof(*a->items)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct region_table rt = { regions, sizeof(regions) / sizeof(*regions) };
	struct price_list whole, pieces;
	struct pricing_stream *ps;
	char err1[EBS_ERRLEN] = "", err2[EBS_ERRLEN] = "";
	char *tok1 = NULL, *tok2 = NULL;
	const char *doc;
	size_t len, off = 0, k = 0;
	int rc1, rc2 = EBS_OK;

	if (size < 2)
		return 0;
	doc = (const char *)data + 2;
	len = size - 2;
	price_list_init(&whole);
	price_list_init(&pieces);
	rc1 = pricing_parse(doc, len, "fuzz.json", &rt, &whole, &tok1, err1);
	ps = pricing_stream_new("fuzz.json", &rt, &pieces);
	while (off < len && !rc2) {
		size_t n = (size_t)data[k++ % 2] % 37 + 1;

		if (n > len - off)
			n = len - off;
		rc2 = pricing_stream_feed(ps, doc + off, n, err2);
		off += n;
	}
	if (!rc2)
		rc2 = pricing_stream_finish(ps, &tok2, err2);
	if (rc1 != rc2 || strcmp(err1, err2) ||
	    (!rc1 && !same_list(&whole, &pieces)) ||
	    (!tok1) != (!tok2) || (tok1 && strcmp(tok1, tok2)))
		abort();
	pricing_stream_free(ps);
	free(tok1);
	free(tok2);
	price_list_release(&whole);
	price_list_release(&pieces);
	return 0;
}
