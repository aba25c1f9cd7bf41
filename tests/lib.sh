# Helpers for the in-guest tests; sourced by tests/*.sh (busybox sh).
#
# A test file defines case_<name> functions and ends with
#	run_cases name1 name2 ...
# run_cases prints a KTAP subtest: a plan, then "ok N name" or "not ok N name"
# per case. Each case runs in a session (process group) of its own under a
# watchdog that kills the whole group when the case outlives CASE_TIMEOUT.
# After the case, whatever it left running is killed and every null_blk, md,
# dm, loop and ublk device is torn down; then the kernel log from a marker
# written before the case up to the end of that teardown is checked. A case
# fails when it exits non-zero, times out, leaves a device that cannot be
# removed, or when that part of the log shows a warning, a BUG, a lockdep,
# KASAN or hung-task report. A case skips only by calling skip "why"; it
# exits 5 through race_lost when the concurrency it needs did not happen,
# and is then run again slower (see race_lost).
#
# BLKFAST_CASES="name ..." runs only those cases of a file and
# BLKFAST_REPEAT=N runs each of them N times (tests/run AREA:CASE -n N).

CASE_TIMEOUT=${CASE_TIMEOUT:-600}
RACE_RETRIES=${RACE_RETRIES:-2}
NULLB_CFS=/sys/kernel/config/nullb

# What in the kernel log fails a case: one extended regular expression per
# line of kernel-bad.txt (the host scans the whole console log with it too).
KERNEL_BAD=$(grep -v '^#' kernel-bad.txt | paste -sd'|')
[ -n "$KERNEL_BAD" ] || { echo "lib.sh: no kernel-bad.txt in $(pwd)" >&2; exit 1; }

# What shows stranded or failed I/O (kernel-stranded.txt): an area that sets
# CHECK_STRANDED=1 fails a case on it too, unless the case allowed the line
# (allow_kernel). An area may define after_case, which runs in the case's
# process when the case returns, before the teardown.
KERNEL_STRANDED=$(grep -v '^#' kernel-stranded.txt | paste -sd'|')
CHECK_STRANDED=${CHECK_STRANDED:-0}

log() { echo "# [$(cut -d" " -f1 /proc/uptime)] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() {
	[ -n "$*" ] || fail "skip without a reason"
	echo "$*" > /tmp/skip-reason
	exit 4
}

# race_lost "WHAT": the concurrency the case exists for did not happen (the
# resync ended before fio did, fio ended before the member failed). The case
# stops and runs again with BLKFAST_SLOWER one higher, up to RACE_RETRIES
# times; then it fails. It never passes without the overlap it tests.
race_lost() {
	echo "$*" > /tmp/race-lost
	echo "RACE LOST: $*" >&2
	exit 5
}

# overlap "CONDITION" "WHAT": race_lost WHAT unless CONDITION holds.
overlap() {
	eval "$1" || race_lost "$2"
}

# slower N: N times 4 to the power of the retry number (see race_lost), for
# sizes and durations that must outlast something else.
slower() {
	local n=$1 i=0
	while [ "$i" -lt "${BLKFAST_SLOWER:-0}" ]; do n=$((n * 4)); i=$((i + 1)); done
	echo "$n"
}

# allow_kernel "ERE": lines of the kernel log that match ERE are expected in
# this case (it injects errors): they do not count as stranded I/O.
allow_kernel() {
	echo "$*" >> /tmp/case-allow
	log "allowed in the kernel log: $*"
}

# member_faults DEV...: the case injects errors on these devices (bad
# blocks, a dm "error" table): their I/O errors (not a timeout: a request
# stranded on the faulted member still fails the case), md's retries of
# them, md failing them and errors counted on them (md_state_check) are
# expected, and so are md's redirections of the retried reads, which name
# the mirror the read goes to (raid1: "redirecting sector N to other
# mirror: DEV", raid10: "DEV: redirecting sector N to another mirror"), so
# they cannot name the faulted one. Every other device stays checked: an
# I/O error, a retry or a failure of another member still fails the case,
# as far as the kernel prints it (these messages are rate-limited: a burst
# on the faulted member can hide another's; md_state_check then still
# sees that member's error count).
member_faults() {
	local d
	for d; do
		allow_kernel "I/O error, dev $d,|: $d: (rescheduling sector|unrecoverable I/O read error|Raid device exceeded read_error threshold|Failing raid device)|Disk failure on $d,|read error corrected [(][0-9]+ sectors at [0-9]+ on $d[)]"
		MEMBER_ERRORS="${MEMBER_ERRORS:+$MEMBER_ERRORS }$d"
	done
	allow_kernel "md/raid1[0]?:md[0-9]+: ([^ ]+: )?redirecting sector [0-9]+ to (other mirror: |another mirror)"
}

# kernel_log_bad: from stdin, the lines that fail a case: kernel-bad.txt, and
# with CHECK_STRANDED=1 kernel-stranded.txt unless allow_kernel allowed them.
kernel_log_bad() {
	local allow=""
	if [ "$CHECK_STRANDED" != 1 ]; then
		grep -E "$KERNEL_BAD"
		return 0
	fi
	[ ! -s /tmp/case-allow ] || allow=$(paste -sd'|' /tmp/case-allow)
	awk -v bad="$KERNEL_BAD" -v str="$KERNEL_STRANDED" -v allow="$allow" \
		'$0 ~ bad || ($0 ~ str && (allow == "" || $0 !~ allow))'
}

