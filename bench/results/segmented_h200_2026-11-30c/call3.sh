set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log3.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r
# Main's head, clean: the f32 and i32 rows of the segmented table (for each type ours, then CUB with the read probe).
for t in f32 i32; do
  case $t in f32) mask=1;; i32) mask=4;; esac
  timeout 200 .devcarry/zr_segmented_bench --device $index --max-log2 28 --step 2 --runs 5 --types $mask --plans 1 > /tmp/r/ours_$t.jsonl 2> /tmp/r/plans_$t.txt; echo "ours $t rc=$? $(date +%T)" >> $log
  timeout 60 .devcarry/cub_segmented 28 2 0.1 $t > /tmp/r/cub_$t.jsonl 2>> $log; echo "cub $t rc=$? $(date +%T)" >> $log
done
cp $log $OUT/versions.txt /tmp/r/; cd /tmp/r && tar cJf $OUT/call3.tar.xz . ; cat $log
