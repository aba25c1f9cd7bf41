#!/bin/sh
# Not a test of the kernel: cases that misbehave on purpose, each in one way
# the runner must catch (scripts/check-test-runner runs them and compares
# tests/run's verdicts with tests/selftest/expected).
. ./lib.sh
CASE_TIMEOUT=8

case_passes() { nullb nullb1; fio_verify /dev/nullb1 --size=1M; }
case_skips_with_reason() { skip "nothing to do here"; }
case_exit4_without_skip() { exit 4; }

# the case hangs, and a process it started keeps its output open: the
# watchdog kills the whole group, and the next case still runs
case_hangs_with_orphan() { sleep 1000 & sleep 1000; }

# a process outside the case's group holds md0 open for 2 s and writes a
# warning to the kernel log before it lets go: the warning lands during the
# teardown, which waits for md0
case_warns_during_teardown() {
	md_create 1 2 --assume-clean
	setsid sh -c 'exec 3</dev/md0; sleep 2; echo "WARNING: injected during teardown" > /dev/kmsg' &
	sleep 0.5
}

# the race the case needs is lost on the first try only: it passes slower
case_race_lost_once() {
	[ "${BLKFAST_SLOWER:-0}" -gt 0 ] || race_lost "too fast the first time"
}
case_race_lost_always() { race_lost "never overlaps"; }
case_fails() { fail "as it should"; }

# a kselftest script that dies after the first of its three results, and
# one that skips as a whole (tests/ublk.sh runs the series' ublk scripts so)
case_script_dies_midway() {
	ktap_script dies.sh sh -c 'echo "KTAP version 1"; echo "1..3"; echo "ok 1 a"'
}
case_script_skips_all() {
	ktap_script skips.sh sh -c 'echo "KTAP version 1"; echo "1..0 # SKIP no server"'
}

# last: a holder that never lets go, so the teardown cannot remove md0
case_device_held() {
	md_create 1 2 --assume-clean
	setsid sh -c 'exec 3</dev/md0; sleep 100000' &
	sleep 0.5
}

run_cases passes skips_with_reason exit4_without_skip hangs_with_orphan \
	warns_during_teardown race_lost_once race_lost_always fails \
	script_dies_midway script_skips_all device_held
