# Sourced by the bench/run_h100_*.sh scripts on the H100 machine, from the repository root with .devcarry/
# carried, after they set $out: registers NVIDIA's OpenCL driver, puts the carried libraries first, writes
# $out/versions.txt (date, commit, GPU and clocks, nvcc) and sets $index to the NVIDIA device's ze_reduce --list
# index.
mkdir -p "$out" /etc/OpenCL/vendors
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
[ -n "$nv" ] && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "ze-reduce commit: $(cat .devcarry/commit.txt 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv || true
  nvcc --version | tail -2 || true
} > "$out/versions.txt" 2>&1
index=$(.devcarry/ze_reduce --list 2>/dev/null | grep -o '^\[[0-9]*\] opencl gpu: NVIDIA' | head -1 | tr -dc 0-9)
[ -n "$index" ] || { echo "no NVIDIA OpenCL device in ze_reduce --list" >&2; exit 1; }
