#!/bin/sh
# ublk: the kselftests of tools/testing/selftests/ublk from the series (the
# kublk server in plain, need_get_data and user_copy modes; a killed server;
# malformed commands). tests/run builds kublk and puts it in /blkfast/ublk.
# Each script checks the kernel log itself; case names get the script's name.
if [ ! -x /blkfast/ublk/kublk ]; then
	echo "ok 1 ublk # SKIP kublk was not built (no ublk selftests in the tree)"
	exit 0
fi
cd /blkfast/ublk || exit 1
for t in test_modes test_kill test_badcmd; do
	# diagnostics ("# FAIL: ...", "# kernel: ...") indented so that
	# tests/run shows them
	sh "./$t.sh" 2>&1 | sed -e "s/^\(\(not \)\{0,1\}ok [0-9]* \)/\1$t: /" \
		-e 's/^# \(FAIL:\|kernel:\|timed out\|removing\)/#   \1/'
done
