#!/bin/sh
# md raid1 and raid10 over memory-backed null_blk: data survives a resync, a
# check and a repair, a member that fails, is removed and is added back, a
# member whose device really fails mid-I/O, and a reshape that adds a device;
# every resync, recovery and reshape completes and a check finds no mismatch
# (the cases that step a sync through a few blocks check those blocks).
# raid10 runs in its near2, far2 and offset2 layouts over 4 devices, near3
# and far2 over 5. Writes go into the very blocks a resync (to md0, through
# dm, across dm-linear segments, and over the end of one barrier unit of a
# 40 GiB array into the next while writes elsewhere share its bucket), two
# recoveries at once (near2, far2, offset2) and a replace are copying;
# discards and an fstrim run during a resync; the resync is frozen and
# resumed, and a member fails and comes back, in a loop under I/O; a read
# that raid10d retries is split at md bad blocks while a check bars its
# bucket. Where a case tests I/O during a resync, a recovery, a reshape or
# a member failure, it checks that the two really overlapped, and runs
# again slower when they did not (race_lost in lib.sh).
# No case may strand or fail I/O it did not cause on purpose
# (kernel-stranded.txt, allow_kernel), and every array must end clean, with
# no member error or bad block unless the case injects them.
. ./lib.sh
CHECK_STRANDED=1

after_case() { md_state_check; }

# failing MEMBER...: these members are failed on purpose by the case.
failing() {
	local m
	for m; do allow_kernel "Disk failure on $m,"; done
}

# sync_is ACTION...: md0's sync_action is one of these.
sync_is() {
	local a x
	a=$(cat /sys/block/md0/md/sync_action)
	for x; do [ "$a" = "$x" ] && return 0; done
	return 1
}
sync_running() { sync_is resync recover; }

# mismatch_none: the last check or repair of md0 found no mismatch.
mismatch_none() {
	local cnt
	cnt=$(cat /sys/block/md0/md/mismatch_cnt)
	[ "$cnt" = 0 ] || fail "md0: mismatch_cnt is $cnt after $1"
}

# degraded: a '_' in md0's [UU_U] in /proc/mdstat.
degraded() { grep -A 1 '^md0 ' /proc/mdstat | grep -q '_'; }

# fio_both: fio verify of 4k random writes, then of 1M random reads and
# writes across the first 64 MiB barrier unit's end, while whatever md0 is
# doing goes on.
fio_both() {
	fio_verify /dev/md0 --size=2M
	fio_verify /dev/md0 --offset=56M --size=16M --rw=randrw --bs=1M
}

verify_during_resync() {
	resync_speed slow 2000
	md_create "$@"
	sync_running || fail "no resync running after create"
	fio_verify /dev/md0
	fio_verify /dev/md0 --rw=randrw --bs=64k --size=24M
	overlap sync_running "the resync finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	md_check_clean /dev/md0
}

# raid10 LAYOUT [over DISKS devices, default 4]: fio during the initial
# resync, then during a check, then during a repair, each slowed down so
# that it outlasts fio.
resync_check_repair() {
	local action n
	resync_speed slow 2000
	md_create 10 "${2:-4}" --layout="$1"
	sync_is resync || fail "no resync running after create"
	fio_both
	overlap "sync_is resync" "the resync finished before fio did"
	for action in check repair; do
		resync_speed fast
		md_wait /dev/md0
		resync_speed slow 2000
		n=$(md_ended md0 "$action" done)
		echo "$action" > /sys/block/md0/md/sync_action
		wait_for "sync_is $action"
		fio_both
		overlap "sync_is $action" "the $action finished before fio did"
		resync_speed fast
		md_wait /dev/md0
		[ "$(md_ended md0 "$action" done)" -gt "$n" ] ||
			fail "the $action did not run to its end"
		mismatch_none "$action"
	done
	md_check_clean /dev/md0
}

# Region A is written while the array is whole, region B while it is
# degraded, region C while it recovers. Once it has recovered, the member
# that never failed is failed in turn, so A and B must read back from the
# recovered member alone (nullb1 and nullb2 hold each other's copies in the
# near2, far2 and offset2 layouts over 4 devices alike).
fail_remove_add() {
	failing nullb1 nullb2
	resync_speed fast
	md_create "$@" --assume-clean
	fio_verify /dev/md0 --size=4M
	run mdadm /dev/md0 --fail /dev/nullb2
	degraded || fail "array not degraded after --fail"
	fio_verify /dev/md0 --offset=64M --size=2M
	run mdadm /dev/md0 --remove /dev/nullb2
	resync_speed slow 2000
	run mdadm /dev/md0 --add /dev/nullb2
	wait_for sync_running
	fio_verify /dev/md0 --offset=96M --size=8M --rw=randrw --bs=64k
	overlap sync_running "the recovery finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	degraded && fail "array still degraded after recovery: $(cat /proc/mdstat)"
	md_check_clean /dev/md0
	run mdadm /dev/md0 --fail /dev/nullb1
	fio_verify /dev/md0 --size=4M --verify_only
	fio_verify /dev/md0 --offset=64M --size=2M --verify_only
}

# raid10 LAYOUT whose 4th member, a dm-linear over nullb4, starts failing
# every I/O (dm table "error") while fio writes and reads: md fails that
# member, the array goes on degraded and every block reads back.
member_fails() {
	local i pid writes
	resync_speed fast
	for i in 1 2 3 4; do nullb "nullb$i" size=128; done
	dm_create m4 "0 $(sectors /dev/nullb4) linear /dev/nullb4 0"
	member_faults "$(dmsetup info -c --noheadings -o blkdevname m4)"
	run mdadm --create /dev/md0 --run --metadata=1.2 --level=10 --raid-devices=4 \
		--layout="$1" --assume-clean /dev/nullb1 /dev/nullb2 /dev/nullb3 /dev/mapper/m4
	fio_verify /dev/md0 --size=4M
	writes=$(awk '{print $5}' /sys/block/md0/stat)
	fio_verify /dev/md0 --offset=32M --size="$(slower 4)M" --rw=randrw &
	pid=$!
	wait_for "[ \$(awk '{print \$5}' /sys/block/md0/stat) -gt $((writes + 50)) ]" 60
	run dmsetup suspend --noflush m4
	run dmsetup load m4 --table "0 $(sectors /dev/nullb4) error"
	run dmsetup resume m4
	overlap "kill -0 $pid 2>/dev/null" "fio finished before the member failed"
	wait "$pid" || fail "fio failed while the member failed"
	wait_for "mdadm --detail /dev/md0 | grep -q faulty" 30
	degraded || fail "array not degraded after its member failed: $(cat /proc/mdstat)"
	fio_verify /dev/md0 --size=4M --verify_only
	fio_verify /dev/md0 --offset=64M --size=16M --rw=randrw --bs=1M
	run mdadm --stop /dev/md0
	run dmsetup remove m4
}

