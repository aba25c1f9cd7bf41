# Shared settings of the blkfast scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
TREE=$BUILD/linux                # the patched kernel git tree
BASE_TREE=$BUILD/linux-base      # worktree at the base, for base-kernel builds
BASE_TAG=blkfast-base
BRANCH=blkfast
IDENT_NAME="blkfast developers"
IDENT_EMAIL="dev@blkfast.invalid"
JOBS=${JOBS:-3}

# One format for every patch the scripts write or compare: no numbering, no
# commit ids and no git version, so that an unchanged commit exports to an
# unchanged file.
FORMAT_PATCH=(format-patch --zero-commit --no-signature -N --abbrev=12 --subject-prefix=PATCH)

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
say() { echo "$(basename "$0"): $*"; }

# The patch file names listed in patches/series, in order.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$TOP/patches/series"
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
