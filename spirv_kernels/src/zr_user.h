// Reduction templates for user-defined operators (include/zereduce/user_operator_cl.h is the user's side;
// runtime/core/user_operator.hpp links the two). The templates import the operator's functions and never
// see its accumulator type: an accumulator is at most 64 bytes, kept in private memory in a 16-byte aligned
// array of ZR_USER_WORDS words, in local and global memory in slots of zr_user_accumulator_bytes() bytes (its
// size is a multiple of its alignment), and moved between them by the operator's own copies. After the runtime
// links the user's SPIR-V in, the device compiler inlines the operator and folds the sizes. Slots of the
// accumulator's own size keep a small accumulator's local memory small: with 16-byte slots the f32 sum's
// one-launch kernel ran 8% slower on the H100 (more shared memory per group, fewer groups resident).
//
// Every partial carries a flag saying whether it holds a value: an operator without an identity seeds each
// work-item's accumulator from its first element, and a work-item or group with no elements has nothing.
// Elements are combined in index order within a work-item, then four at a time in a fixed tree across the
// group, then the groups in index order: the result is deterministic for a given launch shape.
//
// llvm-spirv-15 writes the bitcasts of one private array between the OpVariables of the next, which spirv-val
// rejects: every kernel keeps all its private accumulators in one array (ZR_USER_STORE).
#ifndef ZR_USER_H
#define ZR_USER_H


// ---- the operator's side of the link (exported by the user's module) ----------------------------------
void zr_user_transform(private uchar* acc, ulong element_bits, ulong index);
void zr_user_combine(private uchar* acc, const private uchar* other);
uint zr_user_identity(private uchar* acc);
uint zr_user_accumulator_bytes(void);
// Copies of one accumulator, made by the operator with its own type. Partials written by other groups of the
// same launch are read through volatile pointers: past any cache that may hold older contents.
void zr_user_copy(private uchar* to, const private uchar* from);
void zr_user_to_local(local uchar* to, const private uchar* from);
void zr_user_from_local(private uchar* to, const local uchar* from);
void zr_user_to_global(global uchar* to, const private uchar* from);
void zr_user_from_global(private uchar* to, const volatile global uchar* from);

#define ZR_USER_WORDS 16  // 64 bytes: the largest accumulator
#define ZR_USER_STORE(store) uint store[2 * ZR_USER_WORDS] __attribute__((aligned(16)))
#define ZR_USER_ACC(store) (store)
#define ZR_USER_TMP(store) ((store) + ZR_USER_WORDS)
#define ZR_USER_BYTES(words) ((private uchar*)(words))
#define ZR_USER_SLOT(slots, i) ((slots) + (size_t)(i) * zr_user_accumulator_bytes())

#define ZR_USER_INLINE static inline __attribute__((always_inline))


// ---- the element classes: one template module per element size --------------------------------------------
// ZR_UT the element's bits, ZR_UVT a 16-byte vector of them, ZR_UL its lanes, ZR_ULANES(F, v, base) applies
// F(lane, index) to each lane of v in order (ZR_ULANES_AFTER_FIRST: to all but the first).
#if defined(ZR_CLASS_BITS8)
#define ZR_UTN u8
#define ZR_UT uchar
#define ZR_UVT uchar16
#define ZR_UL 16
#define ZR_UVLOAD(v, p) vload16((v), (p))
#define ZR_ULANES_AFTER_FIRST(F, v, base)                                                                   \
  F((v).s1, (base) + 1) F((v).s2, (base) + 2) F((v).s3, (base) + 3) F((v).s4, (base) + 4)                   \
  F((v).s5, (base) + 5) F((v).s6, (base) + 6) F((v).s7, (base) + 7) F((v).s8, (base) + 8)                   \
  F((v).s9, (base) + 9) F((v).sa, (base) + 10) F((v).sb, (base) + 11) F((v).sc, (base) + 12)               \
  F((v).sd, (base) + 13) F((v).se, (base) + 14) F((v).sf, (base) + 15)
#elif defined(ZR_CLASS_BITS16)
#define ZR_UTN u16
#define ZR_UT ushort
#define ZR_UVT ushort8
#define ZR_UL 8
#define ZR_UVLOAD(v, p) vload8((v), (p))
#define ZR_ULANES_AFTER_FIRST(F, v, base)                                                                   \
  F((v).s1, (base) + 1) F((v).s2, (base) + 2) F((v).s3, (base) + 3) F((v).s4, (base) + 4)                   \
  F((v).s5, (base) + 5) F((v).s6, (base) + 6) F((v).s7, (base) + 7)