# run CMD...: run a command, log it, fail the case if it fails.
run() {
	echo "+ [$(cut -d" " -f1 /proc/uptime)] $*" >&2
	"$@" || fail "'$*' exited with $?"
}

# expect_fail CMD...: the command must fail.
expect_fail() {
	echo "+ [$(cut -d" " -f1 /proc/uptime)] (must fail) $*" >&2
	if "$@"; then fail "'$*' succeeded"; fi
	return 0
}

# nullb NAME [attr=value ...]: a memory-backed null_blk device /dev/NAME,
# 256 MiB, 2 submit queues, unless the arguments say otherwise.
nullb() {
	local name=$1 d=$NULLB_CFS/$1 kv
	shift
	mkdir "$d" || fail "cannot create null_blk $name"
	for kv in size=256 memory_backed=1 submit_queues=2 "$@"; do
		echo "${kv#*=}" > "$d/${kv%%=*}" || fail "null_blk $name: cannot set $kv"
	done
	echo 1 > "$d/power" || fail "null_blk $name: power on failed"
	wait_for "[ -b /dev/$name ]"
}

# wait_for "CONDITION" [SECONDS]: poll a shell condition.
wait_for() {
	local i=0
	while ! eval "$1"; do
		i=$((i + 1))
		[ "$i" -le "$((${2:-10} * 10))" ] || fail "timed out waiting for: $1"
		sleep 0.1
	done
}

sectors() { cat "/sys/class/block/${1#/dev/}/size"; }
io_poll() { cat "/sys/block/${1#/dev/}/queue/io_poll"; }

# dm_create NAME TABLE: a dm device /dev/mapper/NAME.
dm_create() {
	run dmsetup create "$1" --table "$2"
	dmsetup mknodes "$1"
	wait_for "[ -b /dev/mapper/$1 ]"
}

# fio_verify DEV [fio options]: write with crc32c checksums, read back and
# verify (io_uring, O_DIRECT); options override the defaults. Fails the case
# on an I/O error or a mismatch.
fio_verify() {
	local dev=$1
	shift
	run fio --name=verify --filename="$dev" --ioengine=io_uring --direct=1 \
		--rw=randwrite --bs=4k --iodepth=16 --size=32M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --exitall_on_error \
		--allow_file_create=0 \
		--output-format=terse --terse-version=3 "$@" >/tmp/fio.out
}

# uring_poll DEV [options]: polled io_uring I/O on DEV in the awkward ways
# (-m flood, overflow, close or rings; options at the top of
# tests/tools/uring-poll.c), data verified. Logs the command and the tool's
# summary line (how many I/Os it completed); fails the case with the tool's
# output on an I/O error, a short I/O, a data mismatch or a hang.
URING_POLL=${URING_POLL:-/blkfast/test-tools/uring-poll}
uring_poll() {
	local dev="$1" out msg rc=0
	shift
	[ -x "$URING_POLL" ] || fail "no $URING_POLL (tests/run builds it: scripts/build-test-tools)"
	out=$(mktemp /tmp/uring-poll.XXXXXX)
	echo "+ [$(cut -d" " -f1 /proc/uptime)] uring-poll $* $dev" >&2
	"$URING_POLL" "$@" "$dev" > "$out" 2>&1 || rc=$?
	msg=$(cat "$out")
	rm -f "$out"
	[ "$rc" = 0 ] || fail "uring-poll $* $dev exited with $rc: $msg"
	URING_POLL_LAST=$(echo "$msg" | tail -n 1)
	log "$URING_POLL_LAST"
}

# uring_poll_no_eagain: the last uring_poll run got no completion with
# EAGAIN (which it issues again): the stack took every refusal below it
uring_poll_no_eagain() {
	case $URING_POLL_LAST in
	*" 0 EAGAIN resubmitted"*) ;;
	*) fail "polled I/O completed with EAGAIN: $URING_POLL_LAST" ;;
	esac
}

# resync_speed slow [KB/s]|fast: slow resync and recovery down (default to
# 5000 KB/s, less after a lost race) so that fio runs while they do, or let
# them finish.
resync_speed() {
	local kbs=${2:-5000} i=0
	case $1 in
	slow) # a quarter as fast on each retry after a lost race (slower)
	      while [ "$i" -lt "${BLKFAST_SLOWER:-0}" ]; do kbs=$((kbs / 4)); i=$((i + 1)); done
	      [ "$kbs" -ge 50 ] || kbs=50
	      echo "$kbs" > /proc/sys/dev/raid/speed_limit_min
	      echo "$kbs" > /proc/sys/dev/raid/speed_limit_max ;;
	fast) echo 1000 > /proc/sys/dev/raid/speed_limit_min
	      echo 2000000 > /proc/sys/dev/raid/speed_limit_max ;;
	esac
}

# md_create LEVEL N [mdadm options]: /dev/md0 of LEVEL over N fresh null_blk
# devices nullb1..nullbN with the attributes in $MD_NULLB (default 128 MiB).
md_create() {
	local level=$1 n=$2 i devs=
	shift 2
	for i in $(seq 1 "$n"); do
		# shellcheck disable=SC2086
		nullb "nullb$i" ${MD_NULLB:-size=128}
		devs="$devs /dev/nullb$i"
	done
	# shellcheck disable=SC2086
	run mdadm --create /dev/md0 --run --metadata=1.2 --level="$level" \
		--raid-devices="$n" "$@" $devs
}

