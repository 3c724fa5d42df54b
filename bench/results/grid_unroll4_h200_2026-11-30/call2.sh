set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
cp .devcarry/v/new/provenance.txt $OUT/provenance_new.txt; cp .devcarry/v/unroll4/provenance.txt $OUT/provenance_unroll4.txt
# Latency A/B: 12edb4c's library (new) and the grid loop with four loads in flight (unroll4), alternated.
lat() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 120 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $1 $2 rc=$? $(date +%T)" >> $log; python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['lib']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $1 $2 >> $OUT/latency_ab.jsonl; }
for r in 1 2 3 4; do lat new $r; lat unroll4 $r; done
# Throughput at large n (the read probe beside it), both libraries in turn, checked on the host.
for r in 1 2; do for lib in new unroll4; do for t in f32 f64; do for op in sum max; do
  echo "=== $lib round $r $op $t 2^28" >> $OUT/throughput.txt
  LD_LIBRARY_PATH=$PWD/.devcarry/v/$lib:$LD_LIBRARY_PATH timeout 60 .devcarry/ze_reduce -d $index -o $op -t $t -n 2^28 -i 20 --bandwidth --verify --json >> $OUT/throughput.txt 2>&1
done; done; done; done
echo "throughput $(date +%T)" >> $log
export LD_LIBRARY_PATH=$PWD/.devcarry/v/unroll4:$LD_LIBRARY_PATH
timeout 380 .devcarry/ze_reduce_conformance --full --device NVIDIA --report $OUT/nvidia.json --gtest_brief=1 > /tmp/conf.txt 2>&1; echo "conf rc=$? $(date +%T)" >> $log; tail -5 /tmp/conf.txt >> $log
cat $log
