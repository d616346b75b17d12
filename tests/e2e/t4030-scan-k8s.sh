#!/bin/sh
# t4030-scan-k8s: `ebsize scan` on Kubernetes objects (issue 18) - cluster
# findings on default StorageClasses (in-tree and CSI gp2 defaults, several
# defaults, none), the gp3 StorageClass manifest and kubectl lines, claims
# read from `kubectl get pvc -A -o json`, VolumeAttributesClasses reused by
# name or never reused when their parameters differ, a claim whose
# modification is in progress, in-tree PVs changed with modify-volume, the
# VolumeAttributesClass API version read from the cluster; inputs in any
# order or one List; the real kubectl samples; bad input.  Where kubectl is
# installed, the manifests and the printed commands go through it (offline:
# --local).
#
# tests/fixtures/k8s/ is GENERATED test data (see its README); the real
# samples are tests/fixtures/kubectl-get-*-2019.yaml and the CSI driver's
# StorageClass example (SOURCES.md section 6).  Prices (ebs-facts.md T6,
# us-east-1): gp2 0.10, gp3 0.08 per GiB-month + 0.005 per IOPS over 3,000
# + 0.04 per MiB/s over 125.
. "$(dirname "$0")/../lib/test-lib.sh"

K="$FIXTURES/k8s"
A="$K/a-storageclasses.json $K/a-pvs.json $K/a-pvcs.json $K/a-volumeattributesclasses.json"

# pycheck DESC FILE ARG... <<'PY' ... PY: a Python check of FILE (argv[1])
pycheck() {
	desc=$1
	shift
	if /usr/bin/python3 - "$@" >"$T/py.log" 2>&1; then
		ok "$desc"
	else
		fail "$desc" "$(tail -n 5 "$T/py.log")"
	fi
}

# ---------------------------------------------------------------- cluster A
# An older EKS cluster: in-tree gp2 default, claims on it and on CSI gp2
# ebs-sc, classes served as storage.k8s.io/v1beta1.
# shellcheck disable=SC2086
run --format json scan $A
expect_rc 0 "cluster A scans"
expect_err_empty "cluster A: no warnings"
cp "$T/out" "$T/a.json"
expect_json summary.volumes_scanned 4 "4 PVs, priced from their classes"
expect_json kubernetes.claims 4 "4 claims read"
expect_json kubernetes.default_classes 1 "one default class"
expect_json kubernetes.volume_attributes_class_api storage.k8s.io/v1beta1 \
	"the API version is read from the cluster's classes (1.31-1.33: v1beta1, T13)"
expect_json kubernetes.volume_attributes_class_api_from cluster "... and says so"

# the cluster finding: the default class provisions gp2 (in-tree)
expect_json cluster_findings.0.category default_class_gp2 "in-tree gp2 default: cluster finding"
expect_json cluster_findings.0.storage_classes.0.name gp2 "it names the default class"
expect_json cluster_findings.0.storage_classes.0.in_tree True "... and says it is in-tree"
# all 4 claims are Bound to gp2 classes: legacy on gp2, the others on ebs-sc
expect_json cluster_findings.0.claims_on_gp2_classes 4 "claims still bound to gp2 classes"
expect_json cluster_findings.0.region us-east-1 "priced where the PVs are"
# new volumes: gp3 0.08 against gp2 0.10 per GiB-month: 0.02 less, 20 %
expect_json cluster_findings.0.per_gib_month.gp2_usd 0.10 "gp2 per GiB-month" 1e-9
expect_json cluster_findings.0.per_gib_month.gp3_usd 0.08 "gp3 per GiB-month" 1e-9
expect_json cluster_findings.0.per_gib_month.savings_usd 0.02 "saves 0.02 per GiB-month" 1e-9
expect_json cluster_findings.0.per_gib_month.savings_pct 20 "20 % less" 1e-9
expect_json cluster_findings.0.fix.storage_class gp3 "the new default is named gp3 (free)"
expect_json cluster_findings.0.fix.existing_class False "... and created ('fast' is gp3 at 6,000 IOPS: no default for all)"
expect_json cluster_findings.0.fix.annotate_command \
	'kubectl annotate storageclass gp2 storageclass.kubernetes.io/is-default-class="false" --overwrite' \
	"the old default is annotated false"
