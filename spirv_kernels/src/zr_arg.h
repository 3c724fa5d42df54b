// Arg-reductions (argmin, argmax): a candidate is {value, index}; one candidate precedes another when its value
// is a NaN and the other's is not (NumPy: the first NaN wins, for argmin and argmax alike), else when its
// value is strictly smaller (argmin) / larger (argmax), else when its index is smaller. That is a total
// order on candidates, so the result is the same for every combining order and launch shape. The host
// reference (runtime/core/host_reference.cpp) and zr::argmin/zr::argmax (include/zereduce/arg_result.hpp)
// implement the same rule. The identity is the worst value (+inf / -inf, or the type's limit) at index
// ULONG_MAX: a real element with that value still precedes it.
//
// ZR_FOR_EACH_ARG_PAIR(K) expands K(OP, TN, T, ACC, ATN) for argmin and argmax of every numeric type of the
// module's class (as ZR_FOR_EACH_PAIR does for the nine ops); zr_arg_<ATN> is the candidate type, 16 bytes
// for every ATN (the plan's kArgPartialBytes).
#ifndef ZR_ARG_H
#define ZR_ARG_H

#include "zr_types.h"

// x replaces the current best b of a stream that visits indices in increasing order (x's index is larger).
// Integers: strictly better. Floating types: strictly better, or x a NaN, and never once b is a NaN; written
// as !(x <= b) & (b == b) (an unordered compare is true for a NaN x), two compares and an and where the
// spelled-out form (x > b) | (isnan(x) & !isnan(b)) took five operations per element: the H100 ran f32 argmax
// at 0.84x of maximum at 2^24 with it (bench/results/arg_h100.md). Bitwise, not short-circuit, operators: the
// branches of || and && gave llvm-spirv-15 a block order that spirv-val rejects ("appears in the binary
// before its dominator").
#define ZR_ARG_BEATS_INTEGER_argmin(x, b) ((x) < (b))
#define ZR_ARG_BEATS_INTEGER_argmax(x, b) ((x) > (b))
#define ZR_ARG_BEATS_FLOATING_argmin(x, b) (!((x) >= (b)) & ((b) == (b)))
#define ZR_ARG_BEATS_FLOATING_argmax(x, b) (!((x) <= (b)) & ((b) == (b)))

// A candidate lives in two variables (value, index); zr_arg_<ATN> is only its layout in memory (partials,
// local scratch), read and written field by field. Candidates as struct values (functions taking and
// returning them) left private struct copies in the SPIR-V (memcpy through Function variables), which Intel's
// driver reported as 1-4 KiB of spill space per kernel on Xe-LP and PVC (level_zero_nohw).
#define ZR_DEFINE_ARG_TYPE(ATN, ACC, KIND, WORST_FOR_MIN, WORST_FOR_MAX)                                  \
  typedef struct {                                                                                        \
    ACC value;                                                                                            \
    ulong index;                                                                                          \
  } zr_arg_##ATN;                                                                                         \
  static inline int zr_beats_argmin_##ATN(ACC x, ACC b) { return ZR_ARG_BEATS_##KIND##_argmin(x, b); }    \
  static inline int zr_beats_argmax_##ATN(ACC x, ACC b) { return ZR_ARG_BEATS_##KIND##_argmax(x, b); }    \
  static inline ACC zr_arg_worst_argmin_##ATN(void) { return (ACC)(WORST_FOR_MIN); }                      \
  static inline ACC zr_arg_worst_argmax_##ATN(void) { return (ACC)(WORST_FOR_MAX); }

