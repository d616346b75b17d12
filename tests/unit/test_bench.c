/*
 * test_bench.c - the fio parser on the real fio samples (fio 3.1 to 3.34,
 * noisy prefix, error 22, gtod_reduce), IOPS logs of 4 to 6 columns with
 * hex priorities, the profile format, cliff detection on modelled gp2
 * series and noisy variants of them, Little's law and bimodality against
 * hand-computed figures, and storing phases through real SQLite.
 *
 * "Modelled" series are GENERATED here from the closed-form gp2 rule of
 * ebs-facts.md T2: 3,000 IOPS until the 5,400,000-credit bucket is empty
 * after 5,400,000 / (3,000 - baseline) s, then baseline = max(100, 3 x
 * GiB).  They are labelled modelled, never measured.  (To be replaced by
 * the burst simulator, src/burst.c, once merged.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "ebsize/burst.h"
#include "ebsize/bench.h"
#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/err.h"
#include "ebsize/fio_parse.h"
#include "ebsize/util.h"

#define FIX "tests/fixtures/fio/"

/* ------------------------------------------------------------ fio JSON */

static int parse_fixture(const char *name, struct fio_result *r)
{
	char err[EBS_ERRLEN], *data = NULL;
	size_t len;
	int rc = read_file_capped(name, FIO_JSON_CAP, &data, &len, err);

	if (!rc)
		rc = fio_parse_result(data, len, name, r, err);
	if (rc)
		printf("# %s\n", err);
	free(data);
	return rc;
}

struct json_case {
	const char *file;
	const char *version;
	size_t noise_lines;
	int interrupted;
	int want_error; /* fio_result_phase's code */
	double iops;	/* read + write, from the file */
	double bw_mibps;
	double lat_mean_ms; /* NAN: not measured */
	double p50_ms;
	double p999_ms;
	const char *rw;
	long iodepth;
};

static const struct json_case json_cases[] = {
	/* bw 36422 KiB/s (no bw_bytes before 3.2) = 35.568 MiB/s;
	 * clat mean 98224.377413 ns; p50 98816 ns; p99.9 207872 ns */
	{ FIX "fio-3.1-randread-libaio-qd1.json", "fio-3.1", 0, 0, EBS_OK,
	  9105.612981, 36422.0 / 1024, 0.098224377413, 0.098816, 0.207872,
	  "randread", 1 },
	/* randrw: 170075.741182 + 56839.645098 IOPS;
	 * (696630235 + 232815186) B/s; gtod_reduce: no latency at all */
	{ FIX "fio-3.28-randrw-gtod_reduce-global-options.json", "fio-3.28", 0,
	  0, EBS_OK, 226915.38628, (696630235.0 + 232815186.0) / 1048576, NAN,
	  NAN, NAN, "randrw", 64 },
	{ FIX "fio-3.34-randread-sync-SIGINT-noise-prefix.json.txt", "fio-3.34",
	  1, 1, EBS_OK, 10102.601156, 41380254.0 / 1048576, 0.095948612502,
	  0.100864, 0.236544, "randread", 1 },
	{ FIX "fio-3.33-write-error22-noise-prefix.json.txt", "fio-3.33", 3, 0,
	  EBS_ERR_EXEC, NAN, NAN, NAN, NAN, NAN, "write", 64 },
};

static void check_nan_or_near(double got, double want, double tol,
			      const char *what, const char *file)
{
	char d[256];

	xsnprintf(d, sizeof(d), "%s: %s", file, what);
	if (isnan(want))
		CHECK(isnan(got), "%s is not measured (got %g)", d, got);
	else
		CHECK_NEAR(got, want, tol, d);
}

