# blkfast: the front door. See README.md.
#
#   make            install what is missing, fetch the base, apply the series,
#                   build, boot the patched kernel and show the demo table
#   make check      checkpatch, clean apply, per-commit builds, distribution-like
#                   build, debug kernel, the runner's self-test, the tests
#   make bench      base vs patched kernel, build/$(BASE)/bench/report.md
#
# BASE=7.2 (the default) or BASE=6.12 picks the series: patches/$(BASE)/,
# built in build/$(BASE)/. make ci is what CI runs: make check on one base,
# make check-smoke on the other.
#
# Steps one at a time: deps fetch tree build build-debug demo test export
# checkpatch bisect distro-build combined-patch release shell. KSRC=/path/to/linux
# uses your own v6.12.y or v7.2.y tree as the base; JOBS=N sets make -j
# (default: the number of CPUs).
#
# test, demo and shell first build their kernel from build/$(BASE)/linux as it
# is, uncommitted edits included ('make tree' brings it up to date with
# patches/$(BASE)/; make check does that first): the kernel carries the tree's commit
# (uname -v) and tests/run refuses one that does not match.
#
#   make test T="md-raid poll:md_raid1_poll" N=20    cases, each N times

SHELL := /bin/bash
S := scripts
export JOBS ?= $(shell nproc)
export BASE ?= 7.2
B := build/$(BASE)

# One step at a time, whatever -j says: a test must not boot a kernel that is
# still being built, and the kernel builds use every CPU themselves.
.NOTPARALLEL:

.PHONY: all deps fetch tree have-tree build build-debug build-base demo test test-rt check \
	check-smoke ci release \
	checkpatch applies bisect distro-build test-runner export bench combined-patch \
	shell clean

all: deps tree build demo

deps:
	@$(S)/install-deps

fetch:
	@$(S)/fetch-base

tree: fetch
	@$(S)/apply-series

# build/$(BASE)/linux as it is; made from patches/ only when there is none yet
have-tree:
	@[ -d $(B)/linux/.git ] || $(MAKE) --no-print-directory tree

build: have-tree
	@$(S)/build-kernel patched >/dev/null
	@echo "kernel: $(B)/obj/patched/arch/x86/boot/bzImage"

build-debug: have-tree
	@$(S)/build-kernel debug >/dev/null

build-base: have-tree
	@$(S)/build-kernel base >/dev/null

demo: build
	@$(S)/run-guest -k $(B)/obj/patched/arch/x86/boot/bzImage -n demo -t 900 \
		-p tests -- sh -c 'cd /blkfast/tests && sh ./demo'

# The in-guest tests on the debug kernel: T="poll md-raid:raid1_resync" picks
# areas and cases, N=20 runs each case 20 times (tests/run -n); without T,
# the cases make check runs on the debug kernel of BASE (DEBUG_TESTS_$(BASE)).
test: build-debug
	@tests/run $(if $(N),-n $(N)) $(or $(T),$(DEBUG_TESTS))

# The same on the distribution-like kernel (PREEMPT_RT, lockdep, modules),
# by default the cases make check runs there.
test-rt: have-tree
	@$(S)/build-kernel distro bzImage modules >/dev/null
	@tests/run -k $(B)/obj/distro/arch/x86/boot/bzImage -m $(B)/obj/distro \
		$(if $(N),-n $(N)) $(or $(T),$(RT_TESTS))

