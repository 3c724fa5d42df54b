#!/usr/bin/env bash
# Install dependencies, build everything but the benchmarks (release, warnings are errors) and run the whole test
# suite; then the Python package as pip installs it, with its tests; then the driver-level fault tests and the
# OpenCL and Level Zero interop tests once more under AddressSanitizer, LeakSanitizer and UBSan (the debug preset, built for those tests only:
# about 3 minutes on 2 cores; ZR_SKIP_SANITIZED=1 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The tests' built device binaries (docs/binary_cache.md) are kept in the build tree, not in ~/.cache: every test
# process after the first loads them instead of compiling (Intel's CPU runtime: seconds per module).
export ZE_REDUCE_CACHE_DIR="${ZE_REDUCE_CACHE_DIR:-$PWD/build/binary-cache}"
# The wheel that python_package_test.sh builds compiles the library's C++ again; through one compiler cache
# (project-local, like the binary cache) it takes the release build's objects instead (about 3 of its 4 minutes
# on 2 cores). CMake reads the launcher when it first configures a build tree.
export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}" CCACHE_BASEDIR="$PWD"
export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
# The release preset builds with Unix Makefiles, CMake's default generator (a build tree another generator
# configured is cleared first: configure_preset.sh), in parallel: Make runs one job at a time unless told.
# The benchmarks are left out of the default target here (ZR_BENCH_IN_ALL): no test runs them, and they took about
# 2.5 minutes of the 2-core machine; bench/prepare_device_carry.sh builds them by name.
bash scripts/configure_preset.sh release -DZR_BENCH_IN_ALL=OFF
cmake --build --preset release --parallel "$(nproc)"
ctest --preset release --parallel "$(nproc)" "$@" || { status=$?; bash scripts/show_failed_tests.sh build/release; exit "$status"; }
# The wheel and the sanitized build take the kernel modules the release build has just made, instead of compiling
# the ~230 modules again (about a minute each on 2 cores; spirv_kernels/copy_built_module.cmake checks them).
export ZR_KERNEL_MODULES_FROM="$PWD/build/release/spirv_kernels/modules"
# The Python package as users get it: pip install . into a project-local venv, then its tests (about 2 minutes).
bash scripts/python_package_test.sh
if [ "${ZR_SKIP_SANITIZED:-0}" != 1 ]; then
  # Line tables only (-g1): the sanitizers' reports keep file and line, and a file compiles about a quarter faster.
  bash scripts/configure_preset.sh debug -DZR_KERNEL_MODULES_FROM="$ZR_KERNEL_MODULES_FROM" -DCMAKE_CXX_FLAGS_DEBUG=-g1
  cmake --build --preset debug --target level_zero_cpu_fault_tests level_zero_cpu_rules_tests ze_reduce_test_driver \
    zr_opencl_interop_tests zr_level_zero_interop_tests
  ctest --preset debug -L sanitized || { status=$?; bash scripts/show_failed_tests.sh build/debug; exit "$status"; }
fi
