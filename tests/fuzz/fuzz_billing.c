/*
 * fuzz_billing.c - libFuzzer harness for the billing export reader: the
 * input is pushed into billing_parser_feed in chunks whose sizes the first
 * byte chooses (so records, quotes, CRLFs and BOMs split everywhere), then
 * every volume is settled and run through the rules with one fixed price
 * set (ebs-facts.md T6, us-east-1) and the totals are taken.  Pure: bytes
 * in, structs out, everything released.  Not part of `make test`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/billing.h"
#include "ebsize/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void prices(struct price_set *ps, struct volume_limits lim[VT_COUNT])
{
	memset(ps, 0, sizeof(*ps));
	memset(lim, 0, sizeof(*lim) * VT_COUNT);
	for (int t = 0; t < VT_COUNT; t++) {
		ps->type[t].have_storage = 1;
		ps->type[t].storage_per_gib_month = 0.1;
		ps->type[t].n_iops = 1;
		ps->type[t].iops[0] = (struct price_tier){ 0, -1, 0.065 };
		ps->type[t].n_throughput = 1;
		ps->type[t].throughput[0] = (struct price_tier){ 125, -1, 0.04 };
		ps->type[t].have_io = 1;
		ps->type[t].io_per_million = 0.05;
		lim[t].type = (enum vol_type)t;
		lim[t].min_size_gib = 1;
		lim[t].max_size_gib = 65536;
		lim[t].min_iops = 3000;
		lim[t].max_iops = 80000;
		lim[t].max_iops_per_gib = 500;
		lim[t].min_mibps = 125;
		lim[t].max_mibps = 2000;
		lim[t].max_mibps_per_iops = 0.25;
		lim[t].included_iops = 3000;
		lim[t].included_mibps = 125;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct billing_data *d = billing_data_new();
	struct billing_parser *p = billing_parser_new(d, "fuzz.csv");
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	struct bill_finding f;
	struct bill_total *t;
	size_t chunk = size ? (size_t)data[0] % 64 + 1 : 1, nt;
	char err[EBS_ERRLEN], why[512];
	int rc = 0;

	prices(&ps, lim);
	for (size_t off = 0; off < size && !rc; off += chunk)
		rc = billing_parser_feed(p, data + off,
					 size - off < chunk ? size - off : chunk,
					 err);
	if (!rc)
		billing_parser_finish(p, err);
	billing_parser_free(p);
	billing_data_finish(d, lim);
	for (size_t i = 0; i < d->nvol; i++) {
		const struct bill_volume *v = d->vol[i];

		billing_analyze_volume(v, &ps, "USD", lim,
				       billing_period_hours(d), (int)(i % 3) - 1,
				       &f);
		billing_reason(v, &f, why, sizeof(why));
		if (f.save_per_month < 0 || v->size_gib < 0)
			__builtin_trap();
	}
	for (int g = 0; g < BILL_GROUP_COUNT; g++) {
		struct bill_finding *all = calloc(d->nvol + 1, sizeof(*all));

		billing_totals(d, all, (enum bill_group)g, "team", &t, &nt);
		free(t);
		free(all);
	}
	billing_data_free(d);
	return 0;
}
