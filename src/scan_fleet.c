/*
 * scan_fleet.c - the per-volume rules of `ebsize scan` over a whole
 * inventory (include/ebsize/scan_fleet.h): skip what is not a volume to
 * change, configure PersistentVolumes from their StorageClass, attach
 * metrics and used space by volume id, honour exclusion tags, and keep one
 * finding per analysed volume.  No I/O: warnings go to f->warn, prices
 * come from a callback.  The judgement of one volume is scan.c's.
 */
#include "ebsize/scan_fleet.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/util.h"

/* Metrics and used space of one volume, found by id. */
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

void scan_fleet_init(struct scan_fleet *f, const struct volume_limits *lim,
		     const struct scan_fleet_opts *o)
{
	memset(f, 0, sizeof(*f));
	f->o = *o;
	memcpy(f->lim, lim, sizeof(f->lim));
}

static void free_val(const char *key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
}

static void free_extra(const char *key, void *val, void *arg)
{
	struct vol_extra *x = val;

	(void)key;
	(void)arg;
	free(x->s);
	free(x);
}

/* The strings a kept finding owns. */
static void rec_release(struct scan_rec *r)
{
	free(r->name);
	free(r->group);
	free(r->ns);
	free(r->pvc);
	free(r->kms);
}

void scan_fleet_release(struct scan_fleet *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nrecs; i++)
		rec_release(&f->recs[i]);
	free(f->recs);
	for (size_t i = 0; i < f->nheaps; i++) {
		for (size_t k = 0; k < f->heaps[i].n; k++)
			rec_release(&f->heaps[i].h[k]);
		free(f->heaps[i].h);
	}
	free(f->heaps);
	for (int b = 0; b < SCAN_BY_COUNT; b++) {
		free(f->by[b].t);
		strmap_release(&f->by[b].index);
	}
	free(f->groups);
	strmap_release(&f->group_index);
	free(f->files);
	free(f->no_price);
	strmap_each(&f->extra, free_extra, NULL);
	strmap_release(&f->extra);
	strmap_each(&f->strings, free_val, NULL);
	strmap_release(&f->strings);
	idset_release(&f->seen);
	strmap_release(&f->pv_by_id);
	scan_k8s_release(&f->cluster);
	scan_cluster_findings_free(f->cl, f->ncl);
	inv_warnings_release(&f->warn);
	memset(f, 0, sizeof(*f));
}

/* ------------------------------------------------------------ helpers */

/* One shared copy of a short string (regions, zones, file names). */
static const char *intern(struct scan_fleet *f, const char *s)
{
	char *v = strmap_get(&f->strings, s);

	if (!v) {
		v = xstrdup(s);
		strmap_put(&f->strings, s, v);
	}
	return v;
}

