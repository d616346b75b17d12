/*
 * scan_k8s.c - the Kubernetes rules of `ebsize scan` (include/ebsize/
 * scan_k8s.h): a PV's configuration beyond its StorageClass, the plan of
 * one finding (which VolumeAttributesClass, or modify-volume for in-tree
 * volumes, or nothing while a modification is under way), the cluster
 * findings about default StorageClasses, and the manifests and kubectl
 * lines that carry them out.
 *
 * What it does not do: read files (inventory_parse.c), judge a volume
 * (scan.c), print (cmd_scan_report.c).  Every name that goes into a
 * command passes scan_k8s_name_ok; numbers are ours; a KMS key id passed
 * inventory_valid_kms_key; a file system type is [a-z0-9] (the parser's).
 */
#include "ebsize/scan_k8s.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsize/err.h"
#include "ebsize/util.h"

#define EBS_CSI		 "ebs.csi.aws.com"
#define DEFAULT_KEY	 "storageclass.kubernetes.io/is-default-class"
#define DEFAULT_KEY_BETA "storageclass.beta.kubernetes.io/is-default-class"

/* Manifests and commands are small; this caps them all the same. */
#define TEXT_CAP ((size_t)1 << 16)

/* ------------------------------------------------------------ index */

int scan_k8s_name_ok(const char *s)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t n = s ? strlen(s) : 0;

	if (!n || n > 253 || !strchr(alnum, s[0]) || !strchr(alnum, s[n - 1]))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-.") == n;
}

/* Rank of a storage.k8s.io version: v1 3, v1beta1 2, v1alpha1 1, else 0. */
static int api_rank(const char *api)
{
	static const char *const order[] = { "storage.k8s.io/v1alpha1",
					     "storage.k8s.io/v1beta1",
					     "storage.k8s.io/v1" };

	for (int i = 0; api && i < 3; i++)
		if (!strcmp(api, order[i]))
			return i + 1;
	return 0;
}

/* "namespace/name" into buf. */
static const char *claim_key(const char *ns, const char *name, char *buf,
			     size_t n)
{
	xsnprintf(buf, n, "%s/%s", ns, name);
	return buf;
}

void scan_k8s_init(struct scan_k8s *c, const struct inv_k8s *k)
{
	char key[520];
	int best = 0;

	memset(c, 0, sizeof(*c));
	c->k = k;
	for (size_t i = 0; i < k->nsc; i++)
		if (!strmap_get(&c->sc_by_name, k->sc[i].name))
			strmap_put(&c->sc_by_name, k->sc[i].name, &k->sc[i]);
	for (size_t i = 0; i < k->npvc; i++) {
		claim_key(k->pvc[i].ns, k->pvc[i].name, key, sizeof(key));
		if (!strmap_get(&c->pvc_by_key, key))
			strmap_put(&c->pvc_by_key, key, &k->pvc[i]);
	}
	/* T13 [K2, K3]: the API version the cluster serves its classes in
	 * (kubectl prints the preferred one); v1 (1.34+) when none given */
	for (size_t i = 0; i < k->nvac; i++) {
		const struct inv_vac *v = &k->vac[i];

		if (!strmap_get(&c->vac_by_name, v->name))
			strmap_put(&c->vac_by_name, v->name, &k->vac[i]);
		if (api_rank(v->api_version) > best) {
			best = api_rank(v->api_version);
			c->vac_api = v->api_version;
		}
	}
	c->vac_api_from_cluster = best > 0;
	if (!best)
		c->vac_api = "storage.k8s.io/v1";
}

void scan_k8s_release(struct scan_k8s *c)
{
	if (!c)
		return;
	strmap_release(&c->sc_by_name);
	strmap_release(&c->pvc_by_key);
	strmap_release(&c->vac_by_name);
	memset(c, 0, sizeof(*c));
}

const struct inv_sc *scan_k8s_sc(const struct scan_k8s *c, const char *name)
{
	const struct inv_sc *sc =
	    name ? strmap_get(&c->sc_by_name, name) : NULL;

	return sc && sc->ebs ? sc : NULL;
}

const struct inv_pvc *scan_k8s_pvc_of(const struct scan_k8s *c,
				      const struct inv_pv *pv)
{
	char key[520];

	if (!pv || !pv->ns || !pv->pvc)
		return NULL;
	return strmap_get(&c->pvc_by_key,
			  claim_key(pv->ns, pv->pvc, key, sizeof(key)));
}

