/*
 * cmd_scan.c - `ebsize scan`: read an inventory (describe-volumes pages,
 * kubectl PV/StorageClass lists, CloudWatch metric data, a usage CSV),
 * analyse every volume and report findings with savings, risk, confidence
 * and the commands that apply them; totals by category, region and tag.
 * `ebsize scan --metric-queries VOLUMES.json` writes the GetMetricData
 * queries the analysis reads back.
 *
 * This file owns the I/O (files are mapped, and the pages of a large
 * describe-volumes file are released as the scan passes them, so memory
 * holds the findings, not the file), the options and the output.  Parsing
 * is inventory_parse.c's, judging scan.c's, pricing model.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ebsize/cli.h"
#include "ebsize/db.h"
#include "ebsize/inventory.h"
#include "ebsize/model.h"
#include "ebsize/msg.h"
#include "ebsize/scan.h"
#include "ebsize/strmap.h"
#include "ebsize/util.h"

static const char usage_text[] =
	"usage: ebsize scan FILE... [--metrics FILE]... [--usage FILE]\n"
	"                   [--region R] [--min-savings USD] [--headroom PCT]\n"
	"                   [--exclude-tag KEY[=VALUE]]... [--by-tag KEY]\n"
	"                   [--alarm-minutes M] [--limit N]\n"
	"       ebsize scan --metric-queries VOLUMES.json [--period S]\n\n"
	"Find EBS waste in an inventory: gp2 that gp3 serves cheaper at no loss\n"
	"of performance, gp2 sized for IOPS rather than data, gp2 about to run out\n"
	"of burst credits, io1/io2/gp3 provisioned far above their observed peak,\n"
	"and unattached volumes.  Each finding has the current and proposed\n"
	"configuration, monthly and annual savings, risk, confidence and the\n"
	"commands to apply it.  Inputs are told apart by content:\n"
	"  aws ec2 describe-volumes output (any number of pages or files),\n"
	"  kubectl get pv -o json and kubectl get storageclass -o json,\n"
	"  aws cloudwatch get-metric-data output (queries from --metric-queries).\n\n"
	"  --metrics FILE         CloudWatch get-metric-data output (repeatable)\n"
	"  --usage FILE           CSV volume_id,used_gib (data actually stored)\n"
	"  --region R             only volumes in region R (default: all regions)\n"
	"  --min-savings USD      drop findings saving less per month (default 0)\n"
	"  --headroom PCT         margin over observed peaks and used space (20)\n"
	"  --exclude-tag K[=V]    volumes tagged K (=V) are listed, never changed\n"
	"  --by-tag KEY           totals by the value of tag KEY\n"
	"  --alarm-minutes M      BurstBalance alarms fire M minutes before the\n"
	"                         cliff (default 5)\n"
	"  --limit N              table/md: show the N largest findings (default\n"
	"                         50; 0 = all); csv and json always list all\n"
	"  --metric-queries FILE  write the --metric-data-queries JSON for the\n"
	"                         in-use volumes of a describe-volumes FILE\n"
	"  --period S             metric period in seconds (default 300)\n"
	"  -h, --help             this help\n\n"
	"Exit status: 0 ok, 1 unreadable or invalid input, 2 usage.\n";

#define MAX_EXCLUDES 32
#define MAX_FILES 4096
#define SHOW_WARNINGS 20
/* Release mapped pages of a describe-volumes file every 8 MiB scanned. */
#define RELEASE_STEP ((size_t)8 << 20)

struct scan_args {
	const char *files[MAX_FILES];
	size_t nfiles;
	const char *metrics[MAX_FILES];
	size_t nmetrics;
	const char *usage;
	const char *excl[MAX_EXCLUDES];
	size_t nexcl;
	const char *by_tag;
	const char *queries;
	long period_s;
	long limit;
	struct scan_opts opts;
};

/* A file's bytes: mapped when possible (len 0 files and stdin are read). */
struct input {
	const char *name;
	char *data;
	size_t len;
	int mapped;
	size_t released;
};

/* One finding as kept for the report (compact: 100,000+ of them). */
struct rec {
	struct scan_finding f;
	char id[24];
	const char *region;   /* interned (scan_state.strings) */
	const char *az;       /* interned; NULL when unusable in a command */
	char *name;      /* tag Name */
	char *group;     /* --by-tag value */
	char *ns, *pvc;  /* Kubernetes claim */
	char *kms;       /* KmsKeyId (f.kms_key_id points here) */
};

struct region_prices {
	char region[32];
	int ok;
	size_t skipped;
	struct price_set ps;
};

/* Metrics and usage of one volume, found by id. */
struct vol_extra {
	const struct inv_series **s;
	size_t ns, as;
	struct scan_load load;
	int have_load;
	double used_gib;
	int have_usage;
	int matched;
	const char *file;
};

struct scan_state {
	struct cli_ctx *ctx;
	const struct scan_args *a;
	struct volume_limits lim[VT_COUNT];
	struct region_prices *rp;
	size_t nrp, arp;
	struct strmap seen;
	struct strmap pv_by_id;
	struct strmap extra;
	struct strmap strings;   /* interned regions and zones */
	uint32_t *cmd_rows;      /* human commands: rec << 1 | alarm */
	size_t ncmd_rows;
	struct inv_k8s k8s;
	struct inv_metrics metrics;
	struct inv_usage usage;
	struct inv_warnings warn;
	struct rec *recs;
	size_t nrecs, arecs;
	size_t scanned, skipped, other_region, nwarn;
	struct input *cur;
	struct input stdin_in;   /* "-" is read once, in pass 1, and kept */
	char *cur_name;          /* owned copy of cur->name (in seen) */
	char **names;            /* every cur_name, freed at the end */
	size_t nnames, anames;
	char err[EBS_ERRLEN];
};

/* ------------------------------------------------------------ options */

