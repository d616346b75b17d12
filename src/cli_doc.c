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

#define WRAP	 79
#define HELP_COL 22 /* where option help starts in -h text */

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
	int batch = 0;

	if (c->synopsis) {
		sbuf_addstr(sb, c->synopsis);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (const struct opt *o = c->opts; o && o->name; o++) {
			int req = !!(o->flags & OPT_REQUIRED);

			if (!visible(o) || req != !pass ||
			    (o->flags & OPT_BATCH))
				continue;
			if (sb->len)
				sbuf_addstr(sb, " ");
			if (o->short_name)
				sbuf_addf(sb, "%s-%c%s%s%s%s", req ? "" : "[",
					  o->short_name, o->metavar ? " " : "",
					  o->metavar ? o->metavar : "",
					  req ? "" : "]",
					  o->kind == OPT_LIST ? "..." : "");
			else
				sbuf_addf(sb, "%s--%s%s%s%s%s", req ? "" : "[",
					  o->name, o->metavar ? " " : "",
					  o->metavar ? o->metavar : "",
					  req ? "" : "]",
					  o->kind == OPT_LIST ? "..." : "");
		}
	}
	if (c->operands)
		sbuf_addf(sb, "%s%s", sb->len ? " " : "", c->operands);
	/* the batch form: its options, and any other option (a default
	 * for every request) */
	for (const struct opt *o = c->opts; o && o->name; o++)
		if (visible(o) && (o->flags & OPT_BATCH))
			sbuf_addf(sb, batch++ ? " [--%s %s]" : "\n--%s %s",
				  o->name, o->metavar);
	if (batch)
		sbuf_addstr(sb, " [OPTION]...");
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
			depth +=
			    (*q == '[' || *q == '(') - (*q == ']' || *q == ')');
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

/*
 * Every form of c's usage, each line of a custom synopsis its own form;
 * first: the first line says "usage:", first < 0: no "usage:" column.
 */
static void put_usage(FILE *f, const struct cmd *c, const char *path, int first)
{
	struct sbuf sb = SBUF_INIT(1 << 16);
	char prefix[128];
	const char *line;

	synopsis_of(c, &sb);
	line = sb.buf ? sb.buf : "";
	do {
		const char *nl = strchr(line, '\n');
		char *one =
		    xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));

		xsnprintf(prefix, sizeof(prefix), "%sebsize %s%s",
			  first < 0 ? ""
			  : first   ? "usage: "
				    : "       ",
			  path, *one ? " " : "");
		put_wrapped(f, prefix, one);
		free(one);
		first = first < 0 ? first : 0;
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
		put_help_text(f, h,
			      o->def && !strstr(h, "default") ? o->def : NULL);
	}
	if (with_help)
		fprintf(f, "  %-*s%s\n", HELP_COL - 2, "-h, --help",
			"this help");
}

/* Say once which units the command's numbers take, if any. */
static void put_units(FILE *f, const struct opt *opts)
{
	static const char *const say[] = {
		[OPT_UNIT_GIB] = "sizes in GiB or TiB (500, 500GiB, 1TiB)",
		[OPT_UNIT_COUNT] = "counts with k (16k)",
		[OPT_UNIT_SECONDS] = "durations in s, m, h or d (90s, 30m, 1h)",
		[OPT_UNIT_MIBPS] = "throughput in MiB/s or GiB/s (500MiB/s)",
		[OPT_UNIT_KIB] = "I/O sizes in KiB or MiB (16KiB, 1MiB)",
	};
	int seen[ARRAY_SIZE(say)] = { 0 };
	struct sbuf sb = SBUF_INIT(1024);

	for (const struct opt *o = opts; o && o->name; o++)
		if (o->unit && visible(o) && !seen[o->unit]++)
			sbuf_addf(&sb, "%s%s", sb.len ? "; " : "",
				  say[o->unit]);
	if (sb.len)
		put_wrapped(f, "\nNumbers take units: ", sb.buf);
	sbuf_release(&sb);
}

