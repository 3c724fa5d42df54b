// Variant "rgrid": the first pass of a reproducible sum (zr_binned.h) shaped for GPUs: each work-item adds
// a grid-strided share of the input to its own binned sum, reading 16-byte vectors strided by the global
// size as zr_grid.h does (so a sub-group reads whole cache lines), the group merges the sums through local
// memory, and one state per group goes to `states`.
// Arguments: in, n (64-bit), states (one zr_binned per group), scratch (local, one zr_binned per work-item).
#include "zr_binned.h"
#include "zr_grid.h"

// Adds every lane of a 16-byte vector (ZR_VEC_* lanes of zr_grid.h, as the compute type), counted once per
// vector (with two vectors a step for f32: 127 -> 121 us at 2^26 on the H100).
#define ZR_RADD_2(FTN, s, v) \
  zr_rsum_add_uncounted_##FTN(s, (v).s0); \
  zr_rsum_add_uncounted_##FTN(s, (v).s1)
#define ZR_RADD_4(FTN, s, v)     \
  ZR_RADD_2(FTN, s, (v).s01); \
  ZR_RADD_2(FTN, s, (v).s23)
#define ZR_RADD_8(FTN, s, v)       \
  ZR_RADD_4(FTN, s, (v).s0123); \
  ZR_RADD_4(FTN, s, (v).s4567)
#define ZR_RADD_N(N, FTN, s, v) ZR_RADD_##N(FTN, s, v)
#define ZR_RADD(N, FTN, s, v) ZR_RADD_N(N, FTN, s, v)

// Two vectors in flight per step where that builds without spills on every Intel target (f32); one for
// f16 (8 lanes a vector) and f64, which spilled on PVC with two.
#define ZR_RGRID_PAIRS_f32 1
#define ZR_RGRID_PAIRS_f16 0
#define ZR_RGRID_PAIRS_f64 0

#define ZR_RGRID_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                            \
  kernel void zr_rgrid_plus_##TN(global const T* restrict in, ulong n, global zr_binned* restrict states, \
                                 local zr_binned* scratch) {                                              \
    zr_rsum_##FTN sum;                                                                                    \
    zr_rsum_init_##FTN(&sum);                                                                             \
    const ulong vectors = n / ZR_VEC_##TN;                                                                \
    const ulong stride = get_global_size(0);                                                              \
    ulong v = get_global_id(0);                                                                           \
    if (ZR_RGRID_PAIRS_##TN)                                                                              \
      for (; v + stride < vectors; v += 2 * stride) {                                                     \
        const ZR_VTYPE_##TN x = ZR_VLOAD_##TN(v, in);                                                     \
        const ZR_VTYPE_##TN y = ZR_VLOAD_##TN(v + stride, in);                                            \
        ZR_RADD(ZR_VEC_##TN, FTN, &sum, x);                                                               \
        ZR_RADD(ZR_VEC_##TN, FTN, &sum, y);                                                               \
        zr_rsum_count_##FTN(&sum, 2 * ZR_VEC_##TN);                                                       \
      }                                                                                                   \
    for (; v < vectors; v += stride) {                                                                    \
      const ZR_VTYPE_##TN x = ZR_VLOAD_##TN(v, in);                                                       \
      ZR_RADD(ZR_VEC_##TN, FTN, &sum, x);                                                                 \
      zr_rsum_count_##FTN(&sum, ZR_VEC_##TN);                                                             \
    }                                                                                                     \
    for (ulong i = vectors * ZR_VEC_##TN + get_global_id(0); i < n; i += stride)                          \
      zr_rsum_add_##FTN(&sum, ZR_LOAD_##TN(in, i));                                                       \
    zr_binned state = zr_rsum_state_##FTN(&sum);                                                          \
    state = zr_binned_group_merge(state, scratch);                                                                \
    if (get_local_id(0) == 0) states[get_group_id(0)] = state;                                            \
  }

ZR_FOR_EACH_RSUM(ZR_RGRID_KERNEL)
