set -u
[ -x .devcarry/zr_segmented_bench ] || { cd .devcarry && tar xJf bin1.tar.xz && cd ..; }
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
run() { local lib=$1 tag=$2 lo=$3 upto=$4 types=$5; ZE_REDUCE_CACHE_DIR=/tmp/zc_base LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 150 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 $lo --upto-log2 $upto --step 2 --runs 5 --types $types 2>>$log | sed "s/^{/{\"lib\":\"$tag\",/" >> $OUT/ab.jsonl; echo "$tag $lo..$upto t$types rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run base base 0 8 1
run nocap nocap 0 8 1
run base base 0 8 1
run nocap nocap 0 8 1
run base base 28 28 2
ZE_REDUCE_OPENCL_BUILD_OPTIONS=-cl-nv-maxrregcount=40 run base cap40 28 28 2
run base base 28 28 2
ZE_REDUCE_OPENCL_BUILD_OPTIONS=-cl-nv-maxrregcount=40 run base cap40 28 28 2
cat $log
