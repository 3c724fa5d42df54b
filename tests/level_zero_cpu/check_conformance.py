#!/usr/bin/env python3
"""The conformance suite on the Level Zero backend, through the Level Zero test driver (ZE_ENABLE_ALT_DRIVERS)
presenting one Intel GPU profile, with results checked against the host reference
(tests/conformance/certify_device.py). Also checks that the device shows the profile's capabilities as far as
the CPU device behind the driver can execute them.

Usage: check_conformance.py CONFORMANCE ZE_REDUCE SCHEMA REPORT MODE PROFILE [GTEST_FILTER]
The caller sets ZE_ENABLE_ALT_DRIVERS, ZRT_PROFILE and OCL_ICD_VENDORS. Exit code 77 (ctest: skipped) without
jsonschema.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance"))
from certify_device import certify  # noqa: E402

try:
    import jsonschema  # noqa: F401
except ImportError as missing:
    print(f"skipped: {missing} (apt-get install python3-jsonschema)")
    sys.exit(77)

CONFORMANCE, ZE_REDUCE, SCHEMA, REPORT, MODE, PROFILE = sys.argv[1:7]
GTEST_FILTER = sys.argv[7] if len(sys.argv) > 7 else None
ENV = {k: v for k, v in os.environ.items() if k not in ("ZE_REDUCE_DEVICE", "ZE_REDUCE_FAULT_INJECTION")}
intel_backed = (os.path.isfile(os.path.join(ENV.get("OCL_ICD_VENDORS", ""), "intel-opencl-cpu.icd"))
                and ENV.get("ZRT_OPENCL", "") != "pocl")


def is_test_driver_device(d):
    return d["backend"] == "level_zero" and "ze-reduce TEST driver" in d["description"]


# What each profile must show (and run) when Intel's OpenCL CPU runtime is behind the driver: the strategies of
# that Intel GPU, with the profile's own feature gates.
EXPECTED_FEATURES = {
    "tgllp": ({"subgroups", "work_group_collectives", "fp16", "int64_atomics"}, {"fp64", "f32_atomic_add"}),
    "dg2": ({"subgroups", "work_group_collectives", "fp16", "int64_atomics", "f32_atomic_add"}, {"fp64", "f32_atomic_min_max"}),
    "pvc": ({"subgroups", "work_group_collectives", "fp16", "fp64", "int64_atomics", "f32_atomic_add", "f32_atomic_min_max"}, set()),
}
REQUIRED = {
    "tgllp": {("subgroup", "plus", "f32"), ("work_group", "plus", "i32"), ("last_group", "plus", "f16"),
              ("local_atomics", "plus", "i32"), ("global_atomics", "plus", "i64"), ("tree", "multiplies", "u8")},
    "dg2": {("subgroup", "maximum", "f32"), ("work_group", "minimum", "i32"), ("global_atomics", "plus", "f32"),
            ("last_group", "plus", "f32")},
    "pvc": {("subgroup", "plus", "f64"), ("work_group", "maximum", "f64"), ("global_atomics", "plus", "f32"),
            ("global_atomics", "maximum", "f32"), ("global_atomics", "minimum", "f32"), ("last_group", "plus", "f64"),
            ("tree", "multiplies", "f64")},
}

problems = []
listing = subprocess.run([ZE_REDUCE, "--list", "--json"], capture_output=True, text=True, env=ENV, timeout=600)
devices = [d for d in json.loads(listing.stdout or '{"devices": []}').get("devices", []) if is_test_driver_device(d)]
if len(devices) != 1:
    print(f"FAILED: expected one Level Zero test-driver device, found {len(devices)}:\n{listing.stdout[:3000]}\n{listing.stderr[-3000:]}")
    sys.exit(1)
caps = devices[0]["capabilities"]
features = {name for name, value in caps.items() if value is True} | ({"subgroups"} if caps["sub_group_sizes"] else set())
if not devices[0]["executes_kernels"]:
    problems.append(f"the execution probe says the test driver's device does not execute kernels: {devices[0]['kernel_execution']}")
if intel_backed:
    must, must_not = EXPECTED_FEATURES[PROFILE]
    if not must <= features:
        problems.append(f"the {PROFILE} profile lacks {sorted(must - features)} (features: {sorted(features)})")
    if must_not & features:
        problems.append(f"the {PROFILE} profile shows {sorted(must_not & features)}, which that GPU does not have")
required = REQUIRED[PROFILE] if intel_backed else set()

failures, summary = certify(CONFORMANCE, ZE_REDUCE, SCHEMA, REPORT, MODE, is_test_driver_device, required, ENV,
                            f"the {PROFILE} profile's strategies", GTEST_FILTER)
print(f"[{PROFILE}, {'Intel OpenCL CPU' if intel_backed else 'PoCL'} behind the driver] {summary}")
failures = problems + failures
if failures:
    print("FAILED:\n  " + "\n  ".join(failures[:40]))
    sys.exit(1)
