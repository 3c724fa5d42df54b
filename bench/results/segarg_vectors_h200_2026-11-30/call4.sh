set -u
cd .devcarry && tar xJf bin4.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in base final; do cp .devcarry/v/$v/provenance.txt $OUT/provenance_$v.txt; done
# A/B, f32 argmax per segment: main (base) and the change as it lands (final: a lane per 64 elements of the mean
# segment at most, pieces over 4 elements read as 16-byte vectors, no barrier for a work-item per segment),
# alternated twice: equal segments of 2^0 .. 2^12, then 2^28 and power-law sizes.
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 12 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl 2>>$log; echo "seg $1 $2 rc=$? $(date +%T)" >> $log; }
pl() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 5 --types 1 --plans 1 2>>$OUT/plans_$1.txt | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl; echo "pl $1 $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg base $r; seg final $r; pl base $r; pl final $r; done
# Full conformance with the change.
LD_LIBRARY_PATH=$PWD/.devcarry/v/final:$LD_LIBRARY_PATH timeout 400 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
cat $log
