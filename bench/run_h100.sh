#!/usr/bin/env bash
# Runs on the GPU machine (device tool, kind nvidia-h100-x1), from the repository root, with .devcarry/ made
# here by bench/prepare_device_carry.sh and carried. Registers NVIDIA's OpenCL driver, runs ours, then the
# CUDA peer (CUB + read kernel + floor; built by prepare_device_carry.sh, or here with nvcc while ours runs).
# Everything lands in $OUT (or $BENCH_OUT): ours.json, ours.log, cub.jsonl, versions.txt. Then, here:
#   /usr/bin/python3 bench/report.py --ours <dir>/ours.json --cub <dir>/cub.jsonl --versions <dir>/versions.txt \
#       --blocking-wait <dir>/blocking_wait.jsonl --notes-file bench/results/notes/h100.md --name h100
# Environment: MIN_LOG2 MAX_LOG2 STEP MIN_TIME STRATEGIES_MAX_LOG2; SWEEP=1 first runs zr_tune_sweep.
set -euo pipefail
out=${BENCH_OUT:-${OUT:-/tmp/bench_out}}
mkdir -p "$out" /etc/OpenCL/vendors
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
[ -n "$nv" ] && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
min_log2=${MIN_LOG2:-10} max_log2=${MAX_LOG2:-30} step=${STEP:-2}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv || true
  nvcc --version | tail -2 || true
  grep -m1 'model name' /proc/cpuinfo; nproc; uptime
} > "$out/versions.txt" 2>&1
cat "$out/versions.txt"
# SWEEP=1: first the launch-shape sweep behind runtime/core/tuning.cpp (sweep.jsonl).
if [ "${SWEEP:-0}" = 1 ]; then
  .devcarry/zr_tune_sweep --device-type gpu > "$out/sweep.jsonl" 2>&1 || { tail -20 "$out/sweep.jsonl"; exit 1; }
  grep BEST "$out/sweep.jsonl" || true
fi
# The CUDA peer: carried when prepare_device_carry.sh could build it, else built here while ours runs.
cub=.devcarry/cub_reduce
if [ ! -x "$cub" ]; then
  cub=/tmp/cub_reduce
  nvcc -O3 -std=c++17 -arch=sm_90 -o "$cub" bench/cub/cub_reduce.cu > "$out/nvcc.log" 2>&1 &
fi
.devcarry/zr_reduce_bench --device-type gpu --min-log2 "$min_log2" --max-log2 "$max_log2" --step "$step" \
  --strategies-max-log2 "${STRATEGIES_MAX_LOG2:-28}" --min-time "${MIN_TIME:-0.1}" --max-iterations 200 --out "$out/ours.json" \
  > "$out/ours.log" 2>&1 || { tail -40 "$out/ours.log"; exit 1; }
grep -E "floor|2\^(24|28|30) .*(ours|probe)" "$out/ours.log" | head -60 || true
# The driver's blocking-wait steps behind the small-n latency (raw OpenCL; report.py --blocking-wait).
.devcarry/zr_blocking_wait_probe > "$out/blocking_wait.jsonl" || { tail -5 "$out/blocking_wait.jsonl"; exit 1; }
wait || true
[ -x "$cub" ] || { cat "$out/nvcc.log"; exit 1; }
"$cub" "$min_log2" "$max_log2" "$step" "${MIN_TIME:-0.1}" > "$out/cub.jsonl"
grep -E '"log2":(24|28|30),' "$out/cub.jsonl" | head -30 || true
