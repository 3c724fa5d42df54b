#!/usr/bin/env bash
# pip install . as a user would, then the zereduce package's pytest suite against the installed copy (not the
# build tree's). The venv is project-local (.deps/python-venv, scripts/install-python-venv.sh: Debian's NumPy and
# pytest, the pinned build backend and Hypothesis); the wheel is built without build isolation (nothing unpinned
# is downloaded) in build/wheel (kept: a second run is incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/.deps/python-venv"
bash scripts/install-python-venv.sh
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
  --config-settings=build-dir=build/wheel .
# From outside the source tree, so that `import zereduce` can only be the installed package.
tests="$PWD/tests/python"
cd /tmp
"$venv/bin/python3" - <<'PY'
import zereduce, os
assert "site-packages" in zereduce.__file__, zereduce.__file__
print("python_package_test: zereduce from", os.path.dirname(zereduce.__file__))
PY
"$venv/bin/python3" -m pytest -q -p no:cacheprovider "$tests"
