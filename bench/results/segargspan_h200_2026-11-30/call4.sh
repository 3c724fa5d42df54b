set -u
cd .devcarry && tar xJf bin4.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log4.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r; for v in keys8 keys16; do cp .devcarry/v/$v/provenance.txt /tmp/r/call4_provenance_$v.txt; done
# keys16 (ff82be3): segargspan's lanes hold 16 elements and key them as they fold; keys8: runtime/ and spirv_kernels/
# of fd65dc7 (8 keys a lane, as keys2 and tspans). NVIDIA in full mode with keys16, then f32 argmax over power-law
# sizes keys8 and keys16 in turn.
LD_LIBRARY_PATH=$PWD/.devcarry/v/keys16:$LD_LIBRARY_PATH timeout 360 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=$4 timeout 90 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> /tmp/r/call4_ab.jsonl 2>>/tmp/r/call4_plans_$1_$2.txt; echo "ab $1 $4 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab keys8 $r $((r == 1)) argmax; ab keys16 $r $((r == 1)) argmax; done
cp $log /tmp/r/; cd /tmp/r && tar cJf $OUT/call4.tar.xz . ; cat $log
