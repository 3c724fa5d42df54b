// Variant "segtspanjoin": the join of segtspan's segments crossing spans (segspan.cl, zr_span_transform.h).
#define ZR_SEGMENT_JOIN
#include "zr_span_transform.h"
#include "segspan.cl"

#define ZR_SPAN_TRANSFORM_ENTRY(OP, TN, T, LANE, ACC, ATN, RT, RTN) \
  ZR_SPAN_TRANSFORM_STORE(OP, TN, ACC, RT, RTN)                     \
  ZR_JOIN_KERNEL(zr_segtspanjoin_##OP##_##TN, OP, TN, T, ACC, ATN, RT, OP)
ZR_FOR_EACH_TRANSFORM(ZR_SPAN_TRANSFORM_ENTRY)
