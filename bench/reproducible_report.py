#!/usr/bin/env python3
"""The reproducible-sum table (bench/README.md, "Reproducible sums"): zr_reproducible_bench's JSON lines from
several devices (one file each, as --name=FILE pairs) -> one markdown file with
  - the digests of the three seeded inputs per device: one value per row means the same bits everywhere;
  - per device, the reproducible sum's device time against our default sum's, measured in turn in one run.

usage: reproducible_report.py --out bench/results/reproducible.md --note TEXT NAME=FILE [NAME=FILE ...]
"""
import argparse
import json


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--note", action="append", default=[])
    parser.add_argument("runs", nargs="+", help="NAME=FILE")
    args = parser.parse_args()

    runs = []
    for item in args.runs:
        name, path = item.split("=", 1)
        runs.append((name, read(path)))

    lines = ["# Reproducible sums: the same bits on every device, and the cost", ""]
    lines += [note for note in args.note] + ([""] if args.note else [])
    lines += ["Made by `bench/reproducible_report.py` from `zr_reproducible_bench` runs (one per device):", ""]
    for name, rows in runs:
        device = next((r["name"] for r in rows if r["kind"] == "device"), "?")
        lines.append(f"- **{name}**: {device}")
    lines.append("")

    lines += ["## Digests", "",
              "The reproducible sum of three seeded inputs (1,000,003 signed values of magnitudes 2^-30 .. 2^30), as "
              "the result's bits, by every strategy the device allows for a reproducible sum, from device memory "
              "and from a host span (`strategies`; \"one value\" when they all agreed).", ""]
    keys = []
    for _, rows in runs:
        for r in rows:
            if r["kind"] == "digest" and (r["type"], r["input"]) not in keys:
                keys.append((r["type"], r["input"]))
    lines.append("| type | input | " + " | ".join(name for name, _ in runs) + " | same bits everywhere |")
    lines.append("|---|---|" + "---|" * len(runs) + "---|")
    all_same = True
    for key in keys:
        cells, values = [], set()
        for _, rows in runs:
            found = [r for r in rows if r["kind"] == "digest" and (r["type"], r["input"]) == key]
            if not found:
                cells.append("not run (no such type on the device)")
                continue
            r = found[0]
            values.add(r["bits"])
            agreed = "one value" if r["one_value"] else "STRATEGIES DIFFER"
            cells.append(f"`{r['bits']}` ({r['strategies']}: {agreed})")
            all_same = all_same and r["one_value"]
        same = len(values) == 1
        all_same = all_same and same
        lines.append(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + f" | {'yes' if same else 'NO'} |")
    lines += ["", f"All digests agree across devices and strategies: **{'yes' if all_same else 'NO'}**.", ""]

    lines += ["## Speed against our default sum", "",
              "Device time (kernel timestamps) of a sum into device memory, median over the runs, the default and "
              "the reproducible sum called in turn in one run; ratio = default time / reproducible time.", ""]
    for name, rows in runs:
        speed = [r for r in rows if r["kind"] == "speed"]
        if not speed:
            continue
        lines += [f"### {name}", "", "| type | n | default GB/s | reproducible GB/s | ratio |", "|---|---|---|---|---|"]
        for r in speed:
            lines.append(f"| {r['type']} | 2^{r['log2']} | {r['default_GBps']:.1f} | {r['reproducible_GBps']:.1f} | "
                         f"{r['ratio']:.2f} |")
        lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}; digests agree: {all_same}")


if __name__ == "__main__":
    main()
