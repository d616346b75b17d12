/*
 * test_cli.c - the option parser (src/opt.c) and the command tables it
 * reads: units, ranges, abbreviations, operands, and the invariants every
 * table must keep (unique names, no clash with the global options, every
 * option shown in its command's usage, every default valid).
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/opt.h"
#include "ebsize/util.h"

static void quantities(void)
{
	static const struct {
		const char *in;
		enum opt_unit unit;
		int ok;
		double want;
	} rows[] = {
		{ "500", OPT_UNIT_GIB, 1, 500 },
		{ "500GiB", OPT_UNIT_GIB, 1, 500 },
		{ "1TiB", OPT_UNIT_GIB, 1, 1024 },   /* 1 TiB = 1024 GiB */
		{ "1.5tib", OPT_UNIT_GIB, 1, 1536 }, /* case-insensitive */
		{ "10GB", OPT_UNIT_GIB, 0, 0 }, /* GB is ambiguous: refused */
		{ "GiB", OPT_UNIT_GIB, 0, 0 },
		{ "3k", OPT_UNIT_COUNT, 1, 3000 },
		{ "16000", OPT_UNIT_COUNT, 1, 16000 },
		{ "2.5k", OPT_UNIT_COUNT, 1, 2500 },
		{ "3kk", OPT_UNIT_COUNT, 0, 0 },
		{ "90s", OPT_UNIT_SECONDS, 1, 90 },
		{ "30m", OPT_UNIT_SECONDS, 1, 1800 }, /* 30 x 60 */
		{ "1h", OPT_UNIT_SECONDS, 1, 3600 },
		{ "2d", OPT_UNIT_SECONDS, 1, 172800 }, /* 2 x 86,400 */
		{ "1w", OPT_UNIT_SECONDS, 0, 0 },
		{ "500MiB/s", OPT_UNIT_MIBPS, 1, 500 },
		{ "1GiB/s", OPT_UNIT_MIBPS, 1, 1024 },
		{ "16KiB", OPT_UNIT_KIB, 1, 16 },
		{ "1MiB", OPT_UNIT_KIB, 1, 1024 },
		{ "12", OPT_UNIT_NONE, 1, 12 },
		{ "12k", OPT_UNIT_NONE, 0, 0 },
		{ "", OPT_UNIT_GIB, 0, 0 },
		{ "1e3", OPT_UNIT_COUNT, 1, 1000 },
		{ " 5", OPT_UNIT_COUNT, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		double v = -1;
		int rc = opt_parse_quantity(rows[i].in, rows[i].unit, &v);

		CHECK((rc == 0) == rows[i].ok, "quantity '%s': %s", rows[i].in,
		      rows[i].ok ? "accepted" : "refused");
		if (rows[i].ok)
			CHECK_NEAR(v, rows[i].want, 1e-9, rows[i].in);
	}
}

struct t_args {
	long size;
	double rate;
	int flag;
	const char *name;
	struct opt_list many;
	int fmt;
};

static const char *const t_formats[] = { "table", "csv", NULL };

static const struct opt t_opts[] = {
	{ "size", 's', OPT_INT, offsetof(struct t_args, size), "GIB", "size",
	  .min = 1, .max = 100, .unit = OPT_UNIT_GIB, .def = "7" },
	{ "rate", 0, OPT_NUM, offsetof(struct t_args, rate), "R", "rate",
	  .min = 0, .max = 10 },
	{ "rate-limit", 0, OPT_FLAG, offsetof(struct t_args, flag), NULL,
	  "flag" },
	{ "name", 'n', OPT_STR, offsetof(struct t_args, name), "N", "name" },
	{ "many", 0, OPT_LIST, offsetof(struct t_args, many), "M", "many",
	  .max = 2 },
	{ "fmt", 0, OPT_ENUM, offsetof(struct t_args, fmt), "F", "format",
	  .choices = t_formats },
	{ NULL }
};

/* Parse a NULL-terminated argv; fills a, returns opt_parse's result. */
static int t_parse(struct t_args *a, struct opt_seen *seen,
		   struct opt_list *ops, const char **words)
{
	char *argv[16];
	int argc = 0;

	argv[argc++] = "t";
	for (; *words; words++)
		argv[argc++] = (char *)(uintptr_t)*words;
	argv[argc] = NULL;
	memset(a, 0, sizeof(*a));
	memset(ops, 0, sizeof(*ops));
	return opt_parse("t", t_opts, 2, argc, argv, a, seen, ops);
}

