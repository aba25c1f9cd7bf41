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

# dm_polling NAME TABLE: dm_create, and the device must advertise polling.
dm_polling() {
	local minor
	dm_create "$1" "$2"
	minor=$(dmsetup info -c --noheadings -o minor "$1" | tr -d ' ')
	[ "$(io_poll "dm-$minor")" = 1 ] || fail "dm table '$2': io_poll is not 1"
}

case_nullb_poll() {
	nullb nullb1 poll_queues=2
	[ "$(io_poll nullb1)" = 1 ] || fail "null_blk with poll queues: io_poll is not 1"
	poll_verify /dev/nullb1
}

case_dm_linear_poll() {
	nullb nullb1 poll_queues=2
	dm_polling lin "0 $(sectors nullb1) linear /dev/nullb1 0"
	poll_verify /dev/mapper/lin
}

case_dm_stripe_poll() {
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_polling str "0 $(( $(sectors nullb1) * 2 )) striped 2 128 /dev/nullb1 0 /dev/nullb2 0"
	poll_verify /dev/mapper/str
}

# Targets that build bios of their own (dm-crypt, dm-flakey corrupting
# writes) or hold the clone back and submit it later (dm-delay, dm-thin):
# polled I/O completes (by interrupt where dm cannot poll the bio) instead
# of waiting for the request timeout of a poll queue nobody polls (which
# fio reports as "Connection timed out").
DM_KEY=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

# poll_verify_quick DEV: poll_verify with less data: enough to see every
# bio complete, without the cost of a slow target (dm-crypt under TCG).
poll_verify_quick() {
	fio_verify "$1" --hipri=1 --size=8M
	fio_verify "$1" --hipri=1 --rw=randrw --bs=8k --numjobs=2 \
		--size=4M --offset_increment=4M --group_reporting
}

case_dm_crypt_poll() {
	nullb nullb1 poll_queues=2
	dm_polling cr "0 $(sectors nullb1) crypt aes-xts-plain64 $DM_KEY 0 /dev/nullb1 0"
	poll_verify_quick /dev/mapper/cr
}

case_dm_delay_poll() {
	nullb nullb1 poll_queues=2
	dm_polling dl "0 $(sectors nullb1) delay /dev/nullb1 0 1"
	poll_verify_quick /dev/mapper/dl
}

# always down, corrupting a byte of each write: flakey writes a copy of
# every bio it is given
case_dm_flakey_poll() {
	nullb nullb1 poll_queues=2
	dm_polling fl "0 $(sectors nullb1) flakey /dev/nullb1 0 0 60 5 corrupt_bio_byte 1 w 0 0"
	for rw in randwrite randread; do
		run fio --name=poll --filename=/dev/mapper/fl --ioengine=io_uring \
			--direct=1 --hipri=1 --rw=$rw --bs=4k --iodepth=16 \
			--size=8M --numjobs=2 --offset_increment=8M \
			--allow_file_create=0 --output=/tmp/fio.out
	done
}

case_dm_thin_poll() {
	nullb nullb1 size=16 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_create pool "0 $(sectors nullb2) thin-pool /dev/nullb1 /dev/nullb2 128 0"
	run dmsetup message pool 0 "create_thin 0"
	dm_polling th "0 $(sectors nullb2) thin /dev/mapper/pool 0"
	poll_verify_quick /dev/mapper/th
}

# dm-cache in writethrough mode writes a copy of each write to the origin
case_dm_cache_poll() {
	nullb nullb1 size=16 poll_queues=2
	nullb nullb2 size=64 poll_queues=2
	nullb nullb3 poll_queues=2
	dm_polling ca "0 $(sectors nullb3) cache /dev/nullb1 /dev/nullb2 /dev/nullb3 512 1 writethrough default 0"
	poll_verify_quick /dev/mapper/ca
}

# dm-raid hands the bio to an md personality, which nobody polls for dm
case_dm_raid1_poll() {
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_polling r1 "0 $(sectors nullb1) raid raid1 2 0 nosync 2 - /dev/nullb1 - /dev/nullb2"
	poll_verify_quick /dev/mapper/r1
}

# dm-zoned keeps its metadata on the device, and its formatter (dmzadm, in
# dm-zoned-tools) is not packaged for Debian, so dmz_format writes the two
# metadata sets of the version 1 format itself, for the one geometry the
# case uses: 32 zones of 16 MiB, the first 8 conventional. Each set takes 34
# blocks at the start of a zone: a super block, 1 chunk mapping block (29
# chunks, all unmapped) and 32 zone bitmap blocks (all blocks invalid); 1
# sequential zone is reserved for reclaim. The sets start at blocks 0 and
# 4096 (zones 0 and 1).
DMZ_CHUNKS=29

