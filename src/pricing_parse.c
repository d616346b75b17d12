/*
 * pricing_parse.c - AWS Price List JSON to EBS price rows.
 *
 * Reads GetProducts responses (each PriceList element is a JSON document
 * inside a JSON string, so it is decoded twice) and bulk offer files for
 * one region (products + terms.OnDemand.<sku>.<sku>.<term>).  Maps every
 * product to (region, volume type, dimension, unit, price, currency,
 * range) by its usage type; see formats.md 1-2 and ebs-facts.md T9-T10.
 * Also builds GetProducts request bodies and reads awsJson1_1 error
 * bodies.  No I/O and no SQLite: bytes in, structs out.  Documents are
 * read as a stream (pricing_stream_*): bytes are pushed in as they come,
 * so an offer file of any size is read in bounded memory.
 */
#include "ebsize/pricing.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/json_stream.h"
#include "ebsize/strmap.h"
#include "ebsize/util.h"

void price_list_init(struct price_list *pl)
{
	memset(pl, 0, sizeof(*pl));
}

void price_list_release(struct price_list *pl)
{
	if (!pl)
		return;
	free(pl->items);
	memset(pl, 0, sizeof(*pl));
}

void region_table_release(struct region_table *rt)
{
	if (!rt)
		return;
	free(rt->v);
	rt->v = NULL;
	rt->n = 0;
}

/* ------------------------------------------------------------ mapping */

/*
 * Usage types after the region prefix (ebs-facts.md T10 [B1 P1 P2 P3];
 * formats.md 1.3).  Ranges follow the embedded convention: only units
 * above begin are billed.  The Price List itself lists gp3 IOPS and
 * throughput and every io2 tier as 0-Inf, so the ranges come from here:
 * gp3 3,000 IOPS and 125 MiB/s included (T3, T6 rule [W1 P3]); io2 tiers
 * 32,000 / 64,000 (T6 "io2 IOPS cost" [P1 P2 P3]).
 */
struct usage_map {
	const char *suffix;
	const char *type;
	const char *dimension;
	double begin, end;
};

static const struct usage_map usage_maps[] = {
	{ "EBS:VolumeUsage.gp2", "gp2", "storage", 0, -1 },
	{ "EBS:VolumeUsage.gp3", "gp3", "storage", 0, -1 },
	{ "EBS:VolumeUsage.piops", "io1", "storage", 0, -1 },
	{ "EBS:VolumeUsage.io2", "io2", "storage", 0, -1 },
	{ "EBS:VolumeUsage.st1", "st1", "storage", 0, -1 },
	{ "EBS:VolumeUsage.sc1", "sc1", "storage", 0, -1 },
	{ "EBS:VolumeUsage", "standard", "storage", 0, -1 },
	{ "EBS:VolumeP-IOPS.gp3", "gp3", "iops", 3000, -1 },
	{ "EBS:VolumeP-IOPS.piops", "io1", "iops", 0, -1 },
	{ "EBS:VolumeP-IOPS.io2", "io2", "iops", 0, 32000 },
	{ "EBS:VolumeP-IOPS.io2.tier2", "io2", "iops", 32000, 64000 },
	{ "EBS:VolumeP-IOPS.io2.tier3", "io2", "iops", 64000, -1 },
	{ "EBS:VolumeP-Throughput.gp3", "gp3", "throughput", 125, -1 },
	{ "EBS:VolumeIOUsage", "standard", "io", 0, -1 },
};

/*
 * Units as the Price List spells them (formats.md 1.4 gotcha 4), matched
 * case-insensitively, with the factor to the normalised unit.  GB is
 * treated as GiB (T6 "Unit GB" [R5]); GiBps-mo / 1024 = per MiB/s (T6
 * [P1 P3]); IOs are priced per request, stored per million.
 */
struct unit_map {
	const char *dimension;
	const char *unit;
	const char *normal;
	double factor;
};

static const struct unit_map unit_maps[] = {
	{ "storage", "GB-Mo", "GiB-month", 1 },
	{ "storage", "GB-month", "GiB-month", 1 },
	{ "iops", "IOPS-Mo", "IOPS-month", 1 },
	{ "iops", "IOPS-month", "IOPS-month", 1 },
	{ "throughput", "GiBps-mo", "MiBps-month", 1.0 / 1024 },
	{ "throughput", "MiBps-Mo", "MiBps-month", 1 },
	{ "io", "IOs", "per-1M-IO", 1e6 },
};

