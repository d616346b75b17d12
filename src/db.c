/*
 * db.c - opening, creating and seeding the database, and the read queries
 * the model and the show/check commands need.
 *
 * A new database gets sql/schema.sql, the sql/seed files and the price snapshot
 * pricing/snapshot.csv, all embedded at build time, in one IMMEDIATE
 * transaction: a second process racing to create the same file waits and
 * then finds it seeded.  Existing files are never written before they are
 * known to be ebsize databases of a schema this build understands.
 */
#include "db_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ebsize/csv.h"
#include "ebsize/embedded.h"
#include "ebsize/util.h"

#define PRICE_SNAPSHOT_FILE "pricing/snapshot.csv"

/* ------------------------------------------------------------ helpers */

/* How long a writer waits for another's lock before giving up. */
#define DB_BUSY_TIMEOUT_MS 10000

/* What a failed SQLite call was doing to the files, by its extended code. */
enum io_kind { IO_OTHER, IO_READ, IO_WRITE, IO_SHM, IO_BUSY };

static enum io_kind io_kind(int ext)
{
	switch (ext) {
	case SQLITE_IOERR_READ:
	case SQLITE_IOERR_SHORT_READ: return IO_READ;
	case SQLITE_IOERR_SHMOPEN:
	case SQLITE_IOERR_SHMSIZE:
	case SQLITE_IOERR_SHMMAP:
	case SQLITE_IOERR_SHMLOCK:
	case SQLITE_READONLY_CANTINIT: return IO_SHM;
	default: break;
	}
	switch (ext & 0xff) {
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_READONLY: return IO_WRITE;
	case SQLITE_BUSY:
	case SQLITE_LOCKED: return IO_BUSY;
	default: return IO_OTHER;
	}
}

/* msg, then the system's reason when SQLite kept one. */
static int io_message(struct db *db, int ext, const char *msg, char *err)
{
	int sys = sqlite3_system_errno(db->h);
	const char *doing = db->doing ? db->doing : "reading";
	char why[EBS_ERRLEN];

	if (sys && (ext & 0xff) != SQLITE_BUSY)
		xsnprintf(why, sizeof(why), "%s (%s)", msg, strerror(sys));
	else
		xsnprintf(why, sizeof(why), "%s", msg);
	switch (io_kind(ext)) {
	case IO_SHM:
		return ebs_fail(
		    err, EBS_ERR_DB,
		    "cannot write '%s-shm', the database's shared-memory file (%s): %s",
		    db->path, doing, why);
	case IO_WRITE:
		return ebs_fail(err, EBS_ERR_DB,
				"cannot write the database '%s' (%s): %s",
				db->path, doing, why);
	case IO_READ:
		return ebs_fail(err, EBS_ERR_DB,
				"cannot read the database '%s' (%s): %s",
				db->path, doing, why);
	case IO_BUSY:
		return ebs_fail(
		    err, EBS_ERR_DB,
		    "cannot write the database '%s' (%s): another process kept it locked for %d s; try again when it is done",
		    db->path, doing, DB_BUSY_TIMEOUT_MS / 1000);
	case IO_OTHER: break;
	}
	return -1;
}

int db_fail(struct db *db, char *err, const char *what)
{
	int ext = sqlite3_extended_errcode(db->h);

	if (io_kind(ext) != IO_OTHER)
		return io_message(db, ext, sqlite3_errmsg(db->h), err);
	return ebs_fail(err, EBS_ERR_DB, "database '%s': %s: %s", db->path,
			what, sqlite3_errmsg(db->h));
}

int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st, char *err)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
		return db_fail(db, err, "cannot prepare query");
	return EBS_OK;
}

int db_prepare_kept(struct db *db, enum db_kept slot, const char *sql,
		    sqlite3_stmt **st, char *err)
{
	int rc;

	if (!db->kept[slot] && (rc = db_prepare(db, sql, &db->kept[slot], err)))
		return rc;
	*st = db->kept[slot];
	return EBS_OK;
}

