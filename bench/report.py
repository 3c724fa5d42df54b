#!/usr/bin/python3
"""Turns one zr_reduce_bench run (and, on NVIDIA, the CUDA peer's JSON lines from the same run) into
bench/results/<name>.json (everything, merged), <name>.md (tables, ratios, acceptance) and <name>.png (GB/s
against n, one line per implementation, one panel per type and op).

  python3 bench/report.py --ours ours.json [--cub cub.jsonl] [--versions versions.txt] --name h100 \
      [--command 'how it was run'] [--note 'free text'] [--notes-file notes.md] [--out-dir bench/results]

Time basis: on GPUs every figure is device time (OpenCL profiling events for ours and the raw-OpenCL peers,
CUDA events for CUB and the CUDA read kernel); on CPUs it is the wall time of a blocking call (as OpenMP and
std::reduce are timed). GB/s = bytes of input read / time.
"""
import argparse
import json
import math
import os
import sys

TYPES = ["f32", "f64", "i32"]
OPS = ["sum", "min", "max"]
STYLE = {  # impl -> (label, colour, line style, width)
    "ours": ("ze-reduce (default)", "tab:blue", "-", 2.4),
    "ours_det": ("ze-reduce deterministic", "tab:cyan", "--", 1.6),
    "probe_read": ("read probe (raw OpenCL vector loads)", "black", ":", 1.8),
    "probe_api": ("probe through the API (bit_or u32)", "tab:gray", "-.", 1.2),
    "sdk_tree": ("OpenCL SDK multi-pass tree", "tab:brown", "-", 1.4),
    "cub": ("CUB DeviceReduce", "tab:green", "-", 2.0),
    "cuda_read": ("CUDA read kernel", "tab:olive", ":", 1.4),
    "openmp": ("OpenMP reduction", "tab:red", "-", 2.0),
    "std_par_unseq": ("std::reduce(par_unseq)", "tab:orange", "-", 1.6),
}


def load(args):
    with open(args.ours) as f:
        ours = json.load(f)
    cub_rows, cub_latency, cub_floor, cub_meta = [], [], None, None
    if args.cub:
        with open(args.cub) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                row = json.loads(line)
                kind = row.get("kind")
                if kind == "meta":
                    cub_meta = row
                elif kind == "floor":
                    cub_floor = row
                elif kind == "latency":
                    cub_latency.append(row)
                else:
                    cub_rows.append(row)
    versions = open(args.versions).read() if args.versions else ""
    return ours, cub_rows, cub_latency, cub_floor, cub_meta, versions


WAYS = [("read_us", "kernel; blocking read"), ("flush_read_us", "kernel; flush; blocking read"),
        ("flush_wait1_read_us", "... 1 us host wait before the read"), ("flush_wait2_read_us", "... 2 us"),
        ("flush_wait3_read_us", "... 3 us"), ("finish_us", "kernel; clFinish"),
        ("finish_read_us", "kernel; clFinish; blocking read")]


