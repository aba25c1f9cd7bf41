#!/bin/sh
# Polled I/O (io_uring IOPOLL, fio hipri=1) on null_blk poll queues and on the
# stacked devices above them: data verified, no hang, no stranded I/O (no
# timeout, I/O error or member failure in the kernel log, no member error
# counted, no bad block; kernel-stranded.txt), and the I/O was polled.
. ./lib.sh
CHECK_STRANDED=1

# after every case: md arrays clean, and the case checked whether its I/O was
# polled (assert_polled or not_polled)
after_case() {
	md_state_check
	[ -e /tmp/polled-asserted ] ||
		fail "the case checked neither assert_polled nor not_polled"
}

# poll_verify DEV: write then verify, then randrw with verify, all polled.
poll_verify() {
	fio_verify "$1" --hipri=1 --size=16M
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
	assert_polled nullb1
}

case_dm_linear_poll() {
	nullb nullb1 poll_queues=2
	dm_polling lin "0 $(sectors nullb1) linear /dev/nullb1 0"
	poll_verify /dev/mapper/lin
	assert_polled nullb1
}

# ios_done DEV: the reads and writes DEV completed (/sys/block/DEV/stat)
ios_done() {
	set -- $(cat "/sys/block/$1/stat")
	echo $(($1 + $5))
}

# Polled I/O through dm-linear over a null_blk device of one poll queue of
# 4 tags: clones are refused with BLK_STS_AGAIN under REQ_NOWAIT and dm
# requeues their bios (dm_handle_requeue()), which its worker submits again.
# Stable fix "dm: queue a requeued bio again only after its accounting has
# ended": before it, dm ended the accounting of a bio it had already handed
# to that worker, and this oopsed in dm_io_acct() (a NULL ->bi_bdev) within
# seconds. The requeues are counted: each ends dm's accounting of the bio
# once more, so dm completes more I/Os than null_blk does.
case_dm_linear_poll_tag_starved() {
	local dm before after
	nullb nullb1 poll_queues=1 hw_queue_depth=4
	dm_polling lin "0 $(sectors nullb1) linear /dev/nullb1 0"
	dm=dm-$(dmsetup info -c --noheadings -o minor lin | tr -d ' ')
	before=$(( $(ios_done "$dm") - $(ios_done nullb1) ))
	fio_verify /dev/mapper/lin --hipri=1 --iodepth=32 --numjobs=4 \
		--size=8M --offset_increment=8M --group_reporting
	# reads as fast as null_blk serves them: the race is widest then
	run fio --name=starve --filename=/dev/mapper/lin --ioengine=io_uring \
		--direct=1 --hipri=1 --rw=randread --bs=4k --iodepth=32 \
		--numjobs=4 --thread --size=32M --time_based --runtime=5 \
		--group_reporting --output-format=terse --terse-version=3 >/tmp/fio.out
	fio_verify /dev/mapper/lin --hipri=1 --iodepth=32 --numjobs=4 \
		--size=8M --offset_increment=8M --group_reporting --verify_only
	after=$(( $(ios_done "$dm") - $(ios_done nullb1) ))
	[ $((after - before)) -gt 0 ] ||
		fail "dm requeued no bio (it completed as many I/Os as nullb1): the tags were not short"
	log "dm requeued $((after - before)) bios refused for want of a tag"
	assert_polled nullb1
}

case_dm_stripe_poll() {
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_polling str "0 $(( $(sectors nullb1) * 2 )) striped 2 128 /dev/nullb1 0 /dev/nullb2 0"
	poll_verify /dev/mapper/str
	assert_polled nullb1 nullb2
}

# The rule of dm polling, the same for every target: a table polls only if
# all its targets hand dm's clone on (DM_TARGET_POLL), and then its polled
# I/O is reaped by polling below; any other table refuses polled I/O at once
# (EOPNOTSUPP), so that nothing waits for the request timeout of a poll
# queue nobody polls ("Connection timed out") or spins on a device that only
# says it polls. A new target needs a table line here, no new check.
DM_KEY=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

# poll_verify_quick DEV [fio options]: poll_verify with less data: enough to
# see every bio complete, without the cost of a slow target (dm-crypt under
# TCG).
poll_verify_quick() {
	local dev=$1
	shift
	fio_verify "$dev" --size=8M "$@"
	fio_verify "$dev" --rw=randrw --bs=8k --numjobs=2 \
		--size=4M --offset_increment=4M --group_reporting "$@"
}

# dm_poll_rule polled|refused NAME TABLE DEV...: create the table over the
# polling null_blk devices DEV...; if it advertises polling (io_poll 1),
# polled I/O verifies and DEV... completed requests by polling since the
# mark; if not, a polled read fails with EOPNOTSUPP and the same I/O
# verifies without polling. Then: the table did what its targets are
# expected to (polled or refused).
dm_poll_rule() {
	local want=$1 name=$2 table=$3 minor got
	shift 3
	dm_create "$name" "$table"
	minor=$(dmsetup info -c --noheadings -o minor "$name" | tr -d ' ')
	if [ "$(io_poll "dm-$minor")" = 1 ]; then
		got=polled
		poll_mark
		poll_verify_quick "/dev/mapper/$name" --hipri=1
		assert_polled "$@"
	else
		got=refused
		polled_read_refused "/dev/mapper/$name"
		poll_verify_quick "/dev/mapper/$name"
		not_polled "table '$table' does not poll"
	fi
	[ $got = "$want" ] || fail "table '$table': $got, but its targets are expected to be $want"
}

# dm-crypt encrypts into bios of its own
case_dm_crypt_poll() {
	nullb nullb1 poll_queues=2
	dm_poll_rule refused cr "0 $(sectors nullb1) crypt aes-xts-plain64 $DM_KEY 0 /dev/nullb1 0" nullb1
}

# dm-delay submits the clone later from a worker
case_dm_delay_poll() {
	nullb nullb1 poll_queues=2
	dm_poll_rule polled dl "0 $(sectors nullb1) delay /dev/nullb1 0 1" nullb1
}

# always down, corrupting a byte of each write: flakey writes a copy of
# every bio it is given (so fio only writes and reads, it cannot verify)
case_dm_flakey_poll() {
	local minor
	nullb nullb1 poll_queues=2
	dm_create fl "0 $(sectors nullb1) flakey /dev/nullb1 0 0 60 5 corrupt_bio_byte 1 w 0 0"
	minor=$(dmsetup info -c --noheadings -o minor fl | tr -d ' ')
	[ "$(io_poll "dm-$minor")" = 0 ] || fail "dm-flakey: io_poll is not 0"
	polled_read_refused /dev/mapper/fl
	for rw in randwrite randread; do
		run fio --name=poll --filename=/dev/mapper/fl --ioengine=io_uring \
			--direct=1 --rw=$rw --bs=4k --iodepth=16 \
			--size=8M --numjobs=2 --offset_increment=8M \
			--allow_file_create=0 --output=/tmp/fio.out
	done
	not_polled "dm-flakey does not poll"
}

