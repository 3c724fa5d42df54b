#!/usr/bin/python3
"""The peer table of bench/run_intel_cpu.sh: zr_reduce_bench on Intel's OpenCL CPU device (ours, every
strategy, OpenMP and std::reduce on the host, ratios of calls made in turn) and on PoCL, and
bench/sycl_peers.py (dpnp.tensor, dpnp, NumPy) -> bench/results/<name>.json (everything), <name>.md (the
table, the ratios, the acceptance of issue 19) and <name>.png (GB/s per implementation at the largest n).

  peer_report.py --intel ours_intel.json --pocl ours_pocl.json --peers peers.json --versions versions.txt \
      --name intel_cpu_2core [--command '...'] [--out-dir bench/results]

Time basis: the wall time of a blocking call, median (CPU devices; the SYCL peers' calls include the copy of
the 0-d result to the host, a few microseconds against milliseconds). GB/s = bytes of input / time.
"""
import argparse
import json
import os

TYPES = ["f32", "f64", "i32"]
OPS = ["sum", "min", "max", "argmax"]
ACCEPTED_OPS = ["sum", "min", "max"]
COLUMNS = [  # key, heading, colour
    ("ours", "ours, default (Intel)", "tab:blue"),
    ("ours_best", "ours, best strategy (Intel)", "tab:cyan"),
    ("ours_pocl", "ours, default (PoCL)", "tab:purple"),
    ("openmp", "OpenMP (host)", "tab:red"),
    ("std_par_unseq", "std::reduce par_unseq (host)", "tab:orange"),
    ("dpnp.tensor", "dpnp.tensor (ex dpctl.tensor)", "tab:green"),
    ("dpnp", "dpnp", "tab:olive"),
    ("numpy", "NumPy (host)", "tab:gray"),
]


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else None


def gbps(row):
    return row["bytes"] / row["wall_s"] / 1e9


def collect(intel, pocl, peers):
    """(type, op, log2) -> {column: (GB/s, label)}, and the wrong results."""
    table, wrong = {}, []
    def put(key, column, row, label=""):
        if not row.get("ok", True):
            wrong.append(f"{column} {key}")
        old = table.setdefault(key, {}).get(column)
        if old is None or gbps(row) > old[0]:
            table[key][column] = (gbps(row), label)
    for row in intel["results"]:
        key = (row["type"], row["op"], row["log2"])
        if row["impl"] in ("ours", "openmp", "std_par_unseq"):
            put(key, row["impl"], row, row.get("strategy", ""))
        if row["impl"] in ("ours", "strategy"):
            put(key, "ours_best", row, row.get("strategy", ""))
    for row in pocl["results"]:
        if row["impl"] == "ours":
            put((row["type"], row["op"], row["log2"]), "ours_pocl", row, row.get("strategy", ""))
    for row in peers["results"]:
        put((row["type"], row["op"], row["log2"]), row["impl"], row)
    return table, wrong


