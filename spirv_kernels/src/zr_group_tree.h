// The local-memory tree: every work-item of the group contributes its accumulator, and the group's
// combined value comes back to all of them. The pairing is fixed by the group size alone, so the result is
// the same on every run (the deterministic property relies on this). Any group size works, not only
// powers of two.
//
// Each step folds eight slots into one (slots i, i + s, ..., i + 7s for s = ceil(active / 8)), as a balanced
// tree of pairs in registers, the missing slots of the last step read as the identity (which combines
// exactly). So a 512-wide group waits on 3 barriers instead of the 9 of a tree of pairs, while every value
// still goes through at most ceil(log2(size)) combines for sizes that are powers of two (the error bound of
// core::combine_depth follows the same steps). Measured on the H100 (bench, raw OpenCL, one 512-wide group):
// the tree alone took 0.25 us less device time than pairs (5.28 against 5.54 us with launch); a small
// reduction's blocking latency depends on that (bench/README.md, small-n latency).
#ifndef ZR_GROUP_TREE_H
#define ZR_GROUP_TREE_H

#define ZR_TREE_RADIX 8

#define ZR_LOCAL_TREE(COMBINE, ACC, acc, scratch, identity) \
  ZR_LOCAL_TREE_AT(COMBINE, ACC, acc, scratch, identity, (uint)get_local_id(0), (uint)get_local_size(0))

// The same with the work-item's local id and the group's size given: kepilogue.cl, linked into an application's
// kernel, reads no built-in variable of its own (the kernel's module already imports them, and Intel's SPIR-V
// reader leaves a second import of one unresolved).
#define ZR_LOCAL_TREE_AT(COMBINE, ACC, acc, scratch, identity, LOCAL_ID, LOCAL_SIZE)                             \
  do {                                                                                                           \
    const uint zr_lid_ = (LOCAL_ID);                                                                             \
    uint zr_active_ = (LOCAL_SIZE);                                                                              \
    (scratch)[zr_lid_] = (acc);                                                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                                \
    while (zr_active_ > 1) {                                                                                     \
      const uint zr_step_ = (zr_active_ + ZR_TREE_RADIX - 1) / ZR_TREE_RADIX;                                    \
      if (zr_lid_ < zr_step_) {                                                                                  \
        (acc) = (scratch)[zr_lid_];                                                                              \
        const ACC zr_s1_ = zr_lid_ + zr_step_ < zr_active_ ? (scratch)[zr_lid_ + zr_step_] : (identity);         \
        const ACC zr_s2_ = zr_lid_ + 2 * zr_step_ < zr_active_ ? (scratch)[zr_lid_ + 2 * zr_step_] : (identity); \
        const ACC zr_s3_ = zr_lid_ + 3 * zr_step_ < zr_active_ ? (scratch)[zr_lid_ + 3 * zr_step_] : (identity); \
        const ACC zr_s4_ = zr_lid_ + 4 * zr_step_ < zr_active_ ? (scratch)[zr_lid_ + 4 * zr_step_] : (identity); \
        const ACC zr_s5_ = zr_lid_ + 5 * zr_step_ < zr_active_ ? (scratch)[zr_lid_ + 5 * zr_step_] : (identity); \
        const ACC zr_s6_ = zr_lid_ + 6 * zr_step_ < zr_active_ ? (scratch)[zr_lid_ + 6 * zr_step_] : (identity); \
        const ACC zr_s7_ = zr_lid_ + 7 * zr_step_ < zr_active_ ? (scratch)[zr_lid_ + 7 * zr_step_] : (identity); \
        (acc) = COMBINE(COMBINE(COMBINE((acc), zr_s1_), COMBINE(zr_s2_, zr_s3_)),                                \
                        COMBINE(COMBINE(zr_s4_, zr_s5_), COMBINE(zr_s6_, zr_s7_)));                              \
        (scratch)[zr_lid_] = (acc);                                                                              \
      }                                                                                                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                              \
      zr_active_ = zr_step_;                                                                                     \
    }                                                                                                            \
    (acc) = (scratch)[0];                                                                                        \
  } while (0)

#endif  // ZR_GROUP_TREE_H