pycheck "the StorageClass manifest is YAML with the fields of the fix, its one-line form the same object" "$T/a.json" <<'PY'
import json, sys, yaml
d = json.load(open(sys.argv[1]))
assert len(d["cluster_findings"]) == 1, d["cluster_findings"]
fix = d["cluster_findings"][0]["fix"]
m = yaml.safe_load(fix["manifest"])
assert m["apiVersion"] == "storage.k8s.io/v1" and m["kind"] == "StorageClass", m
assert m["metadata"]["name"] == "gp3", m
assert m["metadata"]["annotations"] == {"storageclass.kubernetes.io/is-default-class": "true"}, m
assert m["provisioner"] == "ebs.csi.aws.com", m
# encrypted kept from the in-tree class (encrypted "true"), fsType too
assert m["parameters"] == {"type": "gp3", "encrypted": "true", "csi.storage.k8s.io/fstype": "ext4"}, m
assert m["volumeBindingMode"] == "WaitForFirstConsumer", m
assert m["allowVolumeExpansion"] is True, m
cmd = fix["apply_command"]
assert cmd.startswith("echo '") and cmd.endswith("' | kubectl apply -f -"), cmd
assert json.loads(cmd[len("echo '"):-len("' | kubectl apply -f -")]) == m
PY

# volume findings ------------------------------------------------------------
# orders: gp2 2,000 GiB (6,000 IOPS baseline, 250 MiB/s) -> gp3 6,000/250:
# 200.00 - (160.00 + 15.00 + 5.00) = 20.00.  ebsize-gp3-6000-250 exists with
# only type and iops: on a gp2 it would give 125 MiB/s (A1), so it is never
# proposed; the class is ebsize-gp3-6000-250-2.
V=vol-0e2e0000000018002
expect_finding $V savings.monthly_usd 20 "orders: saves 20.00" 1e-9
expect_finding $V k8s.change_with volume_attributes_class "orders: changed with a class"
expect_finding $V k8s.volume_attributes_class_name ebsize-gp3-6000-250-2 \
	"a taken ebsize name with other parameters is not reused: -2"
expect_finding $V k8s.volume_attributes_class_reused False "orders: a new class"
expect_finding $V k8s.patch_command "kubectl patch pvc orders -n shop --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"ebsize-gp3-6000-250-2\"}}'" \
	"orders: patch to the new class"
expect_finding $V k8s.verify_command "kubectl get pvc orders -n shop -o jsonpath='{.status.currentVolumeAttributesClassName}'" \
	"orders: the verify command"
pycheck "the class manifest is v1beta1 (read from the cluster), with type, IOPS and throughput together" "$T/a.json" <<'PY'
import json, sys, yaml
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["volume_id"] == "vol-0e2e0000000018002"][0]["k8s"]
m = yaml.safe_load(f["volume_attributes_class"])
assert m == {"apiVersion": "storage.k8s.io/v1beta1", "kind": "VolumeAttributesClass",
             "metadata": {"name": "ebsize-gp3-6000-250-2"}, "driverName": "ebs.csi.aws.com",
             "parameters": {"type": "gp3", "iops": "6000", "throughput": "250"}}, m
cmd = f["apply_command"]
assert json.loads(cmd[len("echo '"):-len("' | kubectl apply -f -")]) == m
PY

# catalog: gp2 500 GiB -> gp3 3,000/250: 50.00 - (40.00 + 5.00) = 5.00.
# gp3-250-tagged has tags, gp3-plain gives 125 MiB/s (A1 default): skipped;
# gp3-250 gives exactly the proposal and is reused by name.
V=vol-0e2e0000000018003
expect_finding $V savings.monthly_usd 5 "catalog: saves 5.00" 1e-9
expect_finding $V k8s.volume_attributes_class_name gp3-250 "an existing matching class is reused by name"
expect_finding $V k8s.volume_attributes_class_reused True "... and marked reused"
expect_finding $V k8s.volume_attributes_class null "... with no manifest"
expect_finding $V k8s.apply_command null "... and no command creating it"
expect_finding $V k8s.patch_command "kubectl patch pvc catalog -n shop --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"gp3-250\"}}'" \
	"catalog: patch to gp3-250"

