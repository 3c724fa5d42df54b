set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log2.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r; for v in keys keys2; do cp .devcarry/v/$v/provenance.txt /tmp/r/call2_provenance_$v.txt; done
# keys2 (5a34594): segargspan's results read back from their keys; keys: e50e9e2. NVIDIA in full mode with keys2
# (every case: segspan's plain kernels changed too), then f32 argmax over power-law sizes keys and keys2 in turn,
# and f32 sum and max over power-law sizes with keys2.
LD_LIBRARY_PATH=$PWD/.devcarry/v/keys2:$LD_LIBRARY_PATH timeout 360 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=$4 timeout 90 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> /tmp/r/call2_ab.jsonl 2>>/tmp/r/call2_plans_$1_$2.txt; echo "ab $1 $4 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab keys $r $((r == 1)) argmax; ab keys2 $r $((r == 1)) argmax; done
ab keys2 3 1 sum,max
cp $log /tmp/r/; cd /tmp/r && tar cJf $OUT/call2.tar.xz . ; cat $log
