set -u
cd .devcarry && tar xJf bin1.tar.xz && tar xJf bin2.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 7 --runs 7 2>>$OUT/err.txt | grep power_law; }
cp .devcarry/lib/libzereduce.so.0 /tmp/head.so
use() { cp "$1" .devcarry/lib/libzereduce.so.0; }
for r in 1 2; do
  use /tmp/head.so; B | sed "s/^/head$r /" >> $OUT/ab.jsonl
  use .devcarry/ab/libB.so; B | sed "s/^/B$r /" >> $OUT/ab.jsonl
done
grep -E '"op":"(sum|max)"' $OUT/ab.jsonl | sed 's/"peer":"ours","api":"offsets",//; s/"layout":"power_law","log2":-1,"n":268435456,"segments":50613619,//' | cut -c1-200
use .devcarry/ab/libB.so
CONFORMANCE_OUT=$OUT bash bench/run_h100_conformance.sh nvidia --gtest_filter='*Segments*' 2>&1 | tail -4
use /tmp/head.so
OUT=$OUT bash bench/run_h100_gpu_fault.sh 2>&1 | grep -E "OK|FAILED|Skipped|first append|own context|faulting kernel|PASSED" 
