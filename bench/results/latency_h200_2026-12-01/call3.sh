set -u
[ -x .devcarry/zr_reduce_bench ] || { cd .devcarry && tar xJf bin1.tar.xz && cd ..; }
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log3.txt; echo "start $(date +%T) index=$index" > $log
{ grep -m1 'model name' /proc/cpuinfo; nproc; uptime; } >> $OUT/versions.txt
cp .devcarry/commit.txt $OUT/provenance_base.txt; cp .devcarry/v/new/provenance.txt $OUT/provenance_new.txt
# A/B: base (42f323c, call 1's library) and new (no event on the last kernel when a result read follows), five
# rounds alternated, one process each; then CUB + copy once more, and NVIDIA's full suite with new.
lat() { LD_LIBRARY_PATH=$2:$LD_LIBRARY_PATH timeout 60 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $1 $3 rc=$? $(date +%T)" >> $log; python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['lib']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $1 $3 >> $OUT/latency_ab.jsonl; }
for r in 1 2 3 4 5; do lat base $PWD/.devcarry/lib $r; lat new $PWD/.devcarry/v/new $r; done
timeout 60 .devcarry/cub_reduce 10 16 2 0.1 > $OUT/cub.jsonl 2>> $log; echo "cub rc=$? $(date +%T)" >> $log
export LD_LIBRARY_PATH=$PWD/.devcarry/v/new:$LD_LIBRARY_PATH
timeout 380 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -5 /tmp/conf.txt >> $log
cat $log