const struct inv_vac *scan_k8s_vac(const struct scan_k8s *c, const char *name)
{
	return name ? strmap_get(&c->vac_by_name, name) : NULL;
}

/* ------------------------------------------------------------ configs */

int scan_k8s_vac_apply(const struct inv_vac *v, const struct vol_config *cur,
		       struct vol_config *out)
{
	enum vol_type t = v->have_type ? v->type : cur->type;
	int changed = t != cur->type;

	if (!v->ebs || v->invalid || (v->iops && !model_type_buys_iops(t)) ||
	    (v->throughput_mibps && t != VT_GP3))
		return -1;
	*out = *cur;
	out->type = t;
	/* A1 (ModifyVolume): IOPS not given are kept when the type stays;
	 * a change to gp3, io1 or io2 gets 3,000 */
	if (v->iops)
		out->iops = v->iops;
	else if (changed)
		out->iops = model_type_buys_iops(t) ? 3000 : 0;
	/* throughput not given is kept from gp3 to gp3, else 125 */
	if (t != VT_GP3)
		out->throughput_mibps = 0;
	else if (v->throughput_mibps)
		out->throughput_mibps = v->throughput_mibps;
	else if (cur->type != VT_GP3)
		out->throughput_mibps = 125;
	return 0;
}

int scan_k8s_pv_config(const struct scan_k8s *c,
		       const struct volume_limits lim[VT_COUNT],
		       const struct inv_pv *pv, struct vol_config *cfg,
		       char *why, size_t n)
{
	const struct inv_pvc *pvc = scan_k8s_pvc_of(c, pv);
	const struct inv_vac *v = NULL;
	const char *name;

	/* in-tree volumes: neither mechanism reaches them (#2573) */
	if (pv->in_tree)
		return 0;
	if (pv->ann_have_type || pv->ann_iops || pv->ann_throughput_mibps) {
		struct inv_vac ann = { 0 };

		ann.ebs = 1;
		ann.have_type = pv->ann_have_type;
		ann.type = pv->ann_type;
		ann.iops = pv->ann_iops;
		ann.throughput_mibps = pv->ann_throughput_mibps;
		if (scan_k8s_vac_apply(&ann, cfg, cfg)) {
			xsnprintf(
			    why, n,
			    "its ebs.csi.aws.com/* annotations do not fit its type");
			return -1;
		}
	}
	name = pvc && pvc->current_vac ? pvc->current_vac : pv->vac;
	if (name && !(v = scan_k8s_vac(c, name))) {
		xsnprintf(
		    why, n,
		    "volume attributes class '%.64s' not given (kubectl get volumeattributesclass -o json)",
		    name);
		return -1;
	}
	if (name && scan_k8s_vac_apply(v, cfg, cfg)) {
		xsnprintf(
		    why, n,
		    "volume attributes class '%.64s' is not one the EBS CSI driver applies",
		    name);
		return -1;
	}
	model_apply_defaults(&lim[cfg->type], cfg);
	return 0;
}

/* ------------------------------------------------------------ one volume */

const char *scan_k8s_modify_name(enum inv_modify m)
{
	switch (m) {
	case INV_MOD_PENDING: return "Pending";
	case INV_MOD_IN_PROGRESS: return "InProgress";
	case INV_MOD_INFEASIBLE: return "Infeasible";
	case INV_MOD_OTHER: return "unknown";
	case INV_MOD_NONE: break;
	}
	return NULL;
}

static int same_settings(const struct vol_config *a, const struct vol_config *b)
{
	return a->type == b->type && a->iops == b->iops &&
	       a->throughput_mibps == b->throughput_mibps;
}

/* ebsize-gp3-IOPS-MIBPS, ebsize-io2-IOPS, ... */
static void vac_base_name(const struct vol_config *p, char *buf, size_t n)
{
	if (p->type == VT_GP3)
		xsnprintf(buf, n, "ebsize-gp3-%ld-%ld", p->iops,
			  p->throughput_mibps);
	else if (p->iops)
		xsnprintf(buf, n, "ebsize-%s-%ld", model_type_name(p->type),
			  p->iops);
	else
		xsnprintf(buf, n, "ebsize-%s", model_type_name(p->type));
}

/*
 * The class the claim moves to: an existing EBS class whose parameters
 * (type, IOPS, throughput; no tags, nothing the driver does not read)
 * turn cur into exactly prop, first in input order; else an ebsize-*
 * name no class has (VolumeAttributesClass parameters are immutable: a
 * taken name with other parameters is never proposed).
 */
