set -u
cd .devcarry && tar xJf bin6.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in head arg1; do cp .devcarry/v/$v/provenance.txt $OUT/call6_provenance_$v.txt; done
# arg1: segarg reads rows of one element a 16-byte vector of rows at a time (head: main at 78c8d1d, whose segarg is
# the same as the segt commit's). NVIDIA's segmented and arg cases in full mode with arg1, then f32 argmax head
# against arg1 in turn, twice.
LD_LIBRARY_PATH=$PWD/.devcarry/v/arg1:$LD_LIBRARY_PATH timeout 220 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia_segments_arg.json --gtest_brief=1 --gtest_filter='*Segment*:*Arg*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
eq() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 40 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 4 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/call6_ab.jsonl 2>>$log; echo "eq $1 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do eq head $r; eq arg1 $r; done
cat $log