# legacy: in-tree (migrated) gp2 100 GiB: 10.00 - 8.00 = 2.00, by modify-volume
V=vol-0e2e0000000018001
expect_finding $V savings.monthly_usd 2 "legacy: saves 2.00" 1e-9
expect_finding $V k8s.in_tree True "legacy: an in-tree PV"
expect_finding $V k8s.change_with aws_modify_volume "an in-tree PV is changed with aws ec2 modify-volume"
expect_finding $V k8s.patch_command null "... no kubectl patch"
expect_finding $V k8s.volume_attributes_class null "... no class"
expect_finding $V k8s.note "in-tree awsElasticBlockStore volume served through CSI migration: a VolumeAttributesClass does not modify it; change it with aws ec2 modify-volume" \
	"... with a note"
json_get findings <"$T/a.json" >"$T/findings.json"
pycheck "legacy: the command is modify-volume of its volume" "$T/findings.json" <<'PY'
import json, sys
f = [x for x in json.load(open(sys.argv[1])) if x["volume_id"] == "vol-0e2e0000000018001"][0]
assert f["command"].startswith("aws ec2 modify-volume --region us-east-1 --volume-id vol-0e2e0000000018001 --volume-type gp3"), f["command"]
PY

# search: its claim's modification to gp3-250 is InProgress: reported with
# its status, no new command (30.00 - 29.00 = 1.00 still shown)
V=vol-0e2e0000000018004
expect_finding $V savings.monthly_usd 1 "search: saves 1.00" 1e-9
expect_finding $V k8s.modify_status InProgress "a claim with a modification in progress shows its status"
expect_finding $V k8s.modify_target gp3-250 "... and the class it moves to"
expect_finding $V k8s.change_with wait_for_modification "... and waits for it"
expect_finding $V command null "... no modify-volume"
expect_finding $V k8s.patch_command null "... no patch"
expect_finding $V k8s.apply_command null "... no class"
expect_finding $V k8s.verify_command "kubectl get pvc search -n web -o jsonpath='{.status.currentVolumeAttributesClassName}'" \
	"... but the command that says when it is done"
pycheck "notes: the API version, the rules of ModifyVolume, in-tree volumes, claims left alone" "$T/a.json" <<'PY'
import json, sys
n = json.load(open(sys.argv[1]))["notes"]
want = ["VolumeAttributesClass manifests use storage.k8s.io/v1beta1, the version of the cluster's classes",
        "one VolumeAttributesClass per volume carries type, IOPS and throughput together; each modification must complete before the next, at most four per volume in a rolling 24 hours; after the patch, the verify command prints the class once it is applied",
        "1 in-tree awsElasticBlockStore volume(s): a VolumeAttributesClass does not reach them; their command is aws ec2 modify-volume",
        "1 claim(s) with a modification under way or refused: listed with its status (k8s.modify_status), no new command"]
for w in want:
    assert w in n, (w, n)
PY

# any order, several files or one List: the same report
# shellcheck disable=SC2086
run --format json scan $K/a-volumeattributesclasses.json $K/a-pvcs.json $K/a-pvs.json $K/a-storageclasses.json
cp "$T/out" "$T/a-reversed.json"
/usr/bin/python3 - "$T/one-list.json" $A <<'PY'
import json, sys
items = []
for f in sys.argv[2:]:
    items += json.load(open(f))["items"]
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(sys.argv[1], "w"))
PY
run --format json scan "$T/one-list.json"
cp "$T/out" "$T/a-one.json"
pycheck "inputs in any order, and as one List, give the same report" "$T/a.json" "$T/a-reversed.json" "$T/a-one.json" <<'PY'
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
assert a == b, "reversed order differs"
assert a == c, "one List differs"
PY

# table and Markdown: cluster findings first, commands in the order they run
# shellcheck disable=SC2086
run scan $A
expect_rc 0 "cluster A, table"
pycheck "table: cluster findings before the volume findings; annotate, then apply" "$T/out" <<'PY'
import sys
t = open(sys.argv[1]).read()
assert 0 < t.index("Cluster findings (no single volume)") < t.index("Findings (by monthly savings)"), t
assert t.index("kubectl annotate storageclass gp2 storageclass.kubernetes.io/is-default-class=\"false\" --overwrite") < \
       t.index("echo '{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\""), t
assert "kubectl apply -f -" not in [l for l in t.splitlines() if "gp3-250" in l and "VolumeAttributesClass" in l], t
PY
expect_out_has "# no new command: claim web/search has a modification InProgress to 'gp3-250'" \
	"table: the blocked claim's line says why it has no command"