static void choose_vac(const struct scan_k8s *c, const struct vol_config *cur,
		       const struct vol_config *prop, struct scan_k8s_plan *p)
{
	char base[96];

	for (size_t i = 0; i < c->k->nvac; i++) {
		const struct inv_vac *v = &c->k->vac[i];
		struct vol_config got;

		if (v->tags || v->other || !scan_k8s_name_ok(v->name) ||
		    scan_k8s_vac_apply(v, cur, &got) ||
		    !same_settings(&got, prop))
			continue;
		xsnprintf(p->vac, sizeof(p->vac), "%s", v->name);
		p->reused = 1;
		return;
	}
	vac_base_name(prop, base, sizeof(base));
	xsnprintf(p->vac, sizeof(p->vac), "%s", base);
	for (size_t i = 2; scan_k8s_vac(c, p->vac); i++)
		xsnprintf(p->vac, sizeof(p->vac), "%s-%zu", base, i);
}

void scan_k8s_plan(const struct scan_k8s *c, const struct inv_pv *pv,
		   const struct scan_finding *f, struct scan_k8s_plan *p)
{
	memset(p, 0, sizeof(*p));
	if (!pv)
		return;
	p->pvc = scan_k8s_pvc_of(c, pv);
	if (f->new_volume || f->cat == SCAN_UNATTACHED ||
	    f->cat == SCAN_EXCLUDED)
		return;
	if (p->pvc && p->pvc->modify != INV_MOD_NONE) {
		p->status = scan_k8s_modify_name(p->pvc->modify);
		p->target = p->pvc->target_vac;
	}
	if (pv->in_tree) {
		/* aws-ebs-csi-driver#2573: a class does not reach in-tree
		 * PVs, migrated ones included (nor does the claim's class
		 * change, under way or not) */
		p->method = SCAN_K8S_MODIFY_VOLUME;
		p->note =
		    p->status
			? "in-tree awsElasticBlockStore volume: the claim's VolumeAttributesClass change will not reach it; change it with aws ec2 modify-volume"
		    : pv->migrated
			? "in-tree awsElasticBlockStore volume served through CSI migration: a VolumeAttributesClass does not modify it; change it with aws ec2 modify-volume"
			: "in-tree awsElasticBlockStore volume: a VolumeAttributesClass does not reach it; change it with aws ec2 modify-volume";
		return;
	}
	if (p->status) {
		/* T14: each modification completes before the next */
		p->method = SCAN_K8S_BLOCKED;
		p->note =
		    "a modification of this claim is under way or was refused: no new command until status.modifyVolumeStatus clears (each modification must complete before the next; at most four per volume in a rolling 24 hours)";
		return;
	}
	p->method = SCAN_K8S_VAC;
	choose_vac(c, &f->cur, &f->prop, p);
	if (pv->ann_have_type || pv->ann_iops || pv->ann_throughput_mibps)
		p->note =
		    "modified before through volume-modifier-for-k8s annotations: remove the ebs.csi.aws.com/* annotations from the claim so that they and the class do not disagree";
}

/* The parameters of a class for prop, as YAML lines or JSON members. */
static void vac_params(const struct vol_config *prop, int json, struct sbuf *b)
{
	const char *type = model_type_name(prop->type);

	if (json)
		sbuf_addf(b, "\"type\":\"%s\"", type);
	else
		sbuf_addf(b, "  type: %s\n", type);
	if (prop->iops)
		sbuf_addf(b, json ? ",\"iops\":\"%ld\"" : "  iops: \"%ld\"\n",
			  prop->iops);
	if (prop->type == VT_GP3)
		sbuf_addf(b,
			  json ? ",\"throughput\":\"%ld\""
			       : "  throughput: \"%ld\"\n",
			  prop->throughput_mibps);
}

static int vac_new(const struct scan_k8s_plan *p)
{
	return p->method == SCAN_K8S_VAC && !p->reused &&
	       scan_k8s_name_ok(p->vac);
}

char *scan_k8s_vac_manifest(const struct scan_k8s *c,
			    const struct scan_k8s_plan *p,
			    const struct vol_config *prop)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);

	if (!vac_new(p))
		return NULL;
	sbuf_addf(
	    &b,
	    "apiVersion: %s\nkind: VolumeAttributesClass\nmetadata:\n  name: %s\ndriverName: " EBS_CSI
	    "\nparameters:\n",
	    c->vac_api, p->vac);
	vac_params(prop, 0, &b);
	return sbuf_detach(&b, NULL);
}

