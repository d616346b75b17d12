/*
 * cmd_bench.h - private to the `ebsize bench` command files: the volume
 * options run and import share, and the helpers more than one subcommand
 * uses.  cmd_bench.c holds these and the command table; the subcommands
 * live in cmd_bench_run.c (run, resume), cmd_bench_show.c (show, list,
 * compare), cmd_bench_import.c and cmd_bench_k8s.c.
 */
#ifndef EBSIZE_CMD_BENCH_H
#define EBSIZE_CMD_BENCH_H

#include <stddef.h>

#include "ebsize/bench.h"
#include "ebsize/cli.h"

/* What run and import record about the measured volume. */
struct vol_opts {
	const char *label;
	const char *volume_type;
	double size_gib;
	long iops;
	double throughput_mibps;
	const char *instance;
};

int bench_parse_label(const char *cmd, const char *opt, const char *val,
		      void *target);
int bench_parse_volume_type(const char *cmd, const char *opt, const char *val,
			    void *target);

/* The option rows of a struct vol_opts member `v` of struct st. */
#define BENCH_VOL_OPTS(st)                                                \
	{ "label",                                                        \
	  0,                                                              \
	  OPT_FUNC,                                                       \
	  offsetof(st, v.label),                                          \
	  "L",                                                            \
	  "a name for the run (1 to 120 characters)",                     \
	  .parse = bench_parse_label },                                   \
	    { "volume-type",                                              \
	      0,                                                          \
	      OPT_FUNC,                                                   \
	      offsetof(st, v.volume_type),                                \
	      "T",                                                        \
	      "the volume's type (with --size), for the model's\n"        \
	      "expectations",                                             \
	      .parse = bench_parse_volume_type,                           \
	      .choices = cli_type_names },                                \
	    { "size",                                                     \
	      0,                                                          \
	      OPT_NUM,                                                    \
	      offsetof(st, v.size_gib),                                   \
	      "GIB",                                                      \
	      "the volume's size",                                        \
	      .min = 1,                                                   \
	      .max = 65536,                                               \
	      .unit = OPT_UNIT_GIB },                                     \
	    { "iops",                                                     \
	      0,                                                          \
	      OPT_INT,                                                    \
	      offsetof(st, v.iops),                                       \
	      "N",                                                        \
	      "its provisioned IOPS",                                     \
	      .min = 1,                                                   \
	      .max = 1000000,                                             \
	      .unit = OPT_UNIT_COUNT },                                   \
	    { "throughput",                                               \
	      0,                                                          \
	      OPT_NUM,                                                    \
	      offsetof(st, v.throughput_mibps),                           \
	      "M",                                                        \
	      "its provisioned MiB/s",                                    \
	      .min = 1,                                                   \
	      .max = 100000,                                              \
	      .unit = OPT_UNIT_MIBPS },                                   \
	{                                                                 \
		"instance", 0, OPT_STR, offsetof(st, v.instance), "TYPE", \
		    "the instance it is attached to"                      \
	}

/* --volume-type and --size go together: usage error otherwise. */
int bench_check_vol(const struct cli_ctx *ctx, const struct vol_opts *v);

/* Copy the volume metadata of v into a run. */
void bench_vol_to_run(const struct vol_opts *v, const struct cli_ctx *ctx,
		      struct bench_run *r);

/*
 * Load a profile: a built-in name or a file.  *text is heap (the profile
 * text, stored with the run so resume runs the same suite).
 */
int bench_load_profile(const char *spec, struct bench_profile *pr, char **text,
		       char *err);

/* The run a RUN argument (id or label) names; prints the error. */
int bench_find_run(struct cli_ctx *ctx, const char *ref, long long *id);

/* Analyse phase p of run r (with the model's expectation) in place. */
void bench_analyse(const struct bench_run *r, struct bench_phase_result *p,
		   const struct bench_sample *s, size_t n);

/* Render run id (with phases, analysis, published runs) to stdout. */
int bench_show_run(struct cli_ctx *ctx, long long id);

extern const struct cmd bench_run_def, bench_resume_def, bench_import_def,
    bench_list_def, bench_show_def, bench_compare_def, bench_k8s_def;

#endif
