#!/bin/sh
# t3040-bench-import: the real fio samples (fio 3.1 to 3.34) import with
# their metadata, or fail cleanly (error 22) leaving nothing behind; a
# directory of ebsize's own phase outputs imports phase by phase.
. "$(dirname "$0")/../lib/test-lib.sh"

FIO="$FIXTURES/fio"

run --format json bench import "$FIO/fio-3.1-randread-libaio-qd1.json" \
	"$FIO/fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log" \
	--label hp-kingston --volume-type gp2 --size 8 --instance c5d.large --region us-east-1
expect_rc 0 "fio 3.1 JSON + iops log import"
expect_json run.id 8 "first imported run is run 8"
expect_json run.source imported "source imported"
expect_json run.label hp-kingston "label"
expect_json run.fio_version fio-3.1 "fio version from the JSON"
expect_json run.instance_type c5d.large "instance"
expect_json run.region us-east-1 "region"
expect_json phases.0.phase iotest "phase named after the fio job"
expect_json phases.0.iops 9105.612981 "IOPS as fio wrote it" 1e-9
# bw 36422 KiB/s in fio 3.1 (no bw_bytes): 36422 / 1024 MiB/s
expect_json phases.0.bw_mibps "$(/usr/bin/python3 -c 'print(36422/1024)')" "MiB/s from KiB/s (to a millionth)" 5e-7
expect_json phases.0.p50_ms 0.098816 "p50 from clat_ns" 1e-12
expect_json analysis.0.samples 299 "299 per-second samples"
expect_json analysis.0.first_sample_iops 6656 "first sample kept apart"
expect_json analysis.0.iops_min 6795 "min excludes the first sample"
expect_json analysis.0.model.cliff_t_s 1862 "gp2 8 GiB: model cliff 5,400,000 / 2,900 s" 0.1
expect_err "imported run 8 'hp-kingston': 1 phase" "import message"

run --format json bench import "$FIO/fio-3.28-randrw-gtod_reduce-global-options.json"
expect_rc 0 "fio 3.28 randrw import"
expect_json phases.0.rw randrw "rw from the job options"
expect_json phases.0.iodepth 64 "iodepth from the global options"
expect_json phases.0.iops 226915.38628 "read + write IOPS" 1e-6
expect_json phases.0.lat_mean_ms None "gtod_reduce: no latency measured (null, not 0)"

run --format json bench import "$FIO/fio-3.34-randread-sync-SIGINT-noise-prefix.json.txt"
expect_rc 0 "fio 3.34 output with a noisy prefix imports"
expect_json phases.0.iops 10102.601156 "IOPS after the noise" 1e-9
sqlite3 "$DB" "SELECT notes FROM bench_phases WHERE run_id = 10" | grep -q "terminating on signal" &&
	ok "the interruption is noted" || fail "the interruption is noted"

before=$(runs)
run bench import "$FIO/fio-3.33-write-error22-noise-prefix.json.txt"
expect_rc 1 "a failed fio job does not import"
expect_err "error: cannot import: '$FIO/fio-3.33-write-error22-noise-prefix.json.txt': fio job '1m' failed with error 22 (Invalid argument)" "error 22 message"
[ "$(runs)" = "$before" ] && ok "nothing stored for the failed import" || fail "nothing stored for the failed import"

# one good and one bad file: all or nothing
run bench import "$FIO/fio-3.1-randread-libaio-qd1.json" "$FIO/fio-3.33-write-error22-noise-prefix.json.txt"
expect_rc 1 "a set with one failed job does not import"
[ "$(runs)" = "$before" ] && ok "nothing stored from the set" || fail "nothing stored from the set"

printf 'not json\n' >"$T/bad.json"
run bench import "$T/bad.json"
expect_rc 1 "garbage does not import"
expect_err "error: cannot import: cannot parse '$T/bad.json': no fio JSON output (no line '{')" "garbage message"

run bench import "$T/nothing-here"
expect_rc 1 "a missing file"
expect_err "error: cannot open '$T/nothing-here': No such file or directory" "missing file message"

# a directory laid out as ebsize's runs and k8s Jobs leave it: NN-name.json
# and NN-name_iops.1.log (copies of the fio 3.1 sample, renamed)
mkdir "$T/dir"
cp "$FIO/fio-3.1-randread-libaio-qd1.json" "$T/dir/01-randread-qd32.json"
cp "$FIO/fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log" "$T/dir/01-randread-qd32_iops.1.log"
cp "$FIO/fio-3.34-randread-sync-SIGINT-noise-prefix.json.txt" "$T/dir/03-randread-qd1.json"
run --format json bench import "$T/dir" --label from-dir
expect_rc 0 "a directory imports"
expect_json phases.0.seq 1 "seq from the file name"
expect_json phases.1.seq 3 "seq from the file name (2)"
expect_json analysis.0.samples 299 "the log went with its JSON"
expect_json analysis.1.samples None "no log for the second JSON"

cp "$FIO/fio-3.1-randread-iodepth-1-numjobs-1_iops.1.log" "$T/dir/stray_iops.1.log"
run bench import "$T/dir"
expect_rc 1 "a log matching no JSON is refused"
expect_err "error: cannot import: cannot tell which fio output the log '$T/dir/stray_iops.1.log' belongs to (name it <json name>_iops.N.log)" "stray log message"