// (bv, bi) = the first in the arg order of (bv, bi) and (v, i). v and i must not be bv or bi.
#define ZR_ARG_TAKE(OP, ATN, bv, bi, v, i)                                                     \
  do {                                                                                        \
    const int zr_t_ = zr_beats_##OP##_##ATN((v), (bv)) |                                       \
                      (!zr_beats_##OP##_##ATN((bv), (v)) & ((i) < (bi)));                      \
    (bv) = zr_t_ ? (v) : (bv);                                                                \
    (bi) = zr_t_ ? (i) : (bi);                                                                \
  } while (0)

// The identity: the worst value at index ULONG_MAX (a real element with that value still precedes it).
#define ZR_ARG_IDENTITY(OP, ATN, bv, bi) \
  do {                                   \
    (bv) = zr_arg_worst_##OP##_##ATN();   \
    (bi) = ULONG_MAX;                    \
  } while (0)

#define ZR_ARG_PAIRS(K, TN, T, ACC, ATN) K(argmin, TN, T, ACC, ATN) K(argmax, TN, T, ACC, ATN)

ZR_DEFINE_ARG_TYPE(f32, float, FLOATING, INFINITY, -INFINITY)

#if defined(ZR_CLASS_BASE)
ZR_DEFINE_ARG_TYPE(i8, char, INTEGER, CHAR_MAX, CHAR_MIN)
ZR_DEFINE_ARG_TYPE(i16, short, INTEGER, SHRT_MAX, SHRT_MIN)
ZR_DEFINE_ARG_TYPE(i32, int, INTEGER, INT_MAX, INT_MIN)
ZR_DEFINE_ARG_TYPE(i64, long, INTEGER, LONG_MAX, LONG_MIN)
ZR_DEFINE_ARG_TYPE(u8, uchar, INTEGER, UCHAR_MAX, 0)
ZR_DEFINE_ARG_TYPE(u16, ushort, INTEGER, USHRT_MAX, 0)
ZR_DEFINE_ARG_TYPE(u32, uint, INTEGER, UINT_MAX, 0)
ZR_DEFINE_ARG_TYPE(u64, ulong, INTEGER, ULONG_MAX, 0)
#define ZR_FOR_EACH_ARG_PAIR(K)                                                                           \
  ZR_ARG_PAIRS(K, i8, char, char, i8) ZR_ARG_PAIRS(K, i16, short, short, i16) ZR_ARG_PAIRS(K, i32, int, int, i32) \
  ZR_ARG_PAIRS(K, i64, long, long, i64) ZR_ARG_PAIRS(K, u8, uchar, uchar, u8)                             \
  ZR_ARG_PAIRS(K, u16, ushort, ushort, u16) ZR_ARG_PAIRS(K, u32, uint, uint, u32)                         \
  ZR_ARG_PAIRS(K, u64, ulong, ulong, u64) ZR_ARG_PAIRS(K, f32, float, float, f32)
#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_ARG_PAIR(K) ZR_ARG_PAIRS(K, f16, half, float, f32)
#elif defined(ZR_CLASS_FP64)
ZR_DEFINE_ARG_TYPE(f64, double, FLOATING, INFINITY, -INFINITY)
#define ZR_FOR_EACH_ARG_PAIR(K) ZR_ARG_PAIRS(K, f64, double, double, f64)
#else
#error "arg-reduction kernels are built for the base, fp16 and fp64 type classes (kernels.table)"
#endif

// The group's candidates combined through local memory, the result in every work-item's (bv, bi): a tree of
// pairs (slot i with slot i + ceil(active / 2)). Not zr_group_tree.h's eight-way steps: eight 16-byte
// candidates in registers at once made Intel's compiler spill on PVC (kernels_ocloc_compile).
#define ZR_ARG_LOCAL_TREE(OP, ATN, ACC, bv, bi, scratch)                                         \
  do {                                                                                          \
    const uint zr_lid_ = (uint)get_local_id(0);                                                 \
    uint zr_active_ = (uint)get_local_size(0);                                                  \
    (scratch)[zr_lid_].value = (bv);                                                            \
    (scratch)[zr_lid_].index = (bi);                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    while (zr_active_ > 1) {                                                                    \
      const uint zr_half_ = (zr_active_ + 1) / 2;                                               \
      if (zr_lid_ < zr_active_ - zr_half_) {                                                    \
        const ACC zr_ov_ = (scratch)[zr_lid_ + zr_half_].value;                                 \
        const ulong zr_oi_ = (scratch)[zr_lid_ + zr_half_].index;                               \
        ACC zr_mv_ = (scratch)[zr_lid_].value;                                                  \
        ulong zr_mi_ = (scratch)[zr_lid_].index;                                                \
        ZR_ARG_TAKE(OP, ATN, zr_mv_, zr_mi_, zr_ov_, zr_oi_);                                   \
        (scratch)[zr_lid_].value = zr_mv_;                                                      \
        (scratch)[zr_lid_].index = zr_mi_;                                                      \
      }                                                                                         \
      barrier(CLK_LOCAL_MEM_FENCE);                                                             \
      zr_active_ = zr_half_;                                                                    \
    }                                                                                           \
    (bv) = (scratch)[0].value;                                                                  \
    (bi) = (scratch)[0].index;                                                                  \
  } while (0)

// The result, as zr::arg_result<T>: the value as T at offset 0 (padding zeroed), the index at offset 8.
#define ZR_ARG_STORE_RESULT(TN, T, result, bv, bi)        \
  do {                                                    \
    (result)[0] = 0;                                      \
    ZR_STORE_##TN((global T*)(result), 0, (bv));         \
    (result)[1] = (bi);                                   \
  } while (0)

#endif  // ZR_ARG_H
