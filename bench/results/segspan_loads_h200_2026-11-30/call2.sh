set -u
cd .devcarry && tar xJf bin2.tar.xz && cd ..
export ZE_REDUCE_CACHE_DIR=/tmp/zc
export out=$OUT; source bench/h100_setup.sh > /dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
for v in base check; do cp .devcarry/v/$v/provenance.txt $OUT/call2_provenance_$v.txt; done
# The device check of the offsets, base against check (four 32-bit bounds at once), in turn twice: f32 sum by
# offsets at 2^0 .. 2^8 and power-law sizes (check_seconds); then the passes of every f32 op at power-law sizes.
seg() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH ZR_SEGMENTED_BENCH_OPS=sum timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 0 --upto-log2 8 --step 2 --runs 7 --types 1 | grep '"offsets"' | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/call2_check.jsonl 2>>$log; echo "seg $1 rc=$? $(date +%T)" >> $log; }
pl() { LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 7 --types 1 | grep power_law | sed "s/^{/{\"lib\":\"$1\",\"round\":$2,/" >> $OUT/call2_check.jsonl 2>>$log; echo "pl $1 rc=$? $(date +%T)" >> $log; }
for r in 1 2; do seg base $r; seg check $r; pl base $r; pl check $r; done
LD_LIBRARY_PATH=$PWD/.devcarry/v/check:$LD_LIBRARY_PATH timeout 60 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 3 --types 1 --plans 1 > $OUT/call2_plans.jsonl 2> $OUT/call2_plans.txt; echo "plans rc=$? $(date +%T)" >> $log
cat $log
