#!/bin/sh
# The blkfast benchmark workloads. Runs on the machine under test (the QEMU
# guest of bench/run, or real hardware booted into a kernel) and prints one
# "BENCH" line per fio run, which bench/report.py turns into tables.
#
#   sh bench/workloads.sh [-r REPS] [-t SECONDS] [-i ROUNDS] [-B BOOT] [-d "DEV1 DEV2"] [WORKLOAD...]
#
# -d uses existing block devices (e.g. "/dev/nvme0n1 /dev/nvme1n1") instead of
# memory-backed null_blk: the md set-ups write a superblock on them, so use
# devices whose data does not matter. The script removes only the devices it
# made (dm blkfast-*, /dev/md/blkfast, null_blk nullb1 to nullb4), also on
# an error or Ctrl-C, and stops if one of them exists before it makes it.
# -B is the boot number that every BENCH line carries (bench/run counts its
# boots; default 1), next to the round number of -i.
# Without WORKLOADs all of them run. Every workload runs in every variant
# (numjobs, iodepth), REPS times in a row, after a 1 s ramp. -i runs the whole
# list ROUNDS times over (set-up included), so that a workload and the one it
# is compared with alternate in time: under TCG the guest's speed drifts over
# minutes, and with -r 1 -i 3 that drift does not bias stacked/raw ratios as
# it does with -r 3.
cd "$(dirname "$0")/../tests" || exit 1
. ./lib.sh

reps=1 runtime=4 rounds=1 boot=1 devs=""
while getopts r:t:i:B:d: opt; do
	case $opt in
	r) reps=$OPTARG ;; t) runtime=$OPTARG ;; i) rounds=$OPTARG ;; B) boot=$OPTARG ;;
	d) devs=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

