/*
 * cmd_cost.c - `ebsize cost`: the itemised monthly cost and performance of
 * one volume configuration (or K identical volumes), refusing configurations
 * AWS would refuse, with the rule broken and the nearest legal one.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/price_sheet.h"
#include "ebsize/util.h"

static const char usage_text[] =
	"usage: ebsize cost --type TYPE --size GIB [--iops N] [--throughput MIBPS]\n"
	"                   [--count K] [--io-per-month N] [--region R]\n\n"
	"Monthly cost (USD, on-demand) of one EBS volume configuration, itemised,\n"
	"with its performance: baseline and burst IOPS, how long a full credit\n"
	"bucket lasts, and maximum throughput.  Illegal configurations are refused\n"
	"with the rule they break and the nearest legal configuration.\n\n"
	"  --type TYPE         gp2, gp3, io1, io2, st1, sc1 or standard\n"
	"  --size GIB          volume size in GiB\n"
	"  --iops N            provisioned IOPS (gp3: default 3000; io1/io2: required)\n"
	"  --throughput MIBPS  provisioned MiB/s (gp3 only; default 125)\n"
	"  --count K           K identical volumes (a striped set); multiplies all\n"
	"  --io-per-month N    I/O requests per month per volume (standard only)\n"
	"  --region R          price region (default: the global --region)\n"
	"  -h, --help          this help\n\n"
	"Exit status: 0 ok, 1 illegal configuration or missing prices, 2 usage.\n";

struct cost_args {
	const char *type_name;
	struct vol_config cfg;
	int have_size;
};

static int parse_args(int argc, char **argv, struct cli_ctx *ctx,
		      struct cost_args *a)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "iops", required_argument, NULL, 'i' },
		{ "throughput", required_argument, NULL, 'T' },
		{ "count", required_argument, NULL, 'k' },
		{ "io-per-month", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	(void)ctx;
	while ((c = cmd_getopt("cost", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 't':
			a->type_name = optarg;
			break;
		case 's':
			if (cmd_parse_long("cost", "--size", optarg, 1, 10000000, &a->cfg.size_gib))
				return EXIT_USAGE;
			a->have_size = 1;
			break;
		case 'i':
			if (cmd_parse_long("cost", "--iops", optarg, 1, 100000000, &a->cfg.iops))
				return EXIT_USAGE;
			break;
		case 'T':
			if (cmd_parse_long("cost", "--throughput", optarg, 1, 1000000,
					   &a->cfg.throughput_mibps))
				return EXIT_USAGE;
			break;
		case 'k':
			if (cmd_parse_long("cost", "--count", optarg, 1, 1000, &a->cfg.count))
				return EXIT_USAGE;
			break;
		case 'o':
			if (cmd_parse_double("cost", "--io-per-month", optarg, 0, 1e18,
					     &a->cfg.io_per_month))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return msg_usage_error("cost", "unexpected argument '%s'", argv[optind]);
	if (!a->type_name)
		return msg_usage_error("cost", "missing --type (gp2, gp3, io1, io2, st1, sc1 or standard)");
	if (model_type_parse(a->type_name, &a->cfg.type))
		return msg_usage_error("cost", "unknown volume type '%s' (use gp2, gp3, io1, io2, st1, sc1 or standard)",
				       a->type_name);
	if (!a->have_size)
		return msg_usage_error("cost", "missing --size GIB");
	if ((a->cfg.type == VT_IO1 || a->cfg.type == VT_IO2) && !a->cfg.iops)
		return msg_usage_error("cost", "--iops is required for %s volumes",
				       model_type_name(a->cfg.type));
	if (a->cfg.io_per_month > 0 && a->cfg.type != VT_STANDARD)
		return msg_usage_error("cost", "--io-per-month applies to standard volumes only");
	return EXIT_OK;
}

/* Print the command line of a configuration, for the "nearest" hint. */
static void describe(const struct vol_config *c, char *buf, size_t n)
{
	int o = snprintf(buf, n, "--type %s --size %ld", model_type_name(c->type),
			 c->size_gib);

	if (c->iops && o > 0 && (size_t)o < n)
		o += snprintf(buf + o, n - (size_t)o, " --iops %ld", c->iops);
	if (c->throughput_mibps && o > 0 && (size_t)o < n)
		snprintf(buf + o, n - (size_t)o, " --throughput %ld",
			 c->throughput_mibps);
}

/*
 * Workbook: each cost of the monthly_usd record as a live formula over
 * the configuration (sheet "result") and the price list, so that an
 * edited size, IOPS, throughput or price recomputes it.
 */
