#!/usr/bin/env python3
"""Issue 42's GPU table from call 3 (latency_ab.jsonl, cub_call3.jsonl): per row, base (42f323c) and new (938df39's
OpenCL change) over five alternated rounds, each round one process with its own raw-OpenCL floor measured beside it,
and CUB + a 4-byte copy from the same machine. Ratios to the floor are per round, then the median of the five.

usage: python3 summarize.py > table.md   (from this folder)"""
import collections
import json
import statistics

rows = [json.loads(line) for line in open("latency_ab.jsonl")]
cub = {}
for line in open("cub_call3.jsonl"):
    row = json.loads(line)
    if row.get("kind") == "latency":
        cub[(row["type"], row["op"], row["log2"])] = row["wall_s"]
runs = collections.defaultdict(list)
for row in rows:
    runs[((row["type"], row["op"], row["log2"]), row["lib"])].append(row)
keys = sorted({key for key, _ in runs}, key=lambda k: (k[0], ["sum", "min", "max"].index(k[1]), k[2]))
us = lambda seconds: f"{seconds * 1e6:.1f}"
med = statistics.median
print("Median of five rounds (each round: the median of 200 blocking calls into a host variable, the floor's of 200 "
      "beside them); us. Stages: new's host stages, median of the rounds' medians.\n")
print("| type | op | n | base | new | new / base | floor | base / floor | new / floor | CUB + copy | new / CUB | "
      "new: before | enqueue | wait | rest | outside |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
summary = collections.defaultdict(list)
for key in keys:
    base, new = runs[(key, "base")], runs[(key, "new")]
    base_wall, new_wall = med(r["wall_s"] for r in base), med(r["wall_s"] for r in new)
    floor = med(r["cl_empty_kernel_read4_s"] for r in base + new)
    base_ratio = med(r["wall_s"] / r["cl_empty_kernel_read4_s"] for r in base)
    new_ratio = med(r["wall_s"] / r["cl_empty_kernel_read4_s"] for r in new)
    stage = lambda name: med(r["host_stages"][name] for r in new)
    summary[key[2]].append((new_ratio, new_wall / cub[key], new_wall / base_wall))
    print(f"| {key[0]} | {key[1]} | 2^{key[2]} | {us(base_wall)} | {us(new_wall)} | {new_wall / base_wall:.2f} | "
          f"{us(floor)} | {base_ratio:.2f} | {new_ratio:.2f} | {us(cub[key])} | {new_wall / cub[key]:.2f} | "
          f"{us(stage('before_s'))} | {us(stage('enqueue_s'))} | {us(stage('wait_s'))} | {us(stage('rest_s'))} | "
          f"{us(stage('outside_s'))} |")
print("\n| n | new / floor | new / CUB + copy | new / base |")
print("|---:|---|---|---|")
for log2, values in sorted(summary.items()):
    span = lambda i: f"{min(v[i] for v in values):.2f}-{max(v[i] for v in values):.2f}"
    print(f"| 2^{log2} | {span(0)} | {span(1)} | {span(2)} |")
