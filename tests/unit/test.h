/*
 * test.h - a tiny unit-test harness.  Every CHECK prints one TAP-like line
 * ("ok N - ..." or "not ok N - ..." with the place and the values), so the
 * suite runner can count them.  Tests are tables of { inputs, expected }
 * looped over; money and rates are compared with a stated tolerance.
 */
#ifndef EBSIZE_TEST_H
#define EBSIZE_TEST_H

#include <math.h>
#include <stdio.h>

extern int test_n, test_failed;

void test_ok(int cond, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define CHECK(cond, ...) test_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_NEAR(got, want, tol, desc)                                      \
	do {                                                                  \
		double g_ = (got), w_ = (want);                               \
		test_ok(fabs(g_ - w_) <= (tol), __FILE__, __LINE__,           \
			"%s: got %.10g, want %.10g (tol %g)", (desc), g_, w_, \
			(double)(tol));                                       \
	} while (0)

/* A scratch database seeded from the embedded data (real SQLite). */
struct db;
struct db *test_db(void);

void test_bench(void);
void test_model(void);
void test_out(void);
void test_pricing(void);
void test_stream(void);
void test_util(void);
void test_util_visible(void);
void test_solver(void);
void test_burst(void);
void test_scan(void);
void test_scan_time(void);
void test_cli(void);
void test_scan_fleet(void);
void test_svg(void);
void test_report(void);
void test_data(void);
void test_billing(void);
void test_scan_k8s(void);
void test_batch(void);

#endif
