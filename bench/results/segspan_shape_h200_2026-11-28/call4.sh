set -u
cd .devcarry && tar xJf bin1.tar.xz && tar xJf bin2.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh
B() { .devcarry/zr_segmented_bench --device "$index" --max-log2 28 --min-log2 28 --types 7 --runs 5 2>>$OUT/err.txt | grep power_law; }
for r in 1 2; do
  B | sed "s/^/default$r /" >> $OUT/ab4.jsonl
  ZE_REDUCE_SEGMENT_SPAN_LANES=64 ZE_REDUCE_SEGMENT_SPAN_GROUPS=128 B | sed "s/^/L64G128_$r /" >> $OUT/ab4.jsonl
  ZE_REDUCE_SEGMENT_SPAN_LANES=64 ZE_REDUCE_SEGMENT_SPAN_GROUPS=256 B | sed "s/^/L64G256_$r /" >> $OUT/ab4.jsonl
done
grep -E '"op":"(sum|max)"' $OUT/ab4.jsonl | sed 's/"peer":"ours","api":"offsets",//; s/"layout":"power_law","log2":-1,"n":268435456,"segments":50613619,//' | cut -c1-120
ZE_REDUCE_SEGMENT_SPAN_LANES=64 ZE_REDUCE_SEGMENT_SPAN_GROUPS=128 CONFORMANCE_OUT=$OUT bash bench/run_h100_conformance.sh nvidia --gtest_filter='*Segments*' 2>&1 | tail -4
