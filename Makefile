# blkfast: the front door. See README.md.
#
#   make            install what is missing, fetch the base, apply the series,
#                   build, boot the patched kernel and show the demo table
#   make check      checkpatch, clean apply, per-commit builds, distribution-like
#                   build, debug kernel, the runner's self-test, the tests
#   make bench      base vs patched kernel, build/bench/report.md
#
# Steps one at a time: deps fetch tree build build-debug demo test export
# checkpatch bisect distro-build combined-patch shell. KSRC=/path/to/linux
# uses your own v6.12.y tree as the base; JOBS=N sets make -j (default: the
# number of CPUs).
#
# test, demo and shell first build their kernel from build/linux as it is,
# uncommitted edits included ('make tree' brings build/linux up to date with
# patches/; make check does that first): the kernel carries the tree's commit
# (uname -v) and tests/run refuses one that does not match.
#
#   make test T="md-raid poll:md_raid1_poll" N=20    cases, each N times

SHELL := /bin/bash
S := scripts
export JOBS ?= $(shell nproc)

# One step at a time, whatever -j says: a test must not boot a kernel that is
# still being built, and the kernel builds use every CPU themselves.
.NOTPARALLEL:

.PHONY: all deps fetch tree have-tree build build-debug build-base demo test test-rt check \
	checkpatch applies bisect distro-build test-runner export bench combined-patch \
	shell clean

all: deps tree build demo

deps:
	@$(S)/install-deps

fetch:
	@$(S)/fetch-base

tree: fetch
	@$(S)/apply-series

# build/linux as it is; made from patches/ only when there is none yet
have-tree:
	@[ -d build/linux/.git ] || $(MAKE) --no-print-directory tree

build: have-tree
	@$(S)/build-kernel patched >/dev/null
	@echo "kernel: build/obj/patched/arch/x86/boot/bzImage"

build-debug: have-tree
	@$(S)/build-kernel debug >/dev/null

build-base: have-tree
	@$(S)/build-kernel base >/dev/null

demo: build
	@$(S)/run-guest -k build/obj/patched/arch/x86/boot/bzImage -n demo -t 900 \
		-p tests -- sh -c 'cd /blkfast/tests && sh ./demo'

# The in-guest tests on the debug kernel: T="poll md-raid:raid1_resync" picks
# areas and cases, N=20 runs each case 20 times (tests/run -n).
test: build-debug
	@tests/run $(if $(N),-n $(N)) $(T)

# The same on the distribution-like kernel (PREEMPT_RT, lockdep, modules),
# by default the cases make check runs there.
test-rt: have-tree
	@$(S)/build-kernel distro bzImage modules >/dev/null
	@tests/run -k build/obj/distro/arch/x86/boot/bzImage -m build/obj/distro \
		$(if $(N),-n $(N)) $(or $(T),$(RT_TESTS))

# make check: the checks in this order, stopping at the first failure.
# dm-mpath runs on two kernels: on the debug kernel (KASAN) the cases whose
# code differs without PREEMPT_RT (paths that complete in task context: ublk)
# and the basic ones; the whole area on the distribution-like PREEMPT_RT
# kernel with lockdep. Loop paths complete in softirq context, where dm-rq
# takes the same path with and without PREEMPT_RT.
AREAS := $(filter-out lib,$(basename $(notdir $(wildcard tests/*.sh))))
DEBUG_MPATH := mpath_verify,mpath_nowait,ublk_paths_verify,ublk_path_killed,ublk_reload_under_io,ublk_remove_under_io,ublk_cpu_offline
DEBUG_TESTS := $(patsubst dm-mpath,dm-mpath:$(DEBUG_MPATH),$(AREAS))
RT_TESTS := dm-mpath
check: deps tree
	@echo "== checkpatch --strict"; $(S)/checkpatch-series
	@echo "== the series applies to the base without fuzz"; $(S)/check-applies
	@echo "== every commit builds without new warnings"; $(S)/build-each-commit
	@echo "== distribution-like build without new warnings"; $(S)/check-distro-build
	@echo "== debug kernel"; $(S)/build-kernel debug >/dev/null
	@echo "== the test runner fails what it must"; $(S)/check-test-runner
	@echo "== tests on the debug kernel"; tests/run $(DEBUG_TESTS)
	@echo "== dm-mpath on the distribution-like kernel (PREEMPT_RT, lockdep, modules)"; \
		tests/run -k build/obj/distro/arch/x86/boot/bzImage -m build/obj/distro $(RT_TESTS)

distro-build: have-tree
	@$(S)/check-distro-build

test-runner: build-debug
	@$(S)/check-test-runner

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

shell: have-tree
	@$(S)/build-kernel $(or $(FLAVOR),patched) >/dev/null
	@$(S)/run-guest -k build/obj/$(or $(FLAVOR),patched)/arch/x86/boot/bzImage -p tests

clean:
	rm -rf build/obj build/guest build/bench build/tests
