/*
 * cmd_pricing.c - `ebsize pricing show`: the prices in force, per region
 * and volume type, with the snapshot each comes from.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/util.h"

static const char usage_text[] =
	"usage: ebsize pricing show [--region R | --all-regions] [--type T]\n\n"
	"  show            the EBS prices in force: for each region the newest\n"
	"                  complete snapshot (embedded, fetched or imported)\n"
	"  --region R      one region (default: the global --region)\n"
	"  --all-regions   every region with prices\n"
	"  --type T        one volume type\n"
	"  -h, --help      this help\n\n"
	"Units: storage per GiB-month, IOPS per IOPS-month, throughput per\n"
	"MiB/s-month (the Price List quotes GiBps-month: divided by 1024), and\n"
	"standard I/O per million requests.  Ranges: only units inside\n"
	"[from, to) are billed at that price (gp3 IOPS above 3,000, io2 tiers).\n";

struct show_ctx {
	struct out_table *t;
	size_t n;
};

static int add_price(const struct price_row *p, void *arg)
{
	struct show_ctx *sc = arg;
	struct out_table *t = sc->t;

	out_row(t);
	out_str(t, p->region);
	out_str(t, p->volume_type);
	out_str(t, p->dimension);
	out_num(t, p->price_per_unit);
	out_str(t, p->currency);
	out_str(t, p->unit);
	out_num(t, p->begin_range);
	if (p->end_range >= 0)
		out_num(t, p->end_range);
	else
		out_null(t);
	out_str(t, p->usagetype);
	out_int(t, p->snapshot_id);
	out_str(t, p->as_of);
	out_str(t, p->source);
	sc->n++;
	return 0;
}

static int show(struct cli_ctx *ctx, const char *region, const char *type)
{
	struct out_doc *doc = out_doc_new();
	struct show_ctx sc = { 0 };
	char err[EBS_ERRLEN];
	int rc;

	sc.t = out_list(doc, "prices", NULL);
	out_col(sc.t, "region", "Region", OUT_TEXT);
	out_col(sc.t, "volume_type", "Type", OUT_TEXT);
	out_col(sc.t, "dimension", "Dimension", OUT_TEXT);
	out_col(sc.t, "price_per_unit", "Price", OUT_EXACT);
	out_col(sc.t, "currency", "Cur", OUT_TEXT);
	out_col(sc.t, "unit", "Unit", OUT_TEXT);
	out_col(sc.t, "begin_range", "From", OUT_INT);
	out_col(sc.t, "end_range", "To", OUT_INT);
	out_col(sc.t, "usagetype", "Usage type", OUT_TEXT);
	out_col(sc.t, "snapshot", "Snap", OUT_INT);
	out_col(sc.t, "as_of", "As of", OUT_TEXT);
	out_col(sc.t, "source", "Source", OUT_TEXT);
	if (db_each_price(ctx->db, region, type, add_price, &sc, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	if (!sc.n) {
		msg_error("no prices for region '%s'%s%s", region ? region : "(any)",
			  type ? " and type " : "", type ? type : "");
		msg_hint("'ebsize pricing show --all-regions' lists the regions with prices");
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}

int cmd_pricing(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "region", required_argument, NULL, 'r' },
		{ "all-regions", no_argument, NULL, 'a' },
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *region = ctx->region, *type = NULL;
	enum vol_type vt;
	int c, all = 0;

	while ((c = cmd_getopt("pricing", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'r':
			region = optarg;
			break;
		case 'a':
			all = 1;
			break;
		case 't':
			type = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return msg_usage_error("pricing", "missing subcommand (show)");
	if (strcmp(argv[optind], "show"))
		return msg_usage_error("pricing", "unknown subcommand '%s'", argv[optind]);
	if (optind + 1 < argc)
		return msg_usage_error("pricing", "unexpected argument '%s'", argv[optind + 1]);
	if (type && model_type_parse(type, &vt))
		return msg_usage_error("pricing", "unknown volume type '%s'", type);
	return show(ctx, all ? NULL : region, type ? model_type_name(vt) : NULL);
}
