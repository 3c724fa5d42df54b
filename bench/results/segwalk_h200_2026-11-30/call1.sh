set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log1.txt; echo "start $(date +%T) index=$index" > $log
mkdir -p /tmp/r; for v in base walk; do cp .devcarry/v/$v/provenance.txt /tmp/r/call1_provenance_$v.txt; done
# base: main at cea66cf. walk: segspan's lane runs joined by a walk back to the last lane with a head where no run
# crosses more than 8 lanes (ZR_SPAN_WALK_LANES; 4 and 16 through NVIDIA's build options). f32 power-law sizes, the
# four ops whose skewed plans are segspan's (sum, max; argmax's keys; norm_l2's transforms), in turn, two rounds;
# then NVIDIA's segmented cases in full mode with walk.
ab() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZE_REDUCE_OPENCL_BUILD_OPTIONS="$3" ZR_SEGMENTED_BENCH_OPS=sum,max,argmax,norm_l2 timeout 100 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --upto-log2 28 --runs 5 --types 1 --plans 1 | sed "s/^{/{\"lib\":\"$1$4\",\"round\":$2,/" >> /tmp/r/call1_ab.jsonl 2>>/tmp/r/call1_plans_$1$4_$2.txt; echo "ab $1$4 round $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do ab base $r "" ""; ab walk $r "" ""; ab walk $r "-DZR_SPAN_WALK_LANES=4" _w4; ab walk $r "-DZR_SPAN_WALK_LANES=16" _w16; done
LD_LIBRARY_PATH=$PWD/.devcarry/v/walk:$LD_LIBRARY_PATH timeout 220 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segment*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
cp $log $OUT/versions.txt /tmp/r/; cd /tmp/r && tar cJf $OUT/call1.tar.xz . ; cat $log
