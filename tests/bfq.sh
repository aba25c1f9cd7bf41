#!/bin/sh
# I/O schedulers: switching schedulers under load loses no data; a request
# a scheduler holds is dispatched by its submitter; bfq keeps its data, its
# cgroup weights and its cgroup statistics.
. ./lib.sh

# The scheduler is switched 12 times (bfq, mq-deadline, none, four times
# over) while fio writes and verifies; each switch counts only if fio still
# runs once it is done (a switch freezes the queue: the I/O in flight
# completes under the old scheduler, the next under the new one). fio ends
# before the twelfth: the race is lost, and fio runs longer the next time.
case_switch_under_load() {
	local s i=0 pid
	nullb nullb1
	fio_verify /dev/nullb1 --rw=randrw --size=64M --numjobs=2 \
		--offset_increment=64M --time_based=0 --loops="$(slower 1)" &
	pid=$!
	while [ "$i" -lt 12 ]; do
		for s in bfq mq-deadline none; do
			echo "$s" > /sys/block/nullb1/queue/scheduler ||
				fail "cannot switch to $s"
			grep -q "\[$s\]" /sys/block/nullb1/queue/scheduler ||
				fail "the scheduler is not $s: $(cat /sys/block/nullb1/queue/scheduler)"
			if ! kill -0 "$pid" 2>/dev/null; then
				wait "$pid" || fail "fio failed while the scheduler was switched"
				race_lost "fio ended after $i switches, before the twelfth"
			fi
			i=$((i + 1))
			sleep 0.3
		done
	done
	wait "$pid" || fail "fio failed while the scheduler was switched"
	log "switched the scheduler $i times under fio"
}

case_bfq_verify() {
	nullb nullb1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	fio_verify /dev/nullb1 --rw=randrw --bs=8k --numjobs=2 \
		--size=16M --offset_increment=16M
}

# An unplugged request that goes to a scheduler is dispatched by the task
# that submitted it, not by a kblockd worker per request ("blk-mq: dispatch
# an unplugged scheduler request from the submitting task"). io_uring reads
# at iodepth 1 go one SQE per submission, without a plug, with REQ_NOWAIT,
# on a null_blk whose tag set does not block (no memory), under bfq and
# mq-deadline. Each phase counts, against its I/Os, the scheduler
# dispatches fio's own task made (blk_mq_sched_dispatch_requests() with
# comm fio: the path the fix takes) and the queue runs kblockd made
# (blk_mq_run_work_fn(), any device: only more runs than this case's can
# show): before the fix fio made none and kblockd one per I/O.
case_sched_dispatch_in_submitter() {
	local s ios runs inline io0 r0 d0
	nullb nullb1 memory_backed=0
	probe_add kblockd_run blk_mq_run_work_fn
	probe_add fio_dispatch blk_mq_sched_dispatch_requests 'comm == "fio"'
	for s in bfq mq-deadline; do
		echo "$s" > /sys/block/nullb1/queue/scheduler ||
			fail "cannot select $s"
		io0=$(awk '{ print $1 }' /sys/block/nullb1/stat)
		r0=$(probe_hits kblockd_run) d0=$(probe_hits fio_dispatch)
		fio --name=inline --filename=/dev/nullb1 --ioengine=io_uring \
			--direct=1 --rw=randread --bs=4k --iodepth=1 --size=8M \
			--output=/dev/null || fail "fio failed under $s"
		ios=$(($(awk '{ print $1 }' /sys/block/nullb1/stat) - io0))
		runs=$(($(probe_hits kblockd_run) - r0))
		inline=$(($(probe_hits fio_dispatch) - d0))
		log "$s: $ios reads, $inline dispatches by fio, $runs queue runs by kblockd"
		[ "$ios" -ge 2048 ] || fail "$s: only $ios of 2048 reads reached nullb1"
		[ $((inline * 2)) -ge "$ios" ] ||
			fail "$s: fio dispatched $inline times for $ios reads"
		[ $((runs * 10)) -lt "$ios" ] ||
			fail "$s: kblockd ran the queue $runs times for $ios reads"
	done
}