static void test_fio_json(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(json_cases); i++) {
		const struct json_case *c = &json_cases[i];
		struct fio_result r;
		struct bench_phase_result p;
		char err[EBS_ERRLEN];
		int rc;

		if (parse_fixture(c->file, &r)) {
			CHECK(0, "%s parses", c->file);
			continue;
		}
		CHECK(!strcmp(r.version, c->version), "%s: version %s", c->file,
		      r.version);
		CHECK(r.noise_lines == c->noise_lines,
		      "%s: %zu noise lines skipped", c->file, r.noise_lines);
		CHECK(r.interrupted == c->interrupted, "%s: interrupted = %d",
		      c->file, r.interrupted);
		CHECK(r.njobs == 1 && !strcmp(r.jobs[0].rw, c->rw) &&
			  r.jobs[0].iodepth == c->iodepth,
		      "%s: one job, rw %s, iodepth %ld", c->file, r.jobs[0].rw,
		      r.jobs[0].iodepth);
		rc = fio_result_phase(&r, NULL, c->file, &p, err);
		CHECK(rc == c->want_error, "%s: phase summary returns %d (%s)",
		      c->file, rc, rc ? err : "ok");
		if (!rc) {
			CHECK_NEAR(p.iops, c->iops, 1e-4, c->file);
			CHECK_NEAR(p.bw_mibps, c->bw_mibps, 1e-6, c->file);
			check_nan_or_near(p.lat_mean_ms, c->lat_mean_ms, 1e-9,
					  "mean latency", c->file);
			check_nan_or_near(p.p50_ms, c->p50_ms, 1e-9, "p50",
					  c->file);
			check_nan_or_near(p.p999_ms, c->p999_ms, 1e-9, "p99.9",
					  c->file);
		} else {
			CHECK(strstr(err, "failed with error 22") != NULL,
			      "error names fio's error: %s", err);
		}
		fio_result_release(&r);
	}
}

static const struct {
	const char *text;
	const char *why;
} bad_json[] = {
	{ "", "empty" },
	{ "fio: no such file\n", "no JSON at all" },
	{ "{\n \"fio version\" : \"fio-3.33\",\n \"jobs\" : [ {\n",
	  "truncated" },
	{ "{\n\"fio version\": \"fio-3.33\"\n}\n", "no jobs" },
	{ "{\n\"jobs\": [ 1 ]\n}\n", "job is not an object" },
};

static void test_fio_json_bad(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_json); i++) {
		struct fio_result r;
		char err[EBS_ERRLEN] = "";
		int rc =
		    fio_parse_result(bad_json[i].text, strlen(bad_json[i].text),
				     "x.json", &r, err);

		CHECK(rc == EBS_ERR_PARSE &&
			  str_starts_with(err, "cannot parse 'x.json'"),
		      "bad fio output (%s) is refused: %s", bad_json[i].why,
		      err);
	}
}

/* Absurd numbers do not overflow; text after the document is ignored. */
static void test_fio_json_absurd(void)
{
	static const char j[] =
	    "{\n\"jobs\": [ {\"jobname\": \"a\", \"error\": 1e300,"
	    " \"job options\": {\"iodepth\": \"99999999999999999999\"}} ],"
	    " \"timestamp\": 1e300 }\ntrailing {\n";
	struct fio_result r;
	struct bench_phase_result p;
	char err[EBS_ERRLEN];

	CHECK(!fio_parse_result(j, strlen(j), "a.json", &r, err) &&
		  r.timestamp == 0 && r.jobs[0].error == -1 &&
		  r.jobs[0].iodepth == 1,
	      "absurd error, timestamp and iodepth are contained");
	CHECK(fio_result_phase(&r, NULL, "a.json", &p, err) == EBS_ERR_EXEC,
	      "a job with an absurd error code is a failed job: %s", err);
	fio_result_release(&r);
}

/* Two documents one after another (--status-interval): the last wins. */
static void test_fio_json_concatenated(void)
{
	static const char two[] =
	    "{\n\"fio version\": \"fio-3.33\", \"jobs\": [ {\"jobname\": \"a\","
	    " \"read\": {\"iops\": 10, \"total_ios\": 10, \"bw_bytes\": 40960}} ] }\n"
	    "{\n\"fio version\": \"fio-3.33\", \"jobs\": [ {\"jobname\": \"a\","
	    " \"read\": {\"iops\": 20, \"total_ios\": 40, \"bw_bytes\": 81920}} ] }\n";
	struct fio_result r;
	struct bench_phase_result p;
	char err[EBS_ERRLEN];

	CHECK(!fio_parse_result(two, strlen(two), "s.json", &r, err) &&
		  !fio_result_phase(&r, NULL, "s.json", &p, err) &&
		  p.iops == 20,
	      "concatenated documents: the last one is the result");
	fio_result_release(&r);
}

