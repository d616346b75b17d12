/*
 * cmd_scan_input.c - the files of `ebsize scan`: each is mapped (or read,
 * for stdin), told apart by content, and parsed -- billing exports (read
 * by cmd_scan_billing.c), Kubernetes objects, CloudWatch metric data and
 * used space first, then the describe-volumes files streamed record by
 * record into the fleet rules (scan_fleet.c), the pages of a large file
 * given back as the scan passes them, so memory holds the findings, not
 * the file.
 */
#include "cmd_scan.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ebsize/msg.h"
#include "ebsize/util.h"

/* Release mapped pages of a describe-volumes file every 8 MiB scanned. */
#define RELEASE_STEP ((size_t)8 << 20)

int scan_input_open(struct scan_input *in, const char *name, size_t cap,
		    char *err)
{
	struct stat st;
	int fd;

	memset(in, 0, sizeof(*in));
	in->name = name;
	if (strcmp(name, "-") && (fd = open(name, O_RDONLY)) >= 0) {
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > 0) {
			if ((size_t)st.st_size > cap) {
				char limit[32];

				close(fd);
				fmt_cap(limit, sizeof(limit), cap);
				return ebs_fail(
				    err, EBS_ERR_TOO_BIG,
				    "'%s' is larger than the limit of %s", name,
				    limit);
			}
			in->data = mmap(NULL, (size_t)st.st_size, PROT_READ,
					MAP_PRIVATE, fd, 0);
			if (in->data != MAP_FAILED) {
				close(fd);
				in->len = (size_t)st.st_size;
				in->mapped = 1;
				(void)madvise(in->data, in->len,
					      MADV_SEQUENTIAL);
				return 0;
			}
			in->data = NULL;
		}
		close(fd);
	}
	return read_file_capped(name, cap, &in->data, &in->len, err);
}

void scan_input_release_before(struct scan_input *in, size_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), upto;

	if (!in->mapped || off < in->released + RELEASE_STEP)
		return;
	upto = off / page * page;
	(void)madvise(in->data + in->released, upto - in->released,
		      MADV_DONTNEED);
	in->released = upto;
}

void scan_input_close(struct scan_input *in)
{
	if (in->mapped)
		munmap(in->data, in->len);
	else
		free(in->data);
	in->data = NULL;
}

/* ------------------------------------------------------------ warnings */

static void print_capped(struct scan_state *st, struct inv_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (++st->nwarn <= SCAN_SHOW_WARNINGS)
			msg_warn("%s", w->msg[i]);
	inv_warnings_release(w);
}

void scan_flush_warnings(struct scan_state *st)
{
	print_capped(st, &st->warn);
	print_capped(st, &st->fleet.warn);
	/* once per region (and type) without prices, with how to get them */
	for (; st->no_price_said < st->fleet.nno_price; st->no_price_said++) {
		const struct scan_no_price *p =
		    &st->fleet.no_price[st->no_price_said];

		msg_warn(
		    "no %s%sprices for region '%s': its volumes%s%s are skipped (counted in the summary)",
		    p->type ? p->type : "", p->type ? " " : "", p->region,
		    p->type ? " of type " : "", p->type ? p->type : "");
		cli_price_hints(p->region, p->type);
	}
}

/* ------------------------------------------------------------ pass 1 */

static int open_input(struct scan_input *in, const char *name, size_t cap)
{
	char err[EBS_ERRLEN];

	if (scan_input_open(in, name, cap, err)) {
		msg_error("%s", err);
		return 1;
	}
	return 0;
}

/* The small inputs first: Kubernetes objects, metric data. */
static int load_small(struct scan_state *st, struct scan_input *in,
		      enum inv_kind kind)
{
	if (kind == INV_K8S)
		return inventory_parse_k8s(in->name, in->data, in->len,
					   &st->k8s, &st->warn, st->err);
	if (kind == INV_METRICS)
		return inventory_parse_metrics(in->name, in->data, in->len,
					       &st->metrics, &st->warn,
					       st->err);
	return 0;
}

/* One input of pass 1 (file i of the operands, then the --metrics). */
static int load_one(struct scan_state *st, const char *name, int is_metrics,
		    char *kind_out)
{
	struct scan_input in;
	enum inv_kind k;
	int rc, bill = 0;

	/* a billing export (a regular file: sniffed, then streamed) */
	if (!is_metrics && scan_billing_input(st, name, NULL, &bill))
		return 1;
	if (bill) {
		if (kind_out)
			*kind_out = SCAN_KIND_BILLING;
		return 0;
	}
	if (open_input(&in, name, is_metrics ? INV_SMALL_CAP : INV_VOLUMES_CAP))
		return 1;
	k = inventory_detect(in.data, in.len);
	if (is_metrics && k != INV_METRICS)
		k = INV_METRICS; /* --metrics: the parser says why it is not */
	if (kind_out)
		*kind_out = (char)k;
	/* stdin or a pipe holding a billing export (already read) */
	if (k == INV_UNKNOWN &&
	    (rc = scan_billing_input(st, name, &in, &bill), rc || bill)) {
		scan_input_close(&in);
		if (kind_out)
			*kind_out = SCAN_KIND_BILLING;
		return rc;
	}
	if (k == INV_UNKNOWN) {
		scan_input_close(&in);
		msg_error(
		    "'%s' is not describe-volumes, kubectl or CloudWatch get-metric-data JSON, nor a FOCUS or CUR billing export",
		    name);
		return 1;
	}
	if (k == INV_VOLUMES && !strcmp(name, "-") && !st->stdin_in.data) {
		st->stdin_in = in; /* cannot be read twice: keep it */
		return 0;
	}
	rc = k == INV_VOLUMES ? 0 : load_small(st, &in, k);
	scan_input_close(&in);
	if (rc) {
		msg_error("%s", st->err);
		return 1;
	}
	scan_flush_warnings(st);
	return 0;
}

