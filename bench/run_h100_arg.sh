#!/usr/bin/env bash
# argmax/argmin on the H100 machine (device tool, kind nvidia-h100-x1), from the repository root with .devcarry/
# made by bench/prepare_device_carry.sh and carried: ours (zr_arg_bench on NVIDIA's OpenCL driver), CUB's
# ArgMax/ArgMin/Max (cub_argreduce), then ours again, so that the two peers' runs interleave. Lands in $OUT
# (or $BENCH_OUT): ours.jsonl, ours_again.jsonl, cub.jsonl, versions.txt. Then, here:
#   /usr/bin/python3 bench/arg_report.py <dir> > bench/results/arg_h100.md
set -euo pipefail
out=${BENCH_OUT:-${OUT:-/tmp/bench_out}}
min_log2=${MIN_LOG2:-20} max_log2=${MAX_LOG2:-28} step=${STEP:-2}
source "$(dirname "$0")/h100_setup.sh"
.devcarry/ze_reduce --list >> "$out/versions.txt" 2>&1 || true
ours() { .devcarry/zr_arg_bench --device "$index" --min-log2 "$min_log2" --max-log2 "$max_log2" --step "$step" --runs 31; }
ours > "$out/ours.jsonl" 2>> "$out/versions.txt"
.devcarry/cub_argreduce "$min_log2" "$max_log2" "$step" 0.2 > "$out/cub.jsonl" 2>> "$out/versions.txt"
ours > "$out/ours_again.jsonl" 2>> "$out/versions.txt"
grep -h '"log2":2[48]' "$out/ours.jsonl" "$out/cub.jsonl" "$out/ours_again.jsonl"
