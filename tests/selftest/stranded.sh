#!/bin/sh
# Not a test of the kernel: the checks of the areas that set CHECK_STRANDED
# (tests/poll.sh, tests/md-raid.sh) and run after_case, each made to fire
# or not. The kernel log lines are written to /dev/kmsg as a driver would
# print them (scripts/check-test-runner compares the verdicts with
# tests/selftest/expected).
. ./lib.sh
CHECK_STRANDED=1
CASE_TIMEOUT=120

after_case() {
	md_state_check
	if [ -e /tmp/after-case-fails ]; then
		rm -f /tmp/after-case-fails
		fail "after_case: as it should"
	fi
}

# member_faults allows the faults of the member it names, and only those
inject() { echo "$*" > /dev/kmsg; }
case_fault_allowed() {
	member_faults nullb2
	inject "blk_print_req_error: I/O error, dev nullb2, sector 8 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0"
	inject "md/raid1:md0: nullb2: rescheduling sector 8"
	inject "md/raid1:md0: redirecting sector 8 to other mirror: nullb1"
	inject "md/raid10:md0: nullb1: redirecting sector 8 to another mirror"
}
# not a timeout on it: that is a request stranded, not an injected error
case_timeout_on_the_faulted_member() {
	member_faults nullb2
	inject "blk_mq_timeout: timeout error, dev nullb2, sector 8 op 0x0:(READ)"
}
case_fault_on_another_member() {
	member_faults nullb2
	inject "blk_print_req_error: I/O error, dev nullb1, sector 8 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0"
}
case_stranded() {
	inject "blk_mq_timeout: timeout error, dev nullb1, sector 8 op 0x1:(WRITE)"
}
case_after_case_fails() { : > /tmp/after-case-fails; }

# md_state_check: errors counted on a member, and an array left read-only
md_pair() {
	nullb nullb1 size=64
	nullb nullb2 size=64
	run mdadm --create /dev/md0 --run --metadata=1.2 --level=1 --raid-devices=2 \
		--assume-clean /dev/nullb1 /dev/nullb2
}
case_member_errors() {
	md_pair
	echo 3 > /sys/block/md0/md/dev-nullb1/errors
}
case_member_errors_allowed() {
	md_pair
	member_faults nullb1
	echo 3 > /sys/block/md0/md/dev-nullb1/errors
}
case_array_read_only() {
	md_pair
	run mdadm --readonly /dev/md0
}

# a check that is interrupted has not checked the array
case_check_interrupted() {
	md_pair
	resync_speed slow 1000
	# stopped once it runs, however long md_check_clean takes to start it
	(wait_for "grep -qx check /sys/block/md0/md/sync_action" 60
	 echo idle > /sys/block/md0/md/sync_action) &
	md_check_clean /dev/md0
}

# assert_polled counts from poll_mark: polling before it does not count
case_polled_before_the_mark() {
	nullb nullb1 poll_queues=2
	fio_verify /dev/nullb1 --hipri=1 --size=1M
	poll_mark
	fio_verify /dev/nullb1 --size=1M
	assert_polled nullb1
}
case_polled_after_the_mark() {
	nullb nullb1 poll_queues=2
	poll_mark
	fio_verify /dev/nullb1 --hipri=1 --size=1M
	assert_polled nullb1
}

# assert_polled on the NVMe disk: I/O by interrupt is not polled I/O
case_nvme_by_interrupt() {
	[ -b /dev/nvme0n1 ] || fail "no NVMe disk (tests/run adds one)"
	poll_mark
	run fio --name=irq --filename=/dev/nvme0n1 --ioengine=io_uring --direct=1 \
		--rw=randread --bs=4k --size=4M --output=/dev/null
	assert_polled nvme0n1
}

# tags_ran_out: 4 reads in flight on 1024 tags never wait for one
case_tags_plenty() {
	nullb nullb1 hw_queue_depth=1024
	tags_mark
	run fio --name=few --filename=/dev/nullb1 --ioengine=io_uring --direct=1 \
		--rw=randread --bs=4k --iodepth=4 --size=4M --output=/dev/null
	tags_ran_out
}

# probe_hits counts the calls of a kernel function (sync(2))
case_probe_counts() {
	local n
	probe_add sync __x64_sys_sync
	n=$(probe_hits sync)
	sync; sync; sync
	[ "$(($(probe_hits sync) - n))" = 3 ] ||
		fail "3 calls of sync(2), the probe counted $(($(probe_hits sync) - n))"
}

run_cases fault_allowed fault_on_another_member timeout_on_the_faulted_member \
	stranded after_case_fails \
	member_errors member_errors_allowed array_read_only check_interrupted \
	polled_before_the_mark polled_after_the_mark nvme_by_interrupt \
	tags_plenty probe_counts
