#!/usr/bin/env python3
"""machine_numbers.py - check that ebsize's machine-readable output is exact
and typed (issue 10 items 8 and 9).

usage: machine_numbers.py json|csv FILE [LABEL]

Prints one line per problem and exits 1 when there is any:
- a number written with more than 6 decimals (binary noise such as
  0.6000000000000001, or more precision than the output rule allows);
- in JSON, the placeholder string "-" where null is meant.
Numbers are judged by their text as written, not after parsing.
"""
import csv
import json
import re
import sys

NUM = re.compile(r'^-?\d+(?:\.(\d+))?(?:[eE]([-+]?\d+))?$')
MAX_DECIMALS = 6


def decimals(text):
    """Decimal places of a number literal (exponent applied), or None."""
    m = NUM.match(text)
    if not m:
        return None
    frac, exp = m.group(1) or '', int(m.group(2) or 0)
    frac = frac.rstrip('0')
    return max(0, len(frac) - exp)


def walk(value, path, problems):
    if isinstance(value, dict):
        for k, v in value.items():
            walk(v, f'{path}.{k}' if path else k, problems)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            walk(v, f'{path}.{i}', problems)
    elif isinstance(value, RawNumber):
        d = decimals(value.text)
        if d is not None and d > MAX_DECIMALS:
            problems.append(f'{path}: {value.text} has {d} decimals')
    elif value == '-':
        problems.append(f'{path}: the placeholder "-" where null is meant')


class RawNumber:
    def __init__(self, text):
        self.text = text


def check_json(text):
    problems = []
    for i, line in enumerate(l for l in text.splitlines() if l.strip()):
        doc = json.loads(line, parse_float=RawNumber, parse_int=RawNumber)
        walk(doc, '', problems)
    return problems


def check_csv(text):
    problems = []
    for r, row in enumerate(csv.reader(text.splitlines())):
        for c, cell in enumerate(row):
            d = decimals(cell)
            if d is not None and d > MAX_DECIMALS:
                problems.append(f'row {r + 1} column {c + 1}: {cell} has {d} decimals')
    return problems


def main():
    kind, path = sys.argv[1], sys.argv[2]
    label = sys.argv[3] if len(sys.argv) > 3 else path
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if not text.strip():
        print(f'{label}: no output')
        return 1
    problems = check_json(text) if kind == 'json' else check_csv(text)
    for p in problems[:20]:
        print(f'{label}: {p}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
