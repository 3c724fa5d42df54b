#!/usr/bin/env bash
# The committed conformance reports on the Level Zero backend through the Level Zero test driver
# (tests/reports/level_zero_cpu/): the full suite for the tgllp, dg2 and pvc profiles with Intel's OpenCL CPU
# runtime behind the driver, their JSON reports, the device listings, the versions and the markdown summary.
# CI runs the same suite and checks it (ctest -L level_zero_cpu); this keeps the evidence. docs/testing.md says
# what these results prove and what they do not.
#   usage: bash scripts/level_zero_cpu_conformance_report.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=tests/reports/level_zero_cpu
vendors=$PWD/.deps/intel-opencl-cpu/vendors
[ -f "$vendors/intel-opencl-cpu.icd" ] || bash scripts/install-intel-opencl-cpu.sh
export OCL_ICD_VENDORS=$vendors
export ZE_ENABLE_ALT_DRIVERS=$PWD/$build/tests/level_zero_cpu/libze_reduce_TEST_ONLY_cpu_driver.so
export ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1 ZE_ENABLE_HANDLE_LIFETIME=1
unset ZE_REDUCE_DEVICE ZRT_FAULT ZRT_DEVICES
mkdir -p "$out"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- runtime spirv_kernels tools tests/level_zero_cpu || echo ' (with local changes)')"
  echo "Level Zero test driver: tests/level_zero_cpu/driver, loaded by the loader through ZE_ENABLE_ALT_DRIVERS"
  dpkg-query -W -f '${Package} ${Version}\n' libze1 ocl-icd-libopencl1 2>/dev/null || true
  .deps/intel-opencl-cpu/venv/bin/python3 -m pip freeze --disable-pip-version-check | grep -iE 'intel|tbb'
  grep -m1 'model name' /proc/cpuinfo; echo "cores: $(nproc)"
} > "$out/versions.txt"
reports=()
for profile in tgllp dg2 pvc; do
  export ZRT_PROFILE=$profile
  "$build/tools/ze_reduce/ze_reduce" --list 2>/dev/null | sed -n "1,/(-v lists/p" > "$out/list_$profile.txt"
  "$build/tools/ze_reduce_conformance/ze_reduce_conformance" --full --device level_zero --report "$out/$profile.json" \
    --gtest_brief=1 > "/tmp/level_zero_cpu_$profile.log" 2>&1 || { tail -50 "/tmp/level_zero_cpu_$profile.log"; exit 1; }
  grep -E "^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests" "/tmp/level_zero_cpu_$profile.log"
  reports+=("$out/$profile.json")
done
/usr/bin/python3 tests/reports/summarize.py --title "Conformance on the Level Zero backend through the Level Zero test driver (full mode)" \
  --made-by scripts/level_zero_cpu_conformance_report.sh --versions "$out/versions.txt" --out "$out/README.md" "${reports[@]}"