# regular_read_error_during_check: in this case's kernel log, raid10d
# rescheduled a regular read of nullb1 (a check's reads are not rescheduled)
# before the check ended (it ends early, "interrupted", once md fails nullb1).
regular_read_error_during_check() {
	case_kernel_log | awk '
		/md\/raid10:md0: nullb1: rescheduling sector/ { r = 1 }
		/md: md0: check (done|interrupted)\./ { exit }
		END { exit !r }'
}

# raid10 LAYOUT with a member that fails reads and writes in most of the
# written region while a check runs: raid10d freezes the array for each
# read error to rewrite the sectors from the other copy, while the check's
# own requests complete and queue for raid10d too; the rewrite fails, so md
# fails the member and the array goes on degraded.
read_errors_during_check() {
	member_faults nullb1
	resync_speed fast
	md_create 10 4 --layout="$1" --assume-clean
	fio_verify /dev/md0 --size=48M --bs=64k --rw=write
	resync_speed slow 2000
	echo check > /sys/block/md0/md/sync_action
	wait_for "sync_is check"
	echo "+4096-50000" > "$NULLB_CFS/nullb1/badblocks" ||
		fail "cannot set bad blocks on nullb1"
	fio_verify /dev/md0 --size=48M --bs=64k --rw=write --verify_only
	fio_verify /dev/md0 --offset=48M --size=4M --rw=randrw
	overlap regular_read_error_during_check \
		"no regular read of nullb1 failed before the check was over"
	resync_speed fast
	md_wait /dev/md0
	degraded || fail "nullb1 not failed: $(cat /proc/mdstat)"
	fio_verify /dev/md0 --size=48M --bs=64k --rw=write --verify_only
}

# raid10 LAYOUT grows from 4 to 5 devices while fio runs. mdadm does a
# raid10 reshape without a backup file by moving every member's data offset:
# down by at least a chunk when devices are added (mdadm 4.2, Grow.c
# raid10_reshape()). Its default data offset on these 128 MiB members,
# 2 MiB with the 512K chunk, leaves that room (members with less need a
# larger --data-offset at create). far2 cannot be reshaped: mdadm says
# "Cannot reshape RAID10 in far-mode" (the kernel's raid10_check_reshape()
# refuses it too). MDADM_NO_SYSTEMCTL: the guest has no systemd to continue
# the reshape, mdadm forks itself.
reshape() {
	resync_speed fast
	md_create 10 4 --layout="$1" --assume-clean
	nullb nullb5 size=128
	fio_verify /dev/md0 --size=4M
	run mdadm /dev/md0 --add /dev/nullb5
	resync_speed slow 2000
	MDADM_NO_SYSTEMCTL=1 mdadm --grow /dev/md0 --raid-devices=5 > /tmp/grow.out 2>&1 ||
		fail "mdadm --grow: $(cat /tmp/grow.out)"
	cat /tmp/grow.out
	wait_for "sync_is reshape"
	fio_verify /dev/md0 --offset=64M --size=2M
	fio_verify /dev/md0 --offset=96M --size=16M --rw=randrw --bs=1M
	fio_verify /dev/md0 --size=4M --verify_only
	overlap "sync_is reshape" "the reshape finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	[ "$(cat /sys/block/md0/md/raid_disks)" = 5 ] || fail "raid_disks is not 5 after the reshape"
	fio_verify /dev/md0 --size=4M --verify_only
	fio_verify /dev/md0 --offset=64M --size=2M --verify_only
	md_check_clean /dev/md0
}

# md_members N [null_blk attributes]: fresh null_blk devices nullb1..nullbN
# (64 MiB each unless the attributes say otherwise); their names in $MEMBERS.
md_members() {
	local n=$1 i
	shift
	MEMBERS=""
	for i in $(seq 1 "$n"); do
		nullb "nullb$i" size=64 "$@"
		MEMBERS="$MEMBERS /dev/nullb$i"
	done
}

# md_create_on LEVEL N [mdadm options]: /dev/md0 over $MEMBERS.
md_create_on() {
	local level=$1 n=$2
	shift 2
	# shellcheck disable=SC2086
	run mdadm --create /dev/md0 --run --metadata=1.2 --level="$level" \
		--raid-devices="$n" "$@" $MEMBERS
}

# Where the step cases below work (each case runs in a process of its own,
# so a case that moves them moves them for itself only): the sync's steps
# start at SYNC_AT (array sectors for a resync, member sectors for a
# recovery), the first step's write at array sector WRITE_AT; fill() writes
# FILL_SIZE bytes from byte FILL_AT of each member it is given, and the
# background writes go to 32 MiB of md0 from byte BG_AT.
SYNC_AT=0 WRITE_AT=0 FILL_AT=0 FILL_SIZE=8M BG_AT=64M

# fill DEV...: non-zero data over FILL_SIZE from byte FILL_AT of each DEV
# (md's data offset and the blocks the steps sync), so that a copy on it
# differs from one on a device left zeroed.
fill() {
	local d
	for d; do
		run fio --name=fill --filename="$d" --ioengine=io_uring --direct=1 \
			--rw=write --bs=1M --iodepth=4 --offset="$FILL_AT" \
			--size="$FILL_SIZE" --output=/dev/null
	done
}

md_sys() { echo "/sys/block/md0/md/$1"; }

# sync_done: the sector md0's running sync has completed up to ("none" when
# none runs: 0).
sync_done() {
	local c
	c=$(cat "$(md_sys sync_completed)")
	case $c in none|delayed) echo 0 ;; *) echo "${c%% *}" ;; esac
}

# Writes into the block a sync step is working on. A raid10 sync step (64k,
# one chunk here) bars its barrier bucket, reads the block and then writes it
# to the copy that needs it; a regular write must not land in between: the
# sync would overwrite one copy of it with the data it read before (the
# copies differ, or a rebuilt member keeps stale data). The cases below hold
# the sync to one step at a time with sync_max, slow the members down
# (STEP_LAT ms per request) so that each step reads for that long, and
# write into the block with one O_DIRECT write while its step runs. The
# writes are larger than the members' max_sectors (32k), so md splits them
# and the first part is submitted with the rest still queued on the task
# (current->bio_list), and fio writes elsewhere on the array all the time,
# so that regular I/O is pending in another barrier bucket.
STEP_NULLB="max_sectors=64 irqmode=2"

