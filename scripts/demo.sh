#!/usr/bin/env bash
# The main job: install dependencies, build (release), and run ze_reduce on the default device with a
# sample workload, verified on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/configure_preset.sh release
cmake --build --preset release --parallel "$(nproc)" --target ze_reduce
# Without arguments: the sum of 2^24 seeded random floats, checked against the host reference and measured
# against the device's read bandwidth. Any arguments replace these (see ze_reduce --help).
if [ "$#" -eq 0 ]; then set -- -o sum -t f32 -n 2^24 --fill random --seed 7 --verify --bandwidth; fi
./build/release/tools/ze_reduce/ze_reduce "$@"
