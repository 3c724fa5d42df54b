set -u
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in head segt1; do cp .devcarry/v/$v/provenance.txt $OUT/call5_provenance_$v.txt; done
# segt1: segt reads rows of one element a 16-byte vector of rows at a time (head: main at 78c8d1d). NVIDIA's
# segmented and transform cases in full mode with segt1, then f32 norm_l2 head against segt1 in turn, twice.
LD_LIBRARY_PATH=$PWD/.devcarry/v/segt1:$LD_LIBRARY_PATH timeout 250 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia_segments_transforms.json --gtest_brief=1 --gtest_filter='*Segment*:*Transform*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
eq() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=norm_l2 timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 8 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/call5_ab.jsonl 2>>$log; echo "eq $1 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do eq head $r; eq segt1 $r; done
cat $log