static const char *attr(const cJSON *attrs, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(attrs, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The region code of a product: regionCode, else location or the
 * usage-type prefix through the regions table.  NULL when unknown. */
static const char *product_region(const cJSON *attrs, const char *usagetype,
				  const char *ebs,
				  const struct region_table *rt)
{
	const char *code = attr(attrs, "regionCode");
	const char *loc = attr(attrs, "location");
	size_t plen = (size_t)(ebs - usagetype);

	if (code && *code)
		return code;
	for (size_t i = 0; rt && i < rt->n; i++) {
		const char *p = rt->v[i].prefix;

		if (loc && *rt->v[i].location &&
		    !strcmp(loc, rt->v[i].location))
			return rt->v[i].code;
		if (!loc && !rt->v[i].no_prefix &&
		    ((!*p && !plen) || (*p && plen == strlen(p) + 1 &&
					!strncmp(usagetype, p, plen - 1))))
			return rt->v[i].code;
	}
	return NULL;
}

static const struct usage_map *find_usage(const char *suffix)
{
	for (size_t i = 0; i < ARRAY_SIZE(usage_maps); i++)
		if (!strcmp(usage_maps[i].suffix, suffix))
			return &usage_maps[i];
	return NULL;
}

static const struct unit_map *find_unit(const char *dimension, const char *unit)
{
	for (size_t i = 0; i < ARRAY_SIZE(unit_maps); i++)
		if (!strcmp(unit_maps[i].dimension, dimension) &&
		    str_ieq(unit_maps[i].unit, unit))
			return &unit_maps[i];
	return NULL;
}

/* What one product is, before its prices are read. */
struct product {
	const char *sku;
	const char *usagetype;
	const char *region;
	const struct usage_map *um;
	double begin, end;
};

enum product_kind { PRODUCT_EBS, PRODUCT_UNKNOWN, PRODUCT_SKIPPED };

static void note_unknown(struct price_list *out, const char *what)
{
	out->unknown++;
	if (!out->first_unknown[0])
		xsnprintf(out->first_unknown, sizeof(out->first_unknown), "%s",
			  what ? what : "?");
}

/*
 * Classify a product object ({"sku", "productFamily", "attributes"}).
 * Fills p for EBS volume prices; counts unknown and skipped ones.
 */
static enum product_kind classify(const cJSON *prod,
				  const struct region_table *rt,
				  struct price_list *out, struct product *p)
{
	const cJSON *attrs =
	    cJSON_GetObjectItemCaseSensitive(prod, "attributes");
	const char *lt = attr(attrs, "locationType");
	const char *api = attr(attrs, "volumeApiName");
	const char *group = attr(attrs, "group");
	const char *ebs;
	const cJSON *sku = cJSON_GetObjectItemCaseSensitive(prod, "sku");

	memset(p, 0, sizeof(*p));
	p->sku = cJSON_IsString(sku) ? sku->valuestring : "";
	p->usagetype = attr(attrs, "usagetype");
	out->products++;
	if (!p->usagetype || !(ebs = strstr(p->usagetype, "EBS:")) ||
	    !(p->um = find_usage(ebs))) {
		note_unknown(out, p->usagetype ? p->usagetype : p->sku);
		return PRODUCT_UNKNOWN;
	}
	if (lt && strcmp(lt, "AWS Region")) {
		out->skipped++; /* Local Zones, Wavelength, Outposts */
		return PRODUCT_SKIPPED;
	}
	p->region = product_region(attrs, p->usagetype, ebs, rt);
	if (!p->region || (api && *api && strcmp(api, p->um->type))) {
		note_unknown(out, p->usagetype);
		return PRODUCT_UNKNOWN;
	}
	p->begin = p->um->begin;
	p->end = p->um->end;
	/* io2 tiers may be told apart only by group (formats.md 1.3) */
	if (!strcmp(p->um->type, "io2") && group && p->begin == 0) {
		if (!strcmp(group, "EBS IOPS Tier 2")) {
			p->begin = 32000;
			p->end = 64000;
		} else if (!strcmp(group, "EBS IOPS Tier 3")) {
			p->begin = 64000;
			p->end = -1;
		}
	}
	return PRODUCT_EBS;
}

/*
 * Append it unless the same key is there (then count a duplicate).  The
 * search is linear, so the list is capped at PRICE_LIST_MAX_ITEMS: -1
 * when it is full (nothing added).
 */
static int add_item(struct price_list *out, const struct price_item *it)
{
	for (size_t i = 0; i < out->n; i++) {
		const struct price_item *o = &out->items[i];

		if (!strcmp(o->region, it->region) &&
		    !strcmp(o->volume_type, it->volume_type) &&
		    !strcmp(o->dimension, it->dimension) &&
		    o->begin_range == it->begin_range &&
		    !strcmp(o->currency, it->currency)) {
			out->duplicates++;
			return 0;
		}
	}
	if (out->n >= PRICE_LIST_MAX_ITEMS)
		return -1;
	xgrow((void **)&out->items, &out->alloc, out->n + 1,
	      sizeof(*out->items));
	out->items[out->n++] = *it;
	return 0;
}

/* One priceDimensions entry of product p.  where names it for errors. */
static int read_dimension(const cJSON *dim, const struct product *p,
			  struct price_list *out, const char *where, char *err)
{
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(dim, "unit");
	const cJSON *ppu =
	    cJSON_GetObjectItemCaseSensitive(dim, "pricePerUnit");
	const cJSON *cur = NULL, *c;
	const struct unit_map *umap;
	struct price_item it;
	double v;

	if (!cJSON_IsString(unit) || !cJSON_IsObject(ppu))
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "%s: SKU %s: price dimension lacks \"unit\" or \"pricePerUnit\"",
		    where, p->sku);
	if (!(umap = find_unit(p->um->dimension, unit->valuestring))) {
		note_unknown(out, p->usagetype);
		return EBS_OK;
	}
	cJSON_ArrayForEach(c, ppu)
	{
		if (!cur || !strcmp(c->string, "USD"))
			cur = c;
	}
	if (!cur || strlen(cur->string) != 3)
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: SKU %s: no currency in \"pricePerUnit\"",
				where, p->sku);
	if (!cJSON_IsString(cur) || parse_double(cur->valuestring, &v))
		return ebs_fail(
		    err, EBS_ERR_PARSE, "%s: SKU %s: price is not a number: %s",
		    where, p->sku,
		    cJSON_IsString(cur) ? cur->valuestring : "(not a string)");
	if (v < 0 || !isfinite(v))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: SKU %s: negative price %s", where, p->sku,
				cur->valuestring);
	if (v == 0) {
		out->skipped++; /* zero-priced dimensions exist (1.4 #3) */
		return EBS_OK;
	}
	memset(&it, 0, sizeof(it));
	xsnprintf(it.region, sizeof(it.region), "%s", p->region);
	xsnprintf(it.volume_type, sizeof(it.volume_type), "%s", p->um->type);
	xsnprintf(it.dimension, sizeof(it.dimension), "%s", p->um->dimension);
	xsnprintf(it.unit, sizeof(it.unit), "%s", umap->normal);
	xsnprintf(it.currency, sizeof(it.currency), "%s", cur->string);
	it.price_per_unit = v * umap->factor;
	it.begin_range = p->begin;
	it.end_range = p->end;
	xsnprintf(it.sku, sizeof(it.sku), "%s", p->sku);
	xsnprintf(it.usagetype, sizeof(it.usagetype), "%s", p->usagetype);
	if (add_item(out, &it))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: SKU %s: more than %d EBS prices", where,
				p->sku, PRICE_LIST_MAX_ITEMS);
	return EBS_OK;
}

