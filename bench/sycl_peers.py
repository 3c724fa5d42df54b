#!/usr/bin/env python3
"""The SYCL and NumPy peers of bench/run_intel_cpu.sh: dpnp.tensor (dpctl.tensor until dpctl 0.22 moved it
into dpnp) and dpnp sum/min/max/argmax on Intel's OpenCL CPU device, NumPy on the host, for the types and
sizes zr_reduce_bench measures. Each result is checked against NumPy; sums take the input's dtype (wrapping
for i32, as ours), so every library reads the same bytes and does the same work.

Times: the wall time of a blocking call (the reduction and the copy of its 0-d result to the host, which
waits for it), median of --reps calls after one warm-up call (which also JIT-compiles the kernel); the same
basis as the CPU rows of zr_reduce_bench. Runs in the venv of bench/install_sycl_peers.sh, with
OCL_ICD_VENDORS set to its Intel-only vendors folder. Prints one JSON document.

Usage: sycl_peers.py [--min-log2 24] [--max-log2 26] [--step 2] [--reps 10] [--seed 8]
"""
import argparse
import json
import statistics
import sys
import time

import dpctl
import dpnp
import dpnp.tensor as dpt
import numpy as np

TYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32}
OPS = ("sum", "min", "max", "argmax")


def intel_cpu_device():
    for device in dpctl.get_devices():
        if device.is_cpu and "Intel(R) OpenCL" in device.sycl_platform.name:
            return device
    sys.exit(f"sycl_peers: no Intel(R) OpenCL CPU device among {dpctl.get_devices()} (OCL_ICD_VENDORS?)")


def reference(op, host):
    if op == "sum":
        return np.add.reduce(host, dtype=host.dtype)
    return {"min": np.min, "max": np.max, "argmax": np.argmax}[op](host)


def correct(op, got, expected, dtype):
    if op == "sum" and np.dtype(dtype).kind == "f":
        # different association orders: within a bound far above any error of a sum over n elements
        return bool(abs(float(got) - float(expected)) <= 1e-3 * max(1.0, abs(float(expected))))
    return bool(np.asarray(got) == np.asarray(expected))


def calls(module, array, dtype):
    """op -> a call that returns the result on the host (so that it waits for the device)."""
    to_host = dpt.asnumpy if module is dpt else (dpnp.asnumpy if module is dpnp else np.asarray)
    return {
        "sum": lambda: to_host(module.sum(array, dtype=dtype)),
        "min": lambda: to_host(module.min(array)),
        "max": lambda: to_host(module.max(array)),
        "argmax": lambda: to_host(module.argmax(array)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--min-log2", type=int, default=24)
    parser.add_argument("--max-log2", type=int, default=26)
    parser.add_argument("--step", type=int, default=2)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    device = intel_cpu_device()
    queue = dpctl.SyclQueue(device)
    meta = {"dpctl": dpctl.__version__, "dpnp": dpnp.__version__, "numpy": np.__version__,
            "device": f"{device.name} ({device.sycl_platform.name}, driver {device.driver_version})",
            "compute_units": device.max_compute_units, "reps": args.reps,
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    results = []
    rng = np.random.default_rng(args.seed)
    for log2 in range(args.min_log2, args.max_log2 + 1, args.step):
        n = 1 << log2
        for type_name, dtype in TYPES.items():
            host = (rng.standard_normal(n).astype(dtype) if np.dtype(dtype).kind == "f"
                    else rng.integers(-2**31, 2**31, size=n, dtype=dtype))
            arrays = {"dpnp.tensor": (dpt, dpt.asarray(host, sycl_queue=queue)),
                      "dpnp": (dpnp, dpnp.asarray(host, sycl_queue=queue)), "numpy": (np, host)}
            queue.wait()
            for impl, (module, array) in arrays.items():
                for op, call in calls(module, array, dtype).items():
                    start = time.perf_counter()
                    got = call()
                    warmup_s = time.perf_counter() - start
                    times = []
                    for _ in range(args.reps):
                        start = time.perf_counter()
                        call()
                        times.append(time.perf_counter() - start)
                    record = {"impl": impl, "type": type_name, "op": op, "log2": log2, "bytes": host.nbytes,
                              "wall_s": statistics.median(times), "best_s": min(times), "warmup_s": warmup_s,
                              "ok": correct(op, got, reference(op, host), dtype)}
                    results.append(record)
                    print(f"{impl:12s} {type_name} {op:6s} 2^{log2} {host.nbytes / record['wall_s'] / 1e9:7.2f} GB/s"
                          f" ok={record['ok']}", file=sys.stderr, flush=True)
            del arrays
    json.dump({"meta": meta, "results": results}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
