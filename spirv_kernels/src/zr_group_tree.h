// The local-memory tree: every work-item of the group contributes its accumulator, and the group's
// combined value comes back to all of them. The pairing is fixed by the group size alone, so the result is
// the same on every run (the deterministic property relies on this). Any group size works, not only
// powers of two: each step folds the upper half (rounded up) onto the lower one.
#ifndef ZR_GROUP_TREE_H
#define ZR_GROUP_TREE_H

#define ZR_LOCAL_TREE(COMBINE, acc, scratch)                                 \
  do {                                                                       \
    const uint zr_lid_ = (uint)get_local_id(0);                              \
    uint zr_active_ = (uint)get_local_size(0);                               \
    (scratch)[zr_lid_] = (acc);                                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                            \
    while (zr_active_ > 1) {                                                 \
      const uint zr_half_ = (zr_active_ + 1) >> 1;                           \
      if (zr_lid_ + zr_half_ < zr_active_)                                   \
        (scratch)[zr_lid_] = COMBINE((scratch)[zr_lid_], (scratch)[zr_lid_ + zr_half_]); \
      barrier(CLK_LOCAL_MEM_FENCE);                                          \
      zr_active_ = zr_half_;                                                 \
    }                                                                        \
    (acc) = (scratch)[0];                                                    \
  } while (0)

#endif  // ZR_GROUP_TREE_H
