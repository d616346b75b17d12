/*
 * bench_xlsx.c - time to write a workbook of N volume rows (GENERATED
 * test data, fixed seed) whose cost cells are live formulas over a price
 * list: the shape of a scan workbook with live costs.  Rows are produced
 * on demand, as the scan command does.  Usage: bench-xlsx DB N OUT.xlsx.
 * Prints the rows, seconds and peak RSS of the whole process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "ebsize/db.h"
#include "ebsize/err.h"
#include "ebsize/model.h"
#include "ebsize/out.h"
#include "ebsize/price_sheet.h"
#include "ebsize/util.h"

struct gen {
	struct price_set ps;
	char id[32];
};

/* Row i: a gp2, gp3 or io2 volume of a size and IOPS from i (generated). */
static void fill(struct out_table *t, size_t i, void *arg)
{
	static const enum vol_type types[] = { VT_GP2, VT_GP3, VT_IO2 };
	struct gen *g = arg;
	struct vol_config c = { types[i % 3], (long)(8 + (i * 7919) % 4000), 0, 0, 1, 0 };
	struct cost cost;

	if (c.type == VT_GP3) {
		c.iops = 3000 + (long)(i % 7) * 1000;
		c.throughput_mibps = 125 + (long)(i % 4) * 125;
	} else if (c.type == VT_IO2) {
		c.iops = 1000 + (long)(i % 40) * 1000;
	}
	model_cost(&g->ps.type[c.type], &c, &cost);
	xsnprintf(g->id, sizeof(g->id), "vol-0b%015zx", i);
	out_str(t, g->id);
	out_str(t, "us-east-1");
	out_str(t, model_type_name(c.type));
	out_int(t, c.size_gib);
	if (c.iops)
		out_int(t, c.iops);
	else
		out_null(t);
	if (c.throughput_mibps)
		out_int(t, c.throughput_mibps);
	else
		out_null(t);
	out_num(t, cost.total);
}

int main(int argc, char **argv)
{
	const char *region = "us-east-1";
	struct out_target to = { .format = OUT_XLSX };
	struct gen g;
	struct out_doc *doc;
	struct out_table *t;
	struct timespec a, b;
	struct rusage ru;
	struct db *db;
	char err[EBS_ERRLEN], *f, *st, *io, *tp;
	long n = argc > 2 ? atol(argv[2]) : 100000;  /* bench tool: trusted arg */
	int rc;

	if (argc < 4 || db_open(argv[1], 0, &db, err) ||
	    db_load_prices(db, region, NULL, &g.ps, err)) {
		fprintf(stderr, "usage: bench-xlsx DB N OUT.xlsx (%s)\n", argc < 4 ? "" : err);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	doc = out_doc_new();
	t = out_list(doc, "volumes", "Volumes (generated)");
	out_col(t, "volume_id", "Volume", OUT_TEXT);
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "type", "Type", OUT_TEXT);
	out_col(t, "size_gib", "GiB", OUT_INT);
	out_col(t, "iops", "IOPS", OUT_INT);
	out_col(t, "throughput_mibps", "MiB/s", OUT_INT);
	out_col(t, "monthly_usd", "Monthly", OUT_USD);
	st = price_sheet_cost("{region}", "{type}", "storage", "{size_gib}");
	io = price_sheet_cost("{region}", "{type}", "iops", "{iops}");
	tp = price_sheet_cost("{region}", "{type}", "throughput", "{throughput_mibps}");
	f = xstrfmt("%s+%s+%s", st, io, tp);
	out_formula(t, "monthly_usd", f);
	out_rows_on_demand(t, (size_t)n, fill, &g);
	if (price_sheet_add(doc, db, &region, 1, err)) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	to.path = argv[3];
	rc = out_render_to(doc, &to, err);
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_SELF, &ru);
	if (rc) {
		fprintf(stderr, "cannot write '%s': %s\n", argv[3], err);
		return 1;
	}
	printf("%ld rows, a live cost formula each: %.2f s, peak RSS %.1f MB\n", n,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	       ru.ru_maxrss / 1024.0);
	free(f);
	free(st);
	free(io);
	free(tp);
	out_doc_free(doc);
	db_close(db);
	return 0;
}
