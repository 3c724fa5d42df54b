set -u
[ -x .devcarry/zr_reduce_bench ] || { cd .devcarry && tar xJf bin1.tar.xz && cd ..; }
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log2.txt; echo "start $(date +%T) index=$index" > $log
cp .devcarry/v/exp/provenance.txt $OUT/provenance_exp.txt
# Which of the OpenCL enqueue's steps cost the 10 us the breakdown of call 1 shows (experiment knobs, not landed):
# the flush behind the kernels (a second one follows the result read) and the last kernel's event.
lat() { env $2 LD_LIBRARY_PATH=$PWD/.devcarry/v/exp:$LD_LIBRARY_PATH timeout 60 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $1 $3 rc=$? $(date +%T)" >> $log; python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['variant']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $1 $3 >> $OUT/latency_exp.jsonl; }
for r in 1 2 3; do
  lat base ZR_EXP_NONE=1 $r
  lat flush_off ZR_EXP_KERNEL_FLUSH_OFF=1 $r
  lat event_off ZR_EXP_KERNEL_EVENT_OFF=1 $r
  lat both_off "ZR_EXP_KERNEL_FLUSH_OFF=1 ZR_EXP_KERNEL_EVENT_OFF=1" $r
done
cat $log
