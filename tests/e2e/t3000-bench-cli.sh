#!/bin/sh
# t3000-bench-cli: `ebsize bench` help, usage errors, list/show/compare of
# the published runs seeded in every database (sql/seed/40_published_runs.sql).
. "$(dirname "$0")/../lib/test-lib.sh"

run bench -h
expect_rc 0 "bench -h exits 0"
expect_out_has "usage: ebsize bench run --target PATH" "bench -h prints the usage"
run_raw help bench
expect_out_has "ebsize bench resume RUN" "help bench prints the usage"
[ ! -e "$DB" ] && ok "bench -h creates no database" || fail "bench -h creates no database"
run bench run -h
expect_rc 0 "bench run -h exits 0"

usage_error "no subcommand" "missing subcommand (run, resume, import, list, show, compare or k8s)" bench
usage_error "unknown subcommand" "unknown subcommand 'frob' (use run, resume, import, list, show, compare or k8s)" bench frob
usage_error "run without --target" "missing --target PATH (the test file fio writes)" bench run
usage_error "unknown profile" "unknown profile 'fast' (use article, quick or a profile file)" bench run --target "$T/f" --profile fast
usage_error "type without size" "--volume-type and --size go together" bench run --target "$T/f" --volume-type gp2
usage_error "unknown type" "unknown volume type 'gp9' (use gp2, gp3, io1, io2, st1, sc1 or standard)" bench run --target "$T/f" --volume-type gp9 --size 1
usage_error "bad size" "--size must be a number from 1 to 65536 GiB (such as 500, 500GiB or 1TiB), not '0'" bench run --target "$T/f" --volume-type gp2 --size 0
usage_error "unknown option" "unknown option '--frob'" bench run --frob
usage_error "show without RUN" "missing RUN (a run id or label)" bench show
usage_error "compare with one RUN" "missing RUN RUN (two run ids or labels)" bench compare 1
usage_error "list with an argument" "unexpected argument 'x'" bench list x
usage_error "import without files" "missing DIR or FILE to import" bench import
usage_error "k8s without types" "missing --types (for example gp2,gp3)" bench k8s --size 100Gi
usage_error "k8s bad size" "--size must be a quantity in Gi or Ti such as 100Gi, not '100GB'" bench k8s --types gp2 --size 100GB
usage_error "k8s bad type" "unknown volume type 'gp9' in --types (use gp2, gp3, io1, io2, st1 or sc1)" bench k8s --types gp2,gp9 --size 1Gi
usage_error "k8s image with a quote" "--image must be an image reference (letters, digits, '._:/@-'), not 'a\"b'" bench k8s --types gp2 --size 1Gi --image 'a"b'
usage_error "k8s bad namespace" "--namespace must be a DNS label (a-z, 0-9, '-'), not 'Bench'" bench k8s --types gp2 --size 1Gi --namespace Bench
usage_error "k8s io2 without iops" "--iops is required for io2 volumes" bench k8s --types io2 --size 100Gi

printf 'size 64m\nphase a rw=read\n' >"$T/bad.profile"
usage_error "bad profile file" "profile '$T/bad.profile': line 2: phase 'a' needs rw= and bs=" bench run --target "$T/f" --profile "$T/bad.profile"

# the published runs are there from the first use
run --format json bench list
expect_rc 0 "bench list exits 0"
expect_json runs.0.id 7 "newest run first"
expect_json runs.6.label published-A-gp3-100 "run 1 is article A gp3"
expect_json runs.5.phases 5 "article A gp2 has 5 phases"

run --format json bench show published-A-gp2-100
expect_rc 0 "show by label"
expect_json run.id 2 "label resolves to run 2"
expect_json run.source published "published source"
expect_json phases.0.phase randread-qd32 "first phase"
expect_json phases.0.p99_ms 109.6 "published p99"
expect_json analysis.0.cliff.t_s 1999 "published cliff time"
expect_json analysis.0.cliff.iops_after 300 "published IOPS after the cliff"

run bench show 99
expect_rc 1 "unknown run exits 1"
expect_err "error: no benchmark run '99'
hint: see 'ebsize bench list'" "unknown run message"

run --format json bench compare 1 2
expect_rc 0 "compare exits 0"
expect_json phases.1.phase randwrite-qd32 "compare matches phases by name"
expect_json phases.1.iops.a 3025 "gp3 randwrite IOPS"
expect_json phases.1.iops.b 601 "gp2 randwrite IOPS"
expect_json phases.1.iops.b_over_a "$(/usr/bin/python3 -c 'print(601/3025)')" "B/A ratio (to a millionth)" 5e-7

run bench resume 1
expect_rc 1 "a published run cannot be resumed"
expect_err "error: run 1 was not measured by 'ebsize bench run'; only those can be resumed" "resume published message"

# a target whose absolute path does not fit what a run stores (4,095
# bytes) is refused, never cut short: 19 directories of 200 bytes and a
# 255-byte name are 4,075 bytes below $T; the message keeps its reason
long="$T/$(/usr/bin/python3 -c "print('/'.join(['d' * 200] * 19))")"
mkdir -p "$long"
name=$(/usr/bin/python3 -c "print('t' * 255)")
run bench run --target "$long/$name" --profile quick
expect_rc 1 "a target path over 4,095 bytes exits 1"
expect_err_has "its absolute path is longer than 4095 bytes" "... and says so, with the limit"
[ -z "$(ls -A "$long")" ] && ok "... and creates nothing" || fail "... and creates nothing"
run --format json bench import --label "$(/usr/bin/python3 -c "print('x' * 121)")" "$FIXTURES/fio"
expect_rc 2 "a label over 120 characters is a usage error"
