set -e
out=$OUT; tar xJf .devcarry/lib.tar.xz -C .devcarry
source bench/h100_driver_setup.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $out/versions.txt 2>&1 || true
cat .devcarry/commit.txt >> $out/versions.txt
idx=0
for v in a b b a; do
  cp .devcarry/ab/$v.so .devcarry/lib/libzereduce.so.0
  echo "== $v $(date +%T)" >> $out/ab.txt
  timeout 170 .devcarry/zr_segmented_bench --device $idx --max-log2 28 --min-log2 18 --step 2 --runs 7 --types 5 --plans 1 >> $out/ab_$v.jsonl 2>> $out/plans_$v.txt || echo "rc=$? $v" >> $out/ab.txt
done
cp .devcarry/ab/b.so .devcarry/lib/libzereduce.so.0
echo "== conformance $(date +%T)" >> $out/ab.txt
timeout 150 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $out/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segments*' > $out/conformance.txt 2>&1 || echo "conformance rc=$?" >> $out/ab.txt
tail -3 $out/conformance.txt
echo "== end $(date +%T)" >> $out/ab.txt
cat $out/ab.txt