char *scan_k8s_vac_create(const struct scan_k8s *c,
			  const struct scan_k8s_plan *p,
			  const struct vol_config *prop)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);

	if (!vac_new(p))
		return NULL;
	/* JSON is YAML to kubectl: the manifest on one line */
	sbuf_addf(
	    &b,
	    "echo '{\"apiVersion\":\"%s\",\"kind\":\"VolumeAttributesClass\",\"metadata\":{\"name\":\"%s\"},\"driverName\":\"" EBS_CSI
	    "\",\"parameters\":{",
	    c->vac_api, p->vac);
	vac_params(prop, 1, &b);
	sbuf_addstr(&b, "}}' | kubectl apply -f -");
	return sbuf_detach(&b, NULL);
}

char *scan_k8s_patch(const struct scan_k8s_plan *p, const char *ns,
		     const char *pvc)
{
	if (p->method != SCAN_K8S_VAC || !scan_k8s_name_ok(ns) ||
	    !scan_k8s_name_ok(pvc) || !scan_k8s_name_ok(p->vac))
		return NULL;
	return xstrfmt(
	    "kubectl patch pvc %s -n %s --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"%s\"}}'",
	    pvc, ns, p->vac);
}

char *scan_k8s_verify(const struct scan_k8s_plan *p, const char *ns,
		      const char *pvc)
{
	if ((p->method != SCAN_K8S_VAC && p->method != SCAN_K8S_BLOCKED) ||
	    !scan_k8s_name_ok(ns) || !scan_k8s_name_ok(pvc))
		return NULL;
	return xstrfmt(
	    "kubectl get pvc %s -n %s -o jsonpath='{.status.currentVolumeAttributesClassName}'",
	    pvc, ns);
}

/* ------------------------------------------------------------ StorageClass */

char *scan_k8s_sc_manifest(const struct scan_sc_spec *s)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);

	if (!scan_k8s_name_ok(s->name))
		return NULL;
	sbuf_addf(
	    &b,
	    "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: %s\n  annotations:\n    " DEFAULT_KEY
	    ": \"true\"\nprovisioner: " EBS_CSI "\nparameters:\n  type: %s\n",
	    s->name, model_type_name(s->type));
	if (s->iops_per_gb > 0)
		sbuf_addf(&b, "  iopsPerGB: \"%g\"\n", s->iops_per_gb);
	if (s->auto_iops_increase)
		sbuf_addstr(&b, "  allowAutoIOPSPerGBIncrease: \"true\"\n");
	sbuf_addf(&b, "  encrypted: \"%s\"\n", s->encrypted ? "true" : "false");
	if (s->kms_key_id)
		sbuf_addf(&b, "  kmsKeyId: \"%s\"\n", s->kms_key_id);
	if (s->fstype)
		sbuf_addf(&b, "  csi.storage.k8s.io/fstype: %s\n", s->fstype);
	sbuf_addstr(
	    &b,
	    "volumeBindingMode: WaitForFirstConsumer\nallowVolumeExpansion: true\n");
	if (s->retain)
		sbuf_addstr(&b, "reclaimPolicy: Retain\n");
	return sbuf_detach(&b, NULL);
}

char *scan_k8s_sc_create(const struct scan_sc_spec *s)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);

	if (!scan_k8s_name_ok(s->name))
		return NULL;
	sbuf_addf(
	    &b,
	    "echo '{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"%s\",\"annotations\":{\"" DEFAULT_KEY
	    "\":\"true\"}},\"provisioner\":\"" EBS_CSI
	    "\",\"parameters\":{\"type\":\"%s\"",
	    s->name, model_type_name(s->type));
	if (s->iops_per_gb > 0)
		sbuf_addf(&b, ",\"iopsPerGB\":\"%g\"", s->iops_per_gb);
	if (s->auto_iops_increase)
		sbuf_addstr(&b, ",\"allowAutoIOPSPerGBIncrease\":\"true\"");
	sbuf_addf(&b, ",\"encrypted\":\"%s\"", s->encrypted ? "true" : "false");
	if (s->kms_key_id)
		sbuf_addf(&b, ",\"kmsKeyId\":\"%s\"", s->kms_key_id);
	if (s->fstype)
		sbuf_addf(&b, ",\"csi.storage.k8s.io/fstype\":\"%s\"",
			  s->fstype);
	sbuf_addstr(
	    &b,
	    "},\"volumeBindingMode\":\"WaitForFirstConsumer\",\"allowVolumeExpansion\":true");
	if (s->retain)
		sbuf_addstr(&b, ",\"reclaimPolicy\":\"Retain\"");
	sbuf_addstr(&b, "}' | kubectl apply -f -");
	return sbuf_detach(&b, NULL);
}