# step_members N [NULLB_PARAM=VALUE...]: N members for the step cases
# (64 MiB unless a size= follows, STEP_LAT ms).
step_members() {
	local n=$1
	shift
	STEP_LAT=$(slower 300)
	md_members "$n" $STEP_NULLB completion_nsec=$((STEP_LAT * 1000000)) "$@"
}

# step_write DEV OFFSET SIZE: one O_DIRECT write of SIZE bytes of random
# data at byte OFFSET (a multiple of SIZE); the data is kept for step_check.
step_write() {
	head -c "$3" /dev/urandom > "/tmp/step.$2"
	dd if="/tmp/step.$2" of="$1" bs="$3" seek=$(($2 / $3)) count=1 oflag=direct \
		conv=notrunc 2>/dev/null || fail "$1: the write at $2 failed"
}

# step_check DEV OFFSET SIZE: the data step_write wrote there reads back.
step_check() {
	dd if="$1" bs="$3" skip=$(($2 / $3)) count=1 iflag=direct 2>/dev/null |
		cmp -s - "/tmp/step.$2" || fail "$1: the data written at $2 does not read back"
}

# background_writes: fio writes to 32 MiB of md0 from byte BG_AT (by
# default the second barrier unit), far from the blocks the steps write,
# until kill_background.
background_writes() {
	fio --name=elsewhere --filename=/dev/md0 --offset="$BG_AT" --size=32M \
		--rw=randwrite --bs=4k --iodepth=4 --ioengine=io_uring --direct=1 \
		--time_based --runtime=3600 --output=/dev/null &
	echo $! > /tmp/background.pid
}
kill_background() {
	kill "$(cat /tmp/background.pid)" 2>/dev/null
	wait "$(cat /tmp/background.pid)" 2>/dev/null || true
}

# members_reading: reads in flight on the null_blk devices. During the
# steps only the sync reads (the other writes are writes).
members_reading() {
	cat /sys/block/nullb*/inflight | awk '{ n += $1 } END { print n + 0 }'
}

# sync_steps DEV STEPS STEP_SECTORS SIZE: with md0's sync waiting at sync_max
# SYNC_AT, let it do STEPS steps of STEP_SECTORS (array sectors for a
# resync, member sectors for a recovery) one by one; as soon as step K's
# reads are in flight on the members (a sync request may first wait for the
# regular I/O in its bucket), write SIZE bytes at WRITE_AT * 512 + K * SIZE
# of DEV.
sync_steps() {
	local dev=$1 steps=$2 ss=$3 size=$4 k=0 end at=$((WRITE_AT * 512))
	wait_for "[ \$(sync_done) -ge $SYNC_AT ]" 120
	background_writes
	while [ "$k" -lt "$steps" ]; do
		end=$((SYNC_AT + (k + 1) * ss))
		echo "$end" > "$(md_sys sync_max)" || fail "cannot set sync_max to $end"
		wait_for "[ \$(members_reading) -gt 0 ] || [ \$(sync_done) -ge $end ]" 30
		if [ "$(sync_done)" -ge "$end" ]; then
			# the writer goes first: killed with the case (SIGKILL
			# to its process group) it once outlived the case and
			# kept md0 open, the teardown could not stop md0, and
			# every later case failed (CI, 2026-12-01)
			kill_background
			race_lost "the sync finished step $k before it was written into"
		fi
		step_write "$dev" $((at + k * size)) "$size"
		wait_for "[ \$(sync_done) -ge $end ]" 60
		k=$((k + 1))
	done
	kill_background
	log "wrote into $steps sync steps of $STEP_LAT ms reads"
}

# step_checks DEV STEPS SIZE: every block sync_steps wrote reads back.
step_checks() {
	local k=0 at=$((WRITE_AT * 512))
	while [ "$k" -lt "$2" ]; do
		step_check "$1" $((at + k * $3)) "$3"
		k=$((k + 1))
	done
}

# check_steps SECTORS: a check of md0's sectors [WRITE_AT, WRITE_AT +
# SECTORS) only, the blocks the steps wrote into, finds the copies equal
# (the rest of the array, at STEP_LAT ms a request, would take a minute to
# check).
check_steps() {
	local from=$WRITE_AT end=$((WRITE_AT + $1))
	echo "$from" > "$(md_sys sync_min)" || fail "cannot set sync_min to $from"
	echo "$end" > "$(md_sys sync_max)" || fail "cannot set sync_max to $end"
	echo check > "$(md_sys sync_action)" || fail "cannot start a check"
	wait_for "sync_is check"
	wait_for "[ \$(sync_done) -ge $end ]" 60
	mismatch_none "the check of sectors $from to $end"
	# interrupted, the check leaves sync_min at END
	echo idle > "$(md_sys sync_action)"
	md_wait /dev/md0
	echo max > "$(md_sys sync_max)"
	echo 0 > "$(md_sys sync_min)"
}

# write_into_resync [dm|dm_segments|unit UNIT MEMBER_MB BG_UNIT]: raid10
# near2, chunk 64k, over 4 members whose second copies hold other data than
# the first; it starts as if clean and its resync is then run one 64k step
# at a time from sector 0, with a write into each step's block (to md0, to a
# dm-linear device over it, or to dm-linear segments of 32k over it), or
# over the end of barrier unit UNIT - 1 into the start of UNIT, on members
# of MEMBER_MB (memory-backed null_blk only stores what is written), with
# the other writes in unit BG_UNIT. Then every block reads back, and a
# check of the steps' blocks finds the copies equal (the resync stops after
# the steps: the array is marked clean with resync_start, as the rest of it
# would take a minute).
#
# dm_segments: the dm device maps md0 one to one, but its first 512k is
# made of dm-linear segments of 32k, so every step's 64k write crosses a
# target boundary: dm queues the clone of the first segment and the rest of
# the write on the task (current->bio_list), and md gets that clone while
# the rest is still queued there (a split of md's own leaves its rest on
# the list md's level works from, dm's on the list of the level above): md
# must not let it into the bucket the step bars because the task has
# queued bios.
write_into_resync() {
	local dev=/dev/md0 mode=${1:-md} unit_sectors=131072 doff at table s
	resync_speed fast
	if [ "$mode" = unit ]; then
		SYNC_AT=$(($2 * unit_sectors - 512))
		WRITE_AT=$SYNC_AT
		BG_AT=$(($4 * unit_sectors * 512))
		step_members 4 size="$3"
		# near2 over 4: the steps' first block, array chunk WRITE_AT /
		# 128 (even), is at member byte WRITE_AT * 256 + the data
		# offset, 2 MiB here; fill 2 MiB around the steps' 256k
		at=$((WRITE_AT * 256 + 2097152))
		FILL_AT=$((at / 1048576 * 1048576))
		FILL_SIZE=2M
	else
		step_members 4
	fi
	fill /dev/nullb2 /dev/nullb4
	if [ "$mode" = unit ]; then
		md_create_on 10 4 --layout=n2 --chunk=64 --assume-clean \
			--bitmap=none --data-offset=2M
	else
		md_create_on 10 4 --layout=n2 --chunk=64 --assume-clean
	fi
	doff=$(cat "$(md_sys dev-nullb2/offset)")
	at=$((WRITE_AT * 256 + doff * 512))
	[ "$at" -ge "$FILL_AT" ] &&
		[ $((at + 8 * 65536 / 2)) -le $((FILL_AT + ${FILL_SIZE%M} * 1048576)) ] ||
		fail "the data offset ($doff sectors) puts the steps' blocks outside the filled part"
	echo frozen > "$(md_sys sync_action)"
	echo "$SYNC_AT" > "$(md_sys resync_start)" || fail "cannot set resync_start"
	echo "$SYNC_AT" > "$(md_sys sync_max)"
	echo resync > "$(md_sys sync_action)" || fail "cannot start the resync"
	wait_for "sync_is resync"
	case $mode in
	dm)
		dm_create lin "0 $(sectors md0) linear /dev/md0 0"
		dev=/dev/mapper/lin ;;
	dm_segments)
		table=""
		for s in $(seq 0 64 960); do
			table="${table}$s 64 linear /dev/md0 $s
