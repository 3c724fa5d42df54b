# Call 1 (2026-11-28): first form (element-typed vloads, which NVIDIA's compiler issued as scalar loads) as "new",
# 2f01bef's library as "old", alternated; then CUB's read probe and power-law rows; then NVIDIA's segmented
# conformance cases with "new".
set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 7 --runs 11 "$@"; }
cp .devcarry/lib/libzereduce.so.0 /tmp/new.so
use() { cp "$1" .devcarry/lib/libzereduce.so.0; }
B --plans 1 > $OUT/new1.jsonl 2> $OUT/plans_new.txt
use .devcarry/oldlib/libzereduce.so.0; B > $OUT/old1.jsonl 2>> $OUT/err.txt
use /tmp/new.so; B > $OUT/new2.jsonl 2>> $OUT/err.txt
use .devcarry/oldlib/libzereduce.so.0; B > $OUT/old2.jsonl 2>> $OUT/err.txt
use /tmp/new.so
.devcarry/cub_segmented 28 2 0.1 f32 2>>$OUT/err.txt | grep -E 'probe|power' > $OUT/cub.jsonl
CONFORMANCE_OUT=/tmp/conf bash bench/run_h100_conformance.sh nvidia --gtest_filter='*Segments*' 2>&1 | tail -5
cp /tmp/conf/nvidia.json $OUT/nvidia_segments.json