# fio_kib FILE: the KiB read, from fio's terse (version 3) output.
fio_kib() { awk -F';' '{print $6}' "$1"; }

# weight_run N: one run of two cgroup v2 groups with io.bfq.weight 100 and
# 500 reading from /dev/nullb1 (set up by case_cgroup_weights); prints the
# heavier group's service over the lighter one's, times 100.
weight_run() {
	local cg=/sys/fs/cgroup w kib100 kib500
	for w in 100 500; do
		mkdir "$cg/w$w" || fail "cannot create cgroup w$w"
		echo "$w" > "$cg/w$w/io.bfq.weight" || fail "cannot set io.bfq.weight $w"
		grep -qx "default $w" "$cg/w$w/io.bfq.weight" ||
			fail "io.bfq.weight reads $(cat "$cg/w$w/io.bfq.weight"), not $w"
	done
	for w in 100 500; do
		sh -c "echo \$\$ > $cg/w$w/cgroup.procs && exec fio --name=w$w \
			--filename=/dev/nullb1 --ioengine=io_uring --direct=1 \
			--rw=randread --bs=64k --iodepth=8 --time_based \
			--ramp_time=2 --runtime=8 \
			--allow_file_create=0 --output-format=terse \
			--terse-version=3" > "/tmp/w$w.out" 2>&1 &
	done
	wait
	for w in 100 500; do
		rmdir "$cg/w$w" || fail "cannot remove cgroup w$w"
	done
	kib100=$(fio_kib /tmp/w100.out) kib500=$(fio_kib /tmp/w500.out)
	log "run $1: weight 100 read $kib100 KiB, weight 500 read $kib500 KiB" >&2
	[ "${kib100:-0}" -gt 0 ] && [ "${kib500:-0}" -gt 0 ] ||
		fail "a group did no I/O: $(cat /tmp/w100.out /tmp/w500.out)"
	echo $((kib500 * 100 / kib100))
}

# Two cgroup v2 groups with io.bfq.weight 100 and 500 read from a device
# slower than the CPU (null_blk throttled to 10 MB/s), so that bfq decides
# who is served, with low_latency off (weight raising of new queues would
# blur the weights) and after a ramp. Five runs, each with new groups.
# Under QEMU TCG bfq gives the heavier group about 2 to 6 times the service
# of the lighter one, not the ideal 5: over 30 single runs on 7.2 with the
# series, 4 fell below 2.5:1 (1.99 the lowest), so a median of three runs
# fell below 2.5:1 once in about 15 runs (CI failed on it, 2026-11-29).
# The case asserts the median of five runs between 2.5:1 and 7:1 (above
# that the light group starves) and no run below 1.5:1. Ignoring the
# weights gives about 1:1, and halving the effect of the heavier weight
# (a regression a 2:1..8:1 band let pass) about 2:1.
case_cgroup_weights() {
	local cg=/sys/fs/cgroup r ratios="" med min
	nullb nullb1 memory_backed=0 mbps=10 submit_queues=1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	echo 0 > /sys/block/nullb1/queue/iosched/low_latency
	echo +io > "$cg/cgroup.subtree_control" || fail "cannot enable the io controller"
	for r in 1 2 3 4 5; do
		ratios="$ratios $(weight_run "$r")"
	done
	echo -io > "$cg/cgroup.subtree_control"
	med=$(echo $ratios | tr ' ' '\n' | sort -n | sed -n 3p)
	min=$(echo $ratios | tr ' ' '\n' | sort -n | sed -n 1p)
	log "service ratios (x100): $ratios; median $med"
	[ "$med" -ge 250 ] && [ "$med" -le 700 ] ||
		fail "median service ratio $med/100 is outside 2.5:1..7:1 (runs:$ratios)"
	[ "$min" -ge 150 ] || fail "a run gave only $min/100 :1 (runs:$ratios)"
}

