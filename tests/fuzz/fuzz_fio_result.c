/*
 * fuzz_fio_result.c - libFuzzer harness for fio_parse_result() and
 * fio_result_phase() (fio --output-format=json text).  Pure: bytes in,
 * struct out, everything released.  Not part of `make test`; `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>

#include "ebsize/err.h"
#include "ebsize/fio_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_result r;
	struct bench_phase_result p;
	char err[EBS_ERRLEN];

	if (fio_parse_result((const char *)data, size, "fuzz.json", &r, err))
		return 0;
	if (r.njobs)
		(void)fio_result_phase(&r, r.jobs[0].name, "fuzz.json", &p, err);
	(void)fio_result_phase(&r, NULL, "fuzz.json", &p, err);
	fio_result_release(&r);
	return 0;
}