/*
 * Walk the OnDemand offers of one product: an object of
 * "<SKU>.<termCode>" -> {"priceDimensions": {...}}.  Reserved terms are
 * ignored (EBS has none).
 */
static int read_offers(const cJSON *offers, const struct product *p,
		       struct price_list *out, const char *where, char *err)
{
	const cJSON *term, *dim;
	int rc;

	if (!cJSON_IsObject(offers))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: SKU %s: no OnDemand terms", where, p->sku);
	cJSON_ArrayForEach(term, offers)
	{
		const cJSON *dims =
		    cJSON_GetObjectItemCaseSensitive(term, "priceDimensions");
		const cJSON *eff =
		    cJSON_GetObjectItemCaseSensitive(term, "effectiveDate");

		if (!cJSON_IsObject(dims))
			return ebs_fail(
			    err, EBS_ERR_PARSE,
			    "%s: SKU %s: term without \"priceDimensions\"",
			    where, p->sku);
		cJSON_ArrayForEach(dim, dims)
		{
			if ((rc = read_dimension(dim, p, out, where, err)))
				return rc;
		}
		if (cJSON_IsString(eff) && strlen(eff->valuestring) >= 10 &&
		    strncmp(eff->valuestring, out->effective, 10) > 0)
			xsnprintf(out->effective, sizeof(out->effective),
				  "%.10s", eff->valuestring);
	}
	return EBS_OK;
}

/* ------------------------------------------------------------ documents */

/* "document N: " for the second and later documents of a file, else "". */
static const char *doc_label(size_t docno)
{
	static char buf[40];

	if (docno < 2)
		return "";
	xsnprintf(buf, sizeof(buf), "document %zu: ", docno);
	return buf;
}

/* ------------------------------------------------------------ vintage */

/*
 * Keep the newest publication seen (ISO 8601 strings compare in time
 * order) with its version: the snapshot's vintage.
 */
static void note_vintage(struct price_list *out, const char *published,
			 const char *version)
{
	if (!published || !*published ||
	    strlen(published) >= sizeof(out->published))
		return;
	if (strcmp(published, out->published) <= 0)
		return;
	xsnprintf(out->published, sizeof(out->published), "%s", published);
	xsnprintf(out->version, sizeof(out->version), "%s",
		  version && strlen(version) < sizeof(out->version) ? version
								    : "");
}

