set -u
cd .devcarry && tar xJf bin4.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log4.txt; echo "start $(date +%T) index=$index" > $log
rm -rf /tmp/r; mkdir -p /tmp/r; cp .devcarry/v/stage/provenance.txt /tmp/r/call4_provenance_stage.txt; cat .devcarry/commit.txt > /tmp/r/call4_provenance_base.txt
# base: main at 2174097 (.devcarry/lib). stage: segspan's results staged in local memory at their end's position and
# stored by consecutive lanes once the tile is done. Power-law sizes, f32 (sum, max, argmax, norm_l2), f64 and i32
# (sum, max), in turn, two rounds; then NVIDIA's segmented cases in full mode with stage.
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 7 --plans $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> /tmp/r/call4_ab.jsonl 2>>/tmp/r/call4_plans_$1_$2.txt; echo "ab $1 round $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab base $r $((r == 1)); ab stage $r $((r == 1)); done
LD_LIBRARY_PATH=$PWD/.devcarry/v/stage:$LD_LIBRARY_PATH timeout 200 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segment*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
cp $log $OUT/versions.txt /tmp/r/; cd /tmp/r && tar cJf $OUT/call4.tar.xz . ; cat $log
