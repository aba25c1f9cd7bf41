#!/bin/sh
# Not a test of the kernel: the guest dies in the middle of a case (a
# panic). scripts/check-test-runner boots it on its own, as a kernel that
# was not built from the tree (a blkfast.build that uname -v does not
# have) and with a module that cannot load (tests/run -m): the boot checks
# fail, and so does the run, although no case printed a result.
. ./lib.sh
case_panics() {
	echo 1 > /proc/sys/kernel/sysrq
	echo c > /proc/sysrq-trigger
	sleep 100
}
run_cases panics
