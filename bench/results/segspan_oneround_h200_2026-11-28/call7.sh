set -u
cd .devcarry && tar xJf bin6.tar.xz && tar xJf diag.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 1 --runs 7 2>>$OUT/err.txt | grep power_law; }
cp .devcarry/lib/libzereduce.so.0 /tmp/new.so
use() { cp "$1" .devcarry/lib/libzereduce.so.0; }
use /tmp/new.so; B | sed "s/^/head1 /" >> $OUT/ab.jsonl
for d in nostore noscan items8; do use .devcarry/diag/$d.so; B | sed "s/^/$d /" >> $OUT/ab.jsonl; done
use /tmp/new.so; B | sed "s/^/head2 /" >> $OUT/ab.jsonl
grep -E '"op":"(sum|max)"' $OUT/ab.jsonl | sed 's/"peer":"ours","api":"offsets",//; s/"layout":"power_law","log2":-1,"n":268435456,"segments":50613619,//'
CONFORMANCE_OUT=$OUT bash bench/run_h100_conformance.sh nvidia 2>&1 | tail -4
