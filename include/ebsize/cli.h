/*
 * cli.h - the command table and what every command receives.  Adding a
 * command is one row in src/cli.c and one src/cmd_<verb>.c.
 */
#ifndef EBSIZE_CLI_H
#define EBSIZE_CLI_H

#include "ebsize/out.h"

/* Exit codes, mapped in one place. */
#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

struct db;

#define CLI_MAX_REGIONS 32

struct cli_ctx {
	const char *db_path_opt;   /* --db, or NULL */
	const char *region;        /* resolved: --region, env, us-east-1 */
	int region_from_opt;       /* --region was given explicitly */
	const char *regions[CLI_MAX_REGIONS];  /* every --region, in order */
	size_t nregions;
	enum out_format format;
	int format_set;            /* --format was given */
	int quiet;
	struct db *db;             /* opened for commands with CMD_NEEDS_DB */
	const char *output;        /* -o FILE, or NULL: standard output */
	const char *table;         /* --table NAME (csv), or NULL */
	struct outfile *outfile;   /* -o: the file being written */
	int out_used;              /* the result went to the output */
	char *command_line;        /* for the workbook's About sheet */
	const char *cmd_name;      /* the command running, for hints */
};

#define CMD_NEEDS_DB 1

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct cli_ctx *ctx);
	unsigned flags;
	const char *help;          /* one line for `ebsize help` */
};

/* Run ebsize with argv; returns the process exit code. */
int cli_main(int argc, char **argv);

/* Open the database for ctx on demand; prints the error itself. 0 or 1. */
int cli_open_db(struct cli_ctx *ctx);

/*
 * Render doc in ctx's format to the output (standard output or -o FILE);
 * returns an exit code.  CSV writes one table (--table), and its notes go
 * to stderr; xlsx writes the workbook to the -o file.
 */
int cli_render(struct cli_ctx *ctx, const struct out_doc *doc);

/*
 * The stream for a result that is not a document (the burst timeline,
 * YAML manifests, a path): standard output or the -o file.  With
 * --format xlsx there is none: prints a usage error naming `what` for
 * cmd and returns NULL (the caller returns EXIT_USAGE).
 */
FILE *cli_out(struct cli_ctx *ctx, const char *cmd, const char *what);
/* Report a failed write of the result (errno says why); EXIT_RUNTIME. */
int cli_write_error(struct cli_ctx *ctx);

/*
 * Option parsing shared by commands: a thin wrapper over getopt_long with
 * our own messages.  cmd_getopt returns the option value, -1 at the end,
 * or '?' after printing a usage error (the caller returns EXIT_USAGE).
 */
struct option;
int cmd_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/* Parse a positive integer option value, printing a usage error if bad. */
int cmd_parse_long(const char *cmd, const char *opt, const char *val,
		   long min, long max, long *out);
int cmd_parse_double(const char *cmd, const char *opt, const char *val,
		     double min, double max, double *out);

/* One subcommand of a command with subcommands (pricing, bench). */
struct subcmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct cli_ctx *ctx);
};

/*
 * Run the subcommand argv[1] of cmd from subs (n rows): it sees argv from
 * its own name on, with getopt reset.  -h/--help prints usage; a missing or
 * unknown subcommand is a usage error that lists the names.
 */
int cmd_dispatch(const char *cmd, const char *usage, const struct subcmd *subs,
		 size_t n, int argc, char **argv, struct cli_ctx *ctx);

/* Parse "gp2,gp3,..." into want[VT_COUNT]; prints a usage error, -1. */
int cmd_parse_types(const char *cmd, const char *list, int *want);
/* Check a YYYY-MM-DD date option; prints a usage error, -1. */
int cmd_check_date(const char *cmd, const char *opt, const char *val);

int cmd_bench(int argc, char **argv, struct cli_ctx *ctx);
int cmd_burst(int argc, char **argv, struct cli_ctx *ctx);
int cmd_cheapest(int argc, char **argv, struct cli_ctx *ctx);
int cmd_compare(int argc, char **argv, struct cli_ctx *ctx);
int cmd_cost(int argc, char **argv, struct cli_ctx *ctx);
int cmd_db(int argc, char **argv, struct cli_ctx *ctx);
int cmd_instances(int argc, char **argv, struct cli_ctx *ctx);
int cmd_pricing(int argc, char **argv, struct cli_ctx *ctx);
int cmd_scan(int argc, char **argv, struct cli_ctx *ctx);

#endif
