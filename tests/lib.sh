# Helpers for the in-guest tests; sourced by tests/*.sh (busybox sh).
#
# A test file defines case_<name> functions and ends with
#	run_cases name1 name2 ...
# run_cases prints KTAP: a plan, then "ok N name" or "not ok N name" per case.
# Each case runs in a shell of its own under a timeout; it fails when it exits
# non-zero, times out, or when the kernel log shows a warning, a BUG, a
# lockdep or KASAN report while it ran. A case skips by calling skip "why".
# After every case all null_blk, md, dm and loop devices are torn down.

CASE_TIMEOUT=${CASE_TIMEOUT:-600}
NULLB_CFS=/sys/kernel/config/nullb

# What in the kernel log fails a case.
KERNEL_BAD='WARNING:|BUG:|BUG |Oops|KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|lock held when returning|suspicious RCU usage|INFO: task .* blocked for more than|soft lockup|hard LOCKUP|rcu_sched self-detected|rcu: INFO|general protection fault|list_add corruption|list_del corruption|refcount_t:|Kernel panic|Call Trace:'

log() { echo "# $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*" > /tmp/skip-reason; exit 4; }

# run CMD...: run a command, log it, fail the case if it fails.
run() {
	echo "+ $*" >&2
	"$@" || fail "'$*' exited with $?"
}

# expect_fail CMD...: the command must fail.
expect_fail() {
	echo "+ (must fail) $*" >&2
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

# resync_speed slow [KB/s]|fast: slow resync and recovery down (default to
# 5000 KB/s) so that fio runs while they do, or let them finish.
resync_speed() {
	case $1 in
	slow) echo "${2:-5000}" > /proc/sys/dev/raid/speed_limit_min
	      echo "${2:-5000}" > /proc/sys/dev/raid/speed_limit_max ;;
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

# md_check_clean DEV: a "check" over the whole mirror finds no mismatch.
md_check_clean() {
	local md=${1#/dev/} cnt
	md_wait "/dev/$md"
	echo check > "/sys/block/$md/md/sync_action"
	md_wait "/dev/$md"
	cnt=$(cat "/sys/block/$md/md/mismatch_cnt")
	[ "$cnt" = 0 ] || fail "$md: mismatch_cnt is $cnt after check"
}

# Leave no device behind, whatever the case did (dm twice: md may stack on
# dm and dm on md).
cleanup_devices() {
	local d
	dmsetup remove_all --force >/dev/null 2>&1
	for d in /dev/md[0-9]* /dev/md/*; do
		[ -b "$d" ] && mdadm --stop "$d" >/dev/null 2>&1
	done
	dmsetup remove_all --force >/dev/null 2>&1
	for d in /dev/loop[0-9]*; do
		losetup -d "$d" 2>/dev/null
	done
	rm -f /tmp/*.img
	for d in "$NULLB_CFS"/*; do
		[ -d "$d" ] || continue
		echo 0 > "$d/power" 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
	return 0
}

run_cases() {
	local file=$0 n=0 c rc bad t0
	if [ -n "${BLKFAST_CASE:-}" ]; then
		set -e
		"case_$BLKFAST_CASE"
		exit 0
	fi
	echo "KTAP version 1"
	echo "1..$#"
	for c in "$@"; do
		n=$((n + 1))
		rm -f /tmp/skip-reason
		t0=$(date +%s)
		dmesg -c >/dev/null
		echo "# case: $c"
		echo "blkfast: case $c" > /dev/kmsg
		set -o pipefail
		BLKFAST_CASE=$c timeout -s KILL "$CASE_TIMEOUT" sh "$file" 2>&1 |
			tee /tmp/case.log >/dev/console
		rc=$?
		set +o pipefail
		echo "# $c: $(( $(date +%s) - t0 ))s"
		bad=$(dmesg | grep -E "$KERNEL_BAD" | head -n 3)
		if [ "$rc" -eq 137 ]; then
			echo 1 > /proc/sys/kernel/sysrq
			echo w > /proc/sysrq-trigger
			echo "timed out after ${CASE_TIMEOUT}s" >> /tmp/case.log
		fi
		if [ -n "$bad" ]; then
			echo "not ok $n $c"
			echo "$bad" | sed 's/^/#   kernel: /'
		elif [ "$rc" -eq 4 ]; then
			echo "ok $n $c # SKIP $(cat /tmp/skip-reason 2>/dev/null)"
		elif [ "$rc" -eq 0 ]; then
			echo "ok $n $c"
		else
			echo "not ok $n $c"
			tail -n 15 /tmp/case.log | sed 's/^/#   /'
		fi
		cleanup_devices
	done
}

# run_areas AREA...: the guest side of tests/run: a clean boot log, then
# every area's cases.
run_areas() {
	local a bad
	echo "# area: boot"
	echo "KTAP version 1"
	echo "1..1"
	bad=$(dmesg | grep -E "$KERNEL_BAD" | head -n 3)
	if [ -n "$bad" ]; then
		echo "not ok 1 kernel_log_clean"
		echo "$bad" | sed 's/^/#   kernel: /'
	else
		echo "ok 1 kernel_log_clean"
	fi
	for a in "$@"; do
		echo "# area: $a"
		sh "./$a.sh"
	done
}
