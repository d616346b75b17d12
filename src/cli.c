/*
 * cli.c - the command table, global options, dispatch and exit codes.
 *
 * Global options may appear before or after the command name; they are
 * taken out of argv before the command parses its own options.  Commands
 * flagged CMD_NEEDS_DB get ctx->db opened (and created on first use).
 * stdout is flushed and checked here: a full disk is an error (exit 1).
 * With -o FILE the result goes to a temporary file renamed over FILE only
 * when the command succeeds (outfile.c).
 */
#include "ebsize/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/db.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/outfile.h"
#include "ebsize/util.h"

#ifndef EBSIZE_VERSION
#define EBSIZE_VERSION "0.1.0"
#endif

static int cmd_help(int argc, char **argv, struct cli_ctx *ctx);
static int cmd_version(int argc, char **argv, struct cli_ctx *ctx);

/* Alphabetical.  One row per command. */
static const struct cmd commands[] = {
	{ "bench", cmd_bench, 0,
	  "fio measurement suite: run, resume, import, show, compare, k8s" },
	{ "burst", cmd_burst, 0,
	  "simulate a gp2/st1/sc1 credit bucket second by second" },
	{ "cheapest", cmd_cheapest, CMD_NEEDS_DB,
	  "the cheapest volume sets for IOPS, MiB/s and GiB" },
	{ "compare", cmd_compare, CMD_NEEDS_DB,
	  "gp2 vs gp3 (and others) side by side, per size" },
	{ "cost", cmd_cost, CMD_NEEDS_DB,
	  "monthly cost and performance of one volume configuration" },
	{ "db", cmd_db, 0, "where the database is; integrity and contents" },
	{ "help", cmd_help, 0, "list commands, or show help for one" },
	{ "instances", cmd_instances, CMD_NEEDS_DB,
	  "EBS limits of EC2 instance types" },
	{ "pricing", cmd_pricing, CMD_NEEDS_DB,
	  "EBS prices: show, fetch from AWS, import, history, diff" },
	{ "scan", cmd_scan, CMD_NEEDS_DB,
	  "find EBS waste in an inventory: savings and fix commands" },
	{ "version", cmd_version, 0, "print the version" },
};

/*
 * The tables a command's result can hold: what --table accepts with
 * --format csv, the first being the default, and the sheets of its
 * workbook.  "(records)" is the default of a result without a list: all
 * its fields as one row.  Listed by `ebsize help COMMAND` and -h; a test
 * (t5030) checks each line against what the command produces.
 */
static const struct {
	const char *cmd;           /* "cost", or "pricing show" */
	const char *tables;
} cmd_tables[] = {
	{ "bench run", "phases, run, analysis, published, notes" },
	{ "bench resume", "phases, run, analysis, published, notes" },
	{ "bench import", "phases, run, analysis, published, notes" },
	{ "bench list", "runs" },
	{ "bench show", "phases, run, analysis, published, notes" },
	{ "bench compare", "phases, runs" },
	{ "burst", "(records), result, steady_state, notes" },
	{ "cheapest", "options, request, instances, nearest, notes" },
	{ "compare", "rows, notes" },
	{ "cost", "(records), result, monthly_usd, performance, prices" },
	{ "db path", "(records), result" },
	{ "db check", "prices_in_force, result, rows" },
	{ "instances show", "instances" },
	{ "instances import", "(records), result, notes" },
	{ "pricing show", "prices" },
	{ "pricing fetch", "(records), result, notes" },
	{ "pricing import", "(records), result, notes" },
	{ "pricing history", "snapshots" },
	{ "pricing diff", "changes, result, notes" },
	{ "scan", "findings, summary, totals_by_category, totals_by_region, "
		  "totals_by_tag, notes" },
};

