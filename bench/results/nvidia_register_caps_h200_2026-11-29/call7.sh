set -u
cd .devcarry && tar xJf bin7.tar.xz && cd ..
export out=$OUT; source bench/h100_setup.sh >/dev/null 2>&1
log=$OUT/log.txt; echo "start $(date +%T) index=$index" > $log
which cuobjdump nvdisasm ptxas ncu >> $log 2>&1
timeout 60 .devcarry/cub_segmented 28 2 0.1 f32 > $OUT/cub.jsonl 2>>$log
bench() { ZE_REDUCE_CACHE_DIR=/tmp/zc_$1 LD_LIBRARY_PATH=$PWD/.devcarry/v/$1:$LD_LIBRARY_PATH timeout 120 .devcarry/zr_segmented_bench --device $index --max-log2 28 --min-log2 28 --runs 5 --types $2 2>>$log | grep power_law | sed "s/^{/{\"lib\":\"$1\",\"round\":$3,/" >> $OUT/ab.jsonl; echo "$1 rc=${PIPESTATUS[0]} $(date +%T)" >> $log; }
mkdir -p $OUT/ptx
ZE_REDUCE_OPENCL_DUMP_DIR=$OUT/ptx bench base 5 1
bench fastpath 5 1
bench items32 5 1
bench floor 5 1
bench base 7 2
bench fastpath 7 2
bench items32 5 2
cd $OUT/ptx && ls -la >> $log; for f in *segspan*; do [ -f "$f" ] || continue; (ptxas -arch=sm_90 -v -o /tmp/x.cubin "$f" 2>&1 | grep -A1 "segspan_plus_f32\|segspan_maximum_f32" | head -8) >> $log; cuobjdump -sass /tmp/x.cubin > /tmp/sass.txt 2>/dev/null && awk '/Function : zr_segspan_plus_f32/{p=1} p&&/Function : /&&!/plus_f32/{p=0} p' /tmp/sass.txt > $OUT/sass_plus_f32.txt; done
find $OUT/ptx -name "*.bin" ! -name "*segspan*" -delete
cat $log
