"""Table of latency_shapes.jsonl: per row and launch shape, the lowest of three rounds' medians (us)."""
import collections, json, pathlib, sys

rows = [json.loads(line) for line in open(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "latency_shapes.jsonl")]
shapes = list(dict.fromkeys(r["shape"] for r in rows))
by = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    by[(r["type"], r["op"], r["log2"])][r["shape"]].append(r)
print("| type | op | n | floor | " + " | ".join(f"{s}: host var / kernel" for s in shapes) + " |")
print("|---|---|---|---:|" + "---:|" * len(shapes))
for key in sorted(by):
    floor = min(r["cl_empty_kernel_read4_s"] for s in shapes for r in by[key][s]) * 1e6
    cells = []
    for s in shapes:
        wall = min(r["wall_s"] for r in by[key][s]) * 1e6
        kernel = min(r["kernel_s"] for r in by[key][s]) * 1e6
        cells.append(f"{wall:.1f} / {kernel:.1f}")
    print(f"| {key[0]} | {key[1]} | 2^{key[2]} | {floor:.1f} | " + " | ".join(cells) + " |")
