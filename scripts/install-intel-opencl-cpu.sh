#!/usr/bin/env bash
# Intel's OpenCL runtime for x86 CPUs (PyPI intel-opencl-rt, pinned) in a project-local virtual environment,
# and an OpenCL vendors folder that adds it to this machine's own ICDs, for the build and tests only:
#   bash scripts/install-intel-opencl-cpu.sh [prefix=.deps/intel-opencl-cpu]
#   OCL_ICD_VENDORS=$PWD/.deps/intel-opencl-cpu/vendors ze_reduce --list
# Nothing is installed system-wide: the machine's other OpenCL devices stay as they are without the variable.
# Facts behind the pins (checked 2026-11-24 on an AMD EPYC, where the runtime lists "AMD EPYC (Intel(R)
# OpenCL, OpenCL 3.1)"): the wheel's metadata names tbb and intel-cmplr-lic-rt but not intel-cmplr-lib-rt,
# whose libimf/libsvml/libirng/libintlc libintelocl.so needs; the wheel's own intel-cpu.icd names a
# placeholder path (/opt/anaconda1anaconda2anaconda3/...), so the vendors folder gets one with the real path;
# the venv's lib/ must not go on LD_LIBRARY_PATH (its libOpenCL.so.1 would shadow the system's ICD loader).
# scripts/install-deps.sh calls it, so the README's commands set it up; the tests that use it (label intel_cpu)
# find the vendors folder in the default prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-.deps/intel-opencl-cpu}
pins=(intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0 intel-cmplr-lic-rt==2026.2.0 tbb==2023.2.0)

stamp="$prefix/venv/installed-pins"
if [ "$(cat "$stamp" 2>/dev/null)" != "${pins[*]}" ]; then
  [ -x "$prefix/venv/bin/python3" ] || /usr/bin/python3 -m venv "$prefix/venv"
  "$prefix/venv/bin/python3" -m pip install --quiet --no-compile --disable-pip-version-check "${pins[@]}"
  echo "${pins[*]}" > "$stamp"
fi
library="$(cd "$prefix/venv/lib" && pwd)/libintelocl.so"
[ -f "$library" ] || { echo "install-intel-opencl-cpu: $library is missing after the install" >&2; exit 1; }

vendors="$prefix/vendors"
rm -rf "$vendors" && mkdir -p "$vendors"
for icd in /etc/OpenCL/vendors/*.icd; do [ -e "$icd" ] && cp "$icd" "$vendors/"; done
echo "$library" > "$vendors/intel-opencl-cpu.icd"
echo "install-intel-opencl-cpu: OCL_ICD_VENDORS=$(cd "$vendors" && pwd) adds $library"
