#!/usr/bin/env bash
# The peer table on Intel's OpenCL CPU runtime (issue 19), in one run on this machine:
#   1. zr_reduce_bench on the Intel OpenCL CPU device: ours (default strategy), every other strategy it
#      allows, the read probe, and the host peers OpenMP and std::reduce(par_unseq), with the ratios of calls
#      made in turn (bench/README.md);
#   2. zr_reduce_bench on PoCL (ours there, on the same cores);
#   3. bench/sycl_peers.py: dpnp.tensor (formerly dpctl.tensor) and dpnp on the same Intel device, NumPy on
#      the host;
# then bench/peer_report.py -> bench/results/<name>.{json,md,png}. Installs the SYCL peers first
# (bench/install_sycl_peers.sh, about 2.9 GB in .deps/). Run it when `uptime` shows a load near 0.
#   bash bench/run_intel_cpu.sh [name=intel_cpu_2core] [min_log2=24] [max_log2=26]
# The Intel runtime needs oneTBB 2021.13 or later: a process that has Debian's libtbb.so.12 (2021.8, which
# zr_reduce_bench links for std::reduce) loaded cannot load libintelocl.so (undefined symbol
# tbb::detail::r1::get_thread_reference_vertex), and the ICD loader then drops the platform without a word.
# So the Intel run preloads the runtime's own libtbb.so.12 (2023.2, ABI-compatible), which std::reduce then
# uses too.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-intel_cpu_2core}
min_log2=${2:-24}
max_log2=${3:-26}
build=build/bench
bash bench/install_sycl_peers.sh
[ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZR_WERROR=ON -DZR_BUILD_TESTS=OFF
cmake --build "$build" --target zr_reduce_bench ze_reduce
intel_vendors=$PWD/.deps/intel-opencl-cpu/vendors
intel_tbb=$PWD/.deps/intel-opencl-cpu/venv/lib/libtbb.so.12
out=$(mktemp -d)
index() {  # the ze_reduce --list index of the device whose description contains $1
  OCL_ICD_VENDORS=$intel_vendors "$build/tools/ze_reduce/ze_reduce" --list --json | /usr/bin/python3 -c "
import json, sys
print(next(d['index'] for d in json.load(sys.stdin)['devices'] if sys.argv[1] in d['description']))" "$1"
}
intel=$(index "Intel(R) OpenCL,")
{ uptime; grep -m1 'model name' /proc/cpuinfo; echo "cores: $(nproc)"; g++ --version | head -1;
  dpkg-query -W -f='${Package} ${Version}\n' pocl-opencl-icd libtbb12 libgomp1 2>/dev/null;
  grep -v '^#' bench/sycl_peers.requirements.txt | tr '\n' ' '; echo;
  echo "OMP_WAIT_POLICY=passive; Intel run: LD_PRELOAD=<intel-opencl-rt venv>/lib/libtbb.so.12"; } > "$out/versions.txt"
common=(--min-log2 "$min_log2" --max-log2 "$max_log2" --step 2 --strategies-max-log2 "$max_log2" --sdk-max-log2 22
        --latency-max-log2 10 --min-time 0.2 --rounds 3)
(cd "$out" && OCL_ICD_VENDORS=$intel_vendors LD_PRELOAD=$intel_tbb OMP_WAIT_POLICY=passive \
  "$OLDPWD/$build/bench/zr_reduce_bench" --device "$intel" "${common[@]}" --out "$out/ours_intel.json") | tail -5
# PoCL with the machine's own ICDs: its only CPU device here.
(cd "$out" && OMP_WAIT_POLICY=passive "$OLDPWD/$build/bench/zr_reduce_bench" --device-type cpu "${common[@]}" \
  --cpu-peers off --out "$out/ours_pocl.json") | tail -3
OCL_ICD_VENDORS=$PWD/.deps/intel-sycl-peers/vendors .deps/intel-sycl-peers/venv/bin/python3 bench/sycl_peers.py \
  --min-log2 "$min_log2" --max-log2 "$max_log2" --step 2 > "$out/peers.json"
uptime >> "$out/versions.txt"
/usr/bin/python3 bench/peer_report.py --intel "$out/ours_intel.json" --pocl "$out/ours_pocl.json" \
  --peers "$out/peers.json" --versions "$out/versions.txt" --name "$name" \
  --command "bash bench/run_intel_cpu.sh $name $min_log2 $max_log2"
