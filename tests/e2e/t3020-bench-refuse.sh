#!/bin/sh
# t3020-bench-refuse: `bench run` refuses before anything runs: a block
# device, an existing file it did not create, a file system without
# O_DIRECT (ramfs), too little free space, fio missing.  No fio is ever
# aimed at a block device here: only the refusal is exercised.
. "$(dirname "$0")/../lib/test-lib.sh"
trap 'umount "$T/ramfs" 2>/dev/null; rm -rf "$T"' EXIT

run bench list            # create the database: 7 published runs
before=$(runs)

dev=""
for d in /dev/loop0 /dev/vda /dev/sda /dev/nvme0n1; do
	[ -b "$d" ] && { dev=$d; break; }
done
if [ -n "$dev" ]; then
	run bench run --target "$dev" --profile quick --results "$T/res"
	expect_rc 1 "a block device is refused"
	expect_err "error: refusing to run fio on '$dev': it is a block device, and the benchmark's writes would destroy its data
hint: fio writes over the whole device; pass --destructive only if nothing on it matters, or choose a new file with --target" "block device message"
	[ "$(runs)" = "$before" ] && [ ! -e "$T/res" ] && ok "nothing ran or was stored for the device" ||
		fail "nothing ran or was stored for the device"
else
	skip "a block device is refused" "no block device to refuse"
fi

printf 'precious data\n' >"$T/mine.dat"
cp "$T/mine.dat" "$T/mine.copy"
run bench run --target "$T/mine.dat" --profile quick --results "$T/res"
expect_rc 1 "an existing file ebsize did not create is refused"
expect_err "error: refusing to run fio on '$T/mine.dat': it is an existing file ebsize did not create, and the benchmark's writes would destroy its data
hint: fio writes over the whole file; pass --destructive only if nothing on it matters, or choose a new file with --target" "foreign file message"
cmp -s "$T/mine.dat" "$T/mine.copy" && [ "$(runs)" = "$before" ] && [ ! -e "$T/res" ] &&
	ok "the foreign file is untouched and nothing was stored" ||
	fail "the foreign file is untouched and nothing was stored"

mkdir "$T/ramfs"
if mount -t ramfs ebsize-test "$T/ramfs" 2>/dev/null; then
	run bench run --target "$T/ramfs/test.fio" --profile quick --results "$T/res"
	expect_rc 1 "a file system without O_DIRECT is refused"
	expect_err "error: the file system of '$T/ramfs/test.fio' (ramfs) does not support O_DIRECT, which fio needs for direct=1
hint: put --target on a disk-backed file system (ext4, xfs) on the volume to measure; through the page cache fio would measure memory, not the volume" "no O_DIRECT message"
	[ -z "$(ls -A "$T/ramfs")" ] && [ "$(runs)" = "$before" ] &&
		ok "the O_DIRECT probe left nothing behind" || fail "the O_DIRECT probe left nothing behind"
	umount "$T/ramfs"
else
	# tmpfs supports O_DIRECT since Linux 6.6, so ramfs (root only) is the
	# file system without it
	skip "O_DIRECT refusal on ramfs" "cannot mount ramfs (not root)"
fi

printf 'size 1000t\nphase a rw=read bs=4k runtime=1\n' >"$T/huge.profile"
run bench run --target "$T/new.fio" --profile "$T/huge.profile"
expect_rc 1 "too little free space is refused"
expect_err_has "error: not enough free space for the test file '$T/new.fio': it needs 1048576000.0 MiB more, '$T' has" "free space message"

PATH=/nonexistent "$EBSIZE" --db "$DB" bench run --target "$T/new.fio" --profile quick >"$T/out" 2>"$T/err"
rc=$?
expect_rc 1 "fio missing exits 1"
expect_err "error: fio is not installed (not found on PATH)
hint: install fio: 'apt-get install fio' (Debian, Ubuntu), 'dnf install fio' (Fedora, RHEL), 'apk add fio' (Alpine)" "fio missing message"
[ ! -e "$T/new.fio" ] && ok "no test file was created" || fail "no test file was created"