/* One decoded PriceList item: {"product": ..., "terms": {"OnDemand": ...}}. */
static int read_price_item(const cJSON *item, const struct region_table *rt,
			   struct price_list *out, const char *where, char *err)
{
	const cJSON *prod = cJSON_GetObjectItemCaseSensitive(item, "product");
	const cJSON *terms = cJSON_GetObjectItemCaseSensitive(item, "terms");
	struct product p;

	if (!cJSON_IsObject(prod))
		return ebs_fail(err, EBS_ERR_PARSE, "%s: no \"product\" object",
				where);
	note_vintage(out, attr(item, "publicationDate"), attr(item, "version"));
	if (classify(prod, rt, out, &p) != PRODUCT_EBS)
		return EBS_OK;
	return read_offers(cJSON_GetObjectItemCaseSensitive(terms, "OnDemand"),
			   &p, out, where, err);
}

/* ------------------------------------------------------------ streaming */

/*
 * The document layer reads its input through json_stream: a GetProducts
 * page's PriceList strings one at a time, and an offer file product by
 * product.  Each product object is captured whole (a few KB) and, unless
 * it cannot be an EBS volume price (no "EBS:" in its bytes and no escape
 * that could hide one), parsed with cJSON and classified exactly as the
 * PriceList items are.  EBS products are held (a few hundred in a real
 * file) with the raw text of their terms.OnDemand entry; every other
 * product's terms are skipped unread.  At the end of the document the
 * held products are priced in product order, so the result is the same
 * as reading the whole document at once.  Memory: one product, the held
 * ones and the tokenizer, whatever the file size.
 */

/* Where a container sits in a Price List document. */
enum pctx { P_NONE, P_ROOT, P_PRICELIST, P_PRODUCTS, P_TERMS, P_ONDEMAND };

/* Which member of the root (or of "terms") a value belongs to. */
enum pmember {
	M_OTHER,
	M_PRICELIST,
	M_NEXTTOKEN,
	M_PRODUCTS,
	M_TERMS,
	M_ONDEMAND,
	M_VERSION,
	M_PUBLISHED,
	M_OFFERCODE
};

#define CTX_DEPTH 8
/* Largest PriceList string, product or term entry taken whole. */
#define STREAM_MAX_VALUE (8u << 20)

/* An EBS product waiting for its terms (owned copies). */
struct held {
	char *key; /* its key in "products" */
	char *sku, *usagetype, *region;
	const struct usage_map *um;
	double begin, end;
};

struct pricing_stream {
	const char *name;
	const struct region_table *rt;
	struct price_list *out;
	struct json_stream *js;
	size_t docno;
	char *last_token; /* NextToken of the last complete document */
	/* the document being read */
	enum pctx ctx[CTX_DEPTH];
	enum pmember member[CTX_DEPTH];
	int seen_pricelist, seen_products, seen_ondemand, products_done;
	size_t item; /* PriceList items so far */
	char *token;
	char version[32], published[40];
	struct held *held;
	size_t nheld, aheld;
	struct strmap held_by_key; /* key -> 1: terms wanted */
	struct strmap terms; /* key -> struct sbuf *: raw terms.OnDemand.<key> */
	size_t held_bytes;
	char cur_key[256];
};

static void free_terms(const char *key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	sbuf_release(val);
	free(val);
}

/* Forget everything about the current document. */
static void doc_reset(struct pricing_stream *ps)
{
	for (size_t i = 0; i < ps->nheld; i++) {
		struct held *h = &ps->held[i];

		free(h->key);
		free(h->sku);
		free(h->usagetype);
		free(h->region);
	}
	free(ps->held);
	ps->held = NULL;
	ps->nheld = ps->aheld = 0;
	strmap_release(&ps->held_by_key);
	strmap_each(&ps->terms, free_terms, NULL);
	strmap_release(&ps->terms);
	free(ps->token);
	ps->token = NULL;
	memset(ps->ctx, 0, sizeof(ps->ctx));
	memset(ps->member, 0, sizeof(ps->member));
	ps->seen_pricelist = ps->seen_products = ps->seen_ondemand = 0;
	ps->products_done = 0;
	ps->item = 0;
	ps->held_bytes = 0;
	ps->version[0] = ps->published[0] = '\0';
}

/* "cannot parse 'NAME': [document N: ]" into buf. */
static const char *where_doc(const struct pricing_stream *ps, char *buf,
			     size_t len)
{
	xsnprintf(buf, len, "cannot parse '%s': %s", ps->name,
		  doc_label(ps->docno));
	return buf;
}

/* The message for a document that is not a Price List document. */
static int neither(const struct pricing_stream *ps, char *err)
{
	ebs_fail(
	    err, EBS_ERR_PARSE,
	    "cannot parse '%s': document %zu is neither a GetProducts response (\"PriceList\") nor an offer file (\"products\")",
	    ps->name, ps->docno);
	return -EBS_ERR_PARSE;
}