/*
 * Review finding 5: lat_mean_ms is completion latency (clat_ns); Little's
 * law uses the total latency (lat_ns = slat + clat) when fio gives it.
 * fio-3.1 fixture: lat_ns mean 107189.170889, clat_ns mean 98224.377413,
 * read iops 9105.612981 at iodepth 1.
 */
static void test_fio_total_latency(void)
{
	struct fio_result r;
	struct bench_phase_result p;
	char err[EBS_ERRLEN];

	if (parse_fixture(FIX "fio-3.1-randread-libaio-qd1.json", &r)) {
		CHECK(0, "fio-3.1 fixture parses");
		return;
	}
	CHECK(!fio_result_phase(&r, NULL, "f", &p, err), "phase: %s", err);
	CHECK_NEAR(p.lat_mean_ms, 0.098224377413, 1e-12, "mean is clat_ns");
	CHECK_NEAR(p.lat_total_ms, 0.107189170889, 1e-12, "total is lat_ns");
	bench_analyse_phase(&p, NULL, 0);
	CHECK_NEAR(p.little_ratio, 0.107189170889 / (1000.0 / 9105.612981),
		   1e-9, "Little's ratio from the total latency");
	CHECK(p.notes[0] == '\0', "one job, one direction: no note (%s)",
	      p.notes);
	fio_result_release(&r);
}

/*
 * Percentiles taken from part of a phase are noted.  Generated fio-like
 * JSON: two jobs of one name (numjobs=2, no group_reporting), and a
 * randrw job with I/O in both directions.
 */
static void test_fio_percentile_notes(void)
{
	static const char two_jobs[] =
	    "{\n\"jobs\": ["
	    " {\"jobname\": \"rr\", \"job options\": {\"rw\": \"randread\", \"numjobs\": \"2\"},"
	    "  \"read\": {\"iops\": 10, \"total_ios\": 10, \"bw_bytes\": 40960,"
	    "  \"clat_ns\": {\"mean\": 1e6, \"percentile\": {\"50.000000\": 1e6}},"
	    "  \"lat_ns\": {\"mean\": 2e6}}},"
	    " {\"jobname\": \"rr\", \"job options\": {\"rw\": \"randread\", \"numjobs\": \"2\"},"
	    "  \"read\": {\"iops\": 30, \"total_ios\": 30, \"bw_bytes\": 122880,"
	    "  \"clat_ns\": {\"mean\": 3e6, \"percentile\": {\"50.000000\": 3e6}},"
	    "  \"lat_ns\": {\"mean\": 4e6}}} ] }\n";
	static const char mixed[] =
	    "{\n\"jobs\": ["
	    " {\"jobname\": \"m\", \"job options\": {\"rw\": \"randrw\"},"
	    "  \"read\": {\"iops\": 10, \"total_ios\": 10, \"bw_bytes\": 40960,"
	    "  \"clat_ns\": {\"mean\": 1e6, \"percentile\": {\"50.000000\": 1e6}}},"
	    "  \"write\": {\"iops\": 5, \"total_ios\": 5, \"bw_bytes\": 20480,"
	    "  \"clat_ns\": {\"mean\": 2e6, \"percentile\": {\"50.000000\": 2e6}}}} ] }\n";
	struct fio_result r;
	struct bench_phase_result p;
	char err[EBS_ERRLEN];

	CHECK(
	    !fio_parse_result(two_jobs, strlen(two_jobs), "j.json", &r, err) &&
		!fio_result_phase(&r, NULL, "j.json", &p, err),
	    "two jobs: %s", err);
	CHECK(
	    !strcmp(
		p.notes,
		"latency percentiles are of the first of 2 jobs only (no group_reporting)"),
	    "two jobs noted: %s", p.notes);
	/* (10 x 1 + 30 x 3) / 40 = 2.5 ms; total (10 x 2 + 30 x 4) / 40 = 3.5 */
	CHECK_NEAR(p.lat_mean_ms, 2.5, 1e-12, "mean over both jobs");
	CHECK_NEAR(p.lat_total_ms, 3.5, 1e-12, "total over both jobs");
	fio_result_release(&r);
	CHECK(!fio_parse_result(mixed, strlen(mixed), "m.json", &r, err) &&
		  !fio_result_phase(&r, NULL, "m.json", &p, err),
	      "randrw: %s", err);
	CHECK(
	    !strcmp(
		p.notes,
		"latency percentiles are of the read direction only (rw=randrw)"),
	    "one direction noted: %s", p.notes);
	CHECK(isnan(p.lat_total_ms), "no lat_ns: total not measured");
	fio_result_release(&r);
}

