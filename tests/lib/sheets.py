"""sheets.py - read back what LibreOffice made of ebsize's workbooks.

lo_convert (xlsx-lib.sh) writes every sheet of BOOK.xlsx as
BOOK-SHEET.csv.  These helpers read them, and say ok/fail in the form
py_checks turns into test results.  Money is compared to the cent.
"""
import csv
import json
import os
import sys

_dir = None


def use(directory):
    """Read sheets from this directory from now on."""
    global _dir
    _dir = directory


def rows(book, sheet):
    """A list sheet as a list of dicts (header row -> keys)."""
    with open(os.path.join(_dir, "%s-%s.csv" % (book, sheet)), newline="",
              encoding="utf-8") as f:
        return list(csv.DictReader(f))


def record(book, sheet):
    """A record sheet (field, value, description) as {field: value}."""
    return {r["field"]: r["value"] for r in rows(book, sheet)}


def blocks(book, sheet):
    """A sheet holding several sections one below the other (a record or
    list, then for each further section a blank row, its title and its
    header): {title: [row dicts]}, the first section under None."""
    with open(os.path.join(_dir, "%s-%s.csv" % (book, sheet)), newline="",
              encoding="utf-8") as f:
        lines = list(csv.reader(f))
    out, i, title = {}, 0, None
    while i < len(lines):
        head = lines[i]
        i += 1
        got = []
        while i < len(lines) and any(x != "" for x in lines[i]):
            got.append(dict(zip(head, lines[i])))
            i += 1
        out[title] = got
        while i < len(lines) and not any(x != "" for x in lines[i]):
            i += 1
        if i < len(lines):
            title = lines[i][0]
            i += 1
    return out


def num(s):
    """A cell as LibreOffice wrote it: '12.5', '20%' -> 0.2, '' -> None."""
    s = s.strip()
    if s == "":
        return None
    if s.endswith("%"):
        return float(s[:-1]) / 100
    return float(s)


def json_file(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def ok(desc):
    print("ok " + desc)


def fail(desc, detail):
    print("fail %s | %s" % (desc, detail))


def check(cond, desc, detail=""):
    (ok if cond else lambda d: fail(d, detail))(desc)


def cents(got, want, desc):
    """got (a sheet's text) equals want (a number) to the cent."""
    g = num(got) if isinstance(got, str) else got
    good = g is not None and want is not None and abs(g - want) < 0.005
    check(good or (g is None and want is None), desc,
          "sheet has %r, expected %r" % (got, want))


def close(got, want, desc, tol=1e-9):
    g = num(got) if isinstance(got, str) else got
    check(g is not None and abs(g - want) <= tol, desc,
          "sheet has %r, expected %r" % (got, want))


if __name__ == "__main__":
    sys.exit("a module for the tests, not a program")