/* Fail the stream with msg after the document prefix. */
static int stream_fail(const struct pricing_stream *ps, char *err,
		       const char *msg)
{
	char w[600];

	ebs_fail(err, EBS_ERR_PARSE, "%s%s", where_doc(ps, w, sizeof(w)), msg);
	return -EBS_ERR_PARSE;
}

/* Count against the memory held for one document. */
static int hold_bytes(struct pricing_stream *ps, size_t n, char *err)
{
	ps->held_bytes += n;
	if (ps->held_bytes <= PRICING_STREAM_MAX_HELD)
		return 0;
	return stream_fail(
	    ps, err,
	    "offer file: more than 32 MiB of product terms to hold (terms listed before the products, or too many EBS products)");
}

/* A PriceList string: decode it as JSON and read it. */
static int on_item(struct pricing_stream *ps, const char *s, size_t len,
		   char *err)
{
	char where[600], w[560];
	cJSON *item;
	int rc;

	ps->item++;
	xsnprintf(where, sizeof(where), "%sPriceList item %zu",
		  where_doc(ps, w, sizeof(w)), ps->item);
	if (!(item = cJSON_ParseWithLength(s, len))) {
		ebs_fail(err, EBS_ERR_PARSE, "%s: not valid JSON", where);
		return -EBS_ERR_PARSE;
	}
	rc = read_price_item(item, ps->rt, ps->out, where, err);
	cJSON_Delete(item);
	return rc ? -rc : JS_GO;
}

/* Is there any chance these raw bytes are an EBS volume product? */
static int maybe_ebs(const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	if (memchr(s, '\\', len))
		return 1; /* an escape could spell "EBS:" */
	while ((p = memchr(p, 'E', (size_t)(end - p))) && end - p >= 4) {
		if (!memcmp(p, "EBS:", 4))
			return 1;
		p++;
	}
	return 0;
}

/* A captured products.<key> object. */
static int on_product(struct pricing_stream *ps, const char *s, size_t len,
		      char *err)
{
	struct product p;
	struct held *h;
	cJSON *prod;
	int kind;

	if (len == 0 || s[0] != '{') {
		char m[400];

		xsnprintf(m, sizeof(m),
			  "offer file: product '%s' is not an object",
			  ps->cur_key);
		return stream_fail(ps, err, m);
	}
	if (!maybe_ebs(s, len) && ps->out->first_unknown[0]) {
		ps->out->products++; /* what classify() would conclude */
		ps->out->unknown++;
		return JS_GO;
	}
	if (!(prod = cJSON_ParseWithLength(s, len)))
		abort(); /* the tokenizer validated it: OOM */
	kind = classify(prod, ps->rt, ps->out, &p);
	if (kind != PRODUCT_EBS) {
		cJSON_Delete(prod);
		return JS_GO;
	}
	if (ps->nheld >= PRICING_STREAM_MAX_HELD_PRODUCTS) {
		cJSON_Delete(prod);
		return stream_fail(ps, err,
				   "offer file: more than 100000 EBS products");
	}
	xgrow((void **)&ps->held, &ps->aheld, ps->nheld + 1, sizeof(*ps->held));
	h = &ps->held[ps->nheld++];
	memset(h, 0, sizeof(*h));
	h->key = xstrdup(ps->cur_key);
	h->sku = xstrdup(*p.sku ? p.sku : ps->cur_key);
	h->usagetype = xstrdup(p.usagetype);
	h->region = xstrdup(p.region);
	h->um = p.um;
	h->begin = p.begin;
	h->end = p.end;
	cJSON_Delete(prod);
	strmap_put(&ps->held_by_key, h->key, (void *)(uintptr_t)1);
	return hold_bytes(ps, strlen(h->key) * 2 + strlen(h->usagetype) + 64,
			  err);
}

/*
 * A captured terms.OnDemand.<key> entry: kept when a held product has
 * that key, or while the products are not known yet (terms listed first).
 * The first entry for a key wins, as a lookup in the whole document would.
 */
static int on_terms(struct pricing_stream *ps, const char *s, size_t len,
		    char *err)
{
	struct sbuf *sb;

	if (strmap_get(&ps->terms, ps->cur_key) ||
	    (ps->products_done && !strmap_get(&ps->held_by_key, ps->cur_key)))
		return JS_GO;
	sb = xmalloc(sizeof(*sb));
	sbuf_init(sb, len + 1);
	sbuf_add(sb, s, len);
	strmap_put(&ps->terms, ps->cur_key, sb);
	return hold_bytes(ps, len, err);
}

