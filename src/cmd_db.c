/*
 * cmd_db.c - `ebsize db path|check`: where the database is, and whether it
 * is healthy (integrity, schema version, row counts, prices in force).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

static int cmd_db_path(struct cli_ctx *ctx, void *args)
{
	char err[EBS_ERRLEN];
	char *path;
	int is_default;
	struct out_doc *doc;
	struct out_table *t;
	int rc;

	if ((rc = db_resolve_path(ctx->db_path_opt, &path, &is_default, err)))
		return cli_fail(ctx, rc, err);
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

static int cmd_db_check(struct cli_ctx *ctx, void *args)
{
	struct db_health h;
	struct out_doc *doc;
	struct out_table *t;
	char err[EBS_ERRLEN];
	int rc;

	if (cli_open_db(ctx))
		return EXIT_RUNTIME;
	if ((rc = db_check(ctx->db, &h, err)))
		return cli_fail(ctx, rc, err);
	doc = out_doc_new();
	t = out_record(doc, NULL, "Database");
	out_kv_str(t, "path", "Path", db_path(ctx->db));
	out_kv_int(t, "schema_version", "Schema version", h.schema_version);
	out_kv_str(t, "integrity", "Integrity", h.integrity);
	t = out_record(doc, "rows", "Rows");
	for (size_t i = 0; i < h.ncounts; i++)
		out_kv_int(t, h.counts[i].table, h.counts[i].table,
			   h.counts[i].rows);
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

static const struct cmd db_path_def = {
	.name = "path",
	.run = cmd_db_path,
	.summary = "print the database file ebsize uses; does not create it",
	.description =
	    "Print the database file ebsize uses: --db, else $EBSIZE_DB, else\n"
	    "$XDG_DATA_HOME/ebsize/ebsize.db (~/.local/share/ebsize/ebsize.db).\n"
	    "It is not created.",
	.tables = "(records), result",
};

static const struct cmd db_check_def = {
	.name = "check",
	.run = cmd_db_check,
	.flags = CMD_NEEDS_DB,
	.summary = "integrity, schema version, row counts, prices in force",
	.description =
	    "Create the database if needed, then report its integrity, schema\n"
	    "version, row counts and the price snapshot in force per region.",
	.epilog = "Exit status: 0 ok, 1 the integrity check failed.",
	.tables = "prices_in_force, result, rows",
};

static const struct cmd *const db_subs[] = { &db_path_def, &db_check_def,
					     NULL };

const struct cmd cmd_db_def = {
	.name = "db",
	.summary = "where the database is; integrity and contents",
	.subs = db_subs,
};