static int parse_args(int argc, char **argv, struct scan_args *a)
{
	static const struct option opts[] = {
		{ "metrics", required_argument, NULL, 'm' },
		{ "usage", required_argument, NULL, 'u' },
		{ "min-savings", required_argument, NULL, 's' },
		{ "headroom", required_argument, NULL, 'H' },
		{ "exclude-tag", required_argument, NULL, 'x' },
		{ "by-tag", required_argument, NULL, 'b' },
		{ "alarm-minutes", required_argument, NULL, 'a' },
		{ "metric-queries", required_argument, NULL, 'q' },
		{ "period", required_argument, NULL, 'p' },
		{ "limit", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	double minutes = 5;
	int c;

	a->opts.headroom_pct = 20;
	a->period_s = 300;
	a->limit = 50;
	while ((c = cmd_getopt("scan", argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'm':
			if (a->nmetrics >= MAX_FILES)
				return msg_usage_error("scan", "more than %d --metrics files", MAX_FILES);
			a->metrics[a->nmetrics++] = optarg;
			break;
		case 'u':
			a->usage = optarg;
			break;
		case 's':
			if (cmd_parse_double("scan", "--min-savings", optarg, 0, 1e9,
					     &a->opts.min_savings_usd))
				return EXIT_USAGE;
			break;
		case 'H':
			if (cmd_parse_double("scan", "--headroom", optarg, 0, 1000,
					     &a->opts.headroom_pct))
				return EXIT_USAGE;
			break;
		case 'x':
			if (!*optarg || *optarg == '=')
				return msg_usage_error("scan", "--exclude-tag needs KEY or KEY=VALUE, not '%s'", optarg);
			if (a->nexcl >= MAX_EXCLUDES)
				return msg_usage_error("scan", "more than %d --exclude-tag options", MAX_EXCLUDES);
			a->excl[a->nexcl++] = optarg;
			break;
		case 'b':
			a->by_tag = optarg;
			break;
		case 'a':
			if (cmd_parse_double("scan", "--alarm-minutes", optarg, 1, 1440, &minutes))
				return EXIT_USAGE;
			break;
		case 'q':
			a->queries = optarg;
			break;
		case 'p':
			if (cmd_parse_long("scan", "--period", optarg, 60, 86400, &a->period_s))
				return EXIT_USAGE;
			if (a->period_s % 60)
				return msg_usage_error("scan", "--period must be a multiple of 60 seconds, not '%s'", optarg);
			break;
		case 'l':
			if (cmd_parse_long("scan", "--limit", optarg, 0, 100000000, &a->limit))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			return EXIT_USAGE;
		}
	}
	a->opts.alarm_lead_s = minutes * 60.0;
	for (; optind < argc; optind++) {
		if (a->nfiles >= MAX_FILES)
			return msg_usage_error("scan", "more than %d input files", MAX_FILES);
		a->files[a->nfiles++] = argv[optind];
	}
	if (a->queries && a->nfiles)
		return msg_usage_error("scan", "--metric-queries takes no other input files");
	if (!a->queries && !a->nfiles)
		return msg_usage_error("scan", "missing inventory FILE (aws ec2 describe-volumes or kubectl get pv -o json output)");
	return EXIT_OK;
}

/* ------------------------------------------------------------ input */

/* Map (or, for stdin and special files, read) a file of at most cap bytes. */
static int input_open(struct input *in, const char *name, size_t cap, char *err)
{
	struct stat st;
	int fd;

	memset(in, 0, sizeof(*in));
	in->name = name;
	if (strcmp(name, "-") && (fd = open(name, O_RDONLY)) >= 0) {
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
			if ((size_t)st.st_size > cap) {
				close(fd);
				return ebs_fail(err, EBS_ERR_TOO_BIG,
						"'%s' is over the %zu MiB limit",
						name, cap >> 20);
			}
			in->data = mmap(NULL, (size_t)st.st_size, PROT_READ,
					MAP_PRIVATE, fd, 0);
			if (in->data != MAP_FAILED) {
				close(fd);
				in->len = (size_t)st.st_size;
				in->mapped = 1;
				(void)madvise(in->data, in->len, MADV_SEQUENTIAL);
				return 0;
			}
			in->data = NULL;
		}
		close(fd);
	}
	return read_file_capped(name, cap, &in->data, &in->len, err);
}

/* Give back the pages of a mapped file below offset (scanned already). */
static void input_release_before(struct input *in, size_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), upto;

	if (!in->mapped || off < in->released + RELEASE_STEP)
		return;
	upto = off / page * page;
	(void)madvise(in->data + in->released, upto - in->released,
		      MADV_DONTNEED);
	in->released = upto;
}

static void input_close(struct input *in)
{
	if (in->mapped)
		munmap(in->data, in->len);
	else
		free(in->data);
	in->data = NULL;
}

/* ------------------------------------------------------------ helpers */

/* Print a warning, only the first SHOW_WARNINGS of them. */
static void warn_capped(struct scan_state *st, const char *msg)
{
	if (++st->nwarn <= SHOW_WARNINGS)
		msg_warn("%s", msg);
}

static void flush_warnings(struct scan_state *st)
{
	for (size_t i = 0; i < st->warn.n; i++)
		warn_capped(st, st->warn.msg[i]);
	inv_warnings_release(&st->warn);
	if (st->stdin_in.data)
		input_close(&st->stdin_in);
}

/*
 * The region of an availability zone: the zone up to the end of its first
 * digit run ("us-east-1a" -> "us-east-1", "us-west-2-lax-1a" ->
 * "us-west-2").  0, or -1 when az does not look like a zone.
 */
static int region_of_az(const char *az, char *out, size_t n)
{
	size_t i = strcspn(az, "0123456789"), j;

	if (!az[i] || i < 4)
		return -1;
	j = i + strspn(az + i, "0123456789");
	if (j + 1 > n || j > 30)
		return -1;
	for (size_t k = 0; k < j; k++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-", az[k]))
			return -1;
	memcpy(out, az, j);
	out[j] = '\0';
	return 0;
}

/* 1 when az is safe to paste into a command (a-z, 0-9, '-'). */
static int az_ok(const char *az)
{
	return az && *az && strlen(az) < 24 &&
	       strspn(az, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(az);
}

/* Prices of a region, loaded once; NULL when the database has none. */
static struct region_prices *prices_for(struct scan_state *st,
					const char *region)
{
	struct region_prices *rp;
	char err[EBS_ERRLEN];

	for (size_t i = 0; i < st->nrp; i++)
		if (!strcmp(st->rp[i].region, region))
			return &st->rp[i];
	xgrow((void **)&st->rp, &st->arp, st->nrp + 1, sizeof(*st->rp));
	rp = &st->rp[st->nrp++];
	memset(rp, 0, sizeof(*rp));
	xsnprintf(rp->region, sizeof(rp->region), "%s", region);
	rp->ok = !db_load_prices(st->ctx->db, region, NULL, &rp->ps, err);
	return rp;
}

static struct vol_extra *extra_for(struct scan_state *st, const char *id)
{
	struct vol_extra *x = strmap_get(&st->extra, id);

	if (!x) {
		x = xcalloc(1, sizeof(*x));
		strmap_put(&st->extra, id, x);
	}
	return x;
}

/* The --exclude-tag rule (K or K=V) a tag list matches, or NULL. */
static const char *excluded_by(const struct scan_args *a,
			       const struct inv_tag *t, size_t nt)
{
	for (size_t i = 0; i < a->nexcl; i++) {
		const char *eq = strchr(a->excl[i], '=');
		size_t klen = eq ? (size_t)(eq - a->excl[i]) : strlen(a->excl[i]);

		for (size_t j = 0; j < nt; j++) {
			if (strlen(t[j].key) != klen ||
			    memcmp(t[j].key, a->excl[i], klen) ||
			    (eq && strcmp(t[j].value, eq + 1)))
				continue;
			return a->excl[i];
		}
	}
	return NULL;
}

/* One shared copy of a short string (regions, zones: a few dozen). */
static const char *intern(struct scan_state *st, const char *s)
{
	char *v = strmap_get(&st->strings, s);

	if (!v) {
		v = xstrdup(s);
		strmap_put(&st->strings, s, v);
	}
	return v;
}

static void free_val(const char *key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

static const char *tag_value(const struct inv_tag *t, size_t nt,
			     const char *key)
{
	for (size_t i = 0; key && i < nt; i++)
		if (!strcmp(t[i].key, key))
			return t[i].value;
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* ------------------------------------------------------------ analysis */

/*
 * 1 (after counting and warning, naming file, volume and rule) when cfg
 * breaks the volume rules of its type (T1: sizes, IOPS, IOPS per GiB);
 * such a record is not a real volume and is never priced.
 */
static int illegal_volume(struct scan_state *st, const char *file,
			  const char *id, const struct vol_config *cfg)
{
	char why[256], msg[512];

	if (!model_validate(&st->lim[cfg->type], cfg, NULL, why, sizeof(why)))
		return 0;
	st->skipped++;
	xsnprintf(msg, sizeof(msg), "'%s': volume '%s' (%s %ld GiB): %s; skipped",
		  file, id, model_type_name(cfg->type), cfg->size_gib, why);
	warn_capped(st, msg);
	return 1;
}

/*
 * Analyse one volume (from describe-volumes or a PV, read from file) and
 * keep its finding; a volume breaking the rules of its type is warned
 * about and skipped.  Returns 0, or 1 after a fatal error (printed).
 */
static int analyse(struct scan_state *st, const char *file,
		   const struct scan_volume *sv,
		   const struct inv_tag *tags, size_t ntags,
		   const struct inv_pv *pv)
{
	struct region_prices *rp = prices_for(st, sv->region);
	struct scan_finding f;
	const char *why;
	char err[EBS_ERRLEN];
	struct rec *r;
	int rc;

	if (!rp->ok) {
		rp->skipped++;
		return 0;
	}
	if (illegal_volume(st, file, sv->id, &sv->cfg))
		return 0;
	st->scanned++;
	if ((why = excluded_by(st->a, tags, ntags)))
		rc = scan_excluded(sv, &rp->ps, why, &f, err);
	else
		rc = scan_analyze(sv, &rp->ps, st->lim, &st->a->opts, &f, err);
	if (rc < 0) {
		msg_error("%s", err);
		return 1;
	}
	if (rc == 0)
		return 0;
	xgrow((void **)&st->recs, &st->arecs, st->nrecs + 1, sizeof(*st->recs));
	r = &st->recs[st->nrecs++];
	memset(r, 0, sizeof(*r));
	r->f = f;
	xsnprintf(r->id, sizeof(r->id), "%s", sv->id);
	r->region = intern(st, sv->region);
	r->az = az_ok(sv->az) ? intern(st, sv->az) : NULL;
	r->name = dup_or_null(tag_value(tags, ntags, "Name"));
	if (st->a->by_tag)
		r->group = dup_or_null(tag_value(tags, ntags, st->a->by_tag));
	if (pv) {
		r->ns = dup_or_null(pv->ns);
		r->pvc = dup_or_null(pv->pvc);
	}
	r->kms = dup_or_null(f.kms_key_id);
	r->f.kms_key_id = r->kms;
	return 0;
}

/* Fill usage and load of sv from the --usage and --metrics inputs. */
static void attach_extra(struct scan_state *st, const char *file,
			 struct scan_volume *sv)
{
	struct vol_extra *x = strmap_get(&st->extra, sv->id);
	char msg[512];

	sv->used_gib = -1;
	sv->load = NULL;
	if (!x)
		return;
	x->matched = 1;
	if (x->have_load)
		sv->load = &x->load;
	if (!x->have_usage)
		return;
	if (x->used_gib > (double)sv->cfg.size_gib) {
		xsnprintf(msg, sizeof(msg),
			  "'%s': volume '%s' uses %g GiB by '%s', more than its %ld GiB; usage ignored",
			  file, sv->id, x->used_gib, st->a->usage, sv->cfg.size_gib);
		warn_capped(st, msg);
		return;
	}
	sv->used_gib = x->used_gib;
}

/*
 * 1 (after counting and, where useful, warning) when v is not to be
 * analysed; else 0 with its region in region.
 */
static int skip_volume(struct scan_state *st, const struct inv_volume *v,
		       char *region, size_t n)
{
	const char *file = st->cur->name;
	const char *prev;
	char msg[512];

	if (v->problem) {
		if (v->id)
			xsnprintf(msg, sizeof(msg), "'%s': volume '%s' (line %zu): %s; skipped",
				  file, v->id, v->line, v->problem);
		else
			xsnprintf(msg, sizeof(msg), "'%s': volume #%zu (line %zu): %s; skipped",
				  file, v->index + 1, v->line, v->problem);
	} else if ((prev = strmap_put(&st->seen, v->id, st->cur_name))) {
		strmap_put(&st->seen, v->id, (void *)(uintptr_t)prev);  /* first wins */
		xsnprintf(msg, sizeof(msg), "'%s': duplicate volume '%s' (line %zu), already read from '%s'; counted once",
			  file, v->id, v->line, prev);
	} else if (region_of_az(v->az, region, n)) {
		xsnprintf(msg, sizeof(msg), "'%s': volume '%s' (line %zu): \"AvailabilityZone\" is not a zone; skipped",
			  file, v->id, v->line);
	} else if (st->ctx->region_from_opt && strcmp(region, st->ctx->region)) {
		st->other_region++;
		return 1;
	} else if (v->state && strcmp(v->state, "in-use") &&
		   strcmp(v->state, "available")) {
		st->skipped++;    /* creating, deleting, error: nothing to change */
		return 1;
	} else {
		return 0;
	}
	st->skipped++;
	warn_capped(st, msg);
	return 1;
}

/*
 * The inventory_each_volume callback: skip what skip_volume rejects, then
 * analyse the volume with its usage, metrics and Kubernetes claim.
 * Returns 0 to go on, 1 after a fatal error (printed).
 */
static int on_volume(const struct inv_volume *v, void *arg)
{
	struct scan_state *st = arg;
	struct scan_volume sv = { 0 };
	struct inv_pv *pv;
	char region[32], msg[512];

	input_release_before(st->cur, v->end_offset);
	if (skip_volume(st, v, region, sizeof(region)))
		return 0;
	sv.id = v->id;
	sv.region = region;
	sv.az = v->az;
	sv.cfg.type = v->type;
	sv.cfg.size_gib = v->size_gib;
	sv.cfg.iops = v->type == VT_GP3 || v->type == VT_IO1 || v->type == VT_IO2 ?
		v->iops : 0;
	sv.cfg.throughput_mibps = v->type == VT_GP3 ? v->throughput_mibps : 0;
	sv.cfg.count = 1;
	model_apply_defaults(&st->lim[v->type], &sv.cfg);
	/* only a volume AWS says is available is unattached: a record
	 * without State (a trimmed export) is never proposed for deletion */
	sv.available = v->state && !strcmp(v->state, "available");
	if (!v->state) {
		xsnprintf(msg, sizeof(msg), "'%s': volume '%s' (line %zu): missing \"State\"; treated as in use (no delete proposed)",
			  st->cur->name, v->id, v->line);
		warn_capped(st, msg);
	}
	sv.multi_attach = v->multi_attach;
	sv.encrypted = v->encrypted;
	sv.kms_key_id = v->kms_key_id;
	attach_extra(st, st->cur->name, &sv);
	pv = strmap_get(&st->pv_by_id, v->id);
	if (pv)
		pv->index = (size_t)-1;   /* seen: not analysed again from the PV */
	return analyse(st, st->cur->name, &sv, v->tags, v->ntags, pv);
}

/* The StorageClass named name, or NULL. */
static const struct inv_sc *find_sc(const struct inv_k8s *k, const char *name)
{
	for (size_t i = 0; name && i < k->nsc; i++)
		if (!strcmp(k->sc[i].name, name))
			return &k->sc[i];
	return NULL;
}

/*
 * A PV that describe-volumes did not cover: its configuration from its
 * StorageClass (K1 rules: iopsPerGB x GiB capped at the type maximum).
 */
static int analyse_pv(struct scan_state *st, const struct inv_pv *pv)
{
	const struct inv_sc *sc = find_sc(&st->k8s, pv->storage_class);
	struct scan_volume sv = { 0 };
	const struct volume_limits *lim;
	char region[32], msg[512];
	double iops;

	if (!sc) {
		st->skipped++;
		xsnprintf(msg, sizeof(msg), "'%s': persistent volume '%s' (%s): storage class '%s' not given (kubectl get storageclass -o json); skipped",
			  pv->file, pv->name, pv->vol_id,
			  pv->storage_class ? pv->storage_class : "(none)");
		warn_capped(st, msg);
		return 0;
	}
	if (strmap_get(&st->seen, pv->vol_id))
		return 0;
	strmap_put(&st->seen, pv->vol_id, pv->file);
	if (!pv->az || region_of_az(pv->az, region, sizeof(region))) {
		xsnprintf(region, sizeof(region), "%s", st->ctx->region);
		xsnprintf(msg, sizeof(msg), "'%s': persistent volume '%s' (%s): no zone; priced in region '%s' (give describe-volumes output or --region)",
			  pv->file, pv->name, pv->vol_id, region);
		warn_capped(st, msg);
	}
	if (st->ctx->region_from_opt && strcmp(region, st->ctx->region)) {
		st->other_region++;
		return 0;
	}
	lim = &st->lim[sc->type];
	sv.id = pv->vol_id;
	sv.region = region;
	sv.az = pv->az;
	sv.cfg.type = sc->type;
	sv.cfg.size_gib = pv->size_gib;
	sv.cfg.count = 1;
	iops = sc->iops ? (double)sc->iops : sc->iops_per_gb * (double)pv->size_gib;
	if (lim->min_iops > 0 && iops > 0) {
		iops = fmin(iops, fmin((double)lim->max_iops,
				       lim->max_iops_per_gib * (double)pv->size_gib));
		if (sc->auto_iops_increase || sc->type == VT_GP3)
			iops = fmax(iops, (double)lim->min_iops);
		sv.cfg.iops = (long)iops;
	}
	if (sc->type == VT_GP3)
		sv.cfg.throughput_mibps = sc->throughput_mibps;
	model_apply_defaults(lim, &sv.cfg);
	if ((sc->type == VT_IO1 || sc->type == VT_IO2) && sv.cfg.iops < lim->min_iops) {
		st->skipped++;
		xsnprintf(msg, sizeof(msg), "'%s': persistent volume '%s' (%s): storage class '%s' gives no usable IOPS for %s; skipped",
			  pv->file, pv->name, pv->vol_id, sc->name, model_type_name(sc->type));
		warn_capped(st, msg);
		return 0;
	}
	attach_extra(st, pv->file, &sv);
	return analyse(st, pv->file, &sv, NULL, 0, pv);
}

/* ------------------------------------------------------------ loading */

/* The small inputs first: Kubernetes, metrics, usage. */
static int load_small(struct scan_state *st, struct input *in, enum inv_kind kind)
{
	int rc = 0;

	if (kind == INV_K8S)
		rc = inventory_parse_k8s(in->name, in->data, in->len, &st->k8s,
					 &st->warn, st->err);
	else if (kind == INV_METRICS)
		rc = inventory_parse_metrics(in->name, in->data, in->len,
					     &st->metrics, &st->warn, st->err);
	return rc;
}

/* Group the metric series by volume and summarise each volume's load. */
static void index_metrics(struct scan_state *st)
{
	for (size_t i = 0; i < st->metrics.n; i++) {
		const struct inv_series *s = &st->metrics.s[i];
		struct vol_extra *x = extra_for(st, s->vol_id);

		xgrow((void **)&x->s, &x->as, x->ns + 1, sizeof(*x->s));
		x->s[x->ns++] = s;
		x->file = s->file;
	}
}

/* strmap_each callback: a volume's series into its scan_load. */
static void summarise_one(const char *key, void *val, void *arg)
{
	struct vol_extra *x = val;
	struct scan_state *st = arg;
	char msg[512];

	if (!x->ns)
		return;
	if (scan_load_from_series(x->s, x->ns, &x->load)) {
		xsnprintf(msg, sizeof(msg), "'%s': metrics of '%s' mix periods; only those at %ld s are used",
			  x->file, key, x->load.period_s);
		warn_capped(st, msg);
	}
	x->have_load = 1;
}

/* The usage rows by volume id; a volume listed twice keeps the last. */
static void index_usage(struct scan_state *st)
{
	char msg[512];

	for (size_t i = 0; i < st->usage.n; i++) {
		const struct inv_usage_row *u = &st->usage.row[i];
		struct vol_extra *x = extra_for(st, u->vol_id);

		if (x->have_usage) {
			xsnprintf(msg, sizeof(msg), "'%s': line %zu: volume '%s' listed again; the last value is used",
				  st->a->usage, u->line, u->vol_id);
			warn_capped(st, msg);
		}
		x->have_usage = 1;
		x->used_gib = u->used_gib;
		if (!x->file)
			x->file = st->a->usage;
	}
}

/* strmap_each callback: metrics or usage no inventory volume claimed. */
static void warn_unmatched(const char *key, void *val, void *arg)
{
	struct vol_extra *x = val;
	struct scan_state *st = arg;
	char msg[512];

	if (x->matched || (st->ctx->region_from_opt && strmap_get(&st->seen, key)))
		return;
	xsnprintf(msg, sizeof(msg), "'%s': %s for volume '%s', which is not in the inventory; ignored",
		  x->file, x->ns ? "metrics" : "usage", key);
	warn_capped(st, msg);
}

static int open_input(struct input *in, const char *name, size_t cap)
{
	char err[EBS_ERRLEN];

	if (input_open(in, name, cap, err)) {
		msg_error("%s", err);
		return 1;
	}
	return 0;
}

/*
 * Pass 1: every input except describe-volumes (classified by content),
 * then the metrics and usage indexes.  Returns 0 or 1 (printed).
 */
static int load_side_inputs(struct scan_state *st, const struct scan_args *a,
			    char *kinds)
{
	struct input in;
	enum inv_kind k;
	int rc;

	for (size_t i = 0; i < a->nfiles + a->nmetrics; i++) {
		const char *name = i < a->nfiles ? a->files[i] : a->metrics[i - a->nfiles];

		if (open_input(&in, name, i < a->nfiles ? INV_VOLUMES_CAP : INV_SMALL_CAP))
			return 1;
		k = inventory_detect(in.data, in.len);
		if (i >= a->nfiles && k != INV_METRICS)
			k = INV_METRICS;   /* --metrics: say why it is not */
		if (i < a->nfiles)
			kinds[i] = (char)k;
		if (k == INV_UNKNOWN) {
			input_close(&in);
			msg_error("'%s' is not describe-volumes, kubectl or CloudWatch get-metric-data JSON",
				  name);
			return 1;
		}
		if (k == INV_VOLUMES && !strcmp(name, "-") && !st->stdin_in.data) {
			st->stdin_in = in;   /* cannot be read twice: keep it */
			continue;
		}
		rc = k == INV_VOLUMES ? 0 : load_small(st, &in, k);
		input_close(&in);
		if (rc) {
			msg_error("%s", st->err);
			return 1;
		}
		flush_warnings(st);
	}
	if (a->usage) {
		if (open_input(&in, a->usage, INV_SMALL_CAP))
			return 1;
		rc = inventory_parse_usage(a->usage, in.data, in.len, &st->usage, st->err);
		input_close(&in);
		if (rc) {
			msg_error("%s", st->err);
			return 1;
		}
	}
	index_metrics(st);
	strmap_each(&st->extra, summarise_one, st);
	index_usage(st);
	for (size_t i = 0; i < st->k8s.npv; i++)
		strmap_put(&st->pv_by_id, st->k8s.pv[i].vol_id, &st->k8s.pv[i]);
	return 0;
}

/* Pass 2: stream the describe-volumes files, then the PVs not covered. */
static int scan_volumes(struct scan_state *st, const struct scan_args *a,
			const char *kinds)
{
	struct input in;
	int rc;

	for (size_t i = 0; i < a->nfiles; i++) {
		if (kinds[i] != INV_VOLUMES)
			continue;
		if (msg_progress_enabled())
			msg_progress("scanning '%s'", a->files[i]);
		if (!strcmp(a->files[i], "-") && st->stdin_in.data) {
			in = st->stdin_in;
			st->stdin_in.data = NULL;
		} else if (open_input(&in, a->files[i], INV_VOLUMES_CAP)) {
			return 1;
		}
		st->cur = &in;
		st->cur_name = xstrdup(in.name);
		xgrow((void **)&st->names, &st->anames, st->nnames + 1, sizeof(*st->names));
		st->names[st->nnames++] = st->cur_name;
		rc = inventory_each_volume(in.name, in.data, in.len, on_volume,
					   st, st->err);
		input_close(&in);
		if (rc) {
			msg_progress_done();
			if (rc != 1)
				msg_error("%s", st->err);
			return 1;
		}
	}
	msg_progress_done();
	for (size_t i = 0; i < st->k8s.npv; i++)
		if (st->k8s.pv[i].index != (size_t)-1 && analyse_pv(st, &st->k8s.pv[i]))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ output */

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->f.save_usd != y->f.save_usd)
		return x->f.save_usd < y->f.save_usd ? 1 : -1;
	return strcmp(x->id, y->id);
}

/* "gp3 2,000 GiB 6,000 IOPS 250 MiB/s" for the human table. */
static void describe(const struct vol_config *c, char *buf, size_t n)
{
	if (!c->count) {
		xsnprintf(buf, n, "delete (after a snapshot)");
		return;
	}
	if (c->type == VT_GP3)
		xsnprintf(buf, n, "gp3 %ld GiB %ld IOPS %ld MiB/s", c->size_gib,
			  c->iops, c->throughput_mibps);
	else if (c->iops)
		xsnprintf(buf, n, "%s %ld GiB %ld IOPS", model_type_name(c->type),
			  c->size_gib, c->iops);
	else
		xsnprintf(buf, n, "%s %ld GiB", model_type_name(c->type), c->size_gib);
}

/* The five cells of config_cols; none: a proposal that is no volume. */
static void config_cells(struct out_table *t, const struct vol_config *c,
			 double usd, int none)
{
	if (none) {
		out_null(t);
		out_null(t);
		out_null(t);
		out_null(t);
	} else {
		out_str_ref(t, model_type_name(c->type));
		out_int(t, c->size_gib);
		if (c->iops)
			out_int(t, c->iops);
		else
			out_null(t);
		if (c->throughput_mibps)
			out_int(t, c->throughput_mibps);
		else
			out_null(t);
	}
	out_num(t, usd);
}

static void config_cols(struct out_table *t, const char *prefix)
{
	char k[64];

	xsnprintf(k, sizeof(k), "%s.type", prefix);
	out_col(t, k, k, OUT_TEXT);
	xsnprintf(k, sizeof(k), "%s.size_gib", prefix);
	out_col(t, k, k, OUT_INT);
	xsnprintf(k, sizeof(k), "%s.iops", prefix);
	out_col(t, k, k, OUT_INT);
	xsnprintf(k, sizeof(k), "%s.throughput_mibps", prefix);
	out_col(t, k, k, OUT_INT);
	xsnprintf(k, sizeof(k), "%s.monthly_usd", prefix);
	out_col(t, k, k, OUT_USD);
}

static void str_or_null(struct out_table *t, char *s)
{
	out_str(t, s);
	free(s);
}

/*
 * One row of the full findings list (JSON and CSV).  Strings that outlive
 * the render (the recs, interned regions, static names) are not copied.
 */
static void full_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	const struct rec *r = &st->recs[row];
	const struct scan_finding *f = &r->f;
	int k8s = r->ns || r->pvc;
	int none = f->cat == SCAN_EXCLUDED || f->cat == SCAN_UNATTACHED;
	char why[320];

	scan_reason(f, why, sizeof(why));
	out_str_ref(t, r->id);
	out_str_ref(t, r->name);
	out_str_ref(t, r->group);
	out_str_ref(t, r->ns);
	out_str_ref(t, r->pvc);
	str_or_null(t, k8s ? scan_vac_manifest(f) : NULL);
	str_or_null(t, k8s ? scan_kubectl_patch(f, r->ns, r->pvc) : NULL);
	out_str_ref(t, r->region);
	out_str_ref(t, r->az);
	out_str_ref(t, scan_cat_name(f->cat));
	config_cells(t, &f->cur, f->cur_usd, 0);
	config_cells(t, &f->prop, f->prop_usd, none);
	out_bool(t, f->new_volume);
	out_num(t, f->save_usd);
	out_num(t, scan_usd(f->save_usd * 12));
	out_num(t, f->extra_usd);
	out_str_ref(t, f->cat == SCAN_EXCLUDED ? NULL : scan_level_name(f->risk));
	out_str_ref(t, scan_level_name(f->confidence));
	if (f->cliff_s >= 0)
		out_num(t, floor(f->cliff_s));
	else
		out_null(t);
	out_str(t, why);
	str_or_null(t, f->new_volume && !r->az ? NULL :
		    scan_command(f, r->id, r->region, r->az));
	if (f->alarm_pct > 0 && f->cat != SCAN_EXCLUDED) {
		out_num(t, f->alarm_pct);
		out_num(t, floor(f->alarm_lead_s));
		out_num(t, f->alarm_load_iops);
		str_or_null(t, scan_alarm_command(f, r->id, r->region));
	} else {
		out_null(t);
		out_null(t);
		out_null(t);
		out_null(t);
	}
}

/* The full findings list (JSON and CSV), rendered row by row. */
static void full_findings(struct out_doc *doc, struct scan_state *st)
{
	struct out_table *t = out_list(doc, "findings", "Findings");
	static const char *const cols[] = {
		"volume_id", "name", "tag", "k8s.namespace", "k8s.pvc",
		"k8s.volume_attributes_class", "k8s.patch_command", "region",
		"availability_zone", "category",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		out_col(t, cols[i], cols[i], OUT_TEXT);
	config_cols(t, "current");
	config_cols(t, "proposed");
	out_col(t, "proposed.new_volume", "proposed.new_volume", OUT_BOOL);
	out_col(t, "savings.monthly_usd", "savings.monthly_usd", OUT_USD);
	out_col(t, "savings.annual_usd", "savings.annual_usd", OUT_USD);
	out_col(t, "extra_cost.monthly_usd", "extra_cost.monthly_usd", OUT_USD);
	out_col(t, "risk", "risk", OUT_TEXT);
	out_col(t, "confidence", "confidence", OUT_TEXT);
	out_col(t, "cliff_seconds", "cliff_seconds", OUT_INT);
	out_col(t, "reason", "reason", OUT_TEXT);
	out_col(t, "command", "command", OUT_TEXT);
	out_col(t, "alarm.threshold_pct", "alarm.threshold_pct", OUT_INT);
	out_col(t, "alarm.lead_seconds", "alarm.lead_seconds", OUT_INT);
	out_col(t, "alarm.load_iops", "alarm.load_iops", OUT_INT);
	out_col(t, "alarm.command", "alarm.command", OUT_TEXT);
	out_rows_on_demand(t, st->nrecs, full_row, st);
}

/*
 * Tag values and names are user-controlled: in the human formats, control
 * characters (newlines, terminal escapes) become '?' so that a value stays
 * one cell.  JSON and CSV get them exactly (escaped / quoted by out.c).
 */
static const char *one_line(const char *s, char *buf, size_t n)
{
	size_t i = 0;

	for (; s && *s && i + 1 < n; s++)
		buf[i++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	buf[i] = '\0';
	return buf;
}

/* One row of the compact findings table (table and md). */
static void human_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	const struct rec *r = &st->recs[row];
	const struct scan_finding *f = &r->f;
	char now[96], prop[96], who[160], clean[160];

	describe(&f->cur, now, sizeof(now));
	if (f->cat == SCAN_EXCLUDED)
		xsnprintf(prop, sizeof(prop), "(excluded)");
	else
		describe(&f->prop, prop, sizeof(prop));
	if (r->ns || r->pvc)
		xsnprintf(who, sizeof(who), "%s/%s", r->ns ? r->ns : "",
			  r->pvc ? r->pvc : "");
	else
		xsnprintf(who, sizeof(who), "%s", r->name ? r->name : "");
	out_str(t, r->id);
	out_str(t, one_line(who, clean, sizeof(clean)));
	out_str(t, r->region);
	out_str(t, scan_cat_name(f->cat));
	out_str(t, now);
	out_str(t, prop);
	out_num(t, f->cur_usd);
	out_num(t, f->save_usd);
	out_num(t, scan_usd(f->save_usd * 12));
	out_str(t, f->cat == SCAN_EXCLUDED ? "" : scan_level_name(f->risk));
	out_str(t, scan_level_name(f->confidence));
}

/* Kinds of command rows in the human output (cmd_rows: rec << 2 | kind). */
enum { CMD_FIX, CMD_ALARM, CMD_VAC };

/*
 * The fix command, the alarm command or the VolumeAttributesClass the
 * kubectl patch names (which: CMD_*) of a finding; heap string or NULL.
 */
static char *rec_command(const struct rec *r, int which)
{
	const struct scan_finding *f = &r->f;
	char *cmd = NULL;

	if (which == CMD_ALARM)
		return f->cat == SCAN_EXCLUDED ? NULL :
			scan_alarm_command(f, r->id, r->region);
	if (which == CMD_VAC)
		return scan_vac_apply_command(f);
	if (r->ns && r->pvc)
		cmd = scan_kubectl_patch(f, r->ns, r->pvc);
	if (!cmd && (!f->new_volume || r->az))
		cmd = scan_command(f, r->id, r->region, r->az);
	return cmd;
}

static void command_row(struct out_table *t, size_t row, void *arg)
{
	const struct scan_state *st = arg;
	uint32_t x = st->cmd_rows[row];
	const struct rec *r = &st->recs[x >> 2];

	out_str(t, r->id);
	str_or_null(t, rec_command(r, (int)(x & 3)));
}

/* The compact findings table and the commands (table and md). */
static void human_findings(struct out_doc *doc, struct scan_state *st)
{
	struct out_table *t = out_list(doc, "findings", "Findings (by monthly savings)");
	struct out_table *c = out_list(doc, "commands", "Commands");
	size_t alloc = 0, shown = st->nrecs;

	if (st->a->limit && (size_t)st->a->limit < shown) {
		shown = (size_t)st->a->limit;
		out_note(doc, "%zu more findings not shown (--limit 0 shows all; csv and json list all)",
			 st->nrecs - shown);
	}
	out_col(t, "volume_id", "Volume", OUT_TEXT);
	out_col(t, "who", "Name / PVC", OUT_TEXT);
	out_col(t, "region", "Region", OUT_TEXT);
	out_col(t, "category", "Finding", OUT_TEXT);
	out_col(t, "current", "Now", OUT_TEXT);
	out_col(t, "proposed", "Proposed", OUT_TEXT);
	out_col(t, "current_usd", "$/month now", OUT_USD);
	out_col(t, "monthly", "Saves $/month", OUT_USD);
	out_col(t, "annual", "Saves $/year", OUT_USD);
	out_col(t, "risk", "Risk", OUT_TEXT);
	out_col(t, "confidence", "Confidence", OUT_TEXT);
	out_rows_on_demand(t, shown, human_row, st);
	out_col(c, "volume_id", "Volume", OUT_TEXT);
	out_col(c, "command", "Command", OUT_TEXT);
	for (size_t i = 0; i < shown && i < UINT32_MAX / 4; i++) {
		const struct rec *r = &st->recs[i];
		const struct scan_finding *f = &r->f;
		int has_fix = f->cat != SCAN_EXCLUDED &&
			      (!f->new_volume || r->az);
		int has_alarm = f->cat != SCAN_EXCLUDED && f->alarm_pct > 0;
		char *patch = r->ns && r->pvc ?
			scan_kubectl_patch(f, r->ns, r->pvc) : NULL;

		xgrow((void **)&st->cmd_rows, &alloc, st->ncmd_rows + 3,
		      sizeof(*st->cmd_rows));
		/* the class first: the patch refers to it by name */
		if (patch)
			st->cmd_rows[st->ncmd_rows++] = (uint32_t)i << 2 | CMD_VAC;
		if (has_fix || patch)
			st->cmd_rows[st->ncmd_rows++] = (uint32_t)i << 2 | CMD_FIX;
		if (has_alarm)
			st->cmd_rows[st->ncmd_rows++] = (uint32_t)i << 2 | CMD_ALARM;
		free(patch);
	}
	out_rows_on_demand(c, st->ncmd_rows, command_row, st);
}

struct total {
	const char *key;
	long long volumes;
	double current, savings;
};

static struct total *total_for(struct total **t, size_t *n, size_t *alloc,
			       const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*t)[i].key, key))
			return &(*t)[i];
	xgrow((void **)t, alloc, *n + 1, sizeof(**t));
	(*t)[*n] = (struct total){ key, 0, 0, 0 };
	return &(*t)[(*n)++];
}

static int total_cmp(const void *a, const void *b)
{
	const struct total *x = a, *y = b;

	if (x->savings != y->savings)
		return x->savings < y->savings ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* One totals list: by category (0), region (1) or tag value (2). */
static void totals(struct out_doc *doc, const struct scan_state *st, int by,
		   int human)
{
	static const char *const names[] = { "totals_by_category", "totals_by_region",
					     "totals_by_tag" };
	static const char *const keys[] = { "category", "region", "tag_value" };
	static const char *const titles[] = { "Totals by category", "Totals by region",
					      "Totals by tag" };
	struct total *t = NULL;
	size_t n = 0, alloc = 0;
	struct out_table *o;

	for (size_t i = 0; i < st->nrecs; i++) {
		const struct rec *r = &st->recs[i];
		const char *key = by == 0 ? scan_cat_name(r->f.cat) :
				  by == 1 ? r->region :
				  r->group ? r->group : "(untagged)";
		struct total *x = total_for(&t, &n, &alloc, key);

		x->volumes++;
		x->current += r->f.cur_usd;
		x->savings += r->f.save_usd;
	}
	if (n)
		qsort(t, n, sizeof(*t), total_cmp);
	o = out_list(doc, names[by], titles[by]);
	out_col(o, keys[by], by == 2 ? st->a->by_tag : keys[by], OUT_TEXT);
	out_col(o, "volumes", "Volumes", OUT_INT);
	out_col(o, "current_monthly_usd", "$/month now", OUT_USD);
	out_col(o, "monthly_savings_usd", "Saves $/month", OUT_USD);
	out_col(o, "annual_savings_usd", "Saves $/year", OUT_USD);
	for (size_t i = 0; i < n; i++) {
		char clean[160];

		out_row(o);
		out_str(o, human ? one_line(t[i].key, clean, sizeof(clean)) : t[i].key);
		out_int(o, t[i].volumes);
		out_num(o, scan_usd(t[i].current));
		out_num(o, scan_usd(t[i].savings));
		out_num(o, scan_usd(t[i].savings * 12));
	}
	free(t);
}

/* The root record: counts and total savings. */
static void summary(struct out_doc *doc, const struct scan_state *st)
{
	struct out_table *t = out_record(doc, "summary", "Summary");
	double save = 0;
	size_t excluded = 0;

	for (size_t i = 0; i < st->nrecs; i++) {
		save += st->recs[i].f.save_usd;
		excluded += st->recs[i].f.cat == SCAN_EXCLUDED;
	}
	out_kv_int(t, "volumes_scanned", "Volumes scanned", (long long)st->scanned);
	out_kv_int(t, "findings", "Findings", (long long)(st->nrecs - excluded));
	out_kv_int(t, "excluded", "Excluded by tag", (long long)excluded);
	out_kv_int(t, "skipped", "Skipped (see warnings)", (long long)st->skipped);
	out_kv_int(t, "other_regions", "In other regions", (long long)st->other_region);
	out_kv_num(t, "monthly_savings_usd", "Savings per month", OUT_USD, scan_usd(save));
	out_kv_num(t, "annual_savings_usd", "Savings per year", OUT_USD, scan_usd(save * 12));
	out_kv_num(t, "headroom_pct", "Headroom", OUT_PCT, st->a->opts.headroom_pct);
	out_kv_num(t, "min_savings_usd", "Minimum savings", OUT_USD,
		   st->a->opts.min_savings_usd);
}

/*
 * Sort findings by savings and render: the full list for csv/json, the
 * compact table and commands for table/md, then the totals.  Exit code.
 */
static int report(struct scan_state *st)
{
	struct out_doc *doc = out_doc_new();
	int human = st->ctx->format == OUT_TABLE || st->ctx->format == OUT_MD;
	int rc;

	if (st->nrecs)
		qsort(st->recs, st->nrecs, sizeof(*st->recs), rec_cmp);
	out_doc_notes_key(doc);
	summary(doc, st);
	if (human)
		human_findings(doc, st);
	else
		full_findings(doc, st);
	totals(doc, st, 0, human);
	totals(doc, st, 1, human);
	if (st->a->by_tag)
		totals(doc, st, 2, human);
	for (size_t i = 0; i < st->nrp; i++)
		if (!st->rp[i].ok)
			out_note(doc, "%zu volume(s) in %s skipped: no prices for that region (see ebsize pricing show)",
				 st->rp[i].skipped, st->rp[i].region);
	out_note(doc, "prices: USD on-demand per month; savings before snapshot storage; one modify-volume per volume (AWS allows 4 per 24 h)");
	rc = cli_render(st->ctx, doc);
	out_doc_free(doc);
	return rc;
}

/* ------------------------------------------------------------ queries */

struct id_list {
	char **ids;
	size_t n, alloc;
	struct input *in;
};

/* --metric-queries callback: keep the ids of usable in-use volumes. */
static int collect_id(const struct inv_volume *v, void *arg)
{
	struct id_list *l = arg;

	input_release_before(l->in, v->end_offset);
	if (v->problem || (v->state && strcmp(v->state, "in-use")))
		return 0;
	xgrow((void **)&l->ids, &l->alloc, l->n + 1, sizeof(*l->ids));
	l->ids[l->n++] = xstrdup(v->id);
	return 0;
}

/* --metric-queries: the GetMetricData queries for the in-use volumes. */
static int write_queries(const struct scan_args *a, struct cli_ctx *ctx)
{
	struct id_list l = { 0 };
	struct input in;
	char err[EBS_ERRLEN], *json = NULL;
	FILE *f;
	int rc = EXIT_RUNTIME;

	if (open_input(&in, a->queries, INV_VOLUMES_CAP))
		return EXIT_RUNTIME;
	l.in = &in;
	if (inventory_detect(in.data, in.len) != INV_VOLUMES) {
		msg_error("'%s' is not aws ec2 describe-volumes output", a->queries);
		goto out;
	}
	if (inventory_each_volume(in.name, in.data, in.len, collect_id, &l, err)) {
		msg_error("%s", err);
		goto out;
	}
	json = inventory_metric_queries((const char *const *)l.ids, l.n, a->period_s);
	if (!(f = cli_out(ctx, "scan", "GetMetricData queries"))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fputs(json, f) < 0 || fputc('\n', f) < 0) {
		cli_write_error(ctx);
		goto out;
	}
	/* GetMetricData takes at most 500 queries per call */
	if (l.n * IM_COUNT > 500)
		msg_warn("%zu queries: GetMetricData takes 500 per call; split the array (jq '.[0:500]', '.[500:1000]', ...)",
			 l.n * IM_COUNT);
	rc = EXIT_OK;
out:
	free(json);
	for (size_t i = 0; i < l.n; i++)
		free(l.ids[i]);
	free(l.ids);
	input_close(&in);
	return rc;
}

/* ------------------------------------------------------------ command */

static void state_release(struct scan_state *st)
{
	for (size_t i = 0; i < st->nrecs; i++) {
		free(st->recs[i].name);
		free(st->recs[i].group);
		free(st->recs[i].ns);
		free(st->recs[i].pvc);
		free(st->recs[i].kms);
	}
	free(st->recs);
	free(st->rp);
	free(st->cmd_rows);
	strmap_each(&st->strings, free_val, NULL);
	strmap_release(&st->strings);
	for (size_t i = 0; i < st->nnames; i++)
		free(st->names[i]);
	free(st->names);
	for (size_t i = 0; i < st->extra.cap; i++) {
		struct vol_extra *x = st->extra.slots[i].val;

		if (x)
			free(x->s);
		free(x);
	}
	strmap_release(&st->extra);
	strmap_release(&st->seen);
	strmap_release(&st->pv_by_id);
	inv_k8s_release(&st->k8s);
	inv_metrics_release(&st->metrics);
	inv_usage_release(&st->usage);
	inv_warnings_release(&st->warn);
	if (st->stdin_in.data)
		input_close(&st->stdin_in);
}

int cmd_scan(int argc, char **argv, struct cli_ctx *ctx)
{
	static struct scan_args a;
	struct scan_state st;
	char *kinds = NULL;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (a.queries)
		return write_queries(&a, ctx);
	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.a = &a;
	rc = EXIT_RUNTIME;
	for (int t = 0; t < VT_COUNT; t++)
		if (db_load_limits(ctx->db, (enum vol_type)t, NULL, &st.lim[t], st.err)) {
			msg_error("%s", st.err);
			goto out;
		}
	kinds = xcalloc(a.nfiles + 1, 1);
	if (load_side_inputs(&st, &a, kinds))
		goto out;
	if (!memchr(kinds, INV_VOLUMES, a.nfiles) && !st.k8s.npv) {
		msg_error("no volumes in the inputs: give aws ec2 describe-volumes or kubectl get pv -o json output");
		goto out;
	}
	if (scan_volumes(&st, &a, kinds))
		goto out;
	strmap_each(&st.extra, warn_unmatched, &st);
	if (st.nwarn > SHOW_WARNINGS)
		msg_warn("%zu more warnings not shown", st.nwarn - SHOW_WARNINGS);
	rc = report(&st);
out:
	free(kinds);
	state_release(&st);
	return rc;
}
