#!/bin/sh
# ublk: the ublk kselftests, with their server (kublk) built by tests/run
# (scripts/build-kublk) and put in /blkfast/ublk. Which ones depends on the
# base:
# - 6.12: the series' tools/testing/selftests/ublk_abi (kublk in plain,
#   need_get_data and user_copy modes; a killed server; malformed commands),
#   KTAP scripts. A case fails when the script exits non-zero, prints another
#   number of results than its plan (it died midway), skips without a reason,
#   or skips as a whole (plan 1..0: kublk or fio missing).
# - 7.x: mainline's tools/testing/selftests/ublk, bash scripts that exit 0
#   (pass), 4 (skip) or anything else (fail): the test the series adds there
#   (test_generic_18: a read completed with more bytes than it asked for),
#   and those that cover what the 6.12 series fixed and 7.x fixed on its own
#   (test_generic_17: a server that dies while a queue is partly fetched;
#   test_null_01 as the basic I/O path). A skip fails here: the guest has
#   what they need.
# (Both directories have a test_common.sh; mainline's is told apart by its
# fault_inject target's source.)
# Each script is one case, run like every other case (process group,
# timeout, teardown with "kublk del -a", kernel log check).
. ./lib.sh
CASE_TIMEOUT=1200
if [ -f /blkfast/ublk/fault_inject.c ]; then
	UBLK_SCRIPTS="test_null_01 test_generic_17 test_generic_18"
else
	UBLK_SCRIPTS="test_modes test_kill test_badcmd"
fi

# ublk_script NAME: run NAME.sh (6.12: tests/lib.sh: ktap_script)
ublk_script() {
	local rc=0
	cd /blkfast/ublk
	if [ ! -f fault_inject.c ]; then
		ktap_script "$1.sh" sh "./$1.sh"
		return
	fi
	TMPDIR=/tmp bash "./$1.sh" || rc=$?
	[ "$rc" != 4 ] || fail "$1.sh skipped"
	[ "$rc" = 0 ] || fail "$1.sh exited $rc"
}
case_test_modes() { ublk_script test_modes; }
case_test_kill() { ublk_script test_kill; }
case_test_badcmd() { ublk_script test_badcmd; }
case_test_null_01() { ublk_script test_null_01; }
case_test_generic_17() { ublk_script test_generic_17; }
case_test_generic_18() { ublk_script test_generic_18; }

# tests/run copies the selftests to /blkfast/ublk when the tree has them
# (scripts/build-kublk): a tree without them (a KSRC tree of another
# version) skips the area as a whole, which fails the run
# (scripts/ktap-summary); one with them but without a server fails every
# case.
if [ -z "${BLKFAST_IN_CASE:-}" ] && [ ! -d /blkfast/ublk ]; then
	echo "KTAP version 1"
	echo "# Subtest: ublk"
	echo "1..0 # SKIP the tree has no ublk selftests"
	exit 0
fi
[ -n "${BLKFAST_IN_CASE:-}" ] || [ -x /blkfast/ublk/kublk ] ||
	echo "# /blkfast/ublk/kublk was not built: every case fails" >&2
# shellcheck disable=SC2086
run_cases $UBLK_SCRIPTS