# bfq merges a bio into a request it holds (bfq_bio_merge()), also with
# the lockless check for an empty scheduler in front of it. null_blk with
# one tag and 1 ms per request, and room for 32 requests in the scheduler,
# keeps most of fio's 16 sequential 4k reads (the verify pass of a
# sequential write) queued in bfq; each is submitted alone (no plug to
# merge in), so a bio merges into a queued request through the scheduler
# or not at all. Counts the block_bio_backmerge and block_rq_merge
# tracepoints, as /sys/block/*/stat adds merges of requests at insertion
# (elv_attempt_insert_merge()) to those of bios: asserts that at least a
# quarter of the 2048 reads merged as bios (base 6.12 and the series: about
# three quarters), that the reads add up, and that the data reads back.
# (Writes barely merge here on either kernel.)
case_merges() {
	local T=/sys/kernel/tracing e st r0 m0 r1 m1 reads merges bio rq
	nullb nullb1 hw_queue_depth=1 irqmode=2 completion_nsec=1000000 submit_queues=1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	# room in the scheduler for fio's 16 (twice the device's depth, 2, is
	# the default)
	echo 32 > /sys/block/nullb1/queue/nr_requests || fail "cannot set nr_requests"
	[ -d "$T/events/block" ] || mount -t tracefs nodev "$T" ||
		fail "no tracefs (CONFIG_EVENT_TRACING)"
	trap "for e in block_bio_backmerge block_rq_merge; do
		echo 0 > $T/events/block/\$e/enable; done" EXIT
	echo 4096 > "$T/buffer_size_kb"
	echo > "$T/trace"
	for e in block_bio_backmerge block_rq_merge; do
		echo 1 > "$T/events/block/$e/enable" || fail "cannot enable block:$e"
	done
	st=$(cat /sys/block/nullb1/stat)
	set -- $st; r0=$1 m0=$2
	run fio --name=merge --filename=/dev/nullb1 --ioengine=libaio --direct=1 \
		--rw=write --bs=4k --iodepth=16 --iodepth_batch_submit=1 \
		--size=8M --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--allow_file_create=0 --output-format=terse --terse-version=3 \
		> /tmp/fio.out
	st=$(cat /sys/block/nullb1/stat)
	set -- $st; r1=$1 m1=$2
	for e in block_bio_backmerge block_rq_merge; do
		echo 0 > "$T/events/block/$e/enable"
	done
	reads=$((r1 - r0)) merges=$((m1 - m0))
	# (grep -c exits 1 when it counts 0)
	bio=$(grep -c ' block_bio_backmerge: .* R ' "$T/trace" || true)
	rq=$(grep -c ' block_rq_merge: .* R ' "$T/trace" || true)
	! grep -q 'CPU.*buffer started' "$T/trace" || fail "the trace buffer overflowed"
	log "2048 reads of 4k: $reads read requests, $merges merges ($bio bios into queued requests, $rq requests at insertion)"
	[ "$bio" -gt 0 ] || fail "bfq merged no bio into a queued request"
	[ $((bio * 4)) -ge 2048 ] ||
		fail "only $bio of 2048 bios merged into a queued request"
	[ "$merges" -eq $((bio + rq)) ] ||
		fail "$merges merges counted, $bio + $rq traced"
	[ $((reads + merges)) -eq 2048 ] ||
		fail "$reads requests and $merges merges for 2048 bios"
}