/* The tables of c's result (every subcommand's for a parent). */
static void put_tables(FILE *f, const struct cmd *c, const char *path)
{
	char sub[128];
	int any = 0;

	for (size_t i = 0; c->subs ? c->subs[i] != NULL : i == 0; i++) {
		const struct cmd *x = c->subs ? c->subs[i] : c;

		if (!x->tables)
			continue;
		if (!any++)
			fputs(
			    "\nTables (--format csv --table NAME; the first is the default):\n",
			    f);
		if (c->subs)
			xsnprintf(sub, sizeof(sub), "%s %s", path, x->name);
		else
			xsnprintf(sub, sizeof(sub), "%s", path);
		fprintf(f, "  %-18s %s\n", sub, x->tables);
	}
}

void cli_doc_help(FILE *f, const struct cmd *c, const char *path)
{
	char sub[128];

	if (c->subs) {
		int first = 1;

		for (size_t i = 0; c->subs[i]; i++) {
			xsnprintf(sub, sizeof(sub), "%s %s", path,
				  c->subs[i]->name);
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
			fprintf(f, "  %-12s%s\n", c->subs[i]->name,
				c->subs[i]->summary);
		fprintf(
		    f,
		    "\n'ebsize %s SUBCOMMAND -h' shows a subcommand's options.\n",
		    path);
	} else {
		fputc('\n', f);
		put_options(f, c->opts, 1);
		put_units(f, c->opts);
	}
	if (c->epilog)
		fprintf(f, "\n%s\n", c->epilog);
	put_tables(f, c, path);
}

/* "a|b|c" of a NULL-terminated list (static storage). */
static const char *choices_bar(const char *const *choices)
{
	static char buf[256];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; choices[i] && o < sizeof(buf); i++) {
		xsnprintf(buf + o, sizeof(buf) - o, "%s%s", i ? "|" : "",
			  choices[i]);
		o = strlen(buf);
	}
	return buf;
}

/* Every usage form of every command, for the README's reference block. */
static void synopsis_all(FILE *f, const struct cmd *c, const char *path)
{
	char sub[128];

	if (!c->subs) {
		put_usage(f, c, path, -1);
		return;
	}
	for (size_t i = 0; c->subs[i]; i++) {
		xsnprintf(sub, sizeof(sub), "%s %s", path, c->subs[i]->name);
		synopsis_all(f, c->subs[i], sub);
	}
}

void cli_doc_synopsis(FILE *f)
{
	const struct cmd *const *cmds = cli_commands();

	for (size_t i = 0; cmds[i]; i++)
		if (!(cmds[i]->flags & CMD_HIDDEN))
			synopsis_all(f, cmds[i], cmds[i]->name);
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
			sbuf_addf(&sb, "[--%s %s] ", o->name,
				  choices_bar(o->choices));
		else
			sbuf_addf(&sb, "[--%s%s%s] ", o->name,
				  o->metavar ? " " : "",
				  o->metavar ? o->metavar : "");
	}
	sbuf_addstr(&sb, "COMMAND [ARGS]");
	put_wrapped(f, "usage: ebsize ", sb.buf);
	sbuf_release(&sb);
	fputs(
	    "\nAn Amazon EBS cost and sizing calculator with embedded prices,\n"
	    "volume rules, instance limits and published benchmarks.\n\n"
	    "Commands:\n",
	    f);
	for (size_t i = 0; cmds[i]; i++)
		if (!(cmds[i]->flags & CMD_HIDDEN))
			fprintf(f, "   %-10s  %s\n", cmds[i]->name,
				cmds[i]->summary);
	fputs("\nGlobal options:\n", f);
	put_options(f, cli_global_opts(), 1);
	fputs(
	    "\n'ebsize help COMMAND' or 'ebsize COMMAND -h' explains a command.\n"
	    "Exit status: 0 ok, 1 runtime error, 2 usage error.\n",
	    f);
}

