#!/bin/sh
# Request-based dm-multipath: two paths to the same data. fio verify through
# the path selectors, with path failures and reinstatements during I/O, with
# and without queue_if_no_path, and with paths so short of tags that
# dm-mpath must requeue.
# Most cases use loop devices on one file as paths. The ublk_* cases use two
# ublk loop devices (kublk, the series' selftest server) on one file
# instead: ublk completes each request in the server's task context, so
# dm-rq completes the original request from task context too, where a
# BLOCK_SOFTIRQ raised for it used to wake ksoftirqd. Memory-backed null_blk
# cannot be a path: request-based dm issues clones from its non-blocking
# ->queue_rq, and such a null_blk has a blocking tag set
# (mpath_nowait_blocking_path makes one a path and sends it no I/O).
. ./lib.sh
# an I/O error or a timeout fails a case unless the case injects it
CHECK_STRANDED=1

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

# path_ios PATH: reads and writes PATH (loop0, ublkb1, ...) has completed.
path_ios() { awk '{print $1 + $5}' "/sys/block/$1/stat"; }

# mp_dev: mp's block device name (dm-N), for its sysfs files and its
# kernel messages.
mp_dev() { dmsetup info -c --noheadings -o blkdevname mp; }

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

# io_flows [N]: wait until N (200) more I/Os have completed on mp; the
# race is lost when the fio of fio_bg ($FIO_PID) ended before that.
io_flows() {
	local n
	n=$(($(ios_done) + ${1:-200}))
	wait_for "[ \$(ios_done) -ge $n ] || ! kill -0 ${FIO_PID:-$$} 2>/dev/null" 60
	[ "$(ios_done)" -ge "$n" ] || race_lost "fio ended before $n I/Os on mp"
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
# dm-mpath requeues the original request (BLK_STS_RESOURCE). The requeues
# are counted: multipath_clone_and_map() returning DM_MAPIO_REQUEUE (2) or
# DM_MAPIO_DELAY_REQUEUE (3).
case_mpath_requeue_verify() {
	local p n
	mpath
	for p in loop0 loop1; do
		echo 4 > "/sys/block/$p/queue/nr_requests" ||
			fail "cannot set nr_requests of $p"
	done
	probe_add requeue "r multipath_clone_and_map ret=\$retval:s32" "ret == 2 || ret == 3"
	fio_verify /dev/mapper/mp --rw=randrw --numjobs=2 --iodepth=32 \
		--size=16M --offset_increment=16M
	n=$(probe_hits requeue)
	log "$n requests requeued for want of a clone"
	[ "$n" -gt 0 ] || fail "no request was requeued: the paths never ran out of tags"
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

# only_on PATH OTHER: after the I/O in flight at a switch has completed
# (100 I/Os), at least the next 200 I/Os on mp all go to PATH, none to
# OTHER.
only_on() {
	local a b
	io_flows 100
	a=$(path_ios "$1") b=$(path_ios "$2")
	io_flows 200
	a=$(($(path_ios "$1") - a)) b=$(($(path_ios "$2") - b))
	log "$1: $a I/Os, $2: $b I/Os"
	[ "$a" -gt 0 ] && [ "$b" = 0 ] ||
		fail "I/O went to $2 ($b) and $1 ($a), expected $1 alone"
}

# switch_group N NEW OLD: the message, then only_on NEW OLD, then dmsetup
# status must name group N. An I/O that chose a group before the message
# must not make that group current after it (dm-mpath's choose_pgpath()
# reads m->current_pg without the lock; the stable fix "dm mpath: do not
# let an I/O undo a switch_group sent under it" in both series): if it
# does, every I/O stays on OLD and the case fails (CI on 2026-11-30, on
# 7.2's PREEMPT_RT kernel before the fix: all 795 I/Os on the old path).
switch_group() {
	run dmsetup message mp 0 switch_group "$1"
	only_on "$2" "$3"
	[ "$(current_group)" = "$1" ] ||
		fail "dmsetup status names group $(current_group) as current, not $1"
}

# current_group: the group dmsetup status names as mp's current one (after
# the feature and hardware handler arguments: the number of groups, then it)
current_group() {
	# shellcheck disable=SC2046
	set -- $(dmsetup status mp)
	shift 3
	shift $(($1 + 1))
	shift $(($1 + 1))
	echo "$2"
}

# Two priority groups of one path each: a failed path moves I/O to the
# other group, switch_group moves it back; after each step the I/O goes to
# the path of the group that should have it, and to that path only.
case_mpath_group_switch() {
	mpath_paths
	dm_create mp "0 $(sectors loop0) multipath 0 0 2 1 round-robin 0 1 1 /dev/loop0 1 round-robin 0 1 1 /dev/loop1 1"
	fio_bg --size="$(slower 32)M"
	only_on loop0 loop1
	run dmsetup message mp 0 fail_path /dev/loop0
	only_on loop1 loop0
	run dmsetup message mp 0 reinstate_path /dev/loop0
	switch_group 1 loop0 loop1
	switch_group 2 loop1 loop0
	wait "$FIO_PID" || fail "fio failed across group switches"
}

# queue_if_no_path: with every path failed I/O waits (fio runs on, and for
# 2 s neither mp nor a path completes any I/O; the waiting requests are not
# "in flight" for /sys/block/dm-N/inflight, dm-mpath requeues them); it
# resumes, verified, when a path comes back.
case_mpath_queue_if_no_path() {
	local rc=0 io0 p0 p1
	mpath "1 queue_if_no_path"
	fio_bg --size="$(slower 16)M"
	io_flows
	run dmsetup message mp 0 fail_path /dev/loop0
	run dmsetup message mp 0 fail_path /dev/loop1
	# the requests the paths had complete; what fio sends now waits
	sleep 1
	if ! kill -0 "$FIO_PID" 2>/dev/null; then
		wait "$FIO_PID" || rc=$?
		[ "$rc" = 0 ] || fail "fio failed when the paths failed"
		race_lost "fio ended before the paths failed"
	fi
	io0=$(ios_done) p0=$(path_ios loop0) p1=$(path_ios loop1)
	sleep 2
	[ "$(ios_done)" = "$io0" ] ||
		fail "$(($(ios_done) - io0)) I/Os completed on mp while it had no path"
	[ "$(path_ios loop0)" = "$p0" ] && [ "$(path_ios loop1)" = "$p1" ] ||
		fail "I/O reached a failed path"
	kill -0 "$FIO_PID" 2>/dev/null || fail "fio ended while I/O had no path"
	run dmsetup message mp 0 reinstate_path /dev/loop1
	wait "$FIO_PID" || fail "fio failed after a path came back"
	path_is loop0 F
}

# Without queue_if_no_path, I/O with no path fails at once, the I/O in
# flight included; once a path is back the device works again.
case_mpath_no_path_fails() {
	mpath
	allow_kernel "I/O error, dev $(mp_dev),"
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
# 7.2.8 refused with EOPNOTSUPP, so that io_uring handed every I/O to a
# worker thread). The series changes no scheduler policy: the dm queue gets
# the kernel's default for a single-queue device (mq-deadline), and a user
# who wants none selects it as for any disk (sysfs, a udev rule), which
# NOWAIT I/O then goes through too.
case_mpath_nowait() {
	local d
	mpath
	d=/sys/block/$(mp_dev)/queue/scheduler
	grep -qF '[mq-deadline]' "$d" ||
		fail "mp's scheduler is not the default mq-deadline: $(cat "$d")"
	run fio --name=nowait --filename=/dev/mapper/mp --direct=1 \
		--ioengine=io_uring --nowait=1 --rw=randread --bs=4k --size=8M \
		--allow_file_create=0 --output-format=terse >/tmp/fio.out
	echo none > "$d" || fail "cannot select none for mp"
	grep -qF '[none]' "$d" || fail "mp's scheduler is not none: $(cat "$d")"
	run fio --name=nowait --filename=/dev/mapper/mp --direct=1 \
		--ioengine=io_uring --nowait=1 --rw=randread --bs=4k --size=8M \
		--allow_file_create=0 --output-format=terse >/tmp/fio.out
}

# A path whose ->queue_rq may sleep (memory-backed null_blk: its tag set is
# BLK_MQ_F_BLOCKING) rules REQ_NOWAIT out. A table over a null_blk without
# memory takes RWF_NOWAIT reads; a reload that adds the blocking path (a
# flush reload: on 7.2 a noflush reload of multipath keeps the queue's
# limits) takes NOWAIT away, and an RWF_NOWAIT read then fails at once
# with EOPNOTSUPP: io_uring refuses it because the device was opened
# without FMODE_NOWAIT, before anything reaches dm or the blocking path
# (which no I/O may reach: see the top of this file). Reloading the first
# table gives NOWAIT back. 7.2 shows BLK_FEAT_NOWAIT nowhere in sysfs, so
# each fio run, which opens the device again, is the probe.
nowait_read() {
	fio --name=nowait --filename=/dev/mapper/mp --direct=1 \
		--ioengine=io_uring --nowait=1 --rw=randread --bs=4k --size=4M \
		--allow_file_create=0 >/tmp/fio.out 2>&1
}
case_mpath_nowait_blocking_path() {
	local s one two
	nullb nullb1 memory_backed=0
	nullb nullb2 memory_backed=1
	s=$(sectors nullb1)
	one="0 $s multipath 0 0 1 1 round-robin 0 1 1 /dev/nullb1 1"
	two="0 $s multipath 0 0 1 1 round-robin 0 2 1 /dev/nullb1 1 /dev/nullb2 1"
	dm_create mp "$one"
	nowait_read || fail "an RWF_NOWAIT read over a path without a blocking ->queue_rq failed: $(cat /tmp/fio.out)"
	run dmsetup load mp --table "$two"
	run dmsetup suspend mp
	run dmsetup resume mp
	! nowait_read || fail "an RWF_NOWAIT read succeeded with a blocking path in the table"
	grep -q "Operation not supported" /tmp/fio.out ||
		fail "an RWF_NOWAIT read failed, but not with EOPNOTSUPP: $(cat /tmp/fio.out)"
	run dmsetup load mp --table "$one"
	run dmsetup suspend mp
	run dmsetup resume mp
	nowait_read || fail "RWF_NOWAIT reads did not come back with the table without the blocking path: $(cat /tmp/fio.out)"
}

T=/sys/kernel/tracing

# block_softirqs_start / block_softirqs_stop IOS WHAT: between the two, IOS
# I/Os on WHAT completed through BLOCK_SOFTIRQ (at least one run per ten
# I/Os, tracepoint irq:softirq_entry) and ksoftirqd ran fewer than a tenth
# of those runs. Not on PREEMPT_RT, where blk-mq leaves a BLOCK_SOFTIRQ
# raised in task context to ksoftirqd as before (the data is still checked).
rt() { uname -v | grep -q PREEMPT_RT; }
block_softirqs_start() {
	rt && return
	[ -d "$T/events/irq" ] || mount -t tracefs nodev "$T" ||
		fail "no tracefs (CONFIG_EVENT_TRACING)"
	echo 0 > "$T/tracing_on"
	echo 4096 > "$T/buffer_size_kb"
	echo > "$T/trace"
	echo 'vec == 4' > "$T/events/irq/softirq_entry/filter" ||
		fail "cannot filter irq:softirq_entry"
	echo 1 > "$T/events/irq/softirq_entry/enable" ||
		fail "cannot enable irq:softirq_entry"
	echo 1 > "$T/tracing_on"
}
block_softirqs_stop() {
	local runs kthread
	if rt; then
		log "PREEMPT_RT: BLOCK_SOFTIRQ runs not checked"
		return
	fi
	echo 0 > "$T/events/irq/softirq_entry/enable"
	echo 0 > "$T/events/irq/softirq_entry/filter"
	! grep -q '^overrun: [1-9]' "$T"/per_cpu/cpu*/stats ||
		fail "the trace buffer overflowed"
	runs=$(grep -c 'softirq_entry: vec=4' "$T/trace") || true
	kthread=$(grep 'softirq_entry: vec=4' "$T/trace" | grep -c '^ *ksoftirqd/') || true
	log "$1 I/Os on $2: $runs BLOCK_SOFTIRQ runs, $kthread of them in ksoftirqd; by task: $(grep 'softirq_entry: vec=4' "$T/trace" |
		sed 's/^ *\(.*\)-[0-9]* .*/\1/; s/[0-9/:]*$//' | sort | uniq -c | sort -rn | head -n 4 | tr -s ' \n' ' ')"
	[ "$1" -ge 4096 ] || fail "only $1 I/Os on $2"
	[ $((runs * 10)) -ge "$1" ] ||
		fail "$runs BLOCK_SOFTIRQ runs for $1 I/Os on $2: not the path under test"
	[ $((kthread * 10)) -lt "$runs" ] ||
		fail "$kthread of $runs BLOCK_SOFTIRQ runs for $2 in ksoftirqd"
}

# A loop device completes each request from its worker, in task context;
# with rq_affinity 0 blk-mq completes it there too, in BLOCK_SOFTIRQ, which
# loop's single hardware queue always takes. Before "blk-mq: do not wake
# ksoftirqd to complete a request raised in task context" ksoftirqd ran
# that softirq for almost every I/O (8097 of 8192 on 7.2.8;
# block_softirqs_stop asserts it ran fewer than a tenth of the runs
# between a start and a stop mark).
case_loop_completion_in_task() {
	local io0 io1
	run truncate -s 64M /tmp/loop.img
	run losetup /dev/loop0 /tmp/loop.img
	echo 0 > /sys/block/loop0/queue/rq_affinity ||
		fail "cannot set loop0's rq_affinity"
	io0=$(awk '{ print $1 + $5 }' /sys/block/loop0/stat)
	block_softirqs_start
	fio_verify /dev/loop0 --size=16M --iodepth=1
	io1=$(awk '{ print $1 + $5 }' /sys/block/loop0/stat)
	block_softirqs_stop $((io1 - io0)) loop0
	echo 1 > /sys/block/loop0/queue/rq_affinity
}

# --- ublk paths: completion in task context

KUBLK=/blkfast/ublk/kublk

# ublk_paths: /dev/mapper/mp, round-robin over two ublk loop devices on one
# 256 MiB file, /dev/ublkb$UBLK_A and /dev/ublkb$UBLK_B. With UBLK_CPUS=CPUS
# the servers run under "taskset -c CPUS".
ublk_paths() {
	local a b
	[ -x "$KUBLK" ] || fail "no $KUBLK (tests/run builds it: scripts/build-kublk)"
	run truncate -s 256M /tmp/mpath.img
	a=$(kublk_add_loop /tmp/mpath.img) || fail "kublk add failed"
	b=$(kublk_add_loop /tmp/mpath.img) || fail "kublk add failed"
	UBLK_A=$a UBLK_B=$b
	wait_for "[ -b /dev/ublkb$a ] && [ -b /dev/ublkb$b ]"
	dm_create mp "0 $(sectors ublkb$a) multipath 0 0 1 1 round-robin 0 2 1 /dev/ublkb$a 1 /dev/ublkb$b 1"
}

# Two kublk servers exist: the series' own on 6.12
# (tools/testing/selftests/ublk_abi: "add -f FILE" prints the id, "list"
# prints "dev ID: ... pid PID ...") and mainline's on 7.x
# (tools/testing/selftests/ublk, with fault_inject.c among its sources: "add FILE"
# prints "dev id ID: ...", "list -n ID" prints "... daemon pid PID ...").
# kublk_add_loop FILE: a ublk loop device with 2 queues on FILE, its id.
kublk_add_loop() {
	local out
	if [ -f /blkfast/ublk/fault_inject.c ]; then
		out=$(${UBLK_CPUS:+taskset -c $UBLK_CPUS} "$KUBLK" add -t loop \
			-q 2 "$1") || return 1
		echo "$out" | sed -n 's/^dev id \([0-9]*\):.*/\1/p'
	else
		${UBLK_CPUS:+taskset -c $UBLK_CPUS} "$KUBLK" add -t loop \
			-f "$1" -q 2
	fi
}

# server_pid ID: the pid of the server of /dev/ublkbID.
server_pid() {
	if [ -f /blkfast/ublk/fault_inject.c ]; then
		"$KUBLK" list -n "$1" | sed -n 's/.* daemon pid \([0-9]*\) .*/\1/p'
	else
		"$KUBLK" list | sed -n "s/^dev $1: .* pid \([0-9]*\) .*/\1/p"
	fi
}

# The completion of a clone in task context: fio verify over two ublk
# paths, fio and both servers on CPU 1, so that each clone completes in
# the server's task context on the CPU that submitted the original request,
# where dm-rq completes the original request and blk-mq raises
# BLOCK_SOFTIRQ for it (dm's queue has one hardware queue). Asserts the
# data and that ksoftirqd ran fewer than a tenth of the BLOCK_SOFTIRQ runs
# (block_softirqs_stop; on 7.2.8 it ran 1584 of 5514, the others ran on an
# interrupt's exit that came first, and with the change none).
case_ublk_paths_verify() {
	local io0 io1
	UBLK_CPUS=1 ublk_paths
	io0=$(ios_done)
	block_softirqs_start
	fio_verify /dev/mapper/mp --size=8M --cpus_allowed=1
	fio_verify /dev/mapper/mp --rw=randrw --bs=16k --numjobs=2 \
		--size=8M --offset_increment=8M --iodepth=32 --cpus_allowed=1
	io1=$(ios_done)
	block_softirqs_stop $((io1 - io0)) mp
}

# A path whose server is killed under fio verify: its requests fail with
# I/O errors (the driver aborts them, then refuses new ones), dm-mpath fails
# the path and retries them on the other one; fio must verify its data, the
# path must be reported failed. Then the live path is failed and reinstated
# by message, as an administrator would.
case_ublk_path_killed() {
	local pid
	ublk_paths
	allow_kernel "I/O error, dev ublkb$UBLK_A,"
	fio_bg --size=32M --rw=randrw --iodepth=32
	io_flows 2000
	pid=$(server_pid "$UBLK_A")
	[ -n "$pid" ] || fail "no server pid for ublkb$UBLK_A"
	run kill -9 "$pid"
	io_flows 2000
	overlap "kill -0 $FIO_PID 2>/dev/null" "fio ended before the path failed"
	wait "$FIO_PID" || fail "fio failed across the loss of a path"
	dmsetup status mp | grep -q ' F ' ||
		fail "no path reported failed: $(dmsetup status mp)"
	fio_verify /dev/mapper/mp --size=8M
}

# Table reloads under fio verify, as multipathd does them: tables with
# queue_if_no_path, the path selector changing from round-robin to
# service-time and back, and the path order, four times, each with a
# suspend that waits for the I/O in flight (flush); then both paths fail
# and I/O queues, the device is suspended with --noflush (the queued I/O
# stays, requeued), the table reloaded and the device resumed: the I/O goes
# on. fio must verify its data and still run at the last reload.
case_ublk_reload_under_io() {
	local i a b t rr st
	ublk_paths
	a=/dev/ublkb$UBLK_A b=/dev/ublkb$UBLK_B
	rr="0 $(sectors ublkb$UBLK_A) multipath 1 queue_if_no_path 0 1 1 round-robin 0 2 1 $b 1 $a 1"
	st="0 $(sectors ublkb$UBLK_A) multipath 1 queue_if_no_path 0 1 1 service-time 0 2 2 $a 1 1 $b 1 1"
	# at most 1000 I/Os a second, so that fio outlasts the reloads on a
	# kernel without KASAN too
	fio_bg --size="$(slower 32)M" --rw=randrw --iodepth=32 --rate_iops=1000
	for i in 1 2 3 4; do
		io_flows
		if [ $((i % 2)) = 1 ]; then t=$st; else t=$rr; fi
		run dmsetup reload mp --table "$t"
		run dmsetup resume mp
	done
	io_flows
	run dmsetup message mp 0 fail_path "$a"
	run dmsetup message mp 0 fail_path "$b"
	sleep 1
	run dmsetup suspend --noflush mp
	run dmsetup reload mp --table "$rr"
	run dmsetup resume mp
	io_flows
	overlap "kill -0 $FIO_PID 2>/dev/null" "fio ended before the last reload"
	wait "$FIO_PID" || fail "fio failed across table reloads"
}

# Removal under I/O: "dmsetup remove --force --deferred" while fio writes
# replaces the table with one that fails all I/O and removes the device
# once fio closes it. fio must fail (not hang), the device must go.
case_ublk_remove_under_io() {
	ublk_paths
	allow_kernel "I/O error, dev $(mp_dev),"
	fio_bg --size="$(slower 32)M" --rw=randrw --iodepth=32
	io_flows
	run dmsetup remove --force --deferred mp
	overlap "kill -0 $FIO_PID 2>/dev/null" "fio ended before the removal"
	if wait "$FIO_PID"; then fail "fio succeeded on a removed device"; fi
	wait_for "! dmsetup info mp >/dev/null 2>&1" 30
}

run_cases mpath_verify mpath_service_time_verify mpath_requeue_verify \
	mpath_fail_reinstate mpath_group_switch mpath_queue_if_no_path \
	mpath_no_path_fails mpath_nowait mpath_nowait_blocking_path \
	loop_completion_in_task \
	ublk_paths_verify ublk_path_killed ublk_reload_under_io \
	ublk_remove_under_io
