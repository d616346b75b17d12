#!/usr/bin/python3
"""aws_recorder.py - a loopback EC2 + CloudWatch endpoint for running the
commands `ebsize scan` prints through the real AWS CLI (issue 10).

    aws_recorder.py PORTFILE LOGFILE STATEFILE INVENTORY_JSON

Listens on 127.0.0.1 (a free port, written to PORTFILE) for the AWS CLI
given `--endpoint-url http://127.0.0.1:PORT`.  Every request is recorded
to LOGFILE as one JSON line {"service", "action", "params"} -- the API
parameters exactly as the CLI sent them -- and the resulting state
{"volumes", "snapshots", "alarms"} is written to STATEFILE after each one.

The starting volumes are those of INVENTORY_JSON (describe-volumes output).
Requests change them as AWS documents (ebs-facts.md A1 ModifyVolume, A2
CreateVolume; T1, T3, T4 limits), so the state shows what AWS would end up
with after its defaults:
  ModifyVolume  the type stays unless given; Iops: kept when the type
                stays, else 3,000 for gp3/io1/io2; Throughput: kept when
                gp3 stays gp3, else 125 for gp3.  Illegal targets are
                refused with InvalidParameterValue, as EC2 does.
  CreateVolume  type gp2 unless given; gp3 3,000 IOPS and 125 MiB/s unless
                given; io1/io2 need Iops.
  CreateSnapshot, DescribeSnapshots (snapshots complete at once, for
                `aws ec2 wait snapshot-completed`), DeleteVolume.
  PutMetricAlarm (CloudWatch, Query or JSON protocol): stored by name.
Responses are the XML (or JSON) shapes the CLI parses; the ids it makes
up are GENERATED.  No signature check: the credentials are made up.
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl

EC2_NS = "http://ec2.amazonaws.com/doc/2016-11-15/"
CW_NS = "http://monitoring.amazonaws.com/doc/2010-08-01/"

# T1, T3, T4: size range, IOPS range, IOPS per GiB above the minimum,
# MiB/s range and MiB/s per IOPS (gp3 only).
LIMITS = {
    "gp2": (1, 16384, None), "st1": (125, 16384, None), "sc1": (125, 16384, None),
    "standard": (1, 1024, None),
    "gp3": (1, 65536, (3000, 80000, 500)),
    "io1": (4, 16384, (100, 64000, 50)),
    "io2": (4, 65536, (100, 256000, 1000)),
}

lock = threading.Lock()
state = {"volumes": {}, "snapshots": {}, "alarms": {}}
counter = [0]


def new_id(prefix):
    counter[0] += 1
    return "%s-0e2e%013x" % (prefix, 0xfeed000 + counter[0])


def check(v):
    """None when v is a legal volume, else the reason (EC2's words differ)."""
    lo, hi, piops = LIMITS[v["type"]]
    if not lo <= v["size"] <= hi:
        return "size %d out of range for %s" % (v["size"], v["type"])
    if piops is None:
        if v.get("iops") is not None and v["type"] != "gp2":
            return "Iops is not valid for %s" % v["type"]
        if v.get("throughput") is not None:
            return "Throughput is not valid for %s" % v["type"]
        return None
    imin, imax, per_gib = piops
    i = v.get("iops")
    if i is None:
        return "Iops is required for %s" % v["type"]
    if not imin <= i <= imax:
        return "Iops %d out of range for %s" % (i, v["type"])
    if i > max(imin, per_gib * v["size"]):
        return "Iops %d too high for %d GiB %s" % (i, v["size"], v["type"])
    t = v.get("throughput")
    if v["type"] == "gp3":
        if not 125 <= t <= 2000 or t > 0.25 * i:
            return "Throughput %s not valid for gp3 at %d IOPS" % (t, i)
    elif t is not None:
        return "Throughput is not valid for %s" % v["type"]
    return None


def load_inventory(path):
    with open(path) as f:
        doc = json.load(f)
    for v in doc.get("Volumes", []):
        t = v["VolumeType"]
        state["volumes"][v["VolumeId"]] = {
            "type": t, "size": v["Size"],
            "iops": v.get("Iops") if t in ("gp3", "io1", "io2") else None,
            "throughput": v.get("Throughput") if t == "gp3" else None,
            "az": v.get("AvailabilityZone"), "encrypted": v.get("Encrypted", False),
            "kms_key_id": v.get("KmsKeyId"), "state": v.get("State", "in-use"),
            "tags": {}}


def modify_volume(p):
    vid = p["VolumeId"]
    cur = state["volumes"].get(vid)
    if cur is None:
        return error("InvalidVolume.NotFound", "The volume '%s' does not exist." % vid)
    new = dict(cur)
    new["type"] = p.get("VolumeType", cur["type"])
    same = new["type"] == cur["type"]
    new["size"] = int(p.get("Size", cur["size"]))
    if "Iops" in p:
        new["iops"] = int(p["Iops"])
    elif new["type"] in ("gp3", "io1", "io2"):
        new["iops"] = cur["iops"] if same else 3000          # A1 default
    else:
        new["iops"] = None
    if "Throughput" in p:
        new["throughput"] = int(p["Throughput"])
    elif new["type"] == "gp3":
        new["throughput"] = cur["throughput"] if same else 125   # A1 default
    else:
        new["throughput"] = None
    why = check(new)
    if why:
        return error("InvalidParameterValue", why)
    state["volumes"][vid] = new
    x = ("<volumeModification><volumeId>%s</volumeId><modificationState>modifying"
         "</modificationState><targetSize>%d</targetSize><targetVolumeType>%s"
         "</targetVolumeType>%s%s<originalSize>%d</originalSize><originalVolumeType>%s"
         "</originalVolumeType><progress>0</progress></volumeModification>") % (
        vid, new["size"], new["type"],
        "<targetIops>%d</targetIops>" % new["iops"] if new["iops"] is not None else "",
        "<targetThroughput>%d</targetThroughput>" % new["throughput"]
        if new["throughput"] is not None else "", cur["size"], cur["type"])
    return ok_xml("ModifyVolumeResponse", x)


def create_volume(p):
    v = {"type": p.get("VolumeType", "gp2"), "size": int(p.get("Size", 0)),
         "az": p.get("AvailabilityZone"),
         "encrypted": p.get("Encrypted") == "true", "kms_key_id": p.get("KmsKeyId"),
         "state": "available", "tags": {}}
    v["iops"] = int(p["Iops"]) if "Iops" in p else (3000 if v["type"] == "gp3" else None)
    v["throughput"] = (int(p["Throughput"]) if "Throughput" in p else
                       125 if v["type"] == "gp3" else None)
    for k, val in p.items():            # TagSpecification.1.Tag.N.Key/Value
        if k.startswith("TagSpecification.1.Tag.") and k.endswith(".Key"):
            v["tags"][val] = p.get(k[:-4] + ".Value")
    why = check(v)
    if why:
        return error("InvalidParameterValue", why)
    vid = new_id("vol")
    state["volumes"][vid] = v
    x = ("<volumeId>%s</volumeId><size>%d</size><availabilityZone>%s</availabilityZone>"
         "<status>creating</status><volumeType>%s</volumeType><encrypted>%s</encrypted>") % (
        vid, v["size"], v["az"], v["type"], "true" if v["encrypted"] else "false")
    return ok_xml("CreateVolumeResponse", x)


def create_snapshot(p):
    vid = p["VolumeId"]
    if vid not in state["volumes"]:
        return error("InvalidVolume.NotFound", "The volume '%s' does not exist." % vid)
    sid = new_id("snap")
    state["snapshots"][sid] = {"volume_id": vid, "description": p.get("Description"),
                               "state": "completed"}
    return ok_xml("CreateSnapshotResponse",
                  "<snapshotId>%s</snapshotId><volumeId>%s</volumeId><status>pending"
                  "</status><volumeSize>%d</volumeSize>" % (
                      sid, vid, state["volumes"][vid]["size"]))


def describe_snapshots(p):
    ids = [v for k, v in p.items() if k.startswith("SnapshotId.")]
    items = "".join("<item><snapshotId>%s</snapshotId><volumeId>%s</volumeId><status>%s"
                     "</status><progress>100%%</progress></item>" % (
                         s, state["snapshots"][s]["volume_id"], state["snapshots"][s]["state"])
                     for s in ids if s in state["snapshots"])
    return ok_xml("DescribeSnapshotsResponse", "<snapshotSet>%s</snapshotSet>" % items)


def delete_volume(p):
    vid = p["VolumeId"]
    if vid not in state["volumes"]:
        return error("InvalidVolume.NotFound", "The volume '%s' does not exist." % vid)
    del state["volumes"][vid]
    return ok_xml("DeleteVolumeResponse", "<return>true</return>")


def put_metric_alarm(p):
    dims = {}
    for k, val in p.items():            # Dimensions.member.N.Name/Value
        if k.startswith("Dimensions.member.") and k.endswith(".Name"):
            dims[val] = p.get(k[:-5] + ".Value")
    a = {k: p[k] for k in ("AlarmName", "AlarmDescription", "Namespace", "MetricName",
                           "Statistic", "Period", "EvaluationPeriods", "Threshold",
                           "ComparisonOperator") if k in p}
    a["Dimensions"] = dims
    state["alarms"][p["AlarmName"]] = a
    return 200, "text/xml", (
        '<PutMetricAlarmResponse xmlns="%s"><ResponseMetadata><RequestId>0e2e</RequestId>'
        '</ResponseMetadata></PutMetricAlarmResponse>' % CW_NS)


def ok_xml(root, inner):
    return 200, "text/xml;charset=UTF-8", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<%s xmlns="%s"><requestId>0e2e</requestId>'
        '%s</%s>' % (root, EC2_NS, inner, root))