# md_wait DEV: wait until no resync, recovery or reshape runs on DEV.
md_wait() {
	mdadm --wait "$1" >/dev/null 2>&1 || true
	wait_for "grep -q idle /sys/block/${1#/dev/}/md/sync_action" 300
}

# md_ended MD ACTION [STATE]: how often the kernel log says that MD's
# ACTION (check, repair, resync, recover, reshape: md_sync_action_name(),
# on 6.12 and 7.2 alike) ended as STATE ("done": it ran to its end;
# "interrupted"; default either).
md_ended() {
	dmesg | grep -cE "md: $1: $2 ${3:-(done|interrupted)}\.\$" || true
}

# md_sync_to_end DEV ACTION: start ACTION on DEV, wait for its end, and
# fail unless it ran to its end: once more "ACTION done" in the kernel log,
# and last_sync_action ACTION (a mismatch_cnt of an interrupted or never
# started check says nothing).
md_sync_to_end() {
	local md=${1#/dev/} done0 int0 d
	d=/sys/block/$md/md
	md_wait "/dev/$md"
	# the whole array: an interrupted sync leaves sync_min where it stopped
	echo 0 > "$d/sync_min" && echo max > "$d/sync_max" ||
		fail "$md: cannot reset sync_min and sync_max"
	done0=$(md_ended "$md" "$2" done) int0=$(md_ended "$md" "$2" interrupted)
	echo "$2" > "$d/sync_action" || fail "$md: cannot start a $2"
	wait_for "[ \$(md_ended $md $2) -gt $((done0 + int0)) ]" 300
	md_wait "/dev/$md"
	if [ "$(md_ended "$md" "$2" interrupted)" != "$int0" ]; then
		log "$(case_kernel_log | grep "md: $md: $2 " | tail -n 1)"
		fail "$md: the $2 was interrupted"
	fi
	[ "$(cat "/sys/block/$md/md/last_sync_action")" = "$2" ] ||
		fail "$md: last_sync_action is $(cat "/sys/block/$md/md/last_sync_action"), not $2"
}

# md_check_clean DEV: a "check" over the whole mirror ran to its end and
# found no mismatch.
md_check_clean() {
	local md=${1#/dev/} cnt
	md_sync_to_end "/dev/$md" check
	cnt=$(cat "/sys/block/$md/md/mismatch_cnt")
	[ "$cnt" = 0 ] || fail "$md: mismatch_cnt is $cnt after check"
}

# md_state_check: every md array is clean or active, no member counted an
# error or has a bad block, but for the members the case injects errors on
# (member_faults: MEMBER_ERRORS); a member in RECORDED_BAD may have the bad
# blocks the case recorded itself in md (dev-*/bad_blocks).
md_state_check() {
	local md state d n
	for md in /sys/block/md*/md; do
		[ -d "$md" ] || continue
		state=$(cat "$md/array_state")
		case $state in
		clean|active|active-idle) ;;
		*) fail "${md%/md}: array_state is $state at the end of the case" ;;
		esac
		for d in "$md"/dev-*; do
			[ -d "$d" ] || continue
			case " ${MEMBER_ERRORS:-} " in *" ${d##*/dev-} "*) continue ;; esac
			n=$(cat "$d/errors")
			[ "$n" = 0 ] || fail "${d##*/} of ${md%/md}: $n errors"
			case " ${RECORDED_BAD:-} " in *" ${d##*/dev-} "*) continue ;; esac
			[ -z "$(cat "$d/bad_blocks" 2>/dev/null)" ] ||
				fail "${d##*/} of ${md%/md}: bad blocks: $(cat "$d/bad_blocks")"
		done
	done
}

# poll_stats NULLB: "calls completed" of the ->poll calls on null_blk NULLB
# (debugfs, the series' null_blk patch).
NULLB_DBG=/sys/kernel/debug/null_blk
poll_stats() { cat "$NULLB_DBG/$1/poll_stats"; }

# nvme_io_irqs: interrupts the NVMe I/O queues took so far.
nvme_io_irqs() {
	awk '/nvme0q[1-9]/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# nvme_ios: reads and writes completed on nvme0n1 so far.
nvme_ios() { awk '{ print $1 + $5 }' /sys/block/nvme0n1/stat; }

# poll_mark: the start of the phase whose I/O assert_polled checks: every
# null_blk device's ->poll counters and the NVMe disk's I/Os and interrupts
# as they are now. A case that fails, adds, replaces or reshapes a member
# marks after that, so that polling before it cannot satisfy the check.
poll_mark() {
	local d
	: > /tmp/poll-mark
	for d in "$NULLB_DBG"/*; do
		[ -f "$d/poll_stats" ] && echo "${d##*/} $(poll_stats "${d##*/}")" >> /tmp/poll-mark
	done
	[ ! -b /dev/nvme0n1 ] || echo "nvme0n1 $(nvme_ios) $(nvme_io_irqs)" >> /tmp/poll-mark
}

