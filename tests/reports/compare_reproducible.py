#!/usr/bin/env python3
"""Cross-device check of reproducible sums (issue 22): the same seeded input must give the same bits on every
device, whatever strategy each one ran. Reads ze_reduce_conformance reports (their `reproducible_results`:
per device, the bits of each reproducible case that passed), compares every case that two or more devices
ran, prints a markdown summary (or writes it with --out), and exits 1 on any disagreement, or when fewer than
--min-devices devices share at least one case (a comparison of nothing proves nothing).

usage: compare_reproducible.py REPORT.json [REPORT.json ...] [--out FILE.md] [--min-devices 2]
"""
import argparse
import collections
import json
import sys


def load(paths):
    """device label -> {case: bits}, and device label -> description."""
    bits, described = {}, {}
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        names = {d["tag"]: d["description"] for d in report["devices"]}
        seed = report["seed"]
        for entry in report.get("reproducible_results", []):
            label = f"{path}:{entry['device']}"
            described[label] = names.get(entry["device"], entry["device"])
            # The base seed changes every input: cases compare only under the same one.
            bits.setdefault(label, {})[f"{entry['case']} (base seed {seed})"] = entry["bits"]
    return bits, described


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--out")
    parser.add_argument("--min-devices", type=int, default=2)
    args = parser.parse_args()
    bits, described = load(args.reports)
    by_case = collections.defaultdict(dict)
    for label, cases in bits.items():
        for case, value in cases.items():
            by_case[case][label] = value
    shared = {case: found for case, found in by_case.items() if len(found) >= 2}
    disagreeing = {case: found for case, found in shared.items() if len(set(found.values())) > 1}
    on_all = [case for case, found in by_case.items() if len(found) == len(bits)]
    lines = ["# Reproducible sums across devices", "",
             f"Made by `tests/reports/compare_reproducible.py` from {len(args.reports)} conformance report(s). "
             "Each case is a seeded input (type, input kind, n, seed, with or without an initial value) whose "
             "reproducible sum every device below ran with each strategy it allows and passed (device bits = the "
             "host binned sum, within its bound of the exact sum); here the bits are compared across devices.", "",
             "| device | report | reproducible cases |", "|---|---|---|"]
    for label in sorted(bits):
        report, tag = label.rsplit(":", 1)
        lines.append(f"| {tag}: {described[label]} | `{report}` | {len(bits[label])} |")
    lines += ["", f"- cases run on two or more devices: **{len(shared)}**, on all {len(bits)}: **{len(on_all)}**",
              f"- cases whose bits differ between devices: **{len(disagreeing)}**"]
    for case, found in list(disagreeing.items())[:20]:
        lines.append(f"  - {case}: " + ", ".join(f"{label} {value}" for label, value in sorted(found.items())))
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text, end="")
    if disagreeing:
        sys.exit(f"compare_reproducible: {len(disagreeing)} case(s) differ between devices")
    if len(bits) < args.min_devices or not shared:
        sys.exit(f"compare_reproducible: {len(bits)} device(s) with reproducible results, {len(shared)} shared "
                 f"case(s): nothing to compare (need {args.min_devices} devices)")


if __name__ == "__main__":
    main()
