#!/usr/bin/env python3
"""The conformance suite on Intel's OpenCL CPU runtime (scripts/install-intel-opencl-cpu.sh), with results
checked: the suite passes, its report validates, and every strategy that `ze_reduce --list` allows for every
(op, type) on that device has cases that passed, among them the ones that no other device here runs:
work_group (work-group collectives), subgroup, and floating-point global atomics (add, min, max).

Usage: check_intel_cpu_conformance.py CONFORMANCE ZE_REDUCE SCHEMA REPORT MODE
MODE is quick or full. The caller sets OCL_ICD_VENDORS to the vendors folder of that install.
Exit code 77 (ctest: skipped) when that folder or jsonschema is missing.
"""
import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError as missing:
    print(f"skipped: {missing} (apt-get install python3-jsonschema)")
    sys.exit(77)

CONFORMANCE, ZE_REDUCE, SCHEMA, REPORT, MODE = sys.argv[1:6]
VENDORS = os.environ.get("OCL_ICD_VENDORS", "")
if not os.path.isfile(os.path.join(VENDORS, "intel-opencl-cpu.icd")):
    print(f"skipped: no Intel OpenCL CPU runtime in OCL_ICD_VENDORS='{VENDORS}' (run scripts/install-intel-opencl-cpu.sh)")
    sys.exit(77)
ENV = {k: v for k, v in os.environ.items() if k not in ("ZE_REDUCE_DEVICE", "ZE_REDUCE_FAULT_INJECTION")}
# Strategies whose cases must have passed for these pairs whatever --list says (the acceptance).
REQUIRED = {("work_group", "plus", "f32"), ("work_group", "maximum", "f64"), ("work_group", "minimum", "i32"),
            ("subgroup", "plus", "f32"), ("subgroup", "bit_xor", "u64"), ("subgroup", "multiplies", "f64"),
            ("global_atomics", "plus", "f32"), ("global_atomics", "minimum", "f32"),
            ("global_atomics", "maximum", "f32"), ("local_atomics", "plus", "i32"), ("last_group", "plus", "f64"),
            ("tree", "plus", "f16"), ("cpu_chunks", "maximum", "u8")}
failures = []


def require(condition, what):
    if not condition:
        failures.append(what)


listing = subprocess.run([ZE_REDUCE, "--list", "--json"], capture_output=True, text=True, env=ENV, timeout=600)
require(listing.returncode == 0, f"ze_reduce --list failed: {listing.stderr}")
intel = [d for d in json.loads(listing.stdout or '{"devices": []}')["devices"]
         if "Intel(R) OpenCL," in d["description"] and d["kind"] == "cpu"]
if len(intel) != 1:
    print(f"FAILED: expected one Intel(R) OpenCL CPU device in ze_reduce --list, found {len(intel)}:\n{listing.stdout[:3000]}")
    sys.exit(1)
device = intel[0]

done = subprocess.run([CONFORMANCE, f"--{MODE}", "--device", str(device["index"]), "--report", REPORT,
                       "--gtest_brief=1"], capture_output=True, text=True, env=ENV, timeout=3000)
output = done.stdout + done.stderr
require(done.returncode == 0, f"the suite failed (exit code {done.returncode})")
with open(REPORT) as report_file, open(SCHEMA) as schema_file:
    report = json.load(report_file)
    jsonschema.validate(report, json.load(schema_file))

require(len(report["devices"]) == 1, f"the report covers {len(report['devices'])} devices, not one")
reported = report["devices"][0]
require("Intel(R) OpenCL" in reported["description"], f"the report's device is {reported['description']}")
require(reported["checks"] == "results", f"the device's cases were not compared with the host: {reported['checks']}")
require(reported["cases"]["compared_with_reference"] > 1000,
        f"only {reported['cases']['compared_with_reference']} cases compared with the host reference")
require(reported.get("lost") is None, f"the device was lost: {reported.get('lost')}")
require(report["totals"]["failed"] == 0, f"{report['totals']['failed']} cases failed: {report['failures'][:3]}")
require(report["totals"]["not_run"] == 0, f"{report['totals']['not_run']} cases did not run")

passed = {(r["strategy"], r["op"], r["type"]): r["passed"] for r in report["results"]}
for pair, strategies in device["strategies"].items():
    op, element_type = pair.split()
    for strategy in strategies:
        require(passed.get((strategy, op, element_type), 0) > 0,
                f"{strategy} on {op} {element_type}: allowed by --list but no case passed")
for key in sorted(REQUIRED):
    require(passed.get(key, 0) > 0, f"{key[0]} on {key[1]} {key[2]}: no case passed (required by issue 19)")

by_strategy = {}
for (strategy, _, _), count in passed.items():
    by_strategy[strategy] = by_strategy.get(strategy, 0) + count
print(f"{reported['description']}: {report['totals']['passed']} passed, {report['totals']['skipped']} skipped, "
      f"{report['totals']['failed']} failed in {report['duration_seconds']:.0f} s; passed by strategy: {by_strategy}")
if failures:
    print("FAILED:\n  " + "\n  ".join(failures[:40]) + f"\n--- suite output (end) ---\n{output[-6000:]}")
    sys.exit(1)
