#!/usr/bin/env python3
"""gp3_agreement.py - property test for issue 10 item 1: `compare`, `scan`
and `cheapest` agree on the cheapest legal gp3 for the same need, and all
three equal an independent model (ebs_model.py, from ebs-facts.md T3/T6).

usage: gp3_agreement.py EBSIZE DB TMPDIR COUNT SEED

Generates COUNT needs (size S GiB, IOPS I, MiB/s M; GENERATED test data,
biased toward the edges: sizes below 6 GiB, IOPS at and around 3,000 and
500 x S, MiB/s around 125 and 0.25 x IOPS) and asks:
  compare  --sizes S --iops N --throughput M: its gp3 row is the gp3 for
           (S, max(N, gp2 baseline of S), M) -- the need of that row;
  cheapest --types gp3 --max-stripe 1 --iops I --throughput M --size S
           --io-size 1 (1 KiB I/O, so N x I/O size never exceeds M);
  scan     a gp3 of S GiB provisioned at the most S allows, CloudWatch
           peaks I and M, --headroom 0: its in-place proposal.
Prints TAP-like "ok"/"not ok" lines (the e2e runner counts them).
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ebs_model as m  # noqa: E402


def run(ebsize, db, *args):
    p = subprocess.run([ebsize, '--db', db, '--format', 'json'] + list(args),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def gen_needs(count, rnd):
    """(S, N, M) triples, grouped by (N, M) so one compare run covers a
    group of sizes."""
    groups = []
    while sum(len(g[2]) for g in groups) < count:
        n = rnd.choice([1, 100, 2999, 3000, 3001, rnd.randint(1, 6000),
                        rnd.randint(3000, 20000), rnd.randint(1, 80000)])
        mb = rnd.choice([125, 126, 128, 250, 750, 751, rnd.randint(125, 500),
                         rnd.randint(125, 2000)])
        sizes = sorted({rnd.choice([1, 2, 3, 4, 5, 6, 7, rnd.randint(1, 12),
                                    rnd.randint(1, 200), rnd.randint(150, 2000),
                                    max(1, n // 500), n // 500 + 1])
                        for _ in range(5)})
        groups.append((n, mb, sizes))
    return groups


def metrics_json(vols):
    """CloudWatch get-metric-data results (GENERATED): per volume one
    period of 60 s with ReadOps = I x 60 and ReadBytes = M MiB x 60."""
    res = []
    for vid, _size, iops, mibps in vols:
        for metric, value in (('VolumeReadOps', iops * 60),
                              ('VolumeReadBytes', mibps * 1048576 * 60)):
            res.append({'Id': f'x{len(res)}', 'Label': f'{vid} {metric} 60',
                        'Timestamps': ['2026-11-01T10:00:00+00:00'],
                        'Values': [value], 'StatusCode': 'Complete'})
    return {'Generated': 'generated test data (tests/lib/gp3_agreement.py)',
            'MetricDataResults': res}


def inventory_json(vols):
    """describe-volumes (GENERATED): each a gp3 at the most its size allows."""
    out = []
    for vid, size, _i, _m in vols:
        iops = m.gp3_max_iops(size)
        out.append({'VolumeId': vid, 'VolumeType': 'gp3', 'Size': size,
                    'Iops': iops, 'Throughput': int(min(2000, iops * 0.25)),
                    'State': 'in-use', 'AvailabilityZone': 'us-east-1a',
                    'Attachments': [{'InstanceId': 'i-0e2e0000000000001',
                                     'State': 'attached', 'VolumeId': vid}]})
    return {'Generated': 'generated test data (tests/lib/gp3_agreement.py)',
            'Volumes': out}


def main():
    ebsize, db, tmp, count, seed = sys.argv[1:6]
    rnd = random.Random(int(seed))
    groups = gen_needs(int(count), rnd)
    bad = {'compare': [], 'cheapest': [], 'scan': []}
    checked = {'compare': 0, 'cheapest': 0, 'scan': 0}
    vols = []
    for n, mb, sizes in groups:
        rc, out, err = run(ebsize, db, 'compare', '--types', 'gp2,gp3',
                           '--sizes', ','.join(map(str, sizes)),
                           '--iops', str(n), '--throughput', str(mb))
        rows = {r['gp2_size_gib']: r for r in json.loads(out)['rows']
                if r['type'] == 'gp3'} if rc == 0 else {}
        for s in sizes:
            need_i = max(n, m.gp2_baseline(s))
            want = m.gp3_for_need(s, need_i, mb)
            got = rows.get(s)
            checked['compare'] += 1
            if want is None:
                if got is not None:
                    bad['compare'].append(f'S={s} I={need_i} M={mb}: want none, got {got}')
            elif (got is None or (got['size_gib'], got['iops'], got['throughput_mibps']) != want
                  or abs(got['monthly_usd'] - m.gp3_cost(*want)) > 1e-6):
                bad['compare'].append(f'S={s} I={need_i} M={mb}: want {want}, got {got}')
            # cheapest for the same need
            rc, out, err = run(ebsize, db, 'cheapest', '--types', 'gp3', '--max-stripe', '1',
                               '--iops', str(need_i), '--throughput', str(mb),
                               '--size', str(s), '--io-size', '1')
            checked['cheapest'] += 1
            opts = json.loads(out)['options'] if out else []
            if want is None:
                if opts:
                    bad['cheapest'].append(f'S={s} I={need_i} M={mb}: want none, got {opts[0]}')
            else:
                o = opts[0] if opts else None
                if (o is None or o['count'] != 1 or
                        (o['size_gib'], o['iops'], o['throughput_mibps']) != want or
                        abs(o['monthly_usd']['total'] - m.gp3_cost(*want)) > 1e-6):
                    bad['cheapest'].append(f'S={s} I={need_i} M={mb}: want {want}, got {o}')
            vols.append((f'vol-0e2e{len(vols):013x}', s, need_i, mb))
    with open(os.path.join(tmp, 'agree-inv.json'), 'w') as f:
        json.dump(inventory_json(vols), f)
    with open(os.path.join(tmp, 'agree-metrics.json'), 'w') as f:
        json.dump(metrics_json(vols), f)
    rc, out, err = run(ebsize, db, 'scan', os.path.join(tmp, 'agree-inv.json'),
                       '--metrics', os.path.join(tmp, 'agree-metrics.json'),
                       '--headroom', '0')
    found = {f['volume_id']: f for f in json.loads(out)['findings']} if rc == 0 else {}
    for vid, s, i, mb in vols:
        want = m.gp3_for_need(s, i, mb)
        cur_i = m.gp3_max_iops(s)
        cur = (s, cur_i, int(min(2000, cur_i * 0.25)))
        got = found.get(vid)
        checked['scan'] += 1
        # in place: the need must fit the volume's own size, and save money
        if want is None or want[0] != s or m.gp3_cost(*want) >= m.gp3_cost(*cur) - 1e-9:
            if got is not None:
                bad['scan'].append(f'{vid} S={s} I={i} M={mb}: want no finding, got {got["proposed"]}')
            continue
        p = got['proposed'] if got else None
        if (p is None or (p['size_gib'], p['iops'], p['throughput_mibps']) != want or
                abs(p['monthly_usd'] - m.gp3_cost(*want)) > 1e-6):
            bad['scan'].append(f'{vid} S={s} I={i} M={mb}: want {want}, got {p}')
    small = sum(1 for _v, s, _i, _m in vols if s < 6)
    for k in ('compare', 'cheapest', 'scan'):
        if bad[k]:
            print(f'not ok - {k} agrees with the model on {checked[k]} needs ({small} below 6 GiB)')
            for line in bad[k][:10]:
                print(f'#   {line}')
        else:
            print(f'ok - {k} agrees with the model on {checked[k]} needs ({small} below 6 GiB)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
