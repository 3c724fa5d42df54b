set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
export ZE_REDUCE_CACHE_DIR=/tmp/zc
log=$OUT/ab2.txt; echo "start $(date +%T) index=$index" > $log
bench() { v=$1; shift; timeout 110 .devcarry/zr_segmented_bench --device $index --max-log2 28 --runs 3 "$@" 2>>$log | sed "s/^{/{\"groups\":\"$v\",/" >> $OUT/ab2.jsonl; echo "$v $* rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
bench 32 --min-log2 28 --types 1
ZE_REDUCE_SEGMENT_ITEM_GROUPS=8192 bench old --min-log2 28 --types 1
bench 32 --min-log2 0 --upto-log2 2 --step 2 --types 6
ZE_REDUCE_SEGMENT_ITEM_GROUPS=8192 bench old --min-log2 0 --upto-log2 2 --step 2 --types 6
cat $log