case_dm_thin_poll() {
	nullb nullb1 size=16 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_create pool "0 $(sectors nullb2) thin-pool /dev/nullb1 /dev/nullb2 128 0"
	run dmsetup message pool 0 "create_thin 0"
	dm_poll_rule polled th "0 $(sectors nullb2) thin /dev/mapper/pool 0" nullb2
}

# dm-cache in writethrough mode writes a copy of each write to the origin
case_dm_cache_poll() {
	nullb nullb1 size=16 poll_queues=2
	nullb nullb2 size=64 poll_queues=2
	nullb nullb3 poll_queues=2
	dm_poll_rule refused ca "0 $(sectors nullb3) cache /dev/nullb1 /dev/nullb2 /dev/nullb3 512 1 writethrough default 0" nullb1 nullb2 nullb3
}

# dm-raid hands the bio to an md personality
case_dm_raid1_poll() {
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_poll_rule refused r1 "0 $(sectors nullb1) raid raid1 2 0 nosync 2 - /dev/nullb1 - /dev/nullb2" nullb1 nullb2
}

# dm_poll_in_map NAME TARGET: a table of TARGET (zero or error, which end
# each bio in ->map, no device below) polls, and polled reads complete:
# without error from zero (fio's buffers are zeroed already, so the data
# are not checked), with EIO from error.
dm_poll_in_map() {
	local minor
	dm_create "$1" "0 65536 $2"
	minor=$(dmsetup info -c --noheadings -o minor "$1" | tr -d ' ')
	[ "$(io_poll "dm-$minor")" = 1 ] || fail "a table of $2 does not poll"
	if [ "$2" = zero ]; then
		run fio --name=zero --filename="/dev/mapper/$1" --ioengine=io_uring \
			--direct=1 --hipri=1 --rw=randread --bs=4k --iodepth=16 \
			--size=16M --allow_file_create=0 --output-format=terse >/tmp/fio.out
	elif fio --name=error --filename="/dev/mapper/$1" --ioengine=io_uring \
		--direct=1 --hipri=1 --rw=randread --bs=4k --iodepth=16 \
		--size=16M --allow_file_create=0 >/tmp/fio.out 2>&1; then
		fail "a polled read of dm-error succeeded"
	else
		grep -q "Input/output error" /tmp/fio.out ||
			fail "a polled read of dm-error failed, but not with EIO: $(cat /tmp/fio.out)"
	fi
}

# the targets with no case above: error (always built in) and zero (with
# EXTRA_CONFIG=more-dm) end bios in ->map and poll; dust, unstriped and
# switch (each where the kernel has it) pass the clone on and poll;
# bio-based multipath resubmits the clone to another path and refuses
# (with the polling rule; without it, on a kernel before "dm: poll only
# through targets that pass dm's clone on", it polls).
case_dm_other_targets_poll() {
	local n=0
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=2
	dm_poll_in_map er error
	if dmsetup targets | grep -qw zero; then
		dm_poll_in_map zr zero
		n=$((n + 1))
	fi
	if dm_has_poll_rule; then
		dm_poll_rule refused mpb "0 $(sectors nullb1) multipath 2 queue_mode bio 0 1 1 round-robin 0 1 1 /dev/nullb1 1" nullb1
	else
		log "no polling rule in this kernel: bio-based multipath not checked"
	fi
	if dmsetup targets | grep -qw dust; then
		dm_poll_rule polled du "0 $(sectors nullb1) dust /dev/nullb1 0 4096" nullb1
		n=$((n + 1))
	fi
	if dmsetup targets | grep -qw unstriped; then
		dm_poll_rule polled un "0 $(( $(sectors nullb2) / 2 )) unstriped 2 128 1 /dev/nullb2 0" nullb2
		n=$((n + 1))
	fi
	if dmsetup targets | grep -qw switch; then
		dm_poll_rule polled sw "0 $(sectors nullb1) switch 2 128 0 /dev/nullb1 0 /dev/nullb2 0" nullb1 nullb2
		n=$((n + 1))
	fi
	log "$n of zero, dust, unstriped, switch in this kernel"
	# zero and error have no device below to count polled requests on
	[ -e /tmp/polled-asserted ] || not_polled "only zero and error, nothing below"
}

# Polled I/O while the table is reloaded, again and again, between one
# that polls (linear) and one that does not (linear and crypt): a polled
# bio checked against one table and mapped by the other must complete (by
# polling or by interrupt, or fail with EOPNOTSUPP while the other table
# refuses polling), nothing may be left pending (each suspend waits for
# every dm_io, and the device is removed at the end), and data written
# afterwards verifies. Both tables must have seen I/O: polled completions
# below, and refusals.
case_dm_reload_poll() {
	local half lin mix i pid errs
	nullb nullb1 poll_queues=2
	half=$(( $(sectors nullb1) / 2 ))
	lin="0 $((half * 2)) linear /dev/nullb1 0"
	mix="0 $half linear /dev/nullb1 0
$half $half crypt aes-xts-plain64 $DM_KEY 0 /dev/nullb1 $half"
	dm_create rl "$lin"
	poll_mark
	fio --name=rl --filename=/dev/mapper/rl --ioengine=io_uring --direct=1 \
		--hipri=1 --rw=randrw --bs=4k --iodepth=16 --numjobs=2 \
		--time_based --runtime=600 --continue_on_error=all \
		--ignore_error=95,95 \
		--output=/tmp/fio-reload.out >/dev/null 2>&1 &
	pid=$!
	sleep 2
	for i in 1 2 3 4 5; do
		run dmsetup load rl --table "$mix"
		run dmsetup suspend rl
		run dmsetup resume rl
		sleep 1
		run dmsetup load rl --table "$lin"
		run dmsetup suspend rl
		run dmsetup resume rl
		sleep 1
	done
	kill -0 $pid 2>/dev/null || fail "fio ended before the reloads did: $(grep -iE "err|fio:" /tmp/fio-reload.out | head -8)"
	kill -INT $pid
	wait $pid || true
	errs=$(sed -n 's/.*errors *: total=\([0-9]*\).*/\1/p' /tmp/fio-reload.out | awk '{ n += $1 } END { print n + 0 }')
	[ "$errs" -gt 0 ] || fail "no polled I/O was refused: none ran while the table did not poll"
	if grep "first_error=" /tmp/fio-reload.out | grep -v "first_error=95/"; then
		fail "polled I/O failed with an error other than EOPNOTSUPP"
	fi
	log "$errs polled I/Os refused while the linear+crypt table was live"
	assert_polled nullb1
	fio_verify /dev/mapper/rl --hipri=1 --size=16M
}

