#!/usr/bin/env bash
# Apply a submission's patch to the checked-out tree, staged, only when every path it touches (both
# names of a rename or copy, deletions, mode changes) is the card's own file or raw folder, and each
# is a plain file. Usage: apply-submission-patch.sh SLUG PATCH. Exits non-zero, changing nothing, else.
set -euo pipefail

slug=$1
patch=$2
if ! [[ "$slug" =~ ^[a-z0-9][a-z0-9-]{0,99}$ ]]; then
  echo "unexpected slug" >&2
  exit 1
fi

allowed() {
  case "$1" in
    "data/cards/$slug.yaml" | "data/raw/$slug/"*) return 0 ;;
    *) return 1 ;;
  esac
}

# The patch's own headers, before git reads it: both names of every rename and copy (git's --numstat
# lists only the new one). A quoted name (unusual characters) is never the card's, so it is refused too.
while IFS= read -r line; do
  path=
  case "$line" in
    "rename from "*) path=${line#rename from } ;;
    "rename to "*) path=${line#rename to } ;;
    "copy from "*) path=${line#copy from } ;;
    "copy to "*) path=${line#copy to } ;;
  esac
  if [[ -n "$path" ]] && ! allowed "$path"; then
    echo "the change touches $path" >&2
    exit 1
  fi
done < "$patch"

git apply --check "$patch"
git apply --index "$patch"

# What git staged, each path on its own (no rename pairing), with its modes: only added or changed
# regular files (100644) of this card.
bad=0
while IFS= read -r -d '' meta && IFS= read -r -d '' path; do
  read -r _ new_mode _ _ status <<< "${meta#:}"
  if ! allowed "$path"; then
    echo "the change touches $path" >&2
    bad=1
  elif [[ "$status" != A && "$status" != M ]]; then
    echo "the change deletes or renames $path" >&2
    bad=1
  elif [[ "$new_mode" != 100644 ]]; then
    echo "the change gives $path mode $new_mode (only plain files may be added)" >&2
    bad=1
  fi
done < <(git diff --cached --no-renames --raw -z)

if [[ "$bad" -ne 0 ]]; then
  git reset --quiet --hard HEAD
  exit 1
fi
