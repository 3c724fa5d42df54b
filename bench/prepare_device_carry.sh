#!/usr/bin/env bash
# Builds zr_reduce_bench, ze_reduce and ze_reduce_conformance here (their own build directory, Release) and
# copies them, libzereduce and the Debian
# libraries it needs that the GPU machine lacks into .devcarry/, which the device tool carries (.devcarry/ is
# git-ignored through .git/info/exclude). Usage: bash bench/prepare_device_carry.sh [build-dir, e.g. build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/bench}
# A build tree that exists already (Ninja, or the release preset's Unix Makefiles) is used as it is.
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZR_WERROR=ON -DZR_BUILD_TESTS=OFF
cmake --build "$build" --target zr_reduce_bench zr_reproducible_bench zr_arg_bench zr_transform_bench zr_group_digest zr_tune_sweep zr_blocking_wait_probe zr_interop_bench zr_segmented_bench ze_reduce ze_reduce_conformance
rm -rf .devcarry && mkdir -p .devcarry/lib
cp "$build/bench/zr_reduce_bench" "$build/bench/zr_reproducible_bench" "$build/bench/zr_arg_bench" "$build/bench/zr_transform_bench" "$build/bench/zr_group_digest" "$build/bench/zr_tune_sweep" "$build/bench/zr_blocking_wait_probe" "$build/bench/zr_interop_bench" "$build/bench/zr_segmented_bench" .devcarry/
# The interop tests (a raw OpenCL application) where the tree builds tests.
[ -x "$build/tests/interop/zr_opencl_interop_tests" ] && cp "$build/tests/interop/zr_opencl_interop_tests" .devcarry/
# The fault tests that need the GPU (bench/run_h100_gpu_fault.sh).
[ -x "$build/tests/interop/zr_gpu_fault_tests" ] && cp "$build/tests/interop/zr_gpu_fault_tests" .devcarry/
[ -x "$build/tests/api/zr_api_lost_call_tests" ] && cp "$build/tests/api/zr_api_lost_call_tests" .devcarry/
cp "$build/tools/ze_reduce/ze_reduce" "$build/tools/ze_reduce_conformance/ze_reduce_conformance" .devcarry/
git rev-parse HEAD > .devcarry/commit.txt
git diff --quiet HEAD -- runtime spirv_kernels include tools || echo "(with uncommitted changes)" >> .devcarry/commit.txt
cp -L "$build/runtime/api/libzereduce.so.0" .devcarry/lib/
for lib in libspdlog.so.1.10 libfmt.so.9 libgomp.so.1 libOpenCL.so.1 libze_loader.so.1 libtbb.so.12; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" .devcarry/lib/
done
mkdir -p .git/info; grep -qx '/.devcarry/' .git/info/exclude 2>/dev/null || echo '/.devcarry/' >> .git/info/exclude
if command -v nvcc >/dev/null; then nvcc -O3 -std=c++17 -arch=sm_90 -o .devcarry/cub_reduce bench/cub/cub_reduce.cu
  nvcc -O3 -std=c++17 -arch=sm_90 -o .devcarry/cub_argreduce bench/cub/cub_argreduce.cu
  nvcc -O3 -std=c++17 -arch=sm_90 -I bench -o .devcarry/cub_segmented bench/cub/cub_segmented.cu; fi
du -sh .devcarry