# dmz_sb SB_BLOCK: the first 48 bytes of a super block as printf(1) octal
# escapes (the rest of its 4k block is zero). Fields: magic 0x445A4244,
# version 1, generation 1, SB_BLOCK, 34 metadata blocks, 1 reserved zone, 29
# chunks, 1 map block, 32 bitmap blocks; then the checksum, crc32_le()
# seeded with the generation over the whole block with that field zero.
dmz_sb() {
	awk -v f="1146765892 1 1 0 $1 0 34 1 $DMZ_CHUNKS 1 32" 'BEGIN {
		split(f, w, " ")
		w[12] = 0
		for (i = 1; i <= 12; i++)
			for (j = 0; j < 4; j++)
				b[(i - 1) * 4 + j] = and(rshift(w[i], 8 * j), 255)
		crc = 1
		for (k = 0; k < 4096; k++) {
			crc = xor(crc, k < 48 ? b[k] : 0)
			for (j = 0; j < 8; j++)
				crc = and(crc, 1) ? xor(rshift(crc, 1), 3988292384) : rshift(crc, 1)
		}
		for (j = 0; j < 4; j++)
			b[44 + j] = and(rshift(crc, 8 * j), 255)
		for (k = 0; k < 48; k++)
			printf "\\%03o", b[k]
	}'
}

# dmz_format DEV: write both metadata sets to DEV.
dmz_format() {
	local blk
	for blk in 0 4096; do
		{
			printf "$(dmz_sb $blk)"
			head -c 4048 /dev/zero
			head -c 4096 /dev/zero | tr '\0' '\377'
			head -c $((32 * 4096)) /dev/zero
		} > /tmp/dmz-set
		run dd if=/tmp/dmz-set of="$1" bs=4096 seek=$blk conv=notrunc,fsync status=none
	done
}

# dm-zoned reads and writes through clones it submits from a work queue
case_dm_zoned_poll() {
	nullb nullb1 size=512 zoned=1 zone_size=16 zone_nr_conv=8 poll_queues=2
	dmz_format /dev/nullb1
	dm_polling dz "0 $((DMZ_CHUNKS * 32768)) zoned /dev/nullb1"
	poll_verify_quick /dev/mapper/dz
}

# md_array LEVEL N: /dev/md0 over N polling null_blk devices, no resync.
md_array() {
	local chunk=
	case $1 in 0|5|10) chunk=--chunk=64 ;; esac
	MD_NULLB="size=128 poll_queues=2" md_create "$1" "$2" $chunk --assume-clean
}

# polled_read_refused DEV: a polled read fails with EOPNOTSUPP, no hang.
polled_read_refused() {
	if fio --name=poll --filename="$1" --ioengine=io_uring --direct=1 --hipri=1 \
		--rw=randread --bs=4k --size=4M >/tmp/fio.out 2>&1; then
		fail "a polled read on $1 succeeded"
	fi
	grep -q "Operation not supported" /tmp/fio.out ||
		fail "polled read on $1 failed, but not with EOPNOTSUPP: $(cat /tmp/fio.out)"
}

# md_poll_matrix: polled write+verify and randrw at 4k, and at a block size
# that crosses 64k chunks (the block layer then splits the bio and it
# completes by interrupt), on /dev/md0.
md_poll_matrix() {
	[ "$(io_poll md0)" = 1 ] || fail "md0 over polling null_blk: io_poll is $(io_poll md0)"
	poll_verify /dev/md0
	fio_verify /dev/md0 --hipri=1 --bs=96k --size=24M
	fio_verify /dev/md0 --hipri=1 --rw=randrw --bs=96k --numjobs=2 \
		--size=12M --offset_increment=12M --group_reporting
}

case_md_linear_poll() { md_array linear 2; md_poll_matrix; }
case_md_raid0_poll()  { md_array 0 2; md_poll_matrix; }
case_md_raid1_poll()  { md_array 1 2; md_poll_matrix; }
case_md_raid10_poll() { md_array 10 4; md_poll_matrix; }

