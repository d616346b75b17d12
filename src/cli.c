/*
 * cli.c - the command table, global options, dispatch and exit codes.
 *
 * Global options (a struct opt table like every command's) may appear
 * before or after the command name; they are taken out of argv first.
 * Then the command -- or its subcommand -- is found, its options are
 * parsed from its table into its argument struct (opt.c), its combination
 * checks run, the database is opened for CMD_NEEDS_DB commands, and the
 * handler runs.  -h needs no database.  stdout is flushed and checked
 * here: a full disk is an error (exit 1).  With -o FILE the result goes to
 * a temporary file renamed over FILE only when the command succeeds
 * (outfile.c).
 */
#include "ebsize/cli.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/db.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/outfile.h"
#include "ebsize/util.h"

static int cmd_help(struct cli_ctx *ctx, void *args);
static int cmd_version(struct cli_ctx *ctx, void *args);

struct help_args {
	int man;
	int synopsis;
};

static const struct opt help_opts[] = {
	{ "man", 0, OPT_FLAG, offsetof(struct help_args, man), NULL,
	  "print the manual page (roff) for every command",
	  .flags = OPT_HIDDEN },
	{ "synopsis", 0, OPT_FLAG, offsetof(struct help_args, synopsis), NULL,
	  "print every command's usage (the README's reference)",
	  .flags = OPT_HIDDEN },
	{ NULL }
};

static const struct cmd cmd_help_def = {
	.name = "help",
	.run = cmd_help,
	.args_size = sizeof(struct help_args),
	.summary = "list commands, or show help for one",
	.description =
	    "Without a command, the list of commands and the global\n"
	    "options; with one, its help (the same as 'ebsize COMMAND -h').",
	.opts = help_opts,
	.operands = "[COMMAND [SUBCOMMAND]]",
	.max_operands = 2,
};

static const struct cmd cmd_version_def = {
	.name = "version",
	.run = cmd_version,
	.summary = "print the version",
	.max_operands = 0,
};

/* Alphabetical.  One row per command. */
static const struct cmd *const commands[] = {
	&cmd_bench_def,	     &cmd_burst_def,
	&cmd_cheapest_def,   &cmd_compare_def,
	&cmd_completion_def, &cmd_cost_def,
	&cmd_db_def,	     &cmd_help_def,
	&cmd_instances_def,  &cmd_pricing_def,
	&cmd_report_def,     &cmd_scan_def,
	&cmd_version_def,    NULL
};

const struct cmd *const *cli_commands(void)
{
	return commands;
}

static const struct cmd *find_in(const struct cmd *const *list,
				 const char *name)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i]->name, name))
			return list[i];
	return NULL;
}

/* ------------------------------------------------------------ globals */

struct globals {
	const char *db;
	struct opt_list regions;
	int format;
	const char *output;
	const char *table;
	int quiet;
	int version;
};

#define G(f) offsetof(struct globals, f)

static const char *const format_names[] = { "table", "csv",  "json",
					    "md",    "xlsx", NULL };

static const struct opt global_opts[] = {
	{ "db", 0, OPT_STR, G(db), "PATH",
	  "database file (else $EBSIZE_DB, else\n"
	  "$XDG_DATA_HOME/ebsize/ebsize.db)",
	  .flags = OPT_PATH },
	{ "region", 0, OPT_LIST, G(regions), "CODE",
	  "AWS region (else $AWS_REGION, $AWS_DEFAULT_REGION,\n"
	  "us-east-1); some commands take several",
	  .max = CLI_MAX_REGIONS },
	{ "format", 0, OPT_ENUM, G(format), "FMT",
	  "table (default), csv, json, md or xlsx (a workbook,\nwith -o)",
	  .choices = format_names, .noun = "format" },
	{ "output", 'o', OPT_STR, G(output), "FILE",
	  "write the result to FILE, whole or not at all\n"
	  "(report: the directory to write)",
	  .flags = OPT_PATH },
	{ "table", 0, OPT_STR, G(table), "NAME",
	  "csv: the table to write (default: the main one;\n"
	  "'ebsize help COMMAND' lists them)" },
	{ "quiet", 'q', OPT_FLAG, G(quiet), NULL, "no informational messages" },
	{ "version", 0, OPT_FLAG, G(version), NULL, "print the version" },
	{ NULL }
};