# a table that mixes a target that polls (linear) with one that does not
# (crypt) does not poll
case_dm_mixed_table_poll() {
	local half
	nullb nullb1 poll_queues=2
	half=$(( $(sectors nullb1) / 2 ))
	dm_poll_rule refused mx "0 $half linear /dev/nullb1 0
$half $half crypt aes-xts-plain64 $DM_KEY 0 /dev/nullb1 $half" nullb1
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

# dm-inlinecrypt over null_blk, which has no inline encryption: the block
# layer's crypto fallback encrypts every write into bios of its own (7.2 and
# later; the target is not in 6.12). The fallback refuses an XTS key whose
# halves are equal (EINVAL on the first write), so not DM_KEY twice.
case_dm_inlinecrypt_poll() {
	local key=00112233445566778899aabbccddeeff102132435465768798a9bacbdcedfe0f
	key=${key}fedcba9876543210fedcba9876543210f0e1d2c3b4a5968778695a4b3c2d1e0f
	dmsetup targets | grep -qw inlinecrypt ||
		skip "no dm-inlinecrypt in this kernel (new in 7.x)"
	nullb nullb1 poll_queues=2
	# the writes complete by interrupt; the verifying reads are polled
	dm_poll_rule polled ic "0 $(sectors nullb1) inlinecrypt aes-xts-plain64 $key 0 /dev/nullb1 0" nullb1
}

# dm-zoned reads and writes through clones it submits from a work queue
case_dm_zoned_poll() {
	nullb nullb1 size=512 zoned=1 zone_size=16 zone_nr_conv=8 poll_queues=2
	dmz_format /dev/nullb1
	dm_poll_rule refused dz "0 $((DMZ_CHUNKS * 32768)) zoned /dev/nullb1" nullb1
}

# dm_has_poll_rule: this kernel has "dm: poll only through targets that
# pass dm's clone on" (a dm-crypt table over a polling null_blk refuses
# polled I/O only with it). A kernel with the stable fixes alone does not.
dm_has_poll_rule() {
	local minor r
	nullb nullb9 poll_queues=2
	dm_create rule "0 $(sectors nullb9) crypt aes-xts-plain64 $DM_KEY 0 /dev/nullb9 0"
	minor=$(dmsetup info -c --noheadings -o minor rule | tr -d ' ')
	r=$(io_poll "dm-$minor")
	run dmsetup remove rule
	case $r in 0|1) ;; *) fail "io_poll of the dm-crypt probe: '$r'" ;; esac
	[ "$r" = 0 ]
}

sectors_read() { awk '{ print $3 }' "/sys/block/$1/stat"; }

# pcache_misses BACKING: data written to BACKING directly, then read back
# and verified through a new dm-pcache device on /dev/pmem0, whose cache
# is empty, so that every read misses and goes to BACKING (checked: at
# least the 16 MiB read there). With the polling rule the table refuses
# polled I/O and the reads are not polled; without it (the stable fixes
# alone) the table advertises polling, whatever BACKING does, and the
# reads are polled.
pcache_misses() {
	local back=$1 minor before data
	data="--name=data --ioengine=io_uring --direct=1 --rw=randwrite --bs=4k
		--iodepth=16 --size=16M --verify=crc32c --verify_fatal=1
		--allow_file_create=0 --output-format=terse"
	# no cache left from an earlier pass: dm-pcache formats a blank device
	run dd if=/dev/zero of=/dev/pmem0 bs=1M count=32 oflag=direct status=none
	run fio $data --filename="/dev/$back" --do_verify=0 >/tmp/fio.out
	dm_create pc "0 $(sectors "$back") pcache /dev/pmem0 /dev/$back 4 cache_mode writeback data_crc false"
	minor=$(dmsetup info -c --noheadings -o minor pc | tr -d ' ')
	before=$(sectors_read "$back")
	if [ "$PCACHE_RULE" = yes ]; then
		[ "$(io_poll "dm-$minor")" = 0 ] ||
			fail "dm-pcache over $back advertises polling"
		polled_read_refused /dev/mapper/pc
		run fio $data --filename=/dev/mapper/pc --verify_only=1 >/tmp/fio.out
	else
		[ "$(io_poll "dm-$minor")" = 1 ] ||
			fail "dm-pcache over $back does not advertise polling on a kernel without the rule"
		run fio $data --filename=/dev/mapper/pc --verify_only=1 --hipri=1 >/tmp/fio.out
	fi
	[ $(($(sectors_read "$back") - before)) -ge 32768 ] ||
		fail "$(($(sectors_read "$back") - before)) sectors read from $back: the reads did not miss the cache"
	run dmsetup remove pc
}

