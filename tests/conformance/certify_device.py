"""Runs the conformance suite on one device of `ze_reduce --list` and checks its report: the suite passes, the
report validates against its schema, the device's cases were compared with the host reference (checks:
results), nothing failed or was left unrun, and every strategy that `ze_reduce --list` allows for every
(op, type) on that device has cases that passed, plus a caller's list of (strategy, op, type) that must have.

Used by tests/intel_cpu/check_intel_cpu_conformance.py and tests/level_zero_cpu/check_conformance.py.
"""
import json
import subprocess


def certify(conformance, ze_reduce, schema_path, report_path, mode, pick, required, env, required_why, gtest_filter=None):
    """pick(device_json) -> bool selects the one device; gtest_filter, when given, narrows the suite's cases.
    Returns (list of failure texts, summary line)."""
    import jsonschema

    failures = []

    def require(condition, what):
        if not condition:
            failures.append(what)

    listing = subprocess.run([ze_reduce, "--list", "--json"], capture_output=True, text=True, env=env, timeout=600)
    if listing.returncode != 0:
        return [f"ze_reduce --list failed: {listing.stderr[-3000:]}"], ""
    chosen = [d for d in json.loads(listing.stdout)["devices"] if pick(d)]
    if len(chosen) != 1:
        return [f"expected one matching device in ze_reduce --list, found {len(chosen)}:\n{listing.stdout[:3000]}"], ""
    device = chosen[0]

    narrowed = [f"--gtest_filter={gtest_filter}"] if gtest_filter else []
    done = subprocess.run([conformance, f"--{mode}", "--device", str(device["index"]), "--report", report_path,
                           "--gtest_brief=1", *narrowed], capture_output=True, text=True, env=env, timeout=3000)
    output = done.stdout + done.stderr
    require(done.returncode == 0, f"the suite failed (exit code {done.returncode})")
    try:
        with open(report_path) as report_file, open(schema_path) as schema_file:
            report = json.load(report_file)
            jsonschema.validate(report, json.load(schema_file))
    except (OSError, ValueError, jsonschema.ValidationError) as error:
        return failures + [f"no valid report: {error}", f"--- suite output (end) ---\n{output[-6000:]}"], ""

    require(len(report["devices"]) == 1, f"the report covers {len(report['devices'])} devices, not one")
    reported = report["devices"][0]
    require(reported["description"] == device["description"],
            f"the report's device is {reported['description']}, not {device['description']}")
    require(reported["checks"] == "results", f"the device's cases were not compared with the host: {reported['checks']}")
    require(reported["cases"]["compared_with_reference"] > 1000,
            f"only {reported['cases']['compared_with_reference']} cases compared with the host reference")
    require(reported.get("lost") is None, f"the device was lost: {reported.get('lost')}")
    require(report["totals"]["failed"] == 0, f"{report['totals']['failed']} cases failed: {report['failures'][:3]}")
    require(report["totals"]["not_run"] == 0, f"{report['totals']['not_run']} cases did not run")

    passed = {(r["strategy"], r["op"], r["type"]): r["passed"] for r in report["results"]}
    for pair, strategies in device["strategies"].items():
        op, element_type = pair.split()
        for strategy in strategies:
            require(passed.get((strategy, op, element_type), 0) > 0,
                    f"{strategy} on {op} {element_type}: allowed by --list but no case passed")
    for key in sorted(required):
        require(passed.get(key, 0) > 0, f"{key[0]} on {key[1]} {key[2]}: no case passed ({required_why})")

    by_strategy = {}
    for (strategy, _, _), count in passed.items():
        by_strategy[strategy] = by_strategy.get(strategy, 0) + count
    summary = (f"{reported['description']}: {report['totals']['passed']} passed, {report['totals']['skipped']} skipped, "
               f"{report['totals']['failed']} failed in {report['duration_seconds']:.0f} s; passed by strategy: {by_strategy}")
    if failures:
        failures.append(f"--- suite output (end) ---\n{output[-6000:]}")
    return failures, summary
