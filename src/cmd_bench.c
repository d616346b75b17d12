/*
 * cmd_bench.c - `ebsize bench run|resume|import|list|show|compare|k8s`:
 * the fio measurement suite.  This file holds the command table and what
 * the subcommands share (volume options, profiles, finding a run); the
 * subcommands are in cmd_bench_run.c, cmd_bench_show.c,
 * cmd_bench_import.c and cmd_bench_k8s.c (private header cmd_bench.h).
 * fio itself is spawned by bench_run.c, its output parsed by fio_parse.c,
 * analysed by bench_analysis.c and stored by db_bench.c.
 */
#include "cmd_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/db.h"
#include "ebsize/db_bench.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

#define PROFILE_FILE_CAP (1u << 20)

/* ------------------------------------------------------------ options */

int bench_parse_label(const char *cmd, const char *opt, const char *val,
		      void *target)
{
	(void)opt;
	if (!*val || strlen(val) > 120) {
		msg_usage_error(cmd, "--label must be 1 to 120 characters");
		return -1;
	}
	*(const char **)target = val;
	return 0;
}

int bench_parse_volume_type(const char *cmd, const char *opt, const char *val,
			    void *target)
{
	enum vol_type t;

	if (cli_parse_type(cmd, opt, val, &t))
		return -1;
	*(const char **)target = model_type_name(t);
	return 0;
}

int bench_check_vol(const struct cli_ctx *ctx, const struct vol_opts *v)
{
	if ((v->size_gib > 0) != (v->volume_type != NULL))
		return msg_usage_error(ctx->cmd_name,
				       "--volume-type and --size go together");
	return EXIT_OK;
}

void bench_vol_to_run(const struct vol_opts *v, const struct cli_ctx *ctx,
		      struct bench_run *r)
{
	xsnprintf(r->volume_type, sizeof(r->volume_type), "%s",
		  v->volume_type ? v->volume_type : "");
	r->size_gib = v->size_gib > 0 ? v->size_gib : NAN;
	r->iops = v->iops;
	r->throughput_mibps =
	    v->throughput_mibps > 0 ? v->throughput_mibps : NAN;
	xsnprintf(r->instance_type, sizeof(r->instance_type), "%s",
		  v->instance ? v->instance : "");
	xsnprintf(r->region, sizeof(r->region), "%s",
		  ctx->region_from_opt ? ctx->region : "");
}

int bench_load_profile(const char *spec, struct bench_profile *pr, char **text,
		       char *err)
{
	const char *b = bench_profile_builtin(spec);
	size_t len;
	int rc;

	*text = NULL;
	if (b) {
		*text = xstrdup(b);
		len = strlen(b);
	} else if ((rc = read_file_capped(spec, PROFILE_FILE_CAP, text, &len,
					  err))) {
		if (!strchr(spec, '/') && !strchr(spec, '.'))
			xsnprintf(
			    err, EBS_ERRLEN,
			    "unknown profile '%s' (use article, quick or a profile file)",
			    spec);
		return rc;
	}
	rc = bench_profile_parse(*text, len, spec, pr, err);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int bench_find_run(struct cli_ctx *ctx, const char *ref, long long *id)
{
	char err[EBS_ERRLEN];

	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	if (db_bench_find_run(ctx->db, ref, id, err)) {
		msg_error("%s", err);
		msg_hint("see 'ebsize bench list'");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

void bench_analyse(const struct bench_run *r, struct bench_phase_result *p,
		   const struct bench_sample *s, size_t n)
{
	bench_analyse_phase(p, s, n);
	if (n && (!strcmp(p->rw, "randread") || !strcmp(p->rw, "randwrite")))
		bench_model_expect(r->volume_type, r->size_gib, r->iops,
				   &p->model_cliff_t_s, &p->model_steady_iops);
}

/* ------------------------------------------------------------ table */

static const struct cmd *const bench_subs[] = {
	&bench_run_def,	 &bench_resume_def,  &bench_import_def, &bench_list_def,
	&bench_show_def, &bench_compare_def, &bench_k8s_def,	NULL
};

const struct cmd cmd_bench_def = {
	.name = "bench",
	.summary =
	    "fio measurement suite: run, resume, import, show, compare, k8s",
	.description =
	    "Measures a volume with fio the way the published benchmark did and keeps\n"
	    "every phase in the database the moment it ends, with its per-second IOPS,\n"
	    "latency percentiles and an analysis: credit cliff, latency bimodality,\n"
	    "Little's law, and the model's and published runs' expectations.\n"
	    "RUN is a run id or label.",
	.epilog =
	    "Exit status: 0 ok, 1 runtime error or refusal, 2 usage error.",
	.subs = bench_subs,
};