# name          set-up      compared with  fio options beyond the common ones
WORKLOADS='
nullb-irq       raw         -              --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
nullb-poll      raw         -              --hipri=1 variants=j1-qd32,j2-qd32,j4-qd32
dm-linear-irq   dm_linear   nullb-irq      --hipri=0
dm-linear-poll  dm_linear   nullb-poll     --hipri=1
md-raid0-irq    md_raid0    nullb-irq      --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
md-raid0-poll   md_raid0    nullb-poll     --hipri=1 variants=j1-qd32,j2-qd32,j4-qd32
md-raid1-irq    md_raid1    nullb-irq      --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
md-raid1-poll   md_raid1    nullb-poll     --hipri=1 variants=j1-qd32,j2-qd32,j4-qd32
md-raid10-irq   md_raid10   nullb-irq      --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
md-raid10-poll  md_raid10   nullb-poll     --hipri=1 variants=j1-qd32,j2-qd32,j4-qd32
md-raid0-write  md_raid0    -              --hipri=0 variants=randwrite-j1-qd32,randwrite-j2-qd32
md-raid1-write  md_raid1    -              --hipri=0 variants=randwrite-j1-qd32,randwrite-j2-qd32
md-raid10-write md_raid10   -              --hipri=0 variants=randwrite-j1-qd32,randwrite-j2-qd32
nullb-nomem     raw_nomem   -              --hipri=0 variants=j1-qd1,j2-qd1,j1-qd32,j2-qd32
dm-linear-nomem dm_linear_nomem nullb-nomem    --hipri=0 variants=j1-qd1,j2-qd1,j1-qd32,j2-qd32
dm-mpath        dm_mpath    nullb-nomem    --hipri=0 variants=j1-qd1,j2-qd1,j1-qd32,j2-qd32
dm-mpath-deadline  dm_mpath_deadline  dm-mpath  --hipri=0 variants=j1-qd1,j2-qd1,j1-qd32,j2-qd32
loop            loop        -              --hipri=0 variants=j1-qd1,j1-qd32,j2-qd32
nullb-nomem-softirq  raw_nomem_softirq  -                    --hipri=0 variants=j1-qd32,j2-qd32
dm-mpath-softirq     dm_mpath_softirq   nullb-nomem-softirq  --hipri=0 variants=j1-qd32,j2-qd32
nullb-nomem-timer    raw_nomem_timer    -                    --hipri=0 variants=j1-qd32,j2-qd32
dm-mpath-timer       dm_mpath_timer     nullb-nomem-timer    --hipri=0 variants=j1-qd32,j2-qd32
none            sched_none  -              --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
mq-deadline     sched_mq_deadline none     --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
bfq             sched_bfq   none           --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
none-batch      sched_none  -              --hipri=0 --iodepth_batch_submit=8 variants=j1-qd32,j2-qd32
none-nomem         sched_nomem_none         -           --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
mq-deadline-nomem  sched_nomem_mq_deadline  none-nomem  --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
bfq-nomem          sched_nomem_bfq          none-nomem  --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
kyber-nomem        sched_nomem_kyber        none-nomem  --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
bfq-noidle-nomem   sched_nomem_bfq_noidle   none-nomem  --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
bfq-batch       sched_bfq   none-batch     --hipri=0 --iodepth_batch_submit=8 variants=j1-qd32,j2-qd32
nvme-irq        nvme        -              --hipri=0 variants=j1-qd32,j2-qd32,j4-qd32
nvme-poll       nvme        nvme-irq       --hipri=1 variants=j1-qd32,j2-qd32,j4-qd32
md-nvme-irq     md_nvme     nvme-irq       --hipri=0 variants=j1-qd32
md-nvme-poll    md_nvme     nvme-poll      --hipri=1 variants=j1-qd32
ublk-null-plain          ublk_plain          -               --ioengine=libaio variants=write-j1-qd1,randwrite-j1-qd1,randwrite-j1-qd32
ublk-null-need-get-data  ublk_need_get_data  ublk-null-plain --ioengine=libaio variants=write-j1-qd1,randwrite-j1-qd1,randwrite-j1-qd32
ublk-null-user-copy      ublk_user_copy      ublk-null-plain --ioengine=libaio variants=write-j1-qd1,randwrite-j1-qd1,randwrite-j1-qd32
raid10-idle-randread     md_raid10_idle      -                     variants=randread-j2-qd32
raid10-resync-randread   md_raid10_resync    raid10-idle-randread  variants=randread-j2-qd32
raid10-idle-randwrite    md_raid10_idle      -                     variants=randwrite-j2-qd32
raid10-resync-randwrite  md_raid10_resync    raid10-idle-randwrite variants=randwrite-j2-qd32
raid1-idle-randread      md_raid1_idle       -                     variants=randread-j2-qd32
raid1-resync-randread    md_raid1_resync     raid1-idle-randread   variants=randread-j2-qd32
raid1-idle-randwrite     md_raid1_idle       -                     variants=randwrite-j2-qd32
raid1-resync-randwrite   md_raid1_resync     raid1-idle-randwrite  variants=randwrite-j2-qd32
'
# numjobs and iodepth of a workload without variants=: [RW-]jNUMJOBS-qdIODEPTH
# (RW defaults to randread)
VARIANTS='j1-qd32 j2-qd32'

# --- set-ups: each prints the device to run on, and describes itself

# What this script made, for teardown: a device of the same name that was
# there before is someone else's, so it stops rather than reuse or remove it.
MADE_NULLB="" MADE_DM="" MADE_MD=""
taken() { fail "$1 exists already, and bench/workloads.sh removes only what it made: remove it first"; }
mknullb() {
	if [ -e "$NULLB_CFS/$1" ] || [ -e "/dev/$1" ]; then taken "null_blk $1"; fi
	MADE_NULLB="$MADE_NULLB $1"
	nullb "$@"
}
mkdm() {
	if dmsetup info "$1" >/dev/null 2>&1; then taken "dm device $1"; fi
	MADE_DM="$MADE_DM $1"
	dm_create "$1" "$2"
}
mkmd() {
	# an array that runs under that name (without udev the name of a
	# stopped array stays behind in /dev/md)
	if mdadm --detail /dev/md/blkfast >/dev/null 2>&1; then taken /dev/md/blkfast; fi
	MADE_MD=/dev/md/blkfast
	mdadm --create /dev/md/blkfast --run "$@" >/dev/null 2>&1 || fail "mdadm --create failed"
}

