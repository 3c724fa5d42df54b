set -u
cd .devcarry && tar xJf bin6.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
run() { local lib=$1; LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 75 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 4 --upto-log2 8 --step 2 --runs 5 --types 5 2>>$log | sed "s/^{/{\"lib\":\"$lib\",/" >> $OUT/ab.jsonl; echo "$lib rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run base; run new; run base; run new
LD_LIBRARY_PATH=$PWD/.devcarry/v/new:$LD_LIBRARY_PATH timeout 170 .devcarry/ze_reduce_conformance --full --device NVIDIA --gtest_filter='*Segments*' --report $OUT/nvidia_segments.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -3 $OUT/conf.txt >> $log
cat $log
