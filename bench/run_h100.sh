#!/usr/bin/env bash
# Runs on the GPU machine (device tool, nvidia-h100-x1), from the repository root, with the benchmark binary
# built here and its libraries carried in .devcarry/ (see bench/prepare_device_carry.sh). Registers NVIDIA's
# OpenCL driver, builds the CUB peer with nvcc, then measures ours (NVIDIA OpenCL) and CUB in one run,
# and ours on the host's PoCL against OpenMP.
set -euo pipefail
mkdir -p /etc/OpenCL/vendors
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
[ -n "$nv" ] && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
max_log2=${MAX_LOG2:-28}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
nvcc -O3 -arch=sm_90 -o /tmp/cub_sum bench/cub/cub_sum.cu
echo "== ours, NVIDIA OpenCL"
.devcarry/zr_sum_bench --device-type gpu --max-log2 "$max_log2" --iterations 30
echo "== CUB"
/tmp/cub_sum "$max_log2" 30
if [ "${WITH_CPU:-1}" = 1 ]; then
  echo "== ours, PoCL on the host CPU, vs OpenMP"
  .devcarry/zr_sum_bench --device-type cpu --max-log2 26 --iterations 10
fi