DEV1=/dev/nullb1 DEV2=/dev/nullb2
members() {
	if [ -n "$devs" ]; then
		set -- $devs
		DEV1=$1 DEV2=${2:-}
		return
	fi
	mknullb nullb1 size=1024 submit_queues=2 poll_queues=2 >&2
	mknullb nullb2 size=1024 submit_queues=2 poll_queues=2 >&2
	# not what an NVMe set-up of the round before left there
	DEV1=/dev/nullb1 DEV2=/dev/nullb2
}
setup_raw() { members; SETUP="$DEV1"; DEV=$DEV1; }
setup_dm_linear() {
	members
	mkdm blkfast-lin "0 $(sectors "$DEV1") linear $DEV1 0" >&2
	SETUP="dm-linear over $DEV1"; DEV=/dev/mapper/blkfast-lin
}
setup_md() {
	members
	mkmd --level="$1" --raid-devices=2 --assume-clean "$DEV1" "$DEV2"
	SETUP="md raid$1 over $DEV1 $DEV2 (mdadm --create --level=$1 --raid-devices=2 --assume-clean)"
	DEV=/dev/md/blkfast
}
setup_md_raid0() { setup_md 0; }
setup_md_raid1() { setup_md 1; }
# raid10 near2 over the same two devices: raid1's layout, raid10's code
setup_md_raid10() { setup_md 10; }
# md raid1 over 2 or raid10 over 4 null_blk devices of 4 GiB (or the first
# -d devices): idle (--assume-clean), or in its initial resync held at
# 20 MB/s, which must still run after every fio run (RUNNING). The null_blk
# devices complete each request after 5 ms (irqmode=2, a timer), so that the
# devices, not the emulated CPUs, limit the IOPS, as disks would: with
# zero-latency devices under TCG the resync's CPU time costs regular I/O more
# than any barrier does. Reads of sectors never written allocate nothing, so
# 4 GiB devices cost only what is written; they give raid10 128 and raid1 64
# barrier buckets of 64 MiB, so that a bucket barred for resync holds up a
# small share of random I/O, as on a real array.
SPEED=/proc/sys/dev/raid/speed_limit SPEED_OLD="" RUNNING=""
setup_md_sync() {
	local level=$1 n=$2 opt=--assume-clean mdevs="" made="" i=0 d
	if [ -n "$devs" ]; then
		for d in $devs; do
			i=$((i + 1))
			[ "$i" -le "$n" ] && mdevs="$mdevs $d"
		done
		[ "$i" -ge "$n" ] || { SKIP="-d has fewer than $n devices"; return; }
	else
		for i in $(seq 1 "$n"); do
			mknullb "nullb$i" size=4096 irqmode=2 completion_nsec=5000000 >&2
			mdevs="$mdevs /dev/nullb$i"
		done
		made=" (null_blk size=4096 memory_backed=1 irqmode=2 completion_nsec=5000000)"
	fi
	if [ "$3" = resync ]; then
		SPEED_OLD="$(cat "${SPEED}_min") $(cat "${SPEED}_max")"
		echo 20000 > "${SPEED}_min"
		echo 20000 > "${SPEED}_max"
		opt="" RUNNING=resync
	fi
	# shellcheck disable=SC2086
	mkmd --level="$level" --raid-devices="$n" $opt $mdevs
	SETUP="md raid$level over ${mdevs# }$made (mdadm --create --level=$level --raid-devices=$n${opt:+ $opt})${RUNNING:+ during its initial resync at 20 MB/s (speed_limit_min = speed_limit_max = 20000)}"
	DEV=/dev/md/blkfast
	SYNC_ACTION=/sys/block/$(basename "$(readlink -f "$DEV")")/md/sync_action
}
setup_md_raid10_idle() { setup_md_sync 10 4 idle; }
setup_md_raid10_resync() { setup_md_sync 10 4 resync; }
setup_md_raid1_idle() { setup_md_sync 1 2 idle; }
setup_md_raid1_resync() { setup_md_sync 1 2 resync; }
# request-based dm cannot stack on a memory-backed (blocking) null_blk, so
# dm-multipath runs on one without memory, and is compared with that device
# members_nomem [NULLB_PARAM=VALUE...]: null_blk without memory, the
# parameters added (irqmode=1 submit_queues=1: completion in BLOCK_SOFTIRQ,
# as on a single-queue SCSI, FC or iSCSI host; with a queue per CPU blk-mq
# completes on the submitting CPU in the driver's own context, which is why
# irqmode=1 alone, null_blk's default, is the inline case; irqmode=2: from a
# timer, in hard interrupt context on the submitting CPU, as NVMe does)
members_nomem() {
	if [ -n "$devs" ]; then
		members
	else
		mknullb nullb1 size=1024 memory_backed=0 "$@" >&2
		DEV1=/dev/nullb1
	fi
}
setup_raw_nomem() {
	members_nomem "$@"
	SETUP="$DEV1 (null_blk memory_backed=0 $* when made here)"; DEV=$DEV1
}
# dm-multipath with no scheduler on the dm queue, selected as a user would
# (the kernel's default for dm's one hardware queue is mq-deadline, which
# stays the default: the series changes no scheduler policy), and with
# mq-deadline, the default, as the comparison of what "none" buys
setup_dm_mpath_sched() {
	local sched=$1
	shift
	members_nomem "$@"
	mkdm blkfast-mp "0 $(sectors "$DEV1") multipath 0 0 1 1 round-robin 0 1 1 $DEV1 1" >&2
	DEV=/dev/mapper/blkfast-mp
	echo "$sched" > "/sys/block/$(dmsetup info -c --noheadings -o blkdevname blkfast-mp)/queue/scheduler" ||
		{ SKIP="cannot select $sched"; return; }
	SETUP="dm-multipath (request-based) over $DEV1 $*: multipath 0 0 1 1 round-robin 0 1 1 $DEV1 1, scheduler $sched"
}
setup_dm_mpath() { setup_dm_mpath_sched none "$@"; }
# the cheapest stacking dm has, bio-based dm-linear over the same device:
# what dm-multipath's request-based path costs beyond any stacked device
setup_dm_linear_nomem() {
	members_nomem
	mkdm blkfast-lin "0 $(sectors "$DEV1") linear $DEV1 0" >&2
	SETUP="dm-linear over $DEV1 (null_blk memory_backed=0 when made here)"; DEV=/dev/mapper/blkfast-lin
}
setup_dm_mpath_deadline() { setup_dm_mpath_sched mq-deadline "$@"; }
setup_raw_nomem_softirq() { setup_raw_nomem irqmode=1 submit_queues=1; }
setup_dm_mpath_softirq() { setup_dm_mpath irqmode=1 submit_queues=1; }
setup_raw_nomem_timer() { setup_raw_nomem irqmode=2; }
setup_dm_mpath_timer() { setup_dm_mpath irqmode=2; }
# QEMU's emulated NVMe disk (bench/run adds one, with nvme.poll_queues=2), or
# the first -d device
setup_nvme() {
	if [ -n "$devs" ]; then
		members
	else
		DEV1=/dev/nvme0n1
		[ -b "$DEV1" ] || { SKIP="no $DEV1"; return; }
	fi
	SETUP="$DEV1 (poll queues: $(cat /sys/module/nvme/parameters/poll_queues 2>/dev/null || echo ?))"
	DEV=$DEV1
}
# md raid0 over the NVMe disk and a null_blk device (a member each; the
# NVMe disk sets the pace): polled md where the member's own polling pays
setup_md_nvme() {
	setup_nvme
	[ -z "$SKIP" ] || return
	mknullb nullb1 size=1024 submit_queues=2 poll_queues=2 >&2
	mkmd --level=0 --raid-devices=2 --chunk=64 --assume-clean "$DEV1" /dev/nullb1
	SETUP="md raid0 over $DEV1 and /dev/nullb1 (mdadm --create --level=0 --raid-devices=2 --chunk=64 --assume-clean)"
	DEV=/dev/md/blkfast
}
SCHED_FILE="" SCHED_OLD=""
# sched_on SCHEDULER: DEV1 under that scheduler (teardown puts the old one back)
sched_on() {
	SCHED_FILE=/sys/block/${DEV1#/dev/}/queue/scheduler
	SCHED_OLD=$(sed 's/.*\[\(.*\)\].*/\1/' "$SCHED_FILE")
	echo "$1" > "$SCHED_FILE" || fail "no scheduler $1"
	DEV=$DEV1
}
setup_sched() {
	members
	sched_on "$1"
	SETUP="$DEV1 with scheduler $1"
}
setup_sched_none() { setup_sched none; }
setup_sched_mq_deadline() { setup_sched mq-deadline; }
setup_sched_bfq() { setup_sched bfq; }
# the same on a null_blk without memory, two submit queues as above: its
# tag set does not block (memory-backed null_blk's is BLK_MQ_F_BLOCKING), so
# that a queue run differs only by where it runs, not by whether it may sleep
setup_sched_nomem() {
	members_nomem submit_queues=2
	sched_on "$1"
	SETUP="$DEV1 (null_blk memory_backed=0 submit_queues=2 when made here) with scheduler $1"
}
setup_sched_nomem_none() { setup_sched_nomem none; }
setup_sched_nomem_mq_deadline() { setup_sched_nomem mq-deadline; }
setup_sched_nomem_bfq() { setup_sched_nomem bfq; }
setup_sched_nomem_kyber() { setup_sched_nomem kyber; }
# bfq without idling (slice_idle 0): what bfq's idling for a sync queue that
# runs empty costs when several jobs share the CPUs (not a setting the
# series changes: a user's choice, at the price of bfq's service guarantees)
SLICE_IDLE=""
setup_sched_nomem_bfq_noidle() {
	setup_sched_nomem bfq
	SLICE_IDLE=$(cat "/sys/block/${DEV1#/dev/}/queue/iosched/slice_idle")
	echo 0 > "/sys/block/${DEV1#/dev/}/queue/iosched/slice_idle" ||
		fail "cannot set bfq's slice_idle"
	SETUP="$SETUP, slice_idle 0"
}
# loop on a 1 GiB file in the guest's /tmp, as losetup makes it (buffered,
# rq_affinity 1): its worker completes each request in task context, and
# its one hardware queue takes BLOCK_SOFTIRQ unless blk-mq sends the
# completion to the submitting CPU by IPI
LOOP_DEV=""
setup_loop() {
	local dev
	truncate -s 1G /tmp/blkfast-loop.img ||
		{ SKIP="cannot make /tmp/blkfast-loop.img"; return; }
	dev=$(losetup -f) && losetup "$dev" /tmp/blkfast-loop.img ||
		{ SKIP="losetup failed"; rm -f /tmp/blkfast-loop.img; return; }
	LOOP_DEV=$dev
	SETUP="loop over a 1 GiB file in the guest's memory (losetup $dev FILE; rq_affinity 1: a completion on another CPU may go back by IPI)"
	DEV=$LOOP_DEV
}
# ublk: the null target of the ublk selftests' server (bench/run builds it
# and puts it in /blkfast/ublk), one queue, in the given data-copy mode. Two
# servers exist, with other options: the 6.12 series' own
# (tools/testing/selftests/ublk_abi: "add -t null -m MODE" prints the id)
# and mainline's on 7.x (tools/testing/selftests/ublk, told apart by its
# fault_inject.c: plain, -g for need_get_data, -u for user_copy; "add"
# prints "dev id ID: ...").
KUBLK=${KUBLK:-/blkfast/ublk/kublk}
UBLK_ID=""
setup_ublk() {
	local opt="" cmd out
	[ -x "$KUBLK" ] || { SKIP="no ublk server ($KUBLK)"; return; }
	if [ -f "$(dirname "$KUBLK")/fault_inject.c" ]; then
		case $1 in need_get_data) opt=-g ;; user_copy) opt=-u ;; esac
		cmd="$KUBLK add -t null -q 1 -d 64${opt:+ $opt}"
		out=$($cmd) || { SKIP="$cmd failed"; return; }
		UBLK_ID=$(echo "$out" | sed -n 's/^dev id \([0-9]*\):.*/\1/p')
	else
		cmd="$KUBLK add -t null -m $1 -q 1 -d 64"
		UBLK_ID=$($cmd) || { SKIP="$cmd failed"; return; }
	fi
	[ -n "$UBLK_ID" ] || { SKIP="$cmd printed no device id"; return; }
	SETUP="ublk null target, $1 mode, 1 queue of depth 64 ($cmd)"
	DEV=/dev/ublkb$UBLK_ID
	wait_for "[ -b $DEV ]"
}
setup_ublk_plain() { setup_ublk plain; }
setup_ublk_need_get_data() { setup_ublk need_get_data; }
setup_ublk_user_copy() { setup_ublk user_copy; }

