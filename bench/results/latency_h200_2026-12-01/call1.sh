set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index commit $(cat .devcarry/commit.txt)" > $log
{ grep -m1 'model name' /proc/cpuinfo; nproc; uptime; } >> $OUT/versions.txt
# Issue 42's GPU table in one process: ours (blocking into a host variable, with the host-stage breakdown; into
# device memory), the raw-OpenCL floor beside each row, then CUB + a 4-byte copy from the CUDA peer.
timeout 200 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out $OUT/ours.json > $OUT/ours.log 2>&1; echo "ours rc=$? $(date +%T)" >> $log
timeout 60 .devcarry/cub_reduce 10 16 2 0.1 > $OUT/cub.jsonl 2>> $log; echo "cub rc=$? $(date +%T)" >> $log
# The executor changed (host-stage marks): NVIDIA's whole suite in full mode.
timeout 330 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -5 /tmp/conf.txt >> $log
cat $log
