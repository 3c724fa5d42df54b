set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
# The final pass alone on small inputs: its group size (default 256) and how far it reaches (default 8192).
cfg() { case $1 in default) unset ZE_REDUCE_FINAL_ONLY_GROUP_SIZE ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS;;
  *) export ZE_REDUCE_FINAL_ONLY_GROUP_SIZE=$1 ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS=$2;; esac; }
lat() { timeout 120 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $1 $2 rc=$? $(date +%T)" >> $log; python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['config']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $1 $2 >> $OUT/latency_final_only.jsonl; }
for r in 1 2; do
  cfg default; lat default $r
  cfg 512 8192; lat g512 $r
  cfg 1024 16384; lat g1024 $r
done
for c in "default" "512 8192" "1024 16384"; do cfg $c; for t in f32 f64 i32; do for op in sum max; do for n in 2^10 2^12 2^13 2^14; do
  echo "=== ${c// /_} $t $op n=$n $(timeout 30 .devcarry/ze_reduce -d $index -o $op -t $t -n $n -i 50 -w 3 -v --verify 2>&1 | grep -E '^  [a-z]+: zr_|^kernels|^wall|verif|rror' | tr '\n' '|')" >> $OUT/kernels.txt
done; done; done; done
echo "kernels $(date +%T)" >> $log
cat $log
