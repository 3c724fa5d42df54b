#!/usr/bin/env bash
# Copies the release benchmark binary and the Debian libraries it needs (not on the GPU machine) into
# .devcarry/, which the device tool carries (it is git-ignored via .git/info/exclude).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
cmake --build "$build" --target zr_sum_bench
rm -rf .devcarry && mkdir -p .devcarry/lib
cp "$build/bench/zr_sum_bench" .devcarry/
for lib in libspdlog.so.1.10 libfmt.so.9 libgomp.so.1 libOpenCL.so.1; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" .devcarry/lib/
done
grep -qx '/.devcarry/' .git/info/exclude 2>/dev/null || echo '/.devcarry/' >> .git/info/exclude
du -sh .devcarry
