/*
 * bench_profile.c - the fio measurement suites ebsize runs, as one table
 * of built-in profile texts in the same line format as a profile file, the
 * parser of that format, and the fio arguments of a phase.  Local runs,
 * resumed runs and the Kubernetes manifests all go through here, so a
 * phase means the same fio command everywhere.  Pure: no I/O.
 *
 * Profile format (one directive per line, '#' starts a comment):
 *
 *   profile NAME                  optional, names the suite
 *   size SIZE                     test file size, fio syntax: 64m, 8g
 *   phase NAME rw=RW bs=BS [iodepth=N] [numjobs=N] [runtime=S]
 *         [burst_runtime=S] [iops_log]
 *
 * A phase without runtime= writes (or reads) the file once: the layout.
 * burst_runtime= replaces runtime= on credit-bucket types (gp2, st1, sc1)
 * so a run lasts past the credit cliff.  iops_log keeps a per-second IOPS
 * log (write_iops_log, log_avg_msec=1000).
 */
#include "ebsize/bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

/*
 * The suite as published: seed-benchmarks.md A "The measurement suite"
 * (libaio, direct=1, JSON output, 8 GiB file; phase 1 600 s on gp3 and
 * 2,700 s on gp2 to catch the cliff, per-second IOPS log).
 */
static const char profile_article[] =
    "# seed-benchmarks.md A: the published gp2 vs gp3 suite\n"
    "profile article\n"
    "size 8g\n"
    "phase layout         rw=write     bs=1M\n"
    "phase randread-qd32  rw=randread  bs=4k iodepth=32 runtime=600 burst_runtime=2700 iops_log\n"
    "phase randwrite-qd32 rw=randwrite bs=4k iodepth=32 runtime=120\n"
    "phase randread-qd1   rw=randread  bs=4k iodepth=1  runtime=60\n"
    "phase seqread        rw=read      bs=1M iodepth=8  runtime=60\n"
    "phase seqwrite       rw=write     bs=1M iodepth=8  runtime=60\n";

/* The same phases, a small file and a few seconds each: smoke checks. */
static const char profile_quick[] =
    "# the article's phases, small and short: for tests and smoke checks\n"
    "profile quick\n"
    "size 64m\n"
    "phase layout         rw=write     bs=1M\n"
    "phase randread-qd32  rw=randread  bs=4k iodepth=32 runtime=3 burst_runtime=3 iops_log\n"
    "phase randwrite-qd32 rw=randwrite bs=4k iodepth=32 runtime=2\n"
    "phase randread-qd1   rw=randread  bs=4k iodepth=1  runtime=2\n"
    "phase seqread        rw=read      bs=1M iodepth=8  runtime=2\n"
    "phase seqwrite       rw=write     bs=1M iodepth=8  runtime=2\n";

static const struct {
	const char *name;
	const char *text;
} builtin[] = {
	{ "article", profile_article },
	{ "quick", profile_quick },
};

const char *const bench_profile_names[] = { "article", "quick", NULL };

const char *bench_profile_builtin(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtin); i++)
		if (!strcmp(builtin[i].name, name))
			return builtin[i].text;
	return NULL;
}

/* ------------------------------------------------------------ parsing */

static int name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n >= max)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_' || *s == '.'))
			return 0;
	return 1;
}

