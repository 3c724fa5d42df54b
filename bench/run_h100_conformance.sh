#!/usr/bin/env bash
# The GPU conformance gate (docs/conformance.md): ze_reduce_conformance in full mode on the H100 machine's
# NVIDIA OpenCL device and on its PoCL, each with a JSON report. Runs there (device tool, kind
# nvidia-h100-x1) from the repository root, with .devcarry/ made here by bench/prepare_device_carry.sh and
# carried. Rerun it whenever a kernel, a plan shape or the OpenCL executor changes.
#   usage (there): bash bench/run_h100_conformance.sh nvidia|pocl [extra ze_reduce_conformance arguments]
# Results land in $OUT (or $CONFORMANCE_OUT): <which>.json, <which>.log, versions.txt. Then, here:
#   /usr/bin/python3 tests/reports/summarize.py --out tests/reports/h100/README.md <dir>/nvidia.json <dir>/pocl.json
# and copy the JSON reports beside it.
set -uo pipefail
which=${1:?nvidia or pocl}
shift
out=${CONFORMANCE_OUT:-${OUT:-/tmp/conformance_out}}
source "$(dirname "${BASH_SOURCE[0]}")/h100_driver_setup.sh"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(cat .devcarry/commit.txt 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  dpkg-query -W -f '${Package} ${Version}\n' pocl-opencl-icd libpocl2 2>/dev/null || true
  grep -m1 'model name' /proc/cpuinfo; nproc
} > "$out/versions.txt" 2>&1
cat "$out/versions.txt"
.devcarry/ze_reduce --list > "$out/list.txt" 2>&1 || true
case "$which" in
  nvidia) device=NVIDIA ;;
  pocl) device=pocl ;;
  *) echo "unknown device '$which': nvidia or pocl" >&2; exit 2 ;;
esac
# The log keeps failures and the summary only: the full list of 20,000 test names is in the report.
.devcarry/ze_reduce_conformance --full --device "$device" --report "$out/$which.json" --gtest_brief=1 "$@" \
  > "$out/$which.log" 2>&1
status=$?
grep -E "^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests|lost at|report written" "$out/$which.log" | head -20
echo "ze_reduce_conformance on $which exited with $status"
exit $status
