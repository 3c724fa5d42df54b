set -u
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log5.txt; echo "start $(date +%T) index=$index" > $log
rm -rf /tmp/r; mkdir -p /tmp/r; cp .devcarry/v/keystage/provenance.txt /tmp/r/call5_provenance_keystage.txt
# keystage: only segargspan (argmin/argmax by keys) stages its results (ZR_SPAN_STAGES in zr_span_keys.h); the plain
# ops and transforms store from the lanes as before. NVIDIA's segmented cases in full mode with it, then power-law
# f32 argmax and sum, base (main at 2174097, .devcarry/lib) and keystage in turn, two rounds.
LD_LIBRARY_PATH=$PWD/.devcarry/v/keystage:$LD_LIBRARY_PATH timeout 200 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segment*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax,sum timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> /tmp/r/call5_ab.jsonl 2>>/tmp/r/call5_plans_$1_$2.txt; echo "ab $1 round $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab base $r $((r == 1)); ab keystage $r $((r == 1)); done
cp $log $OUT/versions.txt /tmp/r/; cd /tmp/r && tar cJf $OUT/call5.tar.xz . ; cat $log
