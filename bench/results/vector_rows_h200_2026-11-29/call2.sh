set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
timeout 30 .devcarry/zr_blocking_wait_probe --runs 200 > $OUT/probe.jsonl 2>>$log; echo "probe rc=$? $(date +%T)" >> $log
LD_LIBRARY_PATH=$PWD/.devcarry/v/new2:$LD_LIBRARY_PATH timeout 150 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out $OUT/latency.json > $OUT/latency.txt 2>>$log; echo "latency rc=$? $(date +%T)" >> $log
run() { local lib=$1; LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 80 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 2 --upto-log2 16 --step 2 --runs 5 --types 1 2>>$log | sed "s/^{/{\"lib\":\"$lib\",/" >> $OUT/ab.jsonl; echo "$lib rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run base; run new2; run base; run new2
LD_LIBRARY_PATH=$PWD/.devcarry/v/new2:$LD_LIBRARY_PATH timeout 170 .devcarry/ze_reduce_conformance --full --device NVIDIA --gtest_filter='*Segments*' --report $OUT/nvidia_segments.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -3 $OUT/conf.txt >> $log
cat $log