/*
 * kubectl annotate storageclass NAME... KEY="value" --overwrite for the
 * classes whose names are safe (the beta key too when one of them uses
 * it: either key makes a class the default).  NULL when none is.
 */
static char *annotate_cmd(const struct inv_sc *const *sc, size_t n,
			  const char *value)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);
	int names = 0, beta = 0;

	sbuf_addstr(&b, "kubectl annotate storageclass");
	for (size_t i = 0; i < n; i++) {
		if (!scan_k8s_name_ok(sc[i]->name) ||
		    b.len + strlen(sc[i]->name) > 4096)
			continue;
		sbuf_addf(&b, " %s", sc[i]->name);
		names++;
		beta |= (sc[i]->is_default & INV_SC_DEFAULT_BETA) != 0;
	}
	if (!names) {
		sbuf_release(&b);
		return NULL;
	}
	sbuf_addf(&b, " " DEFAULT_KEY "=\"%s\"", value);
	if (beta)
		sbuf_addf(&b, " " DEFAULT_KEY_BETA "=\"%s\"", value);
	sbuf_addstr(&b, " --overwrite");
	return sbuf_detach(&b, NULL);
}

/* ------------------------------------------------------------ cluster */

static const char *const cl_names[SCAN_CL_COUNT] = {
	[SCAN_CL_DEFAULT_GP2] = "default_class_gp2",
	[SCAN_CL_DEFAULT_IN_TREE] = "default_class_in_tree",
	[SCAN_CL_SEVERAL_DEFAULTS] = "several_default_classes",
	[SCAN_CL_NO_DEFAULT] = "no_default_class",
};

const char *scan_cluster_cat_name(enum scan_cluster_cat c)
{
	return (unsigned)c < SCAN_CL_COUNT ? cl_names[c] : NULL;
}

static int is_gp2(const struct inv_sc *sc)
{
	return sc && sc->ebs && sc->type == VT_GP2;
}

size_t scan_k8s_gp2_claims(const struct scan_k8s *c)
{
	const struct inv_k8s *k = c->k;
	size_t n = 0;

	if (k->npvc) {
		for (size_t i = 0; i < k->npvc; i++)
			n += k->pvc[i].bound &&
			     is_gp2(scan_k8s_sc(c, k->pvc[i].storage_class));
		return n;
	}
	for (size_t i = 0; i < k->npv; i++)
		n += k->pv[i].pvc &&
		     is_gp2(scan_k8s_sc(c, k->pv[i].storage_class));
	return n;
}

/* Claims bound to class sc (from the PVCs, else the PVs). */
static size_t claims_of(const struct scan_k8s *c, const struct inv_sc *sc)
{
	const struct inv_k8s *k = c->k;
	size_t n = 0;

	for (size_t i = 0; i < k->npvc; i++)
		n += k->pvc[i].bound && k->pvc[i].storage_class &&
		     !strcmp(k->pvc[i].storage_class, sc->name);
	for (size_t i = 0; !k->npvc && i < k->npv; i++)
		n += k->pv[i].pvc && k->pv[i].storage_class &&
		     !strcmp(k->pv[i].storage_class, sc->name);
	return n;
}

/* Newest first (creationTimestamp, RFC 3339 UTC sorts as text), then
 * the order read. */
static int newest_first(const void *a, const void *b)
{
	const struct inv_sc *x = *(const struct inv_sc *const *)a;
	const struct inv_sc *y = *(const struct inv_sc *const *)b;
	int d = strcmp(y->created, x->created);

	if (d)
		return d;
	return (x->order > y->order) - (x->order < y->order);
}

void scan_k8s_fmt_rate(double usd, char *buf, size_t n)
{
	size_t len;

	xsnprintf(buf, n, "$%.4f", usd);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == '0' && strchr(buf, '.') &&
	       (size_t)(strchr(buf, '.') - buf) + 3 < len)
		buf[--len] = '\0';
}