/* Price every held product, in product order; ends the document. */
static int price_held(struct pricing_stream *ps, char *err)
{
	char where[600], w[560];
	int rc = EBS_OK;

	xsnprintf(where, sizeof(where), "%soffer file",
		  where_doc(ps, w, sizeof(w)));
	for (size_t i = 0; i < ps->nheld && !rc; i++) {
		struct held *h = &ps->held[i];
		struct product p = { h->sku, h->usagetype, h->region,
				     h->um,  h->begin,	   h->end };
		struct sbuf *raw = strmap_get(&ps->terms, h->key);
		cJSON *terms =
		    raw ? cJSON_ParseWithLength(raw->buf, raw->len) : NULL;

		rc = read_offers(terms, &p, ps->out, where, err);
		cJSON_Delete(terms);
	}
	return rc;
}

static int on_doc_end(struct pricing_stream *ps, char *err)
{
	int rc;

	if (!ps->seen_pricelist && !ps->seen_products)
		return neither(ps, err);
	if (ps->seen_products && !ps->seen_ondemand)
		return stream_fail(
		    ps, err,
		    "\"products\" or \"terms.OnDemand\" is not an object");
	if ((rc = price_held(ps, err)))
		return -rc;
	if (ps->seen_products) {
		ps->out->offer_files++;
		note_vintage(ps->out, ps->published, ps->version);
	}
	free(ps->last_token);
	ps->last_token = ps->token;
	ps->token = NULL;
	doc_reset(ps);
	return JS_GO;
}

/* A member name: what follows is read, captured or skipped. */
static int on_key(struct pricing_stream *ps, const struct js_token *t)
{
	static const struct {
		const char *name;
		enum pmember m;
	} root[] = {
		{ "PriceList", M_PRICELIST },
		{ "NextToken", M_NEXTTOKEN },
		{ "products", M_PRODUCTS },
		{ "terms", M_TERMS },
		{ "on_demand_terms", M_ONDEMAND },
		{ "version", M_VERSION },
		{ "publicationDate", M_PUBLISHED },
		{ "offerCode", M_OFFERCODE },
	};
	enum pctx parent =
	    t->depth - 1 < CTX_DEPTH ? ps->ctx[t->depth - 1] : P_NONE;

	if (t->depth < CTX_DEPTH)
		ps->member[t->depth] = M_OTHER;
	switch (parent) {
	case P_ROOT:
		for (size_t i = 0; i < ARRAY_SIZE(root); i++)
			if (!strcmp(t->s, root[i].name)) {
				ps->member[t->depth] = root[i].m;
				return JS_GO;
			}
		return JS_SKIP;
	case P_TERMS:
		if (strcmp(t->s, "OnDemand"))
			return JS_SKIP;
		ps->member[t->depth] = M_ONDEMAND;
		return JS_GO;
	case P_PRODUCTS:
		xsnprintf(ps->cur_key, sizeof(ps->cur_key), "%s", t->s);
		return JS_CAPTURE;
	case P_ONDEMAND:
		xsnprintf(ps->cur_key, sizeof(ps->cur_key), "%s", t->s);
		if (strmap_get(&ps->held_by_key, ps->cur_key) ||
		    !ps->products_done)
			return JS_CAPTURE;
		return JS_SKIP;
	default: return JS_SKIP;
	}
}

/* A container opens at depth d (its value depth). */
static int on_open(struct pricing_stream *ps, const struct js_token *t,
		   char *err)
{
	int obj = t->ev == JS_OBJECT;
	enum pmember m;

	if (t->depth == 0) {
		ps->docno++;
		if (!obj)
			return neither(ps, err);
		ps->ctx[0] = P_ROOT;
		return JS_GO;
	}
	m = t->depth < CTX_DEPTH ? ps->member[t->depth] : M_OTHER;
	if (t->depth >= CTX_DEPTH - 1)
		return JS_SKIP;
	ps->ctx[t->depth] = P_NONE;
	switch (m) {
	case M_PRICELIST:
		ps->seen_pricelist = 1;
		if (obj)
			return stream_fail(ps, err,
					   "\"PriceList\" is not an array");
		ps->ctx[t->depth] = P_PRICELIST;
		return JS_GO;
	case M_PRODUCTS:
		ps->seen_products = 1;
		if (!obj)
			return stream_fail(
			    ps, err,
			    "\"products\" or \"terms.OnDemand\" is not an object");
		ps->ctx[t->depth] = P_PRODUCTS;
		return JS_GO;
	case M_TERMS:
		ps->ctx[t->depth] = obj ? P_TERMS : P_NONE;
		return obj ? JS_GO : JS_SKIP;
	case M_ONDEMAND:
		if (!obj)
			return JS_SKIP;
		ps->seen_ondemand = 1;
		ps->ctx[t->depth] = P_ONDEMAND;
		return JS_GO;
	default: return JS_SKIP;
	}
}

