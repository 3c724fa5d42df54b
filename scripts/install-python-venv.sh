#!/usr/bin/env bash
# The project's Python environment (.deps/python-venv): Debian's Python with its NumPy and pytest
# (--system-site-packages), plus what PyPI gives pinned: the wheel's build backend (scikit-build-core, for
# scripts/python_package_test.sh), Hypothesis (the property-based NumPy parity suite, tests/python) and dpctl with
# Intel's SYCL runtime (SYCL USM arrays read in place, tests/python/test_sycl_usm_dpctl.py; about 900 MB). All are
# installed without their dependencies: the ones they need beyond the pins (sortedcontainers, attrs, numpy) are
# Debian's, so nothing unpinned comes from PyPI. The ctest Python tests run with this interpreter when it exists.
# scripts/install-deps.sh calls it; idempotent (a stamp records the pins installed).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/.deps/python-venv"
pins=(scikit-build-core==1.1.2 packaging==24.2 pathspec==0.12.1 hypothesis==6.170.17
      dpctl==0.22.1 intel-sycl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0 intel-cmplr-lib-ur==2026.2.0
      intel-cmplr-lic-rt==2026.2.0 tcmlib==1.6.0 umf==1.2.0)
stamp="$venv/installed-pins"
if [ ! -x "$venv/bin/python3" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${pins[*]}" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-deps "${pins[@]}"
  echo "${pins[*]}" >"$stamp"
fi
"$venv/bin/python3" - <<'PY'
import dpctl, hypothesis, hypothesis.extra.numpy, numpy, pytest
print(f"install-python-venv: hypothesis {hypothesis.__version__}, numpy {numpy.__version__}, pytest {pytest.__version__}, "
      f"dpctl {dpctl.__version__}")
PY
