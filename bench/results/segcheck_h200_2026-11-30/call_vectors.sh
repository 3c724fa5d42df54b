set -u
cd .devcarry && tar xJf bin7.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index commit=$(cat .devcarry/commit.txt)" > $log
# segcheck reading vectors of bounds: the same bench as ../segcheck_h200_2026-11-30 (f32, 2^0, 2^4, ..., 2^28 and
# power-law sizes), then the full conformance run.
timeout 150 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --step 4 --runs 5 --types 1 --plans 1 > $OUT/ours_vectors.jsonl 2> $OUT/plans_vectors.txt; echo "seg rc=$? $(date +%T)" >> $log
timeout 380 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > $OUT/conformance.txt 2>&1; echo "conformance rc=$? $(date +%T)" >> $log
tail -4 $OUT/conformance.txt >> $log
cat $log
