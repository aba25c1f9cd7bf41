#!/bin/sh
# Request-based dm-multipath over null_blk: data verified.
. ./lib.sh

case_mpath_verify() {
	nullb nullb1
	dm_create mp "0 $(sectors nullb1) multipath 0 0 1 1 round-robin 0 1 1 /dev/nullb1 1"
	fio_verify /dev/mapper/mp
	fio_verify /dev/mapper/mp --rw=randrw --bs=16k --numjobs=2 \
		--size=16M --offset_increment=16M --iodepth=32
}

case_mpath_service_time_verify() {
	nullb nullb1
	dm_create mp "0 $(sectors nullb1) multipath 0 0 1 1 service-time 0 1 2 /dev/nullb1 1 1"
	fio_verify /dev/mapper/mp --rw=randrw --bs=8k
}

run_cases mpath_verify mpath_service_time_verify
