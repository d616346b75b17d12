"""ebs_model.py - an independent model of the EBS rules the tests check
ebsize against (issue 10: expectations from a model kept under tests/,
written from ebs-facts.md, not from the C code).

Only what the tests need: the legal gp3 for a need (T3), gp2 baseline and
ceilings (T2), io2 throughput (T4), and the us-east-1 prices of T6.
"""
import math

# T3 current (2025-09-01 row): 1-65,536 GiB, 3,000-80,000 IOPS, 500 IOPS per
# GiB above 3,000, 125-2,000 MiB/s, 0.25 MiB/s per IOPS, 3,000 + 125 included.
GP3 = dict(min_size=1, max_size=65536, min_iops=3000, max_iops=80000,
           iops_per_gib=500, min_mibps=125, max_mibps=2000,
           mibps_per_iops=0.25)

# T6 us-east-1 (P1)
US_EAST_1 = dict(gp2=0.10, gp3=0.08, gp3_iops=0.005, gp3_mibps=0.04,
                 io2=0.125, io2_iops=(0.065, 0.0455, 0.03185),
                 st1=0.045, sc1=0.015, io1=0.125, io1_iops=0.065)


def ceil(x):
    """ceil that forgives float noise below 1e-9."""
    return int(math.ceil(x - 1e-9))


def gp3_for_need(size_gib, iops, mibps):
    """T3: the cheapest legal gp3 holding size_gib and carrying iops and
    mibps: (size, iops, mibps), or None when no gp3 carries it.

    Any gp3 carries the included 3,000 IOPS; the 500 IOPS/GiB rule binds
    only IOPS above that ("max IOPS for size = min(80,000, max(3,000,
    500 x GiB))").  Throughput needs IOPS >= MiB/s / 0.25."""
    t = max(GP3['min_mibps'], ceil(mibps))
    i = max(GP3['min_iops'], ceil(iops), ceil(t / GP3['mibps_per_iops']))
    if i > GP3['max_iops'] or t > GP3['max_mibps']:
        return None
    s = max(GP3['min_size'], ceil(size_gib))
    if i > GP3['min_iops']:
        s = max(s, ceil(i / GP3['iops_per_gib']))
    if s > GP3['max_size']:
        return None
    return (s, i, t)


def gp3_max_iops(size_gib):
    """T3: the most IOPS a gp3 of size_gib may have."""
    return min(GP3['max_iops'], max(GP3['min_iops'], GP3['iops_per_gib'] * size_gib))


def gp3_cost(size, iops, mibps, p=US_EAST_1):
    """T6 pricing rule: GB x rate + IOPS over 3,000 + MiB/s over 125."""
    return (size * p['gp3'] + max(0, iops - 3000) * p['gp3_iops'] +
            max(0, mibps - 125) * p['gp3_mibps'])


def gp2_baseline(size_gib):
    """T2: max(100, min(16,000, 3 x GiB))."""
    return max(100, min(16000, 3 * size_gib))


def gp2_ceiling_mibps(size_gib):
    """T2: 128 MiB/s up to 170 GiB, 250 above."""
    return 128 if size_gib <= 170 else 250


def io2_iops_for_mibps(mibps):
    """T4: io2 carries 0.256 MiB/s per provisioned IOPS."""
    return ceil(mibps / 0.256)


def io2_cost(size, iops, p=US_EAST_1):
    """T6: storage plus three IOPS tiers (32,000 and 64,000 boundaries)."""
    t1, t2, t3 = p['io2_iops']
    return (size * p['io2'] + min(iops, 32000) * t1 +
            min(max(iops - 32000, 0), 32000) * t2 + max(iops - 64000, 0) * t3)