/* ------------------------------------------------------------ logs */

static void test_fio_log_fixture(void)
{
	char err[EBS_ERRLEN], *data = NULL;
	struct bench_sample *s = NULL;
	size_t len, n = 0;
	const char *f = FIX "fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log";

	CHECK(!read_file_capped(f, FIO_LOG_CAP, &data, &len, err) &&
		  !fio_parse_iops_log(data, len, f, &s, &n, err),
	      "fio 3.1 4-column log parses");
	CHECK(
	    n == 299 && s[0].t_ms == 1000 && s[0].iops == 6656 &&
		s[298].t_ms == 299000 && s[298].iops == 10548,
	    "299 samples, first 1000 ms 6656 IOPS, last 299000 ms 10548 IOPS");
	free(s);
	free(data);
}

static const struct {
	const char *text;
	size_t n;
	double iops[4];
	const char *why;
} log_cases[] = {
	{ "1000, 300, 0, 0, 0\n2000, 301, 0, 0, 0\n",
	  2,
	  { 300, 301 },
	  "5 columns (fio 3.18+, prio 0)" },
	{ "1000, 300, 0, 0, 0x0000\n2000, 299, 0, 0, 0x2003\n",
	  2,
	  { 300, 299 },
	  "hex priority (fio 3.28+ log_prio=1)" },
	{ "1000, 300, 0, 0, 0, 0x0000\n2000, 302, 0, 0, 0, 0\n",
	  2,
	  { 300, 302 },
	  "6 columns (log_offset=1)" },
	{ "1000, 200, 0, 0\n1000, 100, 1, 0\n2000, 210, 0, 0\n2000, 90, 1, 0\n",
	  2,
	  { 300, 300 },
	  "mixed read/write rows at one time are added" },
	{ "1000, 6, 0, 0\n2000, 7, 0, 0\n3000, 8, 0, 0\n3040, 6, 0, 0\n",
	  3,
	  { 6, 7, 8 },
	  "final flush row 40 ms later is dropped" },
	{ "1002, 5, 0, 0\r\n1999, 6, 0, 0\r\n2999, 7, 0, 0\r\n",
	  3,
	  { 5, 6, 7 },
	  "drifting timestamps, CRLF" },
	{ "10, 1, 0, 4096\n20, 1, 0, 4096\n990, 1, 1, 4096\n1500, 1, 0, 4096\n",
	  2,
	  { 3, 1 },
	  "no log_avg_msec: every I/O logged (bs set), counted per second" },
};

/* Per-job logs of one phase (numjobs > 1) add up by time. */
static void test_fio_merge(void)
{
	struct bench_sample *a = xcalloc(3, sizeof(*a));
	struct bench_sample b[3] = { { 1003, 5 }, { 2001, 6 }, { 4000, 7 } };
	size_t na = 3;

	a[0] = (struct bench_sample){ 1000, 10 };
	a[1] = (struct bench_sample){ 2000, 20 };
	a[2] = (struct bench_sample){ 3000, 30 };
	fio_samples_merge(&a, &na, b, 3);
	CHECK(na == 4 && a[0].iops == 15 && a[1].iops == 26 &&
		  a[2].iops == 30 && a[3].t_ms == 4000 && a[3].iops == 7,
	      "two job logs merge: 15, 26, 30, 7");
	free(a);
}

static const struct {
	const char *text;
	const char *err;
} bad_logs[] = {
	{ "1000, 300\n", "line 1" },
	{ "1000, 300, 0, 0\n500, 300, 0, 0\n", "line 2" },
	{ "1000, -3, 0, 0\n", "line 1" },
	{ "1000, 3x, 0, 0\n", "line 1" },
	{ "1000, 3, 7, 0\n", "line 1" },
	{ "1000, 3, 0, 0, 0, 0, 0, 0, 0\n", "line 1" },
	{ "", "empty" },
};

/*
 * Found in review while fuzzing: rows sharing one time stamp were each
 * compared with every earlier row (quadratic).  Generated: n rows at
 * 1,000 ms alternating read 1 / write 2 make one sample of 3 IOPS (the
 * first row of each direction; the repeats are flush rows).
 */
