/*
 * cli.c - the command table, global options, dispatch and exit codes.
 *
 * Global options may appear before or after the command name; they are
 * taken out of argv before the command parses its own options.  Commands
 * flagged CMD_NEEDS_DB get ctx->db opened (and created on first use).
 * stdout is flushed and checked here: a full disk is an error (exit 1).
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
	{ "report", cmd_report, CMD_NEEDS_DB,
	  "an HTML report with SVG charts: benchmarks, cost curves, credits" },
	{ "scan", cmd_scan, CMD_NEEDS_DB,
	  "find EBS waste in an inventory: savings and fix commands" },
	{ "version", cmd_version, 0, "print the version" },
};

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fputs("usage: ebsize [--db PATH] [--region CODE] [--format table|csv|json|md] [-q]\n"
	      "              COMMAND [ARGS]\n\n"
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
	      "   --format FMT     table (default), csv, json or md\n"
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
	return c->fn(2, sub, ctx);
}

static int cmd_version(int argc, char **argv, struct cli_ctx *ctx)
{
	(void)argc;
	(void)argv;
	(void)ctx;
	printf("ebsize %s\n", EBSIZE_VERSION);
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
		msg_usage_error(NULL, "unknown format '%s' (use table, csv, json or md)", fmt);
		return -1;
	}
	return version;
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

int cli_render(struct cli_ctx *ctx, const struct out_doc *doc)
{
	if (out_render(doc, ctx->format, stdout)) {
		msg_error("cannot write output: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		msg_error("cannot write output: %s", strerror(errno ? errno : EIO));
		return EXIT_RUNTIME;
	}
	return rc;
}

int cli_main(int argc, char **argv)
{
	struct cli_ctx ctx = { 0 };
	const struct cmd *c;
	int want_help = 0, rc;

	ctx.format = OUT_TABLE;
	rc = take_globals(&argc, argv, &ctx, &want_help);
	if (rc < 0)
		return EXIT_USAGE;
	msg_set_quiet(ctx.quiet);
	if (rc == 1)
		return finish(cmd_version(0, NULL, &ctx));
	if (!ctx.region)
		ctx.region = default_region();
	if (argc < 2) {
		usage(want_help ? stdout : stderr);
		return finish(want_help ? EXIT_OK : EXIT_USAGE);
	}
	c = find_cmd(argv[1]);
	if (!c) {
		if (argv[1][0] == '-')
			return msg_usage_error(NULL, "unknown option '%s'", argv[1]);
		return msg_usage_error(NULL, "unknown command '%s'", argv[1]);
	}
	for (size_t i = 0; i <= ctx.nregions; i++) {
		const char *r = i < ctx.nregions ? ctx.regions[i] : ctx.region;

		if (!region_well_formed(r))
			return msg_usage_error(NULL, "'%s' is not an AWS region code (like us-east-1)",
					       r);
	}
	/* commands see argv[0] = their name; -h needs no database */
	argc--;
	argv++;
	optind = 0;
	if (want_help) {
		char *sub[] = { argv[0], "-h", NULL };

		return finish(c->fn(2, sub, &ctx));
	}
	if (c->flags & CMD_NEEDS_DB) {
		int asks_help = 0;

		for (int i = 1; i < argc; i++)
			if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
				asks_help = 1;
			else if (!strcmp(argv[i], "--"))
				break;
		if (!asks_help && cli_open_db(&ctx))
			return finish(EXIT_RUNTIME);
	}
	rc = c->fn(argc, argv, &ctx);
	db_close(ctx.db);
	return finish(rc);
}
