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

/* Render doc to stdout in ctx's format; returns an exit code. */
int cli_render(struct cli_ctx *ctx, const struct out_doc *doc);

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

/*
 * Prices for a command (src/cli_prices.c).  cli_load_prices loads the
 * prices in force for region (as_of as db_load_prices); when there are
 * none it prints which region, why, and the two ways to get them (type:
 * the volume type the command needs, for the AWS CLI line; may be NULL),
 * and returns EXIT_RUNTIME.  cli_type_priced: 1 when ps holds every price
 * a volume of type (enum vol_type) can need.  cli_type_prices_missing
 * prints that ps lacks them and how to get them; returns EXIT_RUNTIME.
 */
struct price_set;
int cli_load_prices(struct cli_ctx *ctx, const char *region, const char *as_of,
		    const char *type, struct price_set *ps);
int cli_type_priced(const struct price_set *ps, int type);
int cli_type_prices_missing(const struct price_set *ps, int type);
void cli_price_hints(const char *region, const char *type);

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