def blocking_wait_section(path, fmt):
    """The table of zr_blocking_wait_probe (bench/blocking_wait_probe.cpp): host time of each way of waiting
    against the device time of a one-item spin kernel."""
    head, rows = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("{"):
                row = json.loads(line)
                (rows.append(row) if "iters" in row else head.update(row))
    md = ["### How the driver's blocking wait depends on the kernel's device time\n",
          f"`zr_blocking_wait_probe` (raw OpenCL, {head.get('device', '?')}, driver {head.get('driver', '?')}, "
          f"median of {head.get('runs', '?')} per cell, same run): a one-item kernel of growing device time "
          "(profiling start to end), and the host time until each way of waiting returns, in us.\n",
          "| kernel device us | " + " | ".join(label for _, label in WAYS) + " |",
          "|---|" + "---|" * len(WAYS)]
    for r in rows:
        md.append(f"| {fmt(r['device_us'], 2)} | " + " | ".join(fmt(r.get(key)) for key, _ in WAYS) + " |")
    md.append("")
    return md


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ours", required=True)
    p.add_argument("--cub")
    p.add_argument("--versions")
    p.add_argument("--name", required=True)
    p.add_argument("--command", default="")
    p.add_argument("--note", default="")
    p.add_argument("--notes-file", help="markdown appended under '## Notes' (the analysis of a run)")
    p.add_argument("--blocking-wait", help="JSON lines of zr_blocking_wait_probe from the same run")
    p.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    args = p.parse_args()
    ours, cub_rows, cub_latency, cub_floor, cub_meta, versions = load(args)
    meta = ours["meta"]
    gpu = meta["device_kind"] == "gpu"
    basis = "device_s" if gpu else "wall_s"

    # (impl, type, op, log2) -> {gbps, strategy, ok}; strategy rows as impl "strategy:<name>". With several
    # rounds (--rounds), the median time over the rounds.
    rounds = {}
    for r in ours["results"]:
        impl = r["impl"] if r["impl"] != "strategy" else "strategy:" + r["strategy"]
        rounds.setdefault((impl, r["type"], r["op"], r["log2"]), []).append(r)
    table = {}
    for key, rs in rounds.items():
        times = sorted(r[basis] for r in rs)
        t = times[len(times) // 2]
        r = rs[0]
        table[key] = {"gbps": r["bytes"] / t * 1e-9 if t > 0 else float("nan"), "s": t,
                      "strategy": r.get("strategy", ""), "ok": all(x.get("ok", True) for x in rs)}
    for r in cub_rows:
        table[(r["impl"], r["type"], r["op"], r["log2"])] = {"gbps": r["bytes"] / r["device_s"] * 1e-9,
                                                              "s": r["device_s"], "strategy": "", "ok": True}
    # The probes read the same bytes whatever the op: copy the sum rows to min and max.
    for (impl, ty, op, l2), v in list(table.items()):
        if impl in ("probe_read", "probe_api", "cuda_read") and op == "sum":
            for other in ("min", "max"):
                table.setdefault((impl, ty, other, l2), v)
    sizes = sorted({k[3] for k in table})
    impls = sorted({k[0] for k in table})
    peers = ["cub", "sdk_tree"] if gpu else ["openmp", "std_par_unseq"]

    def g(impl, ty, op, l2):
        v = table.get((impl, ty, op, l2))
        return v["gbps"] if v else None

    def best_peer(ty, op, l2):
        vals = [(g(x, ty, op, l2), x) for x in peers if g(x, ty, op, l2)]
        return max(vals) if vals else (None, None)

    def fmt(x, digits=1):
        return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"

    def ratio(a, b):
        return a / b if a and b else None

    md = []
    md.append(f"# ze-reduce against the peers and the read bandwidth: {meta['device']}\n")
    md.append(f"- Date: {meta['date']} (UTC). ze-reduce {meta['zereduce_version']}. Device driver: {meta['driver_version']}; "
              f"raw OpenCL peer on the same device: {meta['raw_opencl_peer']}.")
    if cub_meta:
        md.append(f"- CUDA peer: {cub_meta['gpu']}, CUDA driver API {cub_meta['cuda_driver']}, runtime {cub_meta['cuda_runtime']}, "
                  f"CUB {cub_meta['cub']} (`bench/cub/cub_reduce.cu`, nvcc -O3 -arch=sm_90).")
    md.append(f"- Host: {meta['host_cpu'].split(':')[-1].strip()}, {meta['host_threads']} threads; std::execution backend: "
              f"{meta['std_par_unseq_backend']}. Load average at start / end: `{meta['loadavg_start']}` / `{meta['loadavg_end']}`.")
    md.append(f"- Benchmark command: `{meta['command']}`" + (f"; whole run: `{args.command}`" if args.command else "") + ".")
    md.append(f"- Time basis: {'device time (profiling / CUDA events), median' if gpu else 'wall time of a blocking call, median'} "
              f"of max(3, {meta['min_time_s']} s worth, at most {meta.get('max_iterations', 50)}) runs after a warm-up"
              f"{'' if meta.get('rounds', 1) == 1 else ', then the median over ' + str(meta['rounds']) + ' rounds of all implementations in turn'}; "
              f"GB/s = input bytes / time. "
              f"The input stays in device memory; small sizes fit in the caches (L2) for every implementation alike.")
    md.append("- Implementations: `ours` = default strategy through the public API; `ours_det` = with "
              "`property::reduction::deterministic`; `strategy:<s>` = `use_strategy`; `probe_read` = a trivial 16-byte "
              "vector-load kernel through raw OpenCL on the same device and driver (the read-bandwidth probe; best of a "
              "few launch shapes); `probe_api` = bit_or over the same bytes as u32 through our API; `sdk_tree` = the "
              "OpenCL SDK-style multi-pass tree (2 x work-group size per group per pass) through raw OpenCL" +
              ("; `cub` = CUB DeviceReduce; `cuda_read` = a CUDA 16-byte read kernel (CUDA events)." if gpu else
               "; `openmp` = `#pragma omp parallel for simd reduction(op: acc)`; `std_par_unseq` = "
               "`std::reduce(std::execution::par_unseq, ...)`, both on the host over the same values."))
    if args.note:
        md.append(f"- {args.note}")
    wrong = [k for k, v in table.items() if v.get("ok") is False]
    md.append(f"- Results checked against the host: {'all correct' if not wrong else 'WRONG: ' + ', '.join(map(str, wrong))}.")
    md.append("")

    # CPU runs: the ratios of calls made in turn (reduce_bench.cpp, interleaved()), one entry per round; the
    # median over rounds.
    interleaved = {}
    for r in ours.get("interleaved", []):
        interleaved.setdefault((r["type"], r["op"], r["log2"]), []).append(r)

    def interleaved_ratio(ty, op, l2, key):
        rs = interleaved.get((ty, op, l2))
        if not rs:
            return None
        values = sorted(r[key] for r in rs)
        return values[len(values) // 2]

    # Acceptance.
    acc_rows = []
    md.append("## Acceptance (issue 8, DESIGN.md section 5)\n")
    if gpu:
        md.append("| type | op | n | ours strategy | ours GB/s | CUB GB/s | ours / CUB | probe GB/s | ours / probe | det / default |")
        md.append("|---|---|---|---|---|---|---|---|---|---|")
    else:
        if interleaved:
            md.append("The checks use the last two columns: ours, ours deterministic and OpenMP called in turn, one call "
                      "each (in a shuffled order), at least 9 turns and 0.5 s per round; each ratio is the median of the "
                      "per-turn ratios, then the median over rounds. The columns before them are each implementation's "
                      "own median, measured seconds apart, which the shared host's drifts move by up to 30%.\n")
        md.append("| type | op | n | ours strategy | ours GB/s | OpenMP GB/s | ours / OpenMP | std::reduce GB/s | probe GB/s | ours / probe | det / default | ours / OpenMP, in turn | det / default, in turn |")
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    checks = []
    for ty in TYPES:
        for op in OPS:
            for l2 in sizes:
                if l2 < 24:
                    continue
                o = g("ours", ty, op, l2)
                if o is None:
                    continue
                d = g("ours_det", ty, op, l2)
                pr = g("probe_read", ty, op, l2)
                strat = table[("ours", ty, op, l2)]["strategy"]
                det_check = (f"{ty} {op} 2^{l2} det/default", ratio(d, o), 0.95)
                if gpu:
                    c = g("cub", ty, op, l2)
                    md.append(f"| {ty} | {op} | 2^{l2} | {strat} | {fmt(o)} | {fmt(c)} | {fmt(ratio(o, c), 3)} | {fmt(pr)} | "
                              f"{fmt(ratio(o, pr), 3)} | {fmt(ratio(d, o), 3)} |")
                    if c:
                        checks.append((f"{ty} {op} 2^{l2} ours/CUB", ratio(o, c), 1.0))
                    if l2 >= 28 and pr:
                        checks.append((f"{ty} {op} 2^{l2} ours/probe", ratio(o, pr), 0.97))
                else:
                    om = g("openmp", ty, op, l2)
                    sr = g("std_par_unseq", ty, op, l2)
                    paired_omp = interleaved_ratio(ty, op, l2, "ours_over_openmp")
                    paired_det = interleaved_ratio(ty, op, l2, "det_over_default")
                    md.append(f"| {ty} | {op} | 2^{l2} | {strat} | {fmt(o)} | {fmt(om)} | {fmt(ratio(o, om), 3)} | {fmt(sr)} | "
                              f"{fmt(pr)} | {fmt(ratio(o, pr), 3)} | {fmt(ratio(d, o), 3)} | {fmt(paired_omp, 3)} | "
                              f"{fmt(paired_det, 3)} |")
                    if l2 >= 26 and (paired_omp or om):
                        checks.append((f"{ty} {op} 2^{l2} ours/OpenMP" + (" (in turn)" if paired_omp else ""),
                                       paired_omp or ratio(o, om), 0.95))
                    if paired_det:
                        det_check = (det_check[0] + " (in turn)", paired_det, 0.95)
                if det_check[1]:
                    checks.append(det_check)
                acc_rows.append({"type": ty, "op": op, "log2": l2, "ours_gbps": o, "det_gbps": d, "probe_gbps": pr,
                                 "cub_gbps": g("cub", ty, op, l2), "openmp_gbps": g("openmp", ty, op, l2)})
    md.append("")
    missed = [c for c in checks if c[1] is not None and c[1] < c[2]]
    md.append(f"Throughput checks: {len(checks) - len(missed)} of {len(checks)} meet their target.")
    if missed:
        md.append("Missed: " + "; ".join(f"{name} = {r:.3f} (target {t})" for name, r, t in missed) + ".")
    md.append("")

    # Latency.
    lat = ours.get("latency", [])
    floor = ours.get("floor_start", {})
    floor_end = ours.get("floor_end", {})
    # DESIGN.md section 5: GPUs against an empty kernel enqueue + a 4-byte read, CPUs against an empty enqueue
    # + finish.
    floor_key = "cl_empty_kernel_read4_s" if gpu else "cl_empty_kernel_finish_s"
    floor_s = floor.get(floor_key)
    md.append(f"## Small-n latency (blocking, host clock, median of {meta.get('latency_runs', 100)})\n")
    md.append("`ours` is a blocking reduction into a host variable on a queue without profiling (the default), "
              "timed in blocks of 10 that alternate with blocks of the floor (the first call of each block left "
              "out: it pays for switching between the two OpenCL contexts). `into device memory`: the same with "
              "the result in a device allocation. `profiled`: the same call on a queue with "
              "`property::queue::enable_profiling`, and where its time goes (worker: the whole execution on the "
              "host clock; kernels and copies: device timestamps).\n")
    md.append(f"Floors through the same driver (raw OpenCL, same device, a queue without profiling): empty kernel "
              f"enqueue + blocking 4-byte read "
              f"{fmt(floor.get('cl_empty_kernel_read4_s', 0) * 1e6)} us at the start, "
              f"{fmt(floor_end.get('cl_empty_kernel_read4_s', 0) * 1e6)} us at the end; empty kernel + clFinish "
              f"{fmt(floor.get('cl_empty_kernel_finish_s', 0) * 1e6)} us / {fmt(floor_end.get('cl_empty_kernel_finish_s', 0) * 1e6)} us. "
              f"The ratio below is to the {'first' if gpu else 'second'} (DESIGN.md section 5: "
              f"{'GPUs <= 1.25x an empty kernel + a 4-byte read' if gpu else 'CPUs <= 1.5x an empty enqueue + finish'}), "
              f"at the start; where a row has a floor of its own (timed in the same loop, in the blocks "
              f"alternating with the reduction's), the ratio is to that one. Through our API, a blocking "
              f"4-byte `q.memcpy` alone takes {fmt(floor.get('api_memcpy4_s', 0) * 1e6)} us (the API cannot launch an arbitrary "
              f"kernel, so the empty-kernel floor is measured beside it, on the same device and driver)." +
              (f" CUDA floor: empty kernel + 4-byte cudaMemcpy {fmt(cub_floor['empty_kernel_read4_s'] * 1e6)} us." if cub_floor else ""))
    md.append("")
    head = ("| type | op | n | ours us | floor us | ours / floor | into device memory us | profiled us | "
            "profiled: worker us | profiled: kernels us | profiled: copies us |")
    sep = "|---|---|---|---|---|---|---|---|---|---|---|"
    if cub_latency:
        head += " CUB + 4-byte copy us |"
        sep += "---|"
    md.append(head)
    md.append(sep)
    lat_checks = []
    for r in lat:
        extra = ""
        if cub_latency:
            c = [x for x in cub_latency if x["type"] == r["type"] and x["op"] == r["op"] and x["log2"] == r["log2"]]
            extra = f" {fmt(c[0]['wall_s'] * 1e6) if c else '-'} |"
        row_floor = r.get(floor_key, floor_s)
        rr = ratio(r["wall_s"], row_floor)
        lat_checks.append(rr)
        md.append(f"| {r['type']} | {r['op']} | 2^{r['log2']} | {fmt(r['wall_s'] * 1e6)} | {fmt(row_floor * 1e6 if row_floor else None)} | "
                  f"{fmt(rr, 2)} | {fmt(r.get('device_result_wall_s', 0) * 1e6)} | {fmt(r.get('profiled_wall_s', 0) * 1e6)} | "
                  f"{fmt(r.get('host_s', 0) * 1e6)} | {fmt(r.get('kernel_s', 0) * 1e6)} | {fmt(r.get('copy_s', 0) * 1e6)} |" + extra)
    if lat_checks and all(lat_checks):
        target = 1.25 if gpu else 1.5
        md.append(f"\nLatency ratio to the floor: {min(lat_checks):.2f} to {max(lat_checks):.2f} (target <= {target}).")
    md.append("")
    if args.blocking_wait:
        md.extend(blocking_wait_section(args.blocking_wait, fmt))

    # Full table of GB/s.
    md.append("## All figures (GB/s)\n")
    cols = ["ours", "ours_det"] + sorted(i for i in impls if i.startswith("strategy:")) + \
           [i for i in ["probe_read", "probe_api", "sdk_tree", "cub", "cuda_read", "openmp", "std_par_unseq"] if i in impls]
    md.append("| type | op | n | " + " | ".join(c.replace("strategy:", "") for c in cols) + " | ours / probe | ours / best peer |")
    md.append("|---|---|---|" + "---|" * len(cols) + "---|---|")
    for ty in TYPES:
        for op in OPS:
            for l2 in sizes:
                o = g("ours", ty, op, l2)
                if o is None:
                    continue
                bp, _ = best_peer(ty, op, l2)
                md.append(f"| {ty} | {op} | 2^{l2} | " + " | ".join(fmt(g(c, ty, op, l2)) for c in cols) +
                          f" | {fmt(ratio(o, g('probe_read', ty, op, l2)), 3)} | {fmt(ratio(o, bp), 3)} |")
    md.append("")
    if args.notes_file:
        md.append("## Notes\n")
        md.append(open(args.notes_file).read().strip() + "\n")
    if versions:
        md.append("## Machine\n\n```\n" + versions.strip() + "\n```\n")

    os.makedirs(args.out_dir, exist_ok=True)
    base = os.path.join(args.out_dir, args.name)
    merged = {"meta": meta, "command": args.command, "versions": versions, "cuda_meta": cub_meta, "ours": ours,
              "cuda_peer": {"results": cub_rows, "latency": cub_latency, "floor": cub_floor},
              "acceptance": acc_rows, "checks": [{"name": n, "ratio": r, "target": t} for n, r, t in checks]}
    with open(base + ".json", "w") as f:
        json.dump(merged, f, indent=1)
    with open(base + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    plot(base + ".png", table, sizes, impls, meta, gpu)
    plot(base + "_large.png", table, sizes, impls, meta, gpu, min_log2=20)
    print(f"wrote {base}.json, {base}.md, {base}.png, {base}_large.png")
    for name, r, t in missed:
        print(f"MISSED {name}: {r:.3f} < {t}")


def plot(path, table, sizes, impls, meta, gpu, min_log2=None):
    """All sizes with log-log axes; with min_log2, only n >= 2^min_log2 with a linear GB/s axis."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if min_log2 is not None:
        sizes = [l2 for l2 in sizes if l2 >= min_log2]
    fig, axes = plt.subplots(3, 3, figsize=(17, 13), sharex=True)
    order = ["ours", "ours_det", "probe_read", "probe_api", "sdk_tree", "cub", "cuda_read", "openmp", "std_par_unseq"]
    strategies = sorted(i for i in impls if i.startswith("strategy:"))
    extra_styles = ["tab:purple", "tab:pink", "darkkhaki", "teal", "navy", "salmon"]
    for row, ty in enumerate(TYPES):
        for col, op in enumerate(OPS):
            ax = axes[row][col]
            for impl in order + strategies:
                xs, ys = [], []
                for l2 in sizes:
                    v = table.get((impl, ty, op, l2))
                    if v and v["gbps"] and not math.isnan(v["gbps"]):
                        xs.append(2 ** l2)
                        ys.append(v["gbps"])
                if not xs:
                    continue
                if impl in STYLE:
                    label, colour, ls, lw = STYLE[impl]
                else:
                    label = "strategy " + impl.split(":", 1)[1]
                    colour, ls, lw = extra_styles[strategies.index(impl) % len(extra_styles)], (0, (1, 1)), 1.0
                ax.plot(xs, ys, linestyle=ls, color=colour, lw=lw, label=label, marker="o" if impl == "ours" else None, ms=3)
            ax.set_xscale("log", base=2)
            if min_log2 is None:
                ax.set_yscale("log")
            else:
                ax.set_ylim(bottom=0)
            ax.set_title(f"{ty} {op}")
            ax.grid(True, which="both", alpha=0.3)
            if row == 2:
                ax.set_xlabel("n (elements, log scale)")
            if col == 0:
                ax.set_ylabel("throughput, GB/s of input read" + (" (log scale)" if min_log2 is None else ""))
    handles, labels = {}, {}
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(l, h)
    fig.legend(list(handles.values()), list(handles.keys()), loc="lower center", ncol=5, fontsize=10)
    basis = "device time" if gpu else "wall time of a blocking call"
    part = "" if min_log2 is None else f", n >= 2^{min_log2}"
    fig.suptitle(f"ze-reduce vs peers vs read probe: {meta['device_name']} ({meta['date'][:10]}; {basis}{part})", fontsize=13)
    fig.tight_layout(rect=(0, 0.07, 1, 0.96))
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    sys.exit(main())