/* A scalar value at depth d: a PriceList element or a root member. */
static int on_scalar(struct pricing_stream *ps, const struct js_token *t,
		     char *err)
{
	enum pctx parent = ps->ctx[t->depth - 1];
	enum pmember m = ps->member[t->depth];
	char *dst = NULL;
	size_t dlen = 0;

	if (parent == P_PRICELIST) {
		char w[560];

		if (t->ev == JS_STRING)
			return on_item(ps, t->s, t->len, err);
		ps->item++;
		ebs_fail(err, EBS_ERR_PARSE,
			 "%sPriceList item %zu: not a string",
			 where_doc(ps, w, sizeof(w)), ps->item);
		return -EBS_ERR_PARSE;
	}
	if (parent != P_ROOT)
		return JS_GO;
	switch (m) {
	case M_PRICELIST:
		ps->seen_pricelist = 1;
		return stream_fail(ps, err, "\"PriceList\" is not an array");
	case M_PRODUCTS:
		ps->seen_products = 1;
		return stream_fail(
		    ps, err,
		    "\"products\" or \"terms.OnDemand\" is not an object");
	case M_NEXTTOKEN:
		free(ps->token);
		ps->token = t->ev == JS_STRING && t->len ? xstrdup(t->s) : NULL;
		return JS_GO;
	case M_VERSION:
		dst = ps->version;
		dlen = sizeof(ps->version);
		break;
	case M_PUBLISHED:
		dst = ps->published;
		dlen = sizeof(ps->published);
		break;
	case M_OFFERCODE:
		dst = ps->out->offer_code;
		dlen = sizeof(ps->out->offer_code);
		break;
	default: return JS_GO;
	}
	if (t->ev == JS_STRING && t->len < dlen)
		xsnprintf(dst, dlen, "%s", t->s);
	return JS_GO;
}

static int on_token(void *arg, const struct js_token *t, char *err)
{
	struct pricing_stream *ps = arg;

	switch (t->ev) {
	case JS_OBJECT:
	case JS_ARRAY: return on_open(ps, t, err);
	case JS_END_OBJECT:
	case JS_END_ARRAY:
		if (t->depth < CTX_DEPTH && ps->ctx[t->depth] == P_PRODUCTS)
			ps->products_done = 1;
		return JS_GO;
	case JS_KEY: return on_key(ps, t);
	case JS_CAPTURED:
		if (ps->ctx[t->depth - 1] == P_PRODUCTS)
			return on_product(ps, t->s, t->len, err);
		return on_terms(ps, t->s, t->len, err);
	case JS_END_DOC: return on_doc_end(ps, err);
	default:
		if (t->depth == 0) {
			ps->docno++;
			return neither(ps, err);
		}
		if (t->depth >= CTX_DEPTH)
			return JS_GO;
		return on_scalar(ps, t, err);
	}
}

struct pricing_stream *pricing_stream_new(const char *name,
					  const struct region_table *rt,
					  struct price_list *out)
{
	struct pricing_stream *ps = xcalloc(1, sizeof(*ps));

	ps->name = name;
	ps->rt = rt;
	ps->out = out;
	ps->js = js_new(on_token, ps, STREAM_MAX_VALUE);
	return ps;
}

void pricing_stream_free(struct pricing_stream *ps)
{
	if (!ps)
		return;
	doc_reset(ps);
	free(ps->last_token);
	js_free(ps->js);
	free(ps);
}

/* A tokenizer message ("line N: ...") gets the name in front. */
static int stream_error(struct pricing_stream *ps, int rc, char *err)
{
	char m[EBS_ERRLEN];

	if (str_starts_with(err, "cannot parse '"))
		return rc;
	xsnprintf(m, sizeof(m), "%s", err);
	ebs_fail(err, rc, "cannot parse '%s': %s", ps->name, m);
	return rc;
}

int pricing_stream_feed(struct pricing_stream *ps, const char *buf, size_t len,
			char *err)
{
	int rc = js_feed(ps->js, buf, len, err);

	return rc ? stream_error(ps, rc, err) : EBS_OK;
}

int pricing_stream_finish(struct pricing_stream *ps, char **next_token,
			  char *err)
{
	int rc = js_finish(ps->js, err);

	if (next_token)
		*next_token = NULL;
	if (rc)
		return stream_error(ps, rc, err);
	if (next_token) {
		*next_token = ps->last_token;
		ps->last_token = NULL;
	}
	return EBS_OK;
}

int pricing_parse(const char *buf, size_t len, const char *name,
		  const struct region_table *rt, struct price_list *out,
		  char **next_token, char *err)
{
	struct pricing_stream *ps = pricing_stream_new(name, rt, out);
	int rc = pricing_stream_feed(ps, buf, len, err);

	if (!rc)
		rc = pricing_stream_finish(ps, next_token, err);
	else if (next_token)
		*next_token = NULL;
	pricing_stream_free(ps);
	return rc;
}

/* ------------------------------------------------------------ region index */

/* A region code as AWS writes them: lower-case letters, digits, '-'. */
static int region_code_ok(const char *r)
{
	size_t n = strlen(r);

	if (n < 4 || n > 31)
		return 0;
	for (; *r; r++)
		if (!((*r >= 'a' && *r <= 'z') || (*r >= '0' && *r <= '9') ||
		      *r == '-'))
			return 0;
	return 1;
}