"
		done
		dm_create lin "${table}1024 $(($(sectors md0) - 1024)) linear /dev/md0 1024"
		dev=/dev/mapper/lin ;;
	esac
	sync_steps "$dev" 8 128 65536
	echo frozen > "$(md_sys sync_action)"
	wait_for "sync_is frozen"
	echo none > "$(md_sys resync_start)" || fail "cannot mark md0 clean"
	step_checks "$dev" 8 65536
	check_steps 1024
}

# write_into_recovery LAYOUT: raid10 (n2, f2 or o2), chunk 64k, loses
# nullb2 and nullb4, one copy of every chunk in each layout (a chunk's copies
# are on two neighbouring members); two fresh members rebuild both at once,
# one 64k member step at a time, with a write into each step's chunks. The
# steps start at a member sector in the members' first barrier unit whose
# chunks are in the array's second (array sector 131072), so that a sync
# request that bars the bucket of its member sector, not of its array
# sector, lets the writes in. near2: member step K rebuilds array chunks
# 2K and 2K + 1 (nullb2 holds the even chunks' second copies, nullb4 the
# odd ones'), written with 128k; offset2: an even member chunk 2J holds
# the first copies of chunks 4J to 4J + 3 and an odd one their second
# copies, so that each step rebuilds two of them, one of which the 128k
# write covers; far2: a step in the members' first half rebuilds the first
# copies of chunks 4K + 1 and 4K + 3, written with 256k over chunks 4K to
# 4K + 3. The other writes go to the array's first unit. Once rebuilt, a
# check of the steps' blocks finds the copies equal, and the members that
# never failed are failed too, so that every block must read back from
# the rebuilt members alone.
write_into_recovery() {
	local layout=$1 size=131072
	SYNC_AT=65536 WRITE_AT=131072 BG_AT=16M
	if [ "$layout" = f2 ]; then
		SYNC_AT=32768 size=262144
	fi
	failing nullb1 nullb2 nullb3 nullb4
	resync_speed fast
	step_members 6
	MEMBERS="/dev/nullb1 /dev/nullb2 /dev/nullb3 /dev/nullb4"
	md_create_on 10 4 --layout="$layout" --chunk=64 --assume-clean
	run mdadm /dev/md0 --fail /dev/nullb2 --fail /dev/nullb4
	run mdadm /dev/md0 --remove /dev/nullb2 --remove /dev/nullb4
	echo frozen > "$(md_sys sync_action)"
	echo "$SYNC_AT" > "$(md_sys sync_max)"
	run mdadm /dev/md0 --add /dev/nullb5 /dev/nullb6
	echo idle > "$(md_sys sync_action)"
	wait_for "sync_is recover"
	sync_steps /dev/md0 8 128 "$size"
	echo max > "$(md_sys sync_max)"
	md_wait /dev/md0
	degraded && fail "still degraded after the recovery: $(cat /proc/mdstat)"
	check_steps $((8 * size / 512))
	run mdadm /dev/md0 --fail /dev/nullb1 --fail /dev/nullb3
	step_checks /dev/md0 8 "$size"
}

# write_into_replace: mdadm --replace copies nullb2 to a fresh member, one
# 64k member step at a time, with a write into each step's chunk; then a
# check of the steps' blocks finds the copies equal, the other copy (nullb1)
# fails, and every block must read back from the new member.
write_into_replace() {
	failing nullb1 nullb2
	resync_speed fast
	step_members 5
	MEMBERS="/dev/nullb1 /dev/nullb2 /dev/nullb3 /dev/nullb4"
	md_create_on 10 4 --layout=n2 --chunk=64 --assume-clean
	echo frozen > "$(md_sys sync_action)"
	echo 0 > "$(md_sys sync_max)"
	run mdadm /dev/md0 --add /dev/nullb5
	run mdadm /dev/md0 --replace /dev/nullb2 --with /dev/nullb5
	echo idle > "$(md_sys sync_action)"
	wait_for "sync_is recover"
	# nullb2 holds the second copies of the even chunks: step K is chunk 2K
	sync_steps /dev/md0 8 128 131072
	echo max > "$(md_sys sync_max)"
	md_wait /dev/md0
	wait_for "! grep -q 'nullb2\[' /proc/mdstat || grep -q 'nullb2\[[0-9]*\](F)' /proc/mdstat" 30
	check_steps 2048
	run mdadm /dev/md0 --fail /dev/nullb1
	step_checks /dev/md0 8 131072
}

