# Device call 1: the OpenCL argument memo's A/B on blocking latency (old = be37846, new = c428fe0), then NVIDIA full conformance.
set -u
export out=$OUT; source bench/h100_driver_setup.sh
export ZE_REDUCE_CACHE_DIR=/tmp/zc
base_ld=$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/versions.txt
for round in 1 2; do for v in new old; do
  LD_LIBRARY_PATH=$PWD/.devcarry/$v:$base_ld timeout 100 .devcarry/zr_reduce_bench --device-type gpu --min-log2 10 --max-log2 16 --step 2 \
    --latency-max-log2 16 --strategies-max-log2 0 --sdk-max-log2 0 --min-time 0.02 --max-iterations 50 --out $OUT/lat_${v}_$round.json > /tmp/lat_${v}_$round.log 2>&1
  echo "== $v round $round rc=$?"; grep "^latency" /tmp/lat_${v}_$round.log | sed 's/blocking reduce into a host variable/host/; s/into device memory/dev/'
done; done
cp /tmp/lat_new_1.log $OUT/ 2>/dev/null
cp .devcarry/new/libzereduce.so.0 .devcarry/lib/
timeout 400 bash bench/run_h100_conformance.sh nvidia