# make check: the checks in this order, stopping at the first failure.
# dm-mpath runs on two kernels: on the debug kernel (KASAN) the cases whose
# code differs without PREEMPT_RT (completions raised in task context: a
# loop device's own, dm over ublk paths: their I/O and a path's removal
# under it) and NOWAIT over loop paths (whose completions are raised
# from loop's worker too); the whole area, a killed ublk server, a
# reloaded one and the basic cases over loop paths included, on the
# distribution-like PREEMPT_RT kernel with lockdep (the killed and
# reloaded server left the debug kernel's list for CI's time, 3.5
# minutes; the basic loop-path cases on 2026-12-01, 70 s). bfq runs on
# both kernels as well: the whole area as a module without the debug
# statistics (as distributions build it) on the PREEMPT_RT one, and on
# the debug kernel (KASAN) all of it on 6.12 (make check BASE=6.12), on
# 7.2 the cases of its statistics, which need CONFIG_BFQ_CGROUP_DEBUG,
# and those that free what bfq uses (groups removed under I/O, a
# scheduler switch under load): the others left 7.2's debug list for
# CI's time (2 minutes; make test BASE=7.2 T=bfq runs them there).
AREAS := $(filter-out lib,$(basename $(notdir $(wildcard tests/*.sh))))
DEBUG_MPATH := mpath_nowait,ublk_paths_verify,ublk_remove_under_io,loop_completion_in_task
DEBUG_TESTS_6.12 := $(patsubst dm-mpath,dm-mpath:$(DEBUG_MPATH),$(AREAS))
# 7.2: the cases of what the 7.2 series has, and the test of every fix it
# sends to stable (Cc: stable) that the series' later patches leave
# visible: of the poll area, md polling (linear shares raid0's code; a
# write polled on each of five mirrors; raid1's and raid10's REQ_NOWAIT
# reads, polled and not, which stand for raid1's polled reads; the
# failure, reshape, io_poll, ring and refused-read cases are left to make
# test), dm's polling
# rule (tables that refuse: dm-crypt, dm-raid, a mixed table; tables that
# poll: the targets that opted in with no case of their own, and
# dm-inlinecrypt, whose writes go through blk-crypto-fallback's fix;
# polled I/O through reloads between a table that polls and one that
# does not; dm-linear whose polled bios dm requeues for want of a tag,
# stable fix 16) and
# null_blk; of md-raid, raid10's buckets under a resync (a write into
# each sync step over members that split the resync's reads, also over
# the end of a barrier unit of a 40 GiB array while other writes share
# its bucket; whole-stripe discards), under two far2 recoveries (a write
# into each step) and raid1's read retried during a freeze (the case
# whose retry is also split at md bad blocks, 105 s, 407 after a lost
# race and more after two, is left to make test on both bases). The
# rule hides the
# stable fixes of dm-crypt, dm-flakey, dm-cache, dm-raid, dm-zoned and
# dm-pcache (their tables no longer poll), so their cases check the rule;
# those of dm-flakey, dm-cache and dm-zoned, dm-pcache's (which needs
# EXTRA_CONFIG=more-dm and legacy pmem: README), of dm-linear, dm-stripe,
# dm-delay and dm-thin, NVMe's shared poll queue, raid5's refusal, mainline's
# test_null_01 and the other md-raid layouts are left to make test T=...,
# for CI's time. Mainline's ublk test_generic_17 (7.2's own recovery code,
# not the series') hung once in CI's run of 2026-11-30 (7.2 cover letter:
# known gaps) and is left to make test too.
POLL_7.2 := nullb_poll,dm_linear_poll_tag_starved,md_raid0_poll,md_raid10_poll,md_raid1_reads_inline,md_raid10_reads_inline,md_raid1_five_mirrors_poll,dm_crypt_poll,dm_raid1_poll,dm_inlinecrypt_poll,dm_other_targets_poll,dm_reload_poll,dm_mixed_table_poll
MDRAID_7.2 := raid1_read_retry_during_freeze,raid10_near2_resync_check_repair,raid10_near2_write_into_resync,raid10_near2_discard_whole_stripes,raid10_far2_write_into_two_recoveries,raid10_near2_write_into_resync_shared_bucket,raid10_near3_split_retry_barred
DEBUG_TESTS_7.2 := bfq:switch_under_load,cgroup_churn,cgroup_v1_stats,cgroup_v1_times dm-mpath:$(DEBUG_MPATH) md-raid:$(MDRAID_7.2) poll:$(POLL_7.2) ublk:test_generic_18
DEBUG_TESTS := $(DEBUG_TESTS_$(BASE))
RT_TESTS := dm-mpath bfq
# make check-smoke: what CI checks of the base it does not test fully: the
# checks of make check up to the debug kernel (the distribution-like build
# with modules, PREEMPT_RT and lockdep included), then on the debug kernel
# a case of each mechanism and of each fix that only that series has. On
# 6.12: md polling (raid10 with its nowait barrier helpers; raid1 reads
# that members refuse, which md requeues only on 6.12), dm's polling
# rule (a table of linear and crypt refuses polled I/O), raid10's
# buckets (a write into each sync step), completion in task context
# without ksoftirqd (dm-rq over ublk paths), dm-rq's NOWAIT, bfq (the
# cgroup statistics, a verify), null_blk polling, raid1's read retried
# during a freeze (not the case whose retry is split: make test), and
# the ublk driver fixes only the 6.12 series has
# (a killed server, malformed commands, the NEED_GET_DATA copy).
SMOKE_TESTS_6.12 := poll:nullb_poll,md_raid10_poll,md_raid1_reads_inline,dm_mixed_table_poll md-raid:raid1_read_retry_during_freeze,raid10_near2_write_into_resync,raid10_near3_split_retry_barred dm-mpath:mpath_nowait,ublk_paths_verify bfq:bfq_verify,cgroup_v1_stats,cgroup_v1_times ublk
SMOKE_TESTS_7.2 := poll:nullb_poll,md_raid0_poll,dm_linear_poll,dm_flakey_poll md-raid:raid10_near2_resync_check_repair dm-mpath:mpath_verify,mpath_nowait,ublk_paths_verify bfq:bfq_verify ublk:test_generic_18
SMOKE_TESTS := $(SMOKE_TESTS_$(BASE))
# CI: the full check on one base, the smoke check on the other (README:
# "CI: make ci"; its limit is 90 minutes: measured times per stage there).
CI_FULL_BASE := 7.2
CI_SMOKE_BASE := 6.12

# the checks both make check and make check-smoke begin with
define first_checks
	@echo "== [$(BASE)] checkpatch --strict"; $(S)/checkpatch-series
	@echo "== [$(BASE)] the series applies to the base without fuzz"; $(S)/check-applies
	@echo "== [$(BASE)] a change after a release record has a new release number"; $(S)/release --check
	@echo "== [$(BASE)] every commit builds without new warnings"; $(S)/build-each-commit
	@echo "== [$(BASE)] distribution-like build without new warnings"; $(S)/check-distro-build
	@echo "== [$(BASE)] debug kernel"; $(S)/build-kernel debug >/dev/null
endef

check: deps tree
	$(first_checks)
	@echo "== [$(BASE)] the test runner fails what it must"; $(S)/check-test-runner
	@echo "== [$(BASE)] tests on the debug kernel"; tests/run $(DEBUG_TESTS)
	@echo "== [$(BASE)] dm-mpath and bfq on the distribution-like kernel (PREEMPT_RT, lockdep, modules)"; \
		tests/run -k $(B)/obj/distro/arch/x86/boot/bzImage -m $(B)/obj/distro $(RT_TESTS)

check-smoke: deps tree
	$(first_checks)
	@echo "== [$(BASE)] smoke tests on the debug kernel"; tests/run $(SMOKE_TESTS)

ci:
	@$(MAKE) --no-print-directory check BASE=$(CI_FULL_BASE)
	@$(MAKE) --no-print-directory check-smoke BASE=$(CI_SMOKE_BASE)

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

# write the quilt tarball and the combined patch to build/$(BASE)/release/ and
# their sha256 to releases/; run again once that is committed to tag blkfast-$(BASE)-N
release: tree
	@$(S)/release

shell: have-tree
	@$(S)/build-kernel $(or $(FLAVOR),patched) >/dev/null
	@$(S)/run-guest -k $(B)/obj/$(or $(FLAVOR),patched)/arch/x86/boot/bzImage -p tests

clean:
	rm -rf $(B)/obj $(B)/guest $(B)/bench $(B)/tests
