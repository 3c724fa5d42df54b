set -u
cd .devcarry && tar xJf bin6.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log6.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r
# b68020b (main's head, clean): segargspan keeps the head's place in the lane in 32 bits, segtspan transforms norms
# and widened sums in place (Intel's compiler spilled both on PVC). NVIDIA's segmented cases in full mode, then f32
# argmax and norm_l2 over the power-law sizes (compare call2's keys2 and call3's tspans).
timeout 300 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segment*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
ZR_SEGMENTED_BENCH_OPS=argmax,norm_l2 timeout 90 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans 1 > /tmp/r/call6_bench.jsonl 2> /tmp/r/call6_plans.txt; echo "bench rc=$? $(date +%T)" >> $log
cp $log $OUT/versions.txt /tmp/r/; cd /tmp/r && tar cJf $OUT/call6.tar.xz . ; cat $log
