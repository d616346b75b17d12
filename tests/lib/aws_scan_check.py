#!/usr/bin/env python3
"""aws_scan_check.py - compare what the AWS CLI sent (aws_recorder.py's log)
and the state it left with each `ebsize scan` finding (t4020).

usage: aws_scan_check.py FINDINGS_JSON REQUESTS_LOG STATE_JSON

For every finding, prints one TAP-like line per check:
- ModifyVolume: the parameters sent are exactly those the API's defaults
  do not give (A1), and the volume ends as the proposal (type, size,
  IOPS, MiB/s);
- CreateVolume: the new volume (tag ebsize-replaces) is the proposal, with
  the original's encryption and key;
- snapshot-then-delete: a snapshot of the volume, then the volume gone;
- PutMetricAlarm: BurstBalance of the volume, Minimum over 60 s, at or
  below the finding's threshold.
"""
import json
import sys

PIOPS = ('gp3', 'io1', 'io2')


def expected_modify_params(cur, prop, vid):
    """A1: what must be stated to go from cur to prop (nothing else)."""
    p = {'VolumeId': vid}
    same = cur['type'] == prop['type']
    if not same:
        p['VolumeType'] = prop['type']
    if prop['type'] in PIOPS:
        default = cur['iops'] if same else 3000
        if prop['iops'] != default:
            p['Iops'] = str(prop['iops'])
    if prop['type'] == 'gp3':
        default = cur['throughput_mibps'] if same else 125
        if prop['throughput_mibps'] != default:
            p['Throughput'] = str(prop['throughput_mibps'])
    return p


def main():
    findings = json.load(open(sys.argv[1]))['findings']
    log = [json.loads(l) for l in open(sys.argv[2])]
    state = json.load(open(sys.argv[3]))
    n_ok = n_bad = 0

    def check(cond, desc, detail=''):
        nonlocal n_ok, n_bad
        if cond:
            n_ok += 1
            print(f'ok - {desc}')
        else:
            n_bad += 1
            print(f'not ok - {desc}')
            if detail:
                print(f'#   {detail}')

    for f in findings:
        vid, cat, prop, cur = f['volume_id'], f['category'], f['proposed'], f['current']
        mine = [r for r in log if r['params'].get('VolumeId') == vid or
                any(v == vid for v in r['params'].values())]
        if cat == 'unattached':
            acts = [r['action'] for r in mine if r['service'] == 'ec2']
            snaps = [s for s in state['snapshots'].values() if s['volume_id'] == vid]
            check(acts[:1] == ['CreateSnapshot'] and acts[-1:] == ['DeleteVolume'] and
                  'DescribeSnapshots' in [r['action'] for r in log],
                  f'{vid}: snapshot, wait for it, then delete', str(acts))
            check(len(snaps) == 1 and snaps[0]['state'] == 'completed' and
                  vid not in state['volumes'],
                  f'{vid}: ends deleted with one completed snapshot')
        elif prop['new_volume']:
            new = [v for v in state['volumes'].values()
                   if v['tags'].get('ebsize-replaces') == vid]
            sent = [r['params'] for r in log if r['action'] == 'CreateVolume' and
                    r['params'].get('TagSpecification.1.Tag.1.Value') == vid]
            want_stated = {k for k in ('Iops', 'Throughput')
                           if (k == 'Iops' and prop['iops'] != 3000) or
                           (k == 'Throughput' and prop['throughput_mibps'] != 125)}
            check(len(sent) == 1 and want_stated ==
                  {k for k in ('Iops', 'Throughput') if k in sent[0]},
                  f'{vid}: CreateVolume states only what is not a default', str(sent))
            orig = state['volumes'].get(vid, {})
            check(len(new) == 1 and
                  (new[0]['type'], new[0]['size'], new[0]['iops'], new[0]['throughput']) ==
                  (prop['type'], prop['size_gib'], prop['iops'], prop['throughput_mibps']) and
                  new[0]['encrypted'] == orig.get('encrypted') and
                  new[0]['kms_key_id'] == orig.get('kms_key_id'),
                  f'{vid}: the new volume is the proposal, encrypted like the original',
                  str(new))
        else:
            mods = [r['params'] for r in mine if r['action'] == 'ModifyVolume']
            want = expected_modify_params(cur, prop, vid)
            check(mods == [want], f'{vid}: ModifyVolume sent exactly {sorted(want)}',
                  f'sent {mods}')
            v = state['volumes'].get(vid, {})
            got = (v.get('type'), v.get('size'), v.get('iops'), v.get('throughput'))
            check(got == (prop['type'], prop['size_gib'], prop['iops'],
                          prop['throughput_mibps']),
                  f'{vid}: after the defaults AWS has {prop["type"]} {prop["size_gib"]} GiB '
                  f'{prop["iops"]} IOPS {prop["throughput_mibps"]} MiB/s', f'state {got}')
        if f['alarm']['command']:
            a = state['alarms'].get(f'ebsize-burstbalance-{vid}')
            check(a is not None and a['Namespace'] == 'AWS/EBS' and
                  a['MetricName'] == 'BurstBalance' and a['Dimensions'] == {'VolumeId': vid} and
                  a['Statistic'] == 'Minimum' and a['Period'] == '60' and
                  a['EvaluationPeriods'] == '1' and
                  float(a['Threshold']) == f['alarm']['threshold_pct'] and
                  a['ComparisonOperator'] == 'LessThanOrEqualToThreshold',
                  f'{vid}: BurstBalance alarm at {f["alarm"]["threshold_pct"]} %', str(a))
    print(f'# {n_ok} ok, {n_bad} not ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
