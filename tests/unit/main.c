/* main.c - runs every unit test group; exit 1 if any check failed. */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ebsize/db.h"
#include "ebsize/err.h"

int test_n, test_failed;
static struct db *shared_db;
static char db_dir[] = "/tmp/ebsize-unit.XXXXXX";

void test_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	test_n++;
	printf("%s %d - ", cond ? "ok" : "not ok", test_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!cond) {
		printf("  (%s:%d)", file, line);
		test_failed++;
	}
	putchar('\n');
}

struct db *test_db(void)
{
	char err[EBS_ERRLEN], path[64];

	if (shared_db)
		return shared_db;
	if (!mkdtemp(db_dir)) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/unit.db", db_dir);
	if (db_open(path, 0, &shared_db, err)) {
		fprintf(stderr, "cannot create test database: %s\n", err);
		exit(2);
	}
	return shared_db;
}

static void cleanup(void)
{
	char cmd[128];

	db_close(shared_db);
	if (shared_db) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", db_dir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", db_dir);
	}
}

int main(void)
{
	test_util();
	test_util_visible();
	test_out();
	test_model();
	test_solver();
	test_burst();
	test_pricing();
	test_stream();
	test_bench();
	test_scan();
	test_scan_time();
	test_cli();
	test_scan_fleet();
	test_svg();
	test_report();
	test_data();
	test_billing();
	test_scan_k8s();
	test_batch();
	cleanup();
	printf("# unit: %d checks, %d failed\n", test_n, test_failed);
	return test_failed ? 1 : 0;
}