/* 'a', 'b' and 'c' (at most 8 named, then "and N more"). */
static void name_list(const struct inv_sc *const *sc, size_t n, struct sbuf *b)
{
	for (size_t i = 0; i < n && i < 8; i++)
		sbuf_addf(b, "%s'%.64s'",
			  i ? (i + 1 == n ? " and " : ", ") : "", sc[i]->name);
	if (n > 8)
		sbuf_addf(b, " and %zu more", n - 8);
}

/* An existing class that already is the replacement spec describes. */
static const struct inv_sc *replacement(const struct scan_k8s *c,
					const struct scan_sc_spec *s)
{
	const char *fs = s->fstype ? s->fstype : "ext4";

	for (size_t i = 0; i < c->k->nsc; i++) {
		const struct inv_sc *sc = &c->k->sc[i];

		if (!sc->ebs || sc->in_tree || sc->type != s->type ||
		    sc->is_default || !scan_k8s_name_ok(sc->name) ||
		    sc->encrypted != s->encrypted || sc->kms_unsafe ||
		    strcmp(sc->kms_key_id ? sc->kms_key_id : "",
			   s->kms_key_id ? s->kms_key_id : "") ||
		    strcmp(sc->fstype ? sc->fstype : "ext4", fs))
			continue;
		/* gp3 at the included 3,000 IOPS and 125 MiB/s (T3), or the
		 * same IOPS per GiB as the class it replaces */
		if (s->type == VT_GP3
			? (sc->iops && sc->iops != 3000) ||
			      sc->iops_per_gb > 0 ||
			      (sc->throughput_mibps &&
			       sc->throughput_mibps != 125)
			: sc->iops || sc->iops_per_gb != s->iops_per_gb)
			continue;
		return sc;
	}
	return NULL;
}

/* A class name no StorageClass has: TYPE, ebs-TYPE, ebsize-TYPE, -2.. */
static void free_sc_name(const struct scan_k8s *c, enum vol_type t, char *buf,
			 size_t n)
{
	const char *type = model_type_name(t);

	xsnprintf(buf, n, "%s", type);
	if (!strmap_get(&c->sc_by_name, buf))
		return;
	xsnprintf(buf, n, "ebs-%s", type);
	if (!strmap_get(&c->sc_by_name, buf))
		return;
	xsnprintf(buf, n, "ebsize-%s", type);
	for (size_t i = 2; strmap_get(&c->sc_by_name, buf); i++)
		xsnprintf(buf, n, "ebsize-%s-%zu", type, i);
}

/*
 * The fix of f: a class of type t keeping what old had (encryption, key,
 * file system, reclaim policy; an in-tree class's IOPS per GiB), made the
 * default; an existing class that already is one is reused.  The old
 * defaults (olds) are annotated "false".
 */
static void set_fix(const struct scan_k8s *c, struct scan_cluster_finding *f,
		    const struct inv_sc *old, enum vol_type t,
		    const struct inv_sc *const *olds, size_t nolds)
{
	struct scan_sc_spec *s = &f->spec;

	if (old->kms_unsafe)
		return; /* the reason says so; no class without its key */
	f->has_fix = 1;
	s->type = t;
	s->encrypted = old->encrypted;
	s->kms_key_id = old->kms_key_id;
	s->fstype = old->fstype;
	s->retain = old->retain;
	if (t != VT_GP3) {
		s->iops_per_gb = old->iops_per_gb;
		s->auto_iops_increase = old->auto_iops_increase;
	}
	if ((f->keep = replacement(c, s))) {
		xsnprintf(s->name, sizeof(s->name), "%s", f->keep->name);
		f->make_default = annotate_cmd(&f->keep, 1, "true");
	} else {
		free_sc_name(c, t, s->name, sizeof(s->name));
		f->manifest = scan_k8s_sc_manifest(s);
		f->create = scan_k8s_sc_create(s);
	}
	if (nolds)
		f->annotate = annotate_cmd(olds, nolds, "false");
}