# discard_during_resync: raid10 near2 over members that take discards: while
# the initial resync runs, fio verifies writes in one region, and discards go
# to others: whole stripes (raid10_handle_discard() sends them in one piece),
# a part of a chunk (the per-chunk path) and fio's random trims. Then a
# check must find the copies equal: a discard must not interleave with the
# resync's copy of the same blocks.
discard_during_resync() {
	local pid d before="" n
	resync_speed slow 2000
	MD_NULLB="size=128 discard=1" md_create 10 4 --layout=n2
	sync_is resync || fail "no resync running after create"
	for d in 1 2 3 4; do before="$before $(member_discards nullb$d)"; done
	fio_verify /dev/md0 --size=8M --rw=randrw &
	pid=$!
	run blkdiscard -o 16M -l 16M /dev/md0
	run blkdiscard -o 40M -l 96k /dev/md0
	run fio --name=trim --filename=/dev/md0 --offset=48M --size=8M --rw=randtrim \
		--bs=64k --ioengine=psync --number_ios=64 --output=/dev/null
	wait "$pid" || fail "fio failed while discards ran during the resync"
	overlap sync_running "the resync finished before the discards did"
	# every member got discards (near2 over 4: each holds a copy of half
	# the chunks), not only md's accounting
	set -- $before
	for d in 1 2 3 4; do
		n=$(($(member_discards nullb$d) - $1))
		shift
		log "nullb$d: $n discard requests during the resync"
		[ "$n" -gt 0 ] || fail "no discard reached nullb$d"
	done
	resync_speed fast
	md_wait /dev/md0
	md_check_clean /dev/md0
}

# fstrim_during_resync: an ext2 file system (mounted by the ext4 driver) on
# raid10 near2 over members that take discards; files are written, half of
# them removed, and fstrim runs while the initial resync does. The files
# left must read back, and a check must find the copies equal.
fstrim_during_resync() {
	local i
	resync_speed slow 2000
	MD_NULLB="size=128 discard=1" md_create 10 4 --layout=n2
	mke2fs /dev/md0 >/dev/null 2>&1 || fail "mke2fs failed"
	mkdir -p /tmp/mnt
	run mount -t ext4 /dev/md0 /tmp/mnt
	for i in 1 2 3 4 5 6 7 8; do
		head -c 2097152 /dev/urandom > "/tmp/mnt/f$i" || fail "cannot write f$i"
	done
	(cd /tmp/mnt && sha256sum f2 f4 f6 f8 > /tmp/sums)
	rm /tmp/mnt/f1 /tmp/mnt/f3 /tmp/mnt/f5 /tmp/mnt/f7
	sync
	run fstrim -v /tmp/mnt
	overlap sync_running "the resync finished before fstrim did"
	run umount /tmp/mnt
	resync_speed fast
	md_wait /dev/md0
	md_check_clean /dev/md0
	run mount -t ext4 -o ro /dev/md0 /tmp/mnt
	(cd /tmp/mnt && sha256sum -c /tmp/sums) || fail "files changed after fstrim"
	run umount /tmp/mnt
}

# member_discards DEV: discard requests DEV completed so far.
member_discards() { awk '{ print $12 }' "/sys/block/${1#/dev/}/stat"; }

# discard_whole_stripes: raid10 near2 over 4, chunk 32 MiB (64 MiB stripes):
# a discard of four whole stripes reaches each member as one discard
# (raid10_handle_discard()), not cut into barrier units of 64 MiB, each
# shorter than the two stripes that path needs, and sent chunk by chunk.
discard_whole_stripes() {
	local before after
	resync_speed fast
	MD_NULLB="size=512 discard=1" md_create 10 4 --layout=n2 --chunk=32768 --assume-clean
	before=$(member_discards nullb1)
	run blkdiscard -o 0 -l 256M /dev/md0
	after=$(member_discards nullb1)
	log "nullb1: $((after - before)) discard requests for 256 MiB of md0"
	[ "$((after - before))" = 1 ] ||
		fail "nullb1 got $((after - before)) discard requests for four whole stripes, not 1"
	md_check_clean /dev/md0
}

# frozen_idle_under_io: while fio writes and verifies, md0's resync is frozen
# and resumed ten times over (sync_action frozen, then idle).
frozen_idle_under_io() {
	local pid i=0
	resync_speed slow 2000
	md_create 10 4 --layout=n2
	fio_verify /dev/md0 --size="$(slower 64)M" --rw=randrw --bs=16k &
	pid=$!
	while [ "$i" -lt 10 ]; do
		echo frozen > "$(md_sys sync_action)" || fail "cannot freeze the resync"
		sleep 0.2
		echo idle > "$(md_sys sync_action)" || fail "cannot resume the resync"
		wait_for "sync_is resync" 10
		sleep 0.2
		i=$((i + 1))
	done
	overlap "kill -0 $pid 2>/dev/null" "fio finished before the resync was frozen ten times"
	wait "$pid" || fail "fio failed while the resync was frozen and resumed"
	overlap sync_running "the resync finished before fio did"
	resync_speed fast
	md_wait /dev/md0
	md_check_clean /dev/md0
}

# fail_readd_under_io: with a write-intent bitmap, nullb2 fails, is removed
# and is added back three times while fio writes and verifies; each time the
# recovery of what changed in between starts before the next failure. Then
# nullb1, which holds the other copy of nullb2's chunks, fails, and what fio
# wrote must read back from nullb2.
fail_readd_under_io() {
	local pid i=0 n
	failing nullb1 nullb2
	resync_speed fast
	md_create 10 4 --layout=n2 --assume-clean --bitmap=internal
	fio_verify /dev/md0 --size="$(slower 32)M" --rw=randwrite --bs=16k &
	pid=$!
	resync_speed slow 2000
	while [ "$i" -lt 3 ]; do
		run mdadm /dev/md0 --fail /dev/nullb2
		# EBUSY while the recovery's writes to it are still in flight
		wait_for "mdadm /dev/md0 --remove /dev/nullb2 >/dev/null 2>&1" 30
		n=$(md_ended md0 recover)
		mdadm /dev/md0 --re-add /dev/nullb2 >/dev/null 2>&1 ||
			run mdadm /dev/md0 --add /dev/nullb2
		wait_for "grep -q 'nullb2\[1\]' /proc/mdstat" 30
		# the recovery of what changed meanwhile started (it runs, or
		# it has ended) before nullb2 fails again
		wait_for "sync_is recover || [ \$(md_ended md0 recover) -gt $n ]" 30
		sleep 0.5
		i=$((i + 1))
	done
	overlap "kill -0 $pid 2>/dev/null" "fio finished before nullb2 came back three times"
	wait "$pid" || fail "fio failed while nullb2 failed and came back"
	resync_speed fast
	md_wait /dev/md0
	degraded && fail "still degraded after the last re-add: $(cat /proc/mdstat)"
	md_check_clean /dev/md0
	run mdadm /dev/md0 --fail /dev/nullb1
	fio_verify /dev/md0 --size="$(slower 32)M" --rw=randwrite --bs=16k --verify_only
}

