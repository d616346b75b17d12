/*
 * inventory_parse.c - describe-volumes (streamed), kubectl PV, PVC,
 * StorageClass and VolumeAttributesClass, CloudWatch get-metric-data and
 * usage CSV: bytes in, structs out.
 *
 * describe-volumes files reach 1,000,000 volumes (500+ MB).  Instead of
 * one cJSON tree for the whole document (about 7x the file in memory),
 * cJSON parses one element of Volumes[] at a time, finding its end itself,
 * allocating from an arena that is recycled per element (json_walk.c).
 * CloudWatch data is streamed the same way (metrics_parse.c); Kubernetes
 * objects and the usage CSV are small and parsed whole.
 *
 * This file does no I/O and prints nothing; it does not price or judge.
 */
#include "ebsize/inventory.h"

#include <cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ebsize/csv.h"
#include "ebsize/util.h"
#include "json_walk.h"

/* ------------------------------------------------------------ warnings */

void inv_warn(struct inv_warnings *w, const char *fmt, ...)
{
	va_list ap;

	xgrow((void **)&w->msg, &w->alloc, w->n + 1, sizeof(*w->msg));
	va_start(ap, fmt);
	w->msg[w->n++] = xvstrfmt(fmt, ap);
	va_end(ap);
}

void inv_warnings_release(struct inv_warnings *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->msg[i]);
	free(w->msg);
	memset(w, 0, sizeof(*w));
}

int inventory_valid_kms_key(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n && n <= 2048 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789:/_-") == n;
}

