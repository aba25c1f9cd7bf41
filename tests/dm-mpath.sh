#!/bin/sh
# Request-based dm-multipath: two paths (two loop devices on one file) to the
# same data. fio verify through the path selectors, with path failures and
# reinstatements during I/O, with and without queue_if_no_path, and with
# paths so short of tags that dm-mpath must requeue.
# The paths are loop devices, not memory-backed null_blk: request-based dm
# issues clones from its non-blocking ->queue_rq, and a memory-backed
# null_blk has a blocking tag set it cannot be stacked on.
. ./lib.sh

# mpath_paths: /dev/loop0 and /dev/loop1 on one 256 MiB file in tmpfs.
mpath_paths() {
	run truncate -s 256M /tmp/mpath.img
	run losetup /dev/loop0 /tmp/mpath.img
	run losetup /dev/loop1 /tmp/mpath.img
}

# mpath [FEATURES]: /dev/mapper/mp, one round-robin group over both paths.
mpath() {
	mpath_paths
	dm_create mp "0 $(sectors loop0) multipath ${1:-0} 0 1 1 round-robin 0 2 1 /dev/loop0 1 /dev/loop1 1"
}

# ios_done: reads and writes the dm device has completed.
ios_done() {
	local d
	for d in /sys/block/dm-*; do
		[ "$(cat "$d/dm/name")" = mp ] || continue
		awk '{print $1 + $5}' "$d/stat"
		return
	done
	echo 0
}

# io_flows [N]: wait until N (200) more I/Os have completed on mp.
io_flows() {
	local n
	n=$(($(ios_done) + ${1:-200}))
	wait_for "[ \$(ios_done) -ge $n ]" 60
}

# path_is PATH A|F: dm-mpath reports the path active (A) or failed (F).
path_is() {
	local dev
	dev=$(cat "/sys/block/$1/dev")
	dmsetup status mp | grep -q " $dev $2 " ||
		fail "path $1 ($dev) is not in state $2: $(dmsetup status mp)"
}

# fio_bg [fio options]: fio verify on mp in the background; $FIO_PID.
fio_bg() {
	fio_verify /dev/mapper/mp --size=16M "$@" &
	FIO_PID=$!
}

case_mpath_verify() {
	mpath
	fio_verify /dev/mapper/mp --size=16M
	fio_verify /dev/mapper/mp --rw=randrw --bs=16k --numjobs=2 \
		--size=16M --offset_increment=16M --iodepth=32
}

case_mpath_service_time_verify() {
	mpath_paths
	dm_create mp "0 $(sectors loop0) multipath 0 0 1 1 service-time 0 2 2 /dev/loop0 1 1 /dev/loop1 1 1"
	fio_verify /dev/mapper/mp --rw=randrw --bs=8k
}

# Paths of 4 tags under 64 I/Os in flight: clones often find no tag, and
# dm-mpath requeues the original request (BLK_STS_RESOURCE).
case_mpath_requeue_verify() {
	local p
	mpath
	for p in loop0 loop1; do
		echo 4 > "/sys/block/$p/queue/nr_requests" ||
			fail "cannot set nr_requests of $p"
	done
	fio_verify /dev/mapper/mp --rw=randrw --numjobs=2 --iodepth=32 \
		--size=16M --offset_increment=16M
}

# Each path fails and comes back while fio writes and verifies.
case_mpath_fail_reinstate() {
	local p
	mpath
	fio_bg
	for p in loop0 loop1; do
		io_flows
		run dmsetup message mp 0 fail_path "/dev/$p"
		path_is "$p" F
		io_flows
		run dmsetup message mp 0 reinstate_path "/dev/$p"
		path_is "$p" A
	done
	wait "$FIO_PID" || fail "fio failed across path failures"
}

# Two priority groups of one path each: a failed path moves I/O to the
# other group, switch_group moves it back.
case_mpath_group_switch() {
	mpath_paths
	dm_create mp "0 $(sectors loop0) multipath 0 0 2 1 round-robin 0 1 1 /dev/loop0 1 round-robin 0 1 1 /dev/loop1 1"
	fio_bg
	io_flows
	run dmsetup message mp 0 fail_path /dev/loop0
	io_flows
	run dmsetup message mp 0 reinstate_path /dev/loop0
	run dmsetup message mp 0 switch_group 1
	io_flows
	run dmsetup message mp 0 switch_group 2
	io_flows
	wait "$FIO_PID" || fail "fio failed across group switches"
}

# queue_if_no_path: with every path failed I/O waits; it resumes, verified,
# when a path comes back.
case_mpath_queue_if_no_path() {
	mpath "1 queue_if_no_path"
	fio_bg
	io_flows
	run dmsetup message mp 0 fail_path /dev/loop0
	run dmsetup message mp 0 fail_path /dev/loop1
	sleep 2
	kill -0 "$FIO_PID" 2>/dev/null || fail "fio ended while I/O had no path"
	run dmsetup message mp 0 reinstate_path /dev/loop1
	wait "$FIO_PID" || fail "fio failed after a path came back"
	path_is loop0 F
}

# Without queue_if_no_path, I/O with no path fails at once, the I/O in
# flight included; once a path is back the device works again.
case_mpath_no_path_fails() {
	mpath
	fio_bg
	io_flows
	run dmsetup message mp 0 fail_path /dev/loop0
	run dmsetup message mp 0 fail_path /dev/loop1
	if wait "$FIO_PID"; then fail "fio succeeded with no path"; fi
	expect_fail fio --name=nopath --filename=/dev/mapper/mp --direct=1 \
		--ioengine=io_uring --rw=read --bs=4k --size=1M \
		--allow_file_create=0 --output-format=terse
	run dmsetup message mp 0 reinstate_path /dev/loop0
	fio_verify /dev/mapper/mp --size=8M
}

# Request-based dm submits without sleeping: it takes RWF_NOWAIT I/O (which
# 6.12 refused with EOPNOTSUPP, so that io_uring handed every I/O to a
# worker thread) and attaches no I/O scheduler of its own.
case_mpath_nowait() {
	local d
	mpath
	run fio --name=nowait --filename=/dev/mapper/mp --direct=1 \
		--ioengine=io_uring --nowait=1 --rw=randread --bs=4k --size=8M \
		--allow_file_create=0 --output-format=terse >/tmp/fio.out
	for d in /sys/block/dm-*; do
		grep -q '\[none\]' "$d/queue/scheduler" ||
			fail "$d has an I/O scheduler: $(cat "$d/queue/scheduler")"
	done
}

run_cases mpath_verify mpath_service_time_verify mpath_requeue_verify \
	mpath_fail_reinstate mpath_group_switch mpath_queue_if_no_path \
	mpath_no_path_fails mpath_nowait
