/*
 * fio_parse.h - fio's JSON output and its IOPS logs: bytes in, structs
 * out.  No file access; the only module that reads fio JSON with cJSON.
 */
#ifndef EBSIZE_FIO_PARSE_H
#define EBSIZE_FIO_PARSE_H

#include <stddef.h>

#include "ebsize/bench.h"

#define FIO_JSON_CAP (64u << 20)
#define FIO_LOG_CAP  (256u << 20)

/* One data direction (read or write) of one job; NAN when absent. */
struct fio_dir_stats {
	double iops;
	double bw_bytes;     /* B/s (from bw KiB/s before fio 3.2) */
	double clat_mean_ns; /* completion latency */
	double lat_mean_ns;  /* total latency (submission + completion) */
	double p50_ns, p95_ns, p99_ns, p999_ns;
	double total_ios;
	double runtime_ms;
};

struct fio_job {
	char name[BENCH_NAME_LEN];
	int error;
	char rw[16];
	char bs[16];
	long iodepth;
	long numjobs;
	double runtime_s;	     /* the runtime option, NAN if none */
	struct fio_dir_stats dir[2]; /* 0 read, 1 write */
};

struct fio_result {
	char version[32];    /* "fio-3.33", "" if absent */
	long long timestamp; /* epoch s, 0 if absent */
	struct fio_job *jobs;
	size_t njobs;
	size_t noise_lines; /* non-JSON lines before the JSON */
	int interrupted;    /* "fio: terminating on signal N" seen */
};

/*
 * Parse fio --output-format=json output.  Text before the first line that
 * is exactly "{" is skipped (fio prints warnings there); several documents
 * one after another (--status-interval) give the last one.  name labels
 * errors.  Caller releases out with fio_result_release().
 */
int fio_parse_result(const char *buf, size_t len, const char *name,
		     struct fio_result *out, char *err);
void fio_result_release(struct fio_result *r);

/*
 * Summarise the jobs of r named jobname (NULL: all jobs) into one phase:
 * IOPS and MiB/s summed over jobs and directions, mean latency weighted by
 * I/O count, percentiles of the busiest direction of the first job.  The
 * phase name, rw, bs, iodepth and numjobs come from the job options.
 * EBS_ERR_EXEC when a job reports an error (message names it).
 */
int fio_result_phase(const struct fio_result *r, const char *jobname,
		     const char *name, struct bench_phase_result *out,
		     char *err);

/*
 * Parse an fio IOPS log (4 to 8 comma-separated columns: time ms, value,
 * direction, bs, then offset and/or priority, decimal or hex) into one
 * sample per logging interval: rows of different directions at the same
 * time are added, a flush row less than half an interval after the
 * previous one is dropped.  *out is heap (caller frees).
 */
int fio_parse_iops_log(const char *buf, size_t len, const char *name,
		       struct bench_sample **out, size_t *n, char *err);

/* Add series b into a (per-job logs of one phase), matching by time. */
void fio_samples_merge(struct bench_sample **a, size_t *na,
		       const struct bench_sample *b, size_t nb);

#endif