/* The index of file (interned) in f->files, added when new. */
static uint32_t file_index(struct scan_fleet *f, const char *file)
{
	const char *s = intern(f, file);

	for (size_t i = f->nfiles; i-- > 0;)
		if (f->files[i] == s)
			return (uint32_t)i;
	xgrow((void **)&f->files, &f->afiles, f->nfiles + 1, sizeof(*f->files));
	f->files[f->nfiles] = s;
	return (uint32_t)f->nfiles++;
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

int scan_region_of_az(const char *az, char *out, size_t n)
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
	       strspn(az, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
		   strlen(az);
}

static int in_other_region(const struct scan_fleet *f, const char *region)
{
	return f->o.only_region && strcmp(region, f->o.only_region);
}

static struct vol_extra *extra_for(struct scan_fleet *f, const char *id)
{
	struct vol_extra *x = strmap_get(&f->extra, id);

	if (!x) {
		x = xcalloc(1, sizeof(*x));
		strmap_put(&f->extra, id, x);
	}
	return x;
}

/* The exclusion rule (K or K=V) a tag list matches, or NULL. */
static const char *excluded_by(const struct scan_fleet *f,
			       const struct inv_tag *t, size_t nt)
{
	for (size_t i = 0; i < f->o.nexcl; i++) {
		const char *rule = f->o.excl[i], *eq = strchr(rule, '=');
		size_t klen = eq ? (size_t)(eq - rule) : strlen(rule);

		for (size_t j = 0; j < nt; j++) {
			if (strlen(t[j].key) != klen ||
			    memcmp(t[j].key, rule, klen) ||
			    (eq && strcmp(t[j].value, eq + 1)))
				continue;
			return rule;
		}
	}
	return NULL;
}

/*
 * Count a volume of region skipped for want of prices (type: of that
 * volume type only; NULL: the region has none).  A new (region, type)
 * pair is a new entry of f->no_price, which the caller reports once.
 */
static void count_no_price(struct scan_fleet *f, const char *region,
			   const char *type)
{
	struct scan_no_price *p;

	f->skipped_no_price++;
	for (size_t i = 0; i < f->nno_price; i++) {
		p = &f->no_price[i];
		if (!strcmp(p->region, region) &&
		    (p->type ? type && !strcmp(p->type, type) : !type)) {
			p->volumes++;
			return;
		}
	}
	xgrow((void **)&f->no_price, &f->ano_price, f->nno_price + 1,
	      sizeof(*f->no_price));
	p = &f->no_price[f->nno_price++];
	xsnprintf(p->region, sizeof(p->region), "%s", region);
	p->type = type ? intern(f, type) : NULL;
	p->volumes = 1;
}

/* ------------------------------------------------------------ totals */

double scan_total_money(long long micro)
{
	return (double)micro / 1e6;
}

/* Money of a finding (already to a millionth) in millionths. */
static long long micro(double usd)
{
	return llround(usd * 1e6);
}

/* The total of (key, currency) in the totals by `by`, created when new. */
static struct scan_total *total_for(struct scan_fleet *f, enum scan_by by,
				    const char *key, const char *currency)
{
	struct scan_totals *t = &f->by[by];
	char *k = NULL;
	void *at;

	if (by == SCAN_BY_CATEGORY || by == SCAN_BY_CURRENCY) {
		/* a handful of keys: a look along the list is enough */
		for (size_t i = 0; i < t->n; i++)
			if (!strcmp(t->t[i].key, key) &&
			    !strcmp(t->t[i].currency, currency))
				return &t->t[i];
	} else {
		k = xstrfmt("%s\x1f%s", key, currency);
		if ((at = strmap_get(&t->index, k))) {
			free(k);
			return &t->t[(uintptr_t)at - 1];
		}
	}
	xgrow((void **)&t->t, &t->alloc, t->n + 1, sizeof(*t->t));
	memset(&t->t[t->n], 0, sizeof(*t->t));
	t->t[t->n].key = intern(f, key);
	t->t[t->n].currency = intern(f, currency);
	if (k) {
		strmap_put(&t->index, k, (void *)(uintptr_t)(t->n + 1));
		free(k);
	}
	return &t->t[t->n++];
}

/* Every analysed volume: what it costs now, by currency and region. */
static void tally_scanned(struct scan_fleet *f, const char *region,
			  const char *currency, double cur_usd)
{
	struct scan_total *t =
	    total_for(f, SCAN_BY_CURRENCY, currency, currency);

	t->scanned++;
	t->scanned_u += micro(cur_usd);
	t = total_for(f, SCAN_BY_REGION, region, currency);
	t->scanned++;
	t->scanned_u += micro(cur_usd);
}

/* A finding into the totals by category, region, tag and currency. */
static void tally_finding(struct scan_fleet *f, const struct scan_finding *fd,
			  const char *region, const char *currency,
			  const char *group)
{
	const char *keys[SCAN_BY_COUNT] = {
		[SCAN_BY_CATEGORY] = scan_cat_name(fd->cat),
		[SCAN_BY_REGION] = region,
		[SCAN_BY_TAG] =
		    f->o.by_tag ? group ? group : "(untagged)" : NULL,
		[SCAN_BY_CURRENCY] = currency,
	};

	f->nfindings++;
	for (int b = 0; b < SCAN_BY_COUNT; b++) {
		struct scan_total *t;

		if (!keys[b])
			continue;
		t = total_for(f, (enum scan_by)b, keys[b], currency);
		t->findings++;
		t->current_u += micro(fd->cur_usd);
		t->savings_u += micro(fd->save_usd);
		t->extra_u += micro(fd->extra_usd);
	}
}

void scan_fleet_count(struct scan_fleet *f, const char *region,
		      const char *currency, double cur_usd)
{
	f->scanned++;
	tally_scanned(f, region, currency, cur_usd);
}

void scan_fleet_set_current(struct scan_fleet *f, struct scan_rec *r,
			    double cur_usd)
{
	const char *keys[SCAN_BY_COUNT] = {
		[SCAN_BY_CATEGORY] = scan_cat_name(r->f.cat),
		[SCAN_BY_REGION] = r->region,
		[SCAN_BY_TAG] =
		    f->o.by_tag ? r->group ? r->group : "(untagged)" : NULL,
		[SCAN_BY_CURRENCY] = r->currency,
	};
	long long d = micro(cur_usd) - micro(r->f.cur_usd);

	total_for(f, SCAN_BY_CURRENCY, r->currency, r->currency)->scanned_u +=
	    d;
	total_for(f, SCAN_BY_REGION, r->region, r->currency)->scanned_u += d;
	for (int b = 0; b < SCAN_BY_COUNT; b++)
		if (keys[b])
			total_for(f, (enum scan_by)b, keys[b], r->currency)
			    ->current_u += d;
	r->f.cur_usd = cur_usd;
}

/* A volume without a finding into its configuration's group (workbooks). */
static void group_unchanged(struct scan_fleet *f, const struct scan_volume *sv,
			    const char *currency, double usd)
{
	const struct vol_config *c = &sv->cfg;
	char *k = xstrfmt("%s|%d|%ld|%ld|%ld", sv->region, (int)c->type,
			  c->size_gib, c->iops, c->throughput_mibps);
	void *at = strmap_get(&f->group_index, k);
	struct scan_group *g;

	if (at) {
		f->groups[(uintptr_t)at - 1].volumes++;
		free(k);
		return;
	}
	xgrow((void **)&f->groups, &f->agroups, f->ngroups + 1,
	      sizeof(*f->groups));
	g = &f->groups[f->ngroups++];
	memset(g, 0, sizeof(*g));
	g->region = intern(f, sv->region);
	g->currency = intern(f, currency);
	g->cfg = *c;
	g->cfg.count = 1;
	g->volumes = 1;
	g->usd_each = usd;
	strmap_put(&f->group_index, k, (void *)(uintptr_t)f->ngroups);
	free(k);
}

/* ------------------------------------------------------------ kept */

int scan_rec_cmp(const struct scan_rec *x, const struct scan_rec *y)
{
	int c = strcmp(x->currency, y->currency);

	if (c)
		return !strcmp(x->currency, "USD")   ? -1
		       : !strcmp(y->currency, "USD") ? 1
						     : c;
	if (x->f.save_usd != y->f.save_usd)
		return x->f.save_usd < y->f.save_usd ? 1 : -1;
	return strcmp(x->id, y->id);
}

static int rec_qsort_cmp(const void *a, const void *b)
{
	return scan_rec_cmp(a, b);
}

static void rec_swap(struct scan_rec *a, struct scan_rec *b)
{
	struct scan_rec t = *a;

	*a = *b;
	*b = t;
}

/*
 * keep_top: each currency's findings kept in a heap with the one reported
 * last at its root (every parent comes after its children in report
 * order), so that a new finding either replaces the root or is dropped.
 */
static void heap_up(struct scan_rec *h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;

		if (scan_rec_cmp(&h[p], &h[i]) >= 0)
			return;
		rec_swap(&h[p], &h[i]);
		i = p;
	}
}

