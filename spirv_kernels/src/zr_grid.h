// The grid-stride read of the input shared by the GPU-shaped variants (tree, lastgroup, atomic,
// localatomic, subgroup, workgroup, fatomic*). Each work-item reads 16 bytes at a time (vloadN of the
// element type) and two such vectors per step, strided by the global size in vectors, so that a warp or
// sub-group reads whole contiguous cache lines and keeps two loads in flight: a scalar grid-stride loop
// reached ~0.75x of CUB on the H100 (2.3 vs 3.05 TB/s for f32 at 2^28, bench/results), 16-byte loads
// are what reaches the bandwidth limit there. The lanes are folded in a fixed order, so results stay
// deterministic for a given launch shape. The last n mod VEC elements are read one by one.
#ifndef ZR_GRID_H
#define ZR_GRID_H

#include "zr_types.h"

// Lanes per 16-byte vector, the vector load as accumulator lanes, and the fold of those lanes.
#define ZR_VEC_i8 16
#define ZR_VEC_u8 16
#define ZR_VEC_bool 16
#define ZR_VEC_i16 8
#define ZR_VEC_u16 8
#define ZR_VEC_f16 8
#define ZR_VEC_i32 4
#define ZR_VEC_u32 4
#define ZR_VEC_f32 4
#define ZR_VEC_i64 2
#define ZR_VEC_u64 2
#define ZR_VEC_f64 2

#define ZR_VTYPE_i8 char16
#define ZR_VTYPE_u8 uchar16
#define ZR_VTYPE_bool uchar16
#define ZR_VTYPE_i16 short8
#define ZR_VTYPE_u16 ushort8
#define ZR_VTYPE_f16 float8
#define ZR_VTYPE_i32 int4
#define ZR_VTYPE_u32 uint4
#define ZR_VTYPE_f32 float4
#define ZR_VTYPE_i64 long2
#define ZR_VTYPE_u64 ulong2
#define ZR_VTYPE_f64 double2

#define ZR_VLOAD_i8(v, p) vload16((v), (p))
#define ZR_VLOAD_u8(v, p) vload16((v), (p))
#define ZR_VLOAD_bool(v, p) (convert_uchar16(vload16((v), (p)) != (uchar16)0) & (uchar16)1)
#define ZR_VLOAD_i16(v, p) vload8((v), (p))
#define ZR_VLOAD_u16(v, p) vload8((v), (p))
#define ZR_VLOAD_f16(v, p) vload_half8((v), (p))
#define ZR_VLOAD_i32(v, p) vload4((v), (p))
#define ZR_VLOAD_u32(v, p) vload4((v), (p))
#define ZR_VLOAD_f32(v, p) vload4((v), (p))
#define ZR_VLOAD_i64(v, p) vload2((v), (p))
#define ZR_VLOAD_u64(v, p) vload2((v), (p))
#define ZR_VLOAD_f64(v, p) vload2((v), (p))

// The 16-byte vector at vector index i of a 16-byte-aligned input: a load of the vector type itself, which NVIDIA's
// compiler issues as one 16-byte load (vloadN promises only the element's alignment, and comes as N loads). f16 and
// bool, whose vectors are converted on the way in, keep their vloadN.
#define ZR_ALIGNED_VLOAD(VT, i, p) (((global const VT*)(p))[i])
#define ZR_ALIGNED_VLOAD_i8(i, p) ZR_ALIGNED_VLOAD(char16, i, p)
#define ZR_ALIGNED_VLOAD_u8(i, p) ZR_ALIGNED_VLOAD(uchar16, i, p)
#define ZR_ALIGNED_VLOAD_i16(i, p) ZR_ALIGNED_VLOAD(short8, i, p)
#define ZR_ALIGNED_VLOAD_u16(i, p) ZR_ALIGNED_VLOAD(ushort8, i, p)
#define ZR_ALIGNED_VLOAD_i32(i, p) ZR_ALIGNED_VLOAD(int4, i, p)
#define ZR_ALIGNED_VLOAD_u32(i, p) ZR_ALIGNED_VLOAD(uint4, i, p)
#define ZR_ALIGNED_VLOAD_f32(i, p) ZR_ALIGNED_VLOAD(float4, i, p)
#define ZR_ALIGNED_VLOAD_i64(i, p) ZR_ALIGNED_VLOAD(long2, i, p)
#define ZR_ALIGNED_VLOAD_u64(i, p) ZR_ALIGNED_VLOAD(ulong2, i, p)
#define ZR_ALIGNED_VLOAD_f64(i, p) ZR_ALIGNED_VLOAD(double2, i, p)
#define ZR_ALIGNED_VLOAD_f16(i, p) ZR_VLOAD_f16(i, p)
#define ZR_ALIGNED_VLOAD_bool(i, p) ZR_VLOAD_bool(i, p)

