/*
 * replay.c - main() for running a libFuzzer harness without libFuzzer:
 * each argument (a file, or a directory: its files, not recursing) is read
 * into a heap buffer of exactly its size -- so that ASan catches a read
 * past the end, as under libFuzzer -- and given to LLVMFuzzerTestOneInput
 * once.  Built with the ordinary compiler and sanitizer flags by `make
 * test` (build/replay/fuzz_NAME), it replays the committed seeds and every
 * kept finding (tests/fuzz/regress/NAME/) in the normal suite
 * (tests/e2e/t0750-fuzz-replay.sh).  Prints "N inputs" and exits 0;
 * a harness that traps or a sanitizer report ends it otherwise.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;
	size_t n;

	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		if (f)
			fclose(f);
		return 0;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		fclose(f);
		return 0;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 1;
}

int main(int argc, char **argv)
{
	size_t inputs = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st))
			continue;
		if (!S_ISDIR(st.st_mode)) {
			inputs += replay_file(argv[i]);
			continue;
		}
		if (!(d = opendir(argv[i])))
			continue;
		while ((e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			inputs += replay_file(path);
		}
		closedir(d);
	}
	printf("%zu inputs\n", inputs);
	return 0;
}
