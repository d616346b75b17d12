#!/bin/sh
# t0710-gp3-agreement: issue 10 item 1 as a property -- over many GENERATED
# needs (a third of them below 6 GiB, IOPS and MiB/s at the edges of T3),
# `compare`, `scan` and `cheapest` propose the same cheapest legal gp3, and
# it is the one the independent model in tests/lib/ebs_model.py (written
# from ebs-facts.md T3 and T6) computes.  The generator and the checks are
# tests/lib/gp3_agreement.py.
. "$(dirname "$0")/../lib/test-lib.sh"

/usr/bin/python3 "$ROOT/tests/lib/gp3_agreement.py" "$EBSIZE" "$DB" "$T" 240 20261101
