#!/usr/bin/env bash
# The PoCL (CPU) measurement on this machine: builds zr_reduce_bench (build/bench, Release), runs it on the
# PoCL device with the host peers (OpenMP, std::reduce(par_unseq)) in the same run, and writes
# bench/results/<name>.{json,md,png}. Timings on a shared machine move with its load: run it when `uptime`
# shows a load near 0 (the load at start and end is recorded in the results).
#   bash bench/run_pocl.sh [name=pocl_2core] [max_log2=28]
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-pocl_2core}
max_log2=${2:-28}
build=build/bench
[ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZR_WERROR=ON -DZR_BUILD_TESTS=OFF
cmake --build "$build" --target zr_reduce_bench
out=$(mktemp -d)
uptime | tee "$out/versions.txt"
{ grep -m1 'model name' /proc/cpuinfo; echo "cores: $(nproc)"; g++ --version | head -1;
  dpkg-query -W -f='${Package} ${Version}\n' pocl-opencl-icd libpocl2 libtbb12 libgomp1 2>/dev/null;
  echo "OMP_WAIT_POLICY=passive"; } >> "$out/versions.txt"
# Strategies other than cpu_chunks and the SDK tree are GPU-shaped (0.7-8 GB/s on PoCL): measured up to 2^22 only.
# OMP_WAIT_POLICY=passive: libgomp's idle threads otherwise spin for a while after each parallel region and
# take a core from PoCL's workers in the call that follows (measured: calls right after OpenMP's ran up to
# 20% slower on 2 cores); waking them costs OpenMP microseconds against the milliseconds of a 2^24+ call.
(cd "$out" && OMP_WAIT_POLICY=passive "$OLDPWD/$build/bench/zr_reduce_bench" --device-type cpu --min-log2 10 --max-log2 "$max_log2" --step 2 \
  --strategies-max-log2 22 --sdk-max-log2 22 --min-time 0.1 --rounds 3 --out "$out/ours.json") | tee "$out/ours.log"
uptime | tee -a "$out/versions.txt"
/usr/bin/python3 bench/report.py --ours "$out/ours.json" --versions "$out/versions.txt" --name "$name" \
  --command "bash bench/run_pocl.sh $name $max_log2"
