// Variant "workgroup": the group's reduction by the OpenCL 2.0 work-group collectives
// work_group_reduce_add/min/max (ops plus, minimum, maximum), leaving the pairing to the compiler, which
// knows the hardware's sub-group and register layout. Each work-item reduces a grid-strided share of the
// input in a register, the collective combines the group, and work-item 0 writes the group's partial.
// zr_wg_collectives.h makes the collectives' semantics ours (integer widths, NaNs, signed zeros).
// Arguments: in, n (64-bit), partials (one ACC per group), identity, scratch (unused: kept so that every
// partial-producing first pass has the same signature).
#include "zr_grid.h"

#include "zr_wg_collectives.h"

#if defined(ZR_CLASS_BASE)
ZR_WG_DEFINE_INTEGERS()
ZR_WG_DEFINE_FLOATING(f32, float)
#elif defined(ZR_CLASS_FP16)
ZR_WG_DEFINE_FLOATING(f32, float)
#elif defined(ZR_CLASS_FP64)
ZR_WG_DEFINE_FLOATING(f64, double)
#endif

#define ZR_WORKGROUP_KERNEL(OP, TN, T, ACC, ATN)                                                              \
  kernel void zr_workgroup_##OP##_##TN(global const T* restrict in, ulong n, global ACC* restrict partials,   \
                                       ACC identity, local ACC* scratch) {                                    \
    ACC acc = identity;                                                                                       \
    ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc); \
    acc = zr_wg_##OP##_##ATN(acc);                                                                            \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = acc;                                                \
  }

// Only plus, minimum and maximum have collectives.
#define ZR_WG_ONLY_plus(K, OP, TN, T, ACC, ATN) K(OP, TN, T, ACC, ATN)
#define ZR_WG_ONLY_minimum ZR_WG_ONLY_plus
#define ZR_WG_ONLY_maximum ZR_WG_ONLY_plus
#define ZR_WG_ONLY_multiplies(K, OP, TN, T, ACC, ATN)
#define ZR_WG_ONLY_bit_and ZR_WG_ONLY_multiplies
#define ZR_WG_ONLY_bit_or ZR_WG_ONLY_multiplies
#define ZR_WG_ONLY_bit_xor ZR_WG_ONLY_multiplies
#define ZR_WG_ONLY_logical_and ZR_WG_ONLY_multiplies
#define ZR_WG_ONLY_logical_or ZR_WG_ONLY_multiplies
#define ZR_WORKGROUP_PAIR(OP, TN, T, ACC, ATN) ZR_WG_ONLY_##OP(ZR_WORKGROUP_KERNEL, OP, TN, T, ACC, ATN)

ZR_FOR_EACH_PAIR(ZR_WORKGROUP_PAIR)