# Between workloads, and on exit whatever the cause (EXIT INT TERM below).
teardown() {
	local n
	for n in $MADE_DM; do
		dmsetup info "$n" >/dev/null 2>&1 && dmsetup remove "$n"
	done
	if [ -n "$MADE_MD" ] && [ -e "$MADE_MD" ]; then
		mdadm --stop "$MADE_MD" >/dev/null 2>&1 && rm -f "$MADE_MD"
	fi
	MADE_DM="" MADE_MD=""
	# a device of -d that ran bfq before keeps it: its slice_idle as it was
	if [ -n "$SLICE_IDLE" ]; then
		echo "$SLICE_IDLE" > "/sys/block/${DEV1#/dev/}/queue/iosched/slice_idle"
		SLICE_IDLE=""
	fi
	[ -n "$SCHED_FILE" ] && echo "$SCHED_OLD" > "$SCHED_FILE"
	[ -n "$UBLK_ID" ] && "$KUBLK" del -n "$UBLK_ID"
	if [ -n "$LOOP_DEV" ]; then
		losetup -d "$LOOP_DEV"
		rm -f /tmp/blkfast-loop.img
	fi
	if [ -n "$SPEED_OLD" ]; then
		echo "${SPEED_OLD#* }" > "${SPEED}_max"
		echo "${SPEED_OLD% *}" > "${SPEED}_min"
	fi
	UBLK_ID="" LOOP_DEV=""
	SCHED_FILE=""
	SPEED_OLD="" RUNNING=""
	for n in $MADE_NULLB; do
		[ -d "$NULLB_CFS/$n" ] || continue
		echo 0 > "$NULLB_CFS/$n/power"
		rmdir "$NULLB_CFS/$n"
	done
	MADE_NULLB=""
	return 0
}
# fio's output of the current run: a directory of this run's own
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/blkfast-bench.XXXXXX") || exit 1
trap 'teardown; rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ->poll calls on the null_blk devices made here (their poll_stats in debugfs; nothing
# on a kernel without it), and the I/Os the device under test completed.
poll_calls() {
	local n d
	for n in $MADE_NULLB; do
		[ -r "/sys/kernel/debug/null_blk/$n/poll_stats" ] || return 0
	done
	[ -n "$MADE_NULLB" ] || return 0
	for n in $MADE_NULLB; do cut -d' ' -f1 "/sys/kernel/debug/null_blk/$n/poll_stats"; done |
		awk '{ n += $1 } END { print n }'
}
dev_ios() {
	# by device number: without udev, dmsetup makes /dev/mapper nodes,
	# not links to /dev/dm-N
	awk '{ print $1 + $5 }' "/sys/dev/block/$((0x$(stat -L -c %t "$DEV"))):$((0x$(stat -L -c %T "$DEV")))/stat"
}

