set -u
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
# Lanes per segment for argmax (ZE_REDUCE_SEGMENT_LANE_ELEMENTS: 32 is the default; 64 and 128 give half and a
# quarter of the lanes) with each library of call 1, f32 argmax, equal segments of 2^4 .. 2^10.
seg() { ZE_REDUCE_SEGMENT_LANE_ELEMENTS=$3 LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 4 --upto-log2 10 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,\"lane_elements\":$3,/" >> $OUT/sweep.jsonl 2>>$log; echo "seg $1 $2 $3 rc=$? $(date +%T)" >> $log; }
for e in 32 64 128; do for v in base new scalar4; do seg $v 1 $e; done; done
cat $log
