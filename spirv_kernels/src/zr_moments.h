// Mean and variance in one read (Op::mean_var_f32, Op::mean_var_f64; runtime/core/moments_reference.hpp is the
// host side): every work-item keeps a state {count, mean, m2} (m2 the sum of squared deviations from the
// mean) in the accumulator type A (float or double). Each loaded 16-byte vector, converted to A lanes, is one
// block: its mean (the lanes' sum times 1/lanes, an exact power of two) and its m2 about that mean, merged into
// the state; elements of the tail are blocks of one. States are merged pairwise as Chan, Golub and LeVeque
// give it ("Algorithms for computing the sample variance", 1983):
//   n = na + nb, delta = mean_b - mean_a, mean = mean_a + delta * nb/n, m2 = m2_a + m2_b + delta^2 * na * nb/n
// which never subtracts two large sums of squares, so a mean far from zero costs no accuracy. The grid read,
// the local-memory tree and the last-group arrival are those of the plain reductions, in a fixed order: the
// result is deterministic for a given launch shape. A state of count 0 is the identity.
// Any NaN or infinity, in the input or from an overflow, makes the stored mean and m2 the canonical NaN.
//
// ZR_FOR_EACH_MOMENTS(K) expands K(OP, TN, T, A, ATN) for every pair of the module's class.
#ifndef ZR_MOMENTS_H
#define ZR_MOMENTS_H

#include "zr_grid.h"
#include "zr_group_tree.h"

#define ZR_DEFINE_MOMENTS(A, ATN)                                                                   \
  typedef struct {                                                                                  \
    ulong count;                                                                                    \
    A mean;                                                                                         \
    A m2;                                                                                           \
  } zr_moments_##ATN;                                                                               \
  static inline zr_moments_##ATN zr_moments_none_##ATN(void) {                                      \
    zr_moments_##ATN s;                                                                             \
    s.count = 0;                                                                                    \
    s.mean = 0;                                                                                     \
    s.m2 = 0;                                                                                       \
    return s;                                                                                       \
  }                                                                                                 \
  static inline zr_moments_##ATN zr_moments_merge_##ATN(zr_moments_##ATN a, zr_moments_##ATN b) {   \
    zr_moments_##ATN r;                                                                             \
    r.count = a.count + b.count;                                                                    \
    const A weight = (A)b.count / (A)max(r.count, (ulong)1); /* no branch: 0 for two empty states */ \
    const A delta = b.mean - a.mean;                                                                \
    r.mean = a.mean + delta * weight;                                                               \
    r.m2 = a.m2 + b.m2 + delta * delta * ((A)a.count * weight);                                     \
    return r;                                                                                       \
  }                                                                                                 \
  static inline zr_moments_##ATN zr_moments_one_##ATN(A x) {                                        \
    zr_moments_##ATN s;                                                                             \
    s.count = 1;                                                                                    \
    s.mean = x;                                                                                     \
    s.m2 = 0;                                                                                       \
    return s;                                                                                       \
  }                                                                                                 \
  /* The canonical NaN for both values unless both are finite (see above). */                      \
  static inline void zr_moments_store_##ATN(global zr_moments_##ATN* result, zr_moments_##ATN s) {  \
    const int finite = isfinite(s.mean) & isfinite(s.m2); /* not &&: clang's freeze for it, which llvm-spirv-15 rejects */ \
    result->count = s.count;                                                                        \
    result->mean = finite ? s.mean : ZR_NAN_##ATN;                                                  \
    result->m2 = finite ? s.m2 : ZR_NAN_##ATN;                                                      \
  }

// The block of one loaded vector x of N lanes of A (XT), merged into state s.
#define ZR_MOMENTS_BLOCK_2(x) ((x).s0 + (x).s1)
#define ZR_MOMENTS_BLOCK_4(x) (ZR_MOMENTS_BLOCK_2((x).s01) + ZR_MOMENTS_BLOCK_2((x).s23))
#define ZR_MOMENTS_BLOCK_8(x) (ZR_MOMENTS_BLOCK_4((x).s0123) + ZR_MOMENTS_BLOCK_4((x).s4567))
#define ZR_MOMENTS_BLOCK_16(x) (ZR_MOMENTS_BLOCK_8((x).s01234567) + ZR_MOMENTS_BLOCK_8((x).s89abcdef))
#define ZR_MOMENTS_SUM(N, x) ZR_MOMENTS_SUM_(N, x)
#define ZR_MOMENTS_SUM_(N, x) ZR_MOMENTS_BLOCK_##N(x)
#define ZR_MOMENTS_MERGE_VECTOR(A, ATN, XT, N, s, x)                          \
  do {                                                                        \
    zr_moments_##ATN zr_block_;                                               \
    zr_block_.count = (N);                                                    \
    zr_block_.mean = ZR_MOMENTS_SUM(N, x) * ((A)1 / (A)(N));                  \
    const XT zr_dev_ = (x) - (XT)zr_block_.mean;                              \
    zr_block_.m2 = ZR_MOMENTS_SUM(N, zr_dev_ * zr_dev_);                      \
    s = zr_moments_merge_##ATN(s, zr_block_);                                 \
  } while (0)

