"""A/B table of ab.jsonl (zr_segmented_bench rows from two libraries alternated): per row the faster run of each."""
import collections, json, pathlib, sys

folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
rows = [json.loads(line) for line in open(folder / "ab.jsonl") if line.startswith("{")]
best = collections.defaultdict(dict)
checked = collections.defaultdict(lambda: True)
for r in rows:
    key = (r["type"], r["op"], r["api"], r["log2"])
    best[key][r["lib"]] = min(best[key].get(r["lib"], 1e9), r["seconds"])
    checked[key] &= bool(r["ok"])
print("| type | op | API | segment | base (us) | quick (us) | quick / base | results checked |")
print("|---|---|---|---|---:|---:|---:|---|")
for key in sorted(best):
    base, quick = best[key]["base"], best[key]["quick"]
    print(f"| {key[0]} | {key[1]} | {key[2]} | 2^{key[3]} | {base * 1e6:.1f} | {quick * 1e6:.1f} | {quick / base:.3f} | "
          f"{'yes' if checked[key] else 'FAILED'} |")
