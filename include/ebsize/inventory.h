/*
 * inventory.h - reading what a FinOps team exports: `aws ec2
 * describe-volumes` output (streamed, one volume at a time), `kubectl get
 * pv|storageclass -o json`, `aws cloudwatch get-metric-data` output for the
 * AWS/EBS metrics, and a `volume_id,used_gib` usage CSV.  Bytes in, plain
 * structs out; inventory_parse.c is the only user of cJSON here.  Nothing
 * here prints: failures are an enum ebs_err plus a message naming the file
 * and the place; per-record problems go to a struct inv_warnings.
 *
 * Formats: ../shared/formats.md sections 3, 5 and 7.
 */
#ifndef EBSIZE_INVENTORY_H
#define EBSIZE_INVENTORY_H

#include <stddef.h>

#include "ebsize/model.h"

/* Largest describe-volumes or get-metric-data file read (mapped) at once,
 * both walked one element at a time: 2 GiB. */
#define INV_VOLUMES_CAP ((size_t)2 << 30)
/* Largest kubectl / usage file: 256 MiB (parsed whole). */
#define INV_SMALL_CAP ((size_t)256 << 20)
/* Largest single element of Volumes[] (its text): 1 MiB. */
#define INV_VOLUME_CAP ((size_t)1 << 20)
/* Tags kept per volume (AWS allows 50 per resource). */
#define INV_MAX_TAGS 64

/* What an input file holds, told by its content. */
enum inv_kind {
	INV_UNKNOWN,
	INV_VOLUMES, /* {"Volumes": [...]} */
	INV_K8S,     /* a kubectl object or List (PV, PVC, classes) */
	INV_METRICS  /* {"MetricDataResults": [...]} */
};

/*
 * Look at the top-level member names of a JSON document (without parsing
 * values) and say what it is.  INV_UNKNOWN for anything else, including
 * text that is not a JSON object.
 */
enum inv_kind inventory_detect(const char *buf, size_t len);

