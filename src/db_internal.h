/*
 * db_internal.h - shared by the db*.c modules only: the struct behind
 * struct db and small statement helpers.  Nothing outside db*.c includes
 * this (or sqlite3.h).
 */
#ifndef EBSIZE_DB_INTERNAL_H
#define EBSIZE_DB_INTERNAL_H

#include <sqlite3.h>

#include "ebsize/db.h"

/*
 * Statements prepared once per connection and kept (db_prepare_kept):
 * the queries a command may run many times -- per volume type, per
 * instance family, per option, per request of a batch.
 */
enum db_kept {
	DB_KEPT_LIMITS,
	DB_KEPT_INSTANCE,
	DB_KEPT_FAMILY,
	DB_KEPT_EVIDENCE_RUNS,
	DB_KEPT_EVIDENCE_PHASE,
	DB_KEPT_COUNT
};

struct db {
	sqlite3 *h;
	char *path;
	sqlite3_stmt *kept[DB_KEPT_COUNT];
	/* what a failed write was for, in messages ("storing prices"):
	 * the command's, or "reading" for a command that only reads */
	const char *doing;
	int readonly; /* opened read-only (the file or its directory
			      cannot be written) */
};

/* Prepare sql; on failure write "database 'PATH': MSG" into err. */
int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st, char *err);
/*
 * As db_prepare, for a statement kept in slot (always the same sql):
 * prepared on first use, finalized by db_close.  Hand it back with
 * db_unkeep (reset, bindings cleared) instead of sqlite3_finalize; a
 * kept statement is not re-entrant.
 */
int db_prepare_kept(struct db *db, enum db_kept slot, const char *sql,
		    sqlite3_stmt **st, char *err);
void db_unkeep(sqlite3_stmt *st);
/* Run statements without results; same error convention. */
int db_exec(struct db *db, const char *sql, char *err);
/*
 * Format the current SQLite error into err and return EBS_ERR_DB.  A
 * failure to write (a full disk, an I/O error, a lock held too long, the
 * -shm file) names the file and what was being done -- "cannot write the
 * database 'PATH' (storing prices): database or disk is full (No space
 * left on device)" --; anything else reads "database 'PATH': WHAT: MSG".
 */
int db_fail(struct db *db, char *err, const char *what);
/* Column text or "" (never NULL). */
const char *db_text(sqlite3_stmt *st, int col);

/*
 * The embedded price snapshot (db.c): load pricing/snapshot.csv as a new
 * incomplete snapshot 'embedded' (*id), then complete it.  Caller holds
 * the transaction.
 */
int db_embedded_prices_load(struct db *db, const char *notes, long long *id,
			    char *err);
int db_embedded_prices_complete(struct db *db, long long id, char *err);

/*
 * Bring an existing database up to DB_SCHEMA_VERSION (db_migrate.c), in
 * one IMMEDIATE transaction; a current database is left alone.
 */
int db_migrate(struct db *db, char *err);

#endif
