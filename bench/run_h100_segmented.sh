#!/usr/bin/env bash
# Segmented reductions on the H100 machine (device tool, kind nvidia-h100-x1), from the repository root with
# .devcarry/ made by bench/prepare_device_carry.sh and carried: ours (zr_segmented_bench on NVIDIA's OpenCL
# driver), CUB's DeviceSegmentedReduce and the read probe (cub_segmented), then ours again, so that the peers'
# runs interleave. Lands in $OUT (or $BENCH_OUT): ours.jsonl, ours_again.jsonl, cub.jsonl, versions.txt, plans.txt
# (PART, below, splits the run across device calls).
# Then, here: /usr/bin/python3 bench/segmented_report.py <dir> > bench/results/segmented_h100.md
set -euo pipefail
out=${BENCH_OUT:-${OUT:-/tmp/bench_out}}
total_log2=${TOTAL_LOG2:-28} step=${STEP:-2}
source "$(dirname "$0")/h100_setup.sh"
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
# A glance at a few rows (PART=peers has no ours.jsonl: its own run is ours_again.jsonl).
grep -sh '"log2":\(0\|4\|28\),' "$out/ours.jsonl" "$out/ours_again.jsonl" "$out/cub.jsonl" | head -30 || true