/* Messages about single records (the file stays usable). */
struct inv_warnings {
	char **msg;
	size_t n, alloc;
};
void inv_warn(struct inv_warnings *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void inv_warnings_release(struct inv_warnings *w);

/* ------------------------------------------------------------ volumes */

struct inv_tag {
	const char *key;
	const char *value;
};

/*
 * One element of Volumes[], as handed to the callback.  Every pointer is
 * valid only during the callback.  problem is NULL for a usable record,
 * else why it is not (a missing or malformed required member, an unknown
 * volume type); id is NULL when VolumeId itself is unusable.
 */
struct inv_volume {
	const char *id;
	enum vol_type type;
	long size_gib;
	long iops;	       /* 0 when absent (standard) or null */
	long throughput_mibps; /* 0 when absent (all but gp3) */
	const char *state;     /* "in-use", "available", ...; NULL absent */
	const char *az;
	size_t nattachments;
	int multi_attach;	/* MultiAttachEnabled, or > 1 attachment */
	int encrypted;		/* "Encrypted": true */
	const char *kms_key_id; /* "KmsKeyId" (checked: safe in a shell
				    line); NULL absent */
	const struct inv_tag *tags;
	size_t ntags;
	size_t index;	   /* position in Volumes[] (0-based) */
	size_t line;	   /* line of the element in the file */
	size_t end_offset; /* bytes of the file consumed so far */
	const char *problem;
};

typedef int (*inv_volume_fn)(const struct inv_volume *v, void *arg);

/*
 * Walk a describe-volumes document (name is the file name for messages),
 * calling fn for each element of Volumes[] in order.  Each element is
 * parsed on its own into a per-element arena, so memory does not grow with
 * the file.  Any member besides Volumes is validated and ignored
 * (NextToken).  Invalid JSON anywhere is EBS_ERR_PARSE with the line;
 * EBS_ERR_TOO_BIG for an element over INV_VOLUME_CAP.  fn returning
 * non-zero stops the walk and that value is returned (err untouched).
 */
int inventory_each_volume(const char *name, const char *buf, size_t len,
			  inv_volume_fn fn, void *arg, char *err);

/* ------------------------------------------------------------ Kubernetes */

/* StorageClass default markers (metadata.annotations ... "true"). */
#define INV_SC_DEFAULT 1u /* storageclass.kubernetes.io/is-default-class */
#define INV_SC_DEFAULT_BETA \
	2u /* storageclass.beta.kubernetes.io/is-default-class */

/*
 * A StorageClass: what the EBS provisioner makes of its parameters, and
 * what a replacement class must keep.  Classes of other provisioners are
 * kept too (ebs 0; only name, provisioner, default and order matter):
 * they count among the default classes.
 */
struct inv_sc {
	char *name;
	int ebs;		/* ebs.csi.aws.com or kubernetes.io/aws-ebs */
	enum vol_type type;	/* CSI default gp3, in-tree default gp2 */
	long iops;		/* parameters.iops, 0 absent */
	double iops_per_gb;	/* parameters.iopsPerGB, 0 absent */
	long throughput_mibps;	/* parameters.throughput, 0 absent */
	int auto_iops_increase; /* allowAutoIOPSPerGBIncrease */
	int in_tree;		/* provisioner kubernetes.io/aws-ebs */
	unsigned is_default;	/* INV_SC_DEFAULT | INV_SC_DEFAULT_BETA */
	int encrypted;		/* parameters.encrypted "true" */
	char *kms_key_id;	/* parameters.kmsKeyId (checked); NULL */
	int kms_unsafe;		/* kmsKeyId given, not a key id, alias or ARN */
	char *fstype;		/* csi.storage.k8s.io/fstype (in-tree: fsType),
				    [a-z0-9] only; NULL */
	int retain;		/* reclaimPolicy Retain */
	char *provisioner;
	char created[32]; /* metadata.creationTimestamp; "" absent */
	size_t order;	  /* position among the classes read */
};

/* An EBS-backed PersistentVolume. */
struct inv_pv {
	char *name;
	char vol_id[32];
	char *az;	     /* from nodeAffinity or aws://ZONE/vol-..; NULL */
	long size_gib;	     /* capacity.storage rounded up to GiB */
	char *storage_class; /* NULL when none */
	char *ns, *pvc;	     /* claimRef; NULL when unbound */
	char *vac;	     /* spec.volumeAttributesClassName; NULL */
	char *file;
	size_t index;
	int in_tree;  /* spec.awsElasticBlockStore (not CSI) */
	int migrated; /* pv.kubernetes.io/migrated-to: ebs.csi.aws.com */
	/* volume-modifier-for-k8s annotations (ebs.csi.aws.com/volumeType,
	 * /iops, /throughput: what the volume was modified to) */
	int ann_have_type;
	enum vol_type ann_type;
	long ann_iops; /* 0 absent */
	long ann_throughput_mibps;
};

/* status.modifyVolumeStatus.status of a claim (KEP-3751). */
enum inv_modify {
	INV_MOD_NONE,	     /* no modification under way */
	INV_MOD_PENDING,     /* "Pending", or spec and status disagree */
	INV_MOD_IN_PROGRESS, /* "InProgress" */
	INV_MOD_INFEASIBLE,  /* "Infeasible": the driver refused it */
	INV_MOD_OTHER	     /* a status this version does not know */
};

/* A PersistentVolumeClaim (kubectl get pvc -A -o json). */
struct inv_pvc {
	char *ns, *name;
	char *storage_class; /* spec.storageClassName; NULL */
	char *volume;	     /* spec.volumeName (the PV); NULL */
	char *vac;	     /* spec.volumeAttributesClassName; NULL */
	char *current_vac;   /* status.currentVolumeAttributesClassName */
	char *target_vac;    /* status.modifyVolumeStatus
				    .targetVolumeAttributesClassName */
	enum inv_modify modify;
	int bound; /* status.phase Bound */
	char *file;
	size_t index;
};

/* A VolumeAttributesClass (kubectl get volumeattributesclass -o json). */
struct inv_vac {
	char *name;
	char *api_version; /* "storage.k8s.io/v1", ...; NULL other */
	int ebs;	   /* driverName ebs.csi.aws.com */
	int have_type;	   /* parameters.type (or the older volumeType) */
	enum vol_type type;
	long iops;	       /* parameters.iops; 0 absent */
	long throughput_mibps; /* parameters.throughput; 0 absent */
	int tags;	       /* tagSpecification_N parameters */
	int other;	       /* parameters the EBS driver does not read */
	int invalid;	       /* a value the driver cannot parse */
	char *file;
	size_t index;
};

struct inv_k8s {
	struct inv_sc *sc;
	size_t nsc, asc;
	struct inv_pv *pv;
	size_t npv, apv;
	struct inv_pvc *pvc;
	size_t npvc, apvc;
	struct inv_vac *vac;
	size_t nvac, avac;
};

/*
 * Add the StorageClasses, EBS PersistentVolumes, PersistentVolumeClaims
 * and VolumeAttributesClasses of a kubectl JSON document (one object or a
 * List, of one kind or several) to k.  Objects of other kinds and PVs of
 * other drivers are skipped; unusable objects are warned about (naming
 * the file and the object, or its position in "items") and skipped.  Bytes
 * in (len at most INV_SMALL_CAP): invalid JSON is EBS_ERR_PARSE with the
 * line, an "items" that is not an array EBS_ERR_PARSE too.
 */
int inventory_parse_k8s(const char *name, const char *buf, size_t len,
			struct inv_k8s *k, struct inv_warnings *w, char *err);
void inv_k8s_release(struct inv_k8s *k);

/*
 * Parse a Kubernetes quantity ("3Gi", "1Ti", "500G", "1073741824") into
 * whole GiB, rounded up.  0 on success, -1 for anything else.
 */
int inventory_quantity_gib(const char *s, long *gib);

/* ------------------------------------------------------------ CloudWatch */

enum inv_metric {
	IM_READ_OPS,
	IM_WRITE_OPS,
	IM_READ_BYTES,
	IM_WRITE_BYTES,
	IM_BURST_BALANCE,
	IM_IOPS_EXCEEDED,
	IM_TPUT_EXCEEDED,
	IM_COUNT
};

/* AWS metric name ("VolumeReadOps") and the short name used in query ids. */
const char *inventory_metric_name(enum inv_metric m);
const char *inventory_metric_abbr(enum inv_metric m);

/* One metric of one volume: values at epoch-second timestamps. */
struct inv_series {
	char vol_id[32];
	enum inv_metric metric;
	long period_s;
	size_t n;
	long long *t;
	double *v;
	const char *file; /* not owned */
};

struct inv_metrics {
	struct inv_series *s;
	size_t n, alloc;
};

/*
 * Add the results of a get-metric-data document to m.  A result names its
 * volume, metric and period by the query id scheme of
 * inventory_metric_queries ("rops_300_vol_0abc..."), or else by a Label
 * "vol-0abc... VolumeReadOps 300".  Results that do neither are warned
 * about and skipped; so are PartialData/Forbidden ones (named).
 * file is kept (not copied) in each series.
 */
int inventory_parse_metrics(const char *name, const char *buf, size_t len,
			    struct inv_metrics *m, struct inv_warnings *w,
			    char *err);

/* Largest single MetricDataResults element (its JSON text). */
#define INV_METRIC_RESULT_CAP ((size_t)64 << 20)

void inv_metrics_release(struct inv_metrics *m);

/*
 * The --metric-data-queries JSON for the volume ids (a heap string the
 * caller frees): seven queries per volume (ops, bytes, BurstBalance and the
 * two ExceededChecks), Sum / Minimum / Maximum as fits, period_s.
 */
char *inventory_metric_queries(const char *const *ids, size_t n, long period_s);

/*
 * 1 when s can be a KMS key id, alias or ARN: 1 to 2,048 characters of
 * A-Z a-z 0-9 : / _ - (safe inside a shell line).
 */
int inventory_valid_kms_key(const char *s);

/* 1 when s is an EBS volume id: "vol-" and 8 to 17 lowercase hex digits. */
int inventory_valid_volume_id(const char *s);

/* ------------------------------------------------------------ usage CSV */

struct inv_usage_row {
	char vol_id[32];
	double used_gib;
	size_t line;
};

struct inv_usage {
	struct inv_usage_row *row;
	size_t n, alloc;
};

/*
 * Parse a CSV of `volume_id,used_gib` (an optional header row naming
 * volume_id first).  A malformed row is EBS_ERR_PARSE naming the line.
 */
int inventory_parse_usage(const char *name, const char *buf, size_t len,
			  struct inv_usage *u, char *err);
void inv_usage_release(struct inv_usage *u);

#endif