/* After a command's help: the tables of cmd (one subcommand: sub). */
static void print_tables(const char *cmd, const char *sub)
{
	size_t n = strlen(cmd);
	int any = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cmd_tables); i++) {
		const char *name = cmd_tables[i].cmd;

		if (strncmp(name, cmd, n) || (name[n] && name[n] != ' '))
			continue;
		if (sub && name[n] && strcmp(name + n + 1, sub) &&
		    !str_starts_with(sub, "-"))
			continue;
		if (!any++)
			printf("\nTables (--format csv --table NAME; the first is the default):\n");
		printf("  %-18s %s\n", name, cmd_tables[i].tables);
	}
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fputs("usage: ebsize [--db PATH] [--region CODE] [--format FMT] [-o FILE]\n"
	      "              [--table NAME] [-q] COMMAND [ARGS]\n\n"
	      "An Amazon EBS cost and sizing calculator with embedded prices,\n"
	      "volume rules, instance limits and published benchmarks.\n\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %-10s  %s\n", commands[i].name, commands[i].help);
	fputs("\nGlobal options:\n"
	      "   --db PATH        database file (else $EBSIZE_DB, else\n"
	      "                    $XDG_DATA_HOME/ebsize/ebsize.db)\n"
	      "   --region CODE    AWS region (else $AWS_REGION, $AWS_DEFAULT_REGION,\n"
	      "                    us-east-1)\n"
	      "   --format FMT     table (default), csv, json, md or xlsx (a workbook,\n"
	      "                    with -o)\n"
	      "   -o, --output FILE  write the result to FILE, whole or not at all\n"
	      "   --table NAME     csv: the table to write (default: the main one;\n"
	      "                    'ebsize help COMMAND' lists them)\n"
	      "   -q, --quiet      no informational messages\n"
	      "   -h, --help       this help; 'ebsize COMMAND -h' for a command\n"
	      "   --version        print the version\n\n"
	      "Exit status: 0 ok, 1 runtime error, 2 usage error.\n", f);
}

static int cmd_help(int argc, char **argv, struct cli_ctx *ctx)
{
	const struct cmd *c;
	char *sub[] = { NULL, "-h", NULL };

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c || c->fn == cmd_help)
		return msg_usage_error(NULL, "unknown command '%s'", argv[1]);
	sub[0] = argv[1];
	if (c->fn(2, sub, ctx) != EXIT_OK)
		return EXIT_RUNTIME;
	print_tables(argv[1], NULL);
	return EXIT_OK;
}

static int cmd_version(int argc, char **argv, struct cli_ctx *ctx)
{
	FILE *f = ctx->outfile ? cli_out(ctx, "version", "a version line") : stdout;

	(void)argc;
	(void)argv;
	if (!f)
		return EXIT_USAGE;
	fprintf(f, "ebsize %s\n", EBSIZE_VERSION);
	return EXIT_OK;
}

/* ------------------------------------------------------------ options */

int cmd_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	int prev = optind ? optind : 1;
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c != '?' && c != ':')
		return c;
	if (optopt) {
		int needs_arg = 0;

		for (const struct option *o = longopts; o->name; o++)
			if (o->val == optopt && o->has_arg)
				needs_arg = 1;
		if (needs_arg && strchr(shortopts, optopt))
			msg_usage_error(cmd, "option '-%c' needs a value", optopt);
		else if (needs_arg)
			msg_usage_error(cmd, "option '%s' needs a value",
					argv[optind - 1]);
		else
			msg_usage_error(cmd, "unknown option '-%c'", optopt);
	} else {
		const char *bad = argv[optind - 1 >= prev ? optind - 1 : prev];

		if (strchr(bad, '='))
			msg_usage_error(cmd, "unknown option or unexpected value '%s'", bad);
		else
			msg_usage_error(cmd, "unknown option '%s'", bad);
	}
	return '?';
}

int cmd_parse_long(const char *cmd, const char *opt, const char *val,
		   long min, long max, long *out)
{
	if (parse_long_range(val, min, max, out)) {
		msg_usage_error(cmd, "%s must be a whole number from %ld to %ld, not '%s'",
				opt, min, max, val);
		return -1;
	}
	return 0;
}

int cmd_parse_double(const char *cmd, const char *opt, const char *val,
		     double min, double max, double *out)
{
	double v;

	if (parse_double(val, &v) || v < min || v > max) {
		msg_usage_error(cmd, "%s must be a number from %g to %g, not '%s'",
				opt, min, max, val);
		return -1;
	}
	*out = v;
	return 0;
}

/* "a, b or c" from the names of subs, for messages. */
static void list_names(const struct subcmd *subs, size_t n, char *buf,
		       size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++) {
		const char *sep = !i ? "" : i + 1 == n ? " or " : ", ";

		xsnprintf(buf + o, len - o, "%s%s", sep, subs[i].name);
		o = strlen(buf);
	}
}