int inventory_valid_volume_id(const char *s)
{
	size_t n = 0;

	if (!s || strncmp(s, "vol-", 4))
		return 0;
	for (s += 4; *s; s++, n++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return n == 8 || n == 17;
}

/* ------------------------------------------------------------ detect */

enum inv_kind inventory_detect(const char *buf, size_t len)
{
	const char *end = buf + len, *p = json_skip_ws(buf, end), *k, *fail;

	if (p >= end || *p != '{')
		return INV_UNKNOWN;
	for (p = json_skip_ws(p + 1, end); p < end && *p == '"';) {
		if (!(k = json_skip_string(p, end, &fail)))
			return INV_UNKNOWN;
		if (json_key_is(p, k, "Volumes"))
			return INV_VOLUMES;
		if (json_key_is(p, k, "MetricDataResults"))
			return INV_METRICS;
		if (json_key_is(p, k, "apiVersion") ||
		    json_key_is(p, k, "kind") || json_key_is(p, k, "items"))
			return INV_K8S;
		p = json_skip_ws(k, end);
		if (p >= end || *p != ':')
			return INV_UNKNOWN;
		if (!(p = json_skip_value(json_skip_ws(p + 1, end), end,
					  &fail)))
			return INV_UNKNOWN;
		p = json_skip_ws(p, end);
		if (p < end && *p == ',')
			p = json_skip_ws(p + 1, end);
	}
	return INV_UNKNOWN;
}

/* ------------------------------------------------------------ volumes */

struct vol_walk {
	const char *name;
	const char *buf;
	inv_volume_fn fn;
	void *arg;
	char *err;
	const char *line_pos; /* lines counted up to here ... */
	size_t line_no;	      /* ... line number at line_pos */
	struct inv_tag tags[INV_MAX_TAGS];
	char problem[256];
};

/*
 * 1-based line of p, counting forward from the last position asked about,
 * so that a walk over the whole file counts each newline once.
 */
static size_t line_at(struct vol_walk *w, const char *p)
{
	const char *q;

	if (p < w->line_pos)
		return line_of_offset(w->buf, (size_t)(p - w->buf));
	while ((q = memchr(w->line_pos, '\n', (size_t)(p - w->line_pos)))) {
		w->line_no++;
		w->line_pos = q + 1;
	}
	w->line_pos = p;
	return w->line_no;
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The members of a Volumes[] element that matter, found in one pass. */
struct vol_members {
	const cJSON *id, *type, *size, *iops, *tput, *state, *az, *att, *tags;
	const cJSON *multi, *enc, *kms;
};

static void find_members(const cJSON *o, struct vol_members *m)
{
	static const struct {
		const char *name;
		size_t off;
	} keys[] = {
		{ "VolumeId", offsetof(struct vol_members, id) },
		{ "VolumeType", offsetof(struct vol_members, type) },
		{ "Size", offsetof(struct vol_members, size) },
		{ "Iops", offsetof(struct vol_members, iops) },
		{ "Throughput", offsetof(struct vol_members, tput) },
		{ "State", offsetof(struct vol_members, state) },
		{ "AvailabilityZone", offsetof(struct vol_members, az) },
		{ "Attachments", offsetof(struct vol_members, att) },
		{ "Tags", offsetof(struct vol_members, tags) },
		{ "MultiAttachEnabled", offsetof(struct vol_members, multi) },
		{ "Encrypted", offsetof(struct vol_members, enc) },
		{ "KmsKeyId", offsetof(struct vol_members, kms) },
	};
	const cJSON *c;

	memset(m, 0, sizeof(*m));
	cJSON_ArrayForEach(c, o)
	{
		if (!c->string)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
			const cJSON **slot =
			    (const cJSON **)(void *)((char *)m + keys[i].off);

			if (c->string[0] == keys[i].name[0] &&
			    !strcmp(c->string, keys[i].name)) {
				if (!*slot) /* the first, as cJSON's lookup */
					*slot = c;
				break;
			}
		}
	}
}

static const char *mstr(const cJSON *v)
{
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * An optional whole-number member into *out (0 when absent or null).
 * Returns 0, or -1 when present with another type or out of [lo, hi].
 */
static int mlong(const cJSON *v, long lo, long hi, long *out)
{
	*out = 0;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < (double)lo || v->valuedouble > (double)hi)
		return -1;
	*out = (long)v->valuedouble;
	return 0;
}

/* Fill v from one parsed element; sets v->problem for unusable records. */
static void volume_from_json(struct vol_walk *w, const cJSON *o,
			     struct inv_volume *v)
{
	struct vol_members m;
	const char *type;
	const cJSON *t;
	char shown_buf[96];

	find_members(o, &m);
	type = mstr(m.type);
	v->id = mstr(m.id);
	v->state = mstr(m.state);
	v->az = mstr(m.az);
	v->nattachments =
	    cJSON_IsArray(m.att) ? (size_t)cJSON_GetArraySize(m.att) : 0;
	/* T1 [S4, A1]: only io1/io2 attach to several instances at once */
	v->multi_attach = cJSON_IsTrue(m.multi) || v->nattachments > 1;
	v->encrypted = cJSON_IsTrue(m.enc);
	v->kms_key_id = mstr(m.kms);
	v->ntags = 0;
	cJSON_ArrayForEach(t, m.tags)
	{
		const char *k = jstr(t, "Key"), *val = jstr(t, "Value");

		if (k && v->ntags < INV_MAX_TAGS) {
			w->tags[v->ntags].key = k;
			w->tags[v->ntags++].value = val ? val : "";
		}
	}
	v->tags = w->tags;
	if (!inventory_valid_volume_id(v->id)) {
		xsnprintf(w->problem, sizeof(w->problem),
			  v->id ? "\"VolumeId\" is not a volume id"
				: "missing \"VolumeId\"");
		v->id = NULL;
	} else if (!type) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "missing \"VolumeType\"");
	} else if (model_type_parse(type, &v->type)) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "unknown volume type '%s'",
			  str_shown(type, shown_buf, sizeof(shown_buf)));
	} else if (!m.size || mlong(m.size, 1, 1048576, &v->size_gib) ||
		   !v->size_gib) {
		xsnprintf(w->problem, sizeof(w->problem),
			  m.size ? "\"Size\" is not a whole number of GiB"
				 : "missing \"Size\"");
	} else if (mlong(m.iops, 0, 10000000, &v->iops)) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "\"Iops\" is not a whole number");
	} else if (model_type_needs_iops(v->type) && !v->iops) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "missing \"Iops\" for %s", model_type_name(v->type));
	} else if (mlong(m.tput, 0, 1000000, &v->throughput_mibps)) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "\"Throughput\" is not a whole number");
	} else if (!v->az) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "missing \"AvailabilityZone\"");
	} else if (v->kms_key_id && !inventory_valid_kms_key(v->kms_key_id)) {
		xsnprintf(w->problem, sizeof(w->problem),
			  "\"KmsKeyId\" is not a KMS key id, alias or ARN");
	} else {
		return;
	}
	v->problem = w->problem;
}

static int parse_fail(struct vol_walk *w, const char *at, const char *what)
{
	return ebs_fail(w->err, EBS_ERR_PARSE,
			"cannot parse '%s': line %zu: %s", w->name,
			line_at(w, at), what);
}

/*
 * Parse the element at p (cJSON finds its end: no second pass over the
 * bytes), hand it to the callback, and leave *e after it.
 */
static int one_volume(struct vol_walk *w, const char *p, const char *end,
		      size_t index, const char **e)
{
	struct inv_volume v;
	cJSON *o;

	o = json_arena_parse(p, end, e);
	/* the cap is on the record's text; the arena (16 times as much)
	 * also stops a record of tiny values that would parse into far more */
	if ((!o && json_arena_over()) ||
	    (o && (size_t)(*e - p) > INV_VOLUME_CAP))
		return ebs_fail(
		    w->err, EBS_ERR_TOO_BIG,
		    "cannot parse '%s': line %zu: volume record larger than the limit of %zu MiB",
		    w->name, line_at(w, p), INV_VOLUME_CAP >> 20);
	if (!o) {
		const char *fail;

		/* where a string or bracket runs away, say so: that line is
		 * the one to fix (cJSON would stop further on) */
		if (!json_skip_value(p, end, &fail))
			return parse_fail(w, fail,
					  "unterminated string or value");
		return parse_fail(w, *e, "invalid JSON in a volume record");
	}
	if (!cJSON_IsObject(o))
		return parse_fail(w, p, "expected an object in \"Volumes\"");
	memset(&v, 0, sizeof(v));
	volume_from_json(w, o, &v);
	v.index = index;
	v.line = line_at(w, p);
	v.end_offset = (size_t)(*e - w->buf);
	return w->fn(&v, w->arg);
}

