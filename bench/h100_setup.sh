# Sourced by the bench/run_h100_*.sh benches on the H100 machine, from the repository root with .devcarry/
# carried, after they set $out: the driver set-up (h100_driver_setup.sh), then $out/versions.txt (date, commit,
# GPU and clocks, nvcc) and $index, the NVIDIA device's ze_reduce --list index.
source "$(dirname "${BASH_SOURCE[0]}")/h100_driver_setup.sh"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(cat .devcarry/commit.txt 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv || true
  nvcc --version | tail -2 || true
} > "$out/versions.txt" 2>&1
index=$(.devcarry/ze_reduce --list 2>/dev/null | grep -o '^\[[0-9]*\] opencl gpu: NVIDIA' | head -1 | tr -dc 0-9)
[ -n "$index" ] || { echo "no NVIDIA OpenCL device in ze_reduce --list" >&2; exit 1; }
