// Transform-reductions (runtime/core/transform_reference.hpp has the host side): every element is transformed
// on its way in (squared, made absolute, compared, widened) and the results are summed in the op's accumulator,
// in one read of the input and without a temporary array. The grid read and the local-memory tree are those of
// the plain reductions (zr_grid.h, zr_group_tree.h); only the transform and the accumulator differ.
//
// ZR_FOR_EACH_TRANSFORM(K) expands K(OP, TN, T, LANE, ACC, ATN, RT, RTN) for every pair of the module's class:
//   OP    the op (core::Op's name)                   TN, T  the element's type name and OpenCL C type
//   LANE  an element as the loads give it (float for half, 0/1 uchar for bool): count_equal's value has it
//   ACC   the accumulator (ulong for counts and integer sums, which wrap modulo 2^64), ATN its type name
//   RT    the result's type (RTN its name): what the last pass stores, after ZR_FINISH_<OP> (a square root
//         for norm_l2)
#ifndef ZR_TRANSFORM_H
#define ZR_TRANSFORM_H

#include "zr_grid.h"
#include "zr_group_tree.h"

// ---- the transforms: XV on a loaded vector of type VT into XT lanes, XS on one element into AT ------------
#define ZR_CONVERT(XT, v) ZR_CONVERT_(XT, v)
#define ZR_CONVERT_(XT, v) convert_##XT(v)
// A vector comparison gives -1 for true, a scalar one 1: counts take the lowest bit of either.
#define ZR_XV_sum_squares(XT, VT, v) ((v) * (v))
#define ZR_XS_sum_squares(AT, x) ((x) * (x))
#define ZR_XV_norm_l2 ZR_XV_sum_squares
#define ZR_XS_norm_l2 ZR_XS_sum_squares
#define ZR_XV_norm_l1(XT, VT, v) fabs(v)
#define ZR_XS_norm_l1(AT, x) fabs(x)
#define ZR_XV_count_nonzero(XT, VT, v) (ZR_CONVERT(XT, (v) != (VT)0) & (XT)1)
#define ZR_XS_count_nonzero(AT, x) ((AT)((x) != 0))
#define ZR_XV_count_equal(XT, VT, v) (ZR_CONVERT(XT, (v) == value) & (XT)1)
#define ZR_XS_count_equal(AT, x) ((AT)((x) == value))
#define ZR_XV_WIDEN(XT, VT, v) ZR_CONVERT(XT, v)
#define ZR_XS_WIDEN(AT, x) ((AT)(x))
#define ZR_XV_sum_i64 ZR_XV_WIDEN
#define ZR_XS_sum_i64 ZR_XS_WIDEN
#define ZR_XV_sum_u64 ZR_XV_WIDEN
#define ZR_XS_sum_u64 ZR_XS_WIDEN
#define ZR_XV_sum_f32 ZR_XV_WIDEN
#define ZR_XS_sum_f32 ZR_XS_WIDEN
#define ZR_XV_sum_f64 ZR_XV_WIDEN
#define ZR_XS_sum_f64 ZR_XS_WIDEN

#define ZR_FINISH_sum_squares(x) (x)
#define ZR_FINISH_norm_l2(x) sqrt(x)
#define ZR_FINISH_norm_l1(x) (x)
#define ZR_FINISH_count_nonzero(x) (x)
#define ZR_FINISH_count_equal(x) (x)
#define ZR_FINISH_sum_i64(x) (x)
#define ZR_FINISH_sum_u64(x) (x)
#define ZR_FINISH_sum_f32(x) (x)
#define ZR_FINISH_sum_f64(x) (x)

// ---- the sums: unsigned integers wrap, floating-point adds round -------------------------------------------
static inline ulong zr_tsum_u64(ulong a, ulong b) { return a + b; }
static inline float zr_tsum_f32(float a, float b) { return a + b; }
#if defined(ZR_CLASS_FP64) || defined(ZR_CLASS_F32FP64) || defined(ZR_CLASS_F16FP64)
static inline double zr_tsum_f64(double a, double b) { return a + b; }
#endif