/* p at '[' of Volumes: walk its elements.  *after gets the byte after ']'. */
static int walk_array(struct vol_walk *w, const char *p, const char *end,
		      const char **after)
{
	const char *e;
	size_t index = 0;
	int rc;

	if (p >= end || *p != '[')
		return parse_fail(w, p, "\"Volumes\" is not an array");
	p = json_skip_ws(p + 1, end);
	if (p < end && *p == ']') {
		*after = p + 1;
		return 0;
	}
	for (;;) {
		if ((rc = one_volume(w, p, end, index++, &e)))
			return rc;
		p = json_skip_ws(e, end);
		if (p < end && *p == ']') {
			*after = p + 1;
			return 0;
		}
		if (p >= end || *p != ',')
			return parse_fail(w, p,
					  "expected ',' or ']' in \"Volumes\"");
		p = json_skip_ws(p + 1, end);
	}
}

/* Validate a member value other than Volumes with cJSON (small). */
static int check_value(struct vol_walk *w, const char *p, const char *e)
{
	const char *stop;

	if (!json_arena_parse(p, e, &stop))
		return parse_fail(w, stop,
				  json_arena_over() ? "value too large"
						    : "invalid JSON");
	return 0;
}

/* The top-level object: find Volumes, validate the rest. */
static int walk_top(struct vol_walk *w, size_t len)
{
	const char *end = w->buf + len, *p = json_skip_ws(w->buf, end), *k, *e;
	const char *fail = NULL;
	int seen = 0, rc;

	if (p >= end || *p != '{')
		return parse_fail(w, p, "expected a JSON object");
	p = json_skip_ws(p + 1, end);
	while (p < end && *p != '}') {
		if (*p != '"' || !(k = json_skip_string(p, end, &fail)))
			return parse_fail(w, fail ? fail : p,
					  "expected a member name");
		e = json_skip_ws(k, end);
		if (e >= end || *e != ':')
			return parse_fail(w, e, "expected ':'");
		e = json_skip_ws(e + 1, end);
		if (json_key_is(p, k, "Volumes")) {
			seen = 1;
			if ((rc = walk_array(w, e, end, &p)))
				return rc;
		} else {
			if (!(p = json_skip_value(e, end, &fail)))
				return parse_fail(
				    w, fail, "unterminated string or value");
			if ((rc = check_value(w, e, p)))
				return rc;
		}
		p = json_skip_ws(p, end);
		if (p < end && *p == ',')
			p = json_skip_ws(p + 1, end);
		else if (p < end && *p != '}')
			return parse_fail(w, p, "expected ',' or '}'");
	}
	if (p >= end)
		return parse_fail(w, end, "unexpected end of file");
	if (json_skip_ws(p + 1, end) != end)
		return parse_fail(w, json_skip_ws(p + 1, end),
				  "text after the JSON document");
	if (!seen)
		return ebs_fail(w->err, EBS_ERR_PARSE,
				"cannot parse '%s': no \"Volumes\" array",
				w->name);
	return 0;
}

int inventory_each_volume(const char *name, const char *buf, size_t len,
			  inv_volume_fn fn, void *arg, char *err)
{
	struct vol_walk w = { name, buf, fn, arg, err, buf, 1, { { 0 } }, "" };
	int rc;

	/* cJSON needs roughly 10x a record's bytes; the cap bounds that */
	json_arena_begin(16 * INV_VOLUME_CAP);
	rc = walk_top(&w, len);
	json_arena_end();
	return rc;
}

/* ------------------------------------------------------------ small docs */

/* Parse a whole small document; EBS_ERR_PARSE naming the line. */
static int parse_whole(const char *name, const char *buf, size_t len,
		       cJSON **out, char *err)
{
	const char *stop = NULL;

	if (len > INV_SMALL_CAP)
		return ebs_fail(err, EBS_ERR_TOO_BIG,
				"'%s' is larger than the limit of %zu MiB",
				name, INV_SMALL_CAP >> 20);
	*out = cJSON_ParseWithLengthOpts(buf, len, &stop, 0);
	if (!*out)
		return ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': line %zu: invalid JSON", name,
		    line_of_offset(buf, stop && stop >= buf && stop <= buf + len
					    ? (size_t)(stop - buf)
					    : 0));
	return 0;
}

/* ------------------------------------------------------------ Kubernetes */

