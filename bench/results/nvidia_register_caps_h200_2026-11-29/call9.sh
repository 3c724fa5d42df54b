set -u
cd .devcarry && tar xJf bin9.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
run() { local lib=$1 lo=$2 upto=$3 types=$4; ZE_REDUCE_CACHE_DIR=/tmp/zc_$lib LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 110 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 $lo --upto-log2 $upto --step 2 --runs 5 --types $types 2>>$log | sed "s/^{/{\"lib\":\"$lib\",/" >> $OUT/ab.jsonl; echo "$lib $lo..$upto t$types rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run capped 0 8 1
run base 0 8 1
run capped 28 28 3
run base 28 28 1
f='*Arg*Segments*:*f64.*Segments*:*WhenNorm*Segments*:*WhenCount*Segments*:*WhenSumSquares*Segments*:*WhenSumI64Segments*:*WhenSumU64Segments*:*WhenSumF32Segments*'
ZE_REDUCE_CACHE_DIR=/tmp/zc_capped LD_LIBRARY_PATH=$PWD/.devcarry/v/capped:$LD_LIBRARY_PATH timeout 120 .devcarry/ze_reduce_conformance --device NVIDIA --gtest_filter="$f" --report $OUT/nvidia_capped_segments.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log
tail -4 $OUT/conf.txt >> $log
cat $log