static void parsing(void)
{
	struct t_args a;
	struct opt_seen seen;
	struct opt_list ops;
	FILE *saved = stderr;

	stderr = fopen("/dev/null", "w");
	CHECK(
	    t_parse(&a, &seen, &ops, (const char *[]){ "x", NULL }) == OPT_OK &&
		a.size == 7 && !opt_given(t_opts, &seen, "size") && ops.n == 1,
	    "defaults apply and are not 'given'");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--size=2TiB", NULL }) == OPT_ERROR,
	      "--size=2TiB (2048 GiB) is over the range");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "-s", "50GiB", "--name=v", "--",
					"--rate", NULL }) == OPT_OK &&
		  a.size == 50 && !strcmp(a.name, "v") && ops.n == 1 &&
		  !strcmp(ops.v[0], "--rate"),
	      "-s VALUE, --name=VALUE, -- ends options");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "-s50", "-nx", NULL }) == OPT_OK &&
		  a.size == 50 && !strcmp(a.name, "x"),
	      "-sVALUE");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops, (const char *[]){ "--na", "y", NULL }) ==
		      OPT_OK &&
		  !strcmp(a.name, "y"),
	      "a unique prefix abbreviates");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--rat", "1", NULL }) == OPT_ERROR,
	      "an ambiguous prefix (--rat: rate, rate-limit) is refused");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--rate", "1", NULL }) == OPT_OK &&
		  a.rate == 1 && !a.flag,
	      "an exact name wins over a longer one");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--rate-limit=1", NULL }) == OPT_ERROR,
	      "a flag takes no value");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--many", "a", "--many", "b", NULL }) ==
		      OPT_OK &&
		  a.many.n == 2 && !strcmp(a.many.v[1], "b"),
	      "a list keeps its values in order");
	opt_list_release(&a.many);
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--many", "a", "--many", "b", "--many",
					"c", NULL }) == OPT_ERROR,
	      "a list holds at most max values");
	opt_list_release(&a.many);
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--fmt", "csv", NULL }) == OPT_OK &&
		  a.fmt == 1,
	      "an enum stores the index of its value");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "--fmt", "xml", NULL }) == OPT_ERROR,
	      "an enum refuses other values");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "a", "b", "c", NULL }) == OPT_ERROR,
	      "more operands than allowed");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops, (const char *[]){ "--size", NULL }) ==
		  OPT_ERROR,
	      "a missing value");
	opt_list_release(&ops);
	CHECK(t_parse(&a, &seen, &ops,
		      (const char *[]){ "-", "--help", NULL }) == OPT_HELP,
	      "'-' is an operand (stdin), --help asks for help");
	opt_list_release(&ops);
	fclose(stderr);
	stderr = saved;
}

/* Check one command's table; path names it in messages. */
static void check_table(const struct cmd *c, const char *path)
{
	struct sbuf syn = SBUF_INIT(1 << 16);
	void *args;
	FILE *saved = stderr;
	int defaults_ok;

	if (c->subs) {
		for (size_t i = 0; c->subs[i]; i++) {
			char sub[64];

			xsnprintf(sub, sizeof(sub), "%s %s", path,
				  c->subs[i]->name);
			check_table(c->subs[i], sub);
		}
		CHECK(
		    !c->opts && !c->run,
		    "%s: a command with subcommands has no options or handler",
		    path);
		return;
	}
	CHECK(c->run != NULL, "%s: has a handler", path);
	CHECK(c->summary && *c->summary && !strchr(c->summary, '\n'),
	      "%s: a one-line summary", path);
	for (const struct opt *o = c->opts; o && o->name; o++) {
		CHECK(o - c->opts < OPT_MAX, "%s: at most %d options", path,
		      OPT_MAX);
		CHECK(!opt_find(cli_global_opts(), o->name),
		      "%s --%s: no clash with a global option", path, o->name);
		CHECK(opt_find(c->opts, o->name) == o, "%s --%s: unique", path,
		      o->name);
		CHECK(o->help && *o->help, "%s --%s: has help", path, o->name);
		CHECK(o->kind == OPT_FLAG || o->metavar,
		      "%s --%s: a value has a METAVAR", path, o->name);
		CHECK(o->offset + sizeof(long) <= c->args_size ||
			  o->kind == OPT_FLAG,
		      "%s --%s: its field lies inside the argument struct",
		      path, o->name);
		CHECK(o->kind != OPT_ENUM || o->choices,
		      "%s --%s: an enum has choices", path, o->name);
		CHECK(o->kind != OPT_FUNC || o->parse,
		      "%s --%s: OPT_FUNC has a parser", path, o->name);
	}
	/* every default parses as if typed */
	args = xcalloc(1, c->args_size ? c->args_size : 1);
	stderr = fopen("/dev/null", "w");
	defaults_ok = !opt_defaults(path, c->opts, args);
	fclose(stderr);
	stderr = saved;
	CHECK(defaults_ok, "%s: every default is a valid value", path);
	opt_release(c->opts, args);
	free(args);
	/* a hand-written synopsis still names every option */
	if (c->synopsis) {
		sbuf_addstr(&syn, c->synopsis);
		for (const struct opt *o = c->opts; o && o->name; o++) {
			char word[64];

			if (o->flags & OPT_HIDDEN)
				continue;
			if (o->short_name)
				xsnprintf(word, sizeof(word), "-%c",
					  o->short_name);
			else
				xsnprintf(word, sizeof(word), "--%s", o->name);
			CHECK(strstr(syn.buf, word) != NULL,
			      "%s: the synopsis names %s", path, word);
		}
	}
	sbuf_release(&syn);
}

static void tables(void)
{
	const struct cmd *const *cmds = cli_commands();

	for (size_t i = 0; cmds[i]; i++) {
		for (size_t k = 0; k < i; k++)
			CHECK(strcmp(cmds[k]->name, cmds[i]->name) < 0,
			      "commands in alphabetical order: %s before %s",
			      cmds[k]->name, cmds[i]->name);
		check_table(cmds[i], cmds[i]->name);
	}
}

void test_cli(void)
{
	quantities();
	parsing();
	tables();
}