int inventory_quantity_gib(const char *s, long *gib)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "Ki", 1024.0 },
		{ "Mi", 1048576.0 },
		{ "Gi", 1073741824.0 },
		{ "Ti", 1099511627776.0 },
		{ "Pi", 1125899906842624.0 },
		{ "k", 1e3 },
		{ "M", 1e6 },
		{ "G", 1e9 },
		{ "T", 1e12 },
		{ "P", 1e15 },
		{ "", 1.0 },
	};
	char num[64];
	double v, bytes;
	size_t n;

	if (!s)
		return -1;
	n = strspn(s, "0123456789.");
	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (parse_nonneg_double(num, &v))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(s + n, units[i].suffix))
			continue;
		bytes = v * units[i].mult;
		if (bytes <= 0 || bytes > 1e18)
			return -1;
		*gib = (long)ceil(bytes / 1073741824.0 - MODEL_EPS);
		return 0;
	}
	return -1;
}

/* A case-insensitive member of an object (StorageClass parameters). */
static const char *jstr_ci(const cJSON *o, const char *key)
{
	const cJSON *v;

	cJSON_ArrayForEach(
	    v, o) if (v->string &&
		      !strcasecmp(v->string, key)) return cJSON_IsString(v)
	    ? v->valuestring
	    : NULL;
	return NULL;
}

static const cJSON *jpath(const cJSON *o, const char *a, const char *b)
{
	o = cJSON_GetObjectItemCaseSensitive(o, a);
	return b ? cJSON_GetObjectItemCaseSensitive(o, b) : o;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * Longest object name (a DNS subdomain, RFC 1123) and namespace (a DNS
 * label) the API server accepts; anything longer is not a real object.
 */
#define K8S_NAME_MAX 253
#define K8S_NS_MAX   63

/* A copy of a name of 1 to K8S_NAME_MAX bytes, else NULL. */
static char *name_or_null(const char *s)
{
	return s && *s && strlen(s) <= K8S_NAME_MAX ? xstrdup(s) : NULL;
}

/* metadata.annotations[key] of o when a string, else NULL. */
static const char *annotation(const cJSON *o, const char *key)
{
	return jstr(jpath(o, "metadata", "annotations"), key);
}

/* metadata.name of o when 1 to K8S_NAME_MAX bytes, else NULL. */
static const char *object_name(const cJSON *o)
{
	const char *s = jstr(jpath(o, "metadata", NULL), "name");

	return s && *s && strlen(s) <= K8S_NAME_MAX ? s : NULL;
}

/* Where an object is, for messages: "item #3" of a List, or "object". */
struct k8s_place {
	char text[32];
};

static const char *place_of(struct k8s_place *p, int in_list, size_t index)
{
	if (in_list)
		xsnprintf(p->text, sizeof(p->text), "item #%zu", index + 1);
	else
		xsnprintf(p->text, sizeof(p->text), "the object");
	return p->text;
}

/* The default-class markers of a StorageClass (exactly "true", as the
 * API server's IsDefaultAnnotation reads them). */
static unsigned default_marks(const cJSON *o)
{
	const char *ga =
	    annotation(o, "storageclass.kubernetes.io/is-default-class");
	const char *beta =
	    annotation(o, "storageclass.beta.kubernetes.io/is-default-class");

	return (ga && !strcmp(ga, "true") ? INV_SC_DEFAULT : 0) |
	       (beta && !strcmp(beta, "true") ? INV_SC_DEFAULT_BETA : 0);
}

/* 1 when s is a plain file system name (ext4, xfs): [a-z0-9], 1-16. */
static int fstype_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 16 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789") == n;
}

/*
 * The EBS parameters of a StorageClass into sc (T12 [K1]: values are
 * strings, keys case-insensitive but csi.storage.k8s.io/fstype).  -1 after
 * a warning when the type is unknown (the class is not kept).
 */
static int sc_parameters(const char *name, const char *scname, const cJSON *par,
			 struct inv_sc *sc, struct inv_warnings *w)
{
	const char *type = jstr_ci(par, "type"), *s;
	char b1[96], b2[96];
	long l;

	/* K1: CSI default gp3 (since v0.8.0); the in-tree plugin's is gp2 */
	sc->type = sc->in_tree ? VT_GP2 : VT_GP3;
	if (type && model_type_parse(type, &sc->type)) {
		inv_warn(
		    w,
		    "'%s': storage class '%s' has unknown type '%s'; its volumes are skipped",
		    name, str_shown(scname, b1, sizeof(b1)),
		    str_shown(type, b2, sizeof(b2)));
		return -1;
	}
	if ((s = jstr_ci(par, "iops")) && !parse_long_range(s, 1, 10000000, &l))
		sc->iops = l;
	if ((s = jstr_ci(par, "iopsPerGB")))
		(void)parse_nonneg_double(s, &sc->iops_per_gb);
	if ((s = jstr_ci(par, "throughput")) &&
	    !parse_long_range(s, 1, 1000000, &l))
		sc->throughput_mibps = l;
	s = jstr_ci(par, "allowAutoIOPSPerGBIncrease");
	sc->auto_iops_increase = s && !strcasecmp(s, "true");
	s = jstr_ci(par, "encrypted");
	sc->encrypted = s && !strcasecmp(s, "true");
	if ((s = jstr_ci(par, "kmsKeyId"))) {
		if (inventory_valid_kms_key(s))
			sc->kms_key_id = xstrdup(s);
		else
			sc->kms_unsafe = 1;
	}
	s = jstr(par, "csi.storage.k8s.io/fstype");
	if (!s)
		s = jstr_ci(par, "fsType");
	if (s && fstype_ok(s))
		sc->fstype = xstrdup(s);
	else if (s)
		inv_warn(
		    w,
		    "'%s': storage class '%s' has file system type '%s', not a plain name; not carried over",
		    name, str_shown(scname, b1, sizeof(b1)),
		    str_shown(s, b2, sizeof(b2)));
	return 0;
}

