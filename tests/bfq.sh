#!/bin/sh
# I/O schedulers: switching schedulers under load loses no data.
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

run_cases switch_under_load bfq_verify
