#!/usr/bin/env bash
# Instructions a small reduction costs the calling thread (issue 42: the host path around the kernels), counted by
# callgrind over zr_blocking_latency's timed calls (its function timed_reductions): 2^10 f32 in device memory
# summed into device memory, so that no copy and no read-back is counted. The count is deterministic where time is
# not: compare two libraries (LD_LIBRARY_PATH) on the same device. It includes the driver's own calls (PoCL's enqueue:
# about 5,000) and the poll of the wait, whose count follows the device's speed; the report prints the wait apart.
#   usage: bash bench/count_host_path.sh [build-dir, default build/release] [runs, default 200]
# Needs valgrind (apt-get install valgrind). Results of 2026-11-29: bench/results/host_path_h200_2026-11-29/.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
runs=${2:-200}
cmake --build "$build" --target zr_blocking_latency > /dev/null
out=$(mktemp -d)
valgrind --tool=callgrind --toggle-collect='timed_reductions*' --callgrind-out-file="$out/callgrind.out" \
  "$build/bench/zr_blocking_latency" --memory device --log2 10 --runs "$runs" > "$out/run.json" 2> "$out/valgrind.txt"
callgrind_annotate --inclusive=yes "$out/callgrind.out" > "$out/inclusive.txt"
/usr/bin/python3 - "$out/inclusive.txt" "$runs" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
runs = int(sys.argv[2])
def cost(pattern):
    found = re.search(r"^\s*([\d,]+) \([^)]*\)\s+\S*" + pattern, text, re.M)
    return int(found.group(1).replace(",", "")) if found else 0
total = cost(r"timed_reductions")
wait = cost(r"zr::opencl::wait_for_event")
print(f"instructions per call: {total / runs:,.0f} in all, {wait / runs:,.0f} in the wait's poll, "
      f"{(total - wait) / runs:,.0f} without it")
PY
rm -rf "$out"
