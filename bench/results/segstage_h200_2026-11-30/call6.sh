set -u
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log6.txt; echo "start $(date +%T) index=$index" > $log
# Call 5's conformance ran out of its 200 s while NVIDIA built the programs from source on a fresh machine: again on the
# same machine, its program cache warm. keystage (call 5), NVIDIA's segmented cases in full mode.
LD_LIBRARY_PATH=$PWD/.devcarry/v/keystage:$LD_LIBRARY_PATH timeout 270 .devcarry/ze_reduce_conformance --full --device NVIDIA --report /tmp/r/nvidia_segments.json --gtest_brief=1 --gtest_filter='*Segment*' > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
cp $log /tmp/r/; cd /tmp/r && tar cJf $OUT/call6.tar.xz . ; cat $log
