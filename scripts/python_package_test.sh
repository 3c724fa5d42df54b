#!/usr/bin/env bash
# pip install . as a user would, then the zereduce package's pytest suite against the installed copy (not the
# build tree's). The venv is project-local (.deps/python-venv) and sees Debian's NumPy, pytest and hypothesis
# (--system-site-packages); pip installs only the pinned build backend into it, then builds the wheel without
# build isolation (nothing unpinned is downloaded) in build/wheel (kept: a second run is incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/.deps/python-venv"
pins=(scikit-build-core==1.1.2 packaging==24.2 pathspec==0.12.1)
stamp="$venv/installed-pins"
if [ ! -x "$venv/bin/python3" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${pins[*]}" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
  echo "${pins[*]}" >"$stamp"
fi
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
