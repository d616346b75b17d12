/*
 * bench_billing.c - stream billing export files through the billing
 * reader (billing_read_file: zlib, csv_stream, per-volume aggregation),
 * settle the volumes and run the rules with one price set (ebs-facts.md T6
 * us-east-1, typed in: no database), then print MB/s, rows, volumes and the
 * process's peak RSS.  Usage: bench-billing FILE...  A benchmark tool, not
 * a test: it asserts nothing (tests/perf/billing.sh prints the figures).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "ebsize/billing.h"
#include "ebsize/err.h"

/* T6 us-east-1 and T3 gp3 limits (current) */
static void prices(struct price_set *ps, struct volume_limits lim[VT_COUNT])
{
	static const double gib[VT_COUNT] = { 0.1, 0.08, 0.125, 0.125, 0.045,
					      0.015, 0.05 };

	memset(ps, 0, sizeof(*ps));
	memset(lim, 0, sizeof(*lim) * VT_COUNT);
	snprintf(ps->region, sizeof(ps->region), "us-east-1");
	for (int t = 0; t < VT_COUNT; t++) {
		ps->type[t].have_storage = 1;
		ps->type[t].storage_per_gib_month = gib[t];
		lim[t].type = (enum vol_type)t;
	}
	ps->type[VT_GP3].n_iops = 1;
	ps->type[VT_GP3].iops[0] = (struct price_tier){ 3000, -1, 0.005 };
	ps->type[VT_GP3].n_throughput = 1;
	ps->type[VT_GP3].throughput[0] = (struct price_tier){ 125, -1, 0.04 };
	ps->type[VT_IO1].n_iops = 1;
	ps->type[VT_IO1].iops[0] = (struct price_tier){ 0, -1, 0.065 };
	ps->type[VT_IO2].n_iops = 3;
	ps->type[VT_IO2].iops[0] = (struct price_tier){ 0, 32000, 0.065 };
	ps->type[VT_IO2].iops[1] = (struct price_tier){ 32000, 64000, 0.0455 };
	ps->type[VT_IO2].iops[2] = (struct price_tier){ 64000, -1, 0.03185 };
	ps->type[VT_STANDARD].have_io = 1;
	ps->type[VT_STANDARD].io_per_million = 0.05;
	lim[VT_GP3] = (struct volume_limits){ VT_GP3, "2025-09-01", 1, 65536,
		3000, 80000, 500, 125, 2000, 0.25, 3000, 125, 256 };
}

static int lookup(const char *region, const struct price_set **ps,
		  const char **currency, void *arg, char *err)
{
	*ps = arg;
	*currency = "USD";
	return strcmp(region, "us-east-1") != 0;
}

int main(int argc, char **argv)
{
	struct volume_limits lim[VT_COUNT];
	struct price_set ps;
	struct billing_result r;
	struct timespec a, b;
	struct rusage ru;
	struct stat st;
	char err[EBS_ERRLEN];
	double bytes = 0, text = 0, secs, cpu;
	size_t rows = 0, findings = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: bench-billing FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (!stat(argv[i], &st))
			bytes += (double)st.st_size;
	prices(&ps, lim);
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (billing_scan_files((const char *const *)argv + 1, (size_t)argc - 1,
			       lookup, &ps, lim, NULL, &r, err)) {
		fprintf(stderr, "bench-billing: %s\n", err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	for (size_t i = 0; i < r.data->nfiles; i++) {
		rows += r.data->files[i].rows;
		text += (double)r.data->files[i].bytes;
	}
	for (size_t i = 0; i < r.data->nvol; i++)
		findings += r.f[i].cat != BILL_NONE;
	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	/* MB/s of CSV text (after gunzip); CPU time shows a busy machine */
	printf("%.0f MB file, %.0f MB of CSV in %.2f s (CPU %.2f s): %.0f MB/s (%.0f MB/s of CPU), %zu rows, %zu volumes, %zu findings, peak RSS %.1f MiB\n",
	       bytes / 1e6, text / 1e6, secs, cpu, text / 1e6 / secs,
	       text / 1e6 / cpu, rows, r.data->nvol, findings,
	       (double)ru.ru_maxrss / 1024.0);
	billing_result_release(&r);
	return 0;
}
