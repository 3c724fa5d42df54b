#!/usr/bin/env python3
"""Markdown table of a transform-reduction run (bench/run_h100_transform.sh or zr_transform_bench's JSON lines):
each transform against our plain sum of the same type, as ratios of device time measured in the same run.
Usage: transform_report.py <dir with run1.jsonl [run2.jsonl] [versions.txt]> [title]."""
import json
import pathlib
import sys


def load(path):
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {(r["op"], r["type"], r["log2"]): r for r in rows}


def main():
    folder = pathlib.Path(sys.argv[1])
    title = sys.argv[2] if len(sys.argv) > 2 else "Transform-reductions on the H100: against our plain sum, side by side"
    runs = [load(p) for p in sorted(folder.glob("run*.jsonl"))]
    checked = all(r["ok"] for table in runs for r in table.values())
    print(f"# {title}\n")
    print(f"Made by `bench/transform_report.py {folder}` from `zr_transform_bench` ({len(runs)} run(s) of 31 interleaved "
          "repetitions each; medians of device time, first kernel start to last kernel end, device-resident input, "
          "results in device memory). A ratio is our plain sum's time over the transform's (1.0x: as fast as the "
          "plain sum; above: faster). "
          f"Every result was checked against a host loop: {'all correct' if checked else 'SOME WRONG'}.\n")
    versions = folder / "versions.txt"
    if versions.exists():
        print("```\n" + versions.read_text().strip() + "\n```\n")
    print("| type | n | op | GB/s (run 1) | sum GB/s (run 1) | transform / sum: " + ", ".join(f"run {i + 1}" for i in range(len(runs))) + " |")
    print("|---|---:|---|---:|---:|---:|")
    first = runs[0]
    for (op, type_, log2), r in sorted(first.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        if op == "sum":
            continue
        ratios = [run[("sum", type_, log2)]["seconds"] / run[(op, type_, log2)]["seconds"] for run in runs]
        shown = ", ".join((f"**{x:.3f}x**" if i == 0 else f"{x:.3f}x") for i, x in enumerate(ratios))
        print(f"| {type_} | 2^{log2} | {op} | {r['gbps']:.0f} | {first[('sum', type_, log2)]['gbps']:.0f} | {shown} |")


if __name__ == "__main__":
    main()