void db_unkeep(sqlite3_stmt *st)
{
	if (!st)
		return;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

int db_exec(struct db *db, const char *sql, char *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int ext = sqlite3_extended_errcode(db->h);

		if (io_kind(ext) != IO_OTHER)
			io_message(db, ext, msg ? msg : sqlite3_errmsg(db->h),
				   err);
		else
			ebs_fail(err, EBS_ERR_DB, "database '%s': %s", db->path,
				 msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return EBS_ERR_DB;
	}
	return EBS_OK;
}

const char *db_text(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	return s ? (const char *)s : "";
}

const char *db_path(const struct db *db)
{
	return db->path;
}

/* ------------------------------------------------------------ path */

int db_resolve_path(const char *opt, char **out, int *is_default, char *err)
{
	const char *env = getenv("EBSIZE_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	*is_default = 0;
	if (opt && *opt) {
		*out = xstrdup(opt);
		return EBS_OK;
	}
	if (env && *env) {
		*out = xstrdup(env);
		return EBS_OK;
	}
	*is_default = 1;
	if (xdg && *xdg == '/') {
		*out = xstrfmt("%s/ebsize/ebsize.db", xdg);
		return EBS_OK;
	}
	if (home && *home) {
		*out = xstrfmt("%s/.local/share/ebsize/ebsize.db", home);
		return EBS_OK;
	}
	return ebs_fail(
	    err, EBS_ERR_USAGE,
	    "cannot find a place for the database: set --db, EBSIZE_DB or HOME");
}

/* ------------------------------------------------------------ seeding */

/* Column index of name in the header, or -1. */
static int header_index(char **hdr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return (int)i;
	return -1;
}

static const char *const price_cols[] = {
	"region",    "volume_type",    "dimension",   "unit",
	"currency",  "price_per_unit", "begin_range", "end_range",
	"usagetype", "as_of",	       "source",
};

/*
 * Load the embedded price snapshot (pricing/snapshot.csv) as a new
 * snapshot 'embedded' with notes, left incomplete: db_embedded_complete
 * finishes it.  The CSV is ours, but it is still checked field by field:
 * a bad row fails the build's own tests rather than loading a wrong price.
 * Each row keeps its source and its own vintage (as_of).
 */
int db_embedded_prices_load(struct db *db, const char *notes, long long *id,
			    char *err)
{
	const struct embedded_file *f = embedded_find(PRICE_SNAPSHOT_FILE);
	struct csv_reader r;
	sqlite3_stmt *st = NULL;
	char **fld, **hdr = NULL;
	size_t n, nhdr = 0;
	int idx[ARRAY_SIZE(price_cols)];
	int rc = EBS_OK, got;
	long long snap = 0;

	if (!f)
		return ebs_fail(err, EBS_ERR_DB,
				"embedded price snapshot missing");
	csv_init(&r, f->data, f->len);
	if (csv_next(&r, &fld, &n) != 1) {
		rc = ebs_fail(err, EBS_ERR_PARSE, "%s: no header", f->name);
		goto out;
	}
	nhdr = n;
	hdr = xcalloc(n, sizeof(*hdr));
	for (size_t i = 0; i < n; i++)
		hdr[i] = xstrdup(fld[i]);
	for (size_t i = 0; i < ARRAY_SIZE(price_cols); i++) {
		idx[i] = header_index(hdr, nhdr, price_cols[i]);
		if (idx[i] < 0) {
			rc = ebs_fail(err, EBS_ERR_PARSE, "%s: no column '%s'",
				      f->name, price_cols[i]);
			goto out;
		}
	}
	if ((rc = db_prepare(
		 db,
		 "INSERT INTO price_snapshots(source, fetched_at, as_of, complete, notes)"
		 " VALUES ('embedded', '', '', 0, ?)",
		 &st, err)))
		goto out;
	sqlite3_bind_text(st, 1, notes, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = db_fail(db, err, "cannot load embedded prices");
		goto out;
	}
	snap = sqlite3_last_insert_rowid(db->h);
	sqlite3_finalize(st);
	st = NULL;
	if ((rc = db_prepare(
		 db,
		 "INSERT INTO prices(snapshot_id, region, volume_type, dimension, unit, currency,"
		 " price_per_unit, begin_range, end_range, sku, usagetype, source, as_of)"
		 " VALUES (?,?,?,?,?,?,?,?,?,NULL,?,?,?)",
		 &st, err)))
		goto out;
	while ((got = csv_next(&r, &fld, &n)) == 1) {
		double price, begin, end = -1;

		if (n != nhdr || parse_nonneg_double(fld[idx[5]], &price) ||
		    parse_nonneg_double(fld[idx[6]], &begin) ||
		    (*fld[idx[7]] && parse_nonneg_double(fld[idx[7]], &end)) ||
		    strlen(fld[idx[9]]) != 10) {
			rc = ebs_fail(err, EBS_ERR_PARSE,
				      "%s: line %zu: bad row", f->name,
				      r.record_line);
			goto out;
		}
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, snap);
		for (int c = 0; c < 5; c++)
			sqlite3_bind_text(st, 2 + c, fld[idx[c]], -1,
					  SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 7, price);
		sqlite3_bind_double(st, 8, begin);
		if (end >= 0)
			sqlite3_bind_double(st, 9, end);
		else
			sqlite3_bind_null(st, 9);
		/* no usage type where no source gives the region's prefix */
		if (*fld[idx[8]])
			sqlite3_bind_text(st, 10, fld[idx[8]], -1,
					  SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, 10);
		sqlite3_bind_text(st, 11, fld[idx[10]], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 12, fld[idx[9]], -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = db_fail(db, err, "cannot load embedded prices");
			goto out;
		}
	}
	if (got < 0)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "%s: line %zu: unterminated quote", f->name,
			      r.record_line);
out:
	sqlite3_finalize(st);
	for (size_t i = 0; i < nhdr; i++)
		free(hdr[i]);
	free(hdr);
	csv_release(&r);
	*id = snap;
	return rc;
}

