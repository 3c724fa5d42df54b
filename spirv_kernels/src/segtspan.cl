// Variant "segtspan": transform-reductions over skewed segments, segspan.cl's per-span kernel with transformed
// elements (zr_span_transform.h).
#include "zr_span_transform.h"
#include "segspan.cl"

#define ZR_SPAN_TRANSFORM_ENTRY(OP, TN, T, LANE, ACC, ATN, RT, RTN) \
  ZR_SPAN_TRANSFORM_STORE(OP, TN, ACC, RT, RTN)                     \
  ZR_SPAN_KERNEL(zr_segtspan_##OP##_##TN, OP, TN, T, ACC, ATN, RT, OP, LANE)
ZR_FOR_EACH_TRANSFORM(ZR_SPAN_TRANSFORM_ENTRY)
