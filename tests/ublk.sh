#!/bin/sh
# ublk: the kselftests of tools/testing/selftests/ublk_abi from the series (the
# kublk server in plain, need_get_data and user_copy modes; a killed server;
# malformed commands). tests/run builds kublk and puts it in /blkfast/ublk.
# Each script is one case here, run like every other case (process group,
# timeout, teardown with "kublk del -a", kernel log check), with the script's
# own KTAP results nested under it; it fails when the script exits non-zero,
# prints another number of results than its plan (it died midway), skips
# without a reason, or skips as a whole (plan 1..0: kublk or fio missing).
. ./lib.sh
CASE_TIMEOUT=1200
UBLK_SCRIPTS="test_modes test_kill test_badcmd"

# ublk_script NAME: run NAME.sh (tests/lib.sh: ktap_script)
ublk_script() {
	cd /blkfast/ublk
	ktap_script "$1.sh" sh "./$1.sh"
}
case_test_modes() { ublk_script test_modes; }
case_test_kill() { ublk_script test_kill; }
case_test_badcmd() { ublk_script test_badcmd; }

# tests/run copies the selftests to /blkfast/ublk when the tree has them
# (scripts/build-kublk): a kernel without the series skips, one with the
# selftests but without a server fails every case.
if [ -z "${BLKFAST_IN_CASE:-}" ] && [ ! -d /blkfast/ublk ]; then
	echo "KTAP version 1"
	echo "# Subtest: ublk"
	echo "1..0 # SKIP the tree has no tools/testing/selftests/ublk_abi"
	exit 0
fi
[ -n "${BLKFAST_IN_CASE:-}" ] || [ -x /blkfast/ublk/kublk ] ||
	echo "# /blkfast/ublk/kublk was not built: every case fails" >&2
# shellcheck disable=SC2086
run_cases $UBLK_SCRIPTS
