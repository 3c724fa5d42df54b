// Variant "segargspan": argmin/argmax over skewed segments, segspan.cl's per-span kernel over keys (zr_span_keys.h).
#include "zr_span_keys.h"
#include "segspan.cl"

#define ZR_SPAN_ARG_ENTRY(KOP, TN, T, KACC) \
  ZR_SPAN_KERNEL(zr_segargspan_##KOP##_##TN, maximum, TN, T, ulong, key, ulong, KOP, KACC)
ZR_FOR_EACH_SPAN_ARG(ZR_SPAN_ARG_ENTRY)
