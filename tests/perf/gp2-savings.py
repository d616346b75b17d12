#!/usr/bin/python3
# gp2-savings.py - the baseline the scan benchmark compares against: a
# straightforward script (standard json module) that prices gp2 -> gp3 in
# place for every in-use gp2 of a describe-volumes file, with the us-east-1
# and eu-west-1 rates of ebs-facts.md T6 (other regions at us-east-1's).
import json
import math
import sys

RATES = {"us-east-1": (0.10, 0.08, 0.005, 0.04), "eu-west-1": (0.11, 0.088, 0.0055, 0.044)}
total = 0.0
n = 0
for v in json.load(open(sys.argv[1]))["Volumes"]:
    if v["VolumeType"] != "gp2" or v["State"] != "in-use":
        continue
    region = v["AvailabilityZone"][:-1]
    gp2, gp3, iops_p, tput_p = RATES.get(region, RATES["us-east-1"])
    size = v["Size"]
    iops = max(3000, min(16000, max(100, 3 * size)))
    tput = 250 if size > 170 else 125
    save = size * gp2 - (size * gp3 + (iops - 3000) * iops_p + (tput - 125) * tput_p)
    if save > 0:
        total += save
        n += 1
print("%d findings, %.2f USD/month" % (n, total))
