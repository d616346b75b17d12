/*
 * cmd_completion.c - `ebsize completion bash|zsh|fish`: print a shell
 * completion script generated from the command and option tables
 * (src/cli_doc.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/msg.h"

static const char *const shells[] = { "bash", "zsh", "fish", NULL };

static int check(struct cli_ctx *ctx, void *args)
{
	(void)args;
	if (ctx->noperands != 1)
		return msg_usage_error(ctx->cmd_name,
				       "say which shell: bash, zsh or fish");
	for (size_t i = 0; shells[i]; i++)
		if (!strcmp(ctx->operands[0], shells[i]))
			return EXIT_OK;
	return msg_usage_error(ctx->cmd_name,
			       "unknown shell '%s' (use bash, zsh or fish)",
			       ctx->operands[0]);
}

static int run(struct cli_ctx *ctx, void *args)
{
	(void)args;
	return cli_doc_completion(stdout, ctx->operands[0]) ? EXIT_RUNTIME
							    : EXIT_OK;
}

const struct cmd cmd_completion_def = {
	.name = "completion",
	.run = run,
	.summary = "print a shell completion script (bash, zsh or fish)",
	.description =
	    "Print a completion script for SHELL, generated from ebsize's own option\n"
	    "tables.  bash: 'source <(ebsize completion bash)' (or save it as\n"
	    "/usr/share/bash-completion/completions/ebsize); zsh: 'source <(ebsize\n"
	    "completion zsh)'; fish: 'ebsize completion fish | source' (or save it\n"
	    "as ~/.config/fish/completions/ebsize.fish).",
	.operands = "bash|zsh|fish",
	.max_operands = 1,
	.check = check,
};
