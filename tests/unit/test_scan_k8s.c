/*
 * test_scan_k8s.c - the Kubernetes rules of `ebsize scan` (src/scan_k8s.c)
 * and the kubectl parser behind them (src/inventory_parse.c): what a
 * VolumeAttributesClass does to a volume, which class a claim is patched
 * to (reused, or a free ebsize-* name), in-tree volumes, claims with a
 * modification under way, the cluster findings on default StorageClasses
 * and their manifests.  Every cluster object below is GENERATED test data
 * written here as kubectl JSON; prices and limits come from a real seeded
 * database (ebs-facts.md T6: us-east-1 gp2 0.10, gp3 0.08 per GiB-month).
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "ebsize/db.h"
#include "ebsize/scan_k8s.h"
#include "ebsize/util.h"

/* Parse a generated kubectl document into k (warnings into w). */
static int load(const char *doc, struct inv_k8s *k, struct inv_warnings *w)
{
	char err[EBS_ERRLEN];

	memset(k, 0, sizeof(*k));
	memset(w, 0, sizeof(*w));
	return inventory_parse_k8s("gen.json", doc, strlen(doc), k, w, err);
}

static int warned(const struct inv_warnings *w, const char *what)
{
	for (size_t i = 0; i < w->n; i++)
		if (strstr(w->msg[i], what))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ classes */

static void vac_apply(void)
{
	/* A1 (ModifyVolume): what is not given is kept when the type stays;
	 * a change to gp3/io1/io2 gets 3,000 IOPS, a change to gp3 125 MiB/s */
	static const struct {
		struct inv_vac v;
		struct vol_config cur, want;
		int rc;
		const char *why;
	} rows[] = {
		{ { .ebs = 1, .have_type = 1, .type = VT_GP3 },
		  { VT_GP2, 100, 0, 0, 1, 0 },
		  { VT_GP3, 100, 3000, 125, 1, 0 },
		  0,
		  "gp2 + {type gp3}: 3,000 IOPS and 125 MiB/s by default" },
		{ { .ebs = 1, .have_type = 1, .type = VT_GP3 },
		  { VT_GP3, 100, 6000, 500, 1, 0 },
		  { VT_GP3, 100, 6000, 500, 1, 0 },
		  0,
		  "gp3 + {type gp3}: IOPS and throughput kept" },
		{ { .ebs = 1, .iops = 3000 },
		  { VT_GP3, 100, 6000, 500, 1, 0 },
		  { VT_GP3, 100, 3000, 500, 1, 0 },
		  0,
		  "gp3 + {iops 3000}: throughput kept" },
		{ { .ebs = 1, .have_type = 1, .type = VT_IO2 },
		  { VT_IO1, 100, 5000, 0, 1, 0 },
		  { VT_IO2, 100, 3000, 0, 1, 0 },
		  0,
		  "io1 + {type io2}: a type change gets 3,000 IOPS" },
		{ { .ebs = 1,
		    .have_type = 1,
		    .type = VT_GP3,
		    .iops = 4000,
		    .throughput_mibps = 250 },
		  { VT_IO2, 100, 5000, 0, 1, 0 },
		  { VT_GP3, 100, 4000, 250, 1, 0 },
		  0,
		  "io2 + {gp3, 4000, 250}: all three at once" },
		{ { .ebs = 1, .have_type = 1, .type = VT_GP2, .iops = 3000 },
		  { VT_GP3, 100, 3000, 125, 1, 0 },
		  { 0 },
		  -1,
		  "IOPS on gp2: cannot apply" },
		{ { .ebs = 1, .throughput_mibps = 250 },
		  { VT_IO1, 100, 3000, 0, 1, 0 },
		  { 0 },
		  -1,
		  "throughput on io1: cannot apply" },
		{ { .ebs = 0, .have_type = 1, .type = VT_GP3 },
		  { VT_GP2, 100, 0, 0, 1, 0 },
		  { 0 },
		  -1,
		  "another driver's class" },
		{ { .ebs = 1, .invalid = 1 },
		  { VT_GP2, 100, 0, 0, 1, 0 },
		  { 0 },
		  -1,
		  "a value the driver cannot read" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct vol_config got = { 0 };
		int rc = scan_k8s_vac_apply(&rows[i].v, &rows[i].cur, &got);

		CHECK(rc == rows[i].rc &&
			  (rc || (got.type == rows[i].want.type &&
				  got.iops == rows[i].want.iops &&
				  got.throughput_mibps ==
				      rows[i].want.throughput_mibps &&
				  got.size_gib == rows[i].cur.size_gib)),
		      "class on a volume: %s (rc %d, %s %ld IOPS %ld MiB/s)",
		      rows[i].why, rc, model_type_name(got.type), got.iops,
		      got.throughput_mibps);
	}
}

static const char cluster_doc[] =
    "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": ["
    /* 1: a PV on gp2-csi whose claim is free */
    "{\"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"pv-a\"},"
    " \"spec\": {\"capacity\": {\"storage\": \"100Gi\"}, \"storageClassName\": \"gp2-csi\","
    "  \"claimRef\": {\"namespace\": \"shop\", \"name\": \"a\"},"
    "  \"csi\": {\"driver\": \"ebs.csi.aws.com\", \"volumeHandle\": \"vol-0e2e000000000a001\"}}},"
    /* 2: its claim's modification is in progress */
    "{\"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"pv-b\"},"
    " \"spec\": {\"capacity\": {\"storage\": \"100Gi\"}, \"storageClassName\": \"gp2-csi\","
    "  \"claimRef\": {\"namespace\": \"shop\", \"name\": \"b\"},"
    "  \"csi\": {\"driver\": \"ebs.csi.aws.com\", \"volumeHandle\": \"vol-0e2e000000000a002\"}}},"
    /* 3: in-tree, migrated */
    "{\"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"pv-c\","
    "  \"annotations\": {\"pv.kubernetes.io/migrated-to\": \"ebs.csi.aws.com\"}},"
    " \"spec\": {\"capacity\": {\"storage\": \"100Gi\"}, \"storageClassName\": \"gp2\","
    "  \"claimRef\": {\"namespace\": \"web\", \"name\": \"c\"},"
    "  \"awsElasticBlockStore\": {\"volumeID\": \"aws://us-east-1a/vol-0e2e000000000a003\"}}},"
    /* 4: modified by annotation to gp3 4,000 IOPS; its claim on a class */
    "{\"kind\": \"PersistentVolume\", \"metadata\": {\"name\": \"pv-d\","
    "  \"annotations\": {\"ebs.csi.aws.com/volumeType\": \"gp3\", \"ebs.csi.aws.com/iops\": \"4000\"}},"
    " \"spec\": {\"capacity\": {\"storage\": \"100Gi\"}, \"storageClassName\": \"gp2-csi\","
    "  \"claimRef\": {\"namespace\": \"shop\", \"name\": \"d\"},"
    "  \"csi\": {\"driver\": \"ebs.csi.aws.com\", \"volumeHandle\": \"vol-0e2e000000000a004\"}}},"
    "{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"a\", \"namespace\": \"shop\"},"
    " \"spec\": {\"storageClassName\": \"gp2-csi\", \"volumeName\": \"pv-a\"},"
    " \"status\": {\"phase\": \"Bound\"}},"
    "{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"b\", \"namespace\": \"shop\"},"
    " \"spec\": {\"storageClassName\": \"gp2-csi\", \"volumeName\": \"pv-b\","
    "  \"volumeAttributesClassName\": \"fast\"},"
    " \"status\": {\"phase\": \"Bound\", \"modifyVolumeStatus\": {\"status\": \"InProgress\","
    "  \"targetVolumeAttributesClassName\": \"fast\"}}},"
    "{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"c\", \"namespace\": \"web\"},"
    " \"spec\": {\"storageClassName\": \"gp2\"}, \"status\": {\"phase\": \"Bound\"}},"
    "{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"d\", \"namespace\": \"shop\"},"
    " \"spec\": {\"storageClassName\": \"gp2-csi\", \"volumeAttributesClassName\": \"tp250\"},"
    " \"status\": {\"phase\": \"Bound\", \"currentVolumeAttributesClassName\": \"tp250\"}},"
    "{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"e\"},"
    " \"spec\": {}},"
    "{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"f\", \"namespace\": \"shop\"},"
    " \"spec\": {\"volumeAttributesClassName\": \"fast\"},"
    " \"status\": {\"currentVolumeAttributesClassName\": \"slow\"}},"
    /* classes: a match under another name, one with tags, one whose
	 * ebsize name is taken with other parameters */
    "{\"apiVersion\": \"storage.k8s.io/v1beta1\", \"kind\": \"VolumeAttributesClass\","
    " \"metadata\": {\"name\": \"tagged\"}, \"driverName\": \"ebs.csi.aws.com\","
    " \"parameters\": {\"type\": \"gp3\", \"tagSpecification_1\": \"team=x\"}},"
    "{\"apiVersion\": \"storage.k8s.io/v1beta1\", \"kind\": \"VolumeAttributesClass\","
    " \"metadata\": {\"name\": \"fast\"}, \"driverName\": \"ebs.csi.aws.com\","
    " \"parameters\": {\"type\": \"gp3\", \"iops\": \"3000\", \"throughput\": \"125\"}},"
    "{\"apiVersion\": \"storage.k8s.io/v1beta1\", \"kind\": \"VolumeAttributesClass\","
    " \"metadata\": {\"name\": \"tp250\"}, \"driverName\": \"ebs.csi.aws.com\","
    " \"parameters\": {\"throughput\": \"250\"}},"
    "{\"apiVersion\": \"storage.k8s.io/v1beta1\", \"kind\": \"VolumeAttributesClass\","
    " \"metadata\": {\"name\": \"ebsize-gp3-3000-250\"}, \"driverName\": \"ebs.csi.aws.com\","
    " \"parameters\": {\"type\": \"gp3\", \"iops\": \"3000\"}},"
    "{\"apiVersion\": \"storage.k8s.io/v1beta1\", \"kind\": \"VolumeAttributesClass\","
    " \"metadata\": {\"name\": \"broken\"}, \"driverName\": \"ebs.csi.aws.com\","
    " \"parameters\": {\"iops\": \"many\"}},"
    "{\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"StorageClass\","
    " \"metadata\": {\"name\": \"gp2-csi\"}, \"provisioner\": \"ebs.csi.aws.com\","
    " \"parameters\": {\"type\": \"gp2\"}},"
    "{\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"StorageClass\","
    " \"metadata\": {\"name\": \"gp2\", \"annotations\": {\"storageclass.kubernetes.io/is-default-class\": \"true\"}},"
    " \"provisioner\": \"kubernetes.io/aws-ebs\", \"parameters\": {\"type\": \"gp2\", \"fsType\": \"ext4\"}}"
    "]}";

static void parse(void)
{
	struct inv_k8s k;
	struct inv_warnings w;
	char err[EBS_ERRLEN];

	CHECK(!load(cluster_doc, &k, &w), "generated cluster parses");
	CHECK(
	    k.npv == 4 && k.npvc == 5 && k.nvac == 5 && k.nsc == 2,
	    "4 PVs, 5 usable claims, 5 classes, 2 StorageClasses (got %zu %zu %zu %zu)",
	    k.npv, k.npvc, k.nvac, k.nsc);
	CHECK(
	    warned(
		&w,
		"'gen.json': item #9: persistent volume claim without a usable metadata.namespace; skipped"),
	    "a claim without a namespace is skipped, naming file and place");
	CHECK(
	    warned(
		&w,
		"volume attributes class 'broken' has a parameter the EBS CSI driver cannot read; never reused"),
	    "a class with an unreadable value is named");
	CHECK(k.pvc[1].modify == INV_MOD_IN_PROGRESS &&
		  !strcmp(k.pvc[1].target_vac, "fast"),
	      "modifyVolumeStatus InProgress and its target");
	CHECK(k.pvc[4].modify == INV_MOD_PENDING &&
		  !strcmp(k.pvc[4].target_vac, "fast"),
	      "spec asks for a class that is not yet the current one: Pending");
	CHECK(k.pv[2].in_tree && k.pv[2].migrated, "migrated in-tree PV");
	CHECK(k.pv[3].ann_have_type && k.pv[3].ann_type == VT_GP3 &&
		  k.pv[3].ann_iops == 4000,
	      "volume-modifier annotations read");
	CHECK(k.sc[1].in_tree && k.sc[1].is_default == INV_SC_DEFAULT &&
		  !strcmp(k.sc[1].fstype, "ext4"),
	      "in-tree default class, fsType kept");
	inv_k8s_release(&k);
	inv_warnings_release(&w);

	/* a name longer than the API server allows (253) is not an object */
	{
		char doc[512];

		xsnprintf(
		    doc, sizeof(doc),
		    "{\"kind\": \"StorageClass\", \"provisioner\": \"ebs.csi.aws.com\", \"metadata\": {\"name\": \"%0254d\"}}",
		    0);
		CHECK(
		    !load(doc, &k, &w) && k.nsc == 0 &&
			warned(
			    &w,
			    "'gen.json': the object: storage class without a usable metadata.name; skipped"),
		    "a 254-character name is refused, naming the file and the object");
		inv_k8s_release(&k);
		inv_warnings_release(&w);
	}
	memset(&k, 0, sizeof(k));
	CHECK(inventory_parse_k8s("l.json",
				  "{\"kind\": \"List\", \"items\": {}}", 30, &k,
				  &w, err) == EBS_ERR_PARSE &&
		  !strcmp(err,
			  "cannot parse 'l.json': \"items\" is not an array"),
	      "items that is not an array: %s", err);
	CHECK(
	    inventory_parse_k8s("l.json", "[1]", 3, &k, &w, err) ==
		    EBS_ERR_PARSE &&
		!strcmp(
		    err,
		    "cannot parse 'l.json': expected a kubectl object or List"),
	    "a document that is not an object: %s", err);
	CHECK(inventory_parse_k8s("l.json", "{\"items\": [", 11, &k, &w, err) ==
		      EBS_ERR_PARSE &&
		  strstr(err, "'l.json': line 1: invalid JSON"),
	      "truncated JSON: %s", err);
	inv_k8s_release(&k);
	inv_warnings_release(&w);
}

static void plans(void)
{
	struct volume_limits lim[VT_COUNT];
	struct inv_k8s k;
	struct inv_warnings w;
	struct scan_k8s c;
	struct scan_k8s_plan p;
	struct scan_finding f = { 0 };
	struct vol_config cfg;
	char err[EBS_ERRLEN], why[160], *s;

	for (int t = 0; t < VT_COUNT; t++)
		db_load_limits(test_db(), (enum vol_type)t, NULL, &lim[t], err);
	load(cluster_doc, &k, &w);
	scan_k8s_init(&c, &k);
	CHECK(!strcmp(c.vac_api, "storage.k8s.io/v1beta1") &&
		  c.vac_api_from_cluster,
	      "manifests use the API version of the cluster's classes (T13)");

	/* pv-a: gp2 100 GiB -> gp3 3,000/125; 'fast' says exactly that */
	f.cat = SCAN_GP2_TO_GP3;
	f.cur = (struct vol_config){ VT_GP2, 100, 0, 0, 1, 0 };
	f.prop = (struct vol_config){ VT_GP3, 100, 3000, 125, 1, 0 };
	scan_k8s_plan(&c, &k.pv[0], &f, &p);
	CHECK(
	    p.method == SCAN_K8S_VAC && p.reused && !strcmp(p.vac, "fast"),
	    "a class whose parameters give the proposal is reused by name (got %s)",
	    p.vac);
	CHECK(!scan_k8s_vac_manifest(&c, &p, &f.prop) &&
		  !scan_k8s_vac_create(&c, &p, &f.prop),
	      "a reused class is not created again");
	s = scan_k8s_patch(&p, "shop", "a");
	CHECK(
	    s &&
		!strcmp(
		    s,
		    "kubectl patch pvc a -n shop --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"fast\"}}'"),
	    "patch to the reused class: %s", s);
	free(s);
	s = scan_k8s_verify(&p, "shop", "a");
	CHECK(
	    s &&
		!strcmp(
		    s,
		    "kubectl get pvc a -n shop -o jsonpath='{.status.currentVolumeAttributesClassName}'"),
	    "verify command: %s", s);
	free(s);
	CHECK(!scan_k8s_patch(&p, "shop", "bad name; rm -rf /"),
	      "no kubectl line for a name that is not a Kubernetes name");

	/* gp3 3,000 / 250: 'ebsize-gp3-3000-250' exists with other
	 * parameters (no throughput: it would keep 125), so -2 */
	f.prop = (struct vol_config){ VT_GP3, 100, 3000, 250, 1, 0 };
	scan_k8s_plan(&c, &k.pv[0], &f, &p);
	CHECK(p.method == SCAN_K8S_VAC && !p.reused &&
		  !strcmp(p.vac, "ebsize-gp3-3000-250-2"),
	      "a taken name with other parameters is never proposed (got %s)",
	      p.vac);
	s = scan_k8s_vac_manifest(&c, &p, &f.prop);
	CHECK(
	    s &&
		!strcmp(
		    s,
		    "apiVersion: storage.k8s.io/v1beta1\nkind: VolumeAttributesClass\nmetadata:\n  name: ebsize-gp3-3000-250-2\ndriverName: ebs.csi.aws.com\nparameters:\n  type: gp3\n  iops: \"3000\"\n  throughput: \"250\"\n"),
	    "class manifest: type, IOPS and throughput together, cluster's version: %s",
	    s);
	free(s);
	s = scan_k8s_vac_create(&c, &p, &f.prop);
	CHECK(
	    s &&
		!strcmp(
		    s,
		    "echo '{\"apiVersion\":\"storage.k8s.io/v1beta1\",\"kind\":\"VolumeAttributesClass\",\"metadata\":{\"name\":\"ebsize-gp3-3000-250-2\"},\"driverName\":\"ebs.csi.aws.com\",\"parameters\":{\"type\":\"gp3\",\"iops\":\"3000\",\"throughput\":\"250\"}}' | kubectl apply -f -"),
	    "class as one kubectl line: %s", s);
	free(s);

	/* pv-b: its claim's modification is in progress: no command */
	f.prop = (struct vol_config){ VT_GP3, 100, 3000, 125, 1, 0 };
	scan_k8s_plan(&c, &k.pv[1], &f, &p);
	CHECK(p.method == SCAN_K8S_BLOCKED && !strcmp(p.status, "InProgress") &&
		  !strcmp(p.target, "fast") &&
		  !scan_k8s_patch(&p, "shop", "b") &&
		  !scan_k8s_vac_create(&c, &p, &f.prop),
	      "a modification in progress: status shown, no new command");
	s = scan_k8s_verify(&p, "shop", "b");
	CHECK(s != NULL, "... but the verify command, to see when it is done");
	free(s);

	/* pv-c: in-tree (migrated): modify-volume, not a class */
	scan_k8s_plan(&c, &k.pv[2], &f, &p);
	CHECK(p.method == SCAN_K8S_MODIFY_VOLUME &&
		  strstr(p.note, "CSI migration") &&
		  !scan_k8s_patch(&p, "web", "c") &&
		  !scan_k8s_verify(&p, "web", "c"),
	      "an in-tree PV is changed with modify-volume, with a note");

	/* an in-tree claim whose class change is under way: the class will
	 * never reach the volume, so modify-volume all the same */
	k.pvc[2].modify = INV_MOD_PENDING;
	scan_k8s_plan(&c, &k.pv[2], &f, &p);
	CHECK(
	    p.method == SCAN_K8S_MODIFY_VOLUME &&
		!strcmp(p.status, "Pending") &&
		strstr(p.note, "will not reach it"),
	    "in-tree with a class change pending: still modify-volume, status shown");
	k.pvc[2].modify = INV_MOD_NONE;

	/* a right-size (new volume) has no Kubernetes plan */
	f.new_volume = 1;
	scan_k8s_plan(&c, &k.pv[0], &f, &p);
	CHECK(p.method == SCAN_K8S_NONE, "a new volume: no class, no patch");
	f.new_volume = 0;

	/* configurations of PV-only volumes beyond their StorageClass */
	cfg = (struct vol_config){ VT_GP2, 100, 0, 0, 1, 0 };
	CHECK(
	    !scan_k8s_pv_config(&c, lim, &k.pv[3], &cfg, why, sizeof(why)) &&
		cfg.type == VT_GP3 && cfg.iops == 4000 &&
		cfg.throughput_mibps == 250,
	    "annotations (gp3, 4,000 IOPS), then the claim's class (250 MiB/s): %s %ld %ld",
	    model_type_name(cfg.type), cfg.iops, cfg.throughput_mibps);
	cfg = (struct vol_config){ VT_GP2, 100, 0, 0, 1, 0 };
	CHECK(!scan_k8s_pv_config(&c, lim, &k.pv[2], &cfg, why, sizeof(why)) &&
		  cfg.type == VT_GP2,
	      "in-tree: neither annotations nor classes apply");
	free(k.pvc[0].current_vac);
	k.pvc[0].current_vac = xstrdup("gone");
	cfg = (struct vol_config){ VT_GP2, 100, 0, 0, 1, 0 };
	CHECK(
	    scan_k8s_pv_config(&c, lim, &k.pv[0], &cfg, why, sizeof(why)) ==
		    -1 &&
		!strcmp(
		    why,
		    "volume attributes class 'gone' not given (kubectl get volumeattributesclass -o json)"),
	    "a claim on a class not given cannot be configured: %s", why);
	scan_k8s_release(&c);
	inv_k8s_release(&k);
	inv_warnings_release(&w);

	/* no classes given: v1 (Kubernetes 1.34+) */
	memset(&k, 0, sizeof(k));
	scan_k8s_init(&c, &k);
	CHECK(!strcmp(c.vac_api, "storage.k8s.io/v1") &&
		  !c.vac_api_from_cluster,
	      "no class to read: storage.k8s.io/v1");
	scan_k8s_release(&c);

	CHECK(scan_k8s_name_ok("db-data.0") && !scan_k8s_name_ok("-x") &&
		  !scan_k8s_name_ok("A") && !scan_k8s_name_ok(""),
	      "k8s names");
}

/* ------------------------------------------------------------ cluster */

/* A StorageClass as kubectl JSON (generated). */
#define SC(name, prov, params, extra)                                         \
	"{\"apiVersion\": \"storage.k8s.io/v1\", \"kind\": \"StorageClass\"," \
	" \"metadata\": {\"name\": \"" name "\"" extra "},"                   \
	" \"provisioner\": \"" prov "\", \"parameters\": {" params "}}"
#define DEF \
	", \"annotations\": {\"storageclass.kubernetes.io/is-default-class\": \"true\"}"
#define DEF_BETA \
	", \"annotations\": {\"storageclass.beta.kubernetes.io/is-default-class\": \"true\"}"
#define AT(t) ", \"creationTimestamp\": \"" t "\""
#define CLAIM(ns, name, sc)                                                      \
	"{\"kind\": \"PersistentVolumeClaim\", \"metadata\": {\"name\": \"" name \
	"\", \"namespace\": \"" ns                                               \
	"\"}, \"spec\": {\"storageClassName\": \"" sc                            \
	"\"}, \"status\": {\"phase\": \"Bound\"}}"
#define ANN_FALSE \
	" storageclass.kubernetes.io/is-default-class=\"false\" --overwrite"

static void cluster(void)
{
	static const struct {
		const char *doc;
		const char *cats;      /* categories, comma-separated */
		const char *new_class; /* the class that becomes default; "" */
		int existing;	       /* ... an existing one */
		const char *annotate;  /* the first finding's; NULL none */
		size_t claims;
		const char *why;
	} rows[] = {
		{ "{\"items\": [" SC(
		      "gp2", "kubernetes.io/aws-ebs", "\"type\": \"gp2\"",
		      DEF) "," CLAIM("a", "x", "gp2") "," CLAIM("a", "y",
								"gp2") "]}",
		  "default_class_gp2", "gp3", 0,
		  "kubectl annotate storageclass gp2" ANN_FALSE, 2,
		  "the EKS in-tree gp2 default: a new gp3 class" },
		{ "{\"items\": [" SC("standard", "ebs.csi.aws.com",
				     "\"type\": \"gp2\"",
				     DEF) "," SC("gp3", "ebs.csi.aws.com",
						 "\"type\": \"gp3\"", "") "]}",
		  "default_class_gp2", "gp3", 1,
		  "kubectl annotate storageclass standard" ANN_FALSE, 0,
		  "a CSI gp2 default and a plain gp3 class: make that the default" },
		{ "{\"items\": [" SC(
		      "gp2", "ebs.csi.aws.com", "\"type\": \"gp2\"",
		      DEF) "," SC("gp3", "ebs.csi.aws.com",
				  "\"type\": \"gp3\", \"throughput\": \"500\"",
				  "") "]}",
		  "default_class_gp2", "ebs-gp3", 0,
		  "kubectl annotate storageclass gp2" ANN_FALSE, 0,
		  "a gp3 class at 500 MiB/s is no default for all: a new one, name free" },
		{ "{\"items\": [" SC(
		      "gp2", "ebs.csi.aws.com", "\"type\": \"gp2\"",
		      DEF AT(
			  "2024-01-01T00:00:00Z")) "," SC("fast",
							  "ebs.csi.aws.com", "",
							  DEF AT(
							      "2025-01-01T00:00:00Z")) "]}",
		  "several_default_classes", "", 0,
		  "kubectl annotate storageclass gp2" ANN_FALSE, 0,
		  "a gp3 default (CSI without type) and a gp2 default: keep gp3" },
		{ "{\"items\": [" SC(
		      "gp2", "kubernetes.io/aws-ebs", "",
		      DEF AT(
			  "2024-01-01T00:00:00Z")) "," SC("efs",
							  "efs.csi.aws.com", "",
							  DEF AT(
							      "2025-01-01T00:00:00Z")) "]}",
		  "default_class_gp2,several_default_classes", "gp3", 0,
		  "kubectl annotate storageclass efs gp2" ANN_FALSE, 0,
		  "gp2 and EFS defaults: one gp3 default replaces both" },
		{ "{\"items\": [" SC("old", "kubernetes.io/aws-ebs",
				     "\"type\": \"gp2\"", DEF_BETA) "]}",
		  "default_class_gp2", "gp3", 0,
		  "kubectl annotate storageclass old storageclass.kubernetes.io/is-default-class=\"false\" storageclass.beta.kubernetes.io/is-default-class=\"false\" --overwrite",
		  0, "a default by the beta key is annotated with both keys" },
		{ "{\"items\": [" SC("io1", "kubernetes.io/aws-ebs",
				     "\"type\": \"io1\", \"iopsPerGB\": \"50\"",
				     DEF) "]}",
		  "default_class_in_tree", "ebs-io1", 0,
		  "kubectl annotate storageclass io1" ANN_FALSE, 0,
		  "an in-tree io1 default: a CSI io1 class with its IOPS per GiB" },
		{ "{\"items\": [" SC("gp2", "ebs.csi.aws.com",
				     "\"type\": \"gp2\"",
				     "") "," CLAIM("a", "x", "gp2") "]}",
		  "no_default_class", "gp3", 0, NULL, 1,
		  "no default, a claim on gp2: a gp3 default" },
		{ "{\"items\": [" SC("gp2", "ebs.csi.aws.com",
				     "\"type\": \"gp2\"", "") "]}",
		  "", "", 0, NULL, 0, "no default, no claims: nothing to say" },
		{ "{\"items\": [" SC(
		      "gp3", "ebs.csi.aws.com", "\"type\": \"gp3\"",
		      DEF) "," SC("gp2", "ebs.csi.aws.com", "\"type\": \"gp2\"",
				  "") "," CLAIM("a", "x", "gp2") "]}",
		  "", "", 0, NULL, 1,
		  "a gp3 default: no cluster finding (volume findings move the claims)" },
		{ "{\"items\": [" SC(
		      "gp2", "ebs.csi.aws.com",
		      "\"type\": \"gp2\", \"kmsKeyId\": \"x' ; rm\"", DEF) "]}",
		  "default_class_gp2", "", 0, NULL, 0,
		  "a key id that is not one: no class without it" },
	};
	struct price_set ps;
	char err[EBS_ERRLEN];

	db_load_prices(test_db(), "us-east-1", NULL, &ps, err);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct inv_k8s k;
		struct inv_warnings w;
		struct scan_k8s c;
		struct scan_cluster_finding *f;
		size_t n;
		char cats[128] = "";

		CHECK(!load(rows[i].doc, &k, &w), "row %zu parses", i);
		scan_k8s_init(&c, &k);
		scan_k8s_cluster(&c, "us-east-1", &ps, &f, &n);
		for (size_t j = 0; j < n; j++)
			xsnprintf(cats + strlen(cats),
				  sizeof(cats) - strlen(cats), "%s%s",
				  j ? "," : "",
				  scan_cluster_cat_name(f[j].cat));
		CHECK(!strcmp(cats, rows[i].cats),
		      "%s: findings '%s' (want '%s')", rows[i].why, cats,
		      rows[i].cats);
		if (n) {
			const char *name =
			    f[0].has_fix && f[0].cat != SCAN_CL_SEVERAL_DEFAULTS
				? f[0].spec.name
				: "";

			CHECK(!strcmp(name, rows[i].new_class) &&
				  (f[0].keep != NULL) ==
				      (rows[i].existing ||
				       f[0].cat == SCAN_CL_SEVERAL_DEFAULTS),
			      "%s: new default '%s' (want '%s'%s)", rows[i].why,
			      name, rows[i].new_class,
			      rows[i].existing ? ", existing" : "");
			CHECK(rows[i].annotate
				  ? f[0].annotate &&
					!strcmp(f[0].annotate, rows[i].annotate)
				  : !f[0].annotate,
			      "%s: annotate '%s'", rows[i].why,
			      f[0].annotate ? f[0].annotate : "(none)");
			CHECK(f[0].gp2_pvcs == rows[i].claims,
			      "%s: %zu claims on gp2 classes", rows[i].why,
			      f[0].gp2_pvcs);
			CHECK(!f[0].has_fix || f[0].keep
				  ? !f[0].manifest && !f[0].create
				  : f[0].manifest && f[0].create,
			      "%s: a manifest only for a class to create",
			      rows[i].why);
		}
		scan_cluster_findings_free(f, n);
		scan_k8s_release(&c);
		inv_k8s_release(&k);
		inv_warnings_release(&w);
	}
}

static void manifests(void)
{
	/* generated: an encrypted CSI gp2 default with its key, xfs, Retain */
	static const char doc[] = "{\"items\": [" SC(
	    "secure", "ebs.csi.aws.com",
	    "\"type\": \"gp2\", \"encrypted\": \"true\", \"kmsKeyId\": \"arn:aws:kms:us-east-1:111122223333:key/0e2e\","
	    " \"csi.storage.k8s.io/fstype\": \"xfs\"",
	    DEF) "]}";
	struct inv_k8s k;
	struct inv_warnings w;
	struct scan_k8s c;
	struct scan_cluster_finding *f;
	struct price_set ps;
	char err[EBS_ERRLEN];
	size_t n;

	db_load_prices(test_db(), "us-east-1", NULL, &ps, err);
	load(doc, &k, &w);
	k.sc[0].retain = 1;
	scan_k8s_init(&c, &k);
	scan_k8s_cluster(&c, "us-east-1", &ps, &f, &n);
	CHECK(
	    n == 1 && f[0].manifest &&
		!strcmp(
		    f[0].manifest,
		    "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: gp3\n  annotations:\n    storageclass.kubernetes.io/is-default-class: \"true\"\nprovisioner: ebs.csi.aws.com\nparameters:\n  type: gp3\n  encrypted: \"true\"\n  kmsKeyId: \"arn:aws:kms:us-east-1:111122223333:key/0e2e\"\n  csi.storage.k8s.io/fstype: xfs\nvolumeBindingMode: WaitForFirstConsumer\nallowVolumeExpansion: true\nreclaimPolicy: Retain\n"),
	    "gp3 manifest keeps encryption, key, file system and reclaim policy: %s",
	    n ? f[0].manifest : "(none)");
	CHECK(
	    n == 1 && f[0].create &&
		!strcmp(
		    f[0].create,
		    "echo '{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"gp3\",\"annotations\":{\"storageclass.kubernetes.io/is-default-class\":\"true\"}},\"provisioner\":\"ebs.csi.aws.com\",\"parameters\":{\"type\":\"gp3\",\"encrypted\":\"true\",\"kmsKeyId\":\"arn:aws:kms:us-east-1:111122223333:key/0e2e\",\"csi.storage.k8s.io/fstype\":\"xfs\"},\"volumeBindingMode\":\"WaitForFirstConsumer\",\"allowVolumeExpansion\":true,\"reclaimPolicy\":\"Retain\"}' | kubectl apply -f -"),
	    "the same class as one kubectl line: %s",
	    n ? f[0].create : "(none)");
	/* T6 us-east-1: gp2 0.10, gp3 0.08 per GiB-month: 20 % less */
	CHECK(n == 1 && f[0].priced, "priced in us-east-1");
	CHECK_NEAR(n ? f[0].gp2_usd_per_gib : 0, 0.10, 1e-9,
		   "gp2 per GiB-month");
	CHECK_NEAR(n ? f[0].gp3_usd_per_gib : 0, 0.08, 1e-9,
		   "gp3 per GiB-month");
	CHECK(
	    n == 1 &&
		strstr(
		    f[0].reason,
		    "the default StorageClass 'secure' provisions gp2: every claim without a class gets gp2; a new volume on gp3 costs $0.08 instead of $0.10 per GiB-month in us-east-1 (20 % less)"),
	    "reason: %s", n ? f[0].reason : "(none)");
	scan_cluster_findings_free(f, n);
	scan_k8s_cluster(&c, "nowhere-1", NULL, &f, &n);
	CHECK(n == 1 && !f[0].priced && !strstr(f[0].reason, "per GiB"),
	      "without prices: the finding, no figures");
	scan_cluster_findings_free(f, n);
	scan_k8s_release(&c);
	inv_k8s_release(&k);
	inv_warnings_release(&w);
}

static void rates(void)
{
	static const struct {
		double usd;
		const char *want;
	} rows[] = {
		{ 0.1, "$0.10" },      { 0.08, "$0.08" },
		{ 0.0912, "$0.0912" }, { 0.114, "$0.114" },
		{ 0.0456, "$0.0456" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char buf[32];

		scan_k8s_fmt_rate(rows[i].usd, buf, sizeof(buf));
		CHECK(!strcmp(buf, rows[i].want), "rate %g shown %s (want %s)",
		      rows[i].usd, buf, rows[i].want);
	}
}

void test_scan_k8s(void)
{
	vac_apply();
	parse();
	plans();
	cluster();
	manifests();
	rates();
}