/* The sentence about new volumes' price, into b (nothing unpriced). */
static void price_sentence(const struct scan_cluster_finding *f,
			   const char *region, struct sbuf *b)
{
	char gp2[32], gp3[32];

	if (!f->priced)
		return;
	scan_k8s_fmt_rate(f->gp3_usd_per_gib, gp3, sizeof(gp3));
	scan_k8s_fmt_rate(f->gp2_usd_per_gib, gp2, sizeof(gp2));
	sbuf_addf(
	    b,
	    "; a new volume on gp3 costs %s instead of %s per GiB-month in %s (%.0f %% less), 3,000 IOPS and 125 MiB/s included",
	    gp3, gp2, region,
	    (f->gp2_usd_per_gib - f->gp3_usd_per_gib) / f->gp2_usd_per_gib *
		100.0);
}

/* The reason of a finding that replaces the default class. */
static void fix_reason(struct scan_cluster_finding *f, const char *region,
		       const struct inv_sc *old)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);

	if (f->cat == SCAN_CL_NO_DEFAULT) {
		sbuf_addf(
		    &b,
		    "no StorageClass is the default and %zu claim%s name%s gp2 classes (",
		    f->gp2_pvcs, f->gp2_pvcs == 1 ? "" : "s",
		    f->gp2_pvcs == 1 ? "s" : "");
		name_list(f->classes, f->nclasses, &b);
		sbuf_addstr(&b, ")");
	} else {
		sbuf_addstr(&b, "the default StorageClass ");
		name_list(f->classes, f->nclasses, &b);
		if (f->cat == SCAN_CL_DEFAULT_GP2)
			sbuf_addf(
			    &b,
			    " provisions gp2%s: every claim without a class gets gp2",
			    f->in_tree
				? " with the in-tree provisioner kubernetes.io/aws-ebs"
				: "");
		else
			sbuf_addf(
			    &b,
			    " uses the in-tree provisioner kubernetes.io/aws-ebs (%s): a VolumeAttributesClass does not reach its volumes",
			    model_type_name(old->type));
	}
	if (f->cat != SCAN_CL_DEFAULT_IN_TREE)
		price_sentence(f, region, &b);
	if (f->cat != SCAN_CL_NO_DEFAULT)
		sbuf_addf(&b, "; %zu claim%s bound to gp2 classes", f->gp2_pvcs,
			  f->gp2_pvcs == 1 ? " is" : "s are");
	if (!f->has_fix)
		sbuf_addf(
		    &b,
		    "; its kmsKeyId is not a key id, alias or ARN: write the new class by hand");
	else if (f->keep)
		sbuf_addf(
		    &b,
		    "; StorageClass '%s' already is one: make it the default",
		    f->keep->name);
	else
		sbuf_addf(
		    &b,
		    "; create StorageClass '%s' (EBS CSI driver, %s) as the default",
		    f->spec.name, model_type_name(f->spec.type));
	f->reason = sbuf_detach(&b, NULL);
}

static struct scan_cluster_finding *new_finding(
    struct scan_cluster_finding **out, size_t *n, size_t *alloc,
    enum scan_cluster_cat cat, const struct inv_sc *const *sc, size_t nsc)
{
	struct scan_cluster_finding *f;

	xgrow((void **)out, alloc, *n + 1, sizeof(**out));
	f = &(*out)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->cat = cat;
	f->nclasses = nsc;
	f->classes = xcalloc(nsc ? nsc : 1, sizeof(*f->classes));
	for (size_t i = 0; i < nsc; i++) {
		f->classes[i] = sc[i];
		f->in_tree |= sc[i]->in_tree;
	}
	return f;
}

/*
 * The gp2 classes claims are bound to, into out, the most used first
 * (ties: the order read).  Returns how many.
 */
static size_t used_gp2(const struct scan_k8s *c, const struct inv_sc **out)
{
	size_t *count = xcalloc(c->k->nsc + 1, sizeof(*count)), n = 0;

	for (size_t i = 0; i < c->k->nsc; i++) {
		size_t m, j;

		if (!is_gp2(&c->k->sc[i]) || !(m = claims_of(c, &c->k->sc[i])))
			continue;
		for (j = n; j > 0 && count[j - 1] < m; j--) {
			out[j] = out[j - 1];
			count[j] = count[j - 1];
		}
		out[j] = &c->k->sc[i];
		count[j] = m;
		n++;
	}
	free(count);
	return n;
}

/* The several-defaults finding; fixed is 1 when another finding's
 * commands already leave one default. */