const struct opt *cli_global_opts(void)
{
	return global_opts;
}

/*
 * If argv[*i] is a global option, apply it to g and return 1 (0 if not,
 * -1 after a usage error).  Globals match exactly (no abbreviations, so
 * they never take a command's option); values as "--name v" or "--name=v".
 */
static int take_one(int argc, char **argv, int *i, struct globals *g,
		    struct opt_seen *seen)
{
	const char *a = argv[*i], *val = NULL;

	for (const struct opt *o = global_opts; o->name; o++) {
		size_t n = strlen(o->name);

		if (o->short_name && a[0] == '-' && a[1] == o->short_name &&
		    !a[2])
			;
		else if (strncmp(a, "--", 2) || strncmp(a + 2, o->name, n) ||
			 (a[2 + n] && a[2 + n] != '='))
			continue;
		if (o->kind != OPT_FLAG) {
			if (a[1] == '-' && a[2 + n] == '=')
				val = a + 3 + n;
			else if (*i + 1 < argc)
				val = argv[++*i];
			if (!val || !*val) {
				msg_usage_error(NULL,
						"option '%s' needs a value",
						val ? argv[*i - 1] : a);
				return -1;
			}
		} else if (a[1] == '-' && a[2 + n] == '=') {
			continue;
		}
		seen->bits |= (uint64_t)1 << (o - global_opts);
		return opt_set(NULL, o, val, g) ? -1 : 1;
	}
	return 0;
}

/*
 * Remove global options from argv (compacting it) into g.  *want_help is
 * set by -h/--help before the command name.  Returns -1 on a usage error
 * (printed), 0 otherwise.
 */
static int take_globals(int *argc, char **argv, struct globals *g,
			struct opt_seen *seen, int *want_help)
{
	int out = 1, seen_cmd = 0;

	for (int i = 1; i < *argc; i++) {
		int rc;

		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!seen_cmd &&
		    (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
			*want_help = 1;
			continue;
		}
		rc = take_one(*argc, argv, &i, g, seen);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		if (argv[i][0] != '-')
			seen_cmd = 1;
		argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

/* "ebsize ARG ..." with arguments quoted for a POSIX shell when needed. */
static char *command_line(int argc, char *const *argv)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);

