set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in base new ns ns4; do cp .devcarry/v/$v/provenance.txt $OUT/provenance_$v.txt; done
# f32 argmax, equal segments of 2^4 .. 2^10: base (main), new (call 1's kernels: vector-typed loads, one 16-byte
# result store, no barriers for a work-item per segment), ns (new with the three narrow stores of main), ns4 (ns
# with pieces of up to 4 elements, not 16, scanned element by element); the lanes per segment divided by 1, 2, 4
# (ZE_REDUCE_SEGMENT_ARG_LANE_DIVISOR, which base does not read). Two rounds.
seg() { ZE_REDUCE_SEGMENT_ARG_LANE_DIVISOR=$3 LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 4 --upto-log2 10 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,\"divisor\":$3,/" >> $OUT/sweep.jsonl 2>>$log; echo "seg $1 $2 $3 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg base $r 1; for d in 1 2 4; do for v in new ns ns4; do seg $v $r $d; done; done; done
cat $log