static void heap_down(struct scan_rec *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && scan_rec_cmp(&h[l], &h[m]) > 0)
			m = l;
		if (r < n && scan_rec_cmp(&h[r], &h[m]) > 0)
			m = r;
		if (m == i)
			return;
		rec_swap(&h[i], &h[m]);
		i = m;
	}
}

static struct scan_heap *heap_of(struct scan_fleet *f, const char *currency)
{
	struct scan_heap *h;

	for (size_t i = 0; i < f->nheaps; i++)
		if (f->heaps[i].currency == currency)
			return &f->heaps[i];
	xgrow((void **)&f->heaps, &f->aheaps, f->nheaps + 1, sizeof(*f->heaps));
	h = &f->heaps[f->nheaps++];
	memset(h, 0, sizeof(*h));
	h->currency = currency;
	return h;
}

/*
 * Keep the finding `probe` (every field set; its strings become the
 * fleet's): in f->recs (keep every one), else in its currency's heap, in
 * place of the one reported last when the heap is full (worth_keeping
 * said it comes before that one).
 */
static void keep(struct scan_fleet *f, const struct scan_rec *probe)
{
	struct scan_heap *h;

	if (!f->o.keep_top) {
		xgrow((void **)&f->recs, &f->arecs, f->nrecs + 1,
		      sizeof(*f->recs));
		f->recs[f->nrecs++] = *probe;
		return;
	}
	h = heap_of(f, probe->currency);
	if (h->n < f->o.keep_top) {
		xgrow((void **)&h->h, &h->alloc, h->n + 1, sizeof(*h->h));
		h->h[h->n++] = *probe;
		heap_up(h->h, h->n - 1);
		return;
	}
	rec_release(&h->h[0]);
	h->h[0] = *probe;
	heap_down(h->h, h->n, 0);
}

