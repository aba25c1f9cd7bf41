# Shared settings of the blkfast scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# BASE picks the series and its pinned base: patches/$BASE/ holds the patches,
# series, cover-letter, checkpatch-exceptions and base (the pin); everything
# built from it goes to build/$BASE/. Tools that do not depend on the kernel
# (fio, liburing: build/test-tools) are shared.
BASE=${BASE:-7.2}
SERIES=$TOP/patches/$BASE
[ -f "$SERIES/base" ] || { echo "no series for BASE=$BASE (there are: $(cd "$TOP/patches" && ls -d */ | tr -d / | paste -sd' '))" >&2; exit 2; }
BUILD=$TOP/build/$BASE
SHARED_BUILD=$TOP/build
TREE=$BUILD/linux                # the patched kernel git tree
BASE_TREE=$BUILD/linux-base      # worktree at the base, for base-kernel builds
BASE_TAG=blkfast-base
BRANCH=blkfast
IDENT_NAME="blkfast developers"
IDENT_EMAIL="dev@blkfast.invalid"
JOBS=${JOBS:-$(nproc)}

# What survives a fresh clone on the same machine: the base's download and
# ccache's objects, in BLKFAST_CACHE (default ~/.cache/blkfast), never the
# kernel trees or object directories. Every kernel build compiles through
# ccache when the host has it (make deps installs it): ccache finds an object
# by a hash of the compiler, its options and the preprocessed source (or, in
# its direct mode, of the source and every header it read), so an object is
# reused only for the same input; a cold cache (a new machine) only builds
# slower. CCACHE_BASEDIR makes the clone's absolute paths relative in the
# hash and in the dependency files, so that another clone of the repository
# hits the same objects. BLKFAST_CCACHE=0 builds without it.
CACHE=${BLKFAST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blkfast}
KMAKE=(make)
if [ "${BLKFAST_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null; then
	export CCACHE_DIR=$CACHE/ccache CCACHE_BASEDIR=$TOP
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-25G}
	KMAKE=(make CC="ccache gcc" HOSTCC="ccache gcc")
fi

# One format for every patch the scripts write or compare: no numbering, no
# commit ids and no git version, so that an unchanged commit exports to an
# unchanged file.
FORMAT_PATCH=(format-patch --zero-commit --no-signature -N --abbrev=12 --subject-prefix=PATCH)

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
say() { echo "$(basename "$0"): $*"; }

# The patch file names listed in patches/$BASE/series, in order.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$SERIES/series"
}

# series_sections: the sections of the series, one "N NAME PATCH..." line each
# in order: a "# ..." comment line opens section N (the first is the fixes,
# the last the release patch), NAME is the comment's first word; sections
# without patches are left out
series_sections() {
	awk 'NR == 1 { next }
		/^#/ { n++; name[n] = $2; sub(/[^A-Za-z0-9_-].*/, "", name[n]); next }
		/\.patch[[:space:]]*$/ { p[n] = p[n] " " $1 }
		END { for (i = 1; i <= n; i++) if (p[i] != "") print i " " name[i] p[i] }' "$SERIES/series"
}

# One commit of the tree as a patch file. format-patch folds a long Subject:
# header over two lines; it is unfolded here (git am reads either) so that a
# commit's subject can be found in patches/ with grep, as export-series itself
# looks it up.
commit_patch() {
	git -C "$TREE" "${FORMAT_PATCH[@]}" --stdout -1 "$1" |
		awk 'hdr == 0 && /^Subject: / { subj = $0; next }
		     subj != "" && /^ / { subj = subj $0; next }
		     subj != "" { print subj; subj = ""; hdr = 1 }
		     { print }'
}

# build_id SRC: what a kernel built from the git tree SRC now is built from:
# the commit (12 digits), and for a tree with uncommitted changes "-d" and a
# hash of them. scripts/build-kernel puts it in the kernel (uname -v starts
# with "#ID ") and in the object directory's blkfast-build file; tests/run
# refuses a kernel whose ID is not the tree's and checks it again at boot.
build_id() {
	local id diff
	id=$(git -C "$1" rev-parse --short=12 HEAD)
	diff=$(git -C "$1" diff HEAD 2>/dev/null | sha256sum | cut -c1-8)
	[ -z "$(git -C "$1" status --porcelain --untracked-files=no)" ] || id=$id-d$diff
	echo "$id"
}

# warnings LOG...: the compiler's, the linker's and modpost's warnings in
# build logs, one per line as "path: warning: message [-Wflag]" (no line
# numbers, no tree or object directory prefix, absolute or, through ccache's
# CCACHE_BASEDIR, relative to the object directory), sorted, repeats kept, so that
# the same warnings compare equal at two commits.
warnings() {
	{ grep -hE ': warning: |^WARNING: ' "$@" || true; } |
		sed -E 's,[^ ]*/build/([^/ ]*/)?(linux[^/ ]*|obj/[^/ ]*)/,,g; s,(^|[ (])(\.\./)+(linux[^/ ]*|obj/[^/ ]*)/,\1,g
			s,^([^: ]+):[0-9]+(:[0-9]+)?: ,\1: ,' | sort
}

# new_warnings TIP BASE: the lines of the sorted list TIP that occur in it more
# often than in BASE.
new_warnings() {
	awk 'NR == FNR { base[$0]++; next } ++tip[$0] > base[$0]' "$2" "$1"
}

# forget_objects OBJDIR WARNINGS: delete the objects of the files named in
# WARNINGS (for a header, of every file that includes it), so that the next
# build compiles them again and shows the warnings again: kbuild does not
# repeat the warnings of an object it does not rebuild.
forget_objects() {
	local f cmd
	for f in $(cut -d: -f1 <<< "$2" | sort -u); do
		case $f in
		*.h) { grep -rlF --include='.*.o.cmd' "/$f" "$1" 2>/dev/null || true; } |
			while read -r cmd; do
				f=${cmd##*/}; f=${f#.}
				rm -f "$(dirname "$cmd")/${f%.cmd}"
			done ;;
		# modpost and the linker run again only when their inputs change
		WARNING) rm -f "$1/Module.symvers" "$1/vmlinux.o" ;;
		ld) rm -f "$1/vmlinux.o" "$1/vmlinux" ;;
		*.c|*.S) rm -f "$1/${f%.*}.o" ;;
		esac
	done
}