/* A StorageClass object into k (every provisioner; EBS ones parsed). */
static void add_sc(const char *name, const cJSON *o, const char *place,
		   struct inv_k8s *k, struct inv_warnings *w)
{
	const char *prov = jstr(o, "provisioner");
	const char *scname = object_name(o);
	const char *created =
	    jstr(jpath(o, "metadata", NULL), "creationTimestamp");
	const char *policy = jstr(o, "reclaimPolicy");
	struct inv_sc sc = { 0 };

	if (!scname || !prov || !*prov || strlen(prov) > K8S_NAME_MAX) {
		inv_warn(w,
			 "'%s': %s: storage class without a usable %s; skipped",
			 name, place, scname ? "provisioner" : "metadata.name");
		return;
	}
	sc.in_tree = !strcmp(prov, "kubernetes.io/aws-ebs");
	sc.ebs = sc.in_tree || !strcmp(prov, "ebs.csi.aws.com");
	if (sc.ebs &&
	    sc_parameters(name, scname,
			  cJSON_GetObjectItemCaseSensitive(o, "parameters"),
			  &sc, w)) {
		free(sc.kms_key_id);
		free(sc.fstype);
		return;
	}
	sc.is_default = default_marks(o);
	sc.retain = policy && !strcmp(policy, "Retain");
	if (created && strlen(created) < sizeof(sc.created))
		xsnprintf(sc.created, sizeof(sc.created), "%s", created);
	sc.name = xstrdup(scname);
	sc.provisioner = xstrdup(prov);
	sc.order = k->nsc;
	xgrow((void **)&k->sc, &k->asc, k->nsc + 1, sizeof(*k->sc));
	k->sc[k->nsc++] = sc;
}

/* The zone a PV is pinned to, from its nodeAffinity (any known key). */
static const char *pv_zone(const cJSON *spec)
{
	const cJSON *terms = jpath(jpath(spec, "nodeAffinity", "required"),
				   "nodeSelectorTerms", NULL),
		    *t, *e;

	cJSON_ArrayForEach(t, terms)
	{
		cJSON_ArrayForEach(
		    e, cJSON_GetObjectItemCaseSensitive(t, "matchExpressions"))
		{
			const char *key = jstr(e, "key");
			const cJSON *vals =
			    cJSON_GetObjectItemCaseSensitive(e, "values");

			if (key &&
			    (!strcmp(key, "topology.ebs.csi.aws.com/zone") ||
			     !strcmp(key, "topology.kubernetes.io/zone") ||
			     !strcmp(
				 key,
				 "failure-domain.beta.kubernetes.io/zone")) &&
			    cJSON_IsString(cJSON_GetArrayItem(vals, 0)))
				return cJSON_GetArrayItem(vals, 0)->valuestring;
		}
	}
	return NULL;
}

/*
 * The volume id of an EBS PV: CSI (volumeHandle), or in-tree
 * awsElasticBlockStore (*in_tree set; the aws://ZONE/vol-.. form gives
 * the zone too).  NULL for other volume sources.
 */
static const char *pv_volume(const cJSON *spec, char *zone, size_t zn,
			     int *in_tree)
{
	const cJSON *csi = cJSON_GetObjectItemCaseSensitive(spec, "csi");
	const char *id, *slash;

	zone[0] = '\0';
	*in_tree = 0;
	if (csi) {
		const char *drv = jstr(csi, "driver");

		return drv && !strcmp(drv, "ebs.csi.aws.com")
			   ? jstr(csi, "volumeHandle")
			   : NULL;
	}
	id = jstr(jpath(spec, "awsElasticBlockStore", NULL), "volumeID");
	*in_tree = id != NULL;
	if (id && str_starts_with(id, "aws://") && (slash = strrchr(id, '/')) &&
	    slash > id + 6) {
		xsnprintf(zone, zn, "%.*s", (int)(slash - id - 6), id + 6);
		if (zone[0] == '/')
			zone[0] = '\0';
		return slash + 1;
	}
	return id;
}

/*
 * The volume-modifier-for-k8s annotations of a PV (ebs.csi.aws.com/
 * volumeType, /iops, /throughput; formats.md section 7): what the volume
 * was modified to.  Unusable values are warned about and ignored.
 */
