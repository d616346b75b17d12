/*
 * cmd_batch.h - `--batch FILE` of `cost` and `cheapest` (issue 14): many
 * requests answered in one process.  Each request is a line of JSON
 * Lines or a record of CSV with a header, its keys the command's option
 * names (plus "id" and "region"); the options on the command line are
 * every request's defaults.  A request's values go through the option
 * table's own parser and the command's checks, so a request says and
 * gets exactly what the same options on a command line would.
 *
 * Output: JSON Lines by default (--format json too), each line the
 * document `--format json COMMAND ...` prints for the request, with "id"
 * first and, when the request failed, "line", "exit", "error" and "hints"
 * after it; with --format csv, xlsx, table or md, the table "results",
 * one row per request.  The command's exit status is 1 when a request
 * failed (the output is whole all the same: -o keeps it).
 */
#ifndef EBSIZE_CMD_BATCH_H
#define EBSIZE_CMD_BATCH_H

#include "ebsize/cli.h"

struct batch_cmd {
	const struct cmd *cmd;
	/* options that cannot be given per request (NULL-terminated) */
	const char *const *not_per_request;
	/*
	 * Answer one request (its arguments filled and checked), its
	 * messages said through msg_*: the exit code the command would give,
	 * its result added to doc (the document the command prints, built
	 * after what doc holds) and *answered set when there is one (also on
	 * a failure such as nothing meeting a need, said all the same).
	 */
	int (*answer)(struct cli_ctx *ctx, void *args, void *state,
		      struct out_doc *doc, int *answered);
	/* The command's columns of the results table, and the cells of the
	 * request just answered (answered: it produced a document; else
	 * null cells). */
	void (*columns)(struct out_table *t);
	void (*row)(struct out_table *t, const void *args, void *state,
		    int answered);
};

/* The choices of --batch-format (enum batch_format order). */
extern const char *const batch_format_names[];

/*
 * The command-line checks of a batch invocation (run by the command's
 * .check when --batch or --batch-format is given): --batch-format needs
 * --batch; the options of not_per_request cannot be combined with it.
 */
int batch_check(struct cli_ctx *ctx, const struct batch_cmd *bc);

/*
 * Answer every request of path ("-": standard input) in the format fmt
 * (enum batch_format; BATCH_AUTO: by the first character), with base
 * (the command line's arguments) as every request's defaults and state
 * handed to answer and row.  Returns the command's exit code.
 */
int batch_run(struct cli_ctx *ctx, const struct batch_cmd *bc, const char *path,
	      int fmt, const void *base, void *state);

#endif
