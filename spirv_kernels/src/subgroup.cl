// Variant "subgroup": work-group reduction through sub-group shuffles instead of a local-memory tree, so a
// group needs two barriers in all instead of one per halving step. Each work-item reduces a grid-strided
// share of the input in a register; each sub-group combines its work-items' values with a butterfly of
// sub_group_shuffle_xor (cl_khr_subgroup_shuffle) through OUR combine functions (so the wrapping, NaN and
// signed-zero rules of every op hold); lane 0 of every sub-group puts the sub-group's value in local memory,
// and the first sub-group combines those in index order (grid-striding over them, then the same butterfly)
// and writes the group's partial. The pairing is fixed by the sub-group size and group size alone, and every
// op is commutative bit for bit, so results are deterministic for a given kernel binary and launch.
// A last sub-group smaller than the others works: a lane whose butterfly partner does not exist takes the
// identity instead, and lane 0 (the one whose value is used) only ever combines lane blocks that are
// complete or padded with identities.
// Arguments: in, n (64-bit), partials (one ACC per group), identity, scratch (local, one ACC per sub-group;
// the plan gives one per work-item).
#include "zr_grid.h"

// Shuffles of 8- and 16-bit values go through 32 bits, the width sub-group shuffles are native at.
#define ZR_SHUFFLE_XOR_DEFAULT(v, mask) sub_group_shuffle_xor((v), (mask))
#define ZR_SHUFFLE_XOR_i8(v, mask) ((char)sub_group_shuffle_xor((int)(v), (mask)))
#define ZR_SHUFFLE_XOR_i16(v, mask) ((short)sub_group_shuffle_xor((int)(v), (mask)))
#define ZR_SHUFFLE_XOR_u8(v, mask) ((uchar)sub_group_shuffle_xor((uint)(v), (mask)))
#define ZR_SHUFFLE_XOR_u16(v, mask) ((ushort)sub_group_shuffle_xor((uint)(v), (mask)))
#define ZR_SHUFFLE_XOR_bool(v, mask) ((uchar)sub_group_shuffle_xor((uint)(v), (mask)))
#define ZR_SHUFFLE_XOR_i32 ZR_SHUFFLE_XOR_DEFAULT
#define ZR_SHUFFLE_XOR_i64 ZR_SHUFFLE_XOR_DEFAULT
#define ZR_SHUFFLE_XOR_u32 ZR_SHUFFLE_XOR_DEFAULT
#define ZR_SHUFFLE_XOR_u64 ZR_SHUFFLE_XOR_DEFAULT
#define ZR_SHUFFLE_XOR_f32 ZR_SHUFFLE_XOR_DEFAULT
#define ZR_SHUFFLE_XOR_f64 ZR_SHUFFLE_XOR_DEFAULT

// Leaves in lane 0 the combination of the acc of all lanes of the sub-group. Offsets run up to the largest
// sub-group size, the same for every sub-group, so that all lanes shuffle together.
#define ZR_SUB_GROUP_BUTTERFLY(OP, ATN, ACC, acc, identity)                              \
  do {                                                                                   \
    const uint zr_lane_ = get_sub_group_local_id();                                      \
    const uint zr_size_ = get_sub_group_size();                                          \
    for (uint zr_offset_ = 1; zr_offset_ < get_max_sub_group_size(); zr_offset_ <<= 1) { \
      ACC zr_other_ = ZR_SHUFFLE_XOR_##ATN((acc), zr_offset_);                           \
      if ((zr_lane_ ^ zr_offset_) >= zr_size_) zr_other_ = (identity);                   \
      (acc) = ZR_COMBINE(OP, ATN)((acc), zr_other_);                                     \
    }                                                                                    \
  } while (0)

#define ZR_SUBGROUP_KERNEL(OP, TN, T, ACC, ATN)                                                               \
  kernel void zr_subgroup_##OP##_##TN(global const T* restrict in, ulong n, global ACC* restrict partials,    \
                                      ACC identity, local ACC* scratch) {                                     \
    ACC acc = identity;                                                                                       \
    ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc); \
    ZR_SUB_GROUP_BUTTERFLY(OP, ATN, ACC, acc, identity);                                                      \
    const uint sub_groups = get_num_sub_groups();                                                             \
    if (sub_groups == 1) { /* uniform: the whole group is one sub-group, no local memory needed */            \
      if (get_sub_group_local_id() == 0) partials[get_group_id(0)] = acc;                                     \
      return;                                                                                                 \
    }                                                                                                         \
    if (get_sub_group_local_id() == 0) scratch[get_sub_group_id()] = acc;                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    if (get_sub_group_id() != 0) return;                                                                      \
    acc = identity;                                                                                           \
    for (uint s = get_sub_group_local_id(); s < sub_groups; s += get_sub_group_size())                        \
      acc = ZR_COMBINE(OP, ATN)(acc, scratch[s]);                                                             \
    ZR_SUB_GROUP_BUTTERFLY(OP, ATN, ACC, acc, identity);                                                      \
    if (get_sub_group_local_id() == 0) partials[get_group_id(0)] = acc;                                       \
  }

ZR_FOR_EACH_PAIR(ZR_SUBGROUP_KERNEL)