	sbuf_addstr(&sb, "ebsize");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		sbuf_addstr(&sb, " ");
		if (*a &&
		    strspn(
			a,
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789-_=.,/:%@+") == strlen(a)) {
			sbuf_addstr(&sb, a);
			continue;
		}
		sbuf_addstr(&sb, "'");
		for (; *a; a++)
			sbuf_addstr(&sb,
				    *a == '\'' ? "'\\''" : (char[]){ *a, 0 });
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
int cli_region_well_formed(const char *r)
{
	size_t n = strlen(r);

	if (n < 6 || n > 31)
		return 0;
	for (const char *p = r; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '-'))
			return 0;
	return r[2] == '-' && r[n - 1] >= '0' && r[n - 1] <= '9' &&
	       r[n - 2] == '-';
}

/* Move the parsed globals into ctx; usage error (-1) on a bad region. */
static int apply_globals(struct cli_ctx *ctx, const struct globals *g,
			 const struct opt_seen *seen)
{
	for (size_t i = 0; i < g->regions.n; i++)
		ctx->regions[ctx->nregions++] = g->regions.v[i];
	ctx->region_from_opt = g->regions.n > 0;
	ctx->region =
	    g->regions.n ? g->regions.v[g->regions.n - 1] : default_region();
	ctx->db_path_opt = g->db;
	ctx->format = (enum out_format)g->format;
	ctx->format_set = opt_given(global_opts, seen, "format");
	ctx->quiet = g->quiet;
	ctx->output = g->output && strcmp(g->output, "-") ? g->output : NULL;
	ctx->table = g->table;
	if (ctx->format == OUT_XLSX && !ctx->output) {
		msg_usage_error(
		    NULL, "--format xlsx writes a workbook: give -o FILE");
		return -1;
	}
	for (size_t i = 0; i <= ctx->nregions; i++) {
		const char *r =
		    i < ctx->nregions ? ctx->regions[i] : ctx->region;

		if (!cli_region_well_formed(r)) {
			msg_usage_error(
			    NULL,
			    "'%s' is not an AWS region code (like us-east-1)",
			    r);
			return -1;
		}
	}
	return 0;
}

/*
 * --table names the CSV table to write, so it needs --format csv -- unless
 * an option of the command that owns it (OPT_OWNS_TABLE) is given.
 * may_own: c has such an option (decided once its options are parsed).
 */
static int table_misused(const struct cli_ctx *ctx)
{
	return ctx->table && ctx->format != OUT_CSV;
}

static int may_own_table(const struct cmd *c)
{
	for (const struct opt *o = c && c->opts ? c->opts : NULL; o && o->name;
	     o++)
		if (o->flags & OPT_OWNS_TABLE)
			return 1;
	return 0;
}

static int owns_table(const struct cmd *c, const struct opt_seen *seen)
{
	for (const struct opt *o = c->opts; o && o->name; o++)
		if ((o->flags & OPT_OWNS_TABLE) &&
		    opt_given(c->opts, seen, o->name))
			return 1;
	return 0;
}

static int table_usage_error(void)
{
	return msg_usage_error(NULL, "--table picks the table of --format csv");
}

/* ------------------------------------------------------------ helpers */

int cli_given(const struct cli_ctx *ctx, const char *name)
{
	return ctx->cmd && opt_given(ctx->cmd->opts, &ctx->seen, name);
}

int cli_open_db(struct cli_ctx *ctx)
{
	char err[EBS_ERRLEN];
	char *path = NULL;
	int is_default, rc;

	if (ctx->db)
		return 0;
	if ((rc = db_resolve_path(ctx->db_path_opt, &path, &is_default, err)) ||
	    (rc = db_open_as(path, is_default,
			     ctx->cmd ? ctx->cmd->writes : NULL, &ctx->db,
			     err))) {
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
		msg_error("cannot write %s%s%s: %s",
			  ctx->output ? "'" : "output",
			  ctx->output ? ctx->output : "",
			  ctx->output ? "'" : "", err);
		return EXIT_RUNTIME;
	}
	/* one table on stdout: the notes (why nothing qualified) on stderr */
	if (ctx->format == OUT_CSV &&
	    !(ctx->table && !strcmp(ctx->table, "notes")))
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

int cli_fail(const struct cli_ctx *ctx, int code, const char *err)
{
	if (code == EBS_ERR_USAGE)
		return msg_usage_error(ctx ? ctx->cmd_name : NULL, "%s", err);
	msg_error("%s", err);
	return code == EBS_OK ? EXIT_OK : EXIT_RUNTIME;
}

const char *const cli_type_names[] = { "gp2", "gp3", "io1",	 "io2",
				       "st1", "sc1", "standard", NULL };

int cli_parse_types(const char *cmd, const char *opt, const char *val,
		    void *target)
{
	int *want = target, any = 0;
	char *copy = xstrdup(val), *s = copy;

	for (int t = 0; t < VT_COUNT; t++)
		want[t] = 0;
	while (s) {
		char *comma = strchr(s, ',');
		enum vol_type t;

		if (comma)
			*comma = '\0';
		if (model_type_parse(s, &t)) {
			msg_usage_error(cmd, "unknown volume type '%s' in --%s",
					s, opt);
			free(copy);
			return -1;
		}
		want[t] = any = 1;
		s = comma ? comma + 1 : NULL;
	}
	free(copy);
	if (!any)
		return msg_usage_error(cmd, "--%s needs at least one type",
				       opt),
		       -1;
	return 0;
}

int cli_parse_sizes(const char *cmd, const char *opt, const char *list,
		    void *target)
{
	struct cli_sizes *sz = target;
	char *copy = xstrdup(list), *s = copy;
	int rc = 0;

	sz->n = 0;
	while (s && !rc) {
		char *comma = strchr(s, ',');
		double gib;

		if (comma)
			*comma = '\0';
		if (sz->n == CLI_MAX_SIZES ||
		    opt_parse_quantity(s, OPT_UNIT_GIB, &gib) || gib < 1 ||
		    gib > 65536 || gib != floor(gib))
			rc = -1;
		else
			sz->v[sz->n++] = (long)gib;
		s = comma ? comma + 1 : NULL;
	}
	free(copy);
	if (rc)
		msg_usage_error(
		    cmd,
		    "--%s must be up to %d sizes of 1 to 65536 GiB (such as 500,1TiB), not '%s'",
		    opt, CLI_MAX_SIZES, list);
	return rc;
}

int cli_parse_type(const char *cmd, const char *opt, const char *val,
		   void *target)
{
	if (model_type_parse(val, target)) {
		msg_usage_error(
		    cmd,
		    "unknown volume type '%s' (use gp2, gp3, io1, io2, st1, sc1 or standard)",
		    val);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ commands */

static int cmd_help(struct cli_ctx *ctx, void *args)
{
	const struct help_args *a = args;
	const struct cmd *c;

	if (a->man)
		return cli_doc_man(stdout) ? EXIT_RUNTIME : EXIT_OK;
	if (a->synopsis) {
		cli_doc_synopsis(stdout);
		return EXIT_OK;
	}
	if (!ctx->noperands) {
		cli_doc_usage(stdout);
		return EXIT_OK;
	}
	c = find_in(commands, ctx->operands[0]);
	if (!c || c == &cmd_help_def)
		return msg_usage_error(NULL, "unknown command '%s'",
				       ctx->operands[0]);
	if (ctx->noperands > 1) {
		const struct cmd *sub = find_in(c->subs, ctx->operands[1]);
		char path[64];

		if (!sub)
			return msg_usage_error(c->name,
					       "unknown subcommand '%s'",
					       ctx->operands[1]);
		xsnprintf(path, sizeof(path), "%s %s", c->name, sub->name);
		cli_doc_help(stdout, sub, path);
		return EXIT_OK;
	}
	cli_doc_help(stdout, c, c->name);
	return EXIT_OK;
}

static int cmd_version(struct cli_ctx *ctx, void *args)
{
	FILE *f =
	    ctx->output ? cli_out(ctx, "version", "a version line") : stdout;

	(void)args;
	if (!f)
		return EXIT_USAGE;
	if (fprintf(f, "ebsize %s\n", EBSIZE_VERSION) < 0)
		return cli_write_error(ctx);
	return EXIT_OK;
}

/* "a, b or c" of the subcommand names of c. */
static void sub_names(const struct cmd *c, char *buf, size_t n)
{
	const char *names[32];
	size_t k = 0;

	for (; c->subs[k] && k + 1 < ARRAY_SIZE(names); k++)
		names[k] = c->subs[k]->name;
	names[k] = NULL;
	opt_join_choices(names, buf, n);
}

static int is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

/*
 * Flush stdout, and with -o put the file in place when the command
 * succeeded and wrote its result (else remove it).  The exit code.
 */
static int finish_ctx(struct cli_ctx *ctx, int rc)
{
	char err[EBS_ERRLEN];

	if (fflush(stdout) || ferror(stdout)) {
		msg_error("cannot write output: %s",
			  strerror(errno ? errno : EIO));
		rc = EXIT_RUNTIME;
	}
	if (ctx->outfile) {
		if ((rc == EXIT_OK ||
		     (rc == EXIT_RUNTIME && ctx->out_complete)) &&
		    ctx->out_used) {
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

/* -o: create the temporary file now, so that a bad path fails early. */
static int open_output(struct cli_ctx *ctx)
{
	char err[EBS_ERRLEN];

	if (!ctx->output)
		return 0;
	if (outfile_open(ctx->output,
			 ctx->format == OUT_XLSX ? OUTFILE_REGULAR : 0,
			 &ctx->outfile, err)) {
		msg_error("%s", err);
		return -1;
	}
	return 0;
}

/*
 * Run command c (argv[0] is its name; path its full name for help, such
 * as "pricing fetch"): find the subcommand, parse the options, check,
 * open the database, run.
 */
static int run_cmd(struct cli_ctx *ctx, const struct cmd *c, int argc,
		   char **argv, int want_help, const char *path)
{
	struct opt_list operands = { 0 };
	void *args;
	int rc;

	if (c->subs) {
		const struct cmd *sub;
		char names[256], subpath[64];

		if (want_help || (argc > 1 && is_help(argv[1]))) {
			cli_doc_help(stdout, c, path);
			return EXIT_OK;
		}
		sub_names(c, names, sizeof(names));
		if (argc < 2)
			return msg_usage_error(
			    ctx->cmd_name, "missing subcommand (%s)", names);
		sub = find_in(c->subs, argv[1]);
		if (!sub && argv[1][0] == '-')
			return msg_usage_error(ctx->cmd_name,
					       "unknown option '%s'", argv[1]);
		if (!sub)
			return msg_usage_error(
			    ctx->cmd_name, "unknown subcommand '%s' (use %s)",
			    argv[1], names);
		xsnprintf(subpath, sizeof(subpath), "%s %s", path, sub->name);
		return run_cmd(ctx, sub, argc - 1, argv + 1, 0, subpath);
	}
	if (want_help) {
		cli_doc_help(stdout, c, path);
		return EXIT_OK;
	}
	args = xcalloc(1, c->args_size ? c->args_size : 1);
	rc =
	    opt_parse(ctx->cmd_name, c->opts, c->operands ? c->max_operands : 0,
		      argc, argv, args, &ctx->seen, &operands);
	if (rc == OPT_HELP) {
		cli_doc_help(stdout, c, path);
		rc = EXIT_OK;
		goto out;
	}
	if (rc == OPT_ERROR) {
		rc = EXIT_USAGE;
		goto out;
	}
	ctx->cmd = c;
	ctx->operands = operands.v;
	ctx->noperands = operands.n;
	if (table_misused(ctx) && !owns_table(c, &ctx->seen)) {
		rc = table_usage_error();
		goto out;
	}
	if (c->check && (rc = c->check(ctx, args)))
		goto out;
	if (!(c->flags & CMD_OUTPUT_DIR) && open_output(ctx)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if ((c->flags & CMD_NEEDS_DB) && cli_open_db(ctx)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = c->run(ctx, args);
out:
	opt_release(c->opts, args);
	opt_list_release(&operands);
	free(args);
	return rc;
}

int cli_main(int argc, char **argv)
{
	struct cli_ctx ctx = { 0 };
	struct globals g = { 0 };
	struct opt_seen seen = { 0 };
	const struct cmd *c;
	int want_help = 0, rc;

	ctx.command_line = command_line(argc, argv);
	rc = take_globals(&argc, argv, &g, &seen, &want_help);
	if (!rc) {
		msg_set_quiet(g.quiet);
		rc = apply_globals(&ctx, &g, &seen);
	}
	opt_list_release(&g.regions);
	/* a command that may own --table checks it once its options are read */
	if (!rc && table_misused(&ctx) &&
	    !(argc >= 2 && may_own_table(find_in(commands, argv[1]))))
		rc = table_usage_error();
	if (rc)
		return finish_ctx(&ctx, EXIT_USAGE);
	if (g.version)
		return finish_ctx(&ctx, cmd_version(&ctx, NULL));
	if (argc < 2) {
		if (want_help) {
			cli_doc_usage(stdout);
			return finish_ctx(&ctx, EXIT_OK);
		}
		cli_doc_usage(stderr);
		return finish_ctx(&ctx, EXIT_USAGE);
	}
	c = find_in(commands, argv[1]);
	if (!c) {
		if (argv[1][0] == '-')
			msg_usage_error(NULL, "unknown option '%s'", argv[1]);
		else
			msg_usage_error(NULL, "unknown command '%s'", argv[1]);
		return finish_ctx(&ctx, EXIT_USAGE);
	}
	ctx.cmd_name = c->name;
	rc = run_cmd(&ctx, c, argc - 1, argv + 1, want_help, c->name);
	db_close(ctx.db);
	return finish_ctx(&ctx, rc);
}