# read_retry_during_freeze: raid1 retries a failed read while another task
# freezes the array. raid1 over nullb1, nullb2 (failfast) and nullb4
# (write-mostly, so reads go to nullb2), members slow (1 s a request);
# nullb3 is bound as nullb1's replacement, its recovery stopped, and nullb1
# fails. While fio keeps writes in flight, a read of a bad block of nullb2
# is submitted, and then "none" is written to nullb1's slot:
# raid1_remove_disk() moves the replacement down under freeze_array(), which
# waits for the writes submitted after the read. The freeze is under way
# (the writer in freeze_array()) before the read fails; raid1d fails nullb2
# (failfast) and sends the read to nullb4 once that freeze has ended, which
# counts the failed read as queued: the read must neither fail with EAGAIN
# (6.12, where io_uring's reads carry REQ_NOWAIT to raid1) nor wait for a
# freeze that waits for it (7.2: a hang), and it must still be in flight
# on nullb4 when the slot write returns (a retry sent while the freeze was
# under way would have been waited for, and would be over; one sent into
# a freeze that completed as the read failed is not seen). Then the
# replacement recovers the first 1.1 MiB, the read's blocks included: raid1
# raises the barrier of the retried read's bucket again, which hangs if the
# retry left nr_pending unbalanced (the rest of the recovery would take half a
# minute at these latencies), and a write to suspend_lo quiesces the array, a
# freeze that waits for every bucket's count.
# With "split", nullb5 joins as a second write-mostly member, and md knows of
# bad blocks 32 sectors into the read on nullb4 and at its start on nullb5:
# no member holds all of it, so raid1d reads the first 32 sectors from nullb4
# and splits the rest off to nullb5, under the same nr_pending count as the
# first part (a rest that went back through md0 as a bio and waited for the
# freeze would wait for a first part not yet submitted). Both redirections
# must be logged by raid1d, nullb4 and nullb5 must have read 32 and 96
# sectors, and the counts must balance as above.
# failed_while_frozen: in this case's kernel log, the read failed on nullb2
# (and went to raid1d) before the write to nullb1's slot returned.
failed_while_frozen() {
	case_kernel_log | awk '
		/md0: nullb2: rescheduling sector/ { r = 1 }
		/blkfast: nullb1 slot none/ { exit }
		END { exit !r }'
}

