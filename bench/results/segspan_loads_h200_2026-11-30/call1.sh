set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in base floor floorx; do cp .devcarry/v/$v/provenance.txt $OUT/call1_provenance_$v.txt; done
# Power-law f32 sums and maxima (2^28 elements, 50.6 M segments): base against floor (no head handling in the walk,
# results wrong on purpose) and floorx (floor with a tile's values read by coalesced 16-byte loads: lane-interleaved)
# and base with fewer tiles a span (ZE_REDUCE_SEGMENT_SPAN_GROUPS), in turn, twice.
seg() { env $3 LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=sum,max timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 7 --types 5 | grep power_law | sed "s/^{/{\"lib\":\"$2\",\"round\":$4,/" >> $OUT/call1_ab.jsonl 2>>$log; echo "seg $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do
  seg base base X=1 $r; seg floor floor X=1 $r; seg floorx floorx X=1 $r
  seg base g32 ZE_REDUCE_SEGMENT_SPAN_GROUPS=32 $r; seg base g512 ZE_REDUCE_SEGMENT_SPAN_GROUPS=512 $r; seg base g2048 ZE_REDUCE_SEGMENT_SPAN_GROUPS=2048 $r
done
timeout 60 .devcarry/cub_segmented 28 2 0.1 f32 > $OUT/call1_cub.jsonl 2>>$log
cat $log
