#!/usr/bin/python3
"""batch_oneshot.py - what `ebsize CMD --batch FILE` must print, worked out
by asking ebsize one request at a time (issue 14: the batch gives
byte-identical answers to one-at-a-time calls).

    batch_oneshot.py EBSIZE DB CMD FILE [GLOBAL_ARG...] > expected.jsonl

FILE is JSON Lines; each request becomes one process,
`EBSIZE --db DB [--region R] GLOBAL_ARG... --format json CMD --KEY VALUE...`
(the request's "region" as the global --region, "id" left out, numbers as
written in the file).  Its expected line, built from that process alone:
  exit 0: '{"id":ID,' + its stdout without the opening '{'
  else:   '{"id":ID,"line":N,"exit":RC,"error":E,"hints":[H...]' and, when
          it printed a document, ',' + that document without its '{';
E the "error: " lines of its stderr (joined with "; "), H its "hint: "
lines but the usage hint "see 'ebsize CMD -h'".  Blank lines are no
request.  The JSON text of the prefix is written as ebsize writes JSON:
compact, UTF-8 as it is, control characters escaped.
"""
import json
import subprocess
import sys


def jstr(s):
    return json.dumps(s, ensure_ascii=False, separators=(",", ":"))


def main():
    ebsize, db, cmd, path = sys.argv[1:5]
    extra = sys.argv[5:]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        # numbers keep the text they are written with
        req = json.loads(line, parse_int=str, parse_float=str)
        argv = [ebsize, "--db", db]
        args = []
        rid = None
        for k, v in req.items():
            if v is None:
                continue
            if isinstance(v, list):
                v = ",".join(v)
            if k == "id":
                rid = v
            elif k == "region":
                argv += ["--region", v]
            else:
                args += ["--" + k, v]
        argv += extra + ["--format", "json", cmd] + args
        p = subprocess.run(argv, capture_output=True, text=True)
        out = p.stdout
        if p.returncode == 0:
            sys.stdout.write('{"id":' + jstr(rid) + "," + out[1:])
            continue
        errors, hints = [], []
        for e in p.stderr.splitlines():
            if e.startswith("error: "):
                errors.append(e[len("error: "):])
            elif e.startswith("hint: ") and not e.startswith("hint: see 'ebsize "):
                hints.append(e[len("hint: "):])
        pre = ('{"id":' + jstr(rid) + ',"line":%d,"exit":%d,"error":%s,"hints":[%s]'
               % (n, p.returncode, jstr("; ".join(errors)), ",".join(jstr(h) for h in hints)))
        if out:
            sys.stdout.write(pre + "," + out[1:])
        else:
            sys.stdout.write(pre + "}\n")


main()
