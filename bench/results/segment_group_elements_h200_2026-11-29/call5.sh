set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
run() { local e=$1; ZE_REDUCE_SEGMENT_GROUP_ELEMENTS=$e timeout 110 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 10 --upto-log2 16 --step 2 --runs 5 --types 1 2>>$log | sed "s/^{/{\"group_elements\":$e,/" >> $OUT/sweep_f32.jsonl; echo "e=$e rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
for round in 1 2; do for e in 64 128; do run $e; done; done
cat $log
