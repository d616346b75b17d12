/*
 * scan_k8s.h - the Kubernetes side of `ebsize scan` (src/scan_k8s.c): what
 * the cluster's objects say about a volume and about the cluster.
 *
 *   - A PersistentVolume's current configuration beyond its StorageClass:
 *     the volume-modifier-for-k8s annotations and the VolumeAttributesClass
 *     its claim is on.
 *   - The plan for one finding: patch the claim to a VolumeAttributesClass
 *     (an existing class whose parameters give exactly the proposal, else
 *     an ebsize-* class whose name is free), change an in-tree volume with
 *     aws ec2 modify-volume, or nothing while a modification is pending,
 *     in progress or refused.
 *   - Cluster findings, which belong to no single volume: the default
 *     StorageClass provisions gp2 (or is in-tree), several classes are the
 *     default, none is and claims name gp2 classes; each with the gp3
 *     StorageClass manifest and the kubectl lines that fix it.
 *   - The text: manifests (YAML), one-line kubectl commands.
 *
 * Pure: no I/O, no printing; objects come from inventory_parse.c, prices
 * as a struct.  Every name pasted into a command is checked first
 * (scan_k8s_name_ok); a name that fails gets no command.
 * Sources: ebs-facts.md T12-T14, formats.md section 7.
 */
#ifndef EBSIZE_SCAN_K8S_H
#define EBSIZE_SCAN_K8S_H

#include <stddef.h>

#include "ebsize/inventory.h"
#include "ebsize/model.h"
#include "ebsize/scan.h"
#include "ebsize/strmap.h"

/* The objects of a cluster, indexed by name (init once, read-only after). */
struct scan_k8s {
	const struct inv_k8s *k;
	struct strmap sc_by_name;
	struct strmap pvc_by_key; /* "namespace/name" */
	struct strmap vac_by_name;
	const char *vac_api;	  /* the API version manifests use */
	int vac_api_from_cluster; /* 1: read from the given classes */
};

/* Index k (which must outlive c).  Duplicate names: the first wins. */
void scan_k8s_init(struct scan_k8s *c, const struct inv_k8s *k);
void scan_k8s_release(struct scan_k8s *c);

/* 1 when s is a Kubernetes object name (RFC 1123 subdomain, <= 253). */
int scan_k8s_name_ok(const char *s);

/* The EBS StorageClass named name (ebs 1), or NULL. */
const struct inv_sc *scan_k8s_sc(const struct scan_k8s *c, const char *name);
/* The claim of a PV (by its claimRef), or NULL. */
const struct inv_pvc *scan_k8s_pvc_of(const struct scan_k8s *c,
				      const struct inv_pv *pv);
/* The VolumeAttributesClass named name, or NULL. */
const struct inv_vac *scan_k8s_vac(const struct scan_k8s *c, const char *name);

/*
 * What the volume becomes when the EBS CSI driver applies class v to a
 * volume configured cur (ModifyVolume rules, A1: a parameter not given
 * keeps its value when the type stays; a change to gp3, io1 or io2 gets
 * 3,000 IOPS, a change to gp3 125 MiB/s).  0 with *out set, or -1 when
 * the class cannot apply (another driver's, a value the driver cannot
 * read, IOPS for a type without them, throughput for another than gp3).
 */
int scan_k8s_vac_apply(const struct inv_vac *v, const struct vol_config *cur,
		       struct vol_config *out);

/*
 * The configuration of a PV from its class beyond the StorageClass (cfg
 * holds the StorageClass's, scan_pv_config): the volume-modifier
 * annotations, then the VolumeAttributesClass its claim is on (status, or
 * the PV's spec).  lim: the rules of every type.  0, or -1 with why (a
 * sentence for a warning) when the PV cannot be configured: its class is
 * not given or cannot apply.
 */
int scan_k8s_pv_config(const struct scan_k8s *c,
		       const struct volume_limits lim[VT_COUNT],
		       const struct inv_pv *pv, struct vol_config *cfg,
		       char *why, size_t n);

/* ------------------------------------------------------------ one volume */

enum scan_k8s_method {
	SCAN_K8S_NONE,		/* not a change in place, or no PV */
	SCAN_K8S_VAC,		/* patch the claim to a VolumeAttributesClass */
	SCAN_K8S_MODIFY_VOLUME, /* in-tree: aws ec2 modify-volume */
	SCAN_K8S_BLOCKED	/* a modification is under way or refused */
};

struct scan_k8s_plan {
	enum scan_k8s_method method;
	const struct inv_pvc *pvc; /* the claim, when given */
	char vac[254];		   /* SCAN_K8S_VAC: the class to patch to */
	int reused;		   /* ... an existing class of the cluster */
	const char *status;	   /* the claim's modification under way:
					 "InProgress", ...; NULL none (the
					 method is BLOCKED but for in-tree) */
	const char *target;	   /* ... the class it moves to; may be NULL */
	const char *note;	   /* a sentence for the finding; NULL */
};