# cgroup create/remove churn under I/O with bfq: 8 rounds in which a
# reader (fio, one thread, 16 reads in flight) starts in a new cgroup v2
# group on nullb1, a device so slow (one tag, 100 ms a request) that its
# reads wait in bfq; once its first reads completed in the group, the
# reader is stopped (SIGSTOP: its next request would move its queue to the
# root group itself), moved back to the root while its reads are still
# queued, and the group is removed at once: bfq_pd_offline() then finds
# the reader's queue active in the dying group and reparents it. All along
# fio writes and verifies small runs of data on the same device from the
# root group, one after the other until the churn is over, so that bfq
# serves both groups and their statistics change under bfqd->lock.
# Asserts the data, that every group went, that bfq reparented queues that
# were active in a dying group (bfq_reparent_leaf_entity(), counted with a
# kprobe: user space cannot see it; the earlier form of this case, which
# moved a reader that had not started its I/O yet, never reparented
# anything), and (tests/run) a clean kernel log.
case_cgroup_churn() {
	local cg=/sys/fs/cgroup i pid rpid n=8 moved
	nullb nullb1 submit_queues=1 irqmode=2 completion_nsec=100000000 hw_queue_depth=1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	echo +io > "$cg/cgroup.subtree_control" || fail "cannot enable the io controller"
	probe_add reparent bfq_reparent_leaf_entity
	rm -f /tmp/churn-done
	(
		while [ ! -e /tmp/churn-done ]; do
			fio_verify /dev/nullb1 --rw=randwrite --bs=16k --iodepth=4 \
				--size=256k
		done
	) &
	pid=$!
	i=0
	while [ "$i" -lt "$n" ]; do
		mkdir "$cg/churn$i" || fail "cannot create cgroup churn$i"
		echo $((100 + i * 10)) > "$cg/churn$i/io.bfq.weight" ||
			fail "cannot set io.bfq.weight in churn$i"
		sh -c "echo \$\$ > $cg/churn$i/cgroup.procs && exec fio \
			--name=churn --filename=/dev/nullb1 --ioengine=libaio \
			--direct=1 --rw=randread --bs=4k --iodepth=16 --thread \
			--offset=64M --size=64M --time_based --runtime=60 \
			--allow_file_create=0 --output=/dev/null" &
		rpid=$!
		# its first reads completed in the group (fio starts slowly
		# under TCG), and the rest of its 16 wait in bfq
		wait_for "grep -q ' rios=[1-9]' $cg/churn$i/io.stat" 60
		kill -0 "$rpid" 2>/dev/null || fail "the reader in churn$i ended early"
		kill -STOP "$rpid"
		echo "$rpid" > "$cg/cgroup.procs" ||
			fail "cannot move the reader out of churn$i"
		rmdir "$cg/churn$i" || fail "cannot remove cgroup churn$i"
		kill -CONT "$rpid"
		kill "$rpid"
		wait "$rpid" 2>/dev/null || true
		i=$((i + 1))
	done
	: > /tmp/churn-done
	wait "$pid" || fail "fio failed during the churn: $(cat /tmp/fio.out)"
	rm -f /tmp/churn-done
	echo -io > "$cg/cgroup.subtree_control"
	[ -z "$(ls -d "$cg"/churn* 2>/dev/null)" ] || fail "groups left: $(ls -d "$cg"/churn*)"
	moved=$(probe_hits reparent)
	log "$n groups created, used and removed under fio; $moved active queues reparented"
	[ "$moved" -gt 0 ] || fail "no group was removed with an active queue: nothing was reparented"
}

# blkio_read FILE DEV: the "Read" figure of DEV in a cgroup v1 rwstat file.
blkio_read() { awk -v d="$2" '$1 == d && $2 == "Read" {print $3}' "$1"; }

# bfq_debug_stats GROUP: whether bfq keeps its debug statistics
# (CONFIG_BFQ_CGROUP_DEBUG), from the files of a cgroup v1 group; fails if
# only some of them are there, or if tests/run said from the kernel's
# config (blkfast.bfq_cgroup_debug=y|n on the command line) that they
# should be there and they are not, or the other way round.
BFQ_DEBUG_FILES="time sectors io_service_time io_wait_time io_merged io_queued
time_recursive sectors_recursive io_service_time_recursive
io_wait_time_recursive io_merged_recursive io_queued_recursive
avg_queue_size group_wait_time idle_time empty_time dequeue"
bfq_debug_stats() {
	local f n=0 all=0 have=n want
	for f in $BFQ_DEBUG_FILES; do
		all=$((all + 1))
		[ ! -e "$1/blkio.bfq.$f" ] || n=$((n + 1))
	done
	[ "$n" = 0 ] || [ "$n" = "$all" ] ||
		fail "only $n of bfq's $all debug statistics files in $1"
	[ "$n" = 0 ] || have=y
	want=$(sed -n 's/.*blkfast\.bfq_cgroup_debug=\([yn]\).*/\1/p' /proc/cmdline)
	[ -z "$want" ] || [ "$want" = "$have" ] ||
		fail "CONFIG_BFQ_CGROUP_DEBUG=$want, but $n of bfq's $all debug statistics files in $1"
	[ "$have" = y ]
}

