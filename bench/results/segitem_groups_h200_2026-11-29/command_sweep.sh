set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
export ZE_REDUCE_CACHE_DIR=/tmp/zc
log=$OUT/sweep.txt; echo "start $(date +%T) index=$index" > $log
bench() { timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 8 --step 2 --runs 5 --types 5 2>>$log | sed "s/^{/{\"groups\":\"$1\",/" >> $OUT/sweep.jsonl; echo "$1 rc=$? $(date +%T)" >> $log; }
bench 0
for g in 8 32 4 16 64; do ZE_REDUCE_SEGMENT_ITEM_GROUPS=$g bench $g; done
bench 0
cat $log