static void several(struct scan_cluster_finding *f,
		    const struct inv_sc *gp3_default, int fixed)
{
	struct sbuf b = SBUF_INIT(TEXT_CAP);
	const struct inv_sc **others;
	size_t n = 0;

	sbuf_addf(&b, "%zu StorageClasses are marked default (", f->nclasses);
	name_list(f->classes, f->nclasses, &b);
	sbuf_addf(
	    &b,
	    "): which one a claim without a class gets depends on the Kubernetes version (the newest, '%.64s', on recent ones; older ones refuse such claims)",
	    f->classes[0]->name);
	if (fixed) {
		sbuf_addstr(
		    &b,
		    "; the commands of the finding above leave one default");
	} else {
		f->keep = gp3_default ? gp3_default : f->classes[0];
		sbuf_addf(&b, "; keep '%.64s'%s as the only default",
			  f->keep->name,
			  gp3_default ? " (gp3, EBS CSI driver)" : "");
		others = xcalloc(f->nclasses, sizeof(*others));
		for (size_t i = 0; i < f->nclasses; i++)
			if (f->classes[i] != f->keep)
				others[n++] = f->classes[i];
		f->annotate = annotate_cmd(others, n, "false");
		free(others);
	}
	f->reason = sbuf_detach(&b, NULL);
}

void scan_k8s_cluster(const struct scan_k8s *c, const char *region,
		      const struct price_set *ps,
		      struct scan_cluster_finding **out, size_t *n)
{
	const struct inv_k8s *k = c->k;
	const struct inv_sc **defs = xcalloc(k->nsc + 1, sizeof(*defs));
	const struct inv_sc **gp2 = xcalloc(k->nsc + 1, sizeof(*gp2));
	const struct inv_sc *gp3_default = NULL, *in_tree = NULL, *old = NULL;
	struct scan_cluster_finding *f = NULL;
	size_t ndefs = 0, ngp2 = 0, alloc = 0, claims = scan_k8s_gp2_claims(c);

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < k->nsc; i++)
		if (k->sc[i].is_default)
			defs[ndefs++] = &k->sc[i];
	if (ndefs)
		qsort(defs, ndefs, sizeof(*defs), newest_first);
	for (size_t i = 0; i < ndefs; i++) {
		if (defs[i]->ebs && !defs[i]->in_tree &&
		    defs[i]->type == VT_GP3 && !gp3_default)
			gp3_default = defs[i];
		if (is_gp2(defs[i]))
			gp2[ngp2++] = defs[i];
		else if (defs[i]->in_tree && !in_tree)
			in_tree = defs[i];
	}
	if (!gp3_default && ngp2) {
		f = new_finding(out, n, &alloc, SCAN_CL_DEFAULT_GP2, gp2, ngp2);
		old = gp2[0];
		set_fix(c, f, old, VT_GP3, defs, ndefs);
	} else if (!gp3_default && in_tree) {
		f = new_finding(out, n, &alloc, SCAN_CL_DEFAULT_IN_TREE,
				&in_tree, 1);
		old = in_tree;
		set_fix(c, f, old, in_tree->type, defs, ndefs);
	} else if (!ndefs && claims && (ngp2 = used_gp2(c, gp2))) {
		f = new_finding(out, n, &alloc, SCAN_CL_NO_DEFAULT, gp2, ngp2);
		old = gp2[0];
		set_fix(c, f, old, VT_GP3, NULL, 0);
	}
	if (f) {
		f->gp2_pvcs = claims;
		f->priced = ps && ps->type[VT_GP2].have_storage &&
			    ps->type[VT_GP3].have_storage &&
			    ps->type[VT_GP2].storage_per_gib_month > 0;
		if (f->priced) {
			f->gp2_usd_per_gib =
			    scan_usd(ps->type[VT_GP2].storage_per_gib_month);
			f->gp3_usd_per_gib =
			    scan_usd(ps->type[VT_GP3].storage_per_gib_month);
		}
		fix_reason(f, region, old);
	}
	if (ndefs > 1) {
		int fixed = *n > 0;

		f = new_finding(out, n, &alloc, SCAN_CL_SEVERAL_DEFAULTS, defs,
				ndefs);
		f->gp2_pvcs = claims;
		several(f, gp3_default, fixed);
	}
	free(defs);
	free(gp2);
}

void scan_cluster_findings_free(struct scan_cluster_finding *f, size_t n)
{
	for (size_t i = 0; f && i < n; i++) {
		free(f[i].classes);
		free(f[i].reason);
		free(f[i].manifest);
		free(f[i].create);
		free(f[i].annotate);
		free(f[i].make_default);
	}
	free(f);
}
