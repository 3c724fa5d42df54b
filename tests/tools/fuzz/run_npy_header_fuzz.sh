#!/usr/bin/env bash
# ctest tools_npy_header_fuzz: builds tests/tools/fuzz with clang++-15 and runs the libFuzzer target on the
# committed seeds for a bounded time. Exits 77 (ctest: skipped) when clang++-15 or its libFuzzer runtime is missing.
set -euo pipefail

cmake=cmake generator=Ninja project= source_root= build= seconds=30
while [[ $# -gt 0 ]]; do
  case "$1" in
    --cmake) cmake=$2 ;;
    --generator) generator=$2 ;;
    --project) project=$2 ;;
    --source-root) source_root=$2 ;;
    --build) build=$2 ;;
    --seconds) seconds=$2 ;;
    *) echo "run_npy_header_fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done

skip() {
  echo "SKIPPED: $*"
  exit 77
}

cxx=$(command -v clang++-15) || skip "clang++-15 is not installed (apt-get install clang-15)"
mkdir -p "$build"
# libFuzzer's runtime is a separate package on Debian: try a link before configuring anything.
probe=$build/probe
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' > "$probe.cpp"
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe.cpp" -o "$probe" 2> "$probe.log"; then
  skip "clang++-15 cannot link -fsanitize=fuzzer (libFuzzer runtime missing: apt-get install libclang-common-15-dev): $(head -c 300 "$probe.log")"
fi

"$cmake" -S "$project" -B "$build/project" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DZR_SOURCE_ROOT="$source_root" > "$build/configure.log" \
  || { cat "$build/configure.log"; exit 1; }
"$cmake" --build "$build/project"

# New inputs go to the first folder (kept in the build tree between runs); the committed seeds are only read.
mkdir -p "$build/corpus"
cd "$build"
"$build/project/npy_header_fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$build/" "$build/corpus" "$project/corpus"