#define ZR_FOLD2(C, acc, x) acc = C(C(acc, (x).s0), (x).s1)
#define ZR_FOLD4(C, acc, x) acc = C(C(C(C(acc, (x).s0), (x).s1), (x).s2), (x).s3)
#define ZR_FOLD8(C, acc, x) \
  ZR_FOLD4(C, acc, (x).s0123); \
  ZR_FOLD4(C, acc, (x).s4567)
#define ZR_FOLD16(C, acc, x) \
  ZR_FOLD8(C, acc, (x).s01234567); \
  ZR_FOLD8(C, acc, (x).s89abcdef)
#define ZR_FOLD_2(C, acc, x) ZR_FOLD2(C, acc, x)
#define ZR_FOLD_4(C, acc, x) ZR_FOLD4(C, acc, x)
#define ZR_FOLD_8(C, acc, x) ZR_FOLD8(C, acc, x)
#define ZR_FOLD_16(C, acc, x) ZR_FOLD16(C, acc, x)
#define ZR_FOLD_N(N, C, acc, x) ZR_FOLD_##N(C, acc, x)
#define ZR_FOLD(N, C, acc, x) ZR_FOLD_N(N, C, acc, x)

// acc = acc combined (C) with this work-item's share of in[0, n), each loaded vector first transformed by
// XV(XT, VT, v) from VT (ZR_VTYPE_##TN) into XT (a vector of ZR_VEC_##TN accumulator lanes) and each tail element by XS(AT, x) into AT,
// the accumulator type. The plain reductions take them as they are (ZR_GRID_ACCUMULATE); the
// transform-reductions (zr_transform.h) square, compare or widen them here, on the way in.
#define ZR_GRID_FOLD_TRANSFORMED(C, XV, XT, XS, AT, TN, in, n, acc)                   \
  do {                                                                                \
    const ulong zr_vectors_ = (n) / ZR_VEC_##TN;                                      \
    const ulong zr_stride_ = get_global_size(0);                                      \
    ulong zr_v_ = get_global_id(0);                                                   \
    for (; zr_v_ + zr_stride_ < zr_vectors_; zr_v_ += 2 * zr_stride_) {               \
      const XT zr_x_ = XV(XT, ZR_VTYPE_##TN, ZR_VLOAD_##TN(zr_v_, in));                              \
      const XT zr_y_ = XV(XT, ZR_VTYPE_##TN, ZR_VLOAD_##TN(zr_v_ + zr_stride_, in));                 \
      ZR_FOLD(ZR_VEC_##TN, C, acc, zr_x_);                                            \
      ZR_FOLD(ZR_VEC_##TN, C, acc, zr_y_);                                            \
    }                                                                                 \
    if (zr_v_ < zr_vectors_) {                                                        \
      const XT zr_x_ = XV(XT, ZR_VTYPE_##TN, ZR_VLOAD_##TN(zr_v_, in));                              \
      ZR_FOLD(ZR_VEC_##TN, C, acc, zr_x_);                                            \
    }                                                                                 \
    for (ulong zr_i_ = zr_vectors_ * ZR_VEC_##TN + get_global_id(0); zr_i_ < (n); zr_i_ += zr_stride_) \
      acc = C(acc, XS(AT, ZR_LOAD_##TN(in, zr_i_)));                                  \
  } while (0)

#define ZR_AS_IS(TYPE, x) (x)
#define ZR_AS_IS_VECTOR(XT, VT, v) (v)

// acc = acc combined with this work-item's share of in[0, n).
#define ZR_GRID_ACCUMULATE(OP, TN, ATN, in, n, acc) \
  ZR_GRID_FOLD_TRANSFORMED(ZR_COMBINE(OP, ATN), ZR_AS_IS_VECTOR, ZR_VTYPE_##TN, ZR_AS_IS, void, TN, in, n, acc)

#endif  // ZR_GRID_H