# dm-pcache (6.18 and later) caches on a DAX device, here legacy pmem: a
# kernel built with EXTRA_CONFIG=more-dm (configs/more-dm.config), booted
# with memmap=512M!2G (tests/run -e). It reads what it has not cached from
# the backing device through copies of dm's clone. Over a backing device
# that polls and one that does not: with the polling rule, the table
# refuses polled I/O; on the stable fixes alone, polled reads that miss
# the cache verify ("dm pcache: do not poll the backing bios made from a
# polled bio"; without it they wait for null_blk's request timeout over
# the first device and fail with EOPNOTSUPP over the second).
case_dm_pcache_poll() {
	dmsetup targets | grep -qw pcache ||
		skip "no dm-pcache in this kernel (build it with EXTRA_CONFIG=more-dm)"
	[ -b /dev/pmem0 ] || skip "no /dev/pmem0 (tests/run -e 'memmap=512M!2G')"
	[ "$(sectors pmem0)" -ge 1048576 ] ||
		skip "/dev/pmem0 is smaller than dm-pcache's 512 MiB"
	PCACHE_RULE=no
	! dm_has_poll_rule || PCACHE_RULE=yes
	log "polling rule: $PCACHE_RULE"
	nullb nullb1 poll_queues=2
	nullb nullb2 poll_queues=0
	[ "$(io_poll nullb2)" = 0 ] || fail "nullb2 polls"
	pcache_misses nullb1
	pcache_misses nullb2
	not_polled "dm-pcache's reads complete by interrupt below"
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
# completes by interrupt), on /dev/md0; then uring-poll over all of it.
md_poll_matrix() {
	[ "$(io_poll md0)" = 1 ] || fail "md0 over polling null_blk: io_poll is $(io_poll md0)"
	poll_verify /dev/md0
	fio_verify /dev/md0 --hipri=1 --bs=96k --size=24M
	fio_verify /dev/md0 --hipri=1 --rw=randrw --bs=96k --numjobs=2 \
		--size=12M --offset_increment=12M --group_reporting
	# the whole array, every member, in blocks that cross chunk and
	# member boundaries too (md hands the rest of those to a worker)
	uring_poll /dev/md0 -m flood -d 64 -n 4000
	uring_poll /dev/md0 -m flood -d 32 -n 1000 -b 96k
	assert_polled $(md_members md0)
}

# md_members MD: the member devices of MD (nullb1 ...).
md_members() {
	ls "/sys/block/$1/slaves"
}

case_md_linear_poll() { md_array linear 2; md_poll_matrix; }
case_md_raid0_poll()  { md_array 0 2; md_poll_matrix; }
case_md_raid1_poll()  { md_array 1 2; md_poll_matrix; }
case_md_raid10_poll() { md_array 10 4; md_poll_matrix; }

# md_reads_inline LEVEL N: raid1 and raid10 take REQ_NOWAIT reads (7.2's
# series; upstream removed REQ_NOWAIT from them in 3fe5b7c9fb72), so that
# io_uring issues them from its own task, not from io-wq. Counted with
# io_wq_enqueue() in each phase: writes are still refused under REQ_NOWAIT
# and nearly all go to io-wq (on 7.2; 6.12 takes them); then the same blocks
# are read back and verified by interrupt and polled, with fewer than one
# read in ten handed to io-wq, and the polled ones polled; read again 512
# deep, members run out of tags and refuse reads, which io-wq issues again
# (on 6.12 md's work item, md_poll_requeue(), whose runs are counted there).
# On raid10 the reads run once more during a repair, which bars the buckets
# it works in: some reads are refused there and go to io-wq, the data
# verifies, the repair runs to its end (a count the refusal left behind would
# hang it) and a check finds no mismatch.
md_reads_inline() {
	local level=$1 n=4096 w q hipri args
	md_array "$level" "$2"
	args="--name=inline --filename=/dev/md0 --ioengine=io_uring --direct=1
		--rw=randwrite --bs=4k --iodepth=16 --size=16M --verify=crc32c
		--verify_fatal=1 --allow_file_create=0"
	probe_add iowq io_wq_enqueue
	case $(uname -r) in 6.12.*) probe_add mdrq md_poll_requeue_work ;; esac
	w=$(probe_hits iowq)
	# shellcheck disable=SC2086
	run fio $args --do_verify=0 >/tmp/fio.out
	w=$(($(probe_hits iowq) - w))
	log "writes: $w of $n handed to io-wq"
	# 6.12's raid1 and raid10 take REQ_NOWAIT writes too (upstream's code)
	case $(uname -r) in 6.12.*) ;; *)
		[ "$w" -ge $((n * 9 / 10)) ] ||
			fail "writes: only $w of $n handed to io-wq (REQ_NOWAIT writes taken?)"
	esac
	for hipri in 0 1; do
		poll_mark
		q=$(probe_hits iowq)
		# shellcheck disable=SC2086
		run fio $args --verify_only=1 --hipri=$hipri >/tmp/fio.out
		q=$(($(probe_hits iowq) - q))
		log "reads (hipri=$hipri): $q of $n handed to io-wq"
		[ $((q * 10)) -lt "$n" ] ||
			fail "reads (hipri=$hipri): $q of $n handed to io-wq, not issued by fio's task"
	done
	assert_polled $(md_members md0)

	# 512 polled reads in flight: the members run out of tags, refuse
	# REQ_NOWAIT reads, and md ends those with EAGAIN (no read error, no
	# retry: after_case's md_state_check sees no member error) for io-wq
	# to issue again
	tags_mark
	q=$(reads_again)
	# shellcheck disable=SC2086
	run fio $args --verify_only=1 --hipri=1 --iodepth=512 >/tmp/fio.out
	q=$(($(reads_again) - q))
	set -- $TAGS_MARK
	w=$(($(probe_hits notag) - $2))
	log "reads 512 deep: $w refused by a member without a free tag, $q times issued again (io-wq; on 6.12 runs of md's requeue work)"
	[ "$w" -gt 0 ] || fail "no member refused a REQ_NOWAIT read for want of a tag"
	[ "$q" -gt 0 ] || fail "no read a member refused was issued again"
	[ "$level" = 10 ] || return 0

	resync_speed slow 2000
	echo repair > /sys/block/md0/md/sync_action || fail "md0: cannot start a repair"
	q=$(probe_hits iowq)
	# shellcheck disable=SC2086
	run fio $args --verify_only=1 --hipri=1 >/tmp/fio.out
	q=$(($(probe_hits iowq) - q))
	overlap "grep -q repair /sys/block/md0/md/sync_action" \
		"the repair finished before the reads did"
	log "reads during the repair: $q of $n refused and handed to io-wq"
	[ "$q" -gt 0 ] || race_lost "no read met a bucket the repair barred"
	resync_speed fast
	md_wait /dev/md0
	[ "$(cat /sys/block/md0/md/last_sync_action)" = repair ] ||
		fail "md0: last_sync_action is $(cat /sys/block/md0/md/last_sync_action)"
	md_check_clean /dev/md0
}

# reads_again: how often the polled reads a member refused were issued
# again: by io-wq, or on 6.12 by md's work item (md_poll_requeue(); its
# runs, each for one or more)
reads_again() {
	case $(uname -r) in
	6.12.*) probe_hits mdrq ;;
	*) probe_hits iowq ;;
	esac
}

case_md_raid1_reads_inline()  { md_reads_inline 1 2; }
case_md_raid10_reads_inline() { md_reads_inline 10 4; }

# raid1's refusals of polled REQ_NOWAIT reads (io_uring's first attempt,
# made from fio's task), with bad blocks recorded in md on both mirrors and
# garbage written under each of them (CONFIG_BLK_DEV_WRITE_MOUNTED), so that
# a read md sends to a bad block fails fio's verify. Three 1M regions:
# - the third has no bad block: the control, polled reads stay in fio's
#   task (fewer than one in ten to io-wq) and none is split;
# - in the first each 64k read can be read only in two parts (nullb1 has a
#   bad block in its second half, nullb2 one at its start): raid1 refuses
#   the read rather than split it, io-wq issues it again without
#   REQ_NOWAIT, and raid1 splits it: the front part from nullb1 by
#   interrupt (nullb1 completes nothing by polling), the rest from nullb2,
#   polled (at least one polled completion per read);
# - in the second only nullb2, now write-mostly, can serve a read (nullb1 is
#   bad there): 6.12 refuses every such read (it might wait for writes
#   behind); 7.2 refuses it only while writes are behind, which this case
#   makes none of (no bitmap), so the reads stay in fio's task there.
# Counted in each phase: reads handed to io-wq, raid1's splits, the sectors
# each mirror read and the requests each completed by polling.
case_md_raid1_poll_refused_reads() {
	local d=/sys/block/md0/md off1 off2 k n=16 split
	case $(uname -r) in
	6.12.*) split=bio_split ;;
	*) split=bio_submit_split_bioset ;;
	esac
	md_array 1 2
	for k in 0 1M 2M; do
		fio_verify /dev/md0 --offset=$k --size=1M --bs=64k --rw=write
	done
	off1=$(cat "$d/dev-nullb1/offset") off2=$(cat "$d/dev-nullb2/offset")
	RECORDED_BAD="nullb1 nullb2"
	for k in $(seq 0 $((n - 1))); do
		bad_block nullb1 $((off1 + k * 128 + 64)) 8
		bad_block nullb2 $((off2 + k * 128)) 8
	done
	for k in 0 1 2 3; do
		bad_block nullb1 $((off1 + 2048 + k * 512)) 512
	done
	probe_add iowq io_wq_enqueue
	probe_add split "$split"

	refused_reads_phase 2M
	log "control: $Q of $n reads handed to io-wq, $S split"
	[ $((Q * 10)) -lt "$n" ] || fail "control: $Q of $n polled reads handed to io-wq"
	[ "$S" = 0 ] || fail "control: $S reads split"

	refused_reads_phase 0
	log "reads in two parts: $Q of $n handed to io-wq, $S split; read $R1 + $R2 sectors, polled $P1 + $P2 requests (nullb1 + nullb2)"
	[ "$Q" -ge "$n" ] || fail "only $Q of $n reads raid1 must split were refused to io-wq"
	[ "$S" -ge "$n" ] || fail "only $S of $n reads were split"
	[ "$R1" -ge $((n * 64)) ] && [ "$R2" -ge $((n * 64)) ] ||
		fail "the mirrors read $R1 and $R2 sectors, not each its part of $n reads"
	[ "$P1" = 0 ] || fail "nullb1 completed $P1 requests by polling: a front part was polled"
	[ "$P2" -ge "$n" ] || fail "nullb2 completed $P2 requests by polling, fewer than the $n rests"

	echo writemostly > "$d/dev-nullb2/state" || fail "cannot make nullb2 write-mostly"
	refused_reads_phase 1M
	log "reads of the write-mostly mirror: $Q of $n handed to io-wq, $S split; read $R1 + $R2 sectors, polled $P1 + $P2 requests"
	[ "$R2" -ge 2048 ] || fail "nullb2 (write-mostly) read $R2 sectors, not the 2048 only it can serve"
	[ "$S" = 0 ] || fail "$S reads of the write-mostly mirror were split"
	[ "$P2" -ge "$n" ] || fail "nullb2 completed $P2 requests by polling, fewer than the $n reads"
	case $(uname -r) in
	6.12.*) [ "$Q" -ge "$n" ] ||
		fail "only $Q of $n reads of a write-mostly mirror were refused to io-wq" ;;
	*) [ $((Q * 10)) -lt "$n" ] ||
		fail "$Q of $n reads of a write-mostly mirror handed to io-wq with no writes behind" ;;
	esac
	assert_polled nullb2
}

