set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
timeout 40 .devcarry/zr_blocking_wait_probe --runs 200 > $OUT/probe.jsonl 2>>$log; echo "probe rc=$? $(date +%T)" >> $log
run() { local lib=$1; LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 70 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 8 --upto-log2 28 --step 2 --runs 5 --types 1 2>>$log | sed "s/^{/{\"lib\":\"$lib\",/" >> $OUT/ab.jsonl; echo "$lib rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run new2; run new3; run new2; run new3
LD_LIBRARY_PATH=$PWD/.devcarry/v/new3:$LD_LIBRARY_PATH timeout 250 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -3 $OUT/conf.txt >> $log
cat $log
