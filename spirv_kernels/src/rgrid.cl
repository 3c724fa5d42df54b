// Variant "rgrid": the first pass of a reproducible sum (zr_binned.h) shaped for GPUs: each work-item adds
// a grid-strided share of the input to its own binned sum, reading 16-byte vectors strided by the global
// size as zr_grid.h does (so a sub-group reads whole cache lines; one vector per step, not two: the sums
// take the registers that a second vector would, and spilled on PVC), the group merges the sums through local
// memory, and one state per group goes to `states`.
// Arguments: in, n (64-bit), states (one zr_binned per group), scratch (local, one zr_binned per work-item).
#include "zr_binned.h"
#include "zr_grid.h"

// Adds every lane of a 16-byte vector (ZR_VEC_* lanes of zr_grid.h, as the compute type).
#define ZR_RADD_2(FTN, s, v) \
  zr_rsum_add_##FTN(s, (v).s0); \
  zr_rsum_add_##FTN(s, (v).s1)
#define ZR_RADD_4(FTN, s, v)     \
  ZR_RADD_2(FTN, s, (v).s01); \
  ZR_RADD_2(FTN, s, (v).s23)
#define ZR_RADD_8(FTN, s, v)       \
  ZR_RADD_4(FTN, s, (v).s0123); \
  ZR_RADD_4(FTN, s, (v).s4567)
#define ZR_RADD_N(N, FTN, s, v) ZR_RADD_##N(FTN, s, v)
#define ZR_RADD(N, FTN, s, v) ZR_RADD_N(N, FTN, s, v)

#define ZR_RGRID_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                            \
  kernel void zr_rgrid_plus_##TN(global const T* restrict in, ulong n, global zr_binned* restrict states, \
                                 local zr_binned* scratch) {                                              \
    zr_rsum_##FTN sum;                                                                                    \
    zr_rsum_init_##FTN(&sum);                                                                             \
    const ulong vectors = n / ZR_VEC_##TN;                                                                \
    const ulong stride = get_global_size(0);                                                              \
    for (ulong v = get_global_id(0); v < vectors; v += stride) {                                          \
      const ZR_VTYPE_##TN x = ZR_VLOAD_##TN(v, in);                                                       \
      ZR_RADD(ZR_VEC_##TN, FTN, &sum, x);                                                                 \
    }                                                                                                     \
    for (ulong i = vectors * ZR_VEC_##TN + get_global_id(0); i < n; i += stride)                          \
      zr_rsum_add_##FTN(&sum, ZR_LOAD_##TN(in, i));                                                       \
    zr_binned state = zr_rsum_state_##FTN(&sum);                                                          \
    state = zr_binned_group_merge(state, scratch);                                                                \
    if (get_local_id(0) == 0) states[get_group_id(0)] = state;                                            \
  }

ZR_FOR_EACH_RSUM(ZR_RGRID_KERNEL)
