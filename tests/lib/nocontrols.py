#!/usr/bin/env python3
"""nocontrols.py [--csv] FILE...: exit 1 (naming file, offset and bytes)
when a file holds a control character raw: C0 but newline (and, with
--csv, tab and the CR of CR LF), DEL, or a C1 control in its UTF-8 form
(U+0080..U+009F).  Binary-safe: reads bytes."""
import sys

csv = "--csv" in sys.argv[1:]
bad = 0
for path in [a for a in sys.argv[1:] if a != "--csv"]:
    b = open(path, "rb").read()
    for i, c in enumerate(b):
        ok = True
        if c == 0x0A:
            pass
        elif csv and (c == 0x09 or (c == 0x0D and b[i + 1:i + 2] == b"\n")):
            pass
        elif c < 0x20 or c == 0x7F:
            ok = False
        elif c == 0xC2 and i + 1 < len(b) and 0x80 <= b[i + 1] <= 0x9F:
            ok = False
        if not ok:
            print("%s: offset %d: raw control 0x%02x in %r" % (path, i, c, b[max(0, i - 20):i + 20]))
            bad = 1
            break
sys.exit(bad)