static void test_fio_log_one_stamp(void)
{
	static const size_t counts[] = { 2, 20000 };
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		struct sbuf sb = SBUF_INIT(1u << 20);
		struct bench_sample *s = NULL;
		size_t n = 0, len;
		char *text;

		for (size_t k = 0; k < counts[i]; k++)
			sbuf_addstr(&sb, k % 2 ? "1000, 2, 1, 0\n"
					       : "1000, 1, 0, 0\n");
		text = sbuf_detach(&sb, &len);
		CHECK(!fio_parse_iops_log(text, len, "x.log", &s, &n, err) &&
			  n == 1 && s[0].iops == 3,
		      "%zu log rows at one time stamp: one sample of 3 IOPS",
		      counts[i]);
		free(s);
		free(text);
	}
}

static void test_fio_logs(void)
{
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < ARRAY_SIZE(log_cases); i++) {
		struct bench_sample *s = NULL;
		size_t n = 0;
		int ok = !fio_parse_iops_log(log_cases[i].text,
					     strlen(log_cases[i].text), "x.log",
					     &s, &n, err) &&
			 n == log_cases[i].n;

		for (size_t k = 0; ok && k < n; k++)
			ok = s[k].iops == log_cases[i].iops[k];
		CHECK(ok, "iops log: %s", log_cases[i].why);
		free(s);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_logs); i++) {
		struct bench_sample *s = NULL;
		size_t n = 0;
		int rc = fio_parse_iops_log(bad_logs[i].text,
					    strlen(bad_logs[i].text), "x.log",
					    &s, &n, err);

		CHECK(rc == EBS_ERR_PARSE && strstr(err, bad_logs[i].err),
		      "bad iops log refused at %s: %s", bad_logs[i].err, err);
		free(s);
	}
}

/* ------------------------------------------------------------ profiles */

static void test_profiles(void)
{
	struct bench_profile pr;
	char err[EBS_ERRLEN];
	const char *a = bench_profile_builtin("article");
	static const struct {
		const char *type;
		long seconds; /* phase 1 + 120 + 60 + 60 + 60 */
	} totals[] = {
		{ "gp3", 600 + 300 },  { "io1", 600 + 300 },
		{ "io2", 600 + 300 },  { "gp2", 2700 + 300 },
		{ "st1", 2700 + 300 }, { "sc1", 2700 + 300 },
	};

	CHECK(a && !bench_profile_parse(a, strlen(a), "article", &pr, err),
	      "the article profile parses");
	CHECK(
	    pr.nphases == 6 && pr.size_bytes == 8ull << 30 &&
		!strcmp(pr.phase[1].name, "randread-qd32") &&
		pr.phase[1].iodepth == 32 && pr.phase[1].iops_log &&
		pr.phase[0].runtime_s == 0,
	    "article: 6 phases, 8 GiB, layout first, randread-qd32 with an IOPS log");
	for (size_t i = 0; i < ARRAY_SIZE(totals); i++)
		CHECK(bench_profile_seconds(&pr, totals[i].type) ==
			  totals[i].seconds,
		      "article on %s lasts %ld s", totals[i].type,
		      totals[i].seconds);
	{
		char **argv = NULL;
		size_t argc = 0;
		int has_rt = 0, has_log = 0;

		bench_phase_argv(&pr, 1, "/d/f", "gp2", "/out", &argv, &argc);
		for (size_t i = 0; i < argc; i++) {
			has_rt |= !strcmp(argv[i], "--runtime=2700");
			has_log |= !strcmp(
			    argv[i], "--write_iops_log=/out/01-randread-qd32");
			free(argv[i]);
		}
		free(argv);
		CHECK(has_rt && has_log,
		      "gp2 phase 1 runs 2,700 s with an IOPS log");
	}
}

