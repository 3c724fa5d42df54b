#!/usr/bin/env python3
"""The small-input blocking-latency table of the H100 run (issue 42, item 5): ours into a host variable and into
device memory, the raw-OpenCL floor (empty kernel + blocking 4-byte read, measured beside each row) and CUB plus a
4-byte copy, all from one bench/run_h100.sh run (MIN_LOG2=10 MAX_LOG2=16).

usage: python3 bench/latency_table.py <run dir with ours.json and cub.jsonl>  (markdown on stdout)
"""
import json
import sys

run = sys.argv[1]
ours = json.load(open(f"{run}/ours.json"))
cub = {}
for line in open(f"{run}/cub.jsonl"):
    row = json.loads(line)
    if row.get("kind") == "latency":
        cub[(row["type"], row["op"], row["log2"])] = row["wall_s"]
print("| type | op | n | ours, host variable | ours, with its initial value | ours, device memory | raw floor | CUB + copy | "
      "ours / floor | ours / CUB |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
worst_floor, worst_cub = 0.0, 0.0
for row in ours["latency"]:
    key = (row["type"], row["op"], row["log2"])
    floor = row["cl_empty_kernel_read4_s"]
    peer = cub.get(key)
    to_floor = row["wall_s"] / floor
    to_cub = row["wall_s"] / peer if peer else float("nan")
    worst_floor, worst_cub = max(worst_floor, to_floor), max(worst_cub, to_cub if peer else 0)
    # (runs before 2026-11-30 did not time SYCL's default, the variable's value joining the result)
    initial = row.get("initial_value_wall_s")
    initial_text = f"{initial * 1e6:.1f} us" if initial else "-"
    print(f"| {key[0]} | {key[1]} | 2^{key[2]} | {row['wall_s'] * 1e6:.1f} us | {initial_text} | {row['device_result_wall_s'] * 1e6:.1f} us | "
          f"{floor * 1e6:.1f} us | {peer * 1e6 if peer else float('nan'):.1f} us | {to_floor:.2f} | {to_cub:.2f} |")
print(f"\nWorst: {worst_floor:.2f}x the floor (target 1.15x), {worst_cub:.2f}x CUB + copy (target 1.00x).")

# Where our blocking call's time went (the event's host stages, medians over the same calls; runs before
# 2026-12-01 have none), beside the floor's two steps.
staged = [row for row in ours["latency"] if row.get("host_stages")]
if staged:
    print("\nWhere the time of ours (host variable) went, host clock, medians of the same calls (they need not add up "
          "to the median wall time): before execution (argument checks, the plan's lookup), enqueue (binding, "
          "kernel arguments, enqueues of the kernels and the result read), wait (until the host saw the read land), "
          "rest (results written), outside (into and out of the library: the event's completion, wait's return); "
          "the floor's kernel enqueue and its blocking read.\n")
    print("| type | op | n | ours | before | enqueue | wait | rest | outside | floor | floor: enqueue | floor: read | "
          "ours - floor: enqueue | wait |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in staged:
        s = row["host_stages"]
        floor_enqueue = row.get("cl_empty_kernel_enqueue_s", float("nan"))
        floor_read = row["cl_empty_kernel_read4_s"] - floor_enqueue
        us = lambda seconds: f"{seconds * 1e6:.1f}"
        print(f"| {row['type']} | {row['op']} | 2^{row['log2']} | {us(row['wall_s'])} | {us(s['before_s'])} | "
              f"{us(s['enqueue_s'])} | {us(s['wait_s'])} | {us(s['rest_s'])} | {us(s['outside_s'])} | "
              f"{us(row['cl_empty_kernel_read4_s'])} | {us(floor_enqueue)} | {us(floor_read)} | "
              f"{us(s['enqueue_s'] - floor_enqueue)} | {us(s['wait_s'] - floor_read)} |")