/* ------------------------------------------------------------ man page */

/*
 * Text as roff: backslashes and hyphens escaped, a line that would start
 * with a control character ('.' or '\'') protected with \&.
 */
static void roff_text(FILE *f, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void roff_para(FILE *f, const char *text)
{
	if (!text)
		return;
	fputs(".PP\n", f);
	roff_text(f, text);
	fputc('\n', f);
}

static void roff_options(FILE *f, const struct opt *opts)
{
	char label[128];

	for (const struct opt *o = opts; o && o->name; o++) {
		if (!visible(o))
			continue;
		opt_label(o, label, sizeof(label));
		fputs(".TP\n.B ", f);
		roff_text(f, label);
		fputc('\n', f);
		roff_text(f, o->help ? o->help : "");
		if (o->def && !(o->help && strstr(o->help, "default"))) {
			fputs(" (default ", f);
			roff_text(f, o->def);
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

/* The usage lines of c, as a no-fill block. */
static void roff_usage(FILE *f, const struct cmd *c, const char *path)
{
	struct sbuf sb = SBUF_INIT(1 << 16);
	const char *line;

	fputs(".nf\n", f);
	for (size_t i = 0; c->subs && c->subs[i]; i++) {
		char sub[128];

		xsnprintf(sub, sizeof(sub), "%s %s", path, c->subs[i]->name);
		roff_usage(f, c->subs[i], sub);
	}
	if (!c->subs) {
		synopsis_of(c, &sb);
		line = sb.buf ? sb.buf : "";
		do {
			const char *nl = strchr(line, '\n');
			char *one = xstrndup(line, nl ? (size_t)(nl - line)
						      : strlen(line));

			fputs("\\fBebsize ", f);
			roff_text(f, path);
			fputs("\\fR ", f);
			roff_text(f, one);
			fputc('\n', f);
			free(one);
			line = nl ? nl + 1 : NULL;
		} while (line);
	}
	fputs(".fi\n", f);
	sbuf_release(&sb);
}

static void roff_command(FILE *f, const struct cmd *c, const char *path)
{
	fputs(".SS \"", f);
	roff_text(f, path);
	fputs("\"\n", f);
	roff_usage(f, c, path);
	roff_para(f, c->description ? c->description : c->summary);
	if (c->opts && c->opts->name) {
		fputs(".PP\nOptions:\n", f);
		roff_options(f, c->opts);
	}
	roff_para(f, c->epilog);
	for (size_t i = 0; c->subs && c->subs[i]; i++) {
		char sub[128];

		xsnprintf(sub, sizeof(sub), "%s %s", path, c->subs[i]->name);
		roff_command(f, c->subs[i], sub);
	}
}

int cli_doc_man(FILE *f)
{
	const struct cmd *const *cmds = cli_commands();

	fprintf(
	    f,
	    ".\\\" ebsize.1 - generated by 'ebsize help --man' from the option tables\n"
	    ".TH EBSIZE 1 \"\" \"ebsize %s\" \"User Commands\"\n"
	    ".SH NAME\nebsize \\- Amazon EBS cost and sizing calculator\n"
	    ".SH SYNOPSIS\n.B ebsize\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n"
	    ".SH DESCRIPTION\n",
	    EBSIZE_VERSION);
	roff_text(
	    f,
	    "An Amazon EBS cost and sizing calculator with embedded prices, volume\n"
	    "rules, instance limits and published benchmarks: what a volume costs,\n"
	    "the cheapest way to get N IOPS, M MiB/s and C GiB, when a gp2 volume\n"
	    "falls off its credit cliff, which volumes of an inventory waste money,\n"
	    "and fio measurements of real volumes.  It works offline: everything it\n"
	    "needs is compiled in and loaded into a local SQLite database on first use.\n");
	fputs(".SH GLOBAL OPTIONS\nThey go before or after the command.\n", f);
	roff_options(f, cli_global_opts());
	fputs(".TP\n.B \\-h, \\-\\-help\nhelp, for ebsize or a command\n"
	      ".SH COMMANDS\n",
	      f);
	for (size_t i = 0; cmds[i]; i++)
		if (!(cmds[i]->flags & CMD_HIDDEN))
			roff_command(f, cmds[i], cmds[i]->name);
	fputs(
	    ".SH EXIT STATUS\n0 ok, 1 runtime error (including a configuration AWS would refuse,\n"
	    "or a need nothing meets), 2 usage error.\n"
	    ".SH ENVIRONMENT\n.TP\n.B EBSIZE_DB\nthe database file when \\-\\-db is not given\n"
	    ".TP\n.B AWS_REGION, AWS_DEFAULT_REGION\nthe region when \\-\\-region is not given\n"
	    ".TP\n.B XDG_DATA_HOME\nwhere the default database lives (ebsize/ebsize.db)\n"
	    ".SH FILES\n.TP\n.I ~/.local/share/ebsize/ebsize.db\nthe default database\n"
	    ".SH SEE ALSO\n.BR fio (1),\n.BR aws (1)\n",
	    f);
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ completion */

/* Every option of c as "--name" words (and "-x"), space-separated. */
static void opt_words(const struct opt *opts, int values_only, struct sbuf *sb)
{
	for (const struct opt *o = opts; o && o->name; o++) {
		if (!visible(o) || (values_only && o->kind == OPT_FLAG))
			continue;
		sbuf_addf(sb, "%s--%s", sb->len ? " " : "", o->name);
		if (o->short_name)
			sbuf_addf(sb, " -%c", o->short_name);
	}
}

static void words_of(const char *const *w, struct sbuf *sb)
{
	for (size_t i = 0; w && w[i]; i++)
		sbuf_addf(sb, "%s%s", i ? " " : "", w[i]);
}

/* A `case` arm per option of path that has values or takes file names. */
static void bash_value_arms(FILE *f, const char *path, const struct opt *opts)
{
	struct sbuf sb = SBUF_INIT(4096);

	for (const struct opt *o = opts; o && o->name; o++) {
		if (!visible(o) || o->kind == OPT_FLAG)
			continue;
		sbuf_reset(&sb);
		if (o->choices) {
			words_of(o->choices, &sb);
			fprintf(
			    f,
			    "\t\"%s --%s\") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"));;\n",
			    path, o->name, sb.buf);
		} else if (o->flags & OPT_DIRNAME) {
			fprintf(
			    f,
			    "\t\"%s --%s\") COMPREPLY=($(compgen -d -- \"$cur\"));;\n",
			    path, o->name);
		} else if (o->flags & OPT_PATH) {
			fprintf(
			    f,
			    "\t\"%s --%s\") COMPREPLY=($(compgen -f -- \"$cur\"));;\n",
			    path, o->name);
		}
	}
	sbuf_release(&sb);
}

static void bash_cmd_arms(FILE *f, const struct cmd *c, const char *path,
			  struct sbuf *takes_value)
{
	struct sbuf sb = SBUF_INIT(4096);

	if (c->subs) {
		for (size_t i = 0; c->subs[i]; i++)
			sbuf_addf(&sb, "%s%s", i ? " " : "", c->subs[i]->name);
		fprintf(f, "\t\"%s\") words=\"%s\";;\n", path, sb.buf);
	} else {
		opt_words(c->opts, 0, &sb);
		fprintf(f, "\t\"%s\") words=\"%s%s--help\"; files=%d;;\n", path,
			sb.len ? sb.buf : "", sb.len ? " " : "",
			c->operands ? 1 : 0);
		opt_words(c->opts, 1, takes_value);
	}
	sbuf_release(&sb);
	for (size_t i = 0; c->subs && c->subs[i]; i++) {
		char sub[128];

		xsnprintf(sub, sizeof(sub), "%s %s", path, c->subs[i]->name);
		bash_cmd_arms(f, c->subs[i], sub, takes_value);
	}
}

static void bash_value_cmds(FILE *f, const struct cmd *c, const char *path)
{
	bash_value_arms(f, path, c->opts);
	for (size_t i = 0; c->subs && c->subs[i]; i++) {
		char sub[128];

		xsnprintf(sub, sizeof(sub), "%s %s", path, c->subs[i]->name);
		bash_value_cmds(f, c->subs[i], sub);
	}
}

/*
 * bash (zsh runs it through bashcompinit, as the AWS CLI's completer
 * does): walk the words typed so far, skipping option values, to find the
 * command path ("pricing fetch"), then offer its subcommands, options,
 * an option's values, or file names.
 */
static void completion_bash(FILE *f)
{
	const struct cmd *const *cmds = cli_commands();
	struct sbuf names = SBUF_INIT(4096), values = SBUF_INIT(1 << 16);
	struct sbuf globals = SBUF_INIT(4096);

	for (size_t i = 0; cmds[i]; i++)
		if (!(cmds[i]->flags & CMD_HIDDEN))
			sbuf_addf(&names, "%s%s", names.len ? " " : "",
				  cmds[i]->name);
	opt_words(cli_global_opts(), 0, &globals);
	opt_words(cli_global_opts(), 1, &values);
	fputs(
	    "# ebsize completion for bash (and zsh through bashcompinit); generated\n"
	    "# by 'ebsize completion bash' from ebsize's option tables.\n"
	    "_ebsize_arms() {\n\tcase \"$1\" in\n",
	    f);
	fprintf(f, "\t\"\") words=\"%s\";;\n", names.buf);
	for (size_t i = 0; cmds[i]; i++)
		bash_cmd_arms(f, cmds[i], cmds[i]->name, &values);
	fputs(
	    "\t*) words=\"\";;\n\tesac\n}\n\n_ebsize_values() {\n\tcase \"$1\" in\n",
	    f);
	bash_value_arms(f, "", cli_global_opts());
	for (size_t i = 0; cmds[i]; i++)
		bash_value_cmds(f, cmds[i], cmds[i]->name);
	fprintf(
	    f,
	    "\t*) return 1;;\n\tesac\n}\n\n"
	    "_ebsize() {\n"
	    "\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\" prev path=\"\" w i skip=0 words files=0 n\n"
	    "\tlocal valued=\" %s \"\n"
	    "\tCOMPREPLY=()\n"
	    "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	    "\t\tw=\"${COMP_WORDS[i]}\"\n"
	    "\t\tif ((skip)); then skip=0; continue; fi\n"
	    "\t\tcase \"$w\" in\n"
	    "\t\t--*=*) ;;\n"
	    "\t\t-*) [[ $valued == *\" $w \"* ]] && skip=1;;\n"
	    "\t\t*) _ebsize_arms \"$path\"; n=\" $words \"\n"
	    "\t\t   [[ $n == *\" $w \"* && $w != -* ]] && path=\"${path:+$path }$w\";;\n"
	    "\t\tesac\n"
	    "\tdone\n"
	    "\tprev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
	    "\tif ((COMP_CWORD > 1)) && [[ $prev == -* && $valued == *\" $prev \"* ]]; then\n"
	    "\t\t_ebsize_values \"$path $prev\" || _ebsize_values \" $prev\" ||\n"
	    "\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	    "\t\treturn 0\n"
	    "\tfi\n"
	    "\t_ebsize_arms \"$path\"\n"
	    "\tif [[ $cur == -* ]]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$words %s\" -- \"$cur\"))\n"
	    "\telif ((files)); then\n"
	    "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	    "\telse\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	    "\tfi\n"
	    "}\n"
	    "complete -F _ebsize ebsize\n",
	    values.buf, globals.buf);
	sbuf_release(&names);
	sbuf_release(&values);
	sbuf_release(&globals);
}

/* fish: a condition per command path, then one `complete` line per item. */
static void fish_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

static void fish_opts(FILE *f, const char *cond, const struct opt *opts)
{
	struct sbuf sb = SBUF_INIT(4096);

	for (const struct opt *o = opts; o && o->name; o++) {
		if (!visible(o))
			continue;
		fprintf(f, "complete -c ebsize -n %s -l %s", cond, o->name);
		if (o->short_name)
			fprintf(f, " -s %c", o->short_name);
		sbuf_reset(&sb);
		words_of(o->choices, &sb);
		if (o->kind == OPT_FLAG)
			;
		else if (o->flags & (OPT_PATH | OPT_DIRNAME))
			fprintf(f, " -r -F%s%s%s", sb.len ? " -a '" : "",
				sb.len ? sb.buf : "", sb.len ? "'" : "");
		else if (sb.len)
			fprintf(f, " -xa '%s'", sb.buf);
		else
			fputs(" -r", f);
		fputs(" -d ", f);
		fish_quote(f, o->help ? o->help : "");
		fputc('\n', f);
	}
	sbuf_release(&sb);
}

static void fish_cmd(FILE *f, const struct cmd *c, const char *parent)
{
	char cond[256];

	if (!parent)
		xsnprintf(cond, sizeof(cond),
			  "'__fish_seen_subcommand_from %s'", c->name);
	else
		xsnprintf(
		    cond, sizeof(cond),
		    "'__fish_seen_subcommand_from %s; and __fish_seen_subcommand_from %s'",
		    parent, c->name);
	fprintf(f, "complete -c ebsize -n %s -f -a %s -d ",
		parent ? "'true'" : "'__fish_use_subcommand'", c->name);
	fish_quote(f, c->summary ? c->summary : "");
	fputc('\n', f);
	fish_opts(f, cond, c->opts);
	for (size_t i = 0; c->subs && c->subs[i]; i++) {
		char sub_cond[256];

		xsnprintf(
		    sub_cond, sizeof(sub_cond),
		    "'__fish_seen_subcommand_from %s; and not __fish_seen_subcommand_from",
		    c->name);
		for (size_t k = 0; c->subs[k]; k++)
			xsnprintf(sub_cond + strlen(sub_cond),
				  sizeof(sub_cond) - strlen(sub_cond), " %s",
				  c->subs[k]->name);
		fprintf(f, "complete -c ebsize -n %s' -f -a %s -d ", sub_cond,
			c->subs[i]->name);
		fish_quote(f, c->subs[i]->summary ? c->subs[i]->summary : "");
		fputc('\n', f);
		xsnprintf(
		    cond, sizeof(cond),
		    "'__fish_seen_subcommand_from %s; and __fish_seen_subcommand_from %s'",
		    c->name, c->subs[i]->name);
		fish_opts(f, cond, c->subs[i]->opts);
	}
}

static void completion_fish(FILE *f)
{
	const struct cmd *const *cmds = cli_commands();

	fputs(
	    "# ebsize completion for fish; generated by 'ebsize completion fish'\n"
	    "# from ebsize's option tables.\n"
	    "complete -c ebsize -f\n",
	    f);
	fish_opts(f, "'true'", cli_global_opts());
	for (size_t i = 0; cmds[i]; i++)
		if (!(cmds[i]->flags & CMD_HIDDEN))
			fish_cmd(f, cmds[i], NULL);
}

int cli_doc_completion(FILE *f, const char *shell)
{
	if (!strcmp(shell, "zsh"))
		fputs(
		    "# ebsize completion for zsh: the bash completion through bashcompinit\n"
		    "autoload -U +X compinit && compinit\n"
		    "autoload -U +X bashcompinit && bashcompinit\n",
		    f);
	if (!strcmp(shell, "fish"))
		completion_fish(f);
	else
		completion_bash(f);
	return ferror(f) ? -1 : 0;
}
