set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in base new scalar4; do cp .devcarry/v/$v/provenance.txt $OUT/provenance_$v.txt; done
# A/B: main's library (base) and argmax with 16-byte vector loads, one 16-byte result store and no barriers for a
# work-item per segment (new), new with pieces of up to 4 elements (not 16) scanned element by element (scalar4), alternated twice: f32 argmax, equal segments of 2^0 .. 2^12 and power-law sizes.
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 12 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl 2>>$log; echo "seg $1 $2 rc=$? $(date +%T)" >> $log; }
pl() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 5 --types 1 --plans 1 2>>$OUT/plans_$1.txt | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl; echo "pl $1 $2 rc=$? $(date +%T)" >> $log; }
# 1-D argmax/argmin (argtree/arglast take the same loads and store).
one() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 60 .devcarry/zr_arg_bench --device $index --min-log2 20 --max-log2 28 --step 2 --runs 11 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab_1d.jsonl 2>>$log; echo "one $1 $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg base $r; seg new $r; seg scalar4 $r; pl base $r; pl new $r; done
one base 1; one new 1
cat $log