int cmd_dispatch(const char *cmd, const char *usage, const struct subcmd *subs,
		 size_t n, int argc, char **argv, struct cli_ctx *ctx)
{
	char names[256];

	list_names(subs, n, names, sizeof(names));
	if (argc < 2)
		return msg_usage_error(cmd, "missing subcommand (%s)", names);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(argv[1], subs[i].name)) {
			optind = 0;
			return subs[i].fn(argc - 1, argv + 1, ctx);
		}
	}
	return msg_usage_error(cmd, "unknown subcommand '%s' (use %s)", argv[1], names);
}

int cmd_parse_types(const char *cmd, const char *list, int *want)
{
	char *copy = xstrdup(list), *s = copy;
	int any = 0;

	for (int t = 0; t < VT_COUNT; t++)
		want[t] = 0;
	while (s) {
		char *comma = strchr(s, ',');
		enum vol_type t;

		if (comma)
			*comma = '\0';
		if (model_type_parse(s, &t)) {
			msg_usage_error(cmd, "unknown volume type '%s' in --types", s);
			free(copy);
			return -1;
		}
		want[t] = any = 1;
		s = comma ? comma + 1 : NULL;
	}
	free(copy);
	if (!any)
		return msg_usage_error(cmd, "--types needs at least one type"), -1;
	return 0;
}

/* Is s a real calendar date YYYY-MM-DD (leap years included)? */
static int valid_date(const char *s)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y = 0, m = 0, d = 0;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 7)
			continue;
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (i < 4)
			y = y * 10 + (s[i] - '0');
		else if (i < 7)
			m = m * 10 + (s[i] - '0');
		else
			d = d * 10 + (s[i] - '0');
	}
	if (m < 1 || m > 12 || d < 1)
		return 0;
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return d <= 29;
	return d <= mdays[m - 1];
}

int cmd_check_date(const char *cmd, const char *opt, const char *val)
{
	if (!valid_date(val)) {
		msg_usage_error(cmd, "%s must be a date YYYY-MM-DD, not '%s'", opt, val);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ globals */

/* If argv[*i] is --name or --name=value, take its value; 1 if matched. */
static int take_value(int argc, char **argv, int *i, const char *name,
		      const char **val, int *bad)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc) {
		*bad = 1;
		return 1;
	}
	*val = argv[++*i];
	return 1;
}

/*
 * Remove global options from argv (compacting it) and apply them to ctx.
 * Returns -1 on a usage error (printed), 1 for --version, 0 otherwise.
 */
static int take_globals(int *argc, char **argv, struct cli_ctx *ctx,
			int *want_help)
{
	int out = 1, version = 0, seen_cmd = 0;
	const char *fmt = NULL;

	for (int i = 1; i < *argc; i++) {
		const char *v = NULL;
		int bad = 0;

		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (take_value(*argc, argv, &i, "--db", &v, &bad)) {
			ctx->db_path_opt = v;
		} else if (take_value(*argc, argv, &i, "--region", &v, &bad)) {
			ctx->region = v;
			ctx->region_from_opt = 1;
			if (v && ctx->nregions == CLI_MAX_REGIONS) {
				msg_usage_error(NULL, "too many --region options (at most %d)",
						CLI_MAX_REGIONS);
				return -1;
			}
			if (v)
				ctx->regions[ctx->nregions++] = v;
		} else if (take_value(*argc, argv, &i, "--format", &v, &bad)) {
			fmt = v;
		} else if (take_value(*argc, argv, &i, "--output", &v, &bad) ||
			   take_value(*argc, argv, &i, "-o", &v, &bad)) {
			ctx->output = v;
		} else if (take_value(*argc, argv, &i, "--table", &v, &bad)) {
			ctx->table = v;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			ctx->quiet = 1;
		} else if (!strcmp(argv[i], "--version")) {
			version = 1;
		} else if (!seen_cmd && (!strcmp(argv[i], "-h") ||
					 !strcmp(argv[i], "--help"))) {
			*want_help = 1;
		} else {
			if (argv[i][0] != '-')
				seen_cmd = 1;
			argv[out++] = argv[i];
			continue;
		}
		if (bad) {
			msg_usage_error(NULL, "option '%s' needs a value", argv[i]);
			return -1;
		}
		if (v && !*v) {
			msg_usage_error(NULL, "option '%s' needs a value", argv[i - (strchr(argv[i], '=') ? 0 : 1)]);
			return -1;
		}
	}
	*argc = out;
	argv[out] = NULL;
	ctx->format_set = fmt != NULL;
	if (fmt && out_format_parse(fmt, &ctx->format)) {
		msg_usage_error(NULL, "unknown format '%s' (use table, csv, json, md or xlsx)", fmt);
		return -1;
	}
	if (ctx->output && !strcmp(ctx->output, "-"))
		ctx->output = NULL;        /* -o -: standard output */
	if (ctx->format == OUT_XLSX && !ctx->output) {
		msg_usage_error(NULL, "--format xlsx writes a workbook: give -o FILE");
		return -1;
	}
	if (ctx->table && ctx->format != OUT_CSV) {
		msg_usage_error(NULL, "--table picks the table of --format csv");
		return -1;
	}
	return version;
}