# A mirror fails while polled I/O runs; it is removed, added back and
# recovers while polled I/O runs again. Then the member that never failed
# fails in turn: what was written during recovery reads back from the
# recovered member alone.
md_poll_fail_recover() {
	local pid writes
	resync_speed fast
	md_array "$@"
	writes=$(awk '{print $5}' /sys/block/md0/stat)
	fio_verify /dev/md0 --hipri=1 --size=40M --rw=randrw --numjobs=2 \
		--offset_increment=40M &
	pid=$!
	# fewer writes before the failure on each retry after a lost race
	wait_for "[ \$(awk '{print \$5}' /sys/block/md0/stat) -gt $((writes + 100 / $(slower 1))) ]" 60
	run mdadm /dev/md0 --fail /dev/nullb2
	overlap "kill -0 $pid 2>/dev/null" "polled fio finished before the member failed"
	wait "$pid" || fail "polled fio failed while a member failed"
	grep -q '_' /proc/mdstat || fail "array not degraded after --fail"
	run mdadm /dev/md0 --remove /dev/nullb2
	resync_speed slow
	run mdadm /dev/md0 --add /dev/nullb2
	fio_verify /dev/md0 --hipri=1 --offset=96M --size=16M
	overlap "grep -qE 'recovery|resync' /proc/mdstat" "the recovery ended before fio did"
	resync_speed fast
	md_wait /dev/md0
	grep -q '_' /proc/mdstat && fail "array still degraded: $(cat /proc/mdstat)"
	md_check_clean /dev/md0
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after recovery"
	run mdadm /dev/md0 --fail /dev/nullb1
	fio_verify /dev/md0 --hipri=1 --offset=96M --size=16M --verify_only
}
case_md_raid1_poll_fail_recover()  { md_poll_fail_recover 1 2; }
case_md_raid10_poll_fail_recover() { md_poll_fail_recover 10 4; }

# raid4/5/6 do not poll: io_poll is 0 and polled I/O fails cleanly.
case_md_raid5_poll_refused() {
	md_array 5 3
	[ "$(io_poll md0)" = 0 ] || fail "md raid5: io_poll is not 0"
	polled_read_refused /dev/md0
}

# A member without poll queues: the array does not poll.
case_md_member_without_poll() {
	nullb nullb1 size=128 poll_queues=2
	nullb nullb2 size=128 poll_queues=0
	run mdadm --create /dev/md0 --run --level=0 --raid-devices=2 /dev/nullb1 /dev/nullb2
	[ "$(io_poll md0)" = 0 ] || fail "md raid0 with a non-polling member: io_poll is not 0"
	polled_read_refused /dev/md0
}

# A mirror without poll queues replaces a failed one while polled I/O
# runs: the array stops polling; fio completes or fails, nothing hangs,
# and what was written reads back.
case_md_raid1_nonpoll_member_added() {
	local pid
	md_array 1 2
	nullb nullb3 size=128 poll_queues=0
	fio_verify /dev/md0 --size=32M
	fio --name=poll --filename=/dev/md0 --ioengine=io_uring --direct=1 --hipri=1 \
		--rw=randread --bs=4k --size=32M --time_based --runtime="$(slower 6)" \
		>/tmp/fio-poll.out 2>&1 &
	pid=$!
	sleep 1
	run mdadm /dev/md0 --fail /dev/nullb2
	run mdadm /dev/md0 --remove /dev/nullb2
	run mdadm /dev/md0 --add /dev/nullb3
	overlap "kill -0 $pid 2>/dev/null" "polled fio ended before the mirror was replaced"
	wait "$pid" && log "polled fio completed" ||
		log "polled fio ended with: $(grep -m1 -i err /tmp/fio-poll.out)"
	md_wait /dev/md0
	[ "$(io_poll md0)" = 0 ] || fail "io_poll is still 1 with a non-polling mirror"
	polled_read_refused /dev/md0
	fio_verify /dev/md0 --size=32M --verify_only
}

# Stopping an array right after polled I/O.
case_md_stop_after_poll() {
	md_array 0 2
	fio --name=poll --filename=/dev/md0 --ioengine=io_uring --direct=1 --hipri=1 \
		--rw=randread --bs=4k --iodepth=32 --size=32M >/tmp/fio.out 2>&1 ||
		fail "polled read failed: $(tail -n 3 /tmp/fio.out)"
	run mdadm --stop /dev/md0
}

# QEMU's emulated NVMe disk, which tests/run adds with one poll queue for
# both CPUs (nvme.poll_queues=1): the two polling jobs of poll_verify share
# it, so each often finds the other reaping it (nvme_poll()'s trylock).
case_nvme_poll_shared_queue() {
	[ -b /dev/nvme0n1 ] || skip "no NVMe disk (tests/run adds one)"
	[ "$(cat /sys/module/nvme/parameters/poll_queues)" = 1 ] ||
		skip "nvme.poll_queues is not 1"
	[ "$(io_poll nvme0n1)" = 1 ] || fail "nvme with a poll queue: io_poll is not 1"
	poll_verify /dev/nvme0n1
}

run_cases nullb_poll nvme_poll_shared_queue dm_linear_poll dm_stripe_poll dm_crypt_poll dm_delay_poll \
	dm_flakey_poll dm_thin_poll dm_cache_poll dm_raid1_poll dm_zoned_poll md_linear_poll md_raid0_poll \
	md_raid1_poll md_raid10_poll md_raid1_poll_fail_recover \
	md_raid10_poll_fail_recover md_raid5_poll_refused md_member_without_poll \
	md_raid1_nonpoll_member_added md_stop_after_poll