#elif defined(ZR_CLASS_BITS32)
#define ZR_UTN u32
#define ZR_UT uint
#define ZR_UVT uint4
#define ZR_UL 4
#define ZR_UVLOAD(v, p) vload4((v), (p))
#define ZR_ULANES_AFTER_FIRST(F, v, base) F((v).s1, (base) + 1) F((v).s2, (base) + 2) F((v).s3, (base) + 3)
#elif defined(ZR_CLASS_BITS64)
#define ZR_UTN u64
#define ZR_UT ulong
#define ZR_UVT ulong2
#define ZR_UL 2
#define ZR_UVLOAD(v, p) vload2((v), (p))
#define ZR_ULANES_AFTER_FIRST(F, v, base) F((v).s1, (base) + 1)
#endif
#define ZR_ULANES(F, v, base) F((v).s0, (base)) ZR_ULANES_AFTER_FIRST(F, v, base)

#define ZR_USER_KERNEL_NAME(VARIANT) ZR_USER_KERNEL_NAME_(VARIANT, ZR_UTN)
#define ZR_USER_KERNEL_NAME_(VARIANT, TN) ZR_USER_KERNEL_NAME__(VARIANT, TN)
#define ZR_USER_KERNEL_NAME__(VARIANT, TN) zr_##VARIANT##_##TN

// acc (holding a value when *has) combined with tmp: acc = combine(acc, tmp), or tmp itself.
ZR_USER_INLINE void zr_user_merge(private uint* acc, const private uint* tmp, uint* has) {
  if (*has) zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(tmp));
  else zr_user_copy(ZR_USER_BYTES(acc), ZR_USER_BYTES(tmp));
  *has = 1;
}

// Whether the operator has an identity: then every accumulator starts from it, so every slot and partial
// holds a value and combines need no flag (a flag still says whether any element went in). A constant once
// the operator is linked in and inlined, so the device compiler drops the other path. scratch is overwritten.
ZR_USER_INLINE uint zr_user_seeded(private uint* scratch) { return zr_user_identity(ZR_USER_BYTES(scratch)); }

// acc combined with another accumulator read into tmp, which holds a value where the operator is seeded or
// other_has. The caller reads the flag and the slot before calling, neither waiting on the other: a slot read
// only once its flag said so cost the H100 a memory round trip per partial.
ZR_USER_INLINE void zr_user_merge_slot(private uint* acc, const private uint* tmp, uint seeded, uint other_has,
                                       uint* has) {
  if (seeded) {
    zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(tmp));
    *has |= other_has;
  } else if (other_has) {
    zr_user_merge(acc, tmp, has);
  }
}

// ---- this work-item's share of the input, GPU-shaped: the grid-stride read of zr_grid.h -------------------
// 16-byte vectors strided by the global size, two in flight a step (one for 1- and 2-byte elements, whose 8 or
// 16 transforms and combines a vector are work enough: two vectors' worth spilled registers on Intel's tgllp and
// pvc); the identity, or else the first lane read, seeds the accumulator; the last n mod ZR_UL elements are read
// one by one. Returns whether the work-item had any element. The first lane is folded in after its vector's
// load, so the first step keeps two loads in flight (a seed vector loaded alone before the loop would add a
// memory round trip to every work-item).
#define ZR_USER_FOLD_LANE(lane, index)                                 \
  zr_user_transform(ZR_USER_BYTES(tmp), (ulong)(lane), (index));     \
  zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(tmp));

// x's lanes (of indices base, base + 1, ...) folded into acc in order; the first seeds acc where it holds nothing
// (seeded: acc starts from the identity and always holds a value).
ZR_USER_INLINE void zr_user_fold_vector(private uint* acc, private uint* tmp, ZR_UVT x, ulong base, uint seeded,
                                        uint* has) {
  if (seeded || *has) {
    ZR_USER_FOLD_LANE(x.s0, base)
  } else {
    zr_user_transform(ZR_USER_BYTES(acc), (ulong)x.s0, base);
  }
  *has = 1;
  ZR_ULANES_AFTER_FIRST(ZR_USER_FOLD_LANE, x, base)
}