/* 1 when the finding probe (currency, savings and id set) is to be kept. */
static int worth_keeping(struct scan_fleet *f, const struct scan_rec *probe)
{
	struct scan_heap *h;

	if (!f->o.keep_top)
		return 1;
	h = heap_of(f, probe->currency);
	return h->n < f->o.keep_top || scan_rec_cmp(probe, &h->h[0]) < 0;
}

void scan_fleet_sort(struct scan_fleet *f)
{
	for (size_t i = 0; i < f->nheaps; i++) {
		struct scan_heap *h = &f->heaps[i];

		xgrow((void **)&f->recs, &f->arecs, f->nrecs + h->n,
		      sizeof(*f->recs));
		if (h->n)
			memcpy(f->recs + f->nrecs, h->h, h->n * sizeof(*h->h));
		f->nrecs += h->n;
		free(h->h);
		memset(h, 0, sizeof(*h));
	}
	f->nheaps = 0;
	if (f->nrecs > 1)
		qsort(f->recs, f->nrecs, sizeof(*f->recs), rec_qsort_cmp);
}

/* ------------------------------------------------------------ side inputs */

void scan_fleet_add_metrics(struct scan_fleet *f, const struct inv_metrics *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct inv_series *s = &m->s[i];
		struct vol_extra *x = extra_for(f, s->vol_id);

		xgrow((void **)&x->s, &x->as, x->ns + 1, sizeof(*x->s));
		x->s[x->ns++] = s;
		x->file = s->file;
	}
}

/* A volume's series into its scan_load, once. */
static void summarise_one(const char *key, struct vol_extra *x,
			  struct scan_fleet *f)
{
	if (!x->ns || x->have_load)
		return;
	if (scan_load_from_series(x->s, x->ns, &x->load))
		inv_warn(
		    &f->warn,
		    "'%s': metrics of '%s' mix periods; only those at %ld s are used",
		    x->file, key, x->load.period_s);
	x->have_load = 1;
}

void scan_fleet_add_usage(struct scan_fleet *f, const struct inv_usage *u)
{
	const char *file = f->o.usage_file ? f->o.usage_file : "usage";

	for (size_t i = 0; i < u->n; i++) {
		const struct inv_usage_row *r = &u->row[i];
		struct vol_extra *x = extra_for(f, r->vol_id);

		if (x->have_usage)
			inv_warn(
			    &f->warn,
			    "'%s': line %zu: volume '%s' listed again; the last value is used",
			    file, r->line, r->vol_id);
		x->have_usage = 1;
		x->used_gib = r->used_gib;
		if (!x->file)
			x->file = file;
	}
}

void scan_fleet_set_k8s(struct scan_fleet *f, const struct inv_k8s *k)
{
	f->k8s = k;
	scan_k8s_init(&f->cluster, k);
	for (size_t i = 0; i < k->npv; i++)
		strmap_put(&f->pv_by_id, k->pv[i].vol_id, &k->pv[i]);
}

/* ------------------------------------------------------------ analysis */

/*
 * 1 (after counting and warning, naming file, volume and rule) when cfg
 * breaks the volume rules of its type (T1: sizes, IOPS, IOPS per GiB);
 * such a record is not a real volume and is never priced.
 */
