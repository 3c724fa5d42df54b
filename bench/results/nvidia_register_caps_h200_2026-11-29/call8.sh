set -u
cd .devcarry && tar xJf bin8.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
timeout 60 .devcarry/cub_segmented 28 2 0.1 f32 2>>$log | head -1 > $OUT/probe.jsonl
run() { local tag=$1 opts=$2 lo=$3 types=$4 step=$5; ZE_REDUCE_CACHE_DIR=/tmp/zc_$tag ZE_REDUCE_OPENCL_BUILD_OPTIONS="$opts" timeout 150 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 $lo --step $step --runs 5 --types $types 2>>$log | sed "s/^{/{\"cfg\":\"$tag\",/" >> $OUT/sweep.jsonl; echo "$tag lo=$lo rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
run default "" 28 7 2
run r32 "-cl-nv-maxrregcount=32" 28 7 2
run r40 "-cl-nv-maxrregcount=40" 28 7 2
run default "" 0 1 2
run r32 "-cl-nv-maxrregcount=32" 0 1 2
ZE_REDUCE_OPENCL_BUILD_OPTIONS="-cl-nv-maxrregcount=32" .devcarry/ze_reduce --list 2>&1 | head -4 >> $log
cat $log