pycheck "table: prices per GiB-month as money" "$T/out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"^default_class_gp2 +gp2 \(kubernetes.io/aws-ebs gp2\) +4 +\$0\.10 +\$0\.08 +the default", t, re.M), t
PY
# shellcheck disable=SC2086
run --format md scan $A
expect_out_has "### Cluster findings (no single volume)" "md: cluster findings"
expect_out_has "| default_class_gp2 | kubectl annotate storageclass gp2" "md: cluster commands"

# CSV: the cluster findings table (its own table; --table when the one-
# table rule is in, else one of the blocks)
# shellcheck disable=SC2086
run --format csv scan $A --table cluster_findings
# shellcheck disable=SC2086
[ "$rc" = 2 ] && run --format csv scan $A
expect_rc 0 "csv output"
pycheck "csv: the cluster findings table with its fields" "$T/out" <<'PY'
import csv, io, sys
text = open(sys.argv[1], newline="").read()
blocks = [b for b in text.split("\r\n\r\n") if b.startswith("category,storage_classes,")]
assert len(blocks) == 1, text[:400]
rows = list(csv.DictReader(io.StringIO(blocks[0])))
assert len(rows) == 1 and rows[0]["category"] == "default_class_gp2", rows
assert rows[0]["fix.storage_class"] == "gp3" and rows[0]["per_gib_month.savings_usd"] == "0.02", rows
assert rows[0]["storage_classes"] == "gp2 (kubernetes.io/aws-ebs gp2)", rows
PY

# ---------------------------------------------------------------- cluster B
# One List: a CSI gp2 default (encrypted with a key, Retain) and an EFS
# class marked default too, newer; no VolumeAttributesClass.
run --format json scan "$K/b-cluster.json"
expect_rc 0 "cluster B scans"
cp "$T/out" "$T/b.json"
expect_json cluster_findings.0.category default_class_gp2 "CSI gp2 default: cluster finding"
expect_json cluster_findings.0.storage_classes.0.name gp2-csi "... names gp2-csi"
expect_json cluster_findings.0.storage_classes.0.in_tree False "... not in-tree"
expect_json cluster_findings.0.claims_on_gp2_classes 1 "one claim on gp2"
expect_json cluster_findings.0.fix.annotate_command \
	'kubectl annotate storageclass efs-sc gp2-csi storageclass.kubernetes.io/is-default-class="false" --overwrite' \
	"both old defaults annotated false: the gp3 class becomes the only one"
expect_json cluster_findings.1.category several_default_classes "several default classes are reported"
expect_json cluster_findings.1.fix.annotate_command None "... their fix is the finding above's"
expect_json kubernetes.volume_attributes_class_api_from default "no class given: the default version"
pycheck "cluster B: manifest keeps encryption, key and reclaim policy; several defaults named; v1 classes" "$T/b.json" <<'PY'
import json, sys, yaml
d = json.load(open(sys.argv[1]))
m = yaml.safe_load(d["cluster_findings"][0]["fix"]["manifest"])
assert m["parameters"] == {"type": "gp3", "encrypted": "true",
                           "kmsKeyId": "arn:aws:kms:us-east-1:111122223333:key/0e2e0018-b"}, m
assert m["reclaimPolicy"] == "Retain", m
several = d["cluster_findings"][1]
assert [c["name"] for c in several["storage_classes"]] == ["efs-sc", "gp2-csi"], several
assert "2 StorageClasses are marked default ('efs-sc' and 'gp2-csi')" in several["reason"], several["reason"]
f = d["findings"][0]["k8s"]
assert yaml.safe_load(f["volume_attributes_class"])["apiVersion"] == "storage.k8s.io/v1", f
assert any(n.startswith("VolumeAttributesClass manifests use storage.k8s.io/v1 (Kubernetes 1.34+; no class was given")
           for n in d["notes"]), d["notes"]
PY