ZR_USER_INLINE uint zr_user_grid_read(global const ZR_UT* in, ulong n, private uint* acc, private uint* tmp) {
  const ulong vectors = n / ZR_UL;
  const ulong stride = get_global_size(0);
  ulong v = get_global_id(0);
  const uint seeded = zr_user_seeded(acc);
  uint has = 0;
#if ZR_UL <= 4
  for (; v + stride < vectors; v += 2 * stride) {
    const ZR_UVT x = ZR_UVLOAD(v, in);
    const ZR_UVT y = ZR_UVLOAD(v + stride, in);
    zr_user_fold_vector(acc, tmp, x, v * ZR_UL, seeded, &has);
    ZR_ULANES(ZR_USER_FOLD_LANE, y, (v + stride) * ZR_UL)
  }
  if (v < vectors) {
#else
  for (; v < vectors; v += stride) {
#endif
    const ZR_UVT x = ZR_UVLOAD(v, in);
    zr_user_fold_vector(acc, tmp, x, v * ZR_UL, seeded, &has);
  }
  for (ulong i = vectors * ZR_UL + get_global_id(0); i < n; i += stride) {
    zr_user_transform(ZR_USER_BYTES(tmp), (ulong)in[i], i);
    zr_user_merge_slot(acc, tmp, seeded, 1, &has);
  }
  return has;
}

// ---- across the work-group ----------------------------------------------------------------------------------
// Four slots fold into one a step (work-item i takes i + s, i + 2s, i + 3s in that order, s = ceil(active / 4)):
// a 512-wide group waits on 5 barriers instead of the 9 of a tree of pairs. The three are folded one after
// another into the work-item's accumulator, not as a tree of pairs in registers: that needs only the one
// temporary, whatever the accumulator's size. Eight a step, as zr_group_tree.h takes for the built-ins, made
// Intel's compiler spill 1 KiB in ulast even for the 4-byte f32 sum on tgllp and pvc (level_zero_nohw).
// Work-item 0 is left with the group's accumulator and the return value says whether it holds one. slots:
// one slot per work-item, flags: one uint per work-item.
#define ZR_USER_TREE_RADIX 4

ZR_USER_INLINE uint zr_user_group_tree(private uint* acc, private uint* tmp, uint seeded, uint has,
                                       local uchar* slots, local uint* flags) {
  const uint lid = (uint)get_local_id(0);
  uint active = (uint)get_local_size(0);
  zr_user_to_local(ZR_USER_SLOT(slots, lid), ZR_USER_BYTES(acc));
  flags[lid] = has;
  barrier(CLK_LOCAL_MEM_FENCE);
  while (active > 1) {
    const uint step = (active + ZR_USER_TREE_RADIX - 1) / ZR_USER_TREE_RADIX;
    if (lid < step) {
#pragma unroll
      for (uint k = 1; k < ZR_USER_TREE_RADIX; ++k) {
        const uint from = lid + k * step;
        if (from < active) {
          const uint other_has = flags[from];
          zr_user_from_local(ZR_USER_BYTES(tmp), ZR_USER_SLOT(slots, from));
          zr_user_merge_slot(acc, tmp, seeded, other_has, &has);
        }
      }
      zr_user_to_local(ZR_USER_SLOT(slots, lid), ZR_USER_BYTES(acc));
      flags[lid] = has;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    active = step;
  }
  return has;
}

// This work-item's strided share of `count` partials (slots, and their flags), in index order.
ZR_USER_INLINE uint zr_user_read_partials(const volatile global uchar* partials,
                                          const volatile global uint* partial_flags, ulong count, uint seeded,
                                          private uint* acc, private uint* tmp) {
  uint has = 0;
  if (seeded) zr_user_identity(ZR_USER_BYTES(acc));
  for (ulong p = get_local_id(0); p < count; p += get_local_size(0)) {
    const uint other_has = partial_flags[p];
    zr_user_from_global(ZR_USER_BYTES(tmp), ZR_USER_SLOT(partials, p));
    zr_user_merge_slot(acc, tmp, seeded, other_has, &has);
  }
  return has;
}

// The result: the initial value combined with the reduction (include_initial; an empty input leaves the
// initial value as it is), or the reduction alone, or the identity for an empty input (an operator without
// one leaves the result unwritten: the runtime refuses that case before launching). The result variable is
// aligned as the accumulator type (a C++ object of it, or the runtime's staging buffer).
ZR_USER_INLINE void zr_user_store_result(private uint* acc, private uint* tmp, uint has, global uchar* result,
                                         uint include_initial) {
  if (include_initial) {
    if (!has) return;
    zr_user_from_global(ZR_USER_BYTES(tmp), result);
    zr_user_combine(ZR_USER_BYTES(tmp), ZR_USER_BYTES(acc));
    zr_user_to_global(result, ZR_USER_BYTES(tmp));
    return;
  }
  if (!has && !zr_user_identity(ZR_USER_BYTES(acc))) return;
  zr_user_to_global(result, ZR_USER_BYTES(acc));
}

#endif  // ZR_USER_H