/*
 * An offer path from the index must stay on the pricing host and under
 * /offers/v1.0/: no scheme or host, no "..", "//", query, fragment,
 * backslash, space or control character.
 */
static int offer_path_ok(const char *p)
{
	if (!str_starts_with(p, "/offers/v1.0/") || strstr(p, "..") ||
	    strstr(p, "//") || strlen(p) >= 256)
		return 0;
	for (; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f || *p == '?' ||
		    *p == '#' || *p == '\\' || *p == '%')
			return 0;
	return 1;
}

void region_index_release(struct region_index *ri)
{
	if (!ri)
		return;
	free(ri->v);
	ri->v = NULL;
	ri->n = 0;
}

int pricing_parse_region_index(const char *buf, size_t len, const char *name,
			       struct region_index *out, char *err)
{
	cJSON *doc = cJSON_ParseWithLength(buf, len);
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(doc, "regions");
	const cJSON *r;
	size_t alloc = 0;
	int rc = EBS_OK;

	memset(out, 0, sizeof(*out));
	if (!doc) {
		const char *at = cJSON_GetErrorPtr();
		size_t off =
		    at && at >= buf && at <= buf + len ? (size_t)(at - buf) : 0;

		return ebs_fail(err, EBS_ERR_PARSE,
				"cannot parse '%s': line %zu: not valid JSON",
				name, line_of_offset(buf, off));
	}
	if (!cJSON_IsObject(regions)) {
		rc = ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': no \"regions\" object (not a region index)",
		    name);
		goto out;
	}
	cJSON_ArrayForEach(r, regions)
	{
		const char *path = attr(r, "currentVersionUrl");
		struct region_index_entry *e;

		if (!region_code_ok(r->string)) {
			rc = ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': region %zu: not a region code",
			    name, out->n + 1);
			goto out;
		}
		if (!path || !offer_path_ok(path)) {
			rc = ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': region '%s': \"currentVersionUrl\" is missing or not a path under /offers/v1.0/",
			    name, r->string);
			goto out;
		}
		xgrow((void **)&out->v, &alloc, out->n + 1, sizeof(*out->v));
		e = &out->v[out->n++];
		xsnprintf(e->region, sizeof(e->region), "%s", r->string);
		xsnprintf(e->path, sizeof(e->path), "%s", path);
	}
	if (!out->n)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "cannot parse '%s': no regions listed", name);
out:
	if (rc)
		region_index_release(out);
	cJSON_Delete(doc);
	return rc;
}

/* ------------------------------------------------------------ requests */

static void add_filter(cJSON *filters, const char *field, const char *value)
{
	cJSON *f = cJSON_CreateObject();

	cJSON_AddStringToObject(f, "Type", "TERM_MATCH");
	cJSON_AddStringToObject(f, "Field", field);
	cJSON_AddStringToObject(f, "Value", value);
	cJSON_AddItemToArray(filters, f);
}

char *pricing_request_body(const char *family, const char *volume_api_name,
			   const char *region, const char *next_token)
{
	cJSON *req = cJSON_CreateObject();
	cJSON *filters = cJSON_AddArrayToObject(req, "Filters");
	char *s, *out;

	cJSON_AddStringToObject(req, "ServiceCode", "AmazonEC2");
	add_filter(filters, "productFamily", family);
	add_filter(filters, "volumeApiName", volume_api_name);
	if (region)
		add_filter(filters, "regionCode", region);
	cJSON_AddStringToObject(req, "FormatVersion", "aws_v1");
	cJSON_AddNumberToObject(req, "MaxResults", 100);
	if (next_token)
		cJSON_AddStringToObject(req, "NextToken", next_token);
	s = cJSON_PrintUnformatted(req);
	cJSON_Delete(req);
	if (!s)
		abort(); /* cJSON allocation failure: treat as OOM */
	out = xstrdup(s);
	cJSON_free(s);
	return out;
}

void pricing_parse_error_body(const char *buf, size_t len, char *code,
			      size_t code_len, char *msg, size_t msg_len)
{
	cJSON *doc = buf ? cJSON_ParseWithLength(buf, len) : NULL;
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "__type");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(doc, "message");
	const char *c, *hash;

	code[0] = msg[0] = '\0';
	if (!cJSON_IsString(m))
		m = cJSON_GetObjectItemCaseSensitive(doc, "Message");
	if (cJSON_IsString(t)) {
		c = t->valuestring;
		if ((hash = strrchr(c, '#')))
			c = hash + 1;
		xsnprintf(code, code_len, "%.*s", (int)strcspn(c, ":"), c);
	}
	if (cJSON_IsString(m))
		xsnprintf(msg, msg_len, "%s", m->valuestring);
	cJSON_Delete(doc);
}