# poll_marked DEV: DEV's two counters at poll_mark ("0 0" for a device made
# after it, or without a mark: since its creation).
poll_marked() {
	awk -v d="$1" '$1 == d { print $2, $3; f = 1 } END { if (!f) print "0 0" }' \
		/tmp/poll-mark 2>/dev/null || echo "0 0"
}

# assert_polled DEV...: since poll_mark (a device made after it, or in a
# case without one: since its creation), polled I/O reached DEV's poll
# queues and polling completed it: for a null_blk device, requests
# completed by ->poll; for nvme0n1 (poll_mark required), I/Os with at most
# one interrupt for every 20 of them (md's superblock writes go by
# interrupt). A stacked device that stopped polling fails this.
assert_polled() {
	local d ios irqs
	for d; do
		d=${d#/dev/}
		set -- $(poll_marked "$d")
		case $d in
		nullb*)
			set -- $(($(poll_stats "$d" | cut -d' ' -f1) - $1)) \
				$(($(poll_stats "$d" | cut -d' ' -f2) - $2))
			[ "$2" -gt 0 ] || fail "$d: no request completed by polling since the mark ($1 ->poll calls)"
			log "$d: $2 requests completed by $1 ->poll calls since the mark" ;;
		nvme0n1)
			grep -q '^nvme0n1 ' /tmp/poll-mark 2>/dev/null ||
				fail "assert_polled nvme0n1 without poll_mark"
			ios=$(( $(nvme_ios) - $1 )) irqs=$(( $(nvme_io_irqs) - $2 ))
			[ "$ios" -gt 0 ] || fail "nvme0n1: no I/O since poll_mark"
			log "nvme0n1: $ios I/Os, $irqs interrupts since the mark"
			[ $((irqs * 20)) -le "$ios" ] ||
				fail "nvme0n1: more than one interrupt for 20 I/Os: not polled" ;;
		*) fail "assert_polled: cannot tell whether $d polled" ;;
		esac
	done
	: > /tmp/polled-asserted
}

# --- kernel functions counted in one phase of a case, with kprobe events
# (CONFIG_KPROBE_EVENTS; Documentation/trace/kprobetrace.rst): what user
# space cannot see otherwise (a member out of tags, a requeue, a reparent).
# Take probe_hits before and after the phase; run_case removes the probes.
TRACEFS=/sys/kernel/tracing

# probe_add NAME "FUNCTION" | "r FUNCTION FIELD=FETCHARG..." [FILTER]: the
# probe event blkfast/NAME on FUNCTION's calls, or (r) its returns with the
# fields given (e.g. ret=\$retval:s32), enabled from now on; with FILTER (on
# those fields, e.g. "ret == 2") only the calls that match count. Fails
# when FUNCTION cannot be probed (inlined or not in this kernel). A probe
# without FILTER records nothing (its filter never matches): kprobe_profile
# counts its hits, filter or not. A probe with one records the matching
# calls in a trace buffer of 8 MiB a CPU that drops what does not fit
# rather than overwrite what it holds (options/overwrite 0).
probe_add() {
	local name=$1 spec=$2 kind=p
	[ -e "$TRACEFS/kprobe_events" ] || mount -t tracefs nodev "$TRACEFS" 2>/dev/null || true
	[ -w "$TRACEFS/kprobe_events" ] || fail "no kprobe events (CONFIG_KPROBE_EVENTS)"
	case $spec in "r "*) kind=r spec=${spec#r } ;; esac
	echo "$kind:blkfast/$name $spec" >> "$TRACEFS/kprobe_events" ||
		fail "cannot probe ${spec%% *} (inlined, or not in this kernel?)"
	if [ -n "${3:-}" ]; then
		echo 0 > "$TRACEFS/options/overwrite"
		echo 8192 > "$TRACEFS/buffer_size_kb"
		echo "$3" > "$TRACEFS/events/blkfast/$name/filter" ||
			fail "probe $name: bad filter '$3'"
		echo 1 > "$TRACEFS/tracing_on"
	else
		echo "common_pid < 0" > "$TRACEFS/events/blkfast/$name/filter"
	fi
	echo 1 > "$TRACEFS/events/blkfast/$name/enable" || fail "cannot enable probe $name"
}

# probe_hits NAME: the calls probe NAME counted so far: every call
# (kprobe_profile), or for a probe with a FILTER, the matching ones it
# recorded; if the trace buffer dropped events, that is a lower bound (the
# case's log says so).
probe_hits() {
	if [ "$(cat "$TRACEFS/events/blkfast/$1/filter")" = "common_pid < 0" ]; then
		awk -v n="$1" '$1 == n { print $2 }' "$TRACEFS/kprobe_profile"
		return
	fi
	! grep -q '^dropped events: [1-9]' "$TRACEFS"/per_cpu/cpu*/stats ||
		log "the trace buffer was full: probe $1 counted at least this" >&2
	grep -c " $1: " "$TRACEFS/trace" || true
}

# tags_mark / tags_ran_out: that the members really ran out of tags in
# between, counted in blk-mq: an allocation without REQ_NOWAIT that had to
# wait for a tag (sbitmap_prepare_to_wait(), called from blk_mq_get_tag()
# only then) or one with REQ_NOWAIT that got none (blk_mq_get_tag()
# returned BLK_MQ_NO_TAG). Any device counts: use it where only the
# members under test allocate requests.
tags_mark() {
	probe_add tagwait sbitmap_prepare_to_wait
	probe_add notag "r blk_mq_get_tag tag=\$retval:u32" "tag == 4294967295"
	TAGS_MARK="$(probe_hits tagwait) $(probe_hits notag)"
}
tags_ran_out() {
	local w n
	set -- $TAGS_MARK
	w=$(($(probe_hits tagwait) - $1)) n=$(($(probe_hits notag) - $2))
	log "members out of tags: $w waits for a tag, $n nowait allocations without one"
	[ $((w + n)) -gt 0 ] || fail "the members never ran out of tags"
}

