/*
 * fuzz_bench_profile.c - libFuzzer harness for bench_profile_parse() (the
 * `ebsize bench --profile-file` line format) and the fio argument lists
 * built from what it accepts.  The input is passed with its length and
 * no terminating NUL.  Not part of `make test`; `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ebsize/bench.h"
#include "ebsize/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_profile pr;
	char err[EBS_ERRLEN];

	if (bench_profile_parse((const char *)data, size, "fuzz", &pr, err))
		return 0;
	(void)bench_profile_seconds(&pr, "gp2");
	(void)bench_profile_seconds(&pr, "gp3");
	for (size_t i = 0; i < pr.nphases; i++) {
		char **argv = NULL;
		size_t argc = 0;

		bench_phase_argv(&pr, i, "/fuzz/target", "gp2", "/fuzz/out",
				 &argv, &argc);
		for (size_t k = 0; k < argc; k++)
			free(argv[k]);
		free(argv);
	}
	return 0;
}