/* Complete an embedded snapshot: its as_of is the newest row's vintage. */
int db_embedded_prices_complete(struct db *db, long long id, char *err)
{
	sqlite3_stmt *st = NULL;
	char now[32];
	int rc;

	utc_now_iso(now);
	if ((rc = db_prepare(
		 db,
		 "UPDATE price_snapshots SET fetched_at = ?1,"
		 " as_of = (SELECT coalesce(max(as_of), '') FROM prices WHERE snapshot_id = ?2),"
		 " complete = 1 WHERE id = ?2",
		 &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, id);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, err, "cannot load embedded prices");
	sqlite3_finalize(st);
	return rc;
}

static int load_price_snapshot(struct db *db, char *err)
{
	long long id = 0;
	int rc = db_embedded_prices_load(
	    db, "built into ebsize from pricing/snapshot.csv", &id, err);

	return rc ? rc : db_embedded_prices_complete(db, id, err);
}

/* Create every table and load every embedded row.  Caller holds the
 * transaction. */
static int seed(struct db *db, char *err)
{
	const struct embedded_file *schema = embedded_find("sql/schema.sql");
	int rc;

	if (!schema)
		return ebs_fail(err, EBS_ERR_DB, "embedded schema missing");
	if ((rc = db_exec(db, schema->data, err)))
		return rc;
	for (size_t i = 0; i < embedded_files_count; i++) {
		const struct embedded_file *f = &embedded_files[i];

		if (!str_starts_with(f->name, "sql/seed/"))
			continue;
		if ((rc = db_exec(db, f->data, err)))
			return rc;
	}
	return load_price_snapshot(db, err);
}

static int read_int(struct db *db, const char *sql, long long *v, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(db, sql, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = EBS_OK;
	} else {
		rc = db_fail(db, err, "cannot read");
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Decide what the file is.  Sets *fresh when it holds no tables at all.
 * Errors for foreign files, newer schemas and unreadable data.
 */
static int inspect(struct db *db, int *fresh, char *err)
{
	long long version = 0, tables = 0;
	int rc;

	if ((rc = read_int(db, "PRAGMA user_version", &version, err)) ||
	    (rc = read_int(db, "SELECT count(*) FROM sqlite_schema", &tables,
			   err))) {
		int code = sqlite3_errcode(db->h);

		if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
			return ebs_fail(
			    err, EBS_ERR_SCHEMA,
			    "'%s' is not an ebsize database (not SQLite, or corrupt); it was left untouched",
			    db->path);
		return rc;
	}
	*fresh = version == 0 && tables == 0;
	if (*fresh)
		return EBS_OK;
	if (version > DB_SCHEMA_VERSION)
		return ebs_fail(
		    err, EBS_ERR_SCHEMA,
		    "database '%s' has schema version %lld, newer than this ebsize understands (%d); upgrade ebsize",
		    db->path, version, DB_SCHEMA_VERSION);
	if (version < 1)
		return ebs_fail(
		    err, EBS_ERR_SCHEMA,
		    "'%s' is an SQLite database but not an ebsize one; it was left untouched",
		    db->path);
	return EBS_OK;
}

static int create_and_seed(struct db *db, char *err)
{
	int rc, fresh = 0;

	if ((rc = db_exec(db, "PRAGMA journal_mode = WAL", err)))
		return rc;
	if ((rc = db_exec(db, "BEGIN IMMEDIATE", err)))
		return rc;
	/* someone else may have seeded it while we waited for the lock */
	if ((rc = inspect(db, &fresh, err)) == EBS_OK && fresh)
		rc = seed(db, err);
	if (rc == EBS_OK)
		rc = db_exec(db, "COMMIT", err);
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/*
 * Before SQLite's first use: no memory statistics (their mutex was a
 * tenth of a short command's SQLite time, issue 14) and multi-thread mode
 * (a connection is never shared between threads: ebsize has none).  Too
 * late once SQLite is initialised (a second open): SQLITE_MISUSE, ignored.
 */
static void db_configure(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
}

/* 0 when the directory of path can take new files, else the errno. */
static int dir_unwritable(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int e = 0;

	if (!slash)
		xsnprintf(dir, strlen(dir) + 1, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK))
		e = errno ? errno : EACCES;
	free(dir);
	return e;
}

/*
 * The "file:" URI of path (sqlite3_open_v2 with SQLITE_OPEN_URI), read
 * only; immutable: SQLite takes no lock and creates no -shm or -wal file
 * (the directory cannot hold them), and reads the file as it is.  The
 * characters a URI gives meaning to are percent-encoded; an absolute path
 * goes after "//localhost" so that "//x" is never taken for a host.
 */
static char *ro_uri(const char *path, int immutable)
{
	struct sbuf sb = SBUF_INIT(SIZE_MAX);

	sbuf_addstr(&sb, path[0] == '/' ? "file://localhost" : "file:");
	for (const char *p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			sbuf_addf(&sb, "%%%02X", (unsigned char)*p);
		else
			sbuf_add(&sb, p, 1);
	}
	sbuf_addstr(&sb, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
	return sbuf_detach(&sb, NULL);
}

/* Non-zero when path's write-ahead log holds frames not yet written
 * back (an immutable open would not see them). */
static int wal_pending(const char *path)
{
	char *wal = xstrfmt("%s-wal", path);
	struct stat sb;
	int pending = !stat(wal, &sb) && sb.st_size > 0;

	free(wal);
	return pending;
}

/*
 * A database this process cannot write (a read-only file, directory or
 * mount), for a command that only reads: opened read-only, immutable when
 * the directory cannot hold the -shm file WAL readers need.  It must
 * already be an ebsize database of the current schema: creating, seeding
 * and upgrading all write.
 */
static int open_readonly(struct db *db, int dir_errno, int file_errno,
			 char *err)
{
	int immutable = dir_errno && !wal_pending(db->path);
	char *uri = ro_uri(db->path, immutable);
	const char *why = strerror(file_errno ? file_errno : dir_errno);
	long long version = 0;
	int rc, fresh = 0;

	db->readonly = 1;
	rc = sqlite3_open_v2(uri, &db->h,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
				 SQLITE_OPEN_NOFOLLOW,
			     NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return ebs_fail(
		    err, EBS_ERR_IO, "cannot open database '%s' read-only: %s",
		    db->path, db->h ? sqlite3_errmsg(db->h) : "out of memory");
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS);
	if ((rc = inspect(db, &fresh, err))) {
		if (dir_errno && !immutable)
			return ebs_fail(
			    err, EBS_ERR_DB,
			    "cannot read the database '%s': its write-ahead log '%s-wal' holds changes not yet written back, and its directory cannot be written (%s); open it once where it can, or copy it with its -wal file",
			    db->path, db->path, why);
		return rc;
	}
	if (fresh)
		return ebs_fail(
		    err, EBS_ERR_SCHEMA,
		    "database '%s' is empty, and cannot be written to create it (%s)",
		    db->path, why);
	if ((rc = read_int(db, "PRAGMA user_version", &version, err)))
		return rc;
	if (version < DB_SCHEMA_VERSION)
		return ebs_fail(
		    err, EBS_ERR_SCHEMA,
		    "database '%s' has schema version %lld and needs upgrading to %d, which means writing it: %s",
		    db->path, version, DB_SCHEMA_VERSION, why);
	return db_exec(db, "PRAGMA foreign_keys = ON", err);
}

int db_open_as(const char *path, int create_dirs, const char *writing,
	       struct db **out, char *err)
{
	struct db *db;
	int rc, fresh = 0, file_errno = 0, dir_errno = 0;
	struct stat sb;

	*out = NULL;
	db_configure();
	if (create_dirs && (rc = mkdir_parents(path, err)))
		return rc;
	if (!stat(path, &sb)) {
		if (S_ISDIR(sb.st_mode))
			return ebs_fail(err, EBS_ERR_IO,
					"database '%s' is a directory", path);
		/* an existing file: can this process write it, and its
		 * journal (-wal, -shm) beside it? */
		if (access(path, W_OK))
			file_errno = errno ? errno : EACCES;
		dir_errno = dir_unwritable(path);
	}
	if ((file_errno || dir_errno) && writing) {
		if (file_errno)
			return ebs_fail(
			    err, EBS_ERR_IO,
			    "cannot write the database '%s' (%s): %s; commands that only read it still work",
			    path, writing, strerror(file_errno));
		return ebs_fail(
		    err, EBS_ERR_IO,
		    "cannot write the database '%s' (%s): its directory cannot be written (%s), and SQLite keeps its journal there; commands that only read it still work",
		    path, writing, strerror(dir_errno));
	}
	db = xcalloc(1, sizeof(*db));
	db->path = xstrdup(path);
	db->doing = writing ? writing : "reading";
	if (file_errno || dir_errno) {
		if ((rc = open_readonly(db, dir_errno, file_errno, err)))
			goto fail;
		*out = db;
		return EBS_OK;
	}
	if (sqlite3_open_v2(path, &db->h,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				SQLITE_OPEN_NOFOLLOW,
			    NULL) != SQLITE_OK) {
		rc = ebs_fail(err, EBS_ERR_IO, "cannot open database '%s': %s",
			      path,
			      db->h ? sqlite3_errmsg(db->h) : "out of memory");
		if (errno == EACCES || errno == ENOENT || errno == EROFS)
			xsnprintf(err + strlen(err), EBS_ERRLEN - strlen(err),
				  " (%s)", strerror(errno));
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS);
	if ((rc = inspect(db, &fresh, err)))
		goto fail;
	if ((rc = db_exec(db, "PRAGMA foreign_keys = ON", err)))
		goto fail;
	if (fresh && (rc = create_and_seed(db, err)))
		goto fail;
	if (!fresh && (rc = db_migrate(db, err)))
		goto fail;
	*out = db;
	return EBS_OK;
fail:
	db_close(db);
	return rc;
}

int db_read_begin(struct db *db, char *err)
{
	return db_exec(db, "BEGIN", err);
}

void db_read_end(struct db *db)
{
	if (db && !sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL);
}

int db_open(const char *path, int create_dirs, struct db **out, char *err)
{
	return db_open_as(path, create_dirs, "writing", out, err);
}

int db_readonly(const struct db *db)
{
	return db->readonly;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	for (int i = 0; i < DB_KEPT_COUNT; i++)
		sqlite3_finalize(db->kept[i]);
	sqlite3_close(db->h);
	free(db->path);
	free(db);
}

/* ------------------------------------------------------------ reads */

/*
 * The first value of a one-column query with one optional text parameter,
 * into out (n bytes); "" when there is no row or it is NULL.
 */
static void first_text(struct db *db, const char *sql, const char *param,
		       char *out, size_t n)
{
	sqlite3_stmt *st = NULL;
	char err[EBS_ERRLEN];

	out[0] = '\0';
	if (db_prepare(db, sql, &st, err))
		return;
	if (param)
		sqlite3_bind_text(st, 1, param, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		xsnprintf(out, n, "%s", db_text(st, 0));
	sqlite3_finalize(st);
}

void db_earliest_prices(struct db *db, const char *region, char *out, size_t n)
{
	if (region)
		first_text(
		    db,
		    "SELECT min(s.as_of) FROM price_snapshots s"
		    " WHERE s.complete = 1 AND EXISTS (SELECT 1 FROM prices p"
		    " WHERE p.snapshot_id = s.id AND p.region = ?1)",
		    region, out, n);
	else
		first_text(db,
			   "SELECT min(as_of) FROM price_snapshots"
			   " WHERE complete = 1",
			   NULL, out, n);
}

/* Newest complete snapshot with prices for region (as_of bound). */
static int snapshot_for(struct db *db, const char *region, const char *as_of,
			long long *id, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(
		 db,
		 "SELECT max(s.id) FROM price_snapshots s"
		 " WHERE s.complete = 1 AND (?2 IS NULL OR s.as_of <= ?2)"
		 " AND EXISTS (SELECT 1 FROM prices p WHERE p.snapshot_id = s.id"
		 " AND p.region = ?1)",
		 &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, region, -1, SQLITE_TRANSIENT);
	if (as_of)
		sqlite3_bind_text(st, 2, as_of, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) != SQLITE_ROW) {
		rc = db_fail(db, err, "cannot read prices");
	} else if (sqlite3_column_type(st, 0) == SQLITE_NULL) {
		char first[32];

		/* a date before the first snapshot: say which is first */
		db_earliest_prices(db, region, first, sizeof(first));
		if (as_of && *first)
			rc = ebs_fail(
			    err, EBS_ERR_NOT_FOUND,
			    "no prices for region '%s' as of %s: the earliest are as of %s",
			    region, as_of, first);
		else if (as_of)
			rc = ebs_fail(err, EBS_ERR_NOT_FOUND,
				      "no prices for region '%s' as of %s",
				      region, as_of);
		else
			rc = ebs_fail(err, EBS_ERR_NOT_FOUND,
				      "no prices for region '%s'", region);
	} else {
		*id = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return rc;
}

int db_region_currency(struct db *db, const char *region, char *cur, size_t n)
{
	sqlite3_stmt *st = NULL;
	int known = 0;

	if (db_prepare(db, "SELECT currency FROM regions WHERE code = ?", &st,
		       NULL))
		return 0;
	sqlite3_bind_text(st, 1, region, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		xsnprintf(cur, n, "%s", db_text(st, 0));
		known = 1;
	}
	sqlite3_finalize(st);
	return known;
}

/*
 * The currency to read region's prices of snapshot snap in: the region's
 * own (regions.currency); for a region the table does not know, the one
 * its rows use (USD first when, oddly, there are several).
 */
static int price_currency(struct db *db, const char *region, long long snap,
			  char *cur, size_t n, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (db_region_currency(db, region, cur, n))
		return EBS_OK;
	if ((rc = db_prepare(
		 db,
		 "SELECT currency FROM prices WHERE snapshot_id = ? AND region = ?"
		 " ORDER BY currency <> 'USD', currency LIMIT 1",
		 &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, snap);
	sqlite3_bind_text(st, 2, region, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		xsnprintf(cur, n, "%s", db_text(st, 0));
	else
		rc = db_fail(db, err, "cannot read prices");
	sqlite3_finalize(st);
	return rc;
}

static void add_tier(struct price_tier *tiers, size_t *n, double begin,
		     double end, double price)
{
	if (*n >= MODEL_MAX_TIERS)
		return;
	tiers[*n].begin = begin;
	tiers[*n].end = end;
	tiers[*n].price = price;
	(*n)++;
}

int db_load_prices(struct db *db, const char *region, const char *as_of,
		   struct price_set *out, char *err)
{
	sqlite3_stmt *st = NULL;
	long long snap = 0;
	int rc, step;

	memset(out, 0, sizeof(*out));
	if ((rc = snapshot_for(db, region, as_of, &snap, err)) ||
	    (rc = price_currency(db, region, snap, out->currency,
				 sizeof(out->currency), err)))
		return rc;
	if ((rc = db_prepare(
		 db,
		 "SELECT p.volume_type, p.dimension, p.price_per_unit, p.begin_range,"
		 " coalesce(p.end_range, -1), s.as_of, s.source"
		 " FROM prices p JOIN price_snapshots s ON s.id = p.snapshot_id"
		 " WHERE p.snapshot_id = ? AND p.region = ? AND p.currency = ?"
		 " ORDER BY p.volume_type, p.dimension, p.begin_range",
		 &st, err)))
		return rc;
	sqlite3_bind_int64(st, 1, snap);
	sqlite3_bind_text(st, 2, region, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, out->currency, -1, SQLITE_TRANSIENT);
	xsnprintf(out->region, sizeof(out->region), "%s", region);
	out->snapshot_id = snap;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		enum vol_type t;
		const char *dim = db_text(st, 1);
		double price = sqlite3_column_double(st, 2);
		double begin = sqlite3_column_double(st, 3);
		double end = sqlite3_column_double(st, 4);
		struct type_prices *tp;

		xsnprintf(out->as_of, sizeof(out->as_of), "%s", db_text(st, 5));
		xsnprintf(out->source, sizeof(out->source), "%s",
			  db_text(st, 6));
		if (!strcmp(db_text(st, 0), "snapshot") &&
		    !strcmp(dim, "storage")) {
			out->have_snapshot_storage = 1;
			out->snapshot_per_gib_month = price;
			continue;
		}
		if (model_type_parse(db_text(st, 0), &t))
			continue;
		tp = &out->type[t];
		if (!strcmp(dim, "storage")) {
			tp->have_storage = 1;
			tp->storage_per_gib_month = price;
		} else if (!strcmp(dim, "iops")) {
			add_tier(tp->iops, &tp->n_iops, begin, end, price);
		} else if (!strcmp(dim, "throughput")) {
			add_tier(tp->throughput, &tp->n_throughput, begin, end,
				 price);
		} else if (!strcmp(dim, "io")) {
			tp->have_io = 1;
			tp->io_per_million = price;
		}
	}
	if (step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read prices");
	sqlite3_finalize(st);
	return rc;
}

int db_load_limits(struct db *db, enum vol_type type, const char *as_of,
		   struct volume_limits *out, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare_kept(
		 db, DB_KEPT_LIMITS,
		 "SELECT effective_from, min_size_gib, max_size_gib, min_iops, max_iops,"
		 " max_iops_per_gib, min_mibps, max_mibps, max_mibps_per_iops,"
		 " included_iops, included_mibps, io_unit_kib"
		 " FROM volume_limits WHERE volume_type = ?1"
		 " AND effective_from <= coalesce(?2, date('now'))"
		 " ORDER BY effective_from DESC LIMIT 1",
		 &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, model_type_name(type), -1, SQLITE_STATIC);
	if (as_of)
		sqlite3_bind_text(st, 2, as_of, -1, SQLITE_TRANSIENT);
	switch (sqlite3_step(st)) {
	case SQLITE_ROW:
		memset(out, 0, sizeof(*out));
		out->type = type;
		xsnprintf(out->effective_from, sizeof(out->effective_from),
			  "%s", db_text(st, 0));
		out->min_size_gib = sqlite3_column_int64(st, 1);
		out->max_size_gib = sqlite3_column_int64(st, 2);
		out->min_iops = sqlite3_column_int64(st, 3);
		out->max_iops = sqlite3_column_int64(st, 4);
		out->max_iops_per_gib = sqlite3_column_double(st, 5);
		out->min_mibps = sqlite3_column_double(st, 6);
		out->max_mibps = sqlite3_column_double(st, 7);
		out->max_mibps_per_iops = sqlite3_column_double(st, 8);
		out->included_iops = sqlite3_column_int64(st, 9);
		out->included_mibps = sqlite3_column_double(st, 10);
		out->io_unit_kib = sqlite3_column_int64(st, 11);
		break;
	case SQLITE_DONE: {
		char first[16];

		first_text(db,
			   "SELECT min(effective_from) FROM volume_limits"
			   " WHERE volume_type = ?1",
			   model_type_name(type), first, sizeof(first));
		if (*first)
			rc = ebs_fail(
			    err, EBS_ERR_NOT_FOUND,
			    "no %s volume rules in force as of %s: the earliest are from %s",
			    model_type_name(type), as_of ? as_of : "today",
			    first);
		else
			rc = ebs_fail(err, EBS_ERR_NOT_FOUND,
				      "no %s volume rules in force as of %s",
				      model_type_name(type),
				      as_of ? as_of : "today");
		break;
	}
	default: rc = db_fail(db, err, "cannot read volume limits");
	}
	db_unkeep(st);
	return rc;
}

/* xsnprintf(dst, n, "%s", src) without the printf machinery, which was a
 * sixth of `cheapest` (25 rows in each of some 30 families). */
static void copy_text(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void instance_from_row(sqlite3_stmt *st, struct instance_limits *o)
{
	const char *opt;

	memset(o, 0, sizeof(*o));
	copy_text(o->instance_type, sizeof(o->instance_type), db_text(st, 0));
	o->burst = sqlite3_column_int(st, 1);
	/* NULL limits (not EBS-optimizable) read as 0 */
	o->baseline_mbps = sqlite3_column_double(st, 2);
	o->max_mbps = sqlite3_column_double(st, 3);
	o->baseline_mbytes_per_s = sqlite3_column_double(st, 4);
	o->max_mbytes_per_s = sqlite3_column_double(st, 5);
	o->baseline_iops = sqlite3_column_double(st, 6);
	o->max_iops = sqlite3_column_double(st, 7);
	copy_text(o->source, sizeof(o->source), db_text(st, 8));
	copy_text(o->as_of, sizeof(o->as_of), db_text(st, 9));
	opt = db_text(st, 10);
	o->ebs_optimized = !strcmp(opt, "unsupported") ? EBS_OPT_UNSUPPORTED
			   : !strcmp(opt, "supported") ? EBS_OPT_SUPPORTED
						       : EBS_OPT_DEFAULT;
	o->max_ebs_attachments = (long)sqlite3_column_int64(st, 11);
	copy_text(o->nvme, sizeof(o->nvme), db_text(st, 12));
}

#define INSTANCE_COLS                                                        \
	"instance_type, burst, baseline_mbps, max_mbps,"                     \
	" baseline_mbytes_per_s, max_mbytes_per_s, baseline_iops, max_iops," \
	" source, as_of, ebs_optimized, max_ebs_attachments, nvme"

int db_load_instance(struct db *db, const char *instance_type,
		     struct instance_limits *out, char *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare_kept(
		 db, DB_KEPT_INSTANCE,
		 "SELECT " INSTANCE_COLS
		 " FROM instance_limits WHERE instance_type = ?",
		 &st, err)))
		return rc;
	sqlite3_bind_text(st, 1, instance_type, -1, SQLITE_TRANSIENT);
	switch (sqlite3_step(st)) {
	case SQLITE_ROW: instance_from_row(st, out); break;
	case SQLITE_DONE:
		rc = ebs_fail(err, EBS_ERR_NOT_FOUND,
			      "unknown instance type '%s'", instance_type);
		break;
	default: rc = db_fail(db, err, "cannot read instance limits");
	}
	db_unkeep(st);
	return rc;
}

int db_region_known(struct db *db, const char *region)
{
	sqlite3_stmt *st = NULL;
	int known = 0;

	if (db_prepare(db, "SELECT 1 FROM regions WHERE code = ?", &st, NULL))
		return 0;
	sqlite3_bind_text(st, 1, region, -1, SQLITE_TRANSIENT);
	known = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return known;
}

/* A row of a family and its sort key, NULLs first as SQLite sorts them. */
struct fam_row {
	struct instance_limits il;
	int null[3]; /* baseline_iops, baseline_mbps, max_iops */
	double key[3];
};

static int cmp_fam_row(const void *pa, const void *pb)
{
	const struct fam_row *a = pa, *b = pb;

	for (int i = 0; i < 3; i++) {
		if (a->null[i] != b->null[i])
			return a->null[i] ? -1 : 1;
		if (!a->null[i] && a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	}
	return strcmp(a->il.instance_type, b->il.instance_type);
}

/*
 * The instances of one family: a range of the primary key, read in key
 * order and sorted here as the general query below sorts them (within a
 * family its first sort key is the same for every row), so that a family
 * costs its own rows, not a scan and sort of every type (issue 14:
 * `cheapest` looks at some 30 families).
 */
static int each_of_family(struct db *db, const char *family,
			  int (*fn)(const struct instance_limits *, void *),
			  void *arg, char *err)
{
	static const int key_col[3] = { 6, 2, 7 };
	sqlite3_stmt *st = NULL;
	struct fam_row *rows = NULL;
	size_t n = 0, alloc = 0;
	char *lo = xstrfmt("%s.", family), *hi = xstrfmt("%s/", family);
	int rc, step;

	rc = db_prepare_kept(db, DB_KEPT_FAMILY,
			     "SELECT " INSTANCE_COLS " FROM instance_limits"
			     " WHERE instance_type >= ?1 AND instance_type < ?2"
			     " AND substr(instance_type, 1, length(?1)) = ?1",
			     &st, err);
	if (rc)
		goto out;
	sqlite3_bind_text(st, 1, lo, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hi, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct fam_row *r;

		xgrow((void **)&rows, &alloc, n + 1, sizeof(*rows));
		r = &rows[n++];
		instance_from_row(st, &r->il);
		for (int i = 0; i < 3; i++) {
			r->null[i] =
			    sqlite3_column_type(st, key_col[i]) == SQLITE_NULL;
			r->key[i] = sqlite3_column_double(st, key_col[i]);
		}
	}
	if (step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read instance limits");
	db_unkeep(st);
	if (!rc && n)
		qsort(rows, n, sizeof(*rows), cmp_fam_row);
	for (size_t i = 0; !rc && i < n; i++)
		if (fn(&rows[i].il, arg))
			break;
out:
	free(rows);
	free(lo);
	free(hi);
	return rc;
}

int db_each_instance(struct db *db, const char *name, const char *family,
		     int (*fn)(const struct instance_limits *, void *),
		     void *arg, char *err)
{
	sqlite3_stmt *st = NULL;
	struct instance_limits il;
	char *prefix;
	int rc, step;

	if (family && !name)
		return each_of_family(db, family, fn, arg, err);
	prefix = family ? xstrfmt("%s.", family) : NULL;
	/* natural size order: by family, then by the instance's max IOPS
	 * and bandwidth (nano < ... < metal); types without EBS limits
	 * (NULLs sort first) by name */
	rc = db_prepare(
	    db,
	    "SELECT " INSTANCE_COLS " FROM instance_limits"
	    " WHERE (?1 IS NULL OR instance_type = ?1)"
	    " AND (?2 IS NULL OR substr(instance_type, 1, length(?2)) = ?2)"
	    " ORDER BY substr(instance_type, 1, instr(instance_type, '.')),"
	    " baseline_iops, baseline_mbps, max_iops, instance_type",
	    &st, err);
	if (rc)
		goto out;
	if (name)
		sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	if (prefix)
		sqlite3_bind_text(st, 2, prefix, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		instance_from_row(st, &il);
		if (fn(&il, arg))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read instance limits");
out:
	sqlite3_finalize(st);
	free(prefix);
	return rc;
}

int db_each_price(struct db *db, const char *region, const char *type,
		  const char *as_of,
		  int (*fn)(const struct price_row *, void *), void *arg,
		  char *err)
{
	sqlite3_stmt *st = NULL;
	int rc, step;

	/* for each region, the newest complete snapshot that has it (with
	 * as_of: the newest on or before that date, as db_load_prices) */
	rc = db_prepare(
	    db,
	    "WITH inforce AS (SELECT p.region, max(s.id) AS sid"
	    "  FROM prices p JOIN price_snapshots s ON s.id = p.snapshot_id"
	    "  WHERE s.complete = 1 AND (?3 IS NULL OR s.as_of <= ?3)"
	    "  GROUP BY p.region)"
	    " SELECT p.snapshot_id, p.region, p.volume_type, p.dimension, p.unit,"
	    " p.currency, p.price_per_unit, p.begin_range, coalesce(p.end_range, -1),"
	    " p.usagetype, p.source, coalesce(p.as_of, s.as_of)"
	    " FROM prices p JOIN inforce i ON i.region = p.region AND i.sid = p.snapshot_id"
	    " JOIN price_snapshots s ON s.id = p.snapshot_id"
	    " WHERE (?1 IS NULL OR p.region = ?1) AND (?2 IS NULL OR p.volume_type = ?2)"
	    " ORDER BY p.region, p.volume_type, p.dimension, p.begin_range",
	    &st, err);
	if (rc)
		return rc;
	if (region)
		sqlite3_bind_text(st, 1, region, -1, SQLITE_TRANSIENT);
	if (type)
		sqlite3_bind_text(st, 2, type, -1, SQLITE_TRANSIENT);
	if (as_of)
		sqlite3_bind_text(st, 3, as_of, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct price_row pr = {
			.snapshot_id = sqlite3_column_int64(st, 0),
			.region = db_text(st, 1),
			.volume_type = db_text(st, 2),
			.dimension = db_text(st, 3),
			.unit = db_text(st, 4),
			.currency = db_text(st, 5),
			.price_per_unit = sqlite3_column_double(st, 6),
			.begin_range = sqlite3_column_double(st, 7),
			.end_range = sqlite3_column_double(st, 8),
			.usagetype = db_text(st, 9),
			.source = db_text(st, 10),
			.as_of = db_text(st, 11),
		};

		if (fn(&pr, arg))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, err, "cannot read prices");
	sqlite3_finalize(st);
	return rc;
}

/* ------------------------------------------------------------ check */

static const char *const check_tables[] = {
	"regions",	   "price_snapshots", "prices",	      "volume_limits",
	"instance_limits", "bench_runs",      "bench_phases", "bench_samples",
};

int db_check(struct db *db, struct db_health *out, char *err)
{
	sqlite3_stmt *st = NULL;
	long long v;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = read_int(db, "PRAGMA user_version", &v, err)))
		return rc;
	out->schema_version = (int)v;
	if ((rc = db_prepare(db, "PRAGMA integrity_check(1)", &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		xsnprintf(out->integrity, sizeof(out->integrity), "%s",
			  db_text(st, 0));
	else
		xsnprintf(out->integrity, sizeof(out->integrity), "%s",
			  sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	for (size_t i = 0; i < ARRAY_SIZE(check_tables); i++) {
		char *sql = xstrfmt("SELECT count(*) FROM %s", check_tables[i]);

		rc = read_int(db, sql, &v, err);
		free(sql);
		if (rc)
			return rc;
		out->counts[out->ncounts].table = check_tables[i];
		out->counts[out->ncounts++].rows = v;
	}
	rc = db_prepare(
	    db,
	    "SELECT r, sid, s.source, s.as_of, s.fetched_at,"
	    " (SELECT count(*) FROM prices q WHERE q.snapshot_id = sid AND q.region = r)"
	    " FROM (SELECT p.region AS r, max(s2.id) AS sid FROM prices p"
	    "  JOIN price_snapshots s2 ON s2.id = p.snapshot_id"
	    "  WHERE s2.complete = 1 GROUP BY p.region)"
	    " JOIN price_snapshots s ON s.id = sid ORDER BY r",
	    &st, err);
	if (rc)
		return rc;
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct db_snapshot_info *si;

		out->snapshots =
		    xrealloc(out->snapshots,
			     (out->nsnapshots + 1) * sizeof(*out->snapshots));
		si = &out->snapshots[out->nsnapshots++];
		memset(si, 0, sizeof(*si));
		xsnprintf(si->region, sizeof(si->region), "%s", db_text(st, 0));
		si->snapshot_id = sqlite3_column_int64(st, 1);
		xsnprintf(si->source, sizeof(si->source), "%s", db_text(st, 2));
		xsnprintf(si->as_of, sizeof(si->as_of), "%s", db_text(st, 3));
		xsnprintf(si->fetched_at, sizeof(si->fetched_at), "%s",
			  db_text(st, 4));
		si->prices = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
	return EBS_OK;
}

void db_health_release(struct db_health *h)
{
	if (!h)
		return;
	free(h->snapshots);
	h->snapshots = NULL;
	h->nsnapshots = 0;
}
