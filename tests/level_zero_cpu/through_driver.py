#!/usr/bin/env python3
"""Runs work through the Level Zero test driver, after checking that the runtime's default device is that
driver's device (so a driver that failed to load cannot make the work silently run on PoCL instead).

  through_driver.py ZE_REDUCE run COMMAND...   run COMMAND (e.g. the API tests) with ZE_REDUCE_DEVICE=0
  through_driver.py ZE_REDUCE cli              ze_reduce --verify for ops, types and strategies: results checked
                                               on the host, device and kernel timestamps as reported
The caller sets ZE_ENABLE_ALT_DRIVERS, ZRT_PROFILE and OCL_ICD_VENDORS.
"""
import json
import os
import subprocess
import sys

ZE_REDUCE, MODE = sys.argv[1], sys.argv[2]
ENV = {k: v for k, v in os.environ.items() if k != "ZE_REDUCE_FAULT_INJECTION"}
ENV["ZE_REDUCE_DEVICE"] = "0"


def fail(text):
    print(f"FAILED: {text}")
    sys.exit(1)


listing = subprocess.run([ZE_REDUCE, "--list", "--json"], capture_output=True, text=True, env=ENV, timeout=600)
devices = json.loads(listing.stdout or '{"devices": []}').get("devices", [])
first = devices[0] if devices else {}
if first.get("backend") != "level_zero" or "ze-reduce TEST driver" not in first.get("description", ""):
    fail(f"device 0 is not the Level Zero test driver's:\n{listing.stdout[:2000]}\n{listing.stderr[-2000:]}")
if not first.get("executes_kernels"):
    fail(f"the test driver's device does not execute kernels: {first.get('kernel_execution')}")

if MODE == "run":
    sys.exit(subprocess.run(sys.argv[3:], env=ENV).returncode)

# (op, type, n, strategy or None): every strategy family, odd sizes, narrow and wide types.
# Each run is a process that builds its modules with the CPU compiler behind the driver (10-15 s): the
# conformance tests cover the rest.
RUNS = [("sum", "f32", "1000003", None), ("max", "f32", "2^20", "subgroup"), ("min", "i32", "777777", "work_group"),
        ("sum", "u8", "100001", "local_atomics"), ("prod", "f64", "4099", "tree"), ("xor", "u16", "65537", "last_group"),
        ("sum", "f16", "30000", "cpu_chunks"), ("land", "bool", "123457", None)]
problems = []
for op, element_type, n, strategy in RUNS:
    command = [ZE_REDUCE, "-o", op, "-t", element_type, "-n", n, "--verify", "--json", "-i", "2"]
    if strategy:
        command += ["--strategy", strategy]
    done = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=600)
    what = " ".join(command[1:])
    if done.returncode == 2 and strategy and "not available" in done.stderr:
        print(f"{what}: refused on this profile ({done.stderr.strip()[:200]})")
        continue
    if done.returncode != 0:
        problems.append(f"{what}: exit code {done.returncode}: {done.stderr[-1500:]}")
        continue
    report = json.loads(done.stdout)
    if report["device"]["backend"] != "level_zero" or "TEST driver" not in report["device"]["name"]:
        problems.append(f"{what}: ran on {report['device']}")
    if not report["verification"]["passed"]:
        problems.append(f"{what}: verification failed: {report['verification']}")
    if n != "0" and not report["timing"]["timestamps_valid"]:
        problems.append(f"{what}: the driver's kernel timestamps are not valid")
    print(f"{what}: {report['plans'][0]['strategy']}, verified, {report['timing']['gb_per_s']:.2f} GB/s")
if problems:
    fail("\n  ".join(problems))
