#!/usr/bin/env python3
# gen-focus.py - write a GENERATED FOCUS 1.0 export of about SIZE_MB for
# the billing benchmark: the columns and row shape of the real sample
# (tests/fixtures/billing/focus-1.0-aws-ebs-rows-sample.csv), hourly rows
# of VOLUMES made-up volumes (gp2 storage; gp3 storage + IOPS + throughput
# rows at the baseline) in September 2024, hour after hour until the size
# is reached.  Not billing data.
#   python3 gen-focus.py SIZE_MB VOLUMES OUT.csv
import sys

size = int(sys.argv[1]) << 20
nvol = int(sys.argv[2])
out = sys.argv[3]
sample = "../fixtures/billing/focus-1.0-aws-ebs-rows-sample.csv"
header = open(__file__.rsplit("/", 1)[0] + "/" + sample).readline() \
    if "/" in __file__ else open(sample).readline()

ROW = ("NULL,{cost:.11f},1234567890123,SunBird,USD,2024-10-01 00:00:00,"
       "2024-09-01 00:00:00,Usage,NULL,{desc},Usage-Based,"
       "2024-09-{d:02d} {h1:02d}:00:00,2024-09-{d0:02d} {h0:02d}:00:00,NULL,NULL,NULL,"
       "NULL,NULL,{qty:.15f},{unit},0.00000000000,0.00000000000,0.00000000000,"
       "\"Amazon Web Services, Inc.\",{cost:.11f},{rate},Standard,{qty:.11f},"
       "{unit},AWS,\"Amazon Web Services, Inc.\",us-east-1,US East (N. Virginia),"
       "{vid},NULL,{rtype},Storage,{n},Amazon Elastic Compute Cloud,SKU,SKU.X.Y,"
       "{acct},Generated Account,\"{{\"\"application\"\": \"\"app{app}\"\", "
       "\"\"environment\"\": \"\"prod\"\"}}\"\n")
GP2 = "$0.10 per GB-month of General Purpose SSD (gp2) provisioned storage - US East (N. Virginia)"
GP3 = "$0.08 per GB-month of General Purpose (gp3) provisioned storage - US East (N. Virginia)"
IOPS = "$0.005 per provisioned IOPS-month of gp3 - US East (N. Virginia)"
TPUT = "$0.04 per provisioned MiBps-month of gp3 - US East (N. Virginia)"

written, n = 0, 0
with open(out, "w") as f:
    f.write(header)
    written += len(header)
    hour = 0
    while written < size:
        d0, h0 = 1 + (hour // 24) % 30, hour % 24
        d, h1 = (d0, h0 + 1) if h0 < 23 else (d0 + 1, 0)
        if d > 30:
            d, h1 = 30, 23  # the last hour of the month, kept in September
        chunk = []
        for v in range(nvol):
            size_gib = 8 + (v % 500)
            vid = f"vol-{v:017x}"
            base = dict(d=d, h1=h1, d0=d0, h0=h0, vid=vid, acct=100000000000 + v % 50,
                        app=v % 20)
            q = size_gib / 720
            if v % 2:
                chunk.append(ROW.format(cost=q * 0.1, desc=GP2, qty=q, unit="GB-Months",
                                        rate=0.1, rtype="volume", n=n, **base))
                n += 1
            else:
                chunk.append(ROW.format(cost=q * 0.08, desc=GP3, qty=q, unit="GB-Months",
                                        rate=0.08, rtype="volume", n=n, **base))
                chunk.append(ROW.format(cost=0, desc=IOPS, qty=0, unit="IOPS-Months",
                                        rate=0.005, rtype="NULL", n=n + 1, **base))
                chunk.append(ROW.format(cost=0, desc=TPUT, qty=0, unit="GiB/Second-Months",
                                        rate=40.96, rtype="NULL", n=n + 2, **base))
                n += 3
        s = "".join(chunk)
        f.write(s)
        written += len(s)
        hour += 1
print(f"{out}: {written} bytes, {n} rows, {nvol} volumes, {hour} hours")
