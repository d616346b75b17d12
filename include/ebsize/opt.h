/*
 * opt.h - declarative command-line options (after git's parse-options and
 * curl's tool_getparam): each command describes its options once, in a
 * table of struct opt, and that table drives the parsing, the range and
 * enum checks, the uniform usage errors, the -h text, the man page and
 * the shell completions (src/cli_doc.c).
 *
 * A table describes fields of one argument struct by offset, so tables are
 * static const data that the help and completion generators can read
 * without running the command.  The parser fills a zeroed struct: first
 * every option's default (`def`, parsed like a value the user typed), then
 * what argv says.  Messages go through msg_usage_error.
 */
#ifndef EBSIZE_OPT_H
#define EBSIZE_OPT_H

#include <stddef.h>
#include <stdint.h>

enum opt_kind {
	OPT_END = 0, /* ends a table */
	OPT_FLAG,    /* int, set to 1 */
	OPT_STR,     /* const char *, the argv string itself */
	OPT_LIST,    /* struct opt_list: repeatable; max = most values */
	OPT_INT,     /* long within [min, max], after the unit */
	OPT_NUM,     /* double within [min, max], after the unit */
	OPT_ENUM,    /* int: the index of the value in choices */
	OPT_DATE,    /* const char *, a calendar date YYYY-MM-DD */
	OPT_FUNC     /* parse(): anything else (lists, specs) */
};

/*
 * Units a number may carry (issue 10: human units).  The value is stored
 * in the option's base unit: GiB, a plain count, seconds, MiB/s, KiB.
 */
enum opt_unit {
	OPT_UNIT_NONE = 0,
	OPT_UNIT_GIB,	  /* 500, 500GiB, 1TiB */
	OPT_UNIT_COUNT,	  /* 16000, 16k */
	OPT_UNIT_SECONDS, /* 90, 90s, 30m, 1h, 2d */
	OPT_UNIT_MIBPS,	  /* 500, 500MiB/s, 1GiB/s */
	OPT_UNIT_KIB	  /* 16, 16KiB, 1MiB */
};

/* struct opt flags */
#define OPT_REQUIRED 0x1u /* "missing --name METAVAR" when absent */
#define OPT_HIDDEN   0x2u /* parsed, but not in help or completion */
#define OPT_PATH     0x4u /* the value is a file name (completion) */
#define OPT_DIRNAME  0x8u /* the value is a directory (completion) */
#define OPT_OWNS_TABLE \
	0x10u /* when given, the global --table NAME is the
				command's (scan --emit-sql: the SQL table),
				not the CSV table to write */
/*
 * An option of the command's batch form (`--batch FILE`, issue 14): shown
 * in a usage line of its own; when one is given, the OPT_REQUIRED options
 * are required of each request, not of the command line.
 */
#define OPT_BATCH 0x20u

/* Values of an OPT_LIST option, in order.  The strings belong to argv. */
struct opt_list {
	const char **v;
	size_t n, alloc;
};
void opt_list_release(struct opt_list *l);

struct opt {
	const char *name; /* long name without "--"; NULL ends */
	char short_name;  /* 'o' for -o, or 0 */
	enum opt_kind kind;
	size_t offset;	     /* of the value in the argument struct */
	const char *metavar; /* "GIB"; NULL for flags */
	const char *help;    /* '\n' starts a continuation line */
	double min, max;     /* OPT_INT, OPT_NUM; OPT_LIST: max count */
	enum opt_unit unit;
	const char *const *choices; /* OPT_ENUM values (NULL-terminated);
					OPT_FUNC: words to complete */
	const char *noun;	    /* OPT_ENUM: "unknown NOUN 'x' (use ...)" */
	/* OPT_FUNC: store val at target; print a usage error (cmd) and
	 * return -1 when it is bad. */
	int (*parse)(const char *cmd, const char *opt, const char *val,
		     void *target);
	const char *def;     /* default, as typed; shown in help */
	const char *missing; /* OPT_REQUIRED: "missing --name MISSING"
					(default: metavar, or the choices) */
	unsigned flags;
};

/* Which options of a table a parse saw (a table has at most 64). */
struct opt_seen {
	uint64_t bits;
};

#define OPT_MAX 64

enum opt_result { OPT_ERROR = -1, OPT_OK = 0, OPT_HELP = 1 };

/*
 * Parse argv[1..argc-1] (argv[0] is the command's name) against opts into
 * args, and collect the operands (everything that is not an option; all
 * words after "--") into operands, at most max_operands (-1: any).  Long
 * options take "--name value" or "--name=value" and may be abbreviated to
 * a unique prefix; short ones "-x value" or "-xvalue".  -h and --help ask
 * for help.  Returns OPT_OK, OPT_HELP, or OPT_ERROR after printing a usage
 * error for cmd (the top-level command name, for the hint).
 */
int opt_parse(const char *cmd, const struct opt *opts, int max_operands,
	      int argc, char **argv, void *args, struct opt_seen *seen,
	      struct opt_list *operands);

/*
 * The OPT_REQUIRED check opt_parse ends with: a usage error for cmd and
 * -1 when an option seen lacks is required, else 0.
 */
int opt_check_required(const char *cmd, const struct opt *opts,
		       const struct opt_seen *seen);

/* Store the defaults of opts into args (what opt_parse does first). */
int opt_defaults(const char *cmd, const struct opt *opts, void *args);

/* Parse one value for option o into args; usage error and -1 if bad. */
int opt_set(const char *cmd, const struct opt *o, const char *val, void *args);

/* The option named name in opts, or NULL. */
const struct opt *opt_find(const struct opt *opts, const char *name);

/* Was option name given on the command line (not just defaulted)? */
int opt_given(const struct opt *opts, const struct opt_seen *seen,
	      const char *name);

/* Release what a parse allocated in args (the OPT_LIST arrays). */
void opt_release(const struct opt *opts, void *args);

/*
 * Parse a number with an optional unit suffix into the unit's base (see
 * enum opt_unit).  0, or -1 when s is not such a number.  Pure, for tests.
 */
int opt_parse_quantity(const char *s, enum opt_unit unit, double *out);

/* "a, b or c" from a NULL-terminated list, into buf. */
void opt_join_choices(const char *const *choices, char *buf, size_t n);

/* Is s a real calendar date YYYY-MM-DD (leap years included)? */
int opt_valid_date(const char *s);

#endif
