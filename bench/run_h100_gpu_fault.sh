#!/usr/bin/env bash
# The fault tests that need the lent GPU machine (device tool), from the repository root with .devcarry/ made by
# bench/prepare_device_carry.sh and carried:
#   - zr_gpu_fault_tests with ZR_TEST_GPU_FAULT=1: an application's kernel faults the NVIDIA GPU in its own
#     context; the reducer on that context must give one DeviceLostError (tests/interop/gpu_fault_test.cpp);
#   - zr_api_lost_call_tests: PoCL 5 lost through a simulated -9999 (ZE_REDUCE_FAULT_INJECTION=lost_call), the
#     NVIDIA GPU as the device that goes on (tests/api/lost_call_test.cpp).
# Each runs in a process of its own (a faulted context stays so for the process). Output: $OUT/gpu_fault.log.
set -uo pipefail
out=${OUT:-/tmp/gpu_fault_out}
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/h100_driver_setup.sh"
status=0
{
  echo "ze-reduce commit: $(cat .devcarry/commit.txt 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  echo "== zr_gpu_fault_tests (ZR_TEST_GPU_FAULT=1)"
  ZR_TEST_GPU_FAULT=1 timeout 300 .devcarry/zr_gpu_fault_tests || status=1
  # PoCL 5 names its device "cpu-<cpu>-<model>" (PoCL 3: "pthread-...").
  echo "== zr_api_lost_call_tests (ZE_REDUCE_FAULT_INJECTION=lost_call:tree@cpu-)"
  ZE_REDUCE_FAULT_INJECTION=lost_call:tree@cpu- ZE_REDUCE_HOST_PATH_MAX_BYTES=0 timeout 300 \
    .devcarry/zr_api_lost_call_tests || status=1
} > "$out/gpu_fault.log" 2>&1
cat "$out/gpu_fault.log" | tail -40
exit $status
