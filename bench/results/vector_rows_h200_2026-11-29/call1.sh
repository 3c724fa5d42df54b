set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
timeout 60 .devcarry/zr_blocking_wait_probe --runs 200 > $OUT/probe.jsonl 2>>$log; echo "probe rc=$? $(date +%T)" >> $log
run() { local lib=$1; LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 90 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 2 --upto-log2 16 --step 2 --runs 5 --types 1 2>>$log | sed "s/^{/{\"lib\":\"$lib\",/" >> $OUT/ab.jsonl; echo "$lib rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run base; run new; run base; run new
timeout 60 .devcarry/cub_segmented 28 2 0.1 f32 > $OUT/cub.jsonl 2>> $log; echo "cub rc=$? $(date +%T)" >> $log
LD_LIBRARY_PATH=$PWD/.devcarry/v/new:$LD_LIBRARY_PATH timeout 250 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -3 $OUT/conf.txt >> $log
cat $log