/* fio size text ("64m", "8g", "1048576") in bytes; -1 if malformed. */
static int parse_size(const char *s, uint64_t *out)
{
	char num[32];
	size_t n = strlen(s);
	uint64_t v, mul = 1;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	switch (num[n - 1] | 0x20) {
	case 'k': mul = 1ull << 10; break;
	case 'm': mul = 1ull << 20; break;
	case 'g': mul = 1ull << 30; break;
	case 't': mul = 1ull << 40; break;
	default: mul = 0; break;
	}
	if (mul)
		num[--n] = '\0';
	else
		mul = 1;
	if (parse_u64(num, &v) || !v || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

static int rw_ok(const char *s)
{
	static const char *const ok[] = { "read",      "write", "randread",
					  "randwrite", "rw",	"randrw",
					  "readwrite" };

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!strcmp(s, ok[i]))
			return 1;
	return 0;
}

/* Apply one "key=value" (or "iops_log") word to phase p. */
static int phase_word(struct bench_phase_def *p, char *w, char *why,
		      size_t whylen)
{
	char *eq = strchr(w, '=');
	uint64_t bytes;
	long *dst = NULL, max = 1000000;

	if (!strcmp(w, "iops_log")) {
		p->iops_log = 1;
		return 0;
	}
	if (!eq) {
		xsnprintf(why, whylen, "unknown word '%s'", w);
		return -1;
	}
	*eq++ = '\0';
	if (!strcmp(w, "rw")) {
		if (!rw_ok(eq)) {
			xsnprintf(why, whylen, "unknown rw '%s'", eq);
			return -1;
		}
		xsnprintf(p->rw, sizeof(p->rw), "%s", eq);
		return 0;
	}
	if (!strcmp(w, "bs")) {
		if (strlen(eq) >= sizeof(p->bs) || parse_size(eq, &bytes) ||
		    bytes > (64u << 20)) {
			xsnprintf(why, whylen, "bad bs '%s'", eq);
			return -1;
		}
		xsnprintf(p->bs, sizeof(p->bs), "%s", eq);
		return 0;
	}
	if (!strcmp(w, "iodepth"))
		dst = &p->iodepth, max = 4096;
	else if (!strcmp(w, "numjobs"))
		dst = &p->numjobs, max = 256;
	else if (!strcmp(w, "runtime"))
		dst = &p->runtime_s, max = 7 * 86400;
	else if (!strcmp(w, "burst_runtime"))
		dst = &p->burst_runtime_s, max = 7 * 86400;
	if (!dst) {
		xsnprintf(why, whylen, "unknown setting '%s'", w);
		return -1;
	}
	if (parse_long_range(eq, 1, max, dst)) {
		xsnprintf(why, whylen,
			  "%s must be a whole number from 1 to %ld, not '%s'",
			  w, max, eq);
		return -1;
	}
	return 0;
}

static int phase_line(struct bench_profile *pr, char **words, size_t nw,
		      char *why, size_t whylen)
{
	struct bench_phase_def *p;

	if (pr->nphases == BENCH_MAX_PHASES) {
		xsnprintf(why, whylen, "more than %d phases", BENCH_MAX_PHASES);
		return -1;
	}
	if (nw < 2 || !name_ok(words[1], BENCH_NAME_LEN)) {
		xsnprintf(
		    why, whylen,
		    "expected 'phase NAME rw=... bs=...' with NAME of a-z, 0-9, '-', '_'");
		return -1;
	}
	for (size_t i = 0; i < pr->nphases; i++)
		if (!strcmp(pr->phase[i].name, words[1])) {
			xsnprintf(why, whylen, "phase '%s' defined twice",
				  words[1]);
			return -1;
		}
	p = &pr->phase[pr->nphases];
	memset(p, 0, sizeof(*p));
	xsnprintf(p->name, sizeof(p->name), "%s", words[1]);
	p->iodepth = p->numjobs = 1;
	for (size_t i = 2; i < nw; i++)
		if (phase_word(p, words[i], why, whylen))
			return -1;
	if (!p->rw[0] || !p->bs[0]) {
		xsnprintf(why, whylen, "phase '%s' needs rw= and bs=", p->name);
		return -1;
	}
	if (p->burst_runtime_s && !p->runtime_s) {
		xsnprintf(why, whylen, "burst_runtime= needs runtime=");
		return -1;
	}
	pr->nphases++;
	return 0;
}

/*
 * Split s in place at blanks into at most max words; returns the count,
 * or max + 1 when there are more words than that.
 */
static size_t split_words(char *s, char **w, size_t max)
{
	size_t n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	return n;
}

static int profile_line(struct bench_profile *pr, char *line, char *why,
			size_t whylen)
{
	char *w[16];
	size_t nw;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	nw = split_words(line, w, ARRAY_SIZE(w));
	if (!nw)
		return 0;
	if (nw > ARRAY_SIZE(w)) {
		xsnprintf(why, whylen, "more than %zu words", ARRAY_SIZE(w));
		return -1;
	}
	if (!strcmp(w[0], "profile") && nw == 2 &&
	    name_ok(w[1], sizeof(pr->name))) {
		xsnprintf(pr->name, sizeof(pr->name), "%s", w[1]);
		return 0;
	}
	if (!strcmp(w[0], "size") && nw == 2) {
		if (parse_size(w[1], &pr->size_bytes) ||
		    pr->size_bytes < (1u << 20)) {
			xsnprintf(
			    why, whylen,
			    "bad size '%s' (use fio syntax of at least 1m: 64m, 8g)",
			    w[1]);
			return -1;
		}
		xsnprintf(pr->size, sizeof(pr->size), "%s", w[1]);
		return 0;
	}
	if (!strcmp(w[0], "phase"))
		return phase_line(pr, w, nw, why, whylen);
	xsnprintf(why, whylen,
		  "expected 'profile', 'size' or 'phase', not '%s'", w[0]);
	return -1;
}

int bench_profile_parse(const char *text, size_t len, const char *name,
			struct bench_profile *out, char *err)
{
	size_t i = 0, line = 0;
	char why[256];

	memset(out, 0, sizeof(*out));
	while (i < len) {
		char buf[1024];
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		line++;
		if (e - i >= sizeof(buf))
			return ebs_fail(err, EBS_ERR_PARSE,
					"profile '%s': line %zu: too long",
					name, line);
		memcpy(buf, text + i, e - i);
		buf[e - i] = '\0';
		i = e + 1;
		if (profile_line(out, buf, why, sizeof(why)))
			return ebs_fail(err, EBS_ERR_PARSE,
					"profile '%s': line %zu: %s", name,
					line, why);
	}
	if (!out->size[0])
		return ebs_fail(err, EBS_ERR_PARSE,
				"profile '%s': no 'size' line", name);
	if (!out->nphases)
		return ebs_fail(err, EBS_ERR_PARSE,
				"profile '%s': no 'phase' line", name);
	if (!out->name[0])
		xsnprintf(out->name, sizeof(out->name), "custom");
	return EBS_OK;
}

/* ------------------------------------------------------------ plans */

int bench_type_bursts(const char *t)
{
	return t &&
	       (!strcmp(t, "gp2") || !strcmp(t, "st1") || !strcmp(t, "sc1"));
}

long bench_phase_runtime(const struct bench_phase_def *p, const char *t)
{
	if (p->burst_runtime_s && bench_type_bursts(t))
		return p->burst_runtime_s;
	return p->runtime_s;
}

long bench_profile_seconds(const struct bench_profile *pr, const char *t)
{
	long s = 0;

	for (size_t i = 0; i < pr->nphases; i++)
		s += bench_phase_runtime(&pr->phase[i], t);
	return s;
}

void bench_phase_stem(const struct bench_profile *pr, size_t i, char *buf,
		      size_t n)
{
	xsnprintf(buf, n, "%02zu-%s", i, pr->phase[i].name);
}

static void push(char ***argv, size_t *argc, char *s)
{
	*argv = xrealloc(*argv, (*argc + 2) * sizeof(**argv));
	(*argv)[(*argc)++] = s;
	(*argv)[*argc] = NULL;
}

void bench_phase_argv(const struct bench_profile *pr, size_t i,
		      const char *target, const char *volume_type,
		      const char *outdir, char ***argv, size_t *argc)
{
	const struct bench_phase_def *p = &pr->phase[i];
	long runtime = bench_phase_runtime(p, volume_type);
	char stem[BENCH_NAME_LEN + 8];

	bench_phase_stem(pr, i, stem, sizeof(stem));
	push(argv, argc, xstrfmt("--name=%s", p->name));
	push(argv, argc, xstrfmt("--filename=%s", target));
	push(argv, argc, xstrfmt("--size=%s", pr->size));
	push(argv, argc, xstrfmt("--rw=%s", p->rw));
	push(argv, argc, xstrfmt("--bs=%s", p->bs));
	push(argv, argc, xstrfmt("--iodepth=%ld", p->iodepth));
	push(argv, argc, xstrfmt("--numjobs=%ld", p->numjobs));
	push(argv, argc, xstrdup("--ioengine=libaio"));
	push(argv, argc, xstrdup("--direct=1"));
	push(argv, argc, xstrdup("--group_reporting"));
	if (runtime) {
		push(argv, argc, xstrdup("--time_based"));
		push(argv, argc, xstrfmt("--runtime=%ld", runtime));
	}
	if (p->iops_log) {
		push(argv, argc,
		     xstrfmt("--write_iops_log=%s/%s", outdir, stem));
		push(argv, argc, xstrdup("--log_avg_msec=1000"));
	}
	push(argv, argc, xstrdup("--output-format=json"));
	push(argv, argc, xstrfmt("--output=%s/%s.json", outdir, stem));
}
