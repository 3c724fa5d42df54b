#!/usr/bin/env python3
"""A short markdown summary of ze_reduce_conformance JSON reports (docs/conformance.schema.json): per device,
the totals, then per strategy the cases that passed, failed, were skipped (with why) or not run, and the
first failures.

Usage: summarize.py [--title T] [--versions FILE] [--out FILE] REPORT.json [REPORT.json ...]
"""
import argparse
import collections
import json
import re
import sys


def why(reason):
    """The cause in a skip reason, without the strategy, device and pair it repeats."""
    cause = reason.split(": ", 1)[-1] if " is not available on device " in reason else reason
    cause = re.sub(r"device '[^']*' ", "the device ", cause)
    cause = re.sub(r" for [a-z_]+ on [a-z0-9]+$| (on|for) [a-z_]+ on [a-z0-9]+", "", cause)
    return cause[:120]


def strategy_table(report, tag):
    rows = collections.OrderedDict()
    for bucket in report["results"]:
        if bucket["device"] != tag:
            continue
        row = rows.setdefault(bucket["strategy"], {"pairs": 0, "passed": 0, "failed": 0, "skipped": 0,
                                                   "not_run": 0, "reasons": collections.Counter()})
        row["pairs"] += 1
        for key in ("passed", "failed", "skipped", "not_run"):
            row[key] += bucket.get(key, 0)
        for reason in bucket["skip_reasons"]:
            row["reasons"][why(reason)] += 1
    lines = ["| strategy | (op, type) pairs | passed | failed | skipped | not run | skipped because |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for strategy, row in rows.items():
        reasons = "; ".join(f"{text} ({count} pairs)" for text, count in row["reasons"].most_common(3))
        lines.append(f"| {strategy} | {row['pairs']} | {row['passed']} | {row['failed']} | {row['skipped']} | "
                     f"{row['not_run']} | {reasons} |")
    return lines


def summarize(report, source):
    lines = []
    for device in report["devices"]:
        tag = device["tag"]
        lines += [f"## {device['name']} ({device['backend']}, {device['kind']})", "",
                  f"- report: [`{source}`]({source}); library {report['library_version']}, {report['mode']} mode, "
                  f"seed {report['seed']}, started {report['started_utc']}, {report['duration_seconds']:.0f} s",
                  f"- driver: {device['description']}",
                  f"- checks: {device['checks']} ({device['cases']['compared_with_reference']} cases compared with "
                  f"the host reference, {device['cases']['refusal']} refusals checked)"]
        if report.get("fault_injection"):
            lines.append(f"- **ZE_REDUCE_FAULT_INJECTION={report['fault_injection']}**: a deliberately broken run")
        if report.get("gtest_filter") not in (None, "", "*"):
            lines.append(f"- filter: `{report['gtest_filter']}`")
        if device.get("lost"):
            lines.append(f"- **lost** at `{device['lost']['test']}`: {device['lost']['message']}")
        totals = report["totals"]
        lines += [f"- totals (every device of the report): **{totals['passed']} passed, {totals['failed']} failed**, "
                  f"{totals['skipped']} skipped, {totals.get('not_run', 0)} not run", ""]
        lines += strategy_table(report, tag) + [""]
    failures = report["failures"]
    if failures:
        lines += [f"### First failures ({len(failures)} listed, {report['failures_not_listed']} more)", ""]
        lines += [f"- `{f['test']}`: {f['message'][:400]}" for f in failures[:10]] + [""]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--title", default="Conformance on the H100 machine")
    parser.add_argument("--versions", help="versions.txt of the run (date, commit, driver versions)")
    parser.add_argument("--out", help="write here instead of standard output")
    parser.add_argument("--made-by", default="bench/run_h100_conformance.sh", help="the script that ran the suite")
    args = parser.parse_args()
    lines = [f"# {args.title}", "", "Made by `tests/reports/summarize.py` from the JSON reports beside this file "
             f"(`{args.made_by}`, docs/conformance.md).", ""]
    if args.versions:
        with open(args.versions) as versions:
            lines += ["```", *versions.read().strip().splitlines(), "```", ""]
    for path in args.reports:
        with open(path) as report_file:
            lines += summarize(json.load(report_file), path.split("/")[-1])
    text = "\n".join(lines)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