/*
 * The plan of finding f of the volume behind pv (NULL: not a Kubernetes
 * volume).  Only in-place changes (no new volume, not unattached or
 * excluded) have a method other than NONE.
 */
void scan_k8s_plan(const struct scan_k8s *c, const struct inv_pv *pv,
		   const struct scan_finding *f, struct scan_k8s_plan *p);

/* "InProgress", "Pending", "Infeasible", "unknown"; NULL for none. */
const char *scan_k8s_modify_name(enum inv_modify m);

/*
 * Text of a SCAN_K8S_VAC plan, heap strings the caller frees (NULL when
 * not applicable: another method, a reused class, a bad name):
 *   manifest: the VolumeAttributesClass (YAML, c->vac_api) with type, IOPS
 *     and throughput together (one modification per volume, T14);
 *   create: the same as one line (JSON piped to kubectl apply -f -);
 *   patch: kubectl patch pvc NAME -n NS to the class;
 *   verify: the jsonpath read of status.currentVolumeAttributesClassName
 *     (also for a blocked plan: it says when the modification is done).
 */
char *scan_k8s_vac_manifest(const struct scan_k8s *c,
			    const struct scan_k8s_plan *p,
			    const struct vol_config *prop);
char *scan_k8s_vac_create(const struct scan_k8s *c,
			  const struct scan_k8s_plan *p,
			  const struct vol_config *prop);
char *scan_k8s_patch(const struct scan_k8s_plan *p, const char *ns,
		     const char *pvc);
char *scan_k8s_verify(const struct scan_k8s_plan *p, const char *ns,
		      const char *pvc);

/* ------------------------------------------------------------ cluster */

enum scan_cluster_cat {
	SCAN_CL_DEFAULT_GP2,	  /* the default class provisions gp2 */
	SCAN_CL_DEFAULT_IN_TREE,  /* ... uses the in-tree provisioner */
	SCAN_CL_SEVERAL_DEFAULTS, /* more than one class is the default */
	SCAN_CL_NO_DEFAULT,	  /* none is, and claims name gp2 classes */
	SCAN_CL_COUNT
};

/* "default_class_gp2", ... (the JSON value). */
const char *scan_cluster_cat_name(enum scan_cluster_cat c);

/* The class a fix creates (or makes the default). */
struct scan_sc_spec {
	char name[64];
	enum vol_type type;
	double iops_per_gb; /* kept from an in-tree io1 class; 0 none */
	int auto_iops_increase;
	int encrypted;
	const char *kms_key_id; /* not owned */
	const char *fstype;	/* not owned */
	int retain;
};

struct scan_cluster_finding {
	enum scan_cluster_cat cat;
	const struct inv_sc **classes; /* the classes concerned (owned array) */
	size_t nclasses;
	int in_tree;		/* one of them is in-tree */
	size_t gp2_pvcs;	/* claims bound to gp2 classes */
	int priced;		/* the per-GiB figures are known */
	double gp2_usd_per_gib; /* storage, per GiB-month */
	double gp3_usd_per_gib;
	int has_fix;		   /* spec / keep below say what */
	struct scan_sc_spec spec;  /* the class that becomes default */
	const struct inv_sc *keep; /* ... an existing one (no manifest) */
	char *reason;
	char *manifest;	    /* YAML; NULL none */
	char *create;	    /* kubectl apply line; NULL none */
	char *annotate;	    /* old defaults -> "false"; NULL none */
	char *make_default; /* an existing class -> "true"; NULL */
};

/*
 * The cluster findings of c (none without StorageClasses).  region names
 * the prices in ps (the cluster's region; NULL ps: not priced).  *out is
 * a heap array of *n findings; free with scan_cluster_findings_free.
 */
void scan_k8s_cluster(const struct scan_k8s *c, const char *region,
		      const struct price_set *ps,
		      struct scan_cluster_finding **out, size_t *n);
void scan_cluster_findings_free(struct scan_cluster_finding *f, size_t n);

/* Claims bound to EBS gp2 StorageClasses (from the PVCs, else the PVs). */
size_t scan_k8s_gp2_claims(const struct scan_k8s *c);

/* "$0.08", "$0.0912", "$0.114": a price per GiB-month as people write it
 * (at least two decimals, at most four). */
void scan_k8s_fmt_rate(double usd, char *buf, size_t n);

/* The StorageClass manifest of spec (YAML) and as one kubectl line. */
char *scan_k8s_sc_manifest(const struct scan_sc_spec *spec);
char *scan_k8s_sc_create(const struct scan_sc_spec *spec);

#endif
