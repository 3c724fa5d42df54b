set -u
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
TYPES=${TYPES:-f32}
log=$OUT/log.txt; echo "start $(date +%T) index=$index types=${TYPES}" > $log
for t in $TYPES; do
  case $t in f32) mask=1;; f64) mask=2;; i32) mask=4;; esac
  timeout 280 .devcarry/zr_segmented_bench --device $index --max-log2 28 --step 2 --runs 5 --types $mask --plans 1 > $OUT/ours_$t.jsonl 2> $OUT/plans_$t.txt; echo "ours $t rc=$? $(date +%T)" >> $log
  timeout 100 .devcarry/cub_segmented 28 2 0.1 $t > $OUT/cub_$t.jsonl 2>> $log; echo "cub $t rc=$? $(date +%T)" >> $log
done
cat $log