static void pv_annotations(const char *name, const char *pvname, const cJSON *o,
			   struct inv_pv *pv, struct inv_warnings *w)
{
	const char *t = annotation(o, "ebs.csi.aws.com/volumeType");
	const char *iops = annotation(o, "ebs.csi.aws.com/iops");
	const char *tput = annotation(o, "ebs.csi.aws.com/throughput");
	char b1[96], b2[96];
	long l;

	if (t && !model_type_parse(t, &pv->ann_type))
		pv->ann_have_type = 1;
	else if (t)
		inv_warn(
		    w,
		    "'%s': persistent volume '%s': annotation ebs.csi.aws.com/volumeType '%s' is not a volume type; ignored",
		    name, str_shown(pvname, b1, sizeof(b1)),
		    str_shown(t, b2, sizeof(b2)));
	if (iops && !parse_long_range(iops, 1, 10000000, &l))
		pv->ann_iops = l;
	else if (iops)
		inv_warn(
		    w,
		    "'%s': persistent volume '%s': annotation ebs.csi.aws.com/iops '%s' is not a whole number; ignored",
		    name, str_shown(pvname, b1, sizeof(b1)),
		    str_shown(iops, b2, sizeof(b2)));
	if (tput && !parse_long_range(tput, 1, 1000000, &l))
		pv->ann_throughput_mibps = l;
	else if (tput)
		inv_warn(
		    w,
		    "'%s': persistent volume '%s': annotation ebs.csi.aws.com/throughput '%s' is not a whole number; ignored",
		    name, str_shown(pvname, b1, sizeof(b1)),
		    str_shown(tput, b2, sizeof(b2)));
}

/*
 * An EBS PersistentVolume into k: CSI or in-tree, id validated, capacity
 * in whole GiB, zone, storage class, claim and modification annotations.
 * Others are skipped.
 */
static void add_pv(const char *name, const cJSON *o, const char *place,
		   size_t index, struct inv_k8s *k, struct inv_warnings *w)
{
	const cJSON *spec = cJSON_GetObjectItemCaseSensitive(o, "spec");
	const cJSON *claim = cJSON_GetObjectItemCaseSensitive(spec, "claimRef");
	const char *pvname = object_name(o);
	const char *cap = jstr(jpath(spec, "capacity", NULL), "storage");
	const char *az, *id, *mig;
	char zone[64], b1[96], b2[96];
	struct inv_pv pv = { 0 };

	if (!(id = pv_volume(spec, zone, sizeof(zone), &pv.in_tree)))
		return;
	if (!pvname) {
		inv_warn(
		    w,
		    "'%s': %s: persistent volume without a usable metadata.name; skipped",
		    name, place);
		return;
	}
	if (!inventory_valid_volume_id(id)) {
		inv_warn(
		    w,
		    "'%s': persistent volume '%s' has volume id '%s', not vol-...; skipped",
		    name, str_shown(pvname, b1, sizeof(b1)),
		    str_shown(id, b2, sizeof(b2)));
		return;
	}
	if (inventory_quantity_gib(cap, &pv.size_gib)) {
		inv_warn(
		    w,
		    "'%s': persistent volume '%s' (%s) has no usable capacity.storage; skipped",
		    name, str_shown(pvname, b1, sizeof(b1)), id);
		return;
	}
	az = pv_zone(spec);
	mig = annotation(o, "pv.kubernetes.io/migrated-to");
	pv.migrated = pv.in_tree && mig && !strcmp(mig, "ebs.csi.aws.com");
	pv_annotations(name, pvname, o, &pv, w);
	pv.name = xstrdup(pvname);
	xsnprintf(pv.vol_id, sizeof(pv.vol_id), "%s", id);
	pv.az = dup_or_null(az ? az : zone[0] ? zone : NULL);
	pv.storage_class = name_or_null(jstr(spec, "storageClassName"));
	pv.ns = name_or_null(jstr(claim, "namespace"));
	pv.pvc = name_or_null(jstr(claim, "name"));
	pv.vac = name_or_null(jstr(spec, "volumeAttributesClassName"));
	pv.file = xstrdup(name);
	pv.index = index;
	xgrow((void **)&k->pv, &k->apv, k->npv + 1, sizeof(*k->pv));
	k->pv[k->npv++] = pv;
}

/* status.modifyVolumeStatus.status as an enum (KEP-3751 values). */
static enum inv_modify modify_status(const char *s)
{
	if (!s)
		return INV_MOD_NONE;
	if (!strcmp(s, "Pending"))
		return INV_MOD_PENDING;
	if (!strcmp(s, "InProgress"))
		return INV_MOD_IN_PROGRESS;
	if (!strcmp(s, "Infeasible"))
		return INV_MOD_INFEASIBLE;
	return INV_MOD_OTHER;
}

/*
 * A PersistentVolumeClaim into k: its name and namespace (required), its
 * classes, and the state of a VolumeAttributesClass modification: the
 * status the resizer reports, or Pending when the class asked for in
 * spec is not yet the current one.
 */