static void live_costs(struct out_table *t, const struct vol_config *cfg)
{
	static const struct {
		const char *key, *units;
	} dims[] = {
		{ "storage", "{result!size_gib}" },
		{ "iops", "{result!iops}" },
		{ "throughput", "{result!throughput_mibps}" },
		{ "io", "{result!io_per_month}/1000000" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(dims); i++) {
		char *one, *all;

		if (!strcmp(dims[i].key, "io") && cfg->type != VT_STANDARD)
			continue;       /* no io_per_month field to refer to */
		one = price_sheet_cost("{result!region}", "{result!type}", dims[i].key,
				       dims[i].units);
		all = xstrfmt("{result!count}*%s", one);
		out_formula(t, dims[i].key, all);
		free(one);
		free(all);
	}
	out_formula(t, "total", "{storage}+{iops}+{throughput}+{io}");
}

static void build(struct out_doc *doc, const char *region,
		  const struct vol_config *cfg, const struct cost *cost,
		  const struct perf *pf, const struct price_set *ps)
{
	struct out_table *t;
	char title[160];

	xsnprintf(title, sizeof(title), "%ld x %s %ld GiB in %s",
		  cfg->count, model_type_name(cfg->type), cfg->size_gib, region);
	t = out_record(doc, NULL, title);
	out_kv_str(t, "region", "Region", region);
	out_kv_str(t, "type", "Type", model_type_name(cfg->type));
	out_kv_int(t, "size_gib", "Size (GiB)", cfg->size_gib);
	if (cfg->iops)
		out_kv_int(t, "iops", "Provisioned IOPS", cfg->iops);
	else
		out_kv_null(t, "iops", "Provisioned IOPS", OUT_INT);
	if (cfg->throughput_mibps)
		out_kv_int(t, "throughput_mibps", "Provisioned MiB/s",
			   cfg->throughput_mibps);
	else
		out_kv_null(t, "throughput_mibps", "Provisioned MiB/s", OUT_INT);
	out_kv_int(t, "count", "Volumes", cfg->count);
	if (cfg->type == VT_STANDARD)
		out_kv_num(t, "io_per_month", "I/O per month", OUT_INT,
			   cfg->io_per_month);

	t = out_record(doc, "monthly_usd", "Monthly cost (USD)");
	out_kv_num(t, "storage", "Storage", OUT_USD, cost->storage);
	out_kv_num(t, "iops", "IOPS", OUT_USD, cost->iops);
	out_kv_num(t, "throughput", "Throughput", OUT_USD, cost->throughput);
	out_kv_num(t, "io", "I/O requests", OUT_USD, cost->io);
	out_kv_num(t, "total", "Total", OUT_USD, cost->total);
	live_costs(t, cfg);

	t = out_record(doc, "performance", "Performance");
	out_kv_num(t, "baseline_iops", "Baseline IOPS", OUT_INT, pf->baseline_iops);
	out_kv_num(t, "burst_iops", "Burst IOPS", OUT_INT, pf->burst_iops);
	if (pf->burst_seconds > 0)
		out_kv_num(t, "burst_seconds", "Burst from full bucket (s)",
			   OUT_INT, pf->burst_seconds);
	else
		out_kv_null(t, "burst_seconds", "Burst from full bucket (s)", OUT_INT);
	out_kv_num(t, "baseline_throughput_mibps", "Sustained MiB/s", OUT_NUM1,
		   pf->baseline_mibps);
	out_kv_num(t, "max_throughput_mibps", "Max MiB/s", OUT_NUM1,
		   pf->burst_mibps);

	t = out_record(doc, "prices", "Prices");
	out_kv_int(t, "snapshot", "Snapshot", ps->snapshot_id);
	out_kv_str(t, "as_of", "As of", ps->as_of);
	out_kv_str(t, "source", "Source", ps->source);
	price_sheet_about(doc, ps);
}

int cmd_cost(int argc, char **argv, struct cli_ctx *ctx)
{
	struct cost_args a = { 0 };
	struct volume_limits lim;
	struct vol_config nearest;
	struct price_set ps;
	struct cost cost;
	struct perf pf;
	struct out_doc *doc;
	char err[EBS_ERRLEN], why[256], alt[160];
	int rc;

	rc = parse_args(argc, argv, ctx, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (db_load_limits(ctx->db, a.cfg.type, NULL, &lim, err)) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	model_apply_defaults(&lim, &a.cfg);
	if (model_validate(&lim, &a.cfg, &nearest, why, sizeof(why))) {
		describe(&nearest, alt, sizeof(alt));
		msg_error("illegal configuration: %s", why);
		msg_hint("nearest legal configuration: ebsize cost %s", alt);
		return EXIT_RUNTIME;
	}
	if (db_load_prices(ctx->db, ctx->region, NULL, &ps, err)) {
		msg_error("%s", err);
		msg_hint("see 'ebsize pricing show' for the regions with prices");
		return EXIT_RUNTIME;
	}
	if (model_cost(&ps.type[a.cfg.type], &a.cfg, &cost)) {
		msg_error("prices for %s in '%s' are incomplete (snapshot %lld)",
			  model_type_name(a.cfg.type), ctx->region, ps.snapshot_id);
		return EXIT_RUNTIME;
	}
	model_perf(&a.cfg, &pf);
	doc = out_doc_new();
	build(doc, ctx->region, &a.cfg, &cost, &pf, &ps);
	if (ctx->format == OUT_XLSX &&
	    price_sheet_add(doc, ctx->db, &ctx->region, 1, err)) {
		msg_error("%s", err);
		out_doc_free(doc);
		return EXIT_RUNTIME;
	}
	rc = cli_render(ctx, doc);
	out_doc_free(doc);
	return rc;
}
