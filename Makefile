# blkfast: the front door. See README.md.
#
#   make            install what is missing, fetch the base, apply the series,
#                   build, boot the patched kernel and show the demo table
#   make check      checkpatch, clean apply, per-commit builds, debug-kernel tests
#   make bench      base vs patched kernel, build/bench/report.md
#
# Steps one at a time: deps fetch tree build build-debug demo test export
# checkpatch bisect combined-patch shell. KSRC=/path/to/linux uses your own
# v6.12.y tree as the base; JOBS=N sets make -j (default 3).

SHELL := /bin/bash
S := scripts

.PHONY: all deps fetch tree build build-debug build-base demo test check \
	checkpatch applies bisect export bench combined-patch shell clean

all: deps tree build demo

deps:
	@$(S)/install-deps

fetch:
	@$(S)/fetch-base

tree: fetch
	@$(S)/apply-series

build: tree
	@$(S)/build-kernel patched >/dev/null
	@echo "kernel: build/obj/patched/arch/x86/boot/bzImage"

build-debug: tree
	@$(S)/build-kernel debug >/dev/null

build-base: tree
	@$(S)/build-kernel base >/dev/null

demo:
	@$(S)/run-guest -k build/obj/patched/arch/x86/boot/bzImage -n demo -t 900 \
		-p tests -- sh -c 'cd /blkfast/tests && sh ./demo'

# The in-guest tests on the debug kernel; T="poll md-raid" picks areas.
test:
	@tests/run $(T)

# make check: the checks in this order, stopping at the first failure.
check: deps tree
	@echo "== checkpatch --strict"; $(S)/checkpatch-series
	@echo "== the series applies to the base without fuzz"; $(S)/check-applies
	@echo "== every commit builds"; $(S)/build-each-commit
	@echo "== debug kernel"; $(S)/build-kernel debug >/dev/null
	@echo "== tests on the debug kernel"; tests/run

applies: tree
	@$(S)/check-applies

bisect: tree
	@$(S)/build-each-commit

checkpatch: tree
	@$(S)/checkpatch-series

export:
	@$(S)/export-series

bench: deps tree
	@bench/run

combined-patch: tree
	@$(S)/combined-patch

shell:
	@$(S)/run-guest -k build/obj/$(or $(FLAVOR),patched)/arch/x86/boot/bzImage -p tests

clean:
	rm -rf build/obj build/guest build/bench
