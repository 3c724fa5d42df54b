#!/usr/bin/env bash
# Transform-reductions on the H100 machine (device tool, kind nvidia-h100-x1), from the repository root with
# .devcarry/ made by bench/prepare_device_carry.sh and carried: zr_transform_bench on NVIDIA's OpenCL driver
# twice (each run interleaves the transforms with our plain sum). Lands in $OUT (or $BENCH_OUT): run1.jsonl,
# run2.jsonl, versions.txt (COLD_L2=1: the GPU's L2 evicted before every timed run). Then, here:
#   /usr/bin/python3 bench/transform_report.py <dir> > bench/results/transform_h100.md
set -euo pipefail
out=${BENCH_OUT:-${OUT:-/tmp/bench_out}}
mkdir -p "$out" /etc/OpenCL/vendors
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
[ -n "$nv" ] && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
min_log2=${MIN_LOG2:-20} max_log2=${MAX_LOG2:-28} step=${STEP:-2}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(cat .devcarry/commit.txt 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv || true
} > "$out/versions.txt" 2>&1
index=$(.devcarry/ze_reduce --list 2>/dev/null | grep -o '^\[[0-9]*\] opencl gpu: NVIDIA' | head -1 | tr -dc 0-9)
[ -n "$index" ] || { echo "no NVIDIA OpenCL device in ze_reduce --list" >&2; exit 1; }
for run in 1 2; do
  .devcarry/zr_transform_bench --device "$index" --min-log2 "$min_log2" --max-log2 "$max_log2" --step "$step" \
    --runs 31 --cold-l2 "${COLD_L2:-0}" > "$out/run$run.jsonl" 2>> "$out/versions.txt"
done
grep -h '"log2":2[48]' "$out/run1.jsonl"
