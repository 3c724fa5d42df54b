set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log2.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r
# Main's head, clean: the whole conformance suite in full mode on NVIDIA, then the f64 rows of the segmented table
# (ours, then CUB with the CUDA read probe).
timeout 300 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
timeout 210 .devcarry/zr_segmented_bench --device $index --max-log2 28 --step 2 --runs 5 --types 2 --plans 1 > /tmp/r/ours_f64.jsonl 2> /tmp/r/plans_f64.txt; echo "ours f64 rc=$? $(date +%T)" >> $log
timeout 60 .devcarry/cub_segmented 28 2 0.1 f64 > /tmp/r/cub_f64.jsonl 2>> $log; echo "cub f64 rc=$? $(date +%T)" >> $log
cp $log $OUT/versions.txt /tmp/r/; cd /tmp/r && tar cJf $OUT/call2.tar.xz . ; cat $log
