#!/usr/bin/env python3
"""The persistent binary cache across processes, on one device (docs/binary_cache.md).

check_binary_cache.py <ze_reduce> <work dir> <pocl|intel_cpu|level_zero>

Two `ze_reduce --verify` processes start together on an empty cache folder (they race to build and store the
same modules); both must verify. The folder then holds whole entries and no temporary file. A third process must
load every module it uses from the cache (its debug log says so) and verify. Damaged entries must be rebuilt
(a fourth process verifies and replaces them). Exit 77 (skipped) when the device kind is not present.
"""
import os
import re
import shutil
import subprocess
import sys
import time

ze_reduce, work_dir, kind = sys.argv[1], sys.argv[2], sys.argv[3]
cache_dir = os.path.join(work_dir, f"binary_cache_{kind}")
MARKERS = {
    "pocl": "(Portable Computing Language",
    "intel_cpu": "(Intel(R) OpenCL",
    "level_zero": "level_zero gpu",
}


def environment(**extra):
    env = dict(os.environ)
    env.pop("ZE_REDUCE_DEVICE", None)
    env["ZE_REDUCE_CACHE_DIR"] = cache_dir
    # PoCL is skipped by default (its own cache is faster): asked for here, so that its binaries are tested too.
    env["ZE_REDUCE_CACHE"] = "on"
    env.update(extra)
    return env


def device_index():
    # The listing probes every device (on Intel's CPU runtime that builds two modules, 15 s): with a cache folder
    # of its own, kept between runs, so that it neither costs that again nor fills the folder under test.
    listing = subprocess.run([ze_reduce, "--list"], env=environment(ZE_REDUCE_CACHE_DIR=os.path.join(work_dir, "listing")),
                             capture_output=True, text=True, timeout=600)
    for line in listing.stdout.splitlines():
        match = re.match(r"\[(\d+)\] (.*)", line)
        if match and MARKERS[kind] in match.group(2):
            return match.group(1)
    return None


index = device_index()
if index is None:
    print(f"skipped: no {kind} device in `ze_reduce --list`")
    sys.exit(77)
# f64 plus with the tree strategy: modules of 4 kernels (PoCL compiles all of a module's kernels when it exports
# its binary; the 62-kernel base modules take about 50 s there on 2 cores).
command = [ze_reduce, "-d", index, "-t", "f64", "-o", "plus", "-n", "100003", "--strategy", "tree", "--fill",
           "random", "--verify", "-i", "1", "-w", "0"]
failures = []


def run_together(count, **extra):
    started = time.monotonic()
    processes = [subprocess.Popen(command, env=environment(**extra), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True) for _ in range(count)]
    outputs = []
    for process in processes:
        output, _ = process.communicate(timeout=900)
        outputs.append(output)
        if process.returncode != 0:
            failures.append(f"ze_reduce exited {process.returncode}:\n{output}")
    return outputs, time.monotonic() - started


def entries():
    return sorted(os.listdir(cache_dir)) if os.path.isdir(cache_dir) else []


shutil.rmtree(cache_dir, ignore_errors=True)
_, racing_seconds = run_together(2)
stored = entries()
if not stored:
    failures.append(f"nothing was kept in {cache_dir}")
if any(not name.endswith(".zrbin") for name in stored):
    failures.append(f"files other than whole entries were left: {stored}")
print(f"{kind}: two racing processes on an empty cache: {racing_seconds:.2f} s; kept {stored}")

(log,), cached_seconds = run_together(1, ZE_REDUCE_LOG="debug")
loaded = re.findall(r"(?:loaded module (\S+) .*from the binary cache|built module (\S+) .*from the binary cache)", log)
built_fresh = re.findall(r"built module (\S+) (?:as \S+ )?for '[^']*' (?:from SPIR-V )?in ", log)
if not loaded:
    failures.append(f"the third process loaded nothing from the cache:\n{log}")
if built_fresh:
    failures.append(f"the third process built {built_fresh} again instead of loading them:\n{log}")
print(f"{kind}: a later process, from the cache: {cached_seconds:.2f} s ({len(loaded)} modules loaded)")

# The smallest entries (f64 modules of 4 kernels): rebuilding the base modules would take 15 s on Intel's runtime.
damaged = sorted(stored, key=lambda name: os.path.getsize(os.path.join(cache_dir, name)))[:2]
for name in damaged:
    path = os.path.join(cache_dir, name)
    with open(path, "r+b") as entry:
        entry.seek(os.path.getsize(path) // 2)
        entry.write(b"\x5a\xa5")
(log,), _ = run_together(1, ZE_REDUCE_LOG="debug")
if "is corrupt" not in log:
    failures.append(f"the damaged entries were not reported as corrupt:\n{log}")
if entries() != stored:
    failures.append(f"the damaged entries were not replaced: {entries()} after {stored}")

shutil.rmtree(cache_dir, ignore_errors=True)
for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)