# bfq's cgroup (v1) statistics after a known amount of I/O: bytes exactly
# those read, the number of requests at most the number of reads; with the
# debug statistics (CONFIG_BFQ_CGROUP_DEBUG) also sectors exactly those
# read, nothing left queued, the average queue size between 1 and fio's
# iodepth, every debug file readable. Without them (distributions' bfq)
# only bytes and requests exist: the case checks those, and that none of
# the debug files is there if the kernel's config says so (tests/run).
case_cgroup_v1_stats() {
	local m=/tmp/blkio g dev f bytes ios
	nullb nullb1
	echo bfq > /sys/block/nullb1/queue/scheduler
	# bfq counts io_service_bytes per request at insertion: a random read
	# that merges as a bio into a queued request (two picks next to each
	# other) is never counted, so the exact totals below need no merges
	echo 2 > /sys/block/nullb1/queue/nomerges
	mkdir -p "$m"
	mount -t cgroup -o blkio blkio "$m" ||
		fail "cannot mount the cgroup v1 blkio hierarchy"
	g=$m/stats
	mkdir "$g" || fail "cannot create a blkio cgroup"
	dev=$(cat /sys/block/nullb1/dev)
	sh -c "echo \$\$ > $g/cgroup.procs && exec fio --name=stats \
		--filename=/dev/nullb1 --ioengine=io_uring --direct=1 \
		--rw=randread --bs=4k --iodepth=8 --size=4M --allow_file_create=0 \
		--output-format=terse --terse-version=3" > /tmp/stats.out 2>&1 ||
		fail "fio failed: $(cat /tmp/stats.out)"
	bytes=$(blkio_read "$g/blkio.bfq.io_service_bytes" "$dev")
	ios=$(blkio_read "$g/blkio.bfq.io_serviced" "$dev")
	log "blkio.bfq: $bytes bytes in $ios requests"
	[ "$bytes" = 4194304 ] || fail "io_service_bytes Read is $bytes, not 4194304"
	[ "${ios:-0}" -ge 1 ] && [ "$ios" -le 1024 ] || fail "io_serviced Read is $ios for 1024 reads"
	if ! bfq_debug_stats "$g"; then
		log "no debug statistics (CONFIG_BFQ_CGROUP_DEBUG=n): bytes and requests checked"
		return 0
	fi
	for f in $BFQ_DEBUG_FILES; do
		cat "$g/blkio.bfq.$f" > /dev/null || fail "blkio.bfq.$f is not readable"
	done
	log "debug statistics: $(awk -v d="$dev" '$1 == d {print $2}' "$g/blkio.bfq.sectors") sectors, average queue size $(awk -v d="$dev" '$1 == d {print $2}' "$g/blkio.bfq.avg_queue_size")"
	grep -qx "$dev 8192" "$g/blkio.bfq.sectors" ||
		fail "blkio.bfq.sectors: $(cat "$g/blkio.bfq.sectors")"
	grep -q "^$dev Total 0\$" "$g/blkio.bfq.io_queued" ||
		fail "requests left queued: $(cat "$g/blkio.bfq.io_queued")"
	# sampled at every dispatch, the dispatched request still counted:
	# at least 1, and never more than fio's iodepth
	awk -v d="$dev" '$1 == d && $2 ~ /^[0-9]+$/ && $2 >= 1 && $2 <= 8 {ok = 1} END {exit !ok}' \
		"$g/blkio.bfq.avg_queue_size" ||
		fail "blkio.bfq.avg_queue_size: $(cat "$g/blkio.bfq.avg_queue_size")"
	rmdir "$g"
	umount "$m"
}

