#!/usr/bin/env python3
"""zereduce.sum against numpy.sum (and dpnp.sum where it imports) on this machine, from Python, n = 2^10 .. 2^28
float32 (issue 23, item 5). Wall time of a blocking call on a NumPy array in host memory, and on a copy made
beforehand in device memory (the `_resident` columns), median over repeated calls, the peers called in turn in
one run; each result is checked against NumPy's float64 sum. At the smallest n, the C++ API's blocking latency for the same call (zr_blocking_latency,
run just before and just after) gives the Python package's calling overhead as a ratio. Writes JSON lines, a
markdown table and a plot.

usage: PYTHONPATH=build/release/python python3 bench/python_bench.py --out bench/results/python_2core
       (with dpnp: OCL_ICD_VENDORS=$PWD/.deps/intel-sycl-peers/vendors PYTHONPATH=build/release/python
        .deps/intel-sycl-peers/venv/bin/python3 bench/python_bench.py --out bench/results/python_intel_cpu_2core)
       [--device INDEX] [--min-log2 10] [--max-log2 28] [--step 2] [--min-time 0.2]
       [--cpp-latency build/release/bench/zr_blocking_latency]
"""
import argparse
import json
import os
import platform
import subprocess
import time

import numpy as np

import zereduce


def median_seconds(call, min_time):
    call()  # warm-up (plans, module builds)
    times = []
    start = time.perf_counter()
    while len(times) < 5 or (time.perf_counter() - start < min_time and len(times) < 1000):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def cpp_latency(program, device, log2, field="median_s"):
    runs = max(5, min(2000, (1 << 24) >> log2))
    command = [program, "--log2", str(log2), "--runs", str(runs)] + ([] if device is None else ["--device", str(device)])
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)[field]


