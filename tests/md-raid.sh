#!/bin/sh
# md raid1 and raid10 over memory-backed null_blk: data survives a resync and
# a member that fails, is removed and is added back; recovery completes and a
# check finds no mismatch.
. ./lib.sh

sync_running() {
	case $(cat /sys/block/md0/md/sync_action) in
	resync|recover) return 0 ;;
	esac
	return 1
}

verify_during_resync() {
	resync_speed slow
	md_create "$@"
	sync_running || fail "no resync running after create"
	fio_verify /dev/md0
	fio_verify /dev/md0 --rw=randrw --bs=64k --size=24M
	sync_running || log "resync finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	md_check_clean /dev/md0
}

# Region A is written while the array is whole, region B while it is
# degraded, region C while it recovers. Once it has recovered, the member
# that never failed is failed in turn, so A and B must read back from the
# recovered member alone.
fail_remove_add() {
	resync_speed fast
	md_create "$@" --assume-clean
	fio_verify /dev/md0 --size=48M
	run mdadm /dev/md0 --fail /dev/nullb2
	grep -q '_' /proc/mdstat || fail "array not degraded after --fail"
	fio_verify /dev/md0 --offset=64M --size=16M
	run mdadm /dev/md0 --remove /dev/nullb2
	resync_speed slow
	run mdadm /dev/md0 --add /dev/nullb2
	wait_for sync_running
	fio_verify /dev/md0 --offset=96M --size=16M --rw=randrw --bs=16k
	resync_speed fast
	md_wait /dev/md0
	grep -q '_' /proc/mdstat && fail "array still degraded after recovery: $(cat /proc/mdstat)"
	md_check_clean /dev/md0
	run mdadm /dev/md0 --fail /dev/nullb1
	fio_verify /dev/md0 --size=48M --verify_only
	fio_verify /dev/md0 --offset=64M --size=16M --verify_only
}

case_raid1_resync()       { verify_during_resync 1 2; }
case_raid10_resync()      { verify_during_resync 10 4; }
case_raid1_fail_re_add()  { fail_remove_add 1 2; }
case_raid10_fail_re_add() { fail_remove_add 10 4; }

run_cases raid1_resync raid10_resync raid1_fail_re_add raid10_fail_re_add