# probes_remove: every blkfast probe goes, and what was traced (run_case,
# after every case).
probes_remove() {
	local e
	if [ -d "$TRACEFS/events/blkfast" ]; then
		for e in "$TRACEFS"/events/blkfast/*/enable; do echo 0 > "$e"; done
		for e in "$TRACEFS"/events/blkfast/*/; do
			e=${e%/}
			echo "-:blkfast/${e##*/}" >> "$TRACEFS/kprobe_events"
		done
	fi
	echo 1 > "$TRACEFS/options/overwrite"
	echo > "$TRACEFS/trace"
}

# not_polled "WHY": this case checks no polled completion (I/O is refused, or
# completes by interrupt on purpose).
not_polled() {
	echo "$*" > /tmp/polled-asserted
}

# blk_state: for a case that hung, each disk's requests in flight and its
# hardware queues' state, dispatch lists and busy requests (blk-mq debugfs),
# one line each
blk_state() {
	local d f s
	[ -d /sys/kernel/debug/block ] || mount -t debugfs none /sys/kernel/debug
	for d in /sys/block/*; do
		d=${d##*/}
		echo "blk_state: $d inflight $(cat /sys/block/$d/inflight 2>/dev/null)"
		for f in /sys/kernel/debug/block/$d/hctx*/state \
			 /sys/kernel/debug/block/$d/hctx*/dispatch \
			 /sys/kernel/debug/block/$d/hctx*/busy; do
			# (debugfs files have no size: read them)
			s=$(head -c 300 "$f" 2>/dev/null | tr '\n' ' ')
			[ -z "$(echo $s)" ] || echo "blk_state: ${f#/sys/kernel/debug/block/}: $s"
		done
	done
}

# Leave no device behind, whatever the case did (file systems on them are
# unmounted first; dm twice: md may stack on dm and dm on md). A device still open for a moment (a process the case left
# that is on its way out, mdadm's forked reshape monitor) is tried again for
# up to 10 s; then what is left is printed and the teardown fails.
cleanup_devices() {
	local d left end=$(($(date +%s) + 10))
	# cgroups a case left (bfq.sh), their tasks killed with the case: the
	# v1 blkio hierarchy, then v2's groups and its io controller, which
	# would keep the next case from mounting v1 blkio
	if grep -q ' /tmp/blkio cgroup ' /proc/mounts; then
		for d in /tmp/blkio/*/; do [ ! -d "$d" ] || rmdir "$d" 2>/dev/null; done
		umount /tmp/blkio
	fi
	for d in /sys/fs/cgroup/*/; do [ ! -d "$d" ] || rmdir "$d" 2>/dev/null; done
	echo -io > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	while :; do
		# file systems a case left mounted on the devices below
		awk '$1 ~ /^\/dev\/(md|dm-|mapper\/|nullb|loop|ublkb)/ { print $2 }' \
			/proc/mounts | sort -r | while read -r d; do umount "$d"; done
		dmsetup remove_all --force >/dev/null 2>&1
		for d in /dev/md[0-9]* /dev/md/*; do
			[ -b "$d" ] || continue
			mdadm --stop "$d" > /tmp/mdadm-stop 2>&1 ||
				sed "s,^,$d: ," /tmp/mdadm-stop > /tmp/mdadm-stop-failed
		done
		dmsetup remove_all --force >/dev/null 2>&1
		# ublk devices only once nothing holds them: deleting one waits
		# until its disk is closed
		[ ! -x /blkfast/ublk/kublk ] || /blkfast/ublk/kublk del -a >/dev/null 2>&1
		# the devices below only once nothing is stacked on them
		if [ -z "$(ls -d /sys/block/md* /sys/block/dm-* 2>/dev/null)" ]; then
			for d in /sys/block/loop*; do
				[ -e "$d/loop/backing_file" ] && losetup -d "/dev/${d##*/}" 2>/dev/null
			done
			rm -f /tmp/*.img
			for d in "$NULLB_CFS"/*; do
				[ -d "$d" ] || continue
				echo 0 > "$d/power" 2>/dev/null
				rmdir "$d" 2>/dev/null
			done
		fi
		# md's system-wide resync limits back to the kernel's defaults
		if [ -w /proc/sys/dev/raid/speed_limit_min ]; then
			echo 1000 > /proc/sys/dev/raid/speed_limit_min
			echo 200000 > /proc/sys/dev/raid/speed_limit_max
		fi
		left=$(devices_left)
		[ -z "$left" ] && return 0
		[ "$(date +%s)" -lt "$end" ] || break
		sleep 0.5
	done
	teardown_holders > /tmp/teardown-diag 2>&1
	echo "devices left after the teardown:$left"
	return 1
}

# teardown_holders: why the devices the teardown could not remove stay, for
# the result's diagnostics (the console log is gone with CI's clone): each
# md array's state and holders, mdadm's last refusal, the I/O in flight,
# every process with one of the devices open (its state and kernel stack),
# the tasks in uninterruptible sleep and the kernel's md lines since the
# case began.
teardown_holders() {
	local d f p dev
	for d in /sys/block/md*; do
		[ -e "$d" ] || continue
		echo "${d##*/}: array_state $(cat "$d/md/array_state" 2>/dev/null)," \
			"sync_action $(cat "$d/md/sync_action" 2>/dev/null)," \
			"holders: $(ls "$d/holders" 2>/dev/null | tr '\n' ' ')"
	done
	[ ! -s /tmp/mdadm-stop-failed ] || head -n 3 /tmp/mdadm-stop-failed
	# an I/O that never completes keeps its file open with no task to show
	for d in /sys/block/*; do
		read -r f p < "$d/inflight" 2>/dev/null || continue
		[ "$f $p" = "0 0" ] || echo "${d##*/}: $f reads, $p writes in flight"
	done
	for f in /proc/[0-9]*/fd/*; do
		dev=$(readlink "$f" 2>/dev/null) || continue
		case $dev in /dev/md*|/dev/dm-*|/dev/mapper/*|/dev/nullb*|/dev/ublkb*) ;; *) continue ;; esac
		p=${f#/proc/}; p=${p%%/*}
		echo "pid $p ($(cat "/proc/$p/comm" 2>/dev/null)," \
			"$(awk '/^State:/ { print $2 }' "/proc/$p/status" 2>/dev/null)) has $dev open:" \
			"$(tr -s ' \n' ' ' < "/proc/$p/stack" 2>/dev/null | cut -c 1-300)"
	done | sort -u | head -n 10
	# and the tasks that wait uninterruptibly (an I/O that never ends keeps
	# its file, and so the device, open without a descriptor to show)
	for p in /proc/[0-9]*/task/[0-9]*; do
		[ "$(awk '/^State:/ { print $2 }' "$p/status" 2>/dev/null)" = D ] || continue
		echo "task ${p##*/} ($(cat "$p/comm" 2>/dev/null)) waits: $(tr -s ' \n' ' ' < "$p/stack" 2>/dev/null | cut -c 1-300)"
	done | head -n 5
	kernel_log_since "$BLKFAST_MARK" 2>/dev/null | grep -E ' md(/|: |[0-9])' | tail -n 5
}

