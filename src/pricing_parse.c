/*
 * pricing_parse.c - AWS Price List JSON to EBS price rows.
 *
 * Reads GetProducts responses (each PriceList element is a JSON document
 * inside a JSON string, so it is decoded twice) and bulk offer files for
 * one region (products + terms.OnDemand.<sku>.<sku>.<term>).  Maps every
 * product to (region, volume type, dimension, unit, price, currency,
 * range) by its usage type; see formats.md 1-2 and ebs-facts.md T9-T10.
 * Also builds GetProducts request bodies and reads awsJson1_1 error
 * bodies.  No I/O and no SQLite: bytes in, structs out.  Bulk offer files
 * are taken whole (the caller caps their size); nothing here streams.
 */
#include "ebsize/pricing.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
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
				  const char *ebs, const struct region_table *rt)
{
	const char *code = attr(attrs, "regionCode");
	const char *loc = attr(attrs, "location");
	size_t plen = (size_t)(ebs - usagetype);

	if (code && *code)
		return code;
	for (size_t i = 0; rt && i < rt->n; i++) {
		const char *p = rt->v[i].prefix;

		if (loc && *rt->v[i].location && !strcmp(loc, rt->v[i].location))
			return rt->v[i].code;
		if (!loc && !rt->v[i].no_prefix && ((!*p && !plen) ||
			     (*p && plen == strlen(p) + 1 &&
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
	const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(prod, "attributes");
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
		out->skipped++;      /* Local Zones, Wavelength, Outposts */
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
	xgrow((void **)&out->items, &out->alloc, out->n + 1, sizeof(*out->items));
	out->items[out->n++] = *it;
	return 0;
}

/* One priceDimensions entry of product p.  where names it for errors. */
static int read_dimension(const cJSON *dim, const struct product *p,
			  struct price_list *out, const char *where, char *err)
{
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(dim, "unit");
	const cJSON *ppu = cJSON_GetObjectItemCaseSensitive(dim, "pricePerUnit");
	const cJSON *cur = NULL, *c;
	const struct unit_map *umap;
	struct price_item it;
	double v;

	if (!cJSON_IsString(unit) || !cJSON_IsObject(ppu))
		return ebs_fail(err, EBS_ERR_PARSE,
				"%s: SKU %s: price dimension lacks \"unit\" or \"pricePerUnit\"",
				where, p->sku);
	if (!(umap = find_unit(p->um->dimension, unit->valuestring))) {
		note_unknown(out, p->usagetype);
		return EBS_OK;
	}
	cJSON_ArrayForEach(c, ppu) {
		if (!cur || !strcmp(c->string, "USD"))
			cur = c;
	}
	if (!cur || strlen(cur->string) != 3)
		return ebs_fail(err, EBS_ERR_PARSE, "%s: SKU %s: no currency in \"pricePerUnit\"",
				where, p->sku);
	if (!cJSON_IsString(cur) || parse_double(cur->valuestring, &v))
		return ebs_fail(err, EBS_ERR_PARSE, "%s: SKU %s: price is not a number: %s",
				where, p->sku, cJSON_IsString(cur) ? cur->valuestring : "(not a string)");
	if (v < 0 || !isfinite(v))
		return ebs_fail(err, EBS_ERR_PARSE, "%s: SKU %s: negative price %s",
				where, p->sku, cur->valuestring);
	if (v == 0) {
		out->skipped++;      /* zero-priced dimensions exist (1.4 #3) */
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
		return ebs_fail(err, EBS_ERR_PARSE, "%s: SKU %s: more than %d EBS prices",
				where, p->sku, PRICE_LIST_MAX_ITEMS);
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
		return ebs_fail(err, EBS_ERR_PARSE, "%s: SKU %s: no OnDemand terms",
				where, p->sku);
	cJSON_ArrayForEach(term, offers) {
		const cJSON *dims = cJSON_GetObjectItemCaseSensitive(term, "priceDimensions");
		const cJSON *eff = cJSON_GetObjectItemCaseSensitive(term, "effectiveDate");

		if (!cJSON_IsObject(dims))
			return ebs_fail(err, EBS_ERR_PARSE,
					"%s: SKU %s: term without \"priceDimensions\"",
					where, p->sku);
		cJSON_ArrayForEach(dim, dims) {
			if ((rc = read_dimension(dim, p, out, where, err)))
				return rc;
		}
		if (cJSON_IsString(eff) && strlen(eff->valuestring) >= 10 &&
		    strncmp(eff->valuestring, out->effective, 10) > 0)
			xsnprintf(out->effective, sizeof(out->effective), "%.10s",
				  eff->valuestring);
	}
	return EBS_OK;
}

/* ------------------------------------------------------------ documents */

/* One decoded PriceList item: {"product": ..., "terms": {"OnDemand": ...}}. */
static int read_price_item(const cJSON *item, const struct region_table *rt,
			   struct price_list *out, const char *where, char *err)
{
	const cJSON *prod = cJSON_GetObjectItemCaseSensitive(item, "product");
	const cJSON *terms = cJSON_GetObjectItemCaseSensitive(item, "terms");
	struct product p;

	if (!cJSON_IsObject(prod))
		return ebs_fail(err, EBS_ERR_PARSE, "%s: no \"product\" object", where);
	if (classify(prod, rt, out, &p) != PRODUCT_EBS)
		return EBS_OK;
	return read_offers(cJSON_GetObjectItemCaseSensitive(terms, "OnDemand"),
			   &p, out, where, err);
}

/* "document N: " for the second and later documents of a file, else "". */
static const char *doc_label(size_t docno)
{
	static char buf[40];

	if (docno < 2)
		return "";
	xsnprintf(buf, sizeof(buf), "document %zu: ", docno);
	return buf;
}

static int read_page(const cJSON *doc, const char *name,
		     const struct region_table *rt, struct price_list *out,
		     size_t docno, char *err)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "PriceList");
	const cJSON *s;
	size_t i = 0;
	char where[600];
	int rc = EBS_OK;

	if (!cJSON_IsArray(list))
		return ebs_fail(err, EBS_ERR_PARSE,
				"cannot parse '%s': %s\"PriceList\" is not an array",
				name, doc_label(docno));
	cJSON_ArrayForEach(s, list) {
		cJSON *item;

		i++;
		xsnprintf(where, sizeof(where), "cannot parse '%s': %sPriceList item %zu",
			  name, doc_label(docno), i);
		if (!cJSON_IsString(s))
			return ebs_fail(err, EBS_ERR_PARSE, "%s: not a string", where);
		item = cJSON_Parse(s->valuestring);
		if (!item)
			return ebs_fail(err, EBS_ERR_PARSE, "%s: not valid JSON", where);
		rc = read_price_item(item, rt, out, where, err);
		cJSON_Delete(item);
		if (rc)
			return rc;
	}
	return EBS_OK;
}

/* One member of terms.OnDemand, for the sorted index below. */
struct term_key {
	const char *key;
	const cJSON *item;
	size_t pos;
};

static int cmp_term_key(const void *a, const void *b)
{
	const struct term_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * The members of object od sorted by key (then position), so that every
 * product finds its terms in log time: an offer file has one term per
 * product, and a linear cJSON lookup per product is quadratic.  *n gets
 * the count; heap array (caller frees), NULL when empty.
 */
static struct term_key *term_index(const cJSON *od, size_t *n)
{
	struct term_key *ix = NULL;
	size_t alloc = 0;
	const cJSON *c;

	*n = 0;
	cJSON_ArrayForEach(c, od) {
		if (!c->string)
			continue;
		xgrow((void **)&ix, &alloc, *n + 1, sizeof(*ix));
		ix[*n].key = c->string;
		ix[*n].item = c;
		ix[*n].pos = *n;
		(*n)++;
	}
	if (*n)
		qsort(ix, *n, sizeof(*ix), cmp_term_key);
	return ix;
}

/* The first member of the index named key (as cJSON would find), or NULL. */
static const cJSON *term_find(const struct term_key *ix, size_t n,
			      const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(ix[lo].key, key) ? ix[lo].item : NULL;
}

/*
 * A bulk offer file (terms.OnDemand.<sku>) or an extract of one
 * (on_demand_terms.<sku>, as in the usw2 fixture).
 */
static int read_offer_file(const cJSON *doc, const char *name,
			   const struct region_table *rt,
			   struct price_list *out, size_t docno, char *err)
{
	const cJSON *products = cJSON_GetObjectItemCaseSensitive(doc, "products");
	const cJSON *terms = cJSON_GetObjectItemCaseSensitive(doc, "terms");
	const cJSON *od = cJSON_GetObjectItemCaseSensitive(terms, "OnDemand");
	const cJSON *prod;
	struct term_key *ix = NULL;
	size_t nix = 0;
	char where[600];
	int rc = EBS_OK;

	if (!od)
		od = cJSON_GetObjectItemCaseSensitive(doc, "on_demand_terms");
	if (!cJSON_IsObject(products) || !cJSON_IsObject(od))
		return ebs_fail(err, EBS_ERR_PARSE,
				"cannot parse '%s': %s\"products\" or \"terms.OnDemand\" is not an object",
				name, doc_label(docno));
	xsnprintf(where, sizeof(where), "cannot parse '%s': %soffer file", name,
		  doc_label(docno));
	ix = term_index(od, &nix);
	cJSON_ArrayForEach(prod, products) {
		struct product p;

		if (!cJSON_IsObject(prod)) {
			rc = ebs_fail(err, EBS_ERR_PARSE, "%s: product '%s' is not an object",
				      where, prod->string);
			goto out;
		}
		if (classify(prod, rt, out, &p) != PRODUCT_EBS)
			continue;
		if (!*p.sku)
			p.sku = prod->string;
		rc = read_offers(term_find(ix, nix, prod->string), &p, out,
				 where, err);
		if (rc)
			goto out;
	}
out:
	free(ix);
	return rc;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The NextToken of doc as a heap string, or NULL. */
static char *next_token_of(const cJSON *doc)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "NextToken");

	return cJSON_IsString(t) && *t->valuestring ? xstrdup(t->valuestring) : NULL;
}

int pricing_parse(const char *buf, size_t len, const char *name,
		  const struct region_table *rt, struct price_list *out,
		  char **next_token, char *err)
{
	const char *p = buf, *end = buf + len;
	size_t docno = 0;
	int rc = EBS_OK;

	if (next_token)
		*next_token = NULL;
	p = skip_space(p, end);
	if (p == end)
		return ebs_fail(err, EBS_ERR_PARSE, "cannot parse '%s': empty", name);
	while (p < end) {
		const char *stop = NULL;
		cJSON *doc = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);

		docno++;
		if (!doc) {
			const char *at = cJSON_GetErrorPtr();
			size_t off = at && at >= buf && at <= end ? (size_t)(at - buf) : 0;

			return ebs_fail(err, EBS_ERR_PARSE,
					"cannot parse '%s': line %zu: not valid JSON", name,
					line_of_offset(buf, off));
		}
		if (cJSON_GetObjectItemCaseSensitive(doc, "PriceList"))
			rc = read_page(doc, name, rt, out, docno, err);
		else if (cJSON_GetObjectItemCaseSensitive(doc, "products"))
			rc = read_offer_file(doc, name, rt, out, docno, err);
		else
			rc = ebs_fail(err, EBS_ERR_PARSE,
				      "cannot parse '%s': document %zu is neither a GetProducts response (\"PriceList\") nor an offer file (\"products\")",
				      name, docno);
		if (!rc && next_token) {
			free(*next_token);
			*next_token = next_token_of(doc);
		}
		cJSON_Delete(doc);
		if (rc)
			break;
		p = skip_space(stop, end);
	}
	if (rc && next_token) {
		free(*next_token);
		*next_token = NULL;
	}
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
		abort();     /* cJSON allocation failure: treat as OOM */
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
