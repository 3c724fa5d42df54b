set -u
[ -x .devcarry/zr_reduce_bench ] || { cd .devcarry && tar xJf bin1.tar.xz && cd ..; }
cd .devcarry && tar xJf bin4.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log4.txt; echo "start $(date +%T) index=$index" > $log
{ grep -m1 'model name' /proc/cpuinfo; nproc; uptime; } >> $OUT/versions.txt
cp .devcarry/v/new/provenance.txt $OUT/provenance_new.txt; cp .devcarry/v/readafter/provenance.txt $OUT/provenance_readafter.txt
# Does waiting for the kernels before the result read (then reading a finished buffer) step over NVIDIA's read
# step at 2^14-2^16? new (938df39) against read_after_kernels.patch with its knob, four rounds alternated.
lat() { env $3 LD_LIBRARY_PATH=$2:$LD_LIBRARY_PATH timeout 60 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $1 $4 rc=$? $(date +%T)" >> $log; python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['lib']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $1 $4 >> $OUT/latency_readafter.jsonl; }
for r in 1 2 3 4; do lat new $PWD/.devcarry/v/new ZR_EXP_NONE=1 $r; lat readafter $PWD/.devcarry/v/readafter ZR_EXP_READ_AFTER_KERNELS=1 $r; done
cat $log