# devices_left: the md, dm, null_blk, bound loop and ublk devices there are.
devices_left() {
	local d
	for d in /sys/block/md* /sys/block/dm-* /sys/block/nullb* /sys/block/ublkb*; do
		[ -e "$d" ] && printf ' %s' "${d##*/}"
	done
	for d in /sys/block/loop*; do
		[ -e "$d/loop/backing_file" ] && printf ' %s' "${d##*/}"
	done
	for d in "$NULLB_CFS"/*; do
		[ -d "$d" ] && printf ' configfs:%s' "${d##*/}"
	done
}

# kernel_log_since MARKER: the kernel log from the line MARKER on; fails when
# the marker is no longer in the log buffer (tests/run boots with a large one).
kernel_log_since() {
	dmesg > /tmp/kernel.log
	grep -qF "$1" /tmp/kernel.log || return 1
	awk -v m="$1" 'index($0, m) { on = 1 } on' /tmp/kernel.log
}

# case_kernel_log: inside a case, the kernel log since this try of it began.
case_kernel_log() { kernel_log_since "$BLKFAST_MARK"; }

# indent: every line four spaces in (a nested KTAP subtest), line by line:
# busybox sed would hold the lines back until its input ends.
indent() { awk '{ print "    " $0; fflush() }'; }

