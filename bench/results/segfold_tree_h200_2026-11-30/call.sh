set -u
cd .devcarry && tar xJf bin9.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
# A/B: vectors folded as a tree (tree) against one combine per element (chain, 13c2c4c), equal segments of
# 2^2..2^8 of 2^28 elements, f32, f64 and i32, alternated twice; then the full conformance run with the tree library.
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 2 --upto-log2 8 --step 2 --runs 5 --types 7 --plans 0 2>> $OUT/stderr_$1.txt | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl; echo "seg $1 $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg chain $r; seg tree $r; done
timeout 330 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > $OUT/conformance.txt 2>&1; echo "conformance rc=$? $(date +%T)" >> $log
tail -5 $OUT/conformance.txt >> $log
cat $log
