set -u
[ -x .devcarry/zr_reduce_bench ] || { cd .devcarry && tar xJf bin1.tar.xz && cd ..; }
cd .devcarry && tar xJf bin5.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log5.txt; echo "start $(date +%T) index=$index" > $log
cp .devcarry/v/head/provenance.txt $OUT/provenance_head.txt
# Main's head (the host path's extremes capped at AVX2, the test driver's UUID): NVIDIA's whole suite in full mode.
export LD_LIBRARY_PATH=$PWD/.devcarry/v/head:$LD_LIBRARY_PATH
timeout 420 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -5 /tmp/conf.txt >> $log
cat $log
