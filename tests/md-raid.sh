#!/bin/sh
# md raid1 and raid10 over memory-backed null_blk: data survives a resync, a
# check and a repair, a member that fails, is removed and is added back, a
# member whose device really fails mid-I/O, and a reshape that adds a device;
# every resync, recovery and reshape completes and a check finds no mismatch.
# raid10 runs in its near2, far2 and offset2 layouts over 4 devices. Where a
# case tests I/O during a resync, a recovery, a reshape or a member failure,
# it checks that the two really overlapped, and runs again slower when they
# did not (race_lost in lib.sh).
. ./lib.sh

# sync_is ACTION...: md0's sync_action is one of these.
sync_is() {
	local a x
	a=$(cat /sys/block/md0/md/sync_action)
	for x; do [ "$a" = "$x" ] && return 0; done
	return 1
}
sync_running() { sync_is resync recover; }

# mismatch_none: the last check or repair of md0 found no mismatch.
mismatch_none() {
	local cnt
	cnt=$(cat /sys/block/md0/md/mismatch_cnt)
	[ "$cnt" = 0 ] || fail "md0: mismatch_cnt is $cnt after $1"
}

# degraded: a '_' in md0's [UU_U] in /proc/mdstat.
degraded() { grep -A 1 '^md0 ' /proc/mdstat | grep -q '_'; }

# fio_both: fio verify of 4k random writes, then of 1M random reads and
# writes across the first 64 MiB barrier unit's end, while whatever md0 is
# doing goes on.
fio_both() {
	fio_verify /dev/md0 --size=2M
	fio_verify /dev/md0 --offset=56M --size=16M --rw=randrw --bs=1M
}

verify_during_resync() {
	resync_speed slow
	md_create "$@"
	sync_running || fail "no resync running after create"
	fio_verify /dev/md0
	fio_verify /dev/md0 --rw=randrw --bs=64k --size=24M
	overlap sync_running "the resync finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	md_check_clean /dev/md0
}

# raid10 LAYOUT: fio during the initial resync, then during a check, then
# during a repair, each slowed down so that it outlasts fio.
resync_check_repair() {
	local action
	resync_speed slow 2000
	md_create 10 4 --layout="$1"
	sync_is resync || fail "no resync running after create"
	fio_both
	overlap "sync_is resync" "the resync finished before fio did"
	for action in check repair; do
		resync_speed fast
		md_wait /dev/md0
		resync_speed slow 2000
		echo "$action" > /sys/block/md0/md/sync_action
		wait_for "sync_is $action"
		fio_both
		overlap "sync_is $action" "the $action finished before fio did"
		resync_speed fast
		md_wait /dev/md0
		mismatch_none "$action"
	done
	md_check_clean /dev/md0
}

# Region A is written while the array is whole, region B while it is
# degraded, region C while it recovers. Once it has recovered, the member
# that never failed is failed in turn, so A and B must read back from the
# recovered member alone (nullb1 and nullb2 hold each other's copies in the
# near2, far2 and offset2 layouts over 4 devices alike).
fail_remove_add() {
	resync_speed fast
	md_create "$@" --assume-clean
	fio_verify /dev/md0 --size=4M
	run mdadm /dev/md0 --fail /dev/nullb2
	degraded || fail "array not degraded after --fail"
	fio_verify /dev/md0 --offset=64M --size=2M
	run mdadm /dev/md0 --remove /dev/nullb2
	resync_speed slow 2000
	run mdadm /dev/md0 --add /dev/nullb2
	wait_for sync_running
	fio_verify /dev/md0 --offset=96M --size=8M --rw=randrw --bs=64k
	overlap sync_running "the recovery finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	degraded && fail "array still degraded after recovery: $(cat /proc/mdstat)"
	md_check_clean /dev/md0
	run mdadm /dev/md0 --fail /dev/nullb1
	fio_verify /dev/md0 --size=4M --verify_only
	fio_verify /dev/md0 --offset=64M --size=2M --verify_only
}

# raid10 LAYOUT whose 4th member, a dm-linear over nullb4, starts failing
# every I/O (dm table "error") while fio writes and reads: md fails that
# member, the array goes on degraded and every block reads back.
member_fails() {
	local i pid writes
	resync_speed fast
	for i in 1 2 3 4; do nullb "nullb$i" size=128; done
	dm_create m4 "0 $(sectors /dev/nullb4) linear /dev/nullb4 0"
	run mdadm --create /dev/md0 --run --metadata=1.2 --level=10 --raid-devices=4 \
		--layout="$1" --assume-clean /dev/nullb1 /dev/nullb2 /dev/nullb3 /dev/mapper/m4
	fio_verify /dev/md0 --size=4M
	writes=$(awk '{print $5}' /sys/block/md0/stat)
	fio_verify /dev/md0 --offset=32M --size="$(slower 4)M" --rw=randrw &
	pid=$!
	wait_for "[ \$(awk '{print \$5}' /sys/block/md0/stat) -gt $((writes + 50)) ]" 60
	run dmsetup suspend --noflush m4
	run dmsetup load m4 --table "0 $(sectors /dev/nullb4) error"
	run dmsetup resume m4
	overlap "kill -0 $pid 2>/dev/null" "fio finished before the member failed"
	wait "$pid" || fail "fio failed while the member failed"
	wait_for "mdadm --detail /dev/md0 | grep -q faulty" 30
	degraded || fail "array not degraded after its member failed: $(cat /proc/mdstat)"
	fio_verify /dev/md0 --size=4M --verify_only
	fio_verify /dev/md0 --offset=64M --size=16M --rw=randrw --bs=1M
	run mdadm --stop /dev/md0
	run dmsetup remove m4
}

