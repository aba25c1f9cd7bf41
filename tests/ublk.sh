#!/bin/sh
# ublk: the kselftests of tools/testing/selftests/ublk from the series (the
# kublk server in plain, need_get_data and user_copy modes; a killed server;
# malformed commands). tests/run builds kublk and puts it in /blkfast/ublk.
# Each script is one case here, run like every other case (process group,
# timeout, teardown with "kublk del -a", kernel log check), with the script's
# own KTAP results nested under it; it fails when the script exits non-zero,
# prints fewer results than its plan, or skips without a reason.
. ./lib.sh
CASE_TIMEOUT=1200
UBLK_SCRIPTS="test_modes test_kill test_badcmd"

# ublk_script NAME: run NAME.sh, its KTAP document to /tmp/case.ktap
ublk_script() {
	local rc=0 verdict
	cd /blkfast/ublk
	sh "./$1.sh" > /tmp/case.ktap 2>&1 || rc=$?
	verdict=$(ktap_verdict /tmp/case.ktap "$rc")
	[ -z "$verdict" ] || fail "$1.sh $verdict"
}
case_test_modes() { ublk_script test_modes; }
case_test_kill() { ublk_script test_kill; }
case_test_badcmd() { ublk_script test_badcmd; }

if [ -z "${BLKFAST_IN_CASE:-}" ] && [ ! -x /blkfast/ublk/kublk ]; then
	echo "KTAP version 1"
	echo "# Subtest: ublk"
	echo "1..0 # SKIP kublk was not built (no ublk selftests in the tree)"
	exit 0
fi
# shellcheck disable=SC2086
run_cases $UBLK_SCRIPTS
