/*
 * fuzz_metrics.c - libFuzzer harness for `aws cloudwatch get-metric-data`
 * output (metrics_parse.c): inventory_parse_metrics into a series set,
 * each series checked (as many timestamps as values, a known metric, a
 * volume id that is one), and the ISO 8601 reader on the first line of
 * the input.  Pure: bytes in, everything released.  Not part of `make
 * test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/inventory.h"
#include "ebsize/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inv_metrics m;
	struct inv_warnings w;
	char err[EBS_ERRLEN], line[64];
	volatile double sink = 0;
	size_t k;
	long long t;

	memset(&m, 0, sizeof(m));
	memset(&w, 0, sizeof(w));
	(void)inventory_parse_metrics("fuzz.json", (const char *)data, size,
				      &m, &w, err);
	for (size_t i = 0; i < m.n; i++) {
		const struct inv_series *s = &m.s[i];

		if ((int)s->metric < 0 || s->metric >= IM_COUNT ||
		    !memchr(s->vol_id, '\0', sizeof(s->vol_id)))
			__builtin_trap();
		for (size_t j = 0; j < s->n; j++)
			sink += (double)s->t[j] + s->v[j];   /* every element */
	}
	for (size_t i = 0; i < w.n; i++)
		sink += (double)strlen(w.msg[i]);
	inv_metrics_release(&m);
	inv_warnings_release(&w);

	/* the timestamp reader on the input's first line (up to 63 bytes) */
	for (k = 0; k < size && k + 1 < sizeof(line) && data[k] != '\n'; k++)
		line[k] = (char)data[k];
	line[k] = '\0';
	(void)sink;
	if (iso8601_to_epoch(line, &t) == 0 && t < 0)
		__builtin_trap();
	return 0;
}