# bad_block MEMBER SECTOR LEN: record a bad block in md (the member's own
# sectors, data offset included) and write garbage there.
bad_block() {
	echo "$2 $3" > "/sys/block/md0/md/dev-$1/bad_blocks" ||
		fail "cannot record a bad block on $1"
	dd if=/dev/urandom of="/dev/$1" bs=512 seek="$2" count="$3" oflag=direct \
		conv=notrunc status=none || fail "cannot write garbage to $1 at $2"
}

# refused_reads_phase OFFSET: polled reads of the 1M at OFFSET, verified;
# sets Q (io-wq hand-offs), S (splits), R1/R2 (sectors nullb1/nullb2 read)
# and P1/P2 (requests they completed by polling) for that phase.
refused_reads_phase() {
	local r1 r2
	poll_mark
	Q=$(probe_hits iowq) S=$(probe_hits split)
	r1=$(awk '{ print $3 }' /sys/block/nullb1/stat)
	r2=$(awk '{ print $3 }' /sys/block/nullb2/stat)
	fio_verify /dev/md0 --offset="$1" --size=1M --bs=64k --rw=write \
		--verify_only --hipri=1
	Q=$(($(probe_hits iowq) - Q)) S=$(($(probe_hits split) - S))
	R1=$(($(awk '{ print $3 }' /sys/block/nullb1/stat) - r1))
	R2=$(($(awk '{ print $3 }' /sys/block/nullb2/stat) - r2))
	P1=$(($(poll_stats nullb1 | cut -d' ' -f2) - $(poll_marked nullb1 | cut -d' ' -f2)))
	P2=$(($(poll_stats nullb2 | cut -d' ' -f2) - $(poll_marked nullb2 | cut -d' ' -f2)))
}

# A member without REQ_NOWAIT (dm-delay, which does not declare
# DM_TARGET_NOWAIT) replaces a raid1 mirror while polled reads run from a
# file opened before: the array keeps taking REQ_NOWAIT
# (mddev_stack_new_rdev()), so those reads do not fail with EOPNOTSUPP;
# once the new mirror is in sync, the reads md would send to it are
# refused and io-wq issues them again (counted), the data verifies, and no
# member counts an error.
case_md_raid1_nowait_member_joins() {
	local pid q
	case $(uname -r) in 6.12.*)
		skip "6.12: a member without REQ_NOWAIT turns it off (upstream's raid1)" ;;
	esac
	md_array 1 2
	nullb nullb3 size=128 poll_queues=2
	dm_create slow "0 $(sectors nullb3) delay /dev/nullb3 0 0"
	fio_verify /dev/md0 --size=16M
	probe_add iowq io_wq_enqueue
	fio_verify /dev/md0 --hipri=1 --size=16M --verify_only \
		--loops="$(slower 8)" &
	pid=$!
	sleep 1
	allow_kernel "Disk failure on nullb2,"
	run mdadm /dev/md0 --fail /dev/nullb2
	run mdadm /dev/md0 --remove /dev/nullb2
	# recovery at 100 MB/s under the reads (md would hold it at the
	# minimum while the array is busy)
	resync_speed slow 100000
	run mdadm /dev/md0 --add /dev/mapper/slow
	wait_for "[ \$(cat /sys/block/md0/md/degraded) = 0 ]" 300
	md_wait /dev/md0
	resync_speed fast
	poll_mark
	q=$(probe_hits iowq)
	sleep 5
	q=$(($(probe_hits iowq) - q))
	# a fio that failed is a failure, not a lost race
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" || fail "polled reads failed while a member without REQ_NOWAIT joined: $(tail -n 3 /tmp/fio.out)"
		race_lost "the reads ended before the new mirror was in sync"
	fi
	wait "$pid" || fail "polled reads failed while a member without REQ_NOWAIT joined: $(tail -n 3 /tmp/fio.out)"
	log "reads after the new mirror was in sync: $q handed to io-wq"
	[ "$q" -gt 0 ] || fail "no read to the member without REQ_NOWAIT was refused"
	md_check_clean /dev/md0
	assert_polled nullb1 nullb3
}

# A mirror fails while polled I/O runs; it is removed, added back and
# recovers while polled I/O runs again. Then the member that never failed
# fails in turn: what was written during recovery reads back from the
# recovered member alone.
md_poll_fail_recover() {
	local pid writes
	resync_speed fast
	md_array "$@"
	writes=$(awk '{print $5}' /sys/block/md0/stat)
	fio_verify /dev/md0 --hipri=1 --size=16M --rw=randrw --numjobs=2 \
		--offset_increment=16M &
	pid=$!
	# fewer writes before the failure on each retry after a lost race
	wait_for "[ \$(awk '{print \$5}' /sys/block/md0/stat) -gt $((writes + 100 / $(slower 1))) ]" 60
	allow_kernel "Disk failure on nullb[12],"
	run mdadm /dev/md0 --fail /dev/nullb2
	overlap "kill -0 $pid 2>/dev/null" "polled fio finished before the member failed"
	wait "$pid" || fail "polled fio failed while a member failed"
	grep -q '_' /proc/mdstat || fail "array not degraded after --fail"
	run mdadm /dev/md0 --remove /dev/nullb2
	resync_speed slow
	run mdadm /dev/md0 --add /dev/nullb2
	# the member's polling before it failed does not count
	poll_mark
	fio_verify /dev/md0 --hipri=1 --offset=96M --size=16M
	overlap "grep -qE 'recovery|resync' /proc/mdstat" "the recovery ended before fio did"
	resync_speed fast
	md_wait /dev/md0
	grep -q '_' /proc/mdstat && fail "array still degraded: $(cat /proc/mdstat)"
	md_check_clean /dev/md0
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after recovery"
	assert_polled nullb2
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
	not_polled "raid5 refuses polled I/O"
}