# blkio_sum FILE DEV [FIELD]: the figure of DEV in a cgroup v1 file, the
# "Total" line's for an rwstat file (FIELD 3), the only one otherwise.
blkio_sum() {
	awk -v d="$2" -v f="${3:-2}" '$1 == d && (f == 2 || $2 == "Total") {print $f}' "$1"
}

# bfq's time statistics and queued counts with both CPUs submitting to two
# groups that compete (cgroup v1, weights 100 and 1000; a reader per CPU in
# each, one request at a time, so that bfq idles for them) on a device of
# one tag, while a third reader moves between the groups with its reads
# queued in bfq: nothing stays counted as queued, the bytes the groups were
# charged add up to those nullb1 read, the light group waited for service
# (group_wait_time), each group was dequeued, and bfq idled for the groups
# (idle_time), which differ in weight. Then a lone reader's group runs
# empty between its reads (empty_time grows). Before "block, bfq: start a
# group's wait time when another group is in service" group_wait_time was
# always 0,
# before "... empty time when it leaves service with nothing queued" the
# lone reader's empty_time stayed 0, before "... idle time whenever the
# idling ends" idle_time stayed 0, and before "... count a moved queue's
# queued requests in its new group" io_queued kept the requests a queue
# took along when it moved (each shown failing on a kernel without it).
# Without the debug statistics the readers and the mover run, the bytes
# are checked, and the case skips: there are no times to check.
case_cgroup_v1_times() {
	local m=/tmp/blkio g dev pid pids="" moves m0 s0 sectors bytes=0 b f e0 e1
	nullb nullb1 memory_backed=0 irqmode=2 completion_nsec=100000 \
		hw_queue_depth=1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	echo 2 > /sys/block/nullb1/queue/nomerges
	mkdir -p "$m"
	mount -t cgroup -o blkio blkio "$m" ||
		fail "cannot mount the cgroup v1 blkio hierarchy"
	for g in light heavy; do
		mkdir "$m/$g" || fail "cannot create blkio cgroup $g"
	done
	echo 100 > "$m/light/blkio.bfq.weight" || fail "cannot set light's weight"
	echo 1000 > "$m/heavy/blkio.bfq.weight" || fail "cannot set heavy's weight"
	dev=$(cat /sys/block/nullb1/dev)
	probe_add move bfq_bfqq_move
	m0=$(probe_hits move)
	s0=$(awk '{ print $3 }' /sys/block/nullb1/stat)
	for g in light heavy; do
		sh -c "echo \$\$ > $m/$g/cgroup.procs && exec fio --name=$g \
			--filename=/dev/nullb1 --ioengine=io_uring --direct=1 \
			--rw=randread --bs=4k --iodepth=1 --numjobs=2 \
			--cpus_allowed=0-1 --cpus_allowed_policy=split \
			--size=$(slower 2)M --offset_increment=64M \
			--allow_file_create=0 --output=/tmp/times-$g.out" &
		pids="$pids $!"
	done
	sh -c "echo \$\$ > $m/light/cgroup.procs && exec fio --name=mover \
		--filename=/dev/nullb1 --ioengine=io_uring --direct=1 --thread \
		--rw=randread --bs=4k --iodepth=8 --offset=128M --size=64M \
		--time_based --runtime=600 --allow_file_create=0 \
		--output=/tmp/times-mover.out" &
	pid=$!
	wait_for "[ \"\$(blkio_sum $m/light/blkio.bfq.io_serviced $dev 3)\" -gt 0 ] 2>/dev/null" 60
	moves=0
	while kill -0 ${pids% *} 2>/dev/null || kill -0 ${pids#* } 2>/dev/null; do
		for g in heavy light; do
			echo "$pid" > "$m/$g/cgroup.procs" ||
				fail "cannot move the mover to $g"
			moves=$((moves + 1))
			sleep 0.2
		done
	done
	for b in $pids; do
		wait "$b" || fail "a reader failed: $(cat /tmp/times-light.out /tmp/times-heavy.out)"
	done
	kill -0 "$pid" 2>/dev/null || fail "the mover ended early: $(cat /tmp/times-mover.out)"
	kill "$pid"
	wait "$pid" || true
	moves=$(($(probe_hits move) - m0))
	sectors=$(($(awk '{ print $3 }' /sys/block/nullb1/stat) - s0))
	log "the mover was moved $moves times between the groups by bfq (bfq_bfqq_move())"
	[ "$moves" -gt 0 ] || fail "bfq moved no queue between the groups"
	for g in "" light heavy; do
		b=$(blkio_sum "$m/$g/blkio.bfq.io_service_bytes" "$dev" 3)
		bytes=$((bytes + ${b:-0}))
	done
	log "nullb1 read $sectors sectors; the groups were charged $bytes bytes"
	[ "$bytes" -eq $((sectors * 512)) ] ||
		fail "the groups were charged $bytes bytes for $((sectors * 512)) read"
	if ! bfq_debug_stats "$m/light"; then
		skip "no debug statistics (CONFIG_BFQ_CGROUP_DEBUG=n): only the bytes charged to the groups checked"
	fi
	for g in "" light heavy; do
		f=$m/$g/blkio.bfq
		log "group ${g:-root}: $(for s in io_queued avg_queue_size \
			group_wait_time empty_time idle_time dequeue; do
			printf '%s %s ' "$s" "$(blkio_sum "$f.$s" "$dev" \
				"$([ "$s" = io_queued ] && echo 3 || echo 2)")"; done)"
		[ "$(blkio_sum "$f.io_queued" "$dev" 3)" = 0 ] ||
			fail "group ${g:-root}: requests left queued: $(cat "$f.io_queued")"
	done
	# light waits while heavy's queues are served; heavy need not wait,
	# as a request of a ten times heavier queue makes bfq expire light's
	# queue before the request is counted (bfq_bfqq_higher_class_or_weight())
	[ "$(blkio_sum "$m/light/blkio.bfq.group_wait_time" "$dev")" -gt 0 ] ||
		fail "group light never waited for heavy (group_wait_time 0)"
	for g in light heavy; do
		f=$m/$g/blkio.bfq
		[ "$(blkio_sum "$f.dequeue" "$dev")" -gt 0 ] ||
			fail "group $g: blkio.bfq.dequeue is 0"
		awk -v d="$dev" '$1 == d && $2 >= 1 && $2 <= 16 {ok = 1} END {exit !ok}' \
			"$f.avg_queue_size" ||
			fail "group $g: avg_queue_size $(cat "$f.avg_queue_size")"
	done
	[ $(($(blkio_sum "$m/light/blkio.bfq.idle_time" "$dev") + \
		$(blkio_sum "$m/heavy/blkio.bfq.idle_time" "$dev"))) -gt 0 ] ||
		fail "bfq never idled for the groups (idle_time 0)"
	# one reader alone, one request at a time: bfq does not idle for a
	# lone queue here, so after each read its queue leaves service with
	# nothing queued, and the group is empty until the next read
	e0=$(blkio_sum "$m/light/blkio.bfq.empty_time" "$dev")
	sh -c "echo \$\$ > $m/light/cgroup.procs && exec fio --name=alone \
		--filename=/dev/nullb1 --ioengine=io_uring --direct=1 \
		--rw=randread --bs=4k --iodepth=1 --size=1M \
		--allow_file_create=0 --output=/tmp/times-alone.out" ||
		fail "the lone reader failed: $(cat /tmp/times-alone.out)"
	e1=$(blkio_sum "$m/light/blkio.bfq.empty_time" "$dev")
	log "group light: empty_time $e0 before 256 reads of a lone reader, $e1 after"
	[ "$e1" -gt "$e0" ] || fail "group light never ran empty under a lone reader"
	rmdir "$m/light" "$m/heavy"
	umount "$m"
}

# cgroup_v1_stats and cgroup_v1_times last: the io controller stays with
# cgroup v1 after them
run_cases switch_under_load bfq_verify sched_dispatch_in_submitter merges \
	cgroup_weights cgroup_churn cgroup_v1_stats cgroup_v1_times