# several defaults, one of them gp3 (generated): keep gp3, annotate the rest
cat >"$T/two.json" <<'JSON'
{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
  "metadata": {"name": "gp2", "creationTimestamp": "2026-03-01T00:00:00Z",
   "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
  "provisioner": "kubernetes.io/aws-ebs", "parameters": {"type": "gp2"}},
 {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
  "metadata": {"name": "gp3", "creationTimestamp": "2025-03-01T00:00:00Z",
   "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
  "provisioner": "ebs.csi.aws.com", "parameters": {"type": "gp3"}}
]}
JSON
run --format json scan "$T/two.json"
expect_rc 0 "StorageClasses alone: cluster findings, no volumes needed"
expect_json summary.volumes_scanned 0 "... no volumes"
expect_json cluster_findings.0.category several_default_classes "gp2 and gp3 both default: several defaults"
expect_json cluster_findings.0.fix.annotate_command \
	'kubectl annotate storageclass gp2 storageclass.kubernetes.io/is-default-class="false" --overwrite' \
	"... the gp3 one stays, gp2 is annotated false"
pycheck "... it says which one recent versions use (the newest: gp2)" "$T/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["cluster_findings"]) == 1, d["cluster_findings"]
r = d["cluster_findings"][0]["reason"]
assert "the newest, 'gp2', on recent ones" in r and "keep 'gp3' (gp3, EBS CSI driver) as the only default" in r, r
PY

# no default, claims on gp2 classes (tests/fixtures/scan, generated)
run --format json scan "$FIXTURES/scan/pv.json" "$FIXTURES/scan/sc.json"
expect_json cluster_findings.0.category no_default_class "no default and claims on gp2: cluster finding"
expect_json cluster_findings.0.claims_on_gp2_classes 3 "... 3 PVs with claims on gp2 classes (no PVC list: from the PVs)"
expect_json cluster_findings.0.fix.annotate_command None "... nothing to annotate"
expect_json cluster_findings.0.fix.storage_class gp3 "... a gp3 default to create"

# ---------------------------------------------------------------- real samples
# The real PV and PVC (EKS 1.14, class ebs-sc, zone us-east-2c) with the CSI
# driver's StorageClass example (io1, not default): nothing at cluster level.
for y in kubectl-get-pv-list-ebs-csi-2019 kubectl-get-pvc-list-ebs-csi-2019 \
	k8s-storageclass-ebs-io1-iopspergb-aws-ebs-csi-driver-example; do
	/usr/bin/python3 -c 'import sys, yaml, json; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' \
		"$FIXTURES/$y.yaml" >"$T/$y.json"
done
R="$T/kubectl-get-pv-list-ebs-csi-2019.json $T/kubectl-get-pvc-list-ebs-csi-2019.json"
# shellcheck disable=SC2086
run --format json scan $R "$T/k8s-storageclass-ebs-io1-iopspergb-aws-ebs-csi-driver-example.json"
expect_rc 0 "real PV, PVC and StorageClass samples scan"
expect_json kubernetes.claims 1 "the real claim is read"
expect_json kubernetes.persistent_volumes 1 "the real PV is read"
expect_json kubernetes.claims_on_gp2_classes 0 "ebs-sc is io1: no claim on gp2"
expect_json cluster_findings "[]" "no default, no gp2 claim: no cluster finding"
# the same real claim under a gp2 default named ebs-sc (generated class)
cat >"$T/ebs-sc-gp2.json" <<'JSON'
{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
 "metadata": {"name": "ebs-sc", "annotations": {"generated": "generated test data",
  "storageclass.kubernetes.io/is-default-class": "true"}},
 "provisioner": "ebs.csi.aws.com", "parameters": {"type": "gp2"}}
JSON
# shellcheck disable=SC2086
run --format json scan $R "$T/ebs-sc-gp2.json"
expect_json cluster_findings.0.category default_class_gp2 "real claim on a gp2 default: cluster finding"
expect_json cluster_findings.0.claims_on_gp2_classes 1 "... counts the real claim"
expect_json cluster_findings.0.region us-east-2 "... in the real PV's region"
# us-east-2 (pricing/snapshot.csv, from the 2022 Price List extract): gp2 0.10,
# gp3 0.08 per GiB-month, 20 % less
expect_json cluster_findings.0.per_gib_month.gp2_usd 0.1 "... priced in us-east-2: gp2 0.10 per GiB-month"
expect_json cluster_findings.0.per_gib_month.gp3_usd 0.08 "... gp3 0.08"
expect_json cluster_findings.0.per_gib_month.savings_pct 20 "... 20 % less"