def peers(device):
    """name -> prepare(x) -> a blocking call. The plain names take the NumPy array as it is, on every call (a CPU
    device reads it in place; dpnp copies it to its device each time); the `_resident` ones reduce a copy made
    beforehand in the library's device memory (zereduce.asarray, dpnp.asarray)."""
    # The default device without keywords: the call a NumPy user writes (the fast path, docs/python.md).
    found = {"zereduce": (lambda x: lambda: zereduce.sum(x)) if device is None else
             (lambda x: lambda: zereduce.sum(x, device=device)), "numpy": lambda x: lambda: np.sum(x)}
    found["zereduce_resident"] = lambda x: (lambda resident: lambda: zereduce.sum(resident))(
        zereduce.asarray(x, device=device))
    try:  # Intel's SYCL array libraries, where installed (bench/install_sycl_peers.sh)
        import dpnp
        found["dpnp"] = lambda x: lambda: dpnp.asnumpy(dpnp.sum(dpnp.asarray(x)))
        found["dpnp_resident"] = lambda x: (lambda resident: lambda: dpnp.asnumpy(dpnp.sum(resident)))(
            dpnp.asarray(x))
    except ImportError:
        pass
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--device", type=int, default=None)
    parser.add_argument("--min-log2", type=int, default=10)
    parser.add_argument("--max-log2", type=int, default=28)
    parser.add_argument("--step", type=int, default=2)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--cpp-latency", default="build/release/bench/zr_blocking_latency")
    parser.add_argument("--ops", default="", help="also these, against NumPy's: min,max,argmax")
    parser.add_argument("--every-cpp", action="store_true",
                        help="the C++ API's latency and a plain C++ loop at every n (zr_blocking_latency)")
    args = parser.parse_args()

    device = args.device
    devices = zereduce.devices()
    name = devices[device if device is not None else 0]["description"] if devices else "none"
    runners = peers(device)
    rows = []
    meta = {"kind": "meta", "numpy": np.__version__, "device": name, "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(), "load": os.getloadavg()[0]}
    rng = np.random.default_rng(1)
    for log2 in range(args.min_log2, args.max_log2 + 1, args.step):
        x = rng.random(1 << log2, dtype=np.float32)
        exact = float(np.sum(x, dtype=np.float64))
        row = {"kind": "sum", "dtype": "float32", "log2": log2}
        for peer, prepare in runners.items():
            call = prepare(x)
            result = float(call())
            assert abs(result - exact) <= 1e-3 * abs(exact) + 1e-3, (peer, result, exact)
            row[peer + "_s"] = median_seconds(call, args.min_time)
            del call
        row["zereduce_vs_numpy"] = row["numpy_s"] / row["zereduce_s"]
        for op in args.ops.split(",") if args.ops else []:
            ours_call = {"min": lambda: zereduce.min(x), "max": lambda: zereduce.max(x), "argmax": lambda: zereduce.argmax(x)}[op]
            numpy_call = {"min": lambda: np.min(x), "max": lambda: np.max(x), "argmax": lambda: np.argmax(x)}[op]
            assert ours_call() == numpy_call(), (op, ours_call(), numpy_call())
            row[f"zereduce_{op}_s"] = median_seconds(ours_call, args.min_time)
            row[f"numpy_{op}_s"] = median_seconds(numpy_call, args.min_time)
        if args.every_cpp and os.path.exists(args.cpp_latency):
            row["cpp_api_every_s"] = cpp_latency(args.cpp_latency, device, log2)
            row["plain_loop_s"] = cpp_latency(args.cpp_latency, device, log2, "plain_loop_s")
        if log2 == args.min_log2 and os.path.exists(args.cpp_latency):
            cpp = [cpp_latency(args.cpp_latency, device, log2)]
            row["zereduce_beside_cpp_s"] = median_seconds(runners["zereduce"](x), args.min_time)
            cpp.append(cpp_latency(args.cpp_latency, device, log2))
            row["cpp_api_s"] = sum(cpp) / 2
            row["python_vs_cpp"] = row["zereduce_beside_cpp_s"] / row["cpp_api_s"]
        rows.append(row)
        print(json.dumps(row), flush=True)

    with open(args.out + ".jsonl", "w") as f:
        for row in [meta] + rows:
            f.write(json.dumps(row) + "\n")
    # Each peer against ours on the same footing: host arrays against host arrays, resident against resident.
    ratios = [("numpy", "zereduce"), ("numpy", "zereduce_resident")]
    ratios += [(p, "zereduce" + p[len("dpnp"):]) for p in runners if p.startswith("dpnp")]
    lines = ["# zereduce.sum from Python against numpy.sum (float32, wall time of a blocking call)", "",
             f"Device: {name}; NumPy {np.__version__}; {meta['cores']} cores; load {meta['load']:.2f} at the start. "
             "Made by `bench/python_bench.py`. Ratio > 1: zereduce is faster.", "",
             "| n | " + " | ".join(f"{p} (us)" for p in runners) + " | " +
             " | ".join(f"{peer} / {ours}" for peer, ours in ratios) + " |",
             "|---|" + "---|" * (len(runners) + len(ratios))]
    for row in rows:
        cells = " | ".join(f"{row[p + '_s'] * 1e6:.1f}" for p in runners)
        quotients = " | ".join(f"{row[peer + '_s'] / row[ours + '_s']:.2f}" for peer, ours in ratios)
        lines.append(f"| 2^{row['log2']} | {cells} | {quotients} |")
    extra = [op for op in (args.ops.split(",") if args.ops else [])]
    if extra or args.every_cpp:
        lines += ["", "Ours against NumPy's for each op, and the C++ API and a plain C++ loop (one accumulator, in order) "
                  "over the same float32 data (`zr_blocking_latency`); time in us, ratio > 1: zereduce is faster.", "",
                  "| n | " + " | ".join(f"{op}: zereduce / numpy (ratio)" for op in extra) +
                  (" | C++ API | plain C++ loop | plain loop / C++ API" if args.every_cpp else "") + " |",
                  "|---|" + "---|" * (len(extra) + (3 if args.every_cpp else 0))]
        for row in rows:
            cells = [f"{row[f'zereduce_{op}_s'] * 1e6:.1f} / {row[f'numpy_{op}_s'] * 1e6:.1f} "
                     f"({row[f'numpy_{op}_s'] / row[f'zereduce_{op}_s']:.2f})" for op in extra]
            if args.every_cpp and "cpp_api_every_s" in row:
                cells += [f"{row['cpp_api_every_s'] * 1e6:.1f}", f"{row['plain_loop_s'] * 1e6:.1f}",
                          f"{row['plain_loop_s'] / row['cpp_api_every_s']:.2f}"]
            lines.append(f"| 2^{row['log2']} | " + " | ".join(cells) + " |")
    for row in rows:
        if "cpp_api_s" in row:
            lines += ["", f"Calling overhead at n = 2^{row['log2']}: `zereduce.sum` {row['zereduce_beside_cpp_s'] * 1e6:.1f} us, "
                      f"the C++ API's blocking latency for the same call {row['cpp_api_s'] * 1e6:.1f} us "
                      f"(`zr_blocking_latency`, mean of a run just before and one just after): "
                      f"Python / C++ = {row['python_vs_cpp']:.2f}."]
    with open(args.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        figure, axis = plt.subplots(figsize=(7, 4))
        for peer in runners:
            axis.plot([r["log2"] for r in rows], [(4 << r["log2"]) / r[peer + "_s"] / 1e9 for r in rows], marker="o", label=peer)
        axis.set_xlabel("log2 n (float32)")
        axis.set_ylabel("GB/s (input bytes / wall time)")
        axis.set_title("float32 sum from Python (_resident: the array copied to the device beforehand)")
        axis.legend()
        figure.tight_layout()
        figure.savefig(args.out + ".png", dpi=100)
    except ImportError:
        print("matplotlib missing: no plot")
    print(f"wrote {args.out}.jsonl, .md" + (", .png" if os.path.exists(args.out + ".png") else ""))


if __name__ == "__main__":
    main()