static const struct {
	const char *text;
	const char *err;
} bad_profiles[] = {
	{ "phase a rw=read bs=4k\n", "no 'size' line" },
	{ "size 64m\n", "no 'phase' line" },
	{ "size 64m\nphase a rw=read\n",
	  "line 2: phase 'a' needs rw= and bs=" },
	{ "size 64m\nphase a rw=sideways bs=4k\n",
	  "line 2: unknown rw 'sideways'" },
	{ "size 64m\nphase A! rw=read bs=4k\n",
	  "line 2: expected 'phase NAME" },
	{ "size 64m\nphase a rw=read bs=4k iodepth=0\n",
	  "iodepth must be a whole number from 1 to 4096" },
	{ "size 12q\n", "line 1: bad size '12q'" },
	{ "size 64m\nphase a rw=read bs=4k\nphase a rw=read bs=4k\n",
	  "line 3: phase 'a' defined twice" },
	{ "size 64m\nfrobnicate\n",
	  "line 2: expected 'profile', 'size' or 'phase', not 'frobnicate'" },
	{ "size 64m\nphase a rw=read bs=4k burst_runtime=5\n",
	  "burst_runtime= needs runtime=" },
	/* found in review while fuzzing: a bs that did not fit was cut to 15
	 * characters ("000000000000000" for fio); words past the 16th were
	 * ignored */
	{ "size 64m\nphase a rw=read bs=0000000000000004k\n",
	  "line 2: bad bs '0000000000000004k'" },
	{ "size 64m\nphase a rw=read bs=4k iops_log iops_log iops_log iops_log"
	  " iops_log iops_log iops_log iops_log iops_log iops_log iops_log"
	  " iops_log iops_log iops_log rm -rf\n",
	  "line 2: more than 16 words" },
};

static void test_profiles_bad(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_profiles); i++) {
		struct bench_profile pr;
		char err[EBS_ERRLEN] = "";
		int rc = bench_profile_parse(bad_profiles[i].text,
					     strlen(bad_profiles[i].text), "p",
					     &pr, err);

		CHECK(rc == EBS_ERR_PARSE && strstr(err, bad_profiles[i].err),
		      "bad profile refused: %s", err);
	}
}

/* ------------------------------------------------------------ cliffs */

struct modelled {
	struct bench_sample *s;
	size_t n;
};

static void collect(long t, double demand, double delivered, double credits,
		    void *arg)
{
	struct modelled *m = arg;

	(void)demand;
	(void)credits;
	if ((size_t)t <= m->n)
		m->s[t - 1].iops = delivered;
}

/*
 * A modelled (not measured) per-second IOPS series of a gp2 volume under a
 * qd32 random-read load, from the credit-bucket simulator (src/burst.c):
 * 3,000 IOPS demanded from a full bucket for n seconds, with multiplicative
 * noise of +/- `noise` and fio's doubled first sample.  *cliff_s is the
 * simulator's time to empty, *baseline the gp2 baseline.
 */
static struct bench_sample *modelled_gp2(double size_gib, size_t n,
					 double noise, double *cliff_s,
					 double *baseline)
{
	struct modelled m = { xcalloc(n, sizeof(struct bench_sample)), n };
	struct burst_step st = { 3000, (long)n };
	struct burst_profile p = { &st, 1, 1 };
	struct burst_result r;
	struct bucket b;
	unsigned long long seed = 12345;

	burst_bucket(VT_GP2, size_gib, &b);
	burst_simulate(&b, &p, b.capacity, collect, &m, &r);
	*baseline = b.baseline;
	/* the simulator reports the whole second the bucket ran dry in; the
	 * continuous cliff lies inside it */
	*cliff_s = b.capacity / (b.ceiling - b.baseline);
	for (size_t k = 0; k < n; k++) {
		double v = m.s[k].iops;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v *= 1 +
		     noise *
			 (((double)(seed >> 11) / 9007199254740992.0) * 2 - 1);
		m.s[k].t_ms = (long long)(k + 1) * 1000;
		m.s[k].iops = k == 0 ? 2 * v : v;
	}
	return m.s;
}

static const struct {
	double size_gib;
	size_t seconds;
	double noise;
} cliff_cases[] = {
	{ 100, 2700, 0 }, /* 2,000 s, baseline 300 (AWS table) */
	{ 8, 2700, 0 },	  /* 1,862 s, baseline 100 */
	{ 50, 2700, 0 },  /* 1,894.7 s, baseline 150 */
	{ 500, 4500, 0 }, /* 3,600 s, baseline 1,500 */
	{ 100, 2700, 0.03 }, { 8, 2700, 0.05 },
	{ 50, 2700, 0.10 },  { 500, 4500, 0.05 },
};