# Context switches on all CPUs since boot (kernel threads such as kblockd's
# workers too), read before and after each fio run.
ctxt() { awk '$1 == "ctxt" {print $2}' /proc/stat; }

# A kernel booted with profile=SHIFT (bench/profile) counts timer-tick samples
# of kernel text in /proc/profile: reset it before a variant's runs and print
# its non-zero counters after them, as "BENCH-PROFILE NAME VARIANT STEP
# INDEX:HITS...", where INDEX counts STEP-byte slots from _stext.
profile_reset() {
	[ -w /proc/profile ] && echo > /proc/profile
	return 0
}
profile_dump() {
	[ -r /proc/profile ] || return 0
	od -An -v -tu4 /proc/profile | awk -v tag="BENCH-PROFILE $name $v" '
		{ for (i = 1; i <= NF; i++) {
			if (n == 0) line = tag " " $i
			else if ($i > 0) line = line " " n - 1 ":" $i
			n++
		} }
		END { print line }'
}

wanted() {
	[ $# -eq 0 ] && return 0
	for w; do [ "$w" = "$name" ] && return 0; done
	return 1
}

# One round: every wanted workload in every variant, REPS runs each.
round() {
	while read -r name setup ref opts; do
		[ -n "$name" ] || continue
		wanted "$@" || continue
		teardown
		SETUP="" DEV="" SKIP="" variants=$VARIANTS
		case $opts in *variants=*)
			variants=$(echo "${opts##*variants=}" | tr ',' ' ')
			opts=${opts%%variants=*} ;;
		esac
		"setup_$setup" </dev/null
		if [ -n "$SKIP" ]; then
			for v in $variants; do echo "BENCH-ERR $name $v $at $SKIP"; done
			continue
		fi
		echo "BENCH-SETUP $name $ref $SETUP"
		for v in $variants; do
			rw=randread
			case $v in [a-z]*-j*) rw=${v%%-j*} ;; esac
			jobs=${v#"${v%%j[0-9]*}"} jobs=${jobs%%-*} jobs=${jobs#j} qd=${v##*-qd}
			cmd="fio --name=$name --filename=$DEV --ioengine=io_uring --direct=1 --rw=$rw --bs=4k --iodepth=$qd --numjobs=$jobs --thread --group_reporting --time_based --ramp_time=1 --runtime=$runtime $opts"
			echo "BENCH-CMD $name $v $cmd"
			r=0
			profile_reset
			while [ "$r" -lt "$reps" ]; do
				r=$((r + 1))
				# context switches and seconds for the whole fio command
				cs0=$(ctxt) pc0=$(poll_calls) io0=$(dev_ios)
				up0=$(cut -d' ' -f1 /proc/uptime)
				# shellcheck disable=SC2086
				$cmd --output-format=json </dev/null >"$SCRATCH/fio.json" 2>"$SCRATCH/fio.err"
				ok=$?
				cs=$(($(ctxt) - cs0))
				polls=""
				[ -z "$pc0" ] || polls="polls=$(($(poll_calls) - pc0)) ios=$(($(dev_ios) - io0)) "
				secs=$(awk -v a="$up0" '{print $1 - a}' /proc/uptime)
				if [ "$ok" -ne 0 ]; then
					echo "BENCH-ERR $name $v $at $(grep -m1 -o 'Operation not supported' "$SCRATCH/fio.err" || tail -n 1 "$SCRATCH/fio.err")"
					break
				elif [ -n "$RUNNING" ] && [ "$(cat "$SYNC_ACTION")" != "$RUNNING" ]; then
					echo "BENCH-ERR $name $v $at $RUNNING over before run $r ended: bigger devices or a lower speed"
					break
				else
					echo "BENCH $name $v $r $at cs=$cs secs=$secs $polls$(tr -d '\n\t' < "$SCRATCH/fio.json")"
				fi
			done
			profile_dump
		done
	done <<EOF
$WORKLOADS
EOF
}

echo "BENCH-KERNEL $(uname -r) $(nproc) cpus"
# What the figures depend on besides the kernel, for the report.
echo "BENCH-ENV fio $(fio --version)"
echo "BENCH-ENV cpu $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "BENCH-ENV memory $(awk '$1 == "MemTotal:" {print int($2 / 1024) " MiB"}' /proc/meminfo)"
echo "BENCH-ENV cmdline $(cat /proc/cmdline)"
round_no=0
while [ "$round_no" -lt "$rounds" ]; do
	round_no=$((round_no + 1))
	# on every result line: stacked/raw ratios pair runs of one boot and round
	at="boot=$boot round=$round_no"
	round "$@"
done