def error(code, msg):
    return 400, "text/xml;charset=UTF-8", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>%s</Code>'
        '<Message>%s</Message></Error></Errors><RequestID>0e2e</RequestID></Response>' % (
            code, msg))


EC2 = {"ModifyVolume": modify_volume, "CreateVolume": create_volume,
       "CreateSnapshot": create_snapshot, "DescribeSnapshots": describe_snapshots,
       "DeleteVolume": delete_volume}
CW = {"PutMetricAlarm": put_metric_alarm}


def flatten_json(d, prefix=""):
    """CloudWatch's JSON protocol body, flattened to Query names."""
    out = {}
    for k, v in d.items():
        if k == "Dimensions":
            for i, dim in enumerate(v, 1):
                out["Dimensions.member.%d.Name" % i] = dim["Name"]
                out["Dimensions.member.%d.Value" % i] = dim["Value"]
        else:
            out[prefix + k] = str(v) if not isinstance(v, float) else repr(v)
    return out


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        target = self.headers.get("X-Amz-Target", "")
        if target:                      # JSON protocol
            action = target.rsplit(".", 1)[-1]
            params = flatten_json(json.loads(body or "{}"))
        else:
            params = dict(parse_qsl(body, keep_blank_values=True))
            action = params.pop("Action", "")
            params.pop("Version", None)
        auth = self.headers.get("Authorization", "")
        service = "monitoring" if "/monitoring/" in auth or action in CW else "ec2"
        with lock:
            with open(LOG, "a") as f:
                f.write(json.dumps({"service": service, "action": action,
                                    "params": params}) + "\n")
            fn = (CW if service == "monitoring" else EC2).get(action)
            code, ctype, text = fn(params) if fn else error(
                "InvalidAction", "no action %s here" % action)
            if target and code == 200:
                ctype, text = "application/x-amz-json-1.0", "{}"
            with open(STATE, "w") as f:
                json.dump(state, f, indent=1, sort_keys=True)
        data = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    global LOG, STATE
    portfile, LOG, STATE, inventory = sys.argv[1:5]
    load_inventory(inventory)
    with open(STATE, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


if __name__ == "__main__":
    main()
