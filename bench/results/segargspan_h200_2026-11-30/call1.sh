set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in defer keys; do cp .devcarry/v/$v/provenance.txt $OUT/call1_provenance_$v.txt; done
# keys: argmin/argmax over skewed offsets by segargspan + segargspanjoin (e50e9e2); defer: the same tree with that
# path switched off (segarg's work-item per segment, long ones deferred to a group each). NVIDIA's segmented cases
# in full mode with keys, then f32 argmax over power-law sizes (and one segment of 2^28), defer and keys in turn.
LD_LIBRARY_PATH=$PWD/.devcarry/v/keys:$LD_LIBRARY_PATH timeout 240 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segment*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=argmax timeout 90 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans $3 | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/call1_ab.jsonl 2>>$OUT/call1_plans_$1_$2.txt; echo "ab $1 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab defer $r $((r == 1)); ab keys $r $((r == 1)); done
cat $log
