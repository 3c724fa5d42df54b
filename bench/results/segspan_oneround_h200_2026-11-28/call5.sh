set -u
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 3 --runs 7 2>>$OUT/err.txt | grep power_law; }
cp .devcarry/lib/libzereduce.so.0 /tmp/new.so
use() { cp "$1" .devcarry/lib/libzereduce.so.0; }
for round in 1 2; do
  use /tmp/new.so; B | sed "s/^/oneround$round /" >> $OUT/ab.jsonl
  use .devcarry/patchlib/libzereduce.so.0; B | sed "s/^/patch$round /" >> $OUT/ab.jsonl
done
use .devcarry/n18lib/libzereduce.so.0; B | sed "s/^/narrow18 /" >> $OUT/ab.jsonl
use /tmp/new.so
grep -E '"op":"(sum|max)"' $OUT/ab.jsonl | sed 's/"peer":"ours","api":"offsets",//; s/"layout":"power_law","log2":-1,"n":268435456,"segments":50613619,//'
CONFORMANCE_OUT=$OUT bash bench/run_h100_conformance.sh nvidia --gtest_filter='*Segments*' 2>&1 | tail -4
timeout 90 .devcarry/cub_segmented 28 2 0.1 f32 > $OUT/cub.jsonl 2>>$OUT/err.txt; grep -i probe $OUT/cub.jsonl | head -3
