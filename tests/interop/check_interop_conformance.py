#!/usr/bin/env python3
"""ze_reduce_conformance --interop on one device: the suite's reductions through an application's own context,
queue and memory (tools/ze_reduce_conformance/application_path.cpp). Passes when the run exits 0, its report
says it ran through the application's objects, nothing failed, and real work ran (at least MIN_PASSED cases).

Usage: check_interop_conformance.py CONFORMANCE DEVICE MODE REPORT MIN_PASSED [GTEST_FILTER]
Exit code 77 (ctest: skipped) when no device matches DEVICE (text in its description or backend).
"""
import json
import subprocess
import sys

CONFORMANCE, DEVICE, MODE, REPORT, MIN_PASSED = sys.argv[1:6]
EXTRA = [f"--gtest_filter={sys.argv[6]}"] if len(sys.argv) > 6 else []

listing = subprocess.run([CONFORMANCE, "--list-devices"], capture_output=True, text=True, timeout=600)
if DEVICE.lower() not in listing.stdout.lower():
    print(f"skipped: no device matches '{DEVICE}':\n{listing.stdout}{listing.stderr[-2000:]}")
    sys.exit(77)

run = subprocess.run([CONFORMANCE, f"--{MODE}", "--interop", "--device", DEVICE, "--report", REPORT] + EXTRA,
                     capture_output=True, text=True, timeout=3000)
try:
    with open(REPORT) as file:
        report = json.load(file)
except (OSError, ValueError) as error:
    print(f"FAILED: no report ({error}); exit code {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    sys.exit(1)

totals = report["totals"]
print(f"--interop {MODE} on '{DEVICE}': {totals}")
problems = []
if run.returncode != 0:
    problems.append(f"exit code {run.returncode}")
if report.get("interop") is not True:
    problems.append("the report does not say it ran through the application's objects")
if totals["failed"] or totals["not_run"]:
    problems.append(f"{totals['failed']} failed, {totals['not_run']} not run")
    problems += [f["message"][:600] for f in report["failures"][:20]]
if totals["passed"] < int(MIN_PASSED):
    problems.append(f"only {totals['passed']} cases passed (at least {MIN_PASSED} expected): too little real work ran")
if problems:
    print("FAILED:\n  " + "\n  ".join(problems))
    sys.exit(1)
