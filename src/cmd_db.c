/*
 * cmd_db.c - `ebsize db path|check`: where the database is, and whether it
 * is healthy (integrity, schema version, row counts, prices in force).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

static const char usage_text[] =
	"usage: ebsize db path\n"
	"       ebsize db check\n\n"
	"  path    print the database file ebsize uses (--db, $EBSIZE_DB, or\n"
	"          $XDG_DATA_HOME/ebsize/ebsize.db); does not create it\n"
	"  check   create it if needed, then report integrity, schema version,\n"
	"          row counts and the price snapshot in force per region;\n"
	"          exit 1 if the integrity check fails\n";

static int db_cmd_path(struct cli_ctx *ctx)
{
	char err[EBS_ERRLEN];
	char *path;
	int is_default;
	struct out_doc *doc;
	struct out_table *t;
	int rc;

	if (db_resolve_path(ctx->db_path_opt, &path, &is_default, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (ctx->format == OUT_TABLE) {
		FILE *f = cli_out(ctx, "db", "a bare path");

		if (f)
			fprintf(f, "%s\n", path);
		free(path);
		return f ? EXIT_OK : EXIT_USAGE;
	}
	doc = out_doc_new();
	t = out_record(doc, NULL, NULL);
	out_kv_str(t, "path", "Path", path);
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	free(path);
	return rc;
}

static int db_cmd_check(struct cli_ctx *ctx)
{
	struct db_health h;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	if (db_check(ctx->db, &h, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	doc = out_doc_new();
	t = out_record(doc, NULL, "Database");
	out_kv_str(t, "path", "Path", db_path(ctx->db));
	out_kv_int(t, "schema_version", "Schema version", h.schema_version);
	out_kv_str(t, "integrity", "Integrity", h.integrity);
	t = out_record(doc, "rows", "Rows");
	for (size_t i = 0; i < h.ncounts; i++)
		out_kv_int(t, h.counts[i].table, h.counts[i].table, h.counts[i].rows);
	t = out_list(doc, "prices_in_force", "Prices in force");
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "snapshot", "Snapshot", OUT_INT);
	out_col(t, "source", "Source", OUT_TEXT);
	out_col(t, "as_of", "As of", OUT_TEXT);
	out_col(t, "fetched_at", "Fetched", OUT_TEXT);
	out_col(t, "prices", "Prices", OUT_INT);
	for (size_t i = 0; i < h.nsnapshots; i++) {
		out_row(t);
		out_str(t, h.snapshots[i].region);
		out_int(t, h.snapshots[i].snapshot_id);
		out_str(t, h.snapshots[i].source);
		out_str(t, h.snapshots[i].as_of);
		out_str(t, h.snapshots[i].fetched_at);
		out_int(t, h.snapshots[i].prices);
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	if (!rc && strcmp(h.integrity, "ok")) {
		msg_error("database '%s' failed its integrity check: %s",
			  db_path(ctx->db), h.integrity);
		rc = EXIT_RUNTIME;
	}
	db_health_release(&h);
	return rc;
}

int cmd_db(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = cmd_getopt("db", argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return EXIT_OK;
		}
		return EXIT_USAGE;
	}
	if (optind >= argc)
		return msg_usage_error("db", "missing subcommand (path or check)");
	if (optind + 1 < argc)
		return msg_usage_error("db", "unexpected argument '%s'", argv[optind + 1]);
	if (!strcmp(argv[optind], "path"))
		return db_cmd_path(ctx);
	if (!strcmp(argv[optind], "check"))
		return db_cmd_check(ctx);
	return msg_usage_error("db", "unknown subcommand '%s' (use path or check)",
			       argv[optind]);
}
