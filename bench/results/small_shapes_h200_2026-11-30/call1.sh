set -u
cd .devcarry && tar xJf bin1.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/.devcarry/lib:$LD_LIBRARY_PATH
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
# Launch shapes of small inputs (n = 2^10..2^16) through the tuning's environment knobs, alternated.
lat() { name=$1; round=$2; shift 2
  env "$@" timeout 120 .devcarry/zr_reduce_bench --device $index --min-log2 10 --max-log2 16 --latency-max-log2 16 --strategies-max-log2 0 --min-time 0.05 --out /tmp/lat.json > /dev/null 2>>$log; echo "lat $name $round rc=$? $(date +%T)" >> $log
  python3 -c "
import json,sys; d=json.load(open('/tmp/lat.json'))
for r in d['latency']: r['shape']=sys.argv[1]; r['round']=int(sys.argv[2]); print(json.dumps(r))" $name $round >> $OUT/latency_shapes.jsonl; }
for r in 1 2 3; do
  lat default $r X=1
  lat final1024_2e14 $r ZE_REDUCE_WORK_GROUP_SIZE=1024 ZE_REDUCE_FINAL_WORK_GROUP_SIZE=1024 ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS=16384
  lat final1024_2e16 $r ZE_REDUCE_WORK_GROUP_SIZE=1024 ZE_REDUCE_FINAL_WORK_GROUP_SIZE=1024 ZE_REDUCE_MIN_ELEMENTS_PER_ITEM=64 ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS=65536 ZE_REDUCE_MAX_FINAL_INPUTS=65536
  lat lastgroup256x4 $r ZE_REDUCE_WORK_GROUP_SIZE=256 ZE_REDUCE_MIN_ELEMENTS_PER_ITEM=4
  lat final512_2e14 $r ZE_REDUCE_FINAL_WORK_GROUP_SIZE=512 ZE_REDUCE_MIN_ELEMENTS_PER_ITEM=32 ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS=16384
done
# The plans of each shape at 2^14 and 2^16 (f32 sum).
for n in 16384 65536; do for s in "X=1" "ZE_REDUCE_WORK_GROUP_SIZE=1024 ZE_REDUCE_FINAL_WORK_GROUP_SIZE=1024 ZE_REDUCE_MIN_ELEMENTS_PER_ITEM=64 ZE_REDUCE_FINAL_ONLY_MAX_ELEMENTS=65536 ZE_REDUCE_MAX_FINAL_INPUTS=65536" "ZE_REDUCE_WORK_GROUP_SIZE=256 ZE_REDUCE_MIN_ELEMENTS_PER_ITEM=4"; do
  echo "== $s n=$n" >> $OUT/plans.txt; env $s .devcarry/ze_reduce -d $index -n $n -v 2>&1 | grep -E "pass|group\(s\)|strategy" | head -6 >> $OUT/plans.txt; done; done
cat $log
