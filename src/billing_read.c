/*
 * billing_read.c - billing export files into the push parser, and the one
 * call the scan command makes (billing_scan_files).
 *
 * The only user of zlib: gzread reads gzip files and, transparently, plain
 * ones, in fixed chunks, so a 1 GB export never sits in memory.  Several
 * gzip members (concatenated .gz parts) are read as one stream.  Parsing
 * is billing_parse.c's, rules billing_rules.c's; nothing here prints.
 */
#include "ebsize/billing.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

/* Read size: large enough that per-call costs vanish (measured). */
#define READ_CHUNK ((size_t)256 << 10)
/* Enough text for any export's header line. */
#define SNIFF_BYTES ((size_t)64 << 10)

int billing_read_file(struct billing_data *d, const char *path, char *err)
{
	int is_stdin = !strcmp(path, "-");
	gzFile gz =
	    is_stdin ? gzdopen(dup(STDIN_FILENO), "rb") : gzopen(path, "rb");
	struct billing_parser *p;
	char *buf;
	int n, rc = EBS_OK, zerr;

	if (!gz)
		return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s", path,
				errno ? strerror(errno) : "out of memory");
	gzbuffer(gz, (unsigned)READ_CHUNK);
	buf = xmalloc(READ_CHUNK);
	p = billing_parser_new(d, path);
	while ((n = gzread(gz, buf, (unsigned)READ_CHUNK)) > 0) {
		if ((rc = billing_parser_feed(p, buf, (size_t)n, err)))
			goto out;
	}
	/* a truncated gzip ends in a short read, then Z_BUF_ERROR */
	if (n < 0 || (gzerror(gz, &zerr), zerr == Z_BUF_ERROR)) {
		const char *m = gzerror(gz, &zerr);
		size_t pl = strlen(path);

		/* zlib's message starts with the path again */
		if (!strncmp(m, path, pl) && !strncmp(m + pl, ": ", 2))
			m += pl + 2;
		rc = ebs_fail(err, zerr == Z_ERRNO ? EBS_ERR_IO : EBS_ERR_PARSE,
			      "cannot read '%s': %s", path,
			      zerr == Z_ERRNO ? strerror(errno) : m);
		d->files[d->nfiles - 1].error = xstrdup(err);
		goto out;
	}
	rc = billing_parser_finish(p, err);
out:
	billing_parser_free(p);
	free(buf);
	gzclose(gz);
	return rc;
}

int billing_sniff_file(const char *path, enum bill_format *fmt, char *err)
{
	gzFile gz = gzopen(path, "rb");
	char *buf;
	int n;

	*fmt = BILL_FMT_UNKNOWN;
	if (!gz)
		return ebs_fail(err, EBS_ERR_IO, "cannot open '%s': %s", path,
				errno ? strerror(errno) : "out of memory");
	buf = xmalloc(SNIFF_BYTES);
	n = gzread(gz, buf, (unsigned)SNIFF_BYTES);
	if (n > 0)
		*fmt = billing_detect(buf, (size_t)n);
	free(buf);
	gzclose(gz);
	return EBS_OK;
}

/* ------------------------------------------------------------ analysis */

int billing_analyze(struct billing_data *d, billing_prices_fn prices, void *arg,
		    const struct volume_limits lim[VT_COUNT],
		    const struct idset *known_ids, struct billing_result *out,
		    char *err)
{
	double ph;

	memset(out, 0, sizeof(*out));
	out->data = d;
	billing_data_finish(d, lim);
	ph = billing_period_hours(d);
	out->f = xcalloc(d->nvol ? d->nvol : 1, sizeof(*out->f));
	for (size_t i = 0; i < d->nvol; i++) {
		const struct bill_volume *v = d->vol[i];
		const struct price_set *ps = NULL;
		const char *currency = NULL;
		int known = -1, rc = 1;

		if (*v->region &&
		    (rc = prices(v->region, &ps, &currency, arg, err)) < 0)
			return EBS_ERR_NOT_FOUND;
		if (rc)
			ps = NULL;
		if (known_ids)
			known = idset_get(known_ids, v->id, NULL);
		billing_analyze_volume(v, ps, currency, lim, ph, known,
				       &out->f[i]);
	}
	return EBS_OK;
}

int billing_scan_files(const char *const *paths, size_t n,
		       billing_prices_fn prices, void *arg,
		       const struct volume_limits lim[VT_COUNT],
		       const struct idset *known_ids,
		       struct billing_result *out, char *err)
{
	struct billing_data *d = billing_data_new();
	char ferr[EBS_ERRLEN];
	size_t failed = 0;
	int first = EBS_OK, rc;

	for (size_t i = 0; i < n; i++) {
		if ((rc = billing_read_file(d, paths[i], ferr))) {
			failed++;
			if (!first) {
				first = rc;
				xsnprintf(err, EBS_ERRLEN, "%s", ferr);
			}
		}
	}
	rc = billing_analyze(d, prices, arg, lim, known_ids, out, ferr);
	out->files_failed = failed;
	/* a prices error stops the analysis: it outranks a file's */
	if (rc) {
		xsnprintf(err, EBS_ERRLEN, "%s", ferr);
		return rc;
	}
	return first;
}

void billing_result_release(struct billing_result *r)
{
	if (!r)
		return;
	billing_data_free(r->data);
	free(r->f);
	r->data = NULL;
	r->f = NULL;
	r->files_failed = 0;
}