# ---------------------------------------------------------------- bad input
printf '{"apiVersion": "v1", "kind": "List", "items": {"kind": "PersistentVolume"}}\n' >"$T/bad.json"
run scan "$T/bad.json"
expect_rc 1 "items that is not an array fails"
expect_err "error: cannot parse '$T/bad.json': \"items\" is not an array" "... naming the file"
cat >"$T/claims.json" <<'JSON'
{"apiVersion": "v1", "kind": "List", "items": [
 {"kind": "PersistentVolumeClaim", "metadata": {"name": "nons"}, "spec": {}},
 {"kind": "PersistentVolume", "metadata": {"name": "pv-x"},
  "spec": {"capacity": {"storage": "100Gi"}, "storageClassName": "gp2-csi",
   "claimRef": {"namespace": "shop", "name": "x"},
   "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0e2e0000000018021"},
   "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
    {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["us-east-1a"]}]}]}}}},
 {"kind": "PersistentVolumeClaim", "metadata": {"name": "x", "namespace": "shop"},
  "spec": {"storageClassName": "gp2-csi", "volumeAttributesClassName": "mystery"},
  "status": {"phase": "Bound", "currentVolumeAttributesClassName": "mystery"}},
 {"kind": "StorageClass", "metadata": {"name": "gp2-csi"}, "provisioner": "ebs.csi.aws.com",
  "parameters": {"type": "gp2"}}
]}
JSON
run --format json scan "$T/claims.json"
expect_rc 0 "unusable objects do not stop the scan"
expect_err "warning: '$T/claims.json': item #1: persistent volume claim without a usable metadata.namespace; skipped
warning: '$T/claims.json': persistent volume 'pv-x' (vol-0e2e0000000018021): volume attributes class 'mystery' not given (kubectl get volumeattributesclass -o json); skipped" \
	"a claim without a namespace and a PV on an unknown class are warned about, naming file and place"
expect_json summary.skipped 1 "the PV on an unknown class is skipped, never priced from its StorageClass"

# long names: a command is never shown cut short in a table
/usr/bin/python3 - "$T/long.json" <<'PY'
import json, sys
vac = "v" * 200 + "-gp3-3000-125"          # a name of 213 characters
pvc = "c" * 250
items = [
 {"kind": "StorageClass", "metadata": {"name": "gp2"}, "provisioner": "ebs.csi.aws.com",
  "parameters": {"type": "gp2"}},
 {"kind": "VolumeAttributesClass", "apiVersion": "storage.k8s.io/v1", "metadata": {"name": vac},
  "driverName": "ebs.csi.aws.com", "parameters": {"type": "gp3", "iops": "3000", "throughput": "125"}},
 {"kind": "PersistentVolume", "metadata": {"name": "pv-long"},
  "spec": {"capacity": {"storage": "100Gi"}, "storageClassName": "gp2",
   "claimRef": {"namespace": "ns", "name": pvc},
   "csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0e2e0000000018031"},
   "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
    {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["us-east-1a"]}]}]}}}}]
json.dump({"kind": "List", "apiVersion": "v1", "items": items}, open(sys.argv[1], "w"))
PY
run scan "$T/long.json"
expect_out_has "vol-0e2e0000000018031  (longer than 500 characters: see --format json)" \
	"table: a patch command over 500 characters is pointed to, not cut"
run --format json scan "$T/long.json"
pycheck "json: the same patch command whole (reusing the long class by name)" "$T/out" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["findings"][0]["k8s"]
assert f["volume_attributes_class_reused"] is True, f
assert f["patch_command"] == "kubectl patch pvc %s -n ns --type merge -p '{\"spec\":{\"volumeAttributesClassName\":\"%s\"}}'" % ("c" * 250, "v" * 200 + "-gp3-3000-125"), f
PY

# ---------------------------------------------------------------- kubectl
# Real kubectl reads the manifests and runs the printed commands, offline:
# `kubectl apply -f -` becomes `kubectl annotate --local -f - ... -o json`
# (parses the object as kubectl would send it), `kubectl annotate
# storageclass NAME` and `kubectl patch pvc NAME -n NS` run --local on the
# object itself, `kubectl get pvc ... -o jsonpath=...` evaluates its jsonpath
# on a claim whose modification is done.  (kubectl apply --dry-run=client
# still needs an API server; Debian's kubernetes-client or any kubectl will
# do: `make deps` installs one when none is there.)
if command -v kubectl >/dev/null 2>&1; then
	K="$K" /usr/bin/python3 - "$T/a.json" "$T/objs" <<'PY'
