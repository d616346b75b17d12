#!/bin/sh
# t3050-bench-k8s: the manifests parse as YAML (python3-yaml) and hold a
# Namespace, a StorageClass, PVC and Job per type, Jobs one at a time,
# nodeSelector and do-not-disrupt; their fio commands are the same as a
# local run of the same profile (compared with fio's own job options).
. "$(dirname "$0")/../lib/test-lib.sh"

run bench k8s --types gp3,gp2 --size 100Gi --instance m5.xlarge --iops 6000 --throughput 250
expect_rc 0 "k8s exits 0"
cp "$T/out" "$T/article.yaml"
/usr/bin/python3 - "$T/article.yaml" >"$T/py.out" 2>&1 <<'PY'
import sys, yaml, shlex
text = open(sys.argv[1]).read()
docs = [d for d in yaml.safe_load_all(text) if d]
kinds = [d["kind"] for d in docs]
assert kinds == ["Namespace", "StorageClass", "PersistentVolumeClaim", "Job",
                 "StorageClass", "PersistentVolumeClaim", "Job"], kinds
assert docs[0]["metadata"]["name"] == "bench-storage"
sc = {d["parameters"]["type"]: d for d in docs if d["kind"] == "StorageClass"}
assert sc["gp3"]["provisioner"] == "ebs.csi.aws.com"
assert sc["gp3"]["parameters"] == {"type": "gp3", "iops": "6000", "throughput": "250",
                                   "encrypted": "true", "csi.storage.k8s.io/fstype": "ext4"}, sc["gp3"]["parameters"]
assert "iops" not in sc["gp2"]["parameters"] and "throughput" not in sc["gp2"]["parameters"]
for d in docs:
    if d["kind"] == "PersistentVolumeClaim":
        assert d["metadata"]["namespace"] == "bench-storage"
        assert d["spec"]["resources"]["requests"]["storage"] == "100Gi"
        assert d["spec"]["storageClassName"] == d["metadata"]["name"]
jobs = [d for d in docs if d["kind"] == "Job"]
# one volume at a time: only the first Job starts by itself
assert [j["spec"]["suspend"] for j in jobs] == [False, True]
for j, t in zip(jobs, ["gp3", "gp2"]):
    tpl = j["spec"]["template"]
    assert tpl["metadata"]["annotations"]["karpenter.sh/do-not-disrupt"] == "true"
    assert tpl["spec"]["nodeSelector"] == {"node.kubernetes.io/instance-type": "m5.xlarge"}
    assert tpl["spec"]["restartPolicy"] == "Never" and j["spec"]["backoffLimit"] == 0
    vol = tpl["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"]
    assert vol == "ebsize-bench-" + t
    c = tpl["spec"]["containers"][0]
    assert c["volumeMounts"][0]["mountPath"] == "/data"
    script = c["args"][0]
    fio = [shlex.split(l) for l in script.splitlines() if l.startswith("fio ")]
    names = [a.split("=", 1)[1] for f in fio for a in f if a.startswith("--name=")]
    assert names == ["layout", "randread-qd32", "randwrite-qd32", "randread-qd1", "seqread", "seqwrite"], names
    rt = [a for a in fio[1] if a.startswith("--runtime=")]
    assert rt == ["--runtime=" + ("2700" if t == "gp2" else "600")], rt
    assert all("--output=/data/results/" in " ".join(f) for f in fio)
    assert "--write_iops_log=/data/results/01-randread-qd32" in fio[1]
    assert "base64" in script
# the commands to collect and import the results
for t, size in (("gp3", "100"), ("gp2", "100")):
    assert "# ebsize bench import results/%s --label k8s-%s-100Gi --volume-type %s --size %s --instance m5.xlarge" % (t, t, t, size) in text.replace("#   ", "# ")
assert "patch job ebsize-bench-gp2 --type=merge -p '{\"spec\":{\"suspend\":false}}'" in text
print("ok")
PY
grep -qx ok "$T/py.out" && ok "manifests parse and have the expected structure" ||
	fail "manifests parse and have the expected structure" "$(cat "$T/py.out")"

# same profile, local run and manifests: the same fio options per phase
command -v fio >/dev/null || { skip "fio runs" "fio not installed"; exit 0; }
cat >"$T/p.profile" <<'P'
# generated for this test
size 16m
phase layout rw=write    bs=1M
phase rr     rw=randread bs=4k iodepth=8 runtime=1 burst_runtime=2 iops_log
P
run -q bench run --target "$T/t.fio" --profile "$T/p.profile" --volume-type gp2 --size 50 --results "$T/res"
expect_rc 0 "local run of the profile"
run bench k8s --types gp2 --size 50Gi --profile "$T/p.profile"
expect_rc 0 "manifests of the profile"
/usr/bin/python3 - "$T/out" "$T/res/run-8" >"$T/py.out" 2>&1 <<'PY'
import sys, yaml, shlex, json, os
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
job = [d for d in docs if d["kind"] == "Job"][0]
assert "nodeSelector" not in job["spec"]["template"]["spec"]
script = job["spec"]["template"]["spec"]["containers"][0]["args"][0]
fio = [shlex.split(l)[1:] for l in script.splitlines() if l.startswith("fio ")]
paths = {"filename", "write_iops_log"}
flags = {"output", "output-format", "eta", "time_based", "group_reporting"}
for i, args in enumerate(fio):
    opts = dict(a[2:].split("=", 1) if "=" in a else (a[2:], "") for a in args)
    name = opts["name"]
    local = json.load(open(os.path.join(sys.argv[2], "%02d-%s.json" % (i, name))))["jobs"][0]["job options"]
    # fio's "job options" list every option but flags; paths differ
    assert set(opts) - paths - flags == set(local) - paths, (set(opts), set(local))
    for k in set(local) - paths:
        assert opts[k] == local[k], (name, k, opts[k], local[k])
    assert ("runtime" in opts) == ("time_based" in opts)
print("ok")
PY
grep -qx ok "$T/py.out" && ok "the Job's fio options equal the local run's" ||
	fail "the Job's fio options equal the local run's" "$(cat "$T/py.out")"
