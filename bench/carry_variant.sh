#!/usr/bin/env bash
# Copies a build's libzereduce into .devcarry/v/NAME for an A/B on the device machine (old and new libraries run in
# turn with LD_LIBRARY_PATH=.devcarry/v/NAME), with .devcarry/v/NAME/provenance.txt saying what it was built from:
# the commit, and every source file that differed from it (a library built from an edited tree is recorded as such,
# never as the bare commit). Run it right after building NAME's library.
#   usage: bash bench/carry_variant.sh NAME [build-dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
build=${2:-build/release}
library="$build/runtime/api/libzereduce.so.0"
[ -e "$library" ] || { echo "carry_variant.sh: no $library: build the zereduce target first" >&2; exit 2; }
mkdir -p ".devcarry/v/$name"
cp -L "$library" ".devcarry/v/$name/libzereduce.so.0"
{
  echo "commit: $(git rev-parse HEAD)"
  changed=$(git status --porcelain -- runtime spirv_kernels include tools CMakeLists.txt)
  if [ -n "$changed" ]; then
    echo "with uncommitted changes:"
    echo "$changed"
    git diff --stat HEAD -- runtime spirv_kernels include tools CMakeLists.txt
  else
    echo "clean"
  fi
  echo "library sha256: $(sha256sum ".devcarry/v/$name/libzereduce.so.0" | cut -d' ' -f1)"
} > ".devcarry/v/$name/provenance.txt"
cat ".devcarry/v/$name/provenance.txt"