# md_reassemble DEV...: stop md0 and assemble it again from DEV...
md_reassemble() {
	run mdadm --stop /dev/md0
	run mdadm --assemble /dev/md0 --run "$@"
	# raid0 and linear have no sync_action
	[ ! -e /sys/block/md0/md/sync_action ] || md_wait /dev/md0
}

# A member without poll queues: the array polls if any member does, and
# the bios to that member complete by interrupt (its share of a polled
# fio verifies); io_poll is the same after the array is assembled again.
case_md_member_without_poll() {
	local n2
	nullb nullb1 size=128 poll_queues=2
	nullb nullb2 size=128 poll_queues=0
	run mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=2 \
		/dev/nullb1 /dev/nullb2
	[ "$(io_poll md0)" = 1 ] ||
		fail "md raid0 with one polling member: io_poll is $(io_poll md0)"
	poll_mark
	n2=$(awk '{ print $1 + $5 }' /sys/block/nullb2/stat)
	fio_verify /dev/md0 --hipri=1 --size=64M
	assert_polled nullb1
	[ "$(awk '{ print $1 + $5 }' /sys/block/nullb2/stat)" -gt "$n2" ] ||
		fail "no polled I/O reached the member without poll queues"
	md_reassemble /dev/nullb1 /dev/nullb2
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after the array was assembled again"
	poll_mark
	fio_verify /dev/md0 --hipri=1 --size=64M --verify_only
	assert_polled nullb1
}

# raid1 of two mirrors without poll queues does not poll; a mirror that
# polls replaces one of them and turns polling on, and the array
# assembled again from the same two keeps it on.
case_md_raid1_polling_member_joins() {
	nullb nullb1 size=128 poll_queues=0
	nullb nullb2 size=128 poll_queues=0
	nullb nullb3 size=128 poll_queues=2
	run mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --assume-clean \
		/dev/nullb1 /dev/nullb2
	[ "$(io_poll md0)" = 0 ] || fail "raid1 without polling mirrors: io_poll is not 0"
	polled_read_refused /dev/md0
	fio_verify /dev/md0 --size=32M
	allow_kernel "Disk failure on nullb2,"
	run mdadm /dev/md0 --fail /dev/nullb2
	run mdadm /dev/md0 --remove /dev/nullb2
	run mdadm /dev/md0 --add /dev/nullb3
	md_wait /dev/md0
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after a polling mirror joined"
	md_reassemble /dev/nullb1 /dev/nullb3
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after the array was assembled again"
	poll_mark
	fio_verify /dev/md0 --hipri=1 --size=32M --verify_only
	fio_verify /dev/md0 --hipri=1 --size=16M --offset=32M
	assert_polled nullb3
	md_check_clean /dev/md0
}

# raid1 with five mirrors: a polled write goes to all five, and every
# mirror's write is polled (md polls any number of lower bios per md bio).
case_md_raid1_five_mirrors_poll() {
	# with a bitmap, raid1 parks each write on a plug (or hands it to
	# raid1d) before it is submitted
	MD_NULLB="size=128 poll_queues=2" md_create 1 5 --assume-clean --bitmap=internal
	poll_mark
	# writes only in this phase: a read goes to one mirror
	run fio --name=w5 --filename=/dev/md0 --ioengine=io_uring --direct=1 \
		--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--verify=crc32c --do_verify=0 --allow_file_create=0
	assert_polled nullb1 nullb2 nullb3 nullb4 nullb5
	run fio --name=w5 --filename=/dev/md0 --ioengine=io_uring --direct=1 \
		--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--verify=crc32c --verify_only=1 --verify_fatal=1 --allow_file_create=0
	md_check_clean /dev/md0
}

# raid10 near3 with a replacement under way: a polled write goes to the
# three copies and to the replacement, and all four members are polled.
# The recovery stops at sync_max 0, so the replacement stays in progress.
case_md_raid10_near3_replacement_poll() {
	local md=/sys/block/md0/md
	MD_NULLB="size=128 poll_queues=2" md_create 10 3 --layout=n3 --chunk=64 \
		--assume-clean --bitmap=internal
	nullb nullb4 size=128 poll_queues=2
	# the replaced member is marked faulty once the copy is done
	allow_kernel "Disk failure on nullb1,"
	echo frozen > $md/sync_action
	echo 0 > $md/sync_max
	run mdadm /dev/md0 --add /dev/nullb4
	run mdadm /dev/md0 --replace /dev/nullb1 --with /dev/nullb4
	echo idle > $md/sync_action
	wait_for "grep -q recover $md/sync_action" 30
	grep -q 'nullb4\[[0-9]*\](R)' /proc/mdstat ||
		fail "nullb4 is not a replacement: $(cat /proc/mdstat)"
	poll_mark
	run fio --name=r3 --filename=/dev/md0 --ioengine=io_uring --direct=1 \
		--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--verify=crc32c --do_verify=0 --allow_file_create=0
	assert_polled nullb1 nullb2 nullb3 nullb4
	echo max > $md/sync_max
	md_wait /dev/md0
	run fio --name=r3 --filename=/dev/md0 --ioengine=io_uring --direct=1 \
		--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--verify=crc32c --verify_only=1 --verify_fatal=1 --allow_file_create=0
	md_check_clean /dev/md0
}

# Polled writes in flight while the array is reconfigured: a write-intent
# bitmap added and removed, serialize_policy switched on and off, and the
# writes' range suspended and resumed. Nothing fails or hangs, every block
# written verifies (fio's verify_backlog reads each back soon after it is
# written), the I/O after the last change is polled, and the array ends
# clean.
case_md_raid1_poll_reconfigure() {
	local pid md=/sys/block/md0/md
	md_array 1 2
	fio --name=rc --filename=/dev/md0 --ioengine=io_uring --direct=1 \
		--hipri=1 --rw=randwrite --bs=4k --iodepth=16 --size=32M \
		--time_based --runtime=600 --verify=crc32c --verify_backlog=64 \
		--verify_fatal=1 --allow_file_create=0 \
		--output=/tmp/fio-rc.out >/dev/null 2>&1 &
	pid=$!
	sleep 2
	run mdadm --grow /dev/md0 --bitmap=internal
	sleep 1
	echo 1 > $md/serialize_policy || fail "serialize_policy cannot be set"
	sleep 1
	echo 0 > $md/serialize_policy || fail "serialize_policy cannot be cleared"
	sleep 1
	# the whole range fio writes to waits for a second
	echo $((32 * 2048)) > $md/suspend_hi || fail "suspend_hi cannot be set"
	sleep 1
	echo 0 > $md/suspend_hi || fail "suspend_hi cannot be cleared"
	sleep 1
	run mdadm --grow /dev/md0 --bitmap=none
	poll_mark
	sleep 2
	overlap "kill -0 $pid 2>/dev/null" "fio ended before the changes did"
	kill -INT $pid
	wait $pid || true
	grep -q "err= 0:" /tmp/fio-rc.out ||
		fail "polled writes failed while the array changed: $(grep -iE "err|fio:" /tmp/fio-rc.out | head -5)"
	assert_polled nullb1 nullb2
	fio_verify /dev/md0 --hipri=1 --size=16M --offset=64M
	md_check_clean /dev/md0
}

