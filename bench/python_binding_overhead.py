#!/usr/bin/env python3
"""What the Python binding adds to the C++ call (issue 42, item 4: at most 1 us at n = 2^10): zereduce.sum of a float32
NumPy array against the C++ API's blocking call on the same device (zr_blocking_latency), in alternating rounds.

Per round: the C++ API's median latency (zr_blocking_latency, 20,000 calls), then per Python callable the mean of a
loop of calls (best of five loops): zereduce.sum(x), the extension's fast path alone (_zereduce.reduce_now) and
numpy.sum(x). The binding's cost is zereduce.sum's time minus the C++ call's, reported per round and as the median of
the rounds. Several packages (PYTHONPATH entries holding a zereduce package each, --packages) are timed in turn in
the same rounds, one subprocess per package and round, so that two builds compare side by side.

usage: python3 bench/python_binding_overhead.py --packages new=build/release/python [old=/tmp/old_py]
       [--cpp build/release/bench/zr_blocking_latency] [--log2 10] [--rounds 5] [--out bench/results/x] [--count]
       (--count needs valgrind)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

TIMER = r"""
import json, sys, timeit
import numpy as np
import zereduce
x = np.random.default_rng(1).random(1 << int(sys.argv[1]), dtype=np.float32)
expected = float(np.sum(x, dtype=np.float64))
got = float(zereduce.sum(x))
assert abs(got - expected) <= 1e-5 * abs(expected), (got, expected)
calls = {"zereduce_sum": lambda: zereduce.sum(x), "extension": lambda: zereduce._zereduce.reduce_now(x, 0, None),
         "numpy_sum": lambda: np.sum(x)}
out = {}
for name, call in calls.items():
    call()
    out[name + "_s"] = min(timeit.repeat(call, number=2000, repeat=5)) / 2000
print(json.dumps(out))
"""


def cpp_median(program, log2):
    run = subprocess.run([program, "--memory", "host", "--log2", str(log2), "--runs", "20000"], capture_output=True,
                         text=True, check=True)
    return json.loads(run.stdout)["median_s"]


def python_times(path, log2):
    environment = dict(os.environ, PYTHONPATH=path)
    run = subprocess.run([sys.executable, "-c", TIMER, str(log2)], capture_output=True, text=True, check=True,
                         env=environment)
    return json.loads(run.stdout)


LOOP = r"""
import sys
import numpy as np
import zereduce
x = np.random.default_rng(1).random(1 << int(sys.argv[1]), dtype=np.float32)
call = {"zereduce_sum": lambda: zereduce.sum(x), "nothing": lambda: None}[sys.argv[2]]
for _ in range(200 + int(sys.argv[3])):
    call()
"""


def instructions(command, environment=None):
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                         capture_output=True, text=True, check=True, env=environment)
    for line in run.stderr.splitlines():
        if "Collected" in line or "I   refs" in line:
            return int(line.split(":")[-1].replace(",", ""))
    raise RuntimeError("no instruction count in valgrind's output")


def counted(path, program, log2):
    """Instructions per call (callgrind, the difference of 2,000 and 7,000 calls): zereduce.sum's loop less an empty
    loop's, and the C++ API's timed calls (zr_blocking_latency's timed_reductions)."""
    environment = dict(os.environ, PYTHONPATH=path, PYTHONHASHSEED="0")
    per_call = {}
    for name in ("zereduce_sum", "nothing"):
        few, many = (instructions([sys.executable, "-c", LOOP, str(log2), name, str(k)], environment) for k in (2000, 7000))
        per_call[name] = (many - few) / 5000
    few, many = (instructions(["--toggle-collect=timed_reductions*", program, "--memory", "host", "--log2", str(log2),
                               "--runs", str(k)]) for k in (2000, 7000))
    return {"python_instructions": per_call["zereduce_sum"] - per_call["nothing"], "cpp_instructions": (many - few) / 5000}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", nargs="+", default=["build/release/python"],
                        help="NAME=PATH (or PATH): a PYTHONPATH entry holding the zereduce package")
    parser.add_argument("--cpp", default="build/release/bench/zr_blocking_latency")
    parser.add_argument("--log2", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=None, help="write OUT.jsonl and OUT.md")
    parser.add_argument("--count", action="store_true", help="also count instructions per call with callgrind")
    args = parser.parse_args()
    packages = [p.split("=", 1) if "=" in p else (p, p) for p in args.packages]
    rows = []
    for round_index in range(args.rounds):
        cpp = cpp_median(args.cpp, args.log2)
        for name, path in packages:
            row = {"round": round_index + 1, "package": name, "log2": args.log2, "cpp_api_s": cpp}
            row.update(python_times(path, args.log2))
            row["binding_s"] = row["zereduce_sum_s"] - cpp
            rows.append(row)
            print(json.dumps(row), flush=True)
    lines = [f"# What zereduce.sum adds to the C++ call, float32, n = 2^{args.log2}", "",
             "`bench/python_binding_overhead.py`: per round the C++ API's median blocking latency (zr_blocking_latency, "
             "host memory) and, per package, the mean of a loop of calls (best of five loops of 2,000). "
             "Binding = zereduce.sum - C++ API. Times in us.", "",
             "| package | C++ API | zereduce.sum | extension alone | numpy.sum | binding (median of rounds) | binding, each round |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for name, _ in packages:
        mine = [r for r in rows if r["package"] == name]
        median = lambda key: statistics.median(r[key] for r in mine) * 1e6  # noqa: E731
        each = ", ".join(f"{r['binding_s'] * 1e6:.2f}" for r in mine)
        lines.append(f"| {name} | {median('cpp_api_s'):.2f} | {median('zereduce_sum_s'):.2f} | {median('extension_s'):.2f} | "
                     f"{median('numpy_sum_s'):.2f} | {median('binding_s'):.2f} | {each} |")
    if args.count:
        lines += ["", "Instructions per call (callgrind, deterministic where the times above are not: the difference of "
                  "2,000 and 7,000 calls; Python's less an empty loop's):", "",
                  "| package | C++ API | zereduce.sum | binding |", "|---|---:|---:|---:|"]
        for name, path in packages:
            found = counted(path, args.cpp, args.log2)
            rows.append({"package": name, "log2": args.log2, **found})
            lines.append(f"| {name} | {found['cpp_instructions']:,.0f} | {found['python_instructions']:,.0f} | "
                         f"{found['python_instructions'] - found['cpp_instructions']:,.0f} |")
    print("\n".join(lines))
    if args.out:
        with open(args.out + ".jsonl", "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in rows)
        with open(args.out + ".md", "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
