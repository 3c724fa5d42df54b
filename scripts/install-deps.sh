#!/usr/bin/env bash
# Installs every Debian 12 package ze-reduce needs to build, test and run, and nothing else; then Intel's
# OpenCL CPU runtime from PyPI, pinned, into .deps/ (scripts/install-intel-opencl-cpu.sh: project-local, seen
# only by the processes given its OCL_ICD_VENDORS folder).
# Idempotent: when everything is present, apt-get and pip only confirm it. Fails loudly on any missing package.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config
  # scripts/test.sh: one compiler cache, so that the wheel build reuses the release build's objects
  ccache
  # kernel pipeline: OpenCL C -> SPIR-V -> validation; ocloc comes with intel-opencl-icd
  clang-15 llvm-spirv-15 spirv-tools
  # Level Zero loader and Intel's compute runtime (Level Zero + OpenCL GPU driver, IGC, ocloc)
  libze-dev libze1 intel-opencl-icd libigc1
  # OpenCL: ICD loader, headers, and PoCL (the CPU device)
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  # libraries
  libspdlog-dev libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
  # runtime/mpi, tests/mpi: zereduce_mpi and its tests under mpirun (docs/mpi.md)
  libopenmpi-dev openmpi-bin
  # tests: NumPy reads and writes the .npy files ze_reduce takes; jsonschema checks the JSON reports;
  # venv holds Intel's OpenCL CPU runtime from PyPI (scripts/install-intel-opencl-cpu.sh, below)
  python3 python3-numpy python3-jsonschema python3-venv
  # python/: the zereduce package's bindings (pybind11, Python headers) and its tests (pytest, hypothesis)
  pybind11-dev python3-dev python3-pytest python3-hypothesis
  # bench/: TBB is libstdc++'s backend for std::execution::par_unseq (a peer); matplotlib draws the plots
  libtbb-dev python3-matplotlib
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (or install sudo)" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
# apt-get update first, always: a stale package list is the usual cause of "package not found".
"${sudo_cmd[@]}" apt-get update -qq

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
else
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  failed=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || failed+=("$p")
  done
  if [ ${#failed[@]} -ne 0 ]; then
    echo "install-deps: FAILED, still missing: ${failed[*]}" >&2
    exit 1
  fi
fi
bash "$(dirname "$0")/install-intel-opencl-cpu.sh"
bash "$(dirname "$0")/install-python-venv.sh"
echo "install-deps: done"