# run_case FILE NAME LABEL: run case NAME of FILE once in a session of its own,
# tear down, check the kernel log; print "ok"/"not ok" for it as LABEL with
# number $CASE_NO. A lost race (race_lost: exit 5) runs it again, slower. A
# case may leave a KTAP subtest of its own in /tmp/case.ktap (ublk.sh): it is
# printed nested under the case's result.
run_case() {
	local file=$1 c=$2 label=$3 try=0 rc pid wd t0 secs bad why
	while :; do
		rm -f /tmp/skip-reason /tmp/race-lost /tmp/case-timeout /tmp/case.ktap /tmp/case-pid \
			/tmp/case-allow /tmp/polled-asserted /tmp/poll-mark /tmp/teardown-diag \
			/tmp/mdadm-stop-failed
		BLKFAST_MARK="blkfast: case ${file##*/}:$c run $CASE_NO try $try"
		export BLKFAST_MARK
		echo "$BLKFAST_MARK" > /dev/kmsg
		echo "# case: $label"
		t0=$(date +%s)
		BLKFAST_IN_CASE=$c BLKFAST_SLOWER=$try setsid sh "$file" > /tmp/case.log 2>&1 &
		pid=$!
		# the watchdog has a session of its own too, so that killing it
		# takes its sleep along
		setsid sh -c 'sleep "$1"; : > /tmp/case-timeout; kill -KILL -"$2" 2>/dev/null' \
			watchdog "$CASE_TIMEOUT" "$pid" &
		wd=$!
		wait "$pid"
		rc=$?
		kill -KILL -"$wd" 2>/dev/null
		wait "$wd" 2>/dev/null
		# what the case left running (fio in the background) goes now,
		# before the teardown, and so do its kprobes
		kill -KILL -"$pid" 2>/dev/null
		probes_remove > /dev/null 2>&1
		why=""
		[ "$(cat /tmp/case-pid 2>/dev/null)" = "$pid" ] ||
			why="the case did not run as the process run_case waited for"
		if [ -e /tmp/case-timeout ]; then
			why="timed out after ${CASE_TIMEOUT}s (blocked tasks: see the console)"
			echo 1 > /proc/sys/kernel/sysrq
			echo w > /proc/sysrq-trigger
			# the stacks are printed at KERN_INFO, below the console's
			# loglevel: copy them from the kernel log to the console
			sleep 1
			dmesg | awk '/sysrq: Show Blocked State/ { on = 1; b = "" }
				on { b = b $0 "\n" } END { printf "%s", b }' |
				head -n 400 > /dev/console
			# and where the devices' requests are: in flight, in a
			# hardware queue's dispatch list or busy in the driver
			blk_state > /dev/console 2>&1
		fi
		if ! cleanup_devices >> /tmp/case.log 2>&1; then
			why="${why:+$why; }the teardown failed: $(tail -n 1 /tmp/case.log)"
		fi
		secs=$(( $(date +%s) - t0 ))
		# the case's output on the console, in among the kernel's messages
		sed "s/^/[$c] /" /tmp/case.log > /dev/console
		# the window closes before it is read: a report after the end
		# marker is the next check's (kernel_log_outside_cases)
		echo "blkfast: end of case ${file##*/}:$c run $CASE_NO try $try" > /dev/kmsg
		if ! bad=$(kernel_log_since "$BLKFAST_MARK"); then
			why="${why:+$why; }the kernel log lost the case's marker (log buffer too small)"
		else
			bad=$(echo "$bad" | awk '/blkfast: end of case / { exit } { print }' |
				kernel_log_bad | head -n 5)
		fi
		if [ -z "$bad" ] && [ -z "$why" ] && [ "$rc" = 5 ] && [ -s /tmp/race-lost ] &&
		   [ "$try" -lt "$RACE_RETRIES" ]; then
			log "$c: race lost ($(cat /tmp/race-lost)), again slower"
			try=$((try + 1))
			continue
		fi
		break
	done
	if [ -s /tmp/case.ktap ]; then
		printf 'KTAP version 1\n# Subtest: %s\n' "$c" | cat - /tmp/case.ktap | indent
	fi
	echo "# blkfast-time: $secs"
	if [ -n "$bad" ] || [ -n "$why" ]; then
		echo "not ok $CASE_NO $label"
		[ -z "$why" ] || echo "#   $why"
		[ ! -s /tmp/teardown-diag ] || sed 's/^/#   /' /tmp/teardown-diag
		[ -z "$bad" ] || echo "$bad" | sed 's/^/#   kernel: /'
	elif [ "$rc" = 4 ] && [ -s /tmp/skip-reason ]; then
		echo "ok $CASE_NO $label # SKIP $(head -n 1 /tmp/skip-reason)"
	elif [ "$rc" = 0 ]; then
		echo "ok $CASE_NO $label"
		[ "$try" = 0 ] || echo "#   passed on try $((try + 1)), after $try lost race(s)"
	else
		echo "not ok $CASE_NO $label"
		case $rc in
		4) echo "#   exited with status 4 without calling skip" ;;
		5) [ ! -s /tmp/race-lost ] ||
		   echo "#   the race it needs was lost $((try + 1)) times: $(cat /tmp/race-lost)" ;;
		esac
		tail -n 15 /tmp/case.log | sed 's/^/#   /'
	fi
}

# kernel_log_outside_cases: reports in the kernel log that no case's check
# covered (at boot, between cases, after the last one).
kernel_log_outside_cases() {
	dmesg | awk '/blkfast: case [^ ]+ run [0-9]+ try [0-9]+$/ { in_case = 1 }
		!in_case { print }
		/blkfast: end of case / { in_case = 0 }' | grep -E "$KERNEL_BAD" | head -n 5
}

# run_cases NAME...: the KTAP subtest of one file: every case (or those in
# BLKFAST_CASES), each BLKFAST_REPEAT times.
run_cases() {
	local file=$0 area c sel="" n reps=${BLKFAST_REPEAT:-1} r label
	if [ -n "${BLKFAST_IN_CASE:-}" ]; then
		# run_case checks that this is the process it waits for (a
		# setsid that forked would leave the case running unwaited)
		echo $$ > /tmp/case-pid
		set -e
		"case_$BLKFAST_IN_CASE"
		! command -v after_case >/dev/null || after_case
		exit 0
	fi
	area=${file##*/}; area=${area%.sh}
	for c in ${BLKFAST_CASES:-}; do
		case " $* " in
		*" $c "*) ;;
		*) echo "run_cases: $area has no case $c" >&2; exit 2 ;;
		esac
	done
	# in the file's order, whatever the order of BLKFAST_CASES (a case may
	# rely on the ones before it)
	for c; do
		case " ${BLKFAST_CASES:-$*} " in *" $c "*) sel="$sel $c" ;; esac
	done
	n=$(echo $sel | wc -w)
	echo "KTAP version 1"
	echo "# Subtest: $area"
	echo "1..$((n * reps))"
	CASE_NO=0
	for c in $sel; do
		r=0
		while [ "$r" -lt "$reps" ]; do
			r=$((r + 1))
			CASE_NO=$((CASE_NO + 1))
			label=$c
			[ "$reps" = 1 ] || label="$c (run $r of $reps)"
			run_case "$file" "$c" "$label"
		done
	done
}

