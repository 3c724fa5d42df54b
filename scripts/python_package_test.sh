#!/usr/bin/env bash
# pip install . as a user would, then the zereduce package's pytest suite against the installed copy (not the
# build tree's). The venv is project-local (.deps/python-venv, scripts/install-python-venv.sh: Debian's NumPy and
# pytest, the pinned build backend and Hypothesis); the wheel is built without build isolation (nothing unpinned
# is downloaded) in build/wheel (kept: a second run is incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/.deps/python-venv"
bash scripts/install-python-venv.sh
# The same compiler name, generator, depth of build folder and flags as the release preset, so that a compiler
# cache that test.sh sets up serves this build from the release build's objects (ccache hashes the compiler's
# name, and paths relative to the build folder). scikit-build-core would otherwise pick Ninja and Python's own
# CXX (x86_64-linux-gnu-g++).
export CXX="${CXX:-c++}" CMAKE_GENERATOR="${CMAKE_GENERATOR:-Unix Makefiles}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
# A wheel folder that another generator configured (Ninja, before) cannot be reconfigured: start it again.
if [ -f build/wheel/CMakeCache.txt ] &&
  ! grep -qx "CMAKE_GENERATOR:INTERNAL=$CMAKE_GENERATOR" build/wheel/CMakeCache.txt; then
  rm -rf build/wheel
fi
# ZR_KERNEL_MODULES_FROM (test.sh sets it): the kernel modules a build of the same sources made, not compiled again.
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  --config-settings=build-dir=build/wheel --config-settings=cmake.define.ZR_WERROR=ON \
  --config-settings=cmake.define.ZR_KERNEL_MODULES_FROM="${ZR_KERNEL_MODULES_FROM:-}" .
# From outside the source tree, so that `import zereduce` can only be the installed package: an empty folder of its
# own, since the working folder is on sys.path (a stray /tmp/uuid.py once shadowed the standard uuid module there).
tests="$PWD/tests/python"
cd "$(mktemp -d)"
"$venv/bin/python3" - <<'PY'
import zereduce, os
assert "site-packages" in zereduce.__file__, zereduce.__file__
print("python_package_test: zereduce from", os.path.dirname(zereduce.__file__))
PY
"$venv/bin/python3" -m pytest -q -p no:cacheprovider "$tests"