static int illegal_volume(struct scan_fleet *f, const char *file,
			  const char *id, const struct vol_config *cfg)
{
	char why[256];

	if (!model_validate(&f->lim[cfg->type], cfg, NULL, why, sizeof(why)))
		return 0;
	f->skipped++;
	inv_warn(&f->warn, "'%s': volume '%s' (%s %ld GiB): %s; skipped", file,
		 id, model_type_name(cfg->type), cfg->size_gib, why);
	return 1;
}

/* Count the Kubernetes plan of a finding by its method. */
static void count_plan(struct scan_fleet *f, const struct inv_pv *pv,
		       const struct scan_finding *fd)
{
	struct scan_k8s_plan p;

	if (!pv)
		return;
	scan_k8s_plan(&f->cluster, pv, fd, &p);
	f->k8s_vac += p.method == SCAN_K8S_VAC;
	f->k8s_reused += p.method == SCAN_K8S_VAC && p.reused;
	f->k8s_in_tree += p.method == SCAN_K8S_MODIFY_VOLUME;
	f->k8s_blocked += p.method == SCAN_K8S_BLOCKED;
}

/*
 * Analyse one volume (from describe-volumes or a PV, read from file) and
 * keep its finding; a volume breaking the rules of its type is warned
 * about and skipped, one that cannot be priced (its region or type has no
 * prices, or its proposal needs gp3 prices the region lacks) counted.
 * Returns 0 (err is for analyses that can fail otherwise).
 */
static int analyse(struct scan_fleet *f, const char *file,
		   const struct scan_volume *sv, const struct inv_tag *tags,
		   size_t ntags, const struct inv_pv *pv, char *err)
{
	const struct price_set *ps = f->o.prices(f->o.prices_arg, sv->region);
	struct scan_finding fd;
	struct scan_rec r;
	const char *why, *group;
	int rc;

	if (!ps || !model_type_priced(ps, sv->cfg.type)) {
		count_no_price(f, sv->region,
			       ps ? model_type_name(sv->cfg.type) : NULL);
		return 0;
	}
	if (illegal_volume(f, file, sv->id, &sv->cfg))
		return 0;
	if ((why = excluded_by(f, tags, ntags)))
		rc = scan_excluded(sv, ps, why, &fd, err);
	else
		rc = scan_analyze(sv, ps, f->lim, &f->o.rules, &fd, err);
	if (rc < 0) {
		/* a price the proposal needs (gp3 where only gp2 is priced) */
		count_no_price(f, sv->region,
			       model_type_priced(ps, VT_GP3)
				   ? model_type_name(sv->cfg.type)
				   : "gp3");
		return 0;
	}
	f->scanned++;
	tally_scanned(f, sv->region, ps->currency, fd.cur_usd);
	if (rc == 0) {
		if (f->o.group_unchanged)
			group_unchanged(f, sv, ps->currency, fd.cur_usd);
		return 0;
	}
	group = f->o.by_tag ? tag_value(tags, ntags, f->o.by_tag) : NULL;
	tally_finding(f, &fd, sv->region, ps->currency, group);
	count_plan(f, pv, &fd);
	memset(&r, 0, sizeof(r));
	r.f = fd;
	xsnprintf(r.id, sizeof(r.id), "%s", sv->id);
	r.currency = intern(f, ps->currency);
	if (!worth_keeping(f, &r))
		return 0; /* the table will not show it: no copies made */
	r.region = intern(f, sv->region);
	r.az = az_ok(sv->az) ? intern(f, sv->az) : NULL;
	r.name = dup_or_null(tag_value(tags, ntags, "Name"));
	r.group = dup_or_null(group);
	if (pv) {
		r.ns = dup_or_null(pv->ns);
		r.pvc = dup_or_null(pv->pvc);
		r.pv = pv;
	}
	r.kms = dup_or_null(fd.kms_key_id);
	r.f.kms_key_id = r.kms;
	keep(f, &r);
	return 0;
}

/* Fill used space and load of sv from the side inputs. */
static void attach_extra(struct scan_fleet *f, const char *file,
			 struct scan_volume *sv)
{
	struct vol_extra *x = strmap_get(&f->extra, sv->id);