static void add_pvc(const char *name, const cJSON *o, const char *place,
		    size_t index, struct inv_k8s *k, struct inv_warnings *w)
{
	const cJSON *spec = cJSON_GetObjectItemCaseSensitive(o, "spec");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
	const cJSON *mvs =
	    cJSON_GetObjectItemCaseSensitive(st, "modifyVolumeStatus");
	const char *pname = object_name(o);
	const char *ns = jstr(jpath(o, "metadata", NULL), "namespace");
	const char *phase = jstr(st, "phase");
	struct inv_pvc c = { 0 };

	if (!pname || !ns || !*ns || strlen(ns) > K8S_NS_MAX) {
		inv_warn(
		    w,
		    "'%s': %s: persistent volume claim without a usable %s; skipped",
		    name, place,
		    pname ? "metadata.namespace" : "metadata.name");
		return;
	}
	c.ns = xstrdup(ns);
	c.name = xstrdup(pname);
	c.storage_class = name_or_null(jstr(spec, "storageClassName"));
	c.volume = name_or_null(jstr(spec, "volumeName"));
	c.vac = name_or_null(jstr(spec, "volumeAttributesClassName"));
	c.current_vac =
	    name_or_null(jstr(st, "currentVolumeAttributesClassName"));
	c.target_vac =
	    name_or_null(jstr(mvs, "targetVolumeAttributesClassName"));
	c.modify = modify_status(jstr(mvs, "status"));
	if (mvs && c.modify == INV_MOD_NONE)
		c.modify = INV_MOD_OTHER; /* a status without its status */
	if (c.modify == INV_MOD_NONE && c.vac &&
	    (!c.current_vac || strcmp(c.vac, c.current_vac))) {
		c.modify = INV_MOD_PENDING;
		if (!c.target_vac)
			c.target_vac = xstrdup(c.vac);
	}
	c.bound = phase && !strcmp(phase, "Bound");
	c.file = xstrdup(name);
	c.index = index;
	xgrow((void **)&k->pvc, &k->apvc, k->npvc + 1, sizeof(*k->pvc));
	k->pvc[k->npvc++] = c;
}

/* A volume type as the EBS API spells it (lowercase), else -1. */
static int exact_type(const char *s, enum vol_type *t)
{
	return model_type_parse(s, t) || strcmp(model_type_name(*t), s) ? -1
									: 0;
}

/*
 * The parameters of a VolumeAttributesClass as the EBS CSI driver reads
 * them (T13 [K2]: type, iops, throughput, tagSpecification_N; the older
 * key volumeType when type is absent).  Values it cannot parse make the
 * class invalid; keys it does not read are counted.
 */
static void vac_parameters(const cJSON *par, struct inv_vac *v)
{
	const cJSON *p;
	const char *old_type = NULL;
	long l;

	cJSON_ArrayForEach(p, par)
	{
		const char *key = p->string, *val = cJSON_GetStringValue(p);

		if (!key || !val) {
			v->invalid = 1;
		} else if (!strcmp(key, "type")) {
			v->have_type = !exact_type(val, &v->type);
			v->invalid |= !v->have_type;
		} else if (!strcmp(key, "volumeType")) {
			old_type = val;
		} else if (!strcmp(key, "iops")) {
			if (parse_long_range(val, 1, 10000000, &l))
				v->invalid = 1;
			else
				v->iops = l;
		} else if (!strcmp(key, "throughput")) {
			if (parse_long_range(val, 1, 1000000, &l))
				v->invalid = 1;
			else
				v->throughput_mibps = l;
		} else if (str_starts_with(key, "tagSpecification")) {
			v->tags = 1;
		} else {
			v->other = 1;
		}
	}
	if (old_type && !v->have_type) {
		v->have_type = !exact_type(old_type, &v->type);
		v->invalid |= !v->have_type;
	}
}

/* 1 when s is an API version of the storage.k8s.io group. */
static int storage_api(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 15 && n < 40 && str_starts_with(s, "storage.k8s.io/") &&
	       strspn(s + 15, "abcdefghijklmnopqrstuvwxyz0123456789") == n - 15;
}

/* A VolumeAttributesClass into k (any driver: their names are taken). */
static void add_vac(const char *name, const cJSON *o, const char *place,
		    size_t index, struct inv_k8s *k, struct inv_warnings *w)
{
	const char *vname = object_name(o), *api = jstr(o, "apiVersion");
	const char *drv = jstr(o, "driverName");
	struct inv_vac v = { 0 };
	char b1[96];

	if (!vname) {
		inv_warn(
		    w,
		    "'%s': %s: volume attributes class without a usable metadata.name; skipped",
		    name, place);
		return;
	}
	v.ebs = drv && !strcmp(drv, "ebs.csi.aws.com");
	vac_parameters(cJSON_GetObjectItemCaseSensitive(o, "parameters"), &v);
	if (v.ebs && v.invalid)
		inv_warn(
		    w,
		    "'%s': volume attributes class '%s' has a parameter the EBS CSI driver cannot read; never reused",
		    name, str_shown(vname, b1, sizeof(b1)));
	v.name = xstrdup(vname);
	v.api_version = storage_api(api) ? xstrdup(api) : NULL;
	v.file = xstrdup(name);
	v.index = index;
	xgrow((void **)&k->vac, &k->avac, k->nvac + 1, sizeof(*k->vac));
	k->vac[k->nvac++] = v;
}