static void test_cliffs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cliff_cases); i++) {
		double cliff, base;
		struct bench_sample *s = modelled_gp2(
		    cliff_cases[i].size_gib, cliff_cases[i].seconds,
		    cliff_cases[i].noise, &cliff, &base);
		struct bench_cliff c;
		char d[128];

		bench_detect_cliff(s, cliff_cases[i].seconds, &c);
		xsnprintf(d, sizeof(d), "modelled gp2 %.0f GiB, noise %.0f %%",
			  cliff_cases[i].size_gib, cliff_cases[i].noise * 100);
		CHECK(c.found, "%s: cliff found", d);
		/* the cliff sample is the second in which the bucket ran dry */
		CHECK(c.t_s >= cliff &&
			  c.t_s <= cliff + 1 + (cliff_cases[i].noise > 0),
		      "%s: cliff at %.1f s, model %.1f s", d, c.t_s, cliff);
		{
			char d2[160];

			xsnprintf(d2, sizeof(d2), "%s: IOPS before the cliff",
				  d);
			CHECK_NEAR(c.iops_before, 3000,
				   3000 * cliff_cases[i].noise / 4 + 0.5, d2);
			xsnprintf(d2, sizeof(d2),
				  "%s: IOPS after the cliff (baseline)", d);
			CHECK_NEAR(c.iops_after, base,
				   base * cliff_cases[i].noise / 4 + 0.5, d2);
		}
		CHECK(c.transition_s <= 2 + (cliff_cases[i].noise > 0),
		      "%s: transition %.0f s", d, c.transition_s);
		free(s);
	}
}

static void test_no_cliff(void)
{
	struct bench_sample s[600];
	struct bench_cliff c;

	/* GENERATED: a flat gp3-like series with +-0.5 % ripple and a first
	 * start-up sample of twice the rate */
	for (size_t k = 0; k < ARRAY_SIZE(s); k++) {
		s[k].t_ms = (long long)(k + 1) * 1000;
		s[k].iops = 3000 + (k % 7 == 0 ? 15 : k % 5 == 0 ? -15 : 0);
	}
	s[0].iops = 5997;
	bench_detect_cliff(s, ARRAY_SIZE(s), &c);
	CHECK(!c.found, "a flat series has no cliff");
	bench_detect_cliff(s, 5, &c);
	CHECK(!c.found, "too few samples: no cliff");
}

/* The published transition (seed-benchmarks.md A): 3,001 at 1,998 s,
 * 2,659 at 1,999 s, 300 at 2,000 s: cliff at 1,999 s, 2 s transition. */
static void test_published_transition(void)
{
	struct bench_sample *s = xcalloc(2700, sizeof(*s));
	struct bench_cliff c;

	for (size_t k = 0; k < 2700; k++) {
		s[k].t_ms = (long long)(k + 1) * 1000;
		s[k].iops = k + 1 < 1999 ? 3001 : k + 1 == 1999 ? 2659 : 300;
	}
	s[0].iops = 5997;
	bench_detect_cliff(s, 2700, &c);
	CHECK(
	    c.found && c.t_s == 1999 && c.transition_s == 2 &&
		fabs(c.iops_before - 3001) < 1e-9 &&
		fabs(c.iops_after - 300) < 1e-9,
	    "published shape: cliff at 1999 s (got %.0f), transition 2 s (got %.0f)",
	    c.t_s, c.transition_s);
	free(s);
}

static void test_little_bimodal(void)
{
	struct bench_phase_result p;
	double cliff, steady;

	/* A gp2 randwrite-qd32: 601 IOPS, mean 52.0, p50 11.1, p95 109.6 */
	bench_phase_result_init(&p);
	p.iodepth = 32;
	p.iops = 601;
	p.lat_mean_ms = 52.0;
	p.p50_ms = 11.1;
	p.p95_ms = 109.6;
	bench_analyse_phase(&p, NULL, 0);
	CHECK_NEAR(p.little_lat_ms, 32.0 / 601 * 1000, 1e-9,
		   "Little: 32 / 601 IOPS = 53.24 ms");
	CHECK_NEAR(p.little_ratio, 52.0 / (32.0 / 601 * 1000), 1e-9,
		   "measured / Little");
	CHECK(p.bimodal == 1, "p95 109.6 vs p50 11.1 is bimodal");
	/* A gp3 randwrite-qd32: 10.2 / 11.2 ms is not */
	p.p50_ms = 10.2;
	p.p95_ms = 11.2;
	bench_analyse_phase(&p, NULL, 0);
	CHECK(p.bimodal == 0, "p95 11.2 vs p50 10.2 is not bimodal");
	CHECK(!bench_model_expect("gp2", 100, 0, &cliff, &steady) &&
		  cliff == 2000 && steady == 300,
	      "model: gp2 100 GiB cliff at 2000 s, then 300 IOPS");
	CHECK(!bench_model_expect("gp3", 100, 0, &cliff, &steady) &&
		  isnan(cliff) && steady == 3000,
	      "model: gp3 100 GiB has no cliff, 3000 IOPS");
	CHECK(bench_model_expect("nvme", 100, 0, &cliff, &steady) == -1,
	      "model: unknown type");
}