import json, os, sys
os.makedirs(sys.argv[2], exist_ok=True)
# the input objects the printed commands act on (generated fixtures)
sc = [i for i in json.load(open(os.environ["K"] + "/a-storageclasses.json"))["items"] if i["metadata"]["name"] == "gp2"][0]
json.dump(sc, open(sys.argv[2] + "/gp2.json", "w"))
pvc = [i for i in json.load(open(os.environ["K"] + "/a-pvcs.json"))["items"] if i["metadata"]["name"] == "orders"][0]
json.dump(pvc, open(sys.argv[2] + "/orders.json", "w"))
pvc["spec"]["volumeAttributesClassName"] = "ebsize-gp3-6000-250-2"
pvc["status"]["currentVolumeAttributesClassName"] = "ebsize-gp3-6000-250-2"
json.dump(pvc, open(sys.argv[2] + "/orders-done.json", "w"))
PY
	K="$K" pycheck "kubectl: the StorageClass manifest and its one-line form, the annotate, the VolumeAttributesClass, the patch and the verify command" \
		"$T/a.json" "$T/objs" <<'PY'
import json, os, re, subprocess, sys, yaml
d = json.load(open(sys.argv[1]))
objs = sys.argv[2]
env = {"PATH": os.environ["PATH"], "KUBECONFIG": "/dev/null", "HOME": objs}
def sh(cmd, stdin=None):
    r = subprocess.run(["sh", "-c", cmd], input=stdin, capture_output=True, text=True, env=env)
    assert r.returncode == 0, (cmd, r.stderr)
    return r.stdout
LOCAL = "kubectl annotate --local -f - ebsize-check=1 -o json"
fix = d["cluster_findings"][0]["fix"]
# 1. the manifest as YAML, read by kubectl
sc = json.loads(sh("kubectl annotate --local -f - ebsize-check=1 -o json", fix["manifest"]))
assert sc["kind"] == "StorageClass" and sc["provisioner"] == "ebs.csi.aws.com", sc
assert sc["parameters"]["type"] == "gp3" and sc["volumeBindingMode"] == "WaitForFirstConsumer", sc
assert sc["allowVolumeExpansion"] is True, sc
assert sc["metadata"]["annotations"]["storageclass.kubernetes.io/is-default-class"] == "true", sc
# 2. the printed one-line command: the same object reaches kubectl
cmd = fix["apply_command"]
assert cmd.endswith("| kubectl apply -f -")
one = json.loads(sh(cmd[:-len("kubectl apply -f -")] + LOCAL))
assert one == sc, (one, sc)
# 3. annotate: the printed arguments, on the old default class
cmd = fix["annotate_command"]
cmd = re.sub(r"^kubectl annotate storageclass gp2 ", "kubectl annotate --local -f %s/gp2.json " % objs, cmd)
out = json.loads(sh(cmd + " -o json"))
assert out["metadata"]["annotations"]["storageclass.kubernetes.io/is-default-class"] == "false", out
f = [x for x in d["findings"] if x["volume_id"] == "vol-0e2e0000000018002"][0]["k8s"]
# 4. the VolumeAttributesClass line
vac = json.loads(sh(f["apply_command"][:-len("kubectl apply -f -")] + LOCAL))
assert vac["kind"] == "VolumeAttributesClass" and vac["apiVersion"] == "storage.k8s.io/v1beta1", vac
assert vac["driverName"] == "ebs.csi.aws.com", vac
assert vac["parameters"] == {"type": "gp3", "iops": "6000", "throughput": "250"}, vac
# 5. the patch, on the claim
cmd = re.sub(r"^kubectl patch pvc orders -n shop ", "kubectl patch --local -f %s/orders.json " % objs, f["patch_command"])
out = json.loads(sh(cmd + " -o json"))
assert out["spec"]["volumeAttributesClassName"] == "ebsize-gp3-6000-250-2", out
# 6. the verify command's jsonpath, on the claim once modified
m = re.fullmatch(r"kubectl get pvc orders -n shop (-o jsonpath='[^']*')", f["verify_command"])
assert m, f["verify_command"]
out = sh("kubectl patch --local -f %s/orders-done.json --type merge -p '{}' %s" % (objs, m.group(1)))
assert out == "ebsize-gp3-6000-250-2", out
PY
else
	skip "kubectl: the manifests and commands through a real kubectl" "kubectl not installed (make deps)"
fi

echo "1..$n"
