#!/usr/bin/env python3
"""Segmented reductions on a CPU device against NumPy, from Python (issue 44, item 5's CPU half): at a total of
2^24 float32 (by default), `zereduce.sum(x, axis=1)` against `x.sum(axis=1)` on rows x columns for columns 2^0 ..
2^24, `zereduce.max(x, axis=1)` against `x.max(axis=1)`, and `zereduce.reduceat(x, starts)` against
`numpy.add.reduceat(x, starts)` for equal and power-law segments; `zereduce.sum(x, axis=0)` against `x.sum(axis=0)`
(one result per column). Wall time of a blocking call on a NumPy array,
median over repeated calls, the two called in turn in one run; every result is checked against NumPy's float64
sum (sums: the documented bound of the library's floating sums, at most a relative 2^-10 here) or NumPy's result
exactly (max). Writes JSON lines and a markdown table with NumPy's time over ours (>= 1.0: ours is faster).

usage: PYTHONPATH=build/release/python python3 bench/segmented_numpy_bench.py --out bench/results/segmented_numpy_2core
       [--device 'Intel(R) OpenCL'] [--log2-total 24] [--min-time 0.3]
"""
import argparse
import json
import os
import platform
import time

import numpy as np

import zereduce
from python_bench import median_seconds  # the same timing as the 1-D Python bench


def power_law_starts(total, rng):
    """Segment starts whose sizes follow a Pareto law (shape 1.2, at least 1): most tiny, a few huge."""
    sizes = []
    remaining = total
    while remaining > 0:
        size = min(remaining, max(1, int(rng.pareto(1.2) * 8)))
        sizes.append(size)
        remaining -= size
    return np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)


def check_sums(ours, x64_sums, what):
    scale = np.maximum(np.abs(x64_sums), 1.0)
    worst = float(np.max(np.abs(ours.astype(np.float64) - x64_sums) / scale)) if len(ours) else 0.0
    if worst > 2.0 ** -10:
        raise SystemExit(f"{what}: relative error {worst} against NumPy's float64 sums")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="path prefix: <out>.jsonl and <out>.md")
    parser.add_argument("--device", default=None,
                        help="a substring of the device's description, as zereduce.devices() gives it (default: the default device)")
    parser.add_argument("--log2-total", type=int, default=24)
    parser.add_argument("--min-time", type=float, default=0.3)
    args = parser.parse_args()

    device = None  # the default device (the first listed)
    listed = zereduce.devices()
    if args.device:
        matches = [d for d in listed if args.device in d["description"]]
        if not matches:
            raise SystemExit(f"no device matches '{args.device}': {[d['name'] for d in listed]}")
        device = matches[0]["index"]
    device_name = next(d for d in listed if device is None or d["index"] == device)["description"]
    # The device keyword only where one was asked for: a call as users write it (zereduce.sum(x, axis=1)) takes the
    # extension's fast path on small arrays, and one with more keywords the general path.
    on = {} if device is None else {"device": device}
    total = 1 << args.log2_total
    rng = np.random.default_rng(1)
    x = (rng.integers(-512, 513, size=total) / 8).astype(np.float32)  # eighths: exact partial sums in float64
    rows = []

    def record(case, segments, ours_s, numpy_s):
        row = {"case": case, "segments": int(segments), "elements": total, "ours_s": ours_s, "numpy_s": numpy_s,
               "numpy_over_ours": numpy_s / ours_s, "device": device_name, "host": platform.node(),
               "cores": os.cpu_count()}
        rows.append(row)
        print(json.dumps(row), flush=True)

    for log2_columns in range(0, args.log2_total + 1, 2):
        columns = 1 << log2_columns
        grid = x.reshape(total // columns, columns)
        ours = zereduce.sum(grid, axis=1, **on)
        check_sums(ours, grid.astype(np.float64).sum(axis=1), f"sum rows of {columns}")
        record(f"sum axis=1, rows of 2^{log2_columns}", total // columns,
               median_seconds(lambda: zereduce.sum(grid, axis=1, **on), args.min_time),
               median_seconds(lambda: grid.sum(axis=1), args.min_time))
    for log2_columns in (0, 4, 8, 12, 16, 20, 24):
        if log2_columns > args.log2_total:
            continue
        columns = 1 << log2_columns
        grid = x.reshape(total // columns, columns)
        if not np.array_equal(zereduce.max(grid, axis=1, **on), grid.max(axis=1)):
            raise SystemExit(f"max rows of {columns}: differs from NumPy")
        record(f"max axis=1, rows of 2^{log2_columns}", total // columns,
               median_seconds(lambda: zereduce.max(grid, axis=1, **on), args.min_time),
               median_seconds(lambda: grid.max(axis=1), args.min_time))
    for log2_columns in (2, 4, 8, 12, 16, 20):
        if log2_columns >= args.log2_total:
            continue
        columns = 1 << log2_columns
        grid = x.reshape(total // columns, columns)
        ours = zereduce.sum(grid, axis=0, **on)
        check_sums(ours, grid.astype(np.float64).sum(axis=0), f"sum columns of {columns}")
        record(f"sum axis=0, {columns} columns", columns,
               median_seconds(lambda: zereduce.sum(grid, axis=0, **on), args.min_time),
               median_seconds(lambda: grid.sum(axis=0), args.min_time))
    for label, starts in (("reduceat, equal segments of 2^4", np.arange(0, total, 16, dtype=np.int64)),
                          ("reduceat, equal segments of 2^10", np.arange(0, total, 1024, dtype=np.int64)),
                          ("reduceat, power-law sizes", power_law_starts(total, rng))):
        ours = zereduce.reduceat(x, starts, **on)
        check_sums(ours, np.add.reduceat(x.astype(np.float64), starts), label)
        record(label, len(starts),
               median_seconds(lambda: zereduce.reduceat(x, starts, **on), args.min_time),
               median_seconds(lambda: np.add.reduceat(x, starts), args.min_time))

    with open(args.out + ".jsonl", "w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    with open(args.out + ".md", "w") as out:
        out.write(f"# Segmented reductions against NumPy, {device_name}, {os.cpu_count()} cores, 2^{args.log2_total} "
                  f"float32\n\n`{' '.join(['bench/segmented_numpy_bench.py'] + [a for a in os.sys.argv[1:]])}` "
                  f"(NumPy {np.__version__}). Wall time of one blocking call from Python, median; ratio = NumPy's time "
                  f"over ours (target >= 1.0 at 2^24 elements). ZE_REDUCE_HOST_PATH_MAX_BYTES="
                  f"{os.environ.get('ZE_REDUCE_HOST_PATH_MAX_BYTES', '(unset)')}.\n\n")
        out.write("| case | segments | ours, ms | NumPy, ms | NumPy / ours |\n|---|---:|---:|---:|---:|\n")
        for row in rows:
            out.write(f"| {row['case']} | {row['segments']} | {row['ours_s'] * 1e3:.2f} | {row['numpy_s'] * 1e3:.2f} | "
                      f"{row['numpy_over_ours']:.2f} |\n")


if __name__ == "__main__":
    main()
