set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
cp .devcarry/v/base/provenance.txt $OUT/provenance_base.txt; cp .devcarry/v/new/provenance.txt $OUT/provenance_new.txt
# Latency A/B: the session's start (base) and its end (new), alternated five times, in one process each.
lat() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 120 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $1 $2 rc=$? $(date +%T)" >> $log; python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['lib']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $1 $2 >> $OUT/latency_ab.jsonl; }
for r in 1 2 3 4 5; do lat base $r; lat new $r; done
# Full conformance with the new library (the executor's run of an initial value changed).
export LD_LIBRARY_PATH=$PWD/.devcarry/v/new:$LD_LIBRARY_PATH
timeout 380 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -5 /tmp/conf.txt >> $log
cat $log