# regular_read_error_during_check: in this case's kernel log, raid10d
# rescheduled a regular read of nullb1 (a check's reads are not rescheduled)
# before the check ended (it ends early, "interrupted", once md fails nullb1).
regular_read_error_during_check() {
	case_kernel_log | awk '
		/md\/raid10:md0: nullb1: rescheduling sector/ { r = 1 }
		/md: md0: data-check (done|interrupted)/ { exit }
		END { exit !r }'
}

# raid10 LAYOUT with a member that fails reads and writes in most of the
# written region while a check runs: raid10d freezes the array for each
# read error to rewrite the sectors from the other copy, while the check's
# own requests complete and queue for raid10d too; the rewrite fails, so md
# fails the member and the array goes on degraded.
read_errors_during_check() {
	resync_speed fast
	md_create 10 4 --layout="$1" --assume-clean
	fio_verify /dev/md0 --size=48M --bs=64k --rw=write
	resync_speed slow 2000
	echo check > /sys/block/md0/md/sync_action
	wait_for "sync_is check"
	echo "+4096-50000" > "$NULLB_CFS/nullb1/badblocks" ||
		fail "cannot set bad blocks on nullb1"
	fio_verify /dev/md0 --size=48M --bs=64k --rw=write --verify_only
	fio_verify /dev/md0 --offset=48M --size=4M --rw=randrw
	overlap regular_read_error_during_check \
		"no regular read of nullb1 failed before the check was over"
	resync_speed fast
	md_wait /dev/md0
	degraded || fail "nullb1 not failed: $(cat /proc/mdstat)"
	fio_verify /dev/md0 --size=48M --bs=64k --rw=write --verify_only
}

# raid10 LAYOUT grows from 4 to 5 devices while fio runs. mdadm does a
# raid10 reshape without a backup file by moving every member's data offset:
# down by at least a chunk when devices are added (mdadm 4.2, Grow.c
# raid10_reshape()). Its default data offset on these 128 MiB members,
# 2 MiB with the 512K chunk, leaves that room (members with less need a
# larger --data-offset at create). far2 cannot be reshaped: mdadm says
# "Cannot reshape RAID10 in far-mode" (the kernel's raid10_check_reshape()
# refuses it too). MDADM_NO_SYSTEMCTL: the guest has no systemd to continue
# the reshape, mdadm forks itself.
reshape() {
	resync_speed fast
	md_create 10 4 --layout="$1" --assume-clean
	nullb nullb5 size=128
	fio_verify /dev/md0 --size=4M
	run mdadm /dev/md0 --add /dev/nullb5
	resync_speed slow 2000
	MDADM_NO_SYSTEMCTL=1 mdadm --grow /dev/md0 --raid-devices=5 > /tmp/grow.out 2>&1 ||
		fail "mdadm --grow: $(cat /tmp/grow.out)"
	cat /tmp/grow.out
	wait_for "sync_is reshape"
	fio_verify /dev/md0 --offset=64M --size=2M
	fio_verify /dev/md0 --offset=96M --size=16M --rw=randrw --bs=1M
	fio_verify /dev/md0 --size=4M --verify_only
	overlap "sync_is reshape" "the reshape finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	[ "$(cat /sys/block/md0/md/raid_disks)" = 5 ] || fail "raid_disks is not 5 after the reshape"
	fio_verify /dev/md0 --size=4M --verify_only
	fio_verify /dev/md0 --offset=64M --size=2M --verify_only
	md_check_clean /dev/md0
}

case_raid1_resync()      { verify_during_resync 1 2; }
case_raid1_fail_re_add() { fail_remove_add 1 2; }
case_raid10_near2_resync_check_repair()   { resync_check_repair n2; }
case_raid10_far2_resync_check_repair()    { resync_check_repair f2; }
case_raid10_offset2_resync_check_repair() { resync_check_repair o2; }
case_raid10_near2_recovery()   { fail_remove_add 10 4 --layout=n2; }
case_raid10_far2_recovery()    { fail_remove_add 10 4 --layout=f2; }
case_raid10_offset2_recovery() { fail_remove_add 10 4 --layout=o2; }
case_raid10_near2_member_fails()   { member_fails n2; }
case_raid10_far2_member_fails()    { member_fails f2; }
case_raid10_offset2_member_fails() { member_fails o2; }
case_raid10_near2_read_errors_during_check() { read_errors_during_check n2; }
case_raid10_near2_reshape()   { reshape n2; }
case_raid10_offset2_reshape() { reshape o2; }

run_cases raid1_resync raid1_fail_re_add \
	raid10_near2_resync_check_repair raid10_far2_resync_check_repair \
	raid10_offset2_resync_check_repair \
	raid10_near2_recovery raid10_far2_recovery raid10_offset2_recovery \
	raid10_near2_member_fails raid10_far2_member_fails raid10_offset2_member_fails \
	raid10_near2_read_errors_during_check \
	raid10_near2_reshape raid10_offset2_reshape
