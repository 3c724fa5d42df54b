set -u
export out=$OUT; source bench/h100_driver_setup.sh
export ZE_REDUCE_CACHE_DIR=/tmp/zc
for which in pocl NVIDIA; do
  timeout 200 .devcarry/ze_reduce_conformance --full --device $which --report $OUT/${which}_segments.json --gtest_brief=1 --gtest_filter='*Segments*' > $OUT/${which}_segments.log 2>&1; echo "$which rc=$?"; tail -2 $OUT/${which}_segments.log
done
idx=$(.devcarry/ze_reduce --list 2>/dev/null | grep -i "portable\|pocl" | head -1 | sed -E "s/^\[([0-9]+)\].*/\1/"); echo "pocl index $idx"
for c in 4 256 1048576; do timeout 60 .devcarry/ze_reduce -d $idx -n 268435456 --columns $c 2>&1 | grep -E "strategy|kernel |wall|speed"; done > $OUT/columns_pocl5.txt
cat $OUT/columns_pocl5.txt