/* "ebsize ARG ..." with arguments quoted for a POSIX shell when needed. */
static char *command_line(int argc, char *const *argv)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);

	sbuf_addstr(&sb, "ebsize");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		sbuf_addstr(&sb, " ");
		if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "0123456789-_=.,/:%@+") == strlen(a)) {
			sbuf_addstr(&sb, a);
			continue;
		}
		sbuf_addstr(&sb, "'");
		for (; *a; a++)
			sbuf_addstr(&sb, *a == '\'' ? "'\\''" : (char[]){ *a, 0 });
		sbuf_addstr(&sb, "'");
	}
	return sbuf_detach(&sb, NULL);
}

static const char *default_region(void)
{
	const char *r = getenv("AWS_REGION");

	if (!r || !*r)
		r = getenv("AWS_DEFAULT_REGION");
	return r && *r ? r : "us-east-1";
}

/* A region code looks like xx-word-N (us-east-1, ap-northeast-2, us-gov-west-1). */
static int region_well_formed(const char *r)
{
	size_t n = strlen(r);

	if (n < 6 || n > 31)
		return 0;
	for (const char *p = r; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return 0;
	return r[2] == '-' && r[n - 1] >= '0' && r[n - 1] <= '9' && r[n - 2] == '-';
}

int cli_open_db(struct cli_ctx *ctx)
{
	char err[EBS_ERRLEN];
	char *path = NULL;
	int is_default, rc;

	if (ctx->db)
		return 0;
	if ((rc = db_resolve_path(ctx->db_path_opt, &path, &is_default, err)) ||
	    (rc = db_open(path, is_default, &ctx->db, err))) {
		msg_error("%s", err);
		free(path);
		return 1;
	}
	free(path);
	return 0;
}

/* The stream results go to: the -o file's, else stdout. */
static FILE *result_stream(struct cli_ctx *ctx)
{
	ctx->out_used = 1;
	return ctx->outfile ? outfile_stream(ctx->outfile) : stdout;
}

int cli_render(struct cli_ctx *ctx, const struct out_doc *doc)
{
	struct out_target to = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	to.format = ctx->format;
	to.f = result_stream(ctx);
	to.path = ctx->outfile ? outfile_tmp_path(ctx->outfile) : NULL;
	to.table = ctx->table;
	to.command_line = ctx->command_line;
	to.version = EBSIZE_VERSION;
	rc = out_render_to(doc, &to, err);
	if (rc == EBS_ERR_USAGE)
		return msg_usage_error(ctx->cmd_name, "%s", err);
	if (rc) {
		msg_error("cannot write %s%s%s: %s", ctx->output ? "'" : "output",
			  ctx->output ? ctx->output : "", ctx->output ? "'" : "", err);
		return EXIT_RUNTIME;
	}
	/* one table on stdout: the notes (why nothing qualified) on stderr */
	if (ctx->format == OUT_CSV && !(ctx->table && !strcmp(ctx->table, "notes")))
		for (size_t i = 0; i < out_doc_nnotes(doc); i++)
			msg_info("note: %s", out_doc_note(doc, i));
	return EXIT_OK;
}

int cli_write_error(struct cli_ctx *ctx)
{
	const char *why = strerror(errno ? errno : EIO);

	if (ctx->output)
		msg_error("cannot write '%s': %s", ctx->output, why);
	else
		msg_error("cannot write output: %s", why);
	return EXIT_RUNTIME;
}

FILE *cli_out(struct cli_ctx *ctx, const char *cmd, const char *what)
{
	if (ctx->format == OUT_XLSX) {
		msg_usage_error(cmd, "--format xlsx cannot hold %s", what);
		return NULL;
	}
	return result_stream(ctx);
}

/*
 * Flush stdout, and with -o put the file in place when the command
 * succeeded and wrote its result (else remove it).  The exit code.
 */
static int finish_ctx(struct cli_ctx *ctx, int rc)
{
	char err[EBS_ERRLEN];

	if (fflush(stdout) || ferror(stdout)) {
		msg_error("cannot write output: %s", strerror(errno ? errno : EIO));
		rc = EXIT_RUNTIME;
	}
	if (ctx->outfile) {
		if (rc == EXIT_OK && ctx->out_used) {
			if (outfile_commit(ctx->outfile, err)) {
				msg_error("%s", err);
				rc = EXIT_RUNTIME;
			}
		} else {
			outfile_abort(ctx->outfile);
		}
		ctx->outfile = NULL;
	}
	free(ctx->command_line);
	ctx->command_line = NULL;
	return rc;
}

static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		msg_error("cannot write output: %s", strerror(errno ? errno : EIO));
		return EXIT_RUNTIME;
	}
	return rc;
}

