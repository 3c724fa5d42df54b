#!/usr/bin/env bash
# cmake --preset <name>, after clearing the preset's build tree if another generator configured it (CMake refuses
# to change a tree's generator). The release preset took Ninja until it took Unix Makefiles, CMake's default.
# The whole tree goes, not just CMakeCache.txt and CMakeFiles/: the objects Ninja built have their header
# dependencies only in Ninja's own records (.ninja_deps), so Make would take them over and miss a header edit.
#   usage: bash scripts/configure_preset.sh <configure preset> [-DNAME=VALUE ...]   (the preset's own binaryDir: no
#          -B here; the rest goes to cmake)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=$1
# Two lines: the preset's generator ("Unix Makefiles" has a space) and its build tree.
mapfile -t fields < <(/usr/bin/python3 - "$preset" <<'PY'
import json, os, sys
presets = {p["name"]: p for p in json.load(open("CMakePresets.json"))["configurePresets"]}
p = presets.get(sys.argv[1], {})
if "generator" in p and "binaryDir" in p:
    print(p["generator"])
    print(p["binaryDir"].replace("${sourceDir}", os.getcwd()).replace("${presetName}", p["name"]))
PY
)
if [ "${#fields[@]}" -ne 2 ]; then
  echo "configure_preset.sh: no configure preset '$preset' with a generator and a binaryDir in CMakePresets.json"
  exit 2
fi
generator=${fields[0]}
binary_dir=${fields[1]}
cache=$binary_dir/CMakeCache.txt
if [ -f "$cache" ]; then
  previous=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$cache")
  if [ -n "$previous" ] && [ "$previous" != "$generator" ]; then
    echo "configure_preset.sh: $binary_dir was configured with $previous, the $preset preset now uses $generator:" \
         "removing it for a clean build (CMake cannot switch a tree's generator)"
    rm -rf "$binary_dir"
  fi
fi
cmake --preset "$preset" "${@:2}"
