#!/usr/bin/env bash
# The committed conformance report on Intel's OpenCL CPU runtime (tests/reports/intel_cpu/): the full suite
# on that device from this build, its JSON report, the device listing, the versions, and the markdown summary.
# CI runs the same suite and checks it (ctest -R conformance.intel_cpu_full); this keeps the evidence.
#   usage: bash scripts/intel_cpu_conformance_report.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=tests/reports/intel_cpu
vendors=$PWD/.deps/intel-opencl-cpu/vendors
[ -f "$vendors/intel-opencl-cpu.icd" ] || bash scripts/install-intel-opencl-cpu.sh
export OCL_ICD_VENDORS=$vendors
mkdir -p "$out"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- runtime spirv_kernels tools || echo ' (with local changes)')"
  .deps/intel-opencl-cpu/venv/bin/python3 -m pip freeze --disable-pip-version-check | grep -iE 'intel|tbb'
  dpkg-query -W -f '${Package} ${Version}\n' ocl-icd-libopencl1 2>/dev/null || true
  grep -m1 'model name' /proc/cpuinfo; echo "cores: $(nproc)"
} > "$out/versions.txt"
"$build/tools/ze_reduce/ze_reduce" --list > "$out/list.txt"
index=$("$build/tools/ze_reduce/ze_reduce" --list --json | /usr/bin/python3 -c '
import json, sys
print(next(d["index"] for d in json.load(sys.stdin)["devices"] if "Intel(R) OpenCL," in d["description"]))')
"$build/tools/ze_reduce_conformance/ze_reduce_conformance" --full --device "$index" --report "$out/intel_cpu.json" \
  --gtest_brief=1 > /tmp/intel_cpu_conformance.log 2>&1 || { tail -50 /tmp/intel_cpu_conformance.log; exit 1; }
/usr/bin/python3 tests/reports/summarize.py --title "Conformance on Intel's OpenCL CPU runtime (full mode)" \
  --made-by scripts/intel_cpu_conformance_report.sh --versions "$out/versions.txt" --out "$out/README.md" "$out/intel_cpu.json"
grep -E "^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests" /tmp/intel_cpu_conformance.log