# split_retry_barred: raid10 near3 over three members. A 64k read at
# array sector 128 fails on nullb1 (failfast: md fails nullb1 and raid10d
# reads it again), while md knows of bad blocks 32 sectors into it on
# nullb2 and at its start on nullb3, so no member holds all of it: the
# retry reads its first 32 sectors from nullb2 and the rest from nullb3,
# which raid10d splits off. nullb1 fails the read only after a second (4 on
# the retries after a lost race), and a check starts meanwhile: its first sync
# request bars the read's bucket (unit 0, all of this array; the array
# barrier without the bucket patches) and waits for the read, so the rest
# is read under a raised barrier of its own bucket. A rest that waited for
# that barrier would wait for the read it belongs to. The data must read
# back; nullb3 must have read the rest (96 sectors) and the check's one
# request (128: md failing nullb1 interrupts the check after it); and a
# second check must run through the array (a bucket count left held would
# keep its sync requests waiting) before the array quiesces (nor the
# array's count).
split_retry_barred() {
	local d=/sys/block/md0/md off pid sync read3 ms
	failing nullb1
	member_faults nullb1 nullb2 nullb3
	resync_speed fast
	# at most 4 s: from 16 s on, the guest's I/O to nullb1 times out
	ms=$(slower 1000)
	[ "$ms" -le 4000 ] || ms=4000
	nullb nullb1 size=64 irqmode=2 completion_nsec=$((ms * 1000000))
	nullb nullb2 size=64
	nullb nullb3 size=64
	MEMBERS="/dev/nullb1 /dev/nullb2 /dev/nullb3"
	md_create_on 10 3 --layout=n3 --assume-clean --bitmap=none
	fio_verify /dev/md0 --size=1M --bs=64k --rw=write
	off=$(cat "$d/dev-nullb2/offset")
	echo "$((off + 160)) 8" > "$d/dev-nullb2/bad_blocks" ||
		fail "cannot record a bad block on nullb2"
	echo "$((off + 128)) 8" > "$d/dev-nullb3/bad_blocks" ||
		fail "cannot record a bad block on nullb3"
	echo "+$((off + 128))-$((off + 255))" > "$NULLB_CFS/nullb1/badblocks" ||
		fail "cannot set bad blocks on nullb1"
	echo failfast > "$d/dev-nullb1/state" || fail "cannot set failfast on nullb1"
	# psync: no REQ_NOWAIT, so that nothing on the read's way is refused
	# where it would wait
	read3=$(awk '{ print $3 }' /sys/block/nullb3/stat)
	fio_verify /dev/md0 --offset=64k --size=64k --bs=64k --rw=write --iodepth=1 \
		--ioengine=psync --verify_only &
	pid=$!
	wait_for "[ \$(awk '{ print \$1 }' /sys/block/nullb1/inflight) -gt 0 ]" 30
	echo check > "$d/sync_action" || fail "cannot start a check"
	wait_for "sync=\$(grep -lx md0_resync /proc/[0-9]*/comm 2>/dev/null); [ -n \"\$sync\" ]" 30
	sync=${sync%/comm}; sync=${sync#/proc/}
	# nothing else waits, so raise_resync_barrier() passes its first wait at
	# once: asleep there, it has barred the bucket and waits for the read
	# (raise_barrier() without the bucket patches; /proc/PID/stack needs
	# CONFIG_STACKTRACE, which the debug kernel has)
	wait_for "grep -qE 'raise_(resync_)?barrier' /proc/$sync/stack || ! kill -0 $pid" 30
	log "md0_resync: $(grep -m 3 . "/proc/$sync/stack" | tr -s ' \n' ' ')"
	overlap "kill -0 $pid && [ \$(awk '{ print \$1 }' /sys/block/nullb1/inflight) -gt 0 ]" \
		"the read failed before the check barred its bucket"
	wait_for "! kill -0 $pid" 60
	wait "$pid" || fail "the read that raid10d retried failed"
	case_kernel_log | grep -q "md0: nullb2: redirecting sector 128 " ||
		fail "raid10d did not read sector 128 again from nullb2"
	grep -q faulty "$d/dev-nullb1/state" || fail "md did not fail nullb1"
	md_wait /dev/md0
	[ "$(case_kernel_log | grep -c 'md: md0: check interrupted\.$')" = 1 ] ||
		fail "the check was not interrupted when md failed nullb1"
	read3=$(($(awk '{ print $3 }' /sys/block/nullb3/stat) - read3))
	log "nullb3 read $read3 sectors"
	[ "$read3" = 224 ] ||
		fail "nullb3 read $read3 sectors, not the retry's rest (96) and the check's request (128)"
	fio_verify /dev/md0 --size=1M --bs=64k --rw=write --verify_only
	echo check > "$d/sync_action" || fail "cannot start a second check"
	md_wait /dev/md0
	[ "$(case_kernel_log | grep -c 'md: md0: check done\.$')" = 1 ] ||
		fail "the second check did not run to its end"
	echo 0 > "$d/suspend_lo" || fail "cannot quiesce md0 (suspend_lo)"
}

read_retry_during_freeze() {
	local split=$1 d=/sys/block/md0/md off slot pid1 pid2 pid3 read4 read5 r1d
	failing nullb1 nullb2
	member_faults nullb2
	resync_speed fast
	if [ "$split" = split ]; then
		md_members 5 size=4 irqmode=2 completion_nsec=$(($(slower 1000) * 1000000))
		MEMBERS="/dev/nullb1 /dev/nullb2 /dev/nullb4 /dev/nullb5"
		md_create_on 1 4 --assume-clean
		echo writemostly > "$d/dev-nullb5/state" ||
			fail "cannot set writemostly on nullb5"
	else
		md_members 4 size=4 irqmode=2 completion_nsec=$(($(slower 1000) * 1000000))
		MEMBERS="/dev/nullb1 /dev/nullb2 /dev/nullb4"
		md_create_on 1 3 --assume-clean
	fi
	echo failfast > "$d/dev-nullb2/state" || fail "cannot set failfast on nullb2"
	echo writemostly > "$d/dev-nullb4/state" || fail "cannot set writemostly on nullb4"
	fio_verify /dev/md0 --offset=1M --size=64k --bs=64k --rw=write --iodepth=1
	if [ "$split" = split ]; then
		RECORDED_BAD="nullb4 nullb5"
		echo "$(($(cat "$d/dev-nullb4/offset") + 2080)) 8" > "$d/dev-nullb4/bad_blocks" ||
			fail "cannot record a bad block on nullb4"
		echo "$(($(cat "$d/dev-nullb5/offset") + 2048)) 8" > "$d/dev-nullb5/bad_blocks" ||
			fail "cannot record a bad block on nullb5"
	fi
	# bind nullb3 as nullb1's replacement, then stop its recovery
	echo 0 > "$d/sync_max"
	run mdadm /dev/md0 --add /dev/nullb3
	run mdadm /dev/md0 --replace /dev/nullb1 --with /dev/nullb3
	wait_for "grep -q replacement $d/dev-nullb3/state" 30
	echo frozen > "$d/sync_action"
	wait_for "sync_is frozen" 30
	run mdadm /dev/md0 --fail /dev/nullb1
	off=$(cat "$d/dev-nullb2/offset")
	echo "+$((off + 2048))-$((off + 2175))" > "$NULLB_CFS/nullb2/badblocks" ||
		fail "cannot set bad blocks on nullb2"
	fio --name=pending --filename=/dev/md0 --offset=2M --size=512k --rw=randwrite \
		--bs=4k --iodepth=8 --ioengine=io_uring --direct=1 --time_based \
		--runtime="$(slower 6)" --output=/dev/null &
	pid2=$!
	wait_for "[ \$(awk '{ print \$2 }' /sys/block/nullb2/inflight) -gt 0 ]" 30
	# the writes made the array active: raid1d writes the superblocks under
	# the reconfig mutex, which the slot write below needs (1 s at these
	# latencies); let that end first
	r1d=$(grep -lx md0_raid1 /proc/[0-9]*/comm 2>/dev/null); r1d=${r1d%/comm}
	[ -n "$r1d" ] || fail "no md0_raid1 thread"
	wait_for "grep -qx active $d/array_state && ! grep -qE 'md_update_sb|md_super_wait' $r1d/stack" 30
	read4=$(awk '{ print $3 }' /sys/block/nullb4/stat)
	read5=$(awk '{ print $3 }' /sys/block/nullb5/stat 2>/dev/null || echo 0)
	fio_verify /dev/md0 --offset=1M --size=64k --bs=64k --rw=write --iodepth=1 \
		--verify_only &
	pid1=$!
	# the read is in flight (the writes do not read)
	wait_for "[ \$(awk '{ print \$1 }' /sys/block/nullb2/inflight) -gt 0 ]" 30
	sleep 0.3
	# once the slot write has returned, the writer samples nullb4's reads
	# in flight (builtins only) until the retry shows there or the read's
	# fio has exited (a zombie: its parent waits for this writer)
	rm -f /tmp/retry-inflight
	(echo none > "$d/dev-nullb1/slot" &&
	 echo "blkfast: nullb1 slot none" > /dev/kmsg &&
	 while read -r n _ < /sys/block/nullb4/inflight && [ "$n" = 0 ] &&
		read -r _ _ st _ 2>/dev/null < "/proc/$pid1/stat" &&
		[ "$st" != Z ]; do :; done &&
	 echo "$n" > /tmp/retry-inflight) &
	pid3=$!
	# the freeze is under way before the read fails (/proc/PID/stack:
	# CONFIG_STACKTRACE, which the debug kernel has)
	wait_for "grep -q freeze_array /proc/$pid3/stack 2>/dev/null || ! kill -0 $pid3 2>/dev/null" 30
	log "slot writer: $(tr -s ' \n' ' ' 2>/dev/null < "/proc/$pid3/stack")"
	# a lost race waits for the I/O it started before the next try
	grep -q freeze_array "/proc/$pid3/stack" 2>/dev/null &&
		[ "$(awk '{ print $1 }' /sys/block/nullb2/inflight)" -gt 0 ] ||
		{ wait; race_lost "the read failed before the freeze started"; }
	wait "$pid3" || fail "cannot set nullb1's slot to none"
	# raid1d took the failed read while the freeze was under way or had
	# completed, and waits for its end before the retry: the retry went to
	# nullb4 after the slot write returned (a retry the freeze had waited
	# for would have completed, and the read with it)
	[ "$(cat /tmp/retry-inflight)" -gt 0 ] ||
		fail "the retried read ended before the freeze did: raid1d did not wait for it"
	wait "$pid1" || fail "the read that raid1d retried failed"
	wait "$pid2" || fail "fio failed while the array was frozen"
	if [ "$split" = split ]; then
		case_kernel_log | grep -q "md0: redirecting sector 2048 to other mirror: nullb4" ||
			fail "raid1d did not read sector 2048 again from nullb4"
		case_kernel_log | grep -q "md0: redirecting sector 2080 to other mirror: nullb5" ||
			fail "raid1d did not read the rest, from sector 2080, from nullb5"
		read4=$(($(awk '{ print $3 }' /sys/block/nullb4/stat) - read4))
		read5=$(($(awk '{ print $3 }' /sys/block/nullb5/stat) - read5))
		log "nullb4 read $read4 sectors, nullb5 $read5"
		[ "$read4" = 32 ] && [ "$read5" = 96 ] ||
			fail "nullb4 and nullb5 read $read4 and $read5 sectors, not 32 and 96"
	else
		case_kernel_log | grep -q "redirecting sector .* nullb4" ||
			fail "raid1d did not retry the read on nullb4"
	fi
	overlap failed_while_frozen "the replacement moved down before the read failed"
	slot=$(cat "$d/dev-nullb3/slot")
	[ "$slot" = 0 ] || fail "nullb3 is in slot $slot, not in nullb1's"
	echo 2304 > "$d/sync_max" || fail "cannot set sync_max to 2304"
	echo idle > "$d/sync_action"
	wait_for "[ \$(sync_done) -ge 2304 ]" 60
	echo frozen > "$d/sync_action"
	echo 0 > "$d/suspend_lo" || fail "cannot quiesce the array (suspend_lo)"
	[ "$split" = split ] || return 0
	# md_state_check skips them: no bad block but those recorded, after
	# the recovery too
	[ "$(cat "$d/dev-nullb4/bad_blocks")" = "$(($(cat "$d/dev-nullb4/offset") + 2080)) 8" ] ||
		fail "nullb4's bad blocks: $(tr '\n' ' ' < "$d/dev-nullb4/bad_blocks")"
	[ "$(cat "$d/dev-nullb5/bad_blocks")" = "$(($(cat "$d/dev-nullb5/offset") + 2048)) 8" ] ||
		fail "nullb5's bad blocks: $(tr '\n' ' ' < "$d/dev-nullb5/bad_blocks")"
}

case_raid1_resync()      { verify_during_resync 1 2; }
case_raid1_fail_re_add() { fail_remove_add 1 2; }
case_raid1_read_retry_during_freeze() { read_retry_during_freeze; }
case_raid1_split_retry_during_freeze() { read_retry_during_freeze split; }
case_raid10_near2_resync_check_repair()   { resync_check_repair n2; }
case_raid10_far2_resync_check_repair()    { resync_check_repair f2; }
case_raid10_offset2_resync_check_repair() { resync_check_repair o2; }
case_raid10_near2_recovery()   { fail_remove_add 10 4 --layout=n2; }
case_raid10_far2_recovery()    { fail_remove_add 10 4 --layout=f2; }
case_raid10_offset2_recovery() { fail_remove_add 10 4 --layout=o2; }
case_raid10_near2_member_fails()   { member_fails n2; }
case_raid10_far2_member_fails()    { member_fails f2; }
case_raid10_offset2_member_fails() { member_fails o2; }
case_raid10_near2_read_errors_during_check() { read_errors_during_check n2; }
case_raid10_near3_split_retry_barred() { split_retry_barred; }
case_raid10_near2_reshape()   { reshape n2; }
case_raid10_near2_write_into_resync()    { write_into_resync; }
case_raid10_near2_write_into_resync_dm() { write_into_resync dm; }
case_raid10_near2_write_into_resync_dm_segments() { write_into_resync dm_segments; }
# 40 GiB: steps over the end of barrier unit 615 into 616, the other writes
# in unit 6, which shares unit 616's barrier bucket: hash_long(616, 10) ==
# hash_long(6, 10), checked here as hash_64() computes it (64-bit kernels,
# 4 KiB pages: 10 bucket bits)
case_raid10_near2_write_into_resync_shared_bucket() {
	[ $(((616 * 0x61C8864680B583EB >> 54) & 1023)) = $(((6 * 0x61C8864680B583EB >> 54) & 1023)) ] ||
		fail "units 616 and 6 do not share a barrier bucket"
	write_into_resync unit 616 20480 6
}
case_raid10_near2_write_into_two_recoveries() { write_into_recovery n2; }
case_raid10_far2_write_into_two_recoveries() { write_into_recovery f2; }
case_raid10_offset2_write_into_two_recoveries() { write_into_recovery o2; }
case_raid10_near2_write_into_replace() { write_into_replace; }
case_raid10_near3_5disks_resync_check_repair() { resync_check_repair n3 5; }
case_raid10_far2_5disks_resync_check_repair()  { resync_check_repair f2 5; }
case_raid10_far2_read_errors_during_check()    { read_errors_during_check f2; }
case_raid10_offset2_read_errors_during_check() { read_errors_during_check o2; }
case_raid10_near2_discard_during_resync() { discard_during_resync; }
case_raid10_near2_fstrim_during_resync()  { fstrim_during_resync; }
case_raid10_near2_discard_whole_stripes() { discard_whole_stripes; }
case_raid10_near2_frozen_idle_under_io()  { frozen_idle_under_io; }
case_raid10_near2_fail_readd_under_io()   { fail_readd_under_io; }
case_raid10_offset2_reshape() { reshape o2; }

run_cases raid1_resync raid1_fail_re_add raid1_read_retry_during_freeze \
	raid1_split_retry_during_freeze \
	raid10_near2_resync_check_repair raid10_far2_resync_check_repair \
	raid10_offset2_resync_check_repair \
	raid10_near2_recovery raid10_far2_recovery raid10_offset2_recovery \
	raid10_near2_member_fails raid10_far2_member_fails raid10_offset2_member_fails \
	raid10_near2_read_errors_during_check raid10_near3_split_retry_barred \
	raid10_near2_reshape raid10_offset2_reshape \
	raid10_near2_write_into_resync raid10_near2_write_into_resync_dm \
	raid10_near2_write_into_resync_dm_segments raid10_near2_write_into_resync_shared_bucket \
	raid10_near2_write_into_two_recoveries raid10_far2_write_into_two_recoveries \
	raid10_offset2_write_into_two_recoveries raid10_near2_write_into_replace \
	raid10_near3_5disks_resync_check_repair raid10_far2_5disks_resync_check_repair \
	raid10_far2_read_errors_during_check raid10_offset2_read_errors_during_check \
	raid10_near2_discard_during_resync raid10_near2_fstrim_during_resync \
	raid10_near2_discard_whole_stripes raid10_near2_frozen_idle_under_io \
	raid10_near2_fail_readd_under_io