	sv->used_gib = -1;
	sv->load = NULL;
	if (!x)
		return;
	x->matched = 1;
	summarise_one(sv->id, x, f);
	if (x->have_load)
		sv->load = &x->load;
	if (!x->have_usage)
		return;
	if (x->used_gib > (double)sv->cfg.size_gib) {
		inv_warn(
		    &f->warn,
		    "'%s': volume '%s' uses %g GiB by '%s', more than its %ld GiB; usage ignored",
		    file, sv->id, x->used_gib,
		    f->o.usage_file ? f->o.usage_file : "usage",
		    sv->cfg.size_gib);
		return;
	}
	sv->used_gib = x->used_gib;
}

/*
 * 1 (after counting and, where useful, warning) when v is not to be
 * analysed; else 0 with its region in region.
 */
static int skip_volume(struct scan_fleet *f, const char *file,
		       const struct inv_volume *v, char *region, size_t n)
{
	uint32_t prev;

	if (v->problem) {
		if (v->id)
			inv_warn(&f->warn,
				 "'%s': volume '%s' (line %zu): %s; skipped",
				 file, v->id, v->line, v->problem);
		else
			inv_warn(&f->warn,
				 "'%s': volume #%zu (line %zu): %s; skipped",
				 file, v->index + 1, v->line, v->problem);
	} else if (!idset_add(&f->seen, v->id, file_index(f, file), &prev)) {
		/* the first wins */
		inv_warn(
		    &f->warn,
		    "'%s': duplicate volume '%s' (line %zu), already read from '%s'; counted once",
		    file, v->id, v->line, f->files[prev]);
	} else if (scan_region_of_az(v->az, region, n)) {
		inv_warn(
		    &f->warn,
		    "'%s': volume '%s' (line %zu): \"AvailabilityZone\" is not a zone; skipped",
		    file, v->id, v->line);
	} else if (in_other_region(f, region)) {
		f->other_region++;
		return 1;
	} else if (v->state && strcmp(v->state, "in-use") &&
		   strcmp(v->state, "available")) {
		f->skipped++; /* creating, deleting, error: nothing to change */
		return 1;
	} else {
		return 0;
	}
	f->skipped++;
	return 1;
}

int scan_fleet_volume(struct scan_fleet *f, const char *file,
		      const struct inv_volume *v, char *err)
{
	struct scan_volume sv = { 0 };
	const struct inv_pv *pv;
	char region[32];

	if (skip_volume(f, file, v, region, sizeof(region)))
		return 0;
	sv.id = v->id;
	sv.region = region;
	sv.az = v->az;
	sv.cfg.type = v->type;
	sv.cfg.size_gib = v->size_gib;
	sv.cfg.iops = model_type_buys_iops(v->type) ? v->iops : 0;
	sv.cfg.throughput_mibps = v->type == VT_GP3 ? v->throughput_mibps : 0;
	sv.cfg.count = 1;
	model_apply_defaults(&f->lim[v->type], &sv.cfg);
	/* only a volume AWS says is available is unattached: a record
	 * without State (a trimmed export) is never proposed for deletion */
	sv.available = v->state && !strcmp(v->state, "available");
	if (!v->state)
		inv_warn(
		    &f->warn,
		    "'%s': volume '%s' (line %zu): missing \"State\"; treated as in use (no delete proposed)",
		    file, v->id, v->line);
	sv.multi_attach = v->multi_attach;
	sv.encrypted = v->encrypted;
	sv.kms_key_id = v->kms_key_id;
	attach_extra(f, file, &sv);
	pv = strmap_get(&f->pv_by_id, v->id);
	if (pv) /* covered: not analysed again from the PV */
		strmap_put(&f->pv_by_id, v->id, NULL);
	return analyse(f, file, &sv, v->tags, v->ntags, pv, err);
}

