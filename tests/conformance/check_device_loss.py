#!/usr/bin/env python3
"""A device lost in the middle of the conformance suite: one failure for that device, its later cases
reported as not run (the JSON report too), and the other device's cases still run.

The loss is simulated (ZE_REDUCE_FAULT_INJECTION=device_lost:<strategy>@<device text>: after a run of that
strategy on that device the library sees CL_INVALID_COMMAND_QUEUE on OpenCL, as NVIDIA's OpenCL gave for
issue 18, or ZE_RESULT_ERROR_DEVICE_LOST on Level Zero). Two devices: PoCL (results checked) and Intel's Level
Zero driver without hardware (validity checks only); each is lost in turn while the other goes on.

Usage: check_device_loss.py PROGRAM REPORT SCHEMA
Exit code 77 (ctest: skipped) when jsonschema is missing or either device is absent.
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

PROGRAM, REPORT, SCHEMA = sys.argv[1:4]
LOST_STRATEGY = "global_atomics"  # its first i32 case runs after cases of other strategies (never the probe's)


def scenario(lost_text, lost_backend, fault_name):
    report_path = REPORT.replace(".json", f"_{lost_backend}.json")
    env = {**os.environ, "ZE_REDUCE_FAULT_INJECTION": f"device_lost:{LOST_STRATEGY}@{lost_text}",
           "NEOReadDebugKeys": "1", "SetCommandStreamReceiver": "1", "AUBDumpCaptureFileName": "/dev/null",
           "ProductFamilyOverride": "tgllp", "HardwareInfoOverride": "1x6x16", "ZE_REDUCE_TIMEOUT_S": "20"}
    env.pop("ZE_REDUCE_DEVICE", None)
    done = subprocess.run([PROGRAM, "--quick", "--device", "pocl,level_zero", "--report", report_path,
                           "--gtest_brief=1", "--gtest_filter=*_i32.*"], capture_output=True, text=True, env=env,
                          timeout=600)
    output = done.stdout + done.stderr
    if "matches no device" in output:
        print(f"skipped: needs PoCL and Intel's Level Zero driver without hardware:\n{output[-2000:]}")
        sys.exit(77)

    def require(condition, what):
        if not condition:
            print(f"FAILED ({lost_backend} lost): {what}\n--- suite output (end) ---\n{output[-6000:]}")
            sys.exit(1)

    require(done.returncode != 0, "the suite passed although a device was lost")
    with open(report_path) as report_file, open(SCHEMA) as schema_file:
        report = json.load(report_file)
        jsonschema.validate(report, json.load(schema_file))

    devices = {d["tag"]: d for d in report["devices"]}
    lost = [d for d in report["devices"] if d["lost"]]
    require(len(devices) == 2, f"expected PoCL and the Level Zero device, the report lists {list(devices)}")
    require(len(lost) == 1 and lost[0]["backend"] == lost_backend, f"expected the {lost_backend} device alone lost: {lost}")
    gone, = lost
    other, = (d for d in report["devices"] if not d["lost"])

    # One failure, for the lost device, at the simulated loss, in words a user can act on.
    require(report["totals"]["failed"] == 1, f"expected one failure, the report counts {report['totals']}")
    failure, = report["failures"]
    require(failure["device"] == gone["tag"] and failure["strategy"] == LOST_STRATEGY, f"failure: {failure}")
    for part in ("device lost at case", f"strategy {LOST_STRATEGY}", fault_name, gone["name"], "refuses further work"):
        require(part in failure["message"], f"'{part}' missing from the failure: {failure['message']}")
    require(gone["lost"]["test"] == failure["test"], f"lost at {gone['lost']['test']}, failed at {failure['test']}")

    # Cases of the lost device before the loss ran and passed; every later one is counted as not run.
    by_device = {tag: {"passed": 0, "failed": 0, "not_run": 0} for tag in devices}
    for bucket in report["results"]:
        for key in by_device[bucket["device"]]:
            by_device[bucket["device"]][key] += bucket[key]
    require(by_device[gone["tag"]]["passed"] > 0, f"no case of the lost device passed before the loss: {by_device}")
    require(by_device[gone["tag"]]["not_run"] > 50, f"the lost device's later cases are not counted as not run: {by_device}")
    require(report["totals"]["not_run"] == by_device[gone["tag"]]["not_run"], f"{report['totals']} vs {by_device}")
    require(f"at {failure['test']}" in output and "later cases of this device were not run" in output,
            "the suite's output does not say where the device was lost and how many cases were not run")

    # The other device went on: its cases ran and passed.
    require(by_device[other["tag"]]["passed"] > 50 and by_device[other["tag"]]["failed"] == 0
            and by_device[other["tag"]]["not_run"] == 0, f"the other device did not go on: {by_device}")
    print(f"{lost_backend} device lost as it must: {by_device}; failure: {failure['message'][:160]}...")


scenario("pthread", "opencl", "CL_INVALID_COMMAND_QUEUE")
scenario("graphics", "level_zero", "ZE_RESULT_ERROR_DEVICE_LOST")
