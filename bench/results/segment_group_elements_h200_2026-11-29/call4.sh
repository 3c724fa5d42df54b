set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
run() { local e=$1; ZE_REDUCE_SEGMENT_GROUP_ELEMENTS=$e timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 12 --upto-log2 16 --step 2 --runs 5 --types 4 2>>$log | sed "s/^{/{\"group_elements\":$e,/" >> $OUT/sweep.jsonl; echo "e=$e rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
for round in 1 2; do for e in 64 16 32 128 256; do run $e; done; done
best=$(python3 - "$OUT/sweep.jsonl" <<'P'
import json,sys,collections
best=collections.defaultdict(dict)
for l in open(sys.argv[1]):
    r=json.loads(l); k=(r["api"],r["op"],r["log2"]); e=r["group_elements"]
    if not r["ok"]: print(0); sys.exit()
    best[e][k]=min(best[e].get(k,1e9),r["seconds"])
tot={e:sum(v.values()) for e,v in best.items()}
print(min(tot,key=tot.get))
P
)
echo "best=$best $(date +%T)" >> $log
if [ -n "$best" ] && [ "$best" != 64 ] && [ "$best" != 0 ]; then
  ZE_REDUCE_SEGMENT_GROUP_ELEMENTS=$best timeout 200 .devcarry/ze_reduce_conformance --full --device NVIDIA --gtest_filter='*Segments*' --report $OUT/nvidia_segments_group_elements_$best.json --gtest_brief=1 > $OUT/conf.txt 2>&1; echo "conf e=$best rc=$? $(date +%T)" >> $log; tail -3 $OUT/conf.txt >> $log
fi
cat $log