def main():
    parser = argparse.ArgumentParser()
    for option in ("--intel", "--pocl", "--peers", "--versions", "--name"):
        parser.add_argument(option, required=True)
    parser.add_argument("--command", default="")
    parser.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    args = parser.parse_args()
    with open(args.intel) as f:
        intel = json.load(f)
    with open(args.pocl) as f:
        pocl = json.load(f)
    with open(args.peers) as f:
        peers = json.load(f)
    versions = open(args.versions).read().strip()
    table, wrong = collect(intel, pocl, peers)
    in_turn = {}
    for r in intel.get("interleaved", []):
        in_turn.setdefault((r["type"], r["op"], r["log2"]), []).append(r["ours_over_openmp"])
    sizes = sorted({key[2] for key in table})
    meta = intel["meta"]

    def value(key, column):
        return table.get(key, {}).get(column, (None, ""))[0]

    def fmt(x, digits=1):
        return "-" if x is None else f"{x:.{digits}f}"

    md = [f"# ze-reduce against Intel's SYCL reductions, OpenMP and NumPy: {meta['device']}", "",
          f"- Date: {meta['date']} (UTC); whole run: `{args.command}`; ze-reduce {meta['zereduce_version']}.",
          f"- Ours: `{meta['command'].split('/')[-1]}` on the Intel device and the same on PoCL; peers: "
          f"`bench/sycl_peers.py` (dpctl {peers['meta']['dpctl']}, dpnp {peers['meta']['dpnp']}, NumPy "
          f"{peers['meta']['numpy']}) on {peers['meta']['device']}, {peers['meta']['compute_units']} compute units.",
          "- Time basis: wall time of a blocking call, median (ours and the host peers: max(3, 0.2 s worth) runs, "
          f"3 rounds; the SYCL peers and NumPy: {peers['meta']['reps']} calls after a warm-up call that compiles "
          "the kernel). GB/s = input bytes / time. Sums take the input's type (i32 wraps) in every implementation.",
          "- `ours, best strategy`: the fastest of every strategy the device allows (label: which). "
          "`ours / OpenMP, in turn`: the median ratio of calls made in turn, one each in a shuffled order "
          "(bench/README.md), the figure the acceptance uses; the other columns are medians measured seconds apart.",
          f"- Results checked against the host: {'all correct' if not wrong else 'WRONG: ' + ', '.join(wrong)}.",
          "", "```", versions, "```", ""]
    for l2 in sizes:
        md += [f"## n = 2^{l2}: GB/s", "",
               "| type | op | " + " | ".join(heading for _, heading, _ in COLUMNS) +
               " | ours / dpnp.tensor | ours / dpnp | ours / OpenMP, in turn |",
               "|---|---|" + "---:|" * (len(COLUMNS) + 3)]
        for ty in TYPES:
            for op in OPS:
                key = (ty, op, l2)
                if key not in table:
                    continue
                cells = []
                for column, _, _ in COLUMNS:
                    v, label = table[key].get(column, (None, ""))
                    cells.append(fmt(v) + (f" ({label})" if column == "ours_best" and label else ""))
                ours = value(key, "ours")
                ratio = lambda peer: fmt(ours / value(key, peer), 2) if ours and value(key, peer) else "-"
                cells += [ratio("dpnp.tensor"), ratio("dpnp"), fmt(median(in_turn.get(key, [])), 2)]
                md.append(f"| {ty} | {op} | " + " | ".join(cells) + " |")
        md.append("")
    md.append("argmax: ze-reduce has no argmax yet (issue 21); the peers' figures are there for that issue.\n")

    checks = []
    for l2 in sizes:
        for ty in TYPES:
            for op in ACCEPTED_OPS:
                key = (ty, op, l2)
                ours, dpt = value(key, "ours"), value(key, "dpnp.tensor")
                omp = median(in_turn.get(key, []))
                if ours and dpt:
                    checks.append((f"{ty} {op} 2^{l2}: ours / dpnp.tensor {ours / dpt:.2f} >= 1.0", ours / dpt >= 1.0))
                if omp:
                    checks.append((f"{ty} {op} 2^{l2}: ours / OpenMP in turn {omp:.2f} >= 0.95", omp >= 0.95))
    failed = [text for text, ok in checks if not ok]
    md += ["## Acceptance (issue 19)", "",
           f"{len(checks) - len(failed)} of {len(checks)} checks hold" + (":" if failed else "."), ""]
    md += [f"- **not met**: {text}" for text in failed]
    md.append("")

    os.makedirs(args.out_dir, exist_ok=True)
    base = os.path.join(args.out_dir, args.name)
    with open(base + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    with open(base + ".json", "w") as f:
        json.dump({"command": args.command, "versions": versions, "intel": intel, "pocl": pocl, "peers": peers,
                   "checks": [{"check": text, "holds": ok} for text, ok in checks]}, f, indent=1)
    plot(base + ".png", table, max(sizes), meta["device"])
    print(f"wrote {base}.md, .json, .png; {len(checks) - len(failed)}/{len(checks)} acceptance checks hold")


def plot(path, table, l2, device):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    keys = [(ty, op, l2) for ty in TYPES for op in OPS if (ty, op, l2) in table]
    fig, ax = plt.subplots(figsize=(14, 5))
    width = 0.8 / len(COLUMNS)
    for i, (column, heading, colour) in enumerate(COLUMNS):
        xs = [k + (i - len(COLUMNS) / 2) * width for k in range(len(keys))]
        ax.bar(xs, [table[key].get(column, (0, ""))[0] for key in keys], width, label=heading, color=colour)
    ax.set_xticks(range(len(keys)), [f"{ty} {op}" for ty, op, _ in keys], rotation=45)
    ax.set_ylabel("GB/s (input bytes / median wall time)")
    ax.set_title(f"n = 2^{l2} on {device}")
    ax.legend(fontsize=8, ncol=4)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