/* Does the command line ask for help (-h before any "--")? */
static int asks_for_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
		else if (!strcmp(argv[i], "--"))
			break;
	return 0;
}

/* -o: create the temporary file now, so that a bad path fails early. */
static int open_output(struct cli_ctx *ctx)
{
	char err[EBS_ERRLEN];

	if (!ctx->output)
		return 0;
	if (outfile_open(ctx->output, ctx->format == OUT_XLSX ? OUTFILE_REGULAR : 0,
			 &ctx->outfile, err)) {
		msg_error("%s", err);
		return -1;
	}
	return 0;
}

int cli_main(int argc, char **argv)
{
	struct cli_ctx ctx = { 0 };
	const struct cmd *c;
	int want_help = 0, asks_help, rc;

	ctx.format = OUT_TABLE;
	ctx.command_line = command_line(argc, argv);
	rc = take_globals(&argc, argv, &ctx, &want_help);
	if (rc)
		free(ctx.command_line);
	if (rc < 0)
		return EXIT_USAGE;
	msg_set_quiet(ctx.quiet);
	if (rc == 1)
		return finish(cmd_version(0, NULL, &ctx));
	if (!ctx.region)
		ctx.region = default_region();
	if (argc < 2) {
		usage(want_help ? stdout : stderr);
		return finish_ctx(&ctx, want_help ? EXIT_OK : EXIT_USAGE);
	}
	c = find_cmd(argv[1]);
	if (!c) {
		if (argv[1][0] == '-')
			msg_usage_error(NULL, "unknown option '%s'", argv[1]);
		else
			msg_usage_error(NULL, "unknown command '%s'", argv[1]);
		return finish_ctx(&ctx, EXIT_USAGE);
	}
	for (size_t i = 0; i <= ctx.nregions; i++) {
		const char *r = i < ctx.nregions ? ctx.regions[i] : ctx.region;

		if (!region_well_formed(r)) {
			msg_usage_error(NULL, "'%s' is not an AWS region code (like us-east-1)",
					r);
			return finish_ctx(&ctx, EXIT_USAGE);
		}
	}
	/* commands see argv[0] = their name; -h needs no database */
	argc--;
	argv++;
	optind = 0;
	if (want_help) {
		char *sub[] = { argv[0], "-h", NULL };

		rc = c->fn(2, sub, &ctx);
		if (rc == EXIT_OK && c->fn != cmd_help)
			print_tables(c->name, NULL);
		return finish_ctx(&ctx, rc);
	}
	ctx.cmd_name = c->name;
	asks_help = asks_for_help(argc, argv);
	if (!asks_help && c->fn != cmd_help && open_output(&ctx))
		return finish_ctx(&ctx, EXIT_RUNTIME);
	if ((c->flags & CMD_NEEDS_DB) && !asks_help && cli_open_db(&ctx))
		return finish_ctx(&ctx, EXIT_RUNTIME);
	rc = c->fn(argc, argv, &ctx);
	if (asks_help && rc == EXIT_OK)
		print_tables(c->name, argc > 1 ? argv[1] : NULL);
	db_close(ctx.db);
	return finish_ctx(&ctx, rc);
}