# A mirror without poll queues replaces a failed one while polled I/O
# runs: the array keeps polling (its bios to the new mirror complete by
# interrupt); nothing fails or hangs, and what was written reads back.
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
	allow_kernel "Disk failure on nullb2,"
	run mdadm /dev/md0 --fail /dev/nullb2
	run mdadm /dev/md0 --remove /dev/nullb2
	run mdadm /dev/md0 --add /dev/nullb3
	poll_mark
	overlap "kill -0 $pid 2>/dev/null" "polled fio ended before the mirror was replaced"
	wait "$pid" || fail "polled fio failed while the mirror was replaced: $(tail -n 3 /tmp/fio-poll.out)"
	md_wait /dev/md0
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after a non-polling mirror joined"
	fio_verify /dev/md0 --hipri=1 --size=32M --verify_only
	uring_poll /dev/md0 -m flood -d 64 -n 4000
	md_check_clean /dev/md0
	# polled since the non-polling mirror joined
	assert_polled nullb1
	# the same members, assembled again: the same io_poll
	md_reassemble /dev/nullb1 /dev/nullb3
	[ "$(io_poll md0)" = 1 ] || fail "io_poll is not 1 after the array was assembled again"
	poll_mark
	# uring-poll wrote its own blocks over part of fio's: write afresh
	fio_verify /dev/md0 --hipri=1 --size=32M
	assert_polled nullb1
}

# Stopping an array right after polled I/O.
case_md_stop_after_poll() {
	md_array 0 2
	fio --name=poll --filename=/dev/md0 --ioengine=io_uring --direct=1 --hipri=1 \
		--rw=randread --bs=4k --iodepth=32 --size=32M >/tmp/fio.out 2>&1 ||
		fail "polled read failed: $(tail -n 3 /tmp/fio.out)"
	assert_polled nullb1 nullb2
	run mdadm --stop /dev/md0
}

# QEMU's emulated NVMe disk, which tests/run adds with one poll queue for
# both CPUs (nvme.poll_queues=1): the two polling jobs of poll_verify share
# it, so each often reaps the other's completions.
case_nvme_poll_shared_queue() {
	[ -b /dev/nvme0n1 ] || skip "no NVMe disk (tests/run adds one)"
	[ "$(cat /sys/module/nvme/parameters/poll_queues)" = 1 ] ||
		skip "nvme.poll_queues is not 1"
	[ "$(io_poll nvme0n1)" = 1 ] || fail "nvme with a poll queue: io_poll is not 1"
	poll_mark
	poll_verify /dev/nvme0n1
	assert_polled nvme0n1
}

# --- polled I/O that strands lower bios unless md polls exactly the bios it
# submitted (tests/tools/uring-poll.c): more I/Os in flight than the
# members have tags, a completion queue far smaller than the I/Os in flight,
# rings closed with I/O in flight, several rings and SQPOLL threads.

# md_array_shallow LEVEL N [mdadm options]: md_array over members with 16
# tags per poll queue, so that uring-poll's 256 I/Os in flight run out of
# tags: a member bio with REQ_NOWAIT (raid0 and linear, raid1 and raid10
# reads) fails with EAGAIN, which ends the md bio with it and io_uring
# issues it again from io-wq (on 6.12 md issues it again itself:
# md_poll_requeue()); raid1 and raid10 writes are refused under REQ_NOWAIT,
# submitted from io-wq and wait for a tag there.
md_array_shallow() {
	local level=$1 n=$2 chunk=
	shift 2
	case $level in 0|10) chunk=--chunk=64 ;; esac
	MD_NULLB="size=128 poll_queues=2 hw_queue_depth=16" \
		md_create "$level" "$n" $chunk --assume-clean "$@"
}

md_poll_deep() {
	md_array_shallow "$@"
	poll_mark
	tags_mark
	uring_poll /dev/md0 -m flood -d 256 -n 20000
	uring_poll_no_eagain
	uring_poll /dev/md0 -m flood -d 256 -n 4000 -b 8k -w 30
	uring_poll_no_eagain
	# 12k at 4k offsets: one I/O in eight crosses a 64k chunk, which 6.12's
	# raid0 would split itself (it has no chunk_sectors limit): md refuses
	# such a bio under REQ_NOWAIT, as the block layer does elsewhere, and
	# io-wq issues it again; no refusal may end a polled bio in its poller
	uring_poll /dev/md0 -m flood -d 256 -n 4000 -b 12k -w 30
	uring_poll_no_eagain
	tags_ran_out
	assert_polled $(md_members md0)
}
case_md_raid0_poll_deep()  { md_poll_deep 0 2; }
case_md_raid1_poll_deep()  { md_poll_deep 1 2; }
case_md_raid10_poll_deep() { md_poll_deep 10 4; }
case_md_raid10_far2_poll_deep()    { md_poll_deep 10 4 --layout=f2; }
case_md_raid10_offset2_poll_deep() { md_poll_deep 10 4 --layout=o2; }

# a completion queue of 8 entries (uring-poll -m overflow), 256 I/Os
# submitted, reaped only after 500 ms: completions wait in the lower
# devices while the ring cannot take them. The CQ itself does not overflow
# (uring-poll prints the rounds in which it does; so far none): io_uring
# polls an IOPOLL ring only while no CQE is pending, and no poll here has
# posted more CQEs than the CQ holds. Hence the name: small_cq.
case_md_raid1_poll_small_cq() {
	md_array_shallow 1 2
	uring_poll /dev/md0 -m overflow -q 8 -d 256 -p 500 -n 4000
	assert_polled $(md_members md0)
}

case_md_raid10_poll_small_cq() {
	md_array_shallow 10 4
	uring_poll /dev/md0 -m overflow -q 8 -d 256 -p 500 -n 4000
	assert_polled $(md_members md0)
}

# rings closed with polled I/O in flight: the close neither hangs nor loses
# a write it reported
case_md_raid1_poll_ring_closed() {
	md_array_shallow 1 2
	uring_poll /dev/md0 -m close -d 128 -r 20
	assert_polled $(md_members md0)
}

case_md_raid10_poll_ring_closed() {
	md_array_shallow 10 4
	uring_poll /dev/md0 -m close -d 128 -r 20
	assert_polled $(md_members md0)
}

# four rings pinned to the CPUs, with SQPOLL threads on the other CPU
case_md_raid1_poll_rings_sqpoll() {
	md_array_shallow 1 2
	uring_poll /dev/md0 -m rings -t 4 -n 8000
	uring_poll /dev/md0 -m rings -t 4 -S -n 8000
	assert_polled $(md_members md0)
}

case_md_raid10_poll_rings_sqpoll() {
	md_array_shallow 10 4
	uring_poll /dev/md0 -m rings -t 4 -S -n 8000
	assert_polled $(md_members md0)
}

# dm-linear over md raid1: dm polls its clone, which is an md bio
case_dm_linear_over_md_poll() {
	md_array_shallow 1 2
	dm_polling lin "0 $(sectors md0) linear /dev/md0 0"
	uring_poll /dev/mapper/lin -m flood -d 256 -n 10000
	assert_polled $(md_members md0)
}