// The group's states merged into s of every work-item by a tree of pairs (slot i with slot i + half), in a fixed
// order. Not zr_group_tree.h's eight-way steps: eight f64 states and their merges spilled registers on PVC
// (the Level Zero test driver's pvc profile, 1024 bytes in every f64 kernel).
#define ZR_MOMENTS_LOCAL_TREE(ATN, s, scratch)                                                              \
  do {                                                                                                      \
    const uint zr_lid_ = (uint)get_local_id(0);                                                             \
    uint zr_active_ = (uint)get_local_size(0);                                                              \
    (scratch)[zr_lid_] = (s);                                                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
    while (zr_active_ > 1) {                                                                                \
      const uint zr_half_ = (zr_active_ + 1) / 2;                                                           \
      if (zr_lid_ + zr_half_ < zr_active_)                                                                  \
        (scratch)[zr_lid_] = zr_moments_merge_##ATN((scratch)[zr_lid_], (scratch)[zr_lid_ + zr_half_]);     \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
      zr_active_ = zr_half_;                                                                                \
    }                                                                                                       \
    (s) = (scratch)[0];                                                                                     \
  } while (0)

// s = s merged with this work-item's grid-strided share of in[0, n) (vectors as zr_grid.h reads them).
#define ZR_MOMENTS_GRID(TN, A, ATN, in, n, s)                                                               \
  do {                                                                                                      \
    typedef ZR_MOMENTS_VECTOR(A, ZR_VEC_##TN) zr_xt_;                                                       \
    const ulong zr_vectors_ = (n) / ZR_VEC_##TN;                                                            \
    const ulong zr_stride_ = get_global_size(0);                                                            \
    for (ulong zr_v_ = get_global_id(0); zr_v_ < zr_vectors_; zr_v_ += zr_stride_) {                        \
      const zr_xt_ zr_x_ = ZR_MOMENTS_CONVERT(A, ZR_VEC_##TN, ZR_VLOAD_##TN(zr_v_, in));                   \
      ZR_MOMENTS_MERGE_VECTOR(A, ATN, zr_xt_, ZR_VEC_##TN, s, zr_x_);                                       \
    }                                                                                                       \
    for (ulong zr_i_ = zr_vectors_ * ZR_VEC_##TN + get_global_id(0); zr_i_ < (n); zr_i_ += zr_stride_)      \
      s = zr_moments_merge_##ATN(s, zr_moments_one_##ATN((A)ZR_LOAD_##TN(in, zr_i_)));                      \
  } while (0)

#define ZR_MOMENTS_VECTOR(A, N) ZR_MOMENTS_VECTOR_(A, N)
#define ZR_MOMENTS_VECTOR_(A, N) A##N
#define ZR_MOMENTS_CONVERT(A, N, v) ZR_MOMENTS_CONVERT_(A, N, v)
#define ZR_MOMENTS_CONVERT_(A, N, v) convert_##A##N(v)

ZR_DEFINE_MOMENTS(float, f32)
#if defined(ZR_CLASS_BASEFP64) || defined(ZR_CLASS_FP64) || defined(ZR_CLASS_F16FP64)
ZR_DEFINE_MOMENTS(double, f64)
#endif

#define ZR_MOMENTS_INTEGERS(K, OP, A, ATN)                                                             \
  K(OP, i8, char, A, ATN) K(OP, i16, short, A, ATN) K(OP, i32, int, A, ATN) K(OP, i64, long, A, ATN) \
  K(OP, u8, uchar, A, ATN) K(OP, u16, ushort, A, ATN) K(OP, u32, uint, A, ATN) K(OP, u64, ulong, A, ATN)
#if defined(ZR_CLASS_BASE)
#define ZR_FOR_EACH_MOMENTS(K) ZR_MOMENTS_INTEGERS(K, mean_var_f32, float, f32) K(mean_var_f32, f32, float, float, f32)
#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_MOMENTS(K) K(mean_var_f32, f16, half, float, f32)
#elif defined(ZR_CLASS_F32)
#define ZR_FOR_EACH_MOMENTS(K) K(mean_var_f32, f32, float, float, f32)
#elif defined(ZR_CLASS_BASEFP64)
#define ZR_FOR_EACH_MOMENTS(K) ZR_MOMENTS_INTEGERS(K, mean_var_f64, double, f64) K(mean_var_f64, f32, float, double, f64)
#elif defined(ZR_CLASS_FP64)
#define ZR_FOR_EACH_MOMENTS(K) K(mean_var_f64, f64, double, double, f64)
#elif defined(ZR_CLASS_F16FP64)
#define ZR_FOR_EACH_MOMENTS(K) K(mean_var_f64, f16, half, double, f64)
#else
#error "mean and variance are built for the base, fp16, f32, basefp64, fp64 and f16fp64 classes"
#endif

#endif  // ZR_MOMENTS_H
