// segspan.cl's hooks for transform-reductions per segment (variants "segtspan" and "segtspanjoin", zr_transform.h's
// ops): each element transformed on its way into the lane's registers, the accumulators summed, a segment's result
// finished (a square root for norm_l2) and stored as the result type. The span kernel's last argument is count_equal's
// value (ignored by the other transforms).
#ifndef ZR_SPAN_TRANSFORM_H
#define ZR_SPAN_TRANSFORM_H
#define ZR_SPAN_HOOKS

#include "zr_transform.h"

// The kernels combine through ZR_COMBINE(OP, ATN): each transform's sum under its own name (unsigned sums wrap,
// floating ones round, as zr_tsum_<ATN>).
#define ZR_SPAN_TRANSFORM_SUM(OP, ACC, ATN) \
  static inline ACC zr_##OP##_##ATN(ACC a, ACC b) { return a + b; }
ZR_SPAN_TRANSFORM_SUM(count_nonzero, ulong, u64)
ZR_SPAN_TRANSFORM_SUM(count_equal, ulong, u64)
ZR_SPAN_TRANSFORM_SUM(sum_i64, ulong, u64)
ZR_SPAN_TRANSFORM_SUM(sum_u64, ulong, u64)
#if defined(ZR_CLASS_BASE) || defined(ZR_CLASS_FP16)
ZR_SPAN_TRANSFORM_SUM(sum_squares, float, f32)
ZR_SPAN_TRANSFORM_SUM(norm_l2, float, f32)
ZR_SPAN_TRANSFORM_SUM(norm_l1, float, f32)
ZR_SPAN_TRANSFORM_SUM(sum_f32, float, f32)
#elif defined(ZR_CLASS_FP64)
ZR_SPAN_TRANSFORM_SUM(sum_squares, double, f64)
ZR_SPAN_TRANSFORM_SUM(norm_l2, double, f64)
ZR_SPAN_TRANSFORM_SUM(norm_l1, double, f64)
#elif defined(ZR_CLASS_F32FP64) || defined(ZR_CLASS_F16FP64)
ZR_SPAN_TRANSFORM_SUM(sum_f64, double, f64)
#endif

// The lane's elements into the accumulator: transformed in place where an element converts to the accumulator
// exactly and the empty accumulator's transform is itself (norms, widened sums: one array of registers; a second
// for the elements as loaded made Intel's compiler spill on PVC for f16), else loaded as KACC (zr_transform.h's LANE)
// first, for the counts' compares.
#define ZR_SPAN_LOAD_LANE(ACC, TN, KOP, KACC, v, in, aligned, first, t1, identity) \
  ZR_SPAN_LOAD_LANE_##KOP(ACC, TN, KOP, KACC, v, in, aligned, first, t1, identity)
#define ZR_SPAN_LOAD_LANE_IN_PLACE(ACC, TN, KOP, KACC, v, in, aligned, first, t1, identity)               \
  do {                                                                                                  \
    ZR_LOAD_LANE_ITEMS(ZR_SPAN_ITEMS(ACC), ACC, TN, v, in, aligned, first, t1, identity);               \
    _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < ZR_SPAN_ITEMS(ACC); ++zr_k_) v[zr_k_] = ZR_XS_##KOP(ACC, v[zr_k_]); \
  } while (0)
#define ZR_SPAN_LOAD_LANE_COMPARED(ACC, TN, KOP, KACC, v, in, aligned, first, t1, identity)              \
  do {                                                                                                  \
    KACC zr_raw_[ZR_SPAN_ITEMS(ACC)];                                                                   \
    ZR_LOAD_LANE_ITEMS(ZR_SPAN_ITEMS(ACC), KACC, TN, zr_raw_, in, aligned, first, t1, (KACC)0);         \
    _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < ZR_SPAN_ITEMS(ACC); ++zr_k_)                         \
      v[zr_k_] = (first) + zr_k_ < (t1) ? ZR_XS_##KOP(ACC, zr_raw_[zr_k_]) : (identity);                \
  } while (0)
#define ZR_SPAN_LOAD_LANE_sum_squares ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_norm_l2 ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_norm_l1 ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_sum_i64 ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_sum_u64 ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_sum_f32 ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_sum_f64 ZR_SPAN_LOAD_LANE_IN_PLACE
#define ZR_SPAN_LOAD_LANE_count_nonzero ZR_SPAN_LOAD_LANE_COMPARED
#define ZR_SPAN_LOAD_LANE_count_equal ZR_SPAN_LOAD_LANE_COMPARED

// Segment s's result through the store function that each entry point's macro defines before its kernel
// (ZR_SPAN_TRANSFORM_STORE): the finish and the result type depend on the op and the element type.
#define ZR_FINISH_SEGMENT(OP, TN, T, ATN, acc, s) zr_span_store_##OP##_##TN(result, (s), (acc))
#define ZR_SPAN_TRANSFORM_STORE(OP, TN, ACC, RT, RTN)                                   \
  static inline void zr_span_store_##OP##_##TN(global RT* result, ulong s, ACC acc) { \
    ZR_STORE_##RTN(result, s, ZR_FINISH_##OP(acc));                                   \
  }
#define ZR_JOIN_INPUT_PARAM(T)
#define ZR_SPAN_PROLOGUE(KOP)
#define ZR_SPAN_VALUE_PARAM(KACC) , KACC value

#endif  // ZR_SPAN_TRANSFORM_H
