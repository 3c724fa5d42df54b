#!/usr/bin/env python3
"""ze_reduce -o argmin/argmax on an input larger than one device allocation, run by through_driver.py with the
Level Zero test driver presenting 4 MiB as its largest allocation (ZRT_MAX_ALLOCATION): the library reduces the
12 MiB input in chunks, each chunk's index offset by its first element, and merges them on the host. The winners
and their ties are planted in later chunks, so a missing offset or a tie broken towards the later chunk shows.

Usage: arg_chunks_cli.py ZE_REDUCE   (in a writable directory; the caller sets ZE_REDUCE_DEVICE and the driver)
"""
import json
import os
import struct
import subprocess
import sys

ZE_REDUCE = sys.argv[1]
N = 3 << 20  # f32: 12 MiB, three chunks or more of at most 4 MiB


def write(name, planted):
    data = bytearray(4 * N)  # zeros
    for index, value in planted.items():
        struct.pack_into("<f", data, 4 * index, value)
    with open(name, "wb") as out:
        out.write(data)
    return os.path.abspath(name)


ties = {1_500_000: 5.0, 2_500_000: 5.0, 2_100_000: -3.0, 2_900_000: -3.0}
CASES = [(write("arg_chunks_f32.bin", ties), "argmax", "5", 1_500_000),
         (write("arg_chunks_f32.bin", ties), "argmin", "-3", 2_100_000),
         (write("arg_chunks_nan_f32.bin", {**ties, 2_600_000: float("nan"), 2_800_000: float("nan")}), "argmax",
          "nan", 2_600_000),
         (write("arg_chunks_nan_f32.bin", {**ties, 2_600_000: float("nan"), 2_800_000: float("nan")}), "argmin",
          "nan", 2_600_000)]
problems = []
for file, op, value, index in CASES:
    command = [ZE_REDUCE, "--input", file, "-t", "f32", "-o", op, "--verify", "--json", "-i", "1", "-w", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    what = " ".join(command[1:])
    if done.returncode != 0:
        problems.append(f"{what}: exit code {done.returncode}: {done.stderr[-1500:]}")
        continue
    report = json.loads(done.stdout)
    if report["timing"]["input_on_device"]:
        problems.append(f"{what}: the input fit one allocation, so no chunks were merged (ZRT_MAX_ALLOCATION unset?)")
    if (report["result"], report["index"]) != ([value], index):
        problems.append(f"{what}: {report['result']} at {report['index']}, expected {value} at {index}")
    if not report["verification"]["passed"]:
        problems.append(f"{what}: verification failed: {report['verification']}")
    print(f"{what}: {report['result'][0]} at index {report['index']}, in chunks, verified")
if problems:
    print("FAILED:\n  " + "\n  ".join(problems))
    sys.exit(1)
