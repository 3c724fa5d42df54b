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

#define ZR_DEFINE_ARG_TYPE(ATN, ACC, KIND, WORST_FOR_MIN, WORST_FOR_MAX)                                  \
  typedef struct {                                                                                        \
    ACC value;                                                                                            \
    ulong index;                                                                                          \
  } zr_arg_##ATN;                                                                                         \
  static inline zr_arg_##ATN zr_arg_make_##ATN(ACC value, ulong index) {                                 \
    zr_arg_##ATN a;                                                                                       \
    a.value = value;                                                                                      \
    a.index = index;                                                                                      \
    return a;                                                                                             \
  }                                                                                                       \
  static inline int zr_beats_argmin_##ATN(ACC x, ACC b) { return ZR_ARG_BEATS_##KIND##_argmin(x, b); }       \
  static inline int zr_beats_argmax_##ATN(ACC x, ACC b) { return ZR_ARG_BEATS_##KIND##_argmax(x, b); }       \
  static inline zr_arg_##ATN zr_arg_identity_argmin_##ATN(void) {                                         \
    zr_arg_##ATN a;                                                                                       \
    a = zr_arg_make_##ATN((ACC)(WORST_FOR_MIN), ULONG_MAX);                                               \
    return a;                                                                                             \
  }                                                                                                       \
  static inline zr_arg_##ATN zr_arg_identity_argmax_##ATN(void) {                                         \
    zr_arg_##ATN a;                                                                                       \
    a = zr_arg_make_##ATN((ACC)(WORST_FOR_MAX), ULONG_MAX);                                               \
    return a;                                                                                             \
  }                                                                                                       \
  static inline zr_arg_##ATN zr_arg_argmin_##ATN(zr_arg_##ATN a, zr_arg_##ATN b) {                        \
    const int b_first = zr_beats_argmin_##ATN(b.value, a.value) |                                         \
                        (!zr_beats_argmin_##ATN(a.value, b.value) & (b.index < a.index));                 \
    return b_first ? b : a;                                                                               \
  }                                                                                                       \
  static inline zr_arg_##ATN zr_arg_argmax_##ATN(zr_arg_##ATN a, zr_arg_##ATN b) {                        \
    const int b_first = zr_beats_argmax_##ATN(b.value, a.value) |                                         \
                        (!zr_beats_argmax_##ATN(a.value, b.value) & (b.index < a.index));                 \
    return b_first ? b : a;                                                                               \
  }

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

// The group's candidates combined through local memory, the result in every work-item's best: a tree of
// pairs (slot i with slot i + ceil(active / 2)). Not zr_group_tree.h's eight-way steps: eight 16-byte
// candidates in registers at once made Intel's compiler spill on PVC (kernels_ocloc_compile).
#define ZR_ARG_LOCAL_TREE(OP, ATN, best, scratch)                                                \
  do {                                                                                          \
    const uint zr_lid_ = (uint)get_local_id(0);                                                 \
    uint zr_active_ = (uint)get_local_size(0);                                                  \
    (scratch)[zr_lid_] = (best);                                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    while (zr_active_ > 1) {                                                                    \
      const uint zr_half_ = (zr_active_ + 1) / 2;                                               \
      if (zr_lid_ < zr_active_ - zr_half_)                                                      \
        (scratch)[zr_lid_] = zr_arg_##OP##_##ATN((scratch)[zr_lid_], (scratch)[zr_lid_ + zr_half_]); \
      barrier(CLK_LOCAL_MEM_FENCE);                                                             \
      zr_active_ = zr_half_;                                                                    \
    }                                                                                           \
    (best) = (scratch)[0];                                                                      \
  } while (0)

// The result, as zr::arg_result<T>: the value as T at offset 0 (padding zeroed), the index at offset 8.
#define ZR_ARG_STORE_RESULT(TN, T, result, best)          \
  do {                                                    \
    (result)[0] = 0;                                      \
    ZR_STORE_##TN((global T*)(result), 0, (best).value); \
    (result)[1] = (best).index;                           \
  } while (0)

#endif  // ZR_ARG_H
