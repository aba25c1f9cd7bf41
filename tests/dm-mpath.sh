#!/bin/sh
# Request-based dm-multipath: two paths (two loop devices on one file) to the
# same data; fio verify through round-robin and service-time path selectors.
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

case_mpath_verify() {
	mpath_paths
	dm_create mp "0 $(sectors loop0) multipath 0 0 1 1 round-robin 0 2 1 /dev/loop0 1 /dev/loop1 1"
	fio_verify /dev/mapper/mp
	fio_verify /dev/mapper/mp --rw=randrw --bs=16k --numjobs=2 \
		--size=16M --offset_increment=16M --iodepth=32
}

case_mpath_service_time_verify() {
	mpath_paths
	dm_create mp "0 $(sectors loop0) multipath 0 0 1 1 service-time 0 2 2 /dev/loop0 1 1 /dev/loop1 1 1"
	fio_verify /dev/mapper/mp --rw=randrw --bs=8k
}

run_cases mpath_verify mpath_service_time_verify
