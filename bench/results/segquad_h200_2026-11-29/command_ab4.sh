set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
export ZE_REDUCE_CACHE_DIR=/tmp/zc
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
bench() { timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 2 --step 2 --runs 3 --types 4 2>>$log | sed "s/^{/{\"lib\":\"$1\",/" >> $OUT/ab.jsonl; echo "$1 rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
bench new
LD_LIBRARY_PATH=$PWD/.devcarry/oldlib:$LD_LIBRARY_PATH bench old
cat $log
