#!/bin/sh
# I/O schedulers: switching schedulers under load loses no data; bfq keeps
# its data, its cgroup weights and its cgroup statistics.
. ./lib.sh

case_switch_under_load() {
	local s i=0 pid
	nullb nullb1
	fio_verify /dev/nullb1 --rw=randrw --size=64M --numjobs=2 \
		--offset_increment=64M --time_based=0 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for s in bfq mq-deadline none; do
			echo "$s" > /sys/block/nullb1/queue/scheduler ||
				fail "cannot switch to $s"
			i=$((i + 1))
			sleep 0.3
		done
	done
	wait "$pid" || fail "fio failed while the scheduler was switched"
	log "switched scheduler $i times"
	[ "$i" -ge 3 ] || fail "fio ended before all schedulers were tried"
}

case_bfq_verify() {
	nullb nullb1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	fio_verify /dev/nullb1 --rw=randrw --bs=8k --numjobs=2 \
		--size=16M --offset_increment=16M
}

# fio_kib FILE: the KiB read, from fio's terse (version 3) output.
fio_kib() { awk -F';' '{print $6}' "$1"; }

# Two cgroup v2 groups with io.bfq.weight 100 and 500 read from a device
# slower than the CPU (null_blk throttled to 10 MB/s), so that bfq decides
# who is served, with low_latency off (weight raising of new queues would
# blur the weights) and after a ramp. Under QEMU TCG bfq gives the heavier
# group 2.85 to 4.9 times the service of the lighter one, the 6.12 base as
# well, not the ideal 5; the case asserts 2:1 to 8:1, which ignoring the
# weights (about 1:1) cannot pass.
case_cgroup_weights() {
	local cg=/sys/fs/cgroup w kib100 kib500
	nullb nullb1 memory_backed=0 mbps=10 submit_queues=1
	echo bfq > /sys/block/nullb1/queue/scheduler
	grep -q '\[bfq\]' /sys/block/nullb1/queue/scheduler || fail "bfq not selected"
	echo 0 > /sys/block/nullb1/queue/iosched/low_latency
	echo +io > "$cg/cgroup.subtree_control" || fail "cannot enable the io controller"
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
		rmdir "$cg/w$w"
	done
	echo -io > "$cg/cgroup.subtree_control"
	kib100=$(fio_kib /tmp/w100.out) kib500=$(fio_kib /tmp/w500.out)
	log "weight 100 read $kib100 KiB, weight 500 read $kib500 KiB"
	[ "${kib100:-0}" -gt 0 ] && [ "${kib500:-0}" -gt 0 ] ||
		fail "a group did no I/O: $(cat /tmp/w100.out /tmp/w500.out)"
	[ "$kib500" -ge $((2 * kib100)) ] && [ "$kib500" -le $((8 * kib100)) ] ||
		fail "service ratio $kib500:$kib100 is outside 2:1..8:1"
}

# blkio_read FILE DEV: the "Read" figure of DEV in a cgroup v1 rwstat file.
blkio_read() { awk -v d="$2" '$1 == d && $2 == "Read" {print $3}' "$1"; }

# bfq's cgroup (v1) statistics after a known amount of I/O: bytes and
# sectors exactly those read, the number of requests at most the number
# of reads, nothing left queued, the average queue size between 1 and
# fio's iodepth, the debug statistics readable.
case_cgroup_v1_stats() {
	local m=/tmp/blkio g dev f bytes ios
	nullb nullb1
	echo bfq > /sys/block/nullb1/queue/scheduler
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
	for f in io_service_bytes io_serviced io_queued sectors time \
			io_merged avg_queue_size dequeue group_wait_time \
			idle_time empty_time io_service_time io_wait_time; do
		cat "$g/blkio.bfq.$f" > /dev/null || fail "blkio.bfq.$f is not readable"
	done
	bytes=$(blkio_read "$g/blkio.bfq.io_service_bytes" "$dev")
	ios=$(blkio_read "$g/blkio.bfq.io_serviced" "$dev")
	log "blkio.bfq: $bytes bytes in $ios requests, $(awk -v d="$dev" '$1 == d {print $2}' "$g/blkio.bfq.sectors") sectors, average queue size $(awk -v d="$dev" '$1 == d {print $2}' "$g/blkio.bfq.avg_queue_size")"
	[ "$bytes" = 4194304 ] || fail "io_service_bytes Read is $bytes, not 4194304"
	[ "${ios:-0}" -ge 1 ] && [ "$ios" -le 1024 ] || fail "io_serviced Read is $ios for 1024 reads"
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

# cgroup_v1_stats last: the io controller stays with cgroup v1 after it
run_cases switch_under_load bfq_verify cgroup_weights cgroup_v1_stats
