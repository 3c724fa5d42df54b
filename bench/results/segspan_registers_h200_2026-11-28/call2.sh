# Call 2: the first form's PTX (ZE_REDUCE_OPENCL_DUMP_DIR; ptxas -v here: 50 registers against 2f01bef's 48, and the
# "vector" loads were 16 scalar ld.global.nc.f32), and a sweep of groups per SM and lanes (power-law f32 only).
set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 1 --runs 5 "$@" 2>>$OUT/err.txt | grep power_law; }
cp .devcarry/lib/libzereduce.so.0 /tmp/new.so
use() { cp "$1" .devcarry/lib/libzereduce.so.0; }
mkdir -p /tmp/ptx/new /tmp/ptx/old
ZE_REDUCE_OPENCL_DUMP_DIR=/tmp/ptx/new B | sed 's/^/default /' > $OUT/sweep.jsonl
use .devcarry/oldlib/libzereduce.so.0
ZE_REDUCE_OPENCL_DUMP_DIR=/tmp/ptx/old B | sed 's/^/old /' >> $OUT/sweep.jsonl
use /tmp/new.so
for g in 16 32 128; do ZE_REDUCE_SEGMENT_SPAN_GROUPS=$g B | sed "s/^/groups$g /" >> $OUT/sweep.jsonl; done
ZE_REDUCE_SEGMENT_SPAN_LANES=64 ZE_REDUCE_SEGMENT_SPAN_GROUPS=32 B | sed "s/^/lanes64g32 /" >> $OUT/sweep.jsonl
ZE_REDUCE_SEGMENT_SPAN_LANES=128 ZE_REDUCE_SEGMENT_SPAN_GROUPS=16 B | sed "s/^/lanes128g16 /" >> $OUT/sweep.jsonl
cd /tmp/ptx && tar czf $OUT/ptx.tgz $(ls -d new/*segspan* old/*segspan* 2>/dev/null)
