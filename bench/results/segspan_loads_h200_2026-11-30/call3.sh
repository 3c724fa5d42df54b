set -u
cd .devcarry && tar xJf bin3.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in check argfew argfew128 fold3; do cp .devcarry/v/$v/provenance.txt $OUT/call3_provenance_$v.txt; done
# Short pieces' loads issued together. check: main + segcheck's quick path (the base here); argfew: + segarg's short
# pieces and zr_arg_grid's head and tail loaded together; argfew128: + the long-segment launch of argmax in groups of
# 128; fold3: + zr_strided_fold's last three loaded together (segsub, segt/segm). f32, 2^28 elements.
eq() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=$2 timeout 80 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 10 --step 2 --runs 5 --types 1 | sed "s/^{/{\"lib\":\"$1\",\"round\":$3,/" >> $OUT/call3_ab.jsonl 2>>$log; echo "eq $1 $2 rc=$? $(date +%T)" >> $log; }
pl() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=$2 timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 5 --types 1 | grep power_law | sed "s/^{/{\"lib\":\"$1\",\"round\":$3,/" >> $OUT/call3_ab.jsonl 2>>$log; echo "pl $1 $2 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do
  for v in check argfew argfew128 fold3; do pl $v sum,max,argmax,norm_l2 $r; done
  for v in check fold3; do eq $v sum,max,argmax,norm_l2 $r; done
done
cat $log
