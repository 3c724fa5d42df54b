#!/usr/bin/env bash
# Installs the SYCL peers of bench/run_intel_cpu.sh (dpctl 0.22.1, dpnp 0.20.0 and their oneAPI 2026.2 runtime,
# pinned in bench/sycl_peers.requirements.txt) into a project-local virtual environment,
# .deps/intel-sycl-peers/venv (about 2.9 GB), and writes .deps/intel-sycl-peers/vendors: an OCL_ICD_VENDORS
# folder with Intel's OpenCL CPU runtime alone. Benchmarks only: the tests never need it.
# Two facts that shape it (checked with these versions on a 2-core AMD EPYC):
#  - ONEAPI_DEVICE_SELECTOR=opencl:* finds no device with this SYCL runtime (its OpenCL adapter is built into
#    libsycl: "UR adapter initialization failed: 37"); the default selector, with only the Intel ICD visible,
#    finds the CPU device.
#  - With PoCL's ICD loaded before Intel's in the same process, the first SYCL kernel aborts the process;
#    hence the Intel-only vendors folder.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=.deps/intel-sycl-peers
bash scripts/install-intel-opencl-cpu.sh  # the same libintelocl.so for ours and the peers
stamp="$prefix/venv/installed-requirements"
if ! cmp -s bench/sycl_peers.requirements.txt "$stamp"; then
  [ -x "$prefix/venv/bin/python3" ] || /usr/bin/python3 -m venv "$prefix/venv"
  "$prefix/venv/bin/python3" -m pip install --quiet --no-compile --disable-pip-version-check \
    -r bench/sycl_peers.requirements.txt
  cp bench/sycl_peers.requirements.txt "$stamp"
fi
mkdir -p "$prefix/vendors"
echo "$(cd .deps/intel-opencl-cpu/venv/lib && pwd)/libintelocl.so" > "$prefix/vendors/intel-opencl-cpu.icd"
echo "install_sycl_peers: $prefix/venv; OCL_ICD_VENDORS=$PWD/$prefix/vendors"
