#!/usr/bin/env bash
# Segmented reductions on the H100 machine (device tool, kind nvidia-h100-x1), from the repository root with
# .devcarry/ made by bench/prepare_device_carry.sh and carried: ours (zr_segmented_bench on NVIDIA's OpenCL
# driver), CUB's DeviceSegmentedReduce and the read probe (cub_segmented), then ours again, so that the peers'
# runs interleave. Lands in $OUT (or $BENCH_OUT): ours.jsonl, ours_again.jsonl, cub.jsonl, versions.txt, plans.txt
# (PART, below, splits the run across device calls).
# Then, here: /usr/bin/python3 bench/segmented_report.py <dir> > bench/results/segmented_h100.md
set -euo pipefail
out=${BENCH_OUT:-${OUT:-/tmp/bench_out}}
mkdir -p "$out" /etc/OpenCL/vendors
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
[ -n "$nv" ] && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
total_log2=${TOTAL_LOG2:-28} step=${STEP:-2}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(cat .devcarry/commit.txt 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv || true
  nvcc --version | tail -2 || true
} > "$out/versions.txt" 2>&1
index=$(.devcarry/ze_reduce --list 2>/dev/null | grep -o '^\[[0-9]*\] opencl gpu: NVIDIA' | head -1 | tr -dc 0-9)
[ -n "$index" ] || { echo "no NVIDIA OpenCL device in ze_reduce --list" >&2; exit 1; }
ours() { .devcarry/zr_segmented_bench --device "$index" --max-log2 "$total_log2" --step "$step" --runs 11 "$@"; }
# PART=sweep: ours alone, segments of 2^2 .. 2^12 f32, for each ZE_REDUCE_SEGMENT_LANE_ELEMENTS in SWEEP
# (sweep_<e>.jsonl); PART=ours: ours.jsonl and plans.txt; PART=peers: cub.jsonl then ours_again.jsonl; default all.
part=${PART:-all}
if [ "$part" = sweep ]; then
  for e in ${SWEEP:-4 8 16 32}; do
    ZE_REDUCE_SEGMENT_LANE_ELEMENTS=$e ours --min-log2 2 --upto-log2 12 --types 1 --runs 5 > "$out/sweep_$e.jsonl" 2>> "$out/versions.txt"
  done
  exit 0
fi
# PART=i32: ours and CUB for i32 alone, and ours for f32's longest and power-law segments (ours_i32.jsonl, cub_i32.jsonl).
if [ "$part" = i32 ]; then
  ours --types 4 > "$out/ours_i32.jsonl" 2>> "$out/versions.txt"
  .devcarry/cub_segmented "$total_log2" "$step" 0.1 i32 > "$out/cub_i32.jsonl" 2>> "$out/versions.txt"
  ours --types 1 --min-log2 "$total_log2" >> "$out/ours_i32.jsonl" 2>> "$out/versions.txt"
  exit 0
fi
[ "$part" = peers ] || ours --plans 1 > "$out/ours.jsonl" 2> "$out/plans.txt"
[ "$part" = ours ] && exit 0
.devcarry/cub_segmented "$total_log2" "$step" 0.1 > "$out/cub.jsonl" 2>> "$out/versions.txt"
ours > "$out/ours_again.jsonl" 2>> "$out/versions.txt"
grep -h '"log2":\(0\|4\|28\),' "$out/ours.jsonl" "$out/cub.jsonl" | head -30