/* ------------------------------------------------------------ storage */

static void test_db_phase(void)
{
	struct db *db = test_db();
	struct bench_run r, back;
	struct bench_phase_result p, *ph = NULL;
	struct bench_sample s[3] = { { 1000, 10 }, { 2000, 20 }, { 3000, 30 } };
	struct bench_sample *sb = NULL;
	size_t n = 0, ns = 0;
	char err[EBS_ERRLEN];
	long long id;

	bench_run_init(&r);
	xsnprintf(r.label, sizeof(r.label), "unit");
	xsnprintf(r.source, sizeof(r.source), "measured");
	xsnprintf(r.status, sizeof(r.status), "running");
	xsnprintf(r.volume_type, sizeof(r.volume_type), "gp2");
	r.size_gib = 100;
	CHECK(!db_bench_create_run(db, &r, err) && r.id > 0, "run created");
	bench_phase_result_init(&p);
	p.seq = 1;
	xsnprintf(p.phase, sizeof(p.phase), "randread-qd32");
	xsnprintf(p.rw, sizeof(p.rw), "randread");
	xsnprintf(p.bs, sizeof(p.bs), "4k");
	p.iops = 3001;
	p.iodepth = 32;
	CHECK(!db_bench_store_phase(db, r.id, &p, s, 3, err), "phase stored");
	p.iops = 3002;
	CHECK(!db_bench_store_phase(db, r.id, &p, s, 2, err),
	      "phase stored again");
	CHECK(!db_bench_load_phases(db, r.id, &ph, &n, err) && n == 1 &&
		  ph[0].iops == 3002 && isnan(ph[0].lat_mean_ms) &&
		  ph[0].iodepth == 32,
	      "the second store replaced the first; NULL stays NAN");
	CHECK(!db_bench_load_samples(db, r.id, 1, &sb, &ns, err) && ns == 2 &&
		  sb[1].t_ms == 2000 && sb[1].iops == 20,
	      "its samples were replaced too");
	CHECK(!db_bench_find_run(db, "unit", &id, err) && id == r.id,
	      "found by label");
	CHECK(!db_bench_load_run(db, r.id, &back, err) &&
		  back.size_gib == 100 && !strcmp(back.volume_type, "gp2"),
	      "run reads back");
	bench_run_release(&back);
	free(ph);
	free(sb);
	/* an import with a bad phase (no rw: NOT NULL) stores nothing */
	{
		struct bench_phase_result bad[2];
		struct bench_sample *ss[2] = { s, s };
		size_t nn[2] = { 3, 3 };
		long long before = 0;

		bad[0] = p;
		bad[1] = p;
		bad[1].seq = 2;
		bad[1].rw[0] = '\0';
		db_bench_find_run(db, "unit", &before, err);
		xsnprintf(r.label, sizeof(r.label), "unit-import");
		CHECK(db_bench_import(db, &r, bad, ss, nn, 2, err) ==
			      EBS_ERR_DB &&
			  db_bench_find_run(db, "unit-import", &id, err) ==
			      EBS_ERR_NOT_FOUND,
		      "a failed import leaves no run behind");
	}
}

void test_bench(void)
{
	test_fio_json();
	test_fio_json_bad();
	test_fio_json_concatenated();
	test_fio_total_latency();
	test_fio_percentile_notes();
	test_fio_json_absurd();
	test_fio_log_fixture();
	test_fio_logs();
	test_fio_log_one_stamp();
	test_fio_merge();
	test_profiles();
	test_profiles_bad();
	test_cliffs();
	test_no_cliff();
	test_published_transition();
	test_little_bimodal();
	test_db_phase();
}
