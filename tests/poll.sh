#!/bin/sh
# Polled I/O (io_uring IOPOLL, fio hipri=1) on null_blk poll queues and on the
# stacked devices above them: data verified, no hang.
. ./lib.sh

# poll_verify DEV: write then verify, then randrw with verify, all polled.
poll_verify() {
	fio_verify "$1" --hipri=1
	fio_verify "$1" --hipri=1 --rw=randrw --bs=8k --numjobs=2 \
		--size=16M --offset_increment=16M --group_reporting
}

case_nullb_poll() {
	nullb nullb1 poll_queues=2
	[ "$(io_poll nullb1)" = 1 ] || fail "null_blk with poll queues: io_poll is not 1"
	poll_verify /dev/nullb1
}

case_dm_linear_poll() {
	nullb nullb1 poll_queues=2
	dm_create lin "0 $(sectors nullb1) linear /dev/nullb1 0"
	[ "$(io_poll dm-0)" = 1 ] || fail "dm-linear over polling null_blk: io_poll is not 1"
	poll_verify /dev/mapper/lin
}

case_dm_stripe_poll() {
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_create str "0 $(( $(sectors nullb1) * 2 )) striped 2 128 /dev/nullb1 0 /dev/nullb2 0"
	[ "$(io_poll dm-0)" = 1 ] || fail "dm-stripe over polling null_blk: io_poll is not 1"
	poll_verify /dev/mapper/str
}

# The 6.12 base: md does not poll. io_poll reads 0 and a polled read fails
# with EOPNOTSUPP. This case flips to "md polling works" when md polling
# lands in the series (issue 3).
case_md_raid0_poll_refused() {
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	run mdadm --create /dev/md0 --run --level=0 --raid-devices=2 /dev/nullb1 /dev/nullb2
	[ "$(io_poll md0)" = 0 ] || fail "md raid0: io_poll is not 0"
	if fio --name=poll --filename=/dev/md0 --ioengine=io_uring --direct=1 --hipri=1 \
		--rw=randread --bs=4k --size=4M >/tmp/fio.out 2>&1; then
		fail "a polled read on md raid0 succeeded"
	fi
	grep -q "Operation not supported" /tmp/fio.out ||
		fail "polled read on md raid0 failed, but not with EOPNOTSUPP: $(cat /tmp/fio.out)"
}

run_cases nullb_poll dm_linear_poll dm_stripe_poll md_raid0_poll_refused
