# Device call 2: segspan without local atomics and with the first round's bounds loaded beside the tile (b) against main's (a).
set -u
export out=$OUT; source bench/h100_driver_setup.sh
export ZE_REDUCE_CACHE_DIR=/tmp/zc
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $out/versions.txt 2>&1
for v in a b b a; do
  cp .devcarry/ab/$v.so .devcarry/lib/libzereduce.so.0
  echo "== $v $(date +%T)" >> $out/ab.txt
  timeout 100 .devcarry/zr_segmented_bench --device 0 --max-log2 28 --min-log2 28 --runs 11 --types 3 --plans 1 >> $out/ab_$v.jsonl 2>> $out/plans_$v.txt || echo "rc=$? $v" >> $out/ab.txt
done
cp .devcarry/ab/b.so .devcarry/lib/libzereduce.so.0
for lanes in 64 128; do echo "== b lanes $lanes $(date +%T)" >> $out/ab.txt
  ZE_REDUCE_SEGMENT_SPAN_LANES=$lanes timeout 60 .devcarry/zr_segmented_bench --device 0 --max-log2 28 --min-log2 28 --runs 11 --types 1 | grep power_law | sed "s/^/lanes $lanes /" >> $out/shape.txt
done
echo "== conformance $(date +%T)" >> $out/ab.txt
timeout 200 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $out/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segments*' > $out/conformance.txt 2>&1 || echo "conformance rc=$?" >> $out/ab.txt
tail -3 $out/conformance.txt
echo "== end $(date +%T)" >> $out/ab.txt
cat $out/ab.txt $out/shape.txt; grep -h power_law $out/ab_*.jsonl
