set -u
cd .devcarry && tar xJf bin4.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
cp .devcarry/v/head/provenance.txt $OUT/provenance_head.txt
# NVIDIA full conformance with main's library after segcheck's quick path.
LD_LIBRARY_PATH=$PWD/.devcarry/v/head:$LD_LIBRARY_PATH timeout 450 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -4 /tmp/conf.txt >> $log
cat $log