static void add_k8s_object(const char *name, const cJSON *o, int in_list,
			   size_t index, struct inv_k8s *k,
			   struct inv_warnings *w)
{
	const char *kind = jstr(o, "kind");
	struct k8s_place p;
	const char *at = place_of(&p, in_list, index);

	if (!kind)
		return;
	if (!strcmp(kind, "StorageClass"))
		add_sc(name, o, at, k, w);
	else if (!strcmp(kind, "PersistentVolume"))
		add_pv(name, o, at, index, k, w);
	else if (!strcmp(kind, "PersistentVolumeClaim"))
		add_pvc(name, o, at, index, k, w);
	else if (!strcmp(kind, "VolumeAttributesClass"))
		add_vac(name, o, at, index, k, w);
}

int inventory_parse_k8s(const char *name, const char *buf, size_t len,
			struct inv_k8s *k, struct inv_warnings *w, char *err)
{
	const cJSON *items, *it;
	cJSON *doc = NULL;
	size_t i = 0;
	int rc;

	if ((rc = parse_whole(name, buf, len, &doc, err)))
		return rc;
	items = cJSON_GetObjectItemCaseSensitive(doc, "items");
	if (!cJSON_IsObject(doc))
		rc = ebs_fail(
		    err, EBS_ERR_PARSE,
		    "cannot parse '%s': expected a kubectl object or List",
		    name);
	else if (items && !cJSON_IsArray(items))
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "cannot parse '%s': \"items\" is not an array",
			      name);
	else if (items)
		cJSON_ArrayForEach(it, items)
		    add_k8s_object(name, it, 1, i++, k, w);
	else
		add_k8s_object(name, doc, 0, 0, k, w);
	cJSON_Delete(doc);
	return rc;
}

void inv_k8s_release(struct inv_k8s *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nsc; i++) {
		free(k->sc[i].name);
		free(k->sc[i].kms_key_id);
		free(k->sc[i].fstype);
		free(k->sc[i].provisioner);
	}
	for (size_t i = 0; i < k->npv; i++) {
		struct inv_pv *p = &k->pv[i];

		free(p->name);
		free(p->az);
		free(p->storage_class);
		free(p->ns);
		free(p->pvc);
		free(p->vac);
		free(p->file);
	}
	for (size_t i = 0; i < k->npvc; i++) {
		struct inv_pvc *c = &k->pvc[i];

		free(c->ns);
		free(c->name);
		free(c->storage_class);
		free(c->volume);
		free(c->vac);
		free(c->current_vac);
		free(c->target_vac);
		free(c->file);
	}
	for (size_t i = 0; i < k->nvac; i++) {
		free(k->vac[i].name);
		free(k->vac[i].api_version);
		free(k->vac[i].file);
	}
	free(k->sc);
	free(k->pv);
	free(k->pvc);
	free(k->vac);
	memset(k, 0, sizeof(*k));
}

/* ------------------------------------------------------------ usage CSV */

int inventory_parse_usage(const char *name, const char *buf, size_t len,
			  struct inv_usage *u, char *err)
{
	struct csv_reader r;
	char **f;
	size_t n;
	int st, rc = 0, first = 1;

	csv_init(&r, buf, len);
	while ((st = csv_next(&r, &f, &n)) == 1) {
		struct inv_usage_row row = { .line = r.record_line };

		if (first && n >= 1 && !strcmp(f[0], "volume_id")) {
			first = 0;
			continue;
		}
		first = 0;
		if (n != 2 || !inventory_valid_volume_id(f[0]) ||
		    parse_nonneg_double(f[1], &row.used_gib)) {
			rc = ebs_fail(
			    err, EBS_ERR_PARSE,
			    "cannot parse '%s': line %zu: expected volume_id,used_gib",
			    name, r.record_line);
			goto out;
		}
		xsnprintf(row.vol_id, sizeof(row.vol_id), "%s", f[0]);
		xgrow((void **)&u->row, &u->alloc, u->n + 1, sizeof(*u->row));
		u->row[u->n++] = row;
	}
	if (st < 0)
		rc = ebs_fail(err, EBS_ERR_PARSE,
			      "cannot parse '%s': line %zu: unterminated quote",
			      name, r.record_line);
out:
	csv_release(&r);
	return rc;
}

void inv_usage_release(struct inv_usage *u)
{
	if (!u)
		return;
	free(u->row);
	memset(u, 0, sizeof(*u));
}
