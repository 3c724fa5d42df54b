#!/usr/bin/env python3
"""First use in a new process (issue 42, target: a second process's first reduction on Intel's CPU runtime in at most
0.3 s): the wall time of whole `ze_reduce -d <index> -n 1000` processes, the first on an empty binary cache, then
`--later` more that find the first one's entries (docs/binary_cache.md), and the same with the cache off.

usage: first_use.py <ze_reduce> <intel_cpu|pocl> [--later 5] [--work DIR]   (JSON lines on stdout)
Intel's CPU runtime needs OCL_ICD_VENDORS=.deps/intel-opencl-cpu/vendors (scripts/install-intel-opencl-cpu.sh)."""
import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time

MARKERS = {"intel_cpu": "(Intel(R) OpenCL", "pocl": "(Portable Computing Language"}

parser = argparse.ArgumentParser()
parser.add_argument("ze_reduce")
parser.add_argument("device", choices=sorted(MARKERS))
parser.add_argument("--later", type=int, default=5)
parser.add_argument("--work", default=None)
args = parser.parse_args()
work = args.work or tempfile.mkdtemp(prefix="zr_first_use_")
cache = os.path.join(work, "cache")


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZE_REDUCE_")}
    env["ZE_REDUCE_CACHE_DIR"] = cache
    env.update(extra)
    return env


# The listing probes every device (building modules on Intel's CPU runtime): its own cache, outside the one measured.
listing = subprocess.run([args.ze_reduce, "--list", "--json"], check=True, capture_output=True, text=True,
                         env=environment(ZE_REDUCE_CACHE_DIR=os.path.join(work, "listing")))
devices = json.loads(listing.stdout)["devices"]
index = next(d["index"] for d in devices if MARKERS[args.device] in d["description"])
description = next(d["description"] for d in devices if d["index"] == index)


def one_process(label, run, **extra):
    start = time.perf_counter()
    done = subprocess.run([args.ze_reduce, "-d", str(index), "-n", "1000"], capture_output=True, text=True,
                          env=environment(**extra))
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"ze_reduce failed ({label}): {done.stderr[-2000:]}")
    print(json.dumps({"device": args.device, "description": description, "process": label, "run": run,
                      "wall_s": round(seconds, 4)}), flush=True)


shutil.rmtree(cache, ignore_errors=True)
one_process("first, empty cache", 0)
for run in range(1, args.later + 1):
    one_process("later, cache kept", run)
# PoCL is left out of the cache by default (its own is faster): the same with ours asked for, and with no cache.
if args.device == "pocl":
    for run in range(1, args.later + 1):
        one_process("later, ZE_REDUCE_CACHE=on", run, ZE_REDUCE_CACHE="on")
for run in range(1, min(args.later, 2) + 1):
    one_process("cache off (every process builds)", run, ZE_REDUCE_CACHE="off")