// The vector of N accumulator lanes, N a macro (ZR_VEC_<TN>) expanded first.
#define ZR_VECTOR_OF(ACC, N) ZR_VECTOR_OF_(ACC, N)
#define ZR_VECTOR_OF_(ACC, N) ACC##N

// acc += the transformed share of in[0, n) of this work-item.
#define ZR_TRANSFORM_ACCUMULATE(OP, TN, ACC, ATN, in, n, acc)                                              \
  ZR_GRID_FOLD_TRANSFORMED(zr_tsum_##ATN, ZR_XV_##OP, ZR_VECTOR_OF(ACC, ZR_VEC_##TN), ZR_XS_##OP, ACC, TN, \
                           in, n, acc)

// ---- pairs per type class ---------------------------------------------------------------------------------
#define ZR_COUNT_PAIRS(K, TN, T, LANE) \
  K(count_nonzero, TN, T, LANE, ulong, u64, ulong, u64) K(count_equal, TN, T, LANE, ulong, u64, ulong, u64)
#define ZR_INTEGER_SUM_PAIRS(K, TN, T) \
  ZR_COUNT_PAIRS(K, TN, T, T) K(sum_i64, TN, T, T, ulong, u64, ulong, u64) K(sum_u64, TN, T, T, ulong, u64, ulong, u64)
#define ZR_NORM_PAIRS(K, TN, T, LANE, ACC, ATN)                                                          \
  K(sum_squares, TN, T, LANE, ACC, ATN, T, TN) K(norm_l2, TN, T, LANE, ACC, ATN, T, TN)                 \
  K(norm_l1, TN, T, LANE, ACC, ATN, T, TN)

#if defined(ZR_CLASS_BASE)
#define ZR_FOR_EACH_TRANSFORM(K)                                                                          \
  ZR_INTEGER_SUM_PAIRS(K, i8, char) ZR_INTEGER_SUM_PAIRS(K, i16, short) ZR_INTEGER_SUM_PAIRS(K, i32, int) \
  ZR_INTEGER_SUM_PAIRS(K, i64, long) ZR_INTEGER_SUM_PAIRS(K, u8, uchar)                                   \
  ZR_INTEGER_SUM_PAIRS(K, u16, ushort) ZR_INTEGER_SUM_PAIRS(K, u32, uint) ZR_INTEGER_SUM_PAIRS(K, u64, ulong) \
  K(count_nonzero, bool, uchar, uchar, ulong, u64, ulong, u64) K(count_equal, bool, uchar, uchar, ulong, u64, ulong, u64) \
  K(sum_i64, bool, uchar, uchar, ulong, u64, ulong, u64) K(sum_u64, bool, uchar, uchar, ulong, u64, ulong, u64) \
  ZR_COUNT_PAIRS(K, f32, float, float) ZR_NORM_PAIRS(K, f32, float, float, float, f32)
#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_TRANSFORM(K)                                                                            \
  ZR_COUNT_PAIRS(K, f16, half, float) ZR_NORM_PAIRS(K, f16, half, float, float, f32)                      \
  K(sum_f32, f16, half, float, float, f32, float, f32)
#elif defined(ZR_CLASS_FP64)
#define ZR_FOR_EACH_TRANSFORM(K) ZR_COUNT_PAIRS(K, f64, double, double) ZR_NORM_PAIRS(K, f64, double, double, double, f64)
#elif defined(ZR_CLASS_F32FP64)
#define ZR_FOR_EACH_TRANSFORM(K) K(sum_f64, f32, float, float, double, f64, double, f64)
#elif defined(ZR_CLASS_F16FP64)
#define ZR_FOR_EACH_TRANSFORM(K) K(sum_f64, f16, half, float, double, f64, double, f64)
#else
#error "transform-reductions are built for the base, fp16, fp64, f32fp64 and f16fp64 classes"
#endif

#endif  // ZR_TRANSFORM_H