int scan_load_inputs(struct scan_state *st, char *kinds)
{
	const struct scan_args *a = st->a;
	struct scan_input in;
	int rc;

	for (size_t i = 0; i < a->nfiles; i++)
		if (load_one(st, a->files[i], 0, &kinds[i]))
			return 1;
	for (size_t i = 0; i < a->metrics.n; i++)
		if (load_one(st, a->metrics.v[i], 1, NULL))
			return 1;
	if (a->usage) {
		if (open_input(&in, a->usage, INV_SMALL_CAP))
			return 1;
		rc = inventory_parse_usage(a->usage, in.data, in.len,
					   &st->usage, st->err);
		scan_input_close(&in);
		if (rc) {
			msg_error("%s", st->err);
			return 1;
		}
	}
	scan_fleet_add_metrics(&st->fleet, &st->metrics);
	scan_fleet_add_usage(&st->fleet, &st->usage);
	scan_fleet_set_k8s(&st->fleet, &st->k8s);
	scan_flush_warnings(st);
	return 0;
}

/* ------------------------------------------------------------ pass 2 */

/* Volumes between two redraws of the progress line. */
#define PROGRESS_STEP 8192

/* The progress line on a terminal: volumes read, share of the file. */
static void progress(const struct scan_state *st, size_t done)
{
	msg_progress("%sscanning '%s': %zu volumes, %d %%",
		     st->progress ? st->progress : "", st->cur->name, st->nread,
		     st->cur->len
			 ? (int)((double)done * 100.0 / (double)st->cur->len)
			 : 100);
}

/* inventory_each_volume callback: one record into the fleet rules. */
static int on_volume(const struct inv_volume *v, void *arg)
{
	struct scan_state *st = arg;
	int rc;

	if (++st->nread % PROGRESS_STEP == 0 && msg_progress_enabled())
		progress(st, v->end_offset);
	scan_input_release_before(st->cur, v->end_offset);
	rc = scan_fleet_volume(&st->fleet, st->cur->name, v, st->err);
	scan_flush_warnings(st);
	if (rc) {
		msg_error("%s", st->err);
		return 1;
	}
	return 0;
}

int scan_read_volumes(struct scan_state *st, const char *kinds)
{
	const struct scan_args *a = st->a;
	struct scan_input in;
	int rc;

	for (size_t i = 0; i < a->nfiles; i++) {
		if (kinds[i] != INV_VOLUMES)
			continue;
		if (msg_progress_enabled())
			msg_progress("%sscanning '%s'",
				     st->progress ? st->progress : "",
				     a->files[i]);
		if (!strcmp(a->files[i], "-") && st->stdin_in.data) {
			in = st->stdin_in;
			st->stdin_in.data = NULL;
		} else if (open_input(&in, a->files[i], INV_VOLUMES_CAP)) {
			return 1;
		}
		st->cur = &in;
		rc = inventory_each_volume(in.name, in.data, in.len, on_volume,
					   st, st->err);
		scan_input_close(&in);
		st->cur = NULL;
		if (rc) {
			msg_progress_done();
			if (rc != 1)
				msg_error("%s", st->err);
			return 1;
		}
	}
	msg_progress_done();
	rc = scan_fleet_pvs(&st->fleet, st->err);
	if (!rc)
		scan_fleet_cluster(&st->fleet);
	scan_flush_warnings(st);
	if (rc) {
		msg_error("%s", st->err);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ queries */

struct id_list {
	char **ids;
	size_t n, alloc;
	struct scan_input *in;
};

/* --metric-queries callback: keep the ids of usable in-use volumes. */
static int collect_id(const struct inv_volume *v, void *arg)
{
	struct id_list *l = arg;

	scan_input_release_before(l->in, v->end_offset);
	if (v->problem || (v->state && strcmp(v->state, "in-use")))
		return 0;
	xgrow((void **)&l->ids, &l->alloc, l->n + 1, sizeof(*l->ids));
	l->ids[l->n++] = xstrdup(v->id);
	return 0;
}

int scan_write_queries(const struct scan_args *a, struct cli_ctx *ctx)
{
	struct id_list l = { 0 };
	struct scan_input in;
	char err[EBS_ERRLEN], *json = NULL;
	FILE *f;
	int rc = EXIT_RUNTIME;

	if (open_input(&in, a->queries, INV_VOLUMES_CAP))
		return EXIT_RUNTIME;
	l.in = &in;
	if (inventory_detect(in.data, in.len) != INV_VOLUMES) {
		msg_error("'%s' is not aws ec2 describe-volumes output",
			  a->queries);
		goto out;
	}
	if (inventory_each_volume(in.name, in.data, in.len, collect_id, &l,
				  err)) {
		msg_error("%s", err);
		goto out;
	}
	json = inventory_metric_queries((const char *const *)l.ids, l.n,
					a->period_s);
	if (!(f = cli_out(ctx, ctx->cmd_name, "GetMetricData queries"))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fputs(json, f) < 0 || fputc('\n', f) < 0) {
		cli_write_error(ctx);
		goto out;
	}
	/* GetMetricData takes at most 500 queries per call */
	if (l.n * IM_COUNT > 500)
		msg_warn(
		    "%zu queries: GetMetricData takes 500 per call; split the array (jq '.[0:500]', '.[500:1000]', ...)",
		    l.n * IM_COUNT);
	rc = EXIT_OK;
out:
	free(json);
	for (size_t i = 0; i < l.n; i++)
		free(l.ids[i]);
	free(l.ids);
	scan_input_close(&in);
	return rc;
}
