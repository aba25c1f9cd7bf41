#!/bin/sh
# Not a test of the kernel: an area that prints a plan it does not keep, a
# warning between cases and a non-zero exit (see harness.sh).
echo "KTAP version 1"
echo "# Subtest: broken"
echo "1..3"
echo "ok 1 first"
echo "WARNING: injected outside any case" > /dev/kmsg
exit 3
