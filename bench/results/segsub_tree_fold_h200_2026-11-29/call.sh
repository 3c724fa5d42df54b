set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
# A/B: main's library (base) and pairwise folds of vectors for order-free operators (tree), alternated twice;
# segments of 2^4 .. 2^16.
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 140 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 4 --upto-log2 16 --step 2 --runs 5 --types $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/ab.jsonl 2>>$log; echo "seg $1 $2 types=$3 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg base $r 1; seg tree $r 1; done
cat $log
