set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
cp .devcarry/v/base/provenance.txt $OUT/provenance_base.txt; cp .devcarry/v/quick/provenance.txt $OUT/provenance_quick.txt
# A/B: main's library (base) and segsub's rows folded with fmin/fmax (quick), alternated twice; f32 and f64,
# segments of 2^2 .. 2^10 (2^28 elements in all).
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 140 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 2 --upto-log2 10 --step 2 --runs 5 --types 3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl 2>>$log; echo "seg $1 $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg base $r; seg quick $r; done
# Full conformance with the new library (segsub changed; the segmented cases now include signed zeros and a NaN).
LD_LIBRARY_PATH=$PWD/.devcarry/v/quick:$LD_LIBRARY_PATH timeout 420 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
cat $log
