set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
timeout 190 .devcarry/ze_reduce_conformance --full --device NVIDIA --gtest_filter='*Segments*' --report $OUT/nvidia_segments.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 $OUT/conf.txt >> $log
timeout 300 .devcarry/zr_segmented_bench --device $index --max-log2 28 --step 2 --runs 5 --types 1 --plans 1 > $OUT/ours.jsonl 2> $OUT/plans.txt; echo "ours rc=$? $(date +%T)" >> $log
timeout 75 .devcarry/cub_segmented 28 2 0.1 f32 > $OUT/cub.jsonl 2>> $log; echo "cub rc=$? $(date +%T)" >> $log
cat $log
