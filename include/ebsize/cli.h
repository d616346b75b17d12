/*
 * cli.h - the command table and what every command receives.  Adding a
 * command is one row in src/cli.c and one src/cmd_<verb>.c holding its
 * struct cmd: name, options (a struct opt table, include/ebsize/opt.h),
 * help texts and the handler.  src/cli.c parses the options into the
 * command's argument struct before calling it; src/cli_doc.c turns the
 * same tables into -h text, the man page and shell completions.
 */
#ifndef EBSIZE_CLI_H
#define EBSIZE_CLI_H

#include "ebsize/opt.h"
#include "ebsize/out.h"

/* Exit codes, mapped in one place (cli_exit). */
#define EXIT_OK	     0
#define EXIT_RUNTIME 1
#define EXIT_USAGE   2

struct db;
struct cmd;

#define CLI_MAX_REGIONS 32

struct cli_ctx {
	/* global options */
	const char *db_path_opt; /* --db, or NULL */
	const char *region;	 /* resolved: --region, env, us-east-1 */
	int region_from_opt;	 /* --region was given explicitly */
	const char *regions[CLI_MAX_REGIONS]; /* every --region, in order */
	size_t nregions;
	enum out_format format;
	int format_set; /* --format was given */
	int quiet;
	/* the command being run */
	const char *cmd_name;  /* top-level name, for usage hints */
	const struct cmd *cmd; /* the (sub)command */
	struct opt_seen seen;  /* which of its options were given */
	const char **operands; /* non-option arguments, in order */
	size_t noperands;
	struct db *db;		 /* opened for commands with CMD_NEEDS_DB */
	const char *output;	 /* -o FILE, or NULL: standard output */
	const char *table;	 /* --table NAME (csv), or NULL */
	struct outfile *outfile; /* -o: the file being written */
	int out_used;		 /* the result went to the output */
	int out_complete;	 /* the result is whole though the exit
				      code is 1 (a batch in which some
				      requests failed): -o keeps it */
	char *command_line;	 /* for the workbook's About sheet */
};

#define CMD_NEEDS_DB 0x1u /* open (create) the database before run */
#define CMD_HIDDEN   0x2u /* not listed in help or completion */
#define CMD_OUTPUT_DIR \
	0x4u /* -o names a directory the command writes
				  itself (report), not a file for its result */

struct cmd {
	const char *name;
	/* run the command with its parsed arguments; returns an exit code */
	int (*run)(struct cli_ctx *ctx, void *args);
	size_t args_size; /* sizeof the argument struct opts fill */
	unsigned flags;
	const char *summary;  /* one line for `ebsize help` */
	const char *synopsis; /* usage after "ebsize NAME "; NULL: generated */
	const char *description; /* paragraphs after the usage */
	const struct opt *opts;	 /* NULL or a table ended by { NULL } */
	const char *operands;	 /* "FILE...", NULL: none taken */
	int max_operands;	 /* -1: any number */
	/*
	 * Checks of option combinations, before the database is opened:
	 * print a usage error and return EXIT_USAGE, or return EXIT_OK.
	 */
	int (*check)(struct cli_ctx *ctx, void *args);
	const char *epilog; /* after the options: exit status, notes */
	const struct cmd *const *subs; /* subcommands, NULL-terminated */
	/* the tables of its result (--table, sheets), the default first;
	 * "(records)" for one row of every field */
	const char *tables;
	/* what the command stores in the database ("storing prices"), for
	 * messages; NULL: it only reads, and works on a database it cannot
	 * write (opened read-only) */
	const char *writes;
};

/* Run ebsize with argv; returns the process exit code. */
int cli_main(int argc, char **argv);

/* Every top-level command, in table order (for cli_doc.c). */
const struct cmd *const *cli_commands(void);
/* The global options table (for cli_doc.c). */
const struct opt *cli_global_opts(void);

/* Was option name of the running command given on the command line? */
int cli_given(const struct cli_ctx *ctx, const char *name);

/* Is r shaped like an AWS region code (us-east-1, us-gov-west-1)? */
int cli_region_well_formed(const char *r);

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
 * The one exit path for a failed library call: print err (an EBS_ERR_*
 * code's message) as an error -- a usage error, with its hint, for
 * EBS_ERR_USAGE -- and return the exit code the code maps to.
 */
int cli_fail(const struct cli_ctx *ctx, int code, const char *err);

/* Shared option parsers (OPT_FUNC) */
/* "gp2,gp3,..." into int want[VT_COUNT] */
int cli_parse_types(const char *cmd, const char *opt, const char *val,
		    void *target);
/* one volume type into enum vol_type */
int cli_parse_type(const char *cmd, const char *opt, const char *val,
		   void *target);
extern const char *const cli_type_names[]; /* for completion */
/* "100,500GiB,1TiB": up to CLI_MAX_SIZES whole sizes of 1 to 65536 GiB */
#define CLI_MAX_SIZES 64
struct cli_sizes {
	long v[CLI_MAX_SIZES];
	size_t n;
};
int cli_parse_sizes(const char *cmd, const char *opt, const char *val,
		    void *target);

/* src/cli_doc.c: help, man page, completion */
void cli_doc_usage(FILE *f); /* `ebsize -h` */
void cli_doc_help(FILE *f, const struct cmd *c, const char *path);
int cli_doc_man(FILE *f);
void cli_doc_synopsis(FILE *f); /* every usage form */
int cli_doc_completion(FILE *f, const char *shell);

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

/*
 * Prices and volume rules for many requests (`--batch`, and the volume
 * types of one `cheapest`): each (region, as-of) price set and each
 * (type, as-of) rule read once.  The database must not change while the
 * memo is in use.  cli_memo_prices is cli_load_prices through m (a
 * failure is read and said again each time); cli_memo_limits is
 * db_load_limits through m (its failures kept, err set each time).
 */
struct cli_memo;
struct volume_limits;
struct cli_memo *cli_memo_new(void);
void cli_memo_free(struct cli_memo *m);
int cli_memo_prices(struct cli_ctx *ctx, struct cli_memo *m, const char *region,
		    const char *as_of, const char *type,
		    const struct price_set **ps);
int cli_memo_limits(struct cli_ctx *ctx, struct cli_memo *m, int type,
		    const char *as_of, const struct volume_limits **lim,
		    char *err);

/* The commands (src/cmd_<verb>.c) */
extern const struct cmd cmd_bench_def;
extern const struct cmd cmd_burst_def;
extern const struct cmd cmd_cheapest_def;
extern const struct cmd cmd_compare_def;
extern const struct cmd cmd_completion_def;
extern const struct cmd cmd_cost_def;
extern const struct cmd cmd_db_def;
extern const struct cmd cmd_instances_def;
extern const struct cmd cmd_pricing_def;
extern const struct cmd cmd_report_def;
extern const struct cmd cmd_scan_def;

#endif
