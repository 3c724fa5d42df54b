set -u
cd .devcarry && tar xJf bin6.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 7 --runs 7 2>>$OUT/err.txt | grep power_law; }
cp .devcarry/lib/libzereduce.so.0 /tmp/new.so
use() { cp "$1" .devcarry/lib/libzereduce.so.0; }
use /tmp/new.so; B | sed "s/^/oneround1 /" >> $OUT/ab.jsonl
grep -q oneround1 $OUT/ab.jsonl || { echo "new lib gave no rows"; head -c 1500 $OUT/err.txt; exit 1; }
use .devcarry/patchlib/libzereduce.so.0; B | sed "s/^/patch1 /" >> $OUT/ab.jsonl
use /tmp/new.so; B | sed "s/^/oneround2 /" >> $OUT/ab.jsonl
use /tmp/new.so
grep -E '"op":"(sum|max)"' $OUT/ab.jsonl | sed 's/"peer":"ours","api":"offsets",//; s/"layout":"power_law","log2":-1,"n":268435456,"segments":50613619,//'
CONFORMANCE_OUT=$OUT bash bench/run_h100_conformance.sh nvidia --gtest_filter='*Segments*' 2>&1 | tail -4
