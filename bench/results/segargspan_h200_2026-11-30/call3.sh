set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log3.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r; for v in tdefer tspans; do cp .devcarry/v/$v/provenance.txt /tmp/r/call3_provenance_$v.txt; done
# tspans (86fd99c): transform-reductions over skewed offsets by segtspan + segtspanjoin; tdefer: the same tree with
# that path off (segt's work-item per segment, the long ones' slices a group each). NVIDIA in full mode with tspans
# (segspan.cl's hooks moved to headers), then f32 norm_l2 over power-law sizes tdefer and tspans in turn, and with
# tspans f32 argmax, sum and max over the same sizes.
LD_LIBRARY_PATH=$PWD/.devcarry/v/tspans:$LD_LIBRARY_PATH timeout 360 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=$4 timeout 90 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> /tmp/r/call3_ab.jsonl 2>>/tmp/r/call3_plans_$1_$2.txt; echo "ab $1 $4 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab tdefer $r $((r == 1)) norm_l2; ab tspans $r $((r == 1)) norm_l2; done
ab tspans 3 1 argmax,sum,max
cp $log /tmp/r/; cd /tmp/r && tar cJf $OUT/call3.tar.xz . ; cat $log
