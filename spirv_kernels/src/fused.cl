// Variant "fused": several reductions of one input in one read. One kernel per element type takes, for
// every op the type supports (in the order of zr_types.h's pair lists), a partials pointer and an identity;
// a null partials pointer switches that op off. Each work-item reads its grid-strided share once (16-byte
// vector loads, as zr_grid.h) and updates every active accumulator; then the active ops go through one
// local-memory tree together and work-item 0 writes each op's partial for the group. Deterministic for a
// launch shape, like "tree".
// Arguments: in, n (64-bit), then per op: partials, identity, scratch (local, one ACC per work-item; a few
// bytes when the op is off).
#include "zr_grid.h"

// The ops of one element type, as K(OP, TN, T, ACC, ATN) for each.
#define ZR_INTEGER_OPS(K, TN, T, ACC, ATN) ZR_INTEGER_PAIRS(K, TN, T)
#define ZR_FLOATING_OPS(K, TN, T, ACC, ATN) ZR_FLOATING_PAIRS(K, TN, T, ACC, ATN)
#define ZR_BOOL_OPS(K, TN, T, ACC, ATN) ZR_BOOL_PAIRS(K)

#if defined(ZR_CLASS_BASE)
#define ZR_FOR_EACH_TYPE(K)                                                                                   \
  K(i8, char, char, i8, ZR_INTEGER_OPS) K(i16, short, short, i16, ZR_INTEGER_OPS)                           \
  K(i32, int, int, i32, ZR_INTEGER_OPS) K(i64, long, long, i64, ZR_INTEGER_OPS)                             \
  K(u8, uchar, uchar, u8, ZR_INTEGER_OPS) K(u16, ushort, ushort, u16, ZR_INTEGER_OPS)                       \
  K(u32, uint, uint, u32, ZR_INTEGER_OPS) K(u64, ulong, ulong, u64, ZR_INTEGER_OPS)                         \
  K(f32, float, float, f32, ZR_FLOATING_OPS) K(bool, uchar, uchar, bool, ZR_BOOL_OPS)
#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_TYPE(K) K(f16, half, float, f32, ZR_FLOATING_OPS)
#elif defined(ZR_CLASS_FP64)
#define ZR_FOR_EACH_TYPE(K) K(f64, double, double, f64, ZR_FLOATING_OPS)
#else
#error "the fused variant is built for the base, fp16 and fp64 classes"
#endif

#define ZR_FUSED_ARG(OP, TN, T, ACC, ATN) \
  , global ACC* restrict partials_##OP, ACC identity_##OP, local ACC* scratch_##OP
#define ZR_FUSED_DECLARE(OP, TN, T, ACC, ATN) ACC acc_##OP = identity_##OP;
#define ZR_FUSED_FOLD_VECTOR(OP, TN, T, ACC, ATN) \
  if (partials_##OP) { ZR_FOLD(ZR_VEC_##TN, ZR_COMBINE(OP, ATN), acc_##OP, zr_x_); }
#define ZR_FUSED_FOLD_ONE(OP, TN, T, ACC, ATN) \
  if (partials_##OP) acc_##OP = ZR_COMBINE(OP, ATN)(acc_##OP, zr_v_);
// All active ops share one local-memory tree (the pairing of zr_group_tree.h), so the kernel has one barrier
// per level whatever the number of ops: a barrier per op and level made PoCL's work-group compilation take
// minutes, and costs every GPU a group-wide wait per op.
#define ZR_FUSED_STORE(OP, TN, T, ACC, ATN) \
  if (partials_##OP) scratch_##OP[zr_lid_] = acc_##OP;
#define ZR_FUSED_STEP(OP, TN, T, ACC, ATN) \
  if (partials_##OP) scratch_##OP[zr_lid_] = ZR_COMBINE(OP, ATN)(scratch_##OP[zr_lid_], scratch_##OP[zr_lid_ + zr_half_]);
#define ZR_FUSED_WRITE(OP, TN, T, ACC, ATN) \
  if (partials_##OP) partials_##OP[get_group_id(0)] = scratch_##OP[0];

#define ZR_FUSED_KERNEL(TN, T, ACC, ATN, OPS)                                                        \
  kernel void zr_fused_##TN(global const T* restrict in, ulong n OPS(ZR_FUSED_ARG, TN, T, ACC, ATN)) { \
    OPS(ZR_FUSED_DECLARE, TN, T, ACC, ATN)                                                           \
    const ulong zr_vectors_ = n / ZR_VEC_##TN;                                                       \
    const ulong zr_stride_ = get_global_size(0);                                                     \
    for (ulong zr_i_ = get_global_id(0); zr_i_ < zr_vectors_; zr_i_ += zr_stride_) {                 \
      const ZR_VTYPE_##TN zr_x_ = ZR_VLOAD_##TN(zr_i_, in);                                          \
      OPS(ZR_FUSED_FOLD_VECTOR, TN, T, ACC, ATN)                                                     \
    }                                                                                                \
    for (ulong zr_i_ = zr_vectors_ * ZR_VEC_##TN + get_global_id(0); zr_i_ < n; zr_i_ += zr_stride_) { \
      const ACC zr_v_ = ZR_LOAD_##TN(in, zr_i_);                                                     \
      OPS(ZR_FUSED_FOLD_ONE, TN, T, ACC, ATN)                                                        \
    }                                                                                                \
    const uint zr_lid_ = (uint)get_local_id(0);                                                      \
    uint zr_active_ = (uint)get_local_size(0);                                                       \
    OPS(ZR_FUSED_STORE, TN, T, ACC, ATN)                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                    \
    while (zr_active_ > 1) {                                                                         \
      const uint zr_half_ = (zr_active_ + 1) >> 1;                                                   \
      if (zr_lid_ + zr_half_ < zr_active_) {                                                         \
        OPS(ZR_FUSED_STEP, TN, T, ACC, ATN)                                                          \
      }                                                                                              \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
      zr_active_ = zr_half_;                                                                         \
    }                                                                                                \
    if (zr_lid_ == 0) {                                                                              \
      OPS(ZR_FUSED_WRITE, TN, T, ACC, ATN)                                                           \
    }                                                                                                \
  }

ZR_FOR_EACH_TYPE(ZR_FUSED_KERNEL)
