set -u
cd .devcarry && tar xJf bin5.tar.xz && tar xJf bin6.tar.xz && cd ..
export out=$OUT; source bench/h100_driver_setup.sh >/dev/null 2>&1
export ZE_REDUCE_CACHE_DIR=/tmp/zc
log=$OUT/ab.txt; echo "start $(date +%T)" > $log
timeout 150 .devcarry/cub_segmented 28 2 0.1 f32,i32 > $OUT/cub.jsonl 2>> $log; echo "cub rc=$? $(date +%T)" >> $log
bench() { timeout 90 .devcarry/zr_segmented_bench --device 0 --max-log2 28 --min-log2 4 --upto-log2 6 --step 2 --runs 11 --types 5 2>>$log | sed "s/^{/{\"variant\":\"$1\",/" >> $OUT/ab.jsonl; echo "$1 rc=$? $(date +%T)" >> $log; }
for v in a b b a; do cp .devcarry/ab6/$v.so .devcarry/lib/libzereduce.so.0; bench $v; done
cp .devcarry/ab6/b.so .devcarry/lib/libzereduce.so.0
for g in 4 8 16 32; do ZE_REDUCE_SEGMENT_SUB_GROUPS=$g bench b$g; done
timeout 120 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segments*' > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log
ZE_REDUCE_SEGMENT_SUB_GROUPS=4 timeout 120 .devcarry/ze_reduce_conformance --full --device NVIDIA --gtest_brief=1 --gtest_filter='*Segments*' > $OUT/conf4.txt 2>&1; echo "conf4 rc=$? $(date +%T)" >> $log
tail -2 $OUT/conf.txt $OUT/conf4.txt >> $log
cat $log