void scan_pv_config(const struct volume_limits *lim, const struct inv_sc *sc,
		    long size_gib, struct vol_config *cfg)
{
	double iops =
	    sc->iops ? (double)sc->iops : sc->iops_per_gb * (double)size_gib;

	memset(cfg, 0, sizeof(*cfg));
	cfg->type = sc->type;
	cfg->size_gib = size_gib;
	cfg->count = 1;
	if (lim->min_iops > 0 && iops > 0) {
		iops =
		    fmin(iops, fmin((double)lim->max_iops,
				    lim->max_iops_per_gib * (double)size_gib));
		if (sc->auto_iops_increase || sc->type == VT_GP3)
			iops = fmax(iops, (double)lim->min_iops);
		cfg->iops = (long)iops;
	}
	if (sc->type == VT_GP3)
		cfg->throughput_mibps = sc->throughput_mibps;
	model_apply_defaults(lim, cfg);
}

/* A PV that describe-volumes did not cover. */
static int analyse_pv(struct scan_fleet *f, const struct inv_pv *pv, char *err)
{
	const struct inv_sc *sc = scan_k8s_sc(&f->cluster, pv->storage_class);
	struct scan_volume sv = { 0 };
	const struct volume_limits *lim;
	char region[32], why[160];

	if (!sc) {
		f->skipped++;
		inv_warn(
		    &f->warn,
		    "'%s': persistent volume '%s' (%s): storage class '%s' not given (kubectl get storageclass -o json); skipped",
		    pv->file, pv->name, pv->vol_id,
		    pv->storage_class ? pv->storage_class : "(none)");
		return 0;
	}
	if (!idset_add(&f->seen, pv->vol_id, file_index(f, pv->file), NULL))
		return 0;
	if (!pv->az || scan_region_of_az(pv->az, region, sizeof(region))) {
		xsnprintf(region, sizeof(region), "%s", f->o.default_region);
		inv_warn(
		    &f->warn,
		    "'%s': persistent volume '%s' (%s): no zone; priced in region '%s' (give describe-volumes output or --region)",
		    pv->file, pv->name, pv->vol_id, region);
	}
	if (in_other_region(f, region)) {
		f->other_region++;
		return 0;
	}
	lim = &f->lim[sc->type];
	sv.id = pv->vol_id;
	sv.region = region;
	sv.az = pv->az;
	scan_pv_config(lim, sc, pv->size_gib, &sv.cfg);
	if (scan_k8s_pv_config(&f->cluster, f->lim, pv, &sv.cfg, why,
			       sizeof(why))) {
		f->skipped++;
		inv_warn(&f->warn,
			 "'%s': persistent volume '%s' (%s): %s; skipped",
			 pv->file, pv->name, pv->vol_id, why);
		return 0;
	}
	if (model_type_needs_iops(sc->type) && sv.cfg.iops < lim->min_iops) {
		f->skipped++;
		inv_warn(
		    &f->warn,
		    "'%s': persistent volume '%s' (%s): storage class '%s' gives no usable IOPS for %s; skipped",
		    pv->file, pv->name, pv->vol_id, sc->name,
		    model_type_name(sc->type));
		return 0;
	}
	attach_extra(f, pv->file, &sv);
	return analyse(f, pv->file, &sv, NULL, 0, pv, err);
}

int scan_fleet_pvs(struct scan_fleet *f, char *err)
{
	for (size_t i = 0; f->k8s && i < f->k8s->npv; i++) {
		const struct inv_pv *pv = &f->k8s->pv[i];

		if (strmap_get(&f->pv_by_id, pv->vol_id) != pv)
			continue; /* covered by describe-volumes */
		if (analyse_pv(f, pv, err))
			return -1;
	}
	return 0;
}

/* The region most PVs are in (by zone), else the default region. */
static void cluster_region(const struct scan_fleet *f, char *out, size_t n)
{
	struct strmap count = STRMAP_INIT;
	size_t best = 0, *c;
	char region[32];

	xsnprintf(out, n, "%s", f->o.default_region ? f->o.default_region : "");
	for (size_t i = 0; f->k8s && i < f->k8s->npv; i++) {
		const char *az = f->k8s->pv[i].az;

		if (!az || scan_region_of_az(az, region, sizeof(region)))
			continue;
		if (!(c = strmap_get(&count, region))) {
			c = xcalloc(1, sizeof(*c));
			strmap_put(&count, region, c);
		}
		if (++*c > best) {
			best = *c;
			xsnprintf(out, n, "%s", region);
		}
	}
	strmap_each(&count, free_val, NULL);
	strmap_release(&count);
}

