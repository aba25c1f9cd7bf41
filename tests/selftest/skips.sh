#!/bin/sh
# Not a test of the kernel: an area that skips as a whole (a KTAP plan of
# 1..0 with a reason). A case may skip with a reason; a whole area may not:
# tests/run fails it (scripts/ktap-summary).
echo "KTAP version 1"
echo "# Subtest: skips"
echo "1..0 # SKIP nothing here to test"
