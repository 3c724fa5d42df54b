#!/usr/bin/env python3
"""Markdown table of the segmented bench (bench/run_h100_segmented.sh): for each type, op and segment length,
ours (reduce_rows, and reduce_segments with offsets) and CUB's DeviceSegmentedReduce as fractions of the read
probe, counting the input's and the results' bytes (offsets not counted), and ours over CUB. Where ours ran twice
(ours.jsonl, ours_again.jsonl) the faster run is taken, as CUB's timing takes a median of many; ours_i32.jsonl
and cub_i32.jsonl (PART=i32, a later call) replace what they measured again.
Usage: segmented_report.py <dir with ours.jsonl, cub.jsonl[, ours_again.jsonl], versions.txt>"""
import json
import sys
from pathlib import Path

SIZES = {"f32": 4, "f64": 8, "i32": 4}


def rows_of(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")] if path.exists() else []


def main(folder):
    folder = Path(folder)
    ours, cub, probe = {}, {}, {}
    for name in ("ours.jsonl", "ours_again.jsonl", "ours_i32.jsonl"):
        for r in rows_of(folder / name):
            r["_file"] = name
            key = (r["api"], r["op"], r["type"], r["layout"], r["log2"])
            # The later run (PART=i32, after a plan change) replaces what it measured again.
            if key not in ours or r["seconds"] < ours[key]["seconds"] or name == "ours_i32.jsonl":
                ours[key] = r
    for r in rows_of(folder / "cub.jsonl") + rows_of(folder / "cub_i32.jsonl"):
        if r["peer"] == "read_probe":
            probe[r["type"]] = r["gbps"]
        else:
            cub[(r["op"], r["type"], r["layout"], r["log2"])] = r

    def rate(r):  # GB/s over input and results; an argmax result is 16 bytes for ours (arg_result), 8 for CUB's
        result_bytes = SIZES[r["type"]]
        if r["op"] == "argmax":
            result_bytes = 16 if r["peer"] == "ours" else 8
        return (r["n"] * SIZES[r["type"]] + r["segments"] * result_bytes) / r["seconds"] / 1e9

    has_rerun = (folder / "ours_i32.jsonl").exists()
    versions = (folder / "versions.txt").read_text().splitlines() if (folder / "versions.txt").exists() else []
    # The card nvidia-smi named (the device tool lends an H100 or an H200), from the row after its CSV heading.
    card = next((row.split(",")[0].strip() for heading, row in zip(versions, versions[1:]) if heading.startswith("name,")),
                "the H100")
    print(f"# Segmented reductions on {card}: ours against CUB DeviceSegmentedReduce\n")
    # The date, the commit and nvidia-smi's row (its CSV heading skipped).
    facts = [v.strip() for v in versions[:4] if v.strip() and not v.startswith("name,")]
    print("Made with `bench/run_h100_segmented.sh` (`bench/segmented_report.py`). " + "; ".join(facts) + ".\n")
    print("Total 2^28 elements in equal segments of 2^k (and power-law sizes). Columns: GB/s over input + results "
          "as a fraction of the read probe on the same input (probe GB/s in the heading); `rows` is "
          "queue::reduce_rows, `offsets` queue::reduce_segments with 32-bit offsets (as CUB gets them); "
          "last column ours (best API) over CUB. `!` marks a result that failed its host check.\n")
    if has_rerun:
        print("i32, and f32's power-law and 2^28 rows, come from the later call (PART=i32, second commit in "
              "versions.txt: skewed sizes keep a group per segment); `†` marks power-law rows measured before that "
              "change (lanes per segment), not rerun.\n")
    for t in ("f32", "f64", "i32"):
        if t not in probe:
            continue
        for op in ("sum", "max", "argmax", "norm_l2"):
            if not any(k[1] == op and k[2] == t for k in ours):
                continue
            print(f"## {op} {t} (read probe {probe[t]:.0f} GB/s)\n")
            print("| segment | segments | rows / probe | offsets / probe | CUB / probe | ours / CUB |")
            print("|---|---|---|---|---|---|")
            keys = sorted({k[4] for k in ours if k[1] == op and k[2] == t and k[3] == "equal"})
            for layout, log2 in [("equal", k) for k in keys] + [("power_law", -1)]:
                row_r = ours.get(("rows", op, t, layout, log2))
                off_r = ours.get(("offsets", op, t, layout, log2))
                cub_r = cub.get((op, t, layout, log2))
                if not off_r and not row_r:
                    continue
                def cell(r):
                    if not r:
                        return "-"
                    stale = r["layout"] == "power_law" and has_rerun and r.get("_file", "ours_i32.jsonl") != "ours_i32.jsonl"
                    return f"{rate(r) / probe[t]:.2f}" + ("" if r["ok"] else " !") + (" †" if stale else "")
                best = max((r for r in (row_r, off_r) if r), key=rate)
                vs = f"{cub_r['seconds'] / best['seconds']:.2f}" if cub_r else "-"
                label = f"2^{log2}" if log2 >= 0 else "power law"
                print(f"| {label} | {best['segments']} | {cell(row_r)} | {cell(off_r)} | {cell(cub_r)} | {vs} |")
            print()
    wall_section(ours)


def wall_section(ours):
    """Offsets in device memory: what a call costs on the host's clock next to its kernels (from the runs that
    recorded wall_seconds: the device check of the offsets, its read-back and the planning come on top)."""
    timed = [r for k, r in sorted(ours.items(), key=lambda kr: (kr[0][2], kr[0][1], kr[0][4] if kr[0][4] >= 0 else 99))
             if k[0] == "offsets" and "wall_seconds" in r]
    if not timed:
        return
    print("## Offsets in device memory: the call's wall time\n")
    print("Microseconds, medians: the reduction's kernels (device span), the device's check of the offsets, and "
          "the whole call from submission to completion on the host's clock (`queue::reduce_segments(...).wait()`).\n")
    print("| op | type | segment | segments | kernels us | check us | wall us | wall / kernels |")
    print("|---|---|---|---|---|---|---|---|")
    for r in timed:
        label = f"2^{r['log2']}" if r["log2"] >= 0 else "power law"
        print(f"| {r['op']} | {r['type']} | {label} | {r['segments']} | {r['seconds'] * 1e6:.1f} | "
              f"{r['check_seconds'] * 1e6:.1f} | {r['wall_seconds'] * 1e6:.1f} | {r['wall_seconds'] / r['seconds']:.2f} |")
    print()


if __name__ == "__main__":
    main(sys.argv[1])
