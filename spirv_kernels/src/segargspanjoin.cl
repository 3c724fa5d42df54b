// Variant "segargspanjoin": the join of segargspan's segments crossing spans (segspan.cl, zr_span_keys.h).
#define ZR_SEGMENT_JOIN
#include "zr_span_keys.h"
#include "segspan.cl"

#define ZR_SPAN_ARG_ENTRY(KOP, TN, T, KACC) \
  ZR_JOIN_KERNEL(zr_segargspanjoin_##KOP##_##TN, maximum, TN, T, ulong, key, ulong, KOP)
ZR_FOR_EACH_SPAN_ARG(ZR_SPAN_ARG_ENTRY)
