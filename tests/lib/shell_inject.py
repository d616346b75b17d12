#!/usr/bin/python3
"""shell_inject.py EBSIZE DB WORKDIR SET...: every field of scan's inputs
against the shell commands scan prints (issue 13, security).

A SET is NAME=FILE[,FILE...][+usage=CSV]: scan's input files.  For each
JSON file of each set, every string value -- and every key of an
"annotations", "labels" or "parameters" object -- is replaced, one at a
time, by a hostile text (command substitution, backquotes, quotes that
close the quoting, newlines, `$(id)`), and so is the volume id of each
usage CSV row.  scan runs on each variant (--format json); every string
it prints under a key ending in "command" is one line of a script, which
must pass `sh -n` and is then run by sh with `aws` and `kubectl` as shell
functions that log their arguments.  Nothing may run: no canary file
appears, no "uid=" (from `$(id)`) reaches a logged argument, no line of
the script is a command ebsize did not write (each starts "aws ",
"kubectl ", "echo " or "snap=$(aws ").

Prints one line per check, "ok ..." or "FAIL ...", then a summary:
"variants N, runs with commands N, commands N, payloads seen in commands N".
Exit 1 on any failure.
"""
import json
import os
import subprocess
import sys

ebsize, db, work = sys.argv[1], sys.argv[2], sys.argv[3]
sets = sys.argv[4:]
canary = os.path.join(work, "pwned")
PAYLOADS = [
    "x$(touch %s-1)y" % canary,
    "x`touch %s-2`y" % canary,
    "x'; touch %s-3; echo '" % canary,
    'x"; touch %s-4; echo "' % canary,
    "x\ntouch %s-5\ny" % canary,
    "$(id)",
    "x' \"$(touch %s-7)\" '`touch %s-8`" % (canary, canary),
    "x}' | touch %s-9; echo '{" % canary,
]
STUBS = """aws() { printf 'aws' >>"$LOG"; printf ' [%s]' "$@" >>"$LOG"; printf '\\n' >>"$LOG"; echo snap-0123456789abcdef0; }
kubectl() { printf 'kubectl' >>"$LOG"; printf ' [%s]' "$@" >>"$LOG"; printf '\\n' >>"$LOG"; cat >/dev/null; }
"""
OURS = ("aws ", "kubectl ", "echo '", "snap=$(aws ")

fails = 0
variants = runs_with = ncommands = seen = 0


def say(ok, what):
    global fails
    if not ok:
        fails += 1
    if not ok:
        print("FAIL " + what)


def leaves(d, path=()):
    """Paths of string values, and ("KEY", path) of keys worth renaming."""
    if isinstance(d, dict):
        for k, v in d.items():
            if path and path[-1] in ("annotations", "labels", "parameters"):
                yield ("KEY",) + path + (k,)
            yield from leaves(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from leaves(v, path + (i,))
    elif isinstance(d, str):
        yield path


def mutate(d, path, payload):
    d = json.loads(json.dumps(d))
    if path[0] == "KEY":
        obj = d
        for p in path[1:-1]:
            obj = obj[p]
        k = path[-1]
        obj[k + payload] = obj.pop(k)
        return d
    obj = d
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = payload if len(obj[path[-1]]) < 2 else obj[path[-1]][:3] + payload
    return d


def commands(doc):
    out = []

    def walk(x, key=""):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and key.endswith("command"):
            out.append(x)
    walk(doc)
    return out


def scan(files, usage, tag):
    global variants, runs_with, ncommands, seen
    variants += 1
    args = [ebsize, "--db", db, "--format", "json", "scan"] + files
    if usage:
        args += ["--usage", usage]
    p = subprocess.run(args, capture_output=True)
    if p.returncode not in (0, 1):
        say(False, "%s: scan exited %d: %s" % (tag, p.returncode, p.stderr[-300:]))
        return
    if p.returncode == 1:
        return        # refused as a whole (a clear error): nothing printed
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        say(False, "%s: scan JSON does not parse: %s" % (tag, e))
        return
    cmds = commands(doc)
    if not cmds:
        return
    runs_with += 1
    ncommands += len(cmds)
    for c in cmds:
        if any(m in c for m in ("touch " + canary, "$(id)", "uid=")):
            seen += 1
        say("\n" not in c and "\r" not in c, "%s: a command holds a line break: %r" % (tag, c))
        say(c.startswith(OURS), "%s: a command ebsize did not write: %r" % (tag, c))
    script = os.path.join(work, "cmds.sh")
    log = os.path.join(work, "cmds.log")
    with open(script, "w") as f:
        f.write(STUBS)
        f.write("\n".join(cmds) + "\n")
    r = subprocess.run(["sh", "-n", script], capture_output=True)
    say(r.returncode == 0, "%s: sh -n rejects the commands: %s" % (tag, r.stderr[:300]))
    if os.path.exists(log):
        os.unlink(log)
    r = subprocess.run(["sh", script], capture_output=True, cwd=work,
                       env=dict(os.environ, LOG=log))
    logged = open(log).read() if os.path.exists(log) else ""
    say("uid=" not in logged and "uid=" not in r.stdout.decode(errors="replace"),
        "%s: $(id) was run: %r" % (tag, logged[:300]))
    ran = [f for f in os.listdir(work) if f.startswith("pwned")]
    say(not ran, "%s: injected commands ran: %s; commands: %r" % (tag, ran, cmds))
    for f in ran:
        os.unlink(os.path.join(work, f))


k = 0
for spec in sets:
    name, rest = spec.split("=", 1)
    usage = None
    if "+usage=" in rest:
        rest, usage = rest.split("+usage=")
    files = rest.split(",")
    scan(files, usage, name + " (as given)")
    for i, f in enumerate(files):
        doc = json.load(open(f))
        for path in leaves(doc):
            payload = PAYLOADS[k % len(PAYLOADS)]
            k += 1
            mutated = os.path.join(work, "m-" + os.path.basename(f))
            json.dump(mutate(doc, path, payload), open(mutated, "w"))
            scan(files[:i] + [mutated] + files[i + 1:], usage,
                 "%s: %s %s" % (name, os.path.basename(f), "/".join(map(str, path))))
    if usage:
        rows = open(usage).read().split("\n")
        for j, row in enumerate(rows):
            if not row.startswith("vol-"):
                continue
            payload = PAYLOADS[k % len(PAYLOADS)]
            k += 1
            cells = row.split(",")
            cells[0] = '"' + (cells[0][:6] + payload).replace('"', '""') + '"'
            mutated = os.path.join(work, "m-usage.csv")
            open(mutated, "w").write("\n".join(rows[:j] + [",".join(cells)] + rows[j + 1:]))
            scan(files, mutated, "%s: usage row %d" % (name, j + 1))

print("variants %d, runs with commands %d, commands %d, payloads seen in commands %d"
      % (variants, runs_with, ncommands, seen))
sys.exit(1 if fails else 0)
