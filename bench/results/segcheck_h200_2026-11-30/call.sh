set -u
cd .devcarry && tar xJf bin4.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
# The device check of offsets (check) against main before it (base): f32, segments of 2^0, 2^4, ..., 2^28 and
# power-law sizes, each library once, then the check library's full conformance run.
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout $2 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --step 4 --runs 5 --types 1 --plans 1 > $OUT/ours_$1.jsonl 2> $OUT/plans_$1.txt; echo "seg $1 rc=$? $(date +%T)" >> $log; }
seg check 150
seg base 200
cat $log