# md over the emulated NVMe disk (one poll queue for both CPUs) and a
# null_blk device
case_md_raid1_over_nvme_poll() {
	[ -b /dev/nvme0n1 ] || skip "no NVMe disk (tests/run adds one)"
	nullb nullb1 size=256 poll_queues=2
	run mdadm --create /dev/md0 --run --metadata=1.2 --level=1 --raid-devices=2 \
		--assume-clean /dev/nvme0n1 /dev/nullb1
	[ "$(io_poll md0)" = 1 ] || fail "md raid1 over nvme0n1 and nullb1: io_poll is not 1"
	poll_mark
	uring_poll /dev/md0 -m flood -d 128 -n 10000 -w 50
	assert_polled nvme0n1 nullb1
}

# A member loses its poll queues while polled I/O runs (null_blk takes
# poll_queues=0 while powered, as nvme does on a reset without poll
# queues): its polled bios in flight, if any meet the change, are refused
# with EOPNOTSUPP. A read sent with REQ_NOWAIT ends with EAGAIN and io-wq
# issues it again (md on 6.12); other polled bios raid1 counts as I/O
# errors of that member, retrying reads on the other mirror and writes in
# pieces by interrupt (a known gap, in the cover letter): either way the
# polled I/O succeeds, no member is failed, and the array still polls.
case_md_raid1_member_loses_poll_queues() {
	local pid
	md_array 1 2
	member_faults nullb2
	uring_poll /dev/md0 -m flood -d 64 -n 2000
	"$URING_POLL" -m flood -d 64 -n "$(slower 10000)" /dev/md0 > /tmp/uring-poll.out 2>&1 &
	pid=$!
	sleep 1
	run sh -c "echo 0 > $NULLB_CFS/nullb2/poll_queues"
	poll_mark
	overlap "kill -0 $pid 2>/dev/null" "polled I/O ended before the member lost its poll queues"
	wait "$pid" || fail "polled I/O failed when a member lost its poll queues: $(cat /tmp/uring-poll.out)"
	log "$(tail -n 1 /tmp/uring-poll.out)"
	# and polled I/O after it: the array still polls the member that can
	uring_poll /dev/md0 -m flood -d 64 -n 2000
	grep -q '_' /proc/mdstat && fail "a member was failed: $(cat /proc/mdstat)"
	fio_verify /dev/md0 --size=16M
	assert_polled nullb1
}

# Polled reads that fail on one mirror (null_blk bad blocks) are retried by
# raid1d on the other mirror: the data reads back, the retries happened.
case_md_raid1_poll_read_error_retry() {
	md_array 1 2
	fio_verify /dev/md0 --hipri=1 --size=8M
	member_faults nullb2
	run sh -c "echo +0-65535 > $NULLB_CFS/nullb2/badblocks"
	# the reads polled since the fault
	poll_mark
	fio_verify /dev/md0 --hipri=1 --size=8M --verify_only --numjobs=2 \
		--offset_increment=0 --group_reporting
	case_kernel_log | grep -qE "redirecting sector|rescheduling sector" ||
		fail "no read went to the mirror with bad blocks: nothing was retried"
	assert_polled nullb1
}

# write-behind: a bitmap and a write-mostly mirror; polled writes complete
# before the write-mostly mirror has them, its writes complete by interrupt.
# That writes went behind is md's own count: the bitmap's max_backlog_used
# (the most writes behind at once), reset before the polled I/O.
case_md_raid1_poll_write_behind() {
	local behind=/sys/block/md0/md/bitmap/max_backlog_used used
	nullb nullb1 size=128 poll_queues=2
	nullb nullb2 size=128 poll_queues=2
	run mdadm --create /dev/md0 --run --metadata=1.2 --level=1 --raid-devices=2 \
		--assume-clean --bitmap=internal --write-behind=256 /dev/nullb1 --write-mostly /dev/nullb2
	echo 0 > "$behind" || fail "cannot reset $behind"
	poll_mark
	uring_poll /dev/md0 -m flood -d 128 -n 10000 -w 70
	fio_verify /dev/md0 --hipri=1 --size=8M
	used=$(cat "$behind")
	log "at most $used writes behind at once"
	[ "$used" -gt 0 ] || fail "no write went behind (max_backlog_used is $used)"
	md_check_clean /dev/md0
	assert_polled nullb1
}

# raid10 grows from 4 to 5 members while polled I/O runs
case_md_raid10_poll_reshape() {
	local pid
	resync_speed slow
	MD_NULLB="size=64 poll_queues=2" md_create 10 4 --chunk=64 --assume-clean
	nullb nullb5 size=64 poll_queues=2
	fio_verify /dev/md0 --hipri=1 --size=24M
	run mdadm /dev/md0 --add /dev/nullb5
	run mdadm --grow /dev/md0 --raid-devices=5
	poll_mark
	fio_verify /dev/md0 --hipri=1 --size=24M --verify_only --loops="$(slower 2)" &
	pid=$!
	sleep 1
	overlap "grep -q reshape /proc/mdstat" "the reshape ended before polled I/O ran"
	wait "$pid" || fail "polled verify failed during the reshape"
	resync_speed fast
	md_wait /dev/md0
	fio_verify /dev/md0 --hipri=1 --size=24M --verify_only
	# every member, the new one included, polled during or after the reshape
	assert_polled nullb1 nullb2 nullb3 nullb4 nullb5
}

run_cases nullb_poll nvme_poll_shared_queue dm_linear_poll dm_linear_poll_tag_starved dm_stripe_poll dm_crypt_poll dm_delay_poll \
	dm_flakey_poll dm_thin_poll dm_cache_poll dm_raid1_poll dm_zoned_poll dm_pcache_poll dm_inlinecrypt_poll \
	dm_other_targets_poll dm_reload_poll dm_mixed_table_poll md_linear_poll md_raid0_poll \
	md_raid1_poll md_raid10_poll md_raid1_reads_inline md_raid10_reads_inline \
	md_raid1_nowait_member_joins md_raid1_poll_fail_recover \
	md_raid10_poll_fail_recover md_raid5_poll_refused md_member_without_poll \
	md_raid1_polling_member_joins md_raid1_five_mirrors_poll \
	md_raid10_near3_replacement_poll md_raid1_poll_reconfigure \
	md_raid1_nonpoll_member_added md_stop_after_poll md_raid0_poll_deep md_raid1_poll_deep \
	md_raid10_poll_deep md_raid10_far2_poll_deep md_raid10_offset2_poll_deep \
	md_raid1_poll_small_cq md_raid10_poll_small_cq md_raid1_poll_ring_closed \
	md_raid10_poll_ring_closed md_raid1_poll_rings_sqpoll md_raid10_poll_rings_sqpoll \
	dm_linear_over_md_poll md_raid1_over_nvme_poll md_raid1_member_loses_poll_queues \
	md_raid1_poll_read_error_retry md_raid1_poll_write_behind md_raid10_poll_reshape \
	md_raid1_poll_refused_reads
