#!/usr/bin/env bash
# The main job: install dependencies, build (release), and run ze_reduce on the default device with a
# sample workload.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release --target ze_reduce
./build/release/tools/ze_reduce/ze_reduce "$@"
