set -u
cd .devcarry && tar xJf bin1.tar.xz && tar xJf bin2.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 1 --runs 5 2>>$OUT/err.txt | grep power_law; }
start=$(date +%s)
B | sed "s/^/default /" >> $OUT/sweep.jsonl
for L in 32 64 128; do for G in 16 32 64 128; do
  ZE_REDUCE_SEGMENT_SPAN_LANES=$L ZE_REDUCE_SEGMENT_SPAN_GROUPS=$G B | sed "s/^/L$L G$G /" >> $OUT/sweep.jsonl
  [ $(( $(date +%s) - start )) -gt 460 ] && break 2
done; done
B | sed "s/^/default2 /" >> $OUT/sweep.jsonl
grep -E '"op":"(sum|max)"' $OUT/sweep.jsonl | sed 's/"peer":"ours","api":"offsets",//; s/"layout":"power_law","log2":-1,"n":268435456,"segments":50613619,//' | cut -c1-120