# ktap_verdict KTAPFILE RC: empty if the KTAP document (its top level) of a
# script that exited with RC is complete and passed; else what is wrong.
ktap_verdict() {
	awk -v rc="$2" '
		/^1\.\./ { plan = substr($0, 4) + 0; seen = 1 }
		/^ok / { n++ } /^not ok / { n++; bad++ }
		/^ok .* # SKIP *$/ { noreason++ }
		END {
			if (rc != 0) print "exited with status " rc
			else if (!seen) print "printed no plan"
			else if (n != plan) print "planned " plan " results, printed " n
			else if (bad) print bad " failed"
			else if (noreason) print noreason " skipped without a reason"
		}' "$1"
}

# ktap_script NAME CMD...: run CMD, a script that prints a KTAP document
# of its own (a kselftest), and fail the case when the script exits
# non-zero, prints another number of results than its plan (it died
# midway), fails or skips a result without a reason, or skips as a whole
# (plan 1..0). The script's document is in /tmp/case.ktap.
ktap_script() {
	local name=$1 rc=0 verdict
	shift
	"$@" > /tmp/case.ktap 2>&1 || rc=$?
	verdict=$(ktap_verdict /tmp/case.ktap "$rc")
	[ -z "$verdict" ] || fail "$name $verdict"
	! grep -q '^1\.\.0' /tmp/case.ktap ||
		fail "$name skipped all its cases: $(grep '^1\.\.0' /tmp/case.ktap)"
}

# area_result N AREA KTAPFILE RC: the top-level result line of an area: ok
# only if it exited 0 and printed a complete, passing KTAP document.
area_result() {
	local verdict
	verdict=$(ktap_verdict "$3" "$4")
	if [ -z "$verdict" ]; then
		echo "ok $1 $2"
	else
		echo "# $verdict"
		echo "not ok $1 $2"
	fi
}

# run_areas AREA...: the guest side of tests/run, one KTAP document: the
# boot (a clean boot log, the kernel that tests/run expects) and every area
# as a subtest. Areas read BLKFAST_CASES_<area> (dashes as underscores) for
# their case selection.
# load_modules: on a modular kernel (tests/run -m), load the modules the
# tests use, those of them that were built as modules (the others are built
# in or not built), in an order that needs no depmod (insmod); prints what
# failed to load.
TEST_MODULES="dm-mod dm-multipath dm-round-robin dm-service-time loop
ublk_drv mq-deadline bfq null_blk"
load_modules() {
	local m args
	[ -d /blkfast/modules ] || return 0
	for m in $TEST_MODULES; do
		[ -f "/blkfast/modules/$m.ko" ] || continue
		args=""
		[ "$m" != null_blk ] || args=nr_devices=0
		# shellcheck disable=SC2086
		insmod "/blkfast/modules/$m.ko" $args 2>&1 ||
			echo "cannot load module $m"
	done
}

run_areas() {
	local a bad n=1 want rc var
	echo "KTAP version 1"
	echo "1..$(($# + 2))"
	echo "    KTAP version 1"
	echo "    # Subtest: boot"
	echo "    1..2"
	bad=$(load_modules)
	bad=${bad:+$bad
}$(dmesg | grep -E "$KERNEL_BAD" | head -n 3)
	bad=${bad%
}
	if [ -n "$bad" ]; then
		echo "    not ok 1 kernel_log_clean"
		echo "$bad" | sed 's/^/    #   kernel: /'
	else
		echo "    ok 1 kernel_log_clean"
	fi
	want=$(sed -n 's/.*blkfast.build=\([^ ]*\).*/\1/p' /proc/cmdline)
	if [ -z "$want" ]; then
		echo "    ok 2 kernel_is_current # SKIP no blkfast.build= on the command line"
	elif uname -v | grep -q "^#$want "; then
		echo "    ok 2 kernel_is_current"
	else
		echo "    not ok 2 kernel_is_current"
		echo "    #   expected a kernel built from $want, booted: $(uname -v)"
	fi
	[ -z "$bad" ] && uname -v | grep -q "^#${want:-.*} " &&
		echo "ok 1 boot" || echo "not ok 1 boot"
	for a in "$@"; do
		n=$((n + 1))
		var=BLKFAST_CASES_$(echo "$a" | tr -- -/ __)
		eval "BLKFAST_CASES=\${$var:-}"
		export BLKFAST_CASES
		{ sh "./$a.sh"; echo "$?" > /tmp/area-rc; } 2>&1 | tee /tmp/area.ktap | indent
		rc=$(cat /tmp/area-rc)
		area_result "$n" "${a##*/}" /tmp/area.ktap "$rc"
	done
	bad=$(kernel_log_outside_cases)
	if [ -n "$bad" ]; then
		echo "not ok $((n + 1)) kernel_log_clean_between_cases"
		echo "#   kernel reports outside every case's check:"
		echo "$bad" | sed 's/^/#   kernel: /'
	else
		echo "ok $((n + 1)) kernel_log_clean_between_cases"
	fi
}
