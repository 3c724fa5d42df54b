set -u
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in final div; do cp .devcarry/v/$v/provenance.txt $OUT/call5_provenance_$v.txt; done
# final (call 4's library, 05f3213) against div (a segment's slice length without a 64-bit division when it has one
# slice: segarg, segt/segm, seggroup, segcpu), f32 argmax and norm_l2 per segment, equal segments of 2^0 .. 2^10;
# div also with norm_l2's lanes capped at one per 16, 32, 64 or 128 elements of the mean segment
# (ZE_REDUCE_SEGMENT_TRANSFORM_LANE_ELEMENTS; unset: a sum's lanes). Two rounds.
seg() { ZE_REDUCE_SEGMENT_TRANSFORM_LANE_ELEMENTS=$3 LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax,norm_l2 timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 10 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,\"transform_lane_elements\":$3,/" >> $OUT/call5_sweep.jsonl 2>>$log; echo "seg $1 $2 $3 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg final $r 0; for e in 0 16 32 64 128; do seg div $r $e; done; done
cat $log