void scan_fleet_cluster(struct scan_fleet *f)
{
	const struct price_set *ps = NULL;

	if (!f->k8s || !f->k8s->nsc)
		return;
	cluster_region(f, f->cl_region, sizeof(f->cl_region));
	if (f->cl_region[0])
		ps = f->o.prices(f->o.prices_arg, f->cl_region);
	scan_k8s_cluster(&f->cluster, f->cl_region, ps, &f->cl, &f->ncl);
}

/* ------------------------------------------------------------ billing */

int scan_fleet_has_volume(const struct scan_fleet *f, const char *id)
{
	return idset_get(&f->seen, id, NULL);
}

const struct idset *scan_fleet_ids(const struct scan_fleet *f)
{
	return &f->seen;
}

int scan_fleet_has_side_inputs(const struct scan_fleet *f, const char *id)
{
	const struct vol_extra *x = strmap_get(&f->extra, id);

	return x && (x->ns || x->have_usage);
}

void scan_fleet_no_price(struct scan_fleet *f, const char *region,
			 const char *type)
{
	count_no_price(f, region, type);
}

int scan_fleet_billed(struct scan_fleet *f, const char *file,
		      const struct scan_billed *b, char *err)
{
	struct scan_volume sv = { 0 };

	if (!idset_add(&f->seen, b->id, file_index(f, file), NULL))
		return 0;
	sv.id = b->id;
	sv.region = b->region;
	sv.cfg = b->cfg;
	sv.cfg.count = 1;
	model_apply_defaults(&f->lim[sv.cfg.type], &sv.cfg);
	if (illegal_volume(f, file, sv.id, &sv.cfg))
		return 0;
	attach_extra(f, file, &sv);
	return analyse(f, file, &sv, b->tags, b->ntags, NULL, err);
}

struct scan_rec *scan_fleet_keep(struct scan_fleet *f,
				 const struct scan_billed *b,
				 const char *currency,
				 const struct scan_finding *fd)
{
	struct scan_rec *r;
	const char *why = excluded_by(f, b->tags, b->ntags);
	int keeps = fd->cat == SCAN_NOT_IN_INVENTORY;

	if (!why && !keeps && fd->save_usd < f->o.rules.min_savings_usd)
		return NULL;
	xgrow((void **)&f->recs, &f->arecs, f->nrecs + 1, sizeof(*f->recs));
	r = &f->recs[f->nrecs++];
	memset(r, 0, sizeof(*r));
	r->f = *fd;
	if (why && !keeps) {
		/* as scan_excluded: the current cost, nothing proposed */
		r->f.cat = SCAN_EXCLUDED;
		r->f.excluded_by = why;
		r->f.prop = r->f.cur;
		r->f.prop_usd = r->f.cur_usd;
		r->f.save_usd = 0;
		r->f.risk = SCAN_LOW;
		r->f.confidence = SCAN_HIGH;
	}
	xsnprintf(r->id, sizeof(r->id), "%s", b->id);
	r->region = intern(f, b->region);
	r->currency = intern(f, currency);
	r->name = dup_or_null(tag_value(b->tags, b->ntags, "Name"));
	if (f->o.by_tag)
		r->group =
		    dup_or_null(tag_value(b->tags, b->ntags, f->o.by_tag));
	tally_finding(f, &r->f, r->region, r->currency, r->group);
	return r;
}

void scan_fleet_keep_all(struct scan_fleet *f)
{
	scan_fleet_sort(f);
	f->o.keep_top = 0;
}

/* strmap_each callback: metrics or usage no scanned volume claimed. */
static void warn_unmatched(const char *key, void *val, void *arg)
{
	struct vol_extra *x = val;
	struct scan_fleet *f = arg;

	if (x->matched || (f->o.only_region && idset_get(&f->seen, key, NULL)))
		return;
	inv_warn(
	    &f->warn,
	    "'%s': %s for volume '%s', which is not in the inventory; ignored",
	    x->file, x->ns ? "metrics" : "usage", key);
}

void scan_fleet_unmatched(struct scan_fleet *f)
{
	strmap_each(&f->extra, warn_unmatched, f);
}
