#!/usr/bin/env python3
"""Markdown table of an argmax/argmin run (bench/run_h100_arg.sh): ours against CUB's ArgMax/ArgMin, and against
our own maximum, as ratios measured in the same run. Usage: arg_report.py <dir with ours.jsonl, cub.jsonl,
ours_again.jsonl, versions.txt>."""
import json
import pathlib
import sys


def load(path):
    return {(r["op"], r["type"], r["log2"]): r for r in map(json.loads, path.read_text().splitlines()) if r}


def main():
    folder = pathlib.Path(sys.argv[1])
    ours, again, cub = (load(folder / name) for name in ("ours.jsonl", "ours_again.jsonl", "cub.jsonl"))
    checked = all(r["ok"] for table in (ours, again, cub) for r in table.values())
    print("# argmax / argmin on the H100: ours against CUB, side by side\n")
    print(f"Made by `bench/arg_report.py {folder}` from `bench/run_h100_arg.sh`: ours (NVIDIA's OpenCL driver, "
          "`zr_arg_bench`), then CUB (`bench/cub/cub_argreduce.cu`, CUDA events), then ours again, on the same GPU "
          "in one call. Times are device time (ours: first kernel start to last kernel end), medians; device-resident "
          "input with few ties. CUB's ArgMax/ArgMin return a 64-bit index, as ours do. "
          f"Every result was checked against a host scan: {'all correct' if checked else 'SOME WRONG'}.\n")
    print("```\n" + (folder / "versions.txt").read_text().strip() + "\n```\n")
    print("| type | n | op | ours GB/s | CUB GB/s | ours / CUB (run 1, run 2) | ours / our maximum |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for (op, type_, log2), r in sorted(ours.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        if op not in ("argmax", "argmin"):
            continue
        key = (op, type_, log2)
        peer = cub[key]
        ratio1 = peer["seconds"] / r["seconds"]
        ratio2 = peer["seconds"] / again[key]["seconds"]
        vs_max = ours[("max", type_, log2)]["seconds"] / r["seconds"]
        print(f"| {type_} | 2^{log2} | {op} | {r['gbps']:.0f} | {peer['gbps']:.0f} | "
              f"**{ratio1:.3f}x**, {ratio2:.3f}x | {vs_max:.3f}x |")


if __name__ == "__main__":
    main()
