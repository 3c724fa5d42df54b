# Sourced by the bench/run_h100_*.sh scripts on the H100 machine, from the repository root with .devcarry/
# carried, after they set $out: makes $out, registers NVIDIA's OpenCL driver with the ICD loader and puts the
# carried libraries first.
mkdir -p "$out" /etc/OpenCL/vendors
nv=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -1 || true)
[ -n "$nv" ] && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
