set -u
cd .devcarry && tar xJf bin6.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in final final2; do cp .devcarry/v/$v/provenance.txt $OUT/call6_provenance_$v.txt; done
# The change as it lands (final2: call 5's div with norm_l2's lanes at one per 16 elements by default): NVIDIA's
# segmented and arg cases in full mode (every kernel it changes: segarg, segt/segm, seggroup; the plans of argmax and
# transforms per segment), then final against final2 once, f32 argmax and norm_l2, 2^0 .. 2^4.
LD_LIBRARY_PATH=$PWD/.devcarry/v/final2:$LD_LIBRARY_PATH timeout 200 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia_segments_arg.json --gtest_brief=1 --gtest_filter='*Segment*:*Arg*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax,norm_l2 timeout 40 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 4 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",/" >> $OUT/call6_ab.jsonl 2>>$log; echo "seg $1 rc=$? $(date +%T)" >> $log; }
seg final; seg final2
cat $log
