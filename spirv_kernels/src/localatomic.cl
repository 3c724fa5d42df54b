// Variant "localatomic": the work-items of a group combine through one local-memory atomic each instead of
// the log2(group size) barrier steps of the local-memory tree (integer types; every op but multiplies).
// Each work-item reduces a grid-strided share of the input in a register, work-item 0 puts the widened
// identity into a local ATOM (see zr_atomic.h), every work-item combines its value into it atomically, and
// work-item 0 writes the narrowed group value as the group's partial. Integer ops are associative and
// commutative, so the order of the atomics does not change the result. Up to 32-bit types only: 64-bit
// local atomics are emulated on Xe-LP, where Intel's Level Zero driver reported 1 KiB of spill for every
// 64-bit kernel of this variant; the tree serves 64-bit types.
// Arguments: in, n (64-bit), partials (one ACC per group), identity, scratch (local; one ATOM, the plan gives
// at least 8 bytes). The scratch argument is declared as ATOM, not ACC: a driver aligns a local argument for
// the type it is declared with, and NVIDIA's OpenCL faulted the GPU (CL_INVALID_COMMAND_QUEUE, then a dead
// context) when the 32-bit atomics went through a local uchar or ushort argument cast to int.
#include "zr_grid.h"
#include "zr_atomic.h"

#define ZR_LOCALATOMIC_KERNEL(OP, TN, T, ACC, ATN)                                                            \
  kernel void zr_localatomic_##OP##_##TN(global const T* restrict in, ulong n, global ACC* restrict partials, \
                                         ACC identity, local ZR_ATOM_##TN* group_value) {                     \
    ACC acc = identity;                                                                                       \
    ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc); \
    if (get_local_id(0) == 0) *group_value = ZR_WIDEN_##OP(ZR_ATOM_##TN, identity);                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    ZR_ATOMIC(OP, TN, group_value, ZR_WIDEN_##OP(ZR_ATOM_##TN, acc));                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    if (get_local_id(0) == 0) partials[get_group_id(0)] = ZR_NARROW_##OP(ACC, *group_value);                  \
  }

#define ZR_LOCALATOMIC_PAIR(OP, TN, T, ACC, ATN) ZR_KEEP_##OP(ZR_LOCALATOMIC_KERNEL, OP, TN, T, ACC, ATN)
ZR_FOR_EACH_PAIR(ZR_LOCALATOMIC_PAIR)
