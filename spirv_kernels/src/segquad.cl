// Variant "segquad" (GPU devices): a segmented reduction over segments of at most one element
// (runtime/core/plans/segmented.cpp; longer ones of a few elements take segitem, segments.cl). Segments as
// segments.cl reads them (zr_segments.h: offsets or equal lengths, clamped to n, end_step). A work-item takes four
// consecutive segments at a time (a quad), grid-strided over the quads, then the last segments mod 4 one each:
// - 32-bit offsets whose bounds neighbours share (end_step 1) come as one uint4 and one uint a quad, not two loads
//   a segment;
// - four one-element segments that follow each other (rows of one, or offsets k, k + 1, ...) are read with one
//   vector load and stored with one vector store where the input and the result allow it. Loads and stores of
//   4 bytes a lane kept NVIDIA's memory below 0.7 of its bandwidth (one-element rows on the H200).
// Its own kernel, not a path of segitem's: segitem with this code beside its loop ran segments of four 1.08-1.16x
// slower on the H200 (the quads' registers, likely, held for the whole kernel), and as quads 1.2-1.8x (a lane's loads
// 64 bytes from its neighbour's instead of 16). Each segment is folded in order from the identity, after its
// initial value when include_initial, as segitem folds it: the results have segitem's bits.
// Arguments: (in T, n, offsets, offset_bytes, length, segments, result T, identity, include_initial, end_step)
#include "zr_segments.h"
#include "zr_types.h"

// How a quad's four elements are loaded and its four results stored: VECTOR (a T4 load or store where the data
// is aligned to 4 elements) or SCALAR (f16 and bool, which are converted on the way in and out).
#define ZR_QUAD_KIND_i8 VECTOR
#define ZR_QUAD_KIND_i16 VECTOR
#define ZR_QUAD_KIND_i32 VECTOR
#define ZR_QUAD_KIND_i64 VECTOR
#define ZR_QUAD_KIND_u8 VECTOR
#define ZR_QUAD_KIND_u16 VECTOR
#define ZR_QUAD_KIND_u32 VECTOR
#define ZR_QUAD_KIND_u64 VECTOR
#define ZR_QUAD_KIND_f32 VECTOR
#define ZR_QUAD_KIND_f64 VECTOR
#define ZR_QUAD_KIND_f16 SCALAR
#define ZR_QUAD_KIND_bool SCALAR
// A result as ZR_STORE_##TN would store it, for the vector store.
#define ZR_QUAD_STORED_i8(v) (v)
#define ZR_QUAD_STORED_i16(v) (v)
#define ZR_QUAD_STORED_i32(v) (v)
#define ZR_QUAD_STORED_i64(v) (v)
#define ZR_QUAD_STORED_u8(v) (v)
#define ZR_QUAD_STORED_u16(v) (v)
#define ZR_QUAD_STORED_u32(v) (v)
#define ZR_QUAD_STORED_u64(v) (v)
#define ZR_QUAD_STORED_f32 ZR_STORED_f32
#define ZR_QUAD_STORED_f64 ZR_STORED_f64

// x[0..4) = in[i, i + 4); `aligned`: i is a multiple of 4 and the input is aligned to 4 elements.
#define ZR_QUAD_LOAD_SCALAR(TN, T, x, in, i, aligned) \
  (void)(aligned);                                                                                               \
  _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < 4; ++zr_k_) x[zr_k_] = ZR_LOAD_##TN(in, (i) + zr_k_)
#define ZR_QUAD_LOAD_VECTOR(TN, T, x, in, i, aligned)          \
  if (aligned) {                                                                                                 \
    const T##4 zr_v_ = ((global const T##4*)(in))[(i) / 4];                                                      \
    x[0] = zr_v_.s0;                                                                                             \
    x[1] = zr_v_.s1;                                                                                             \
    x[2] = zr_v_.s2;                                                                                             \
    x[3] = zr_v_.s3;                                                                                             \
  } else {                                                                                                       \
    ZR_QUAD_LOAD_SCALAR(TN, T, x, in, i, aligned);                                                               \
  }
// result[s, s + 4) = r[0..4); `aligned`: s is a multiple of 4 and the result is aligned to 4 elements.
#define ZR_QUAD_STORE_SCALAR(TN, T, result, s, r, aligned) \
  (void)(aligned);                                                                                               \
  _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < 4; ++zr_k_) ZR_STORE_##TN(result, (s) + zr_k_, r[zr_k_])
#define ZR_QUAD_STORE_VECTOR(TN, T, result, s, r, aligned)                                                    \
  if (aligned) {                                                                                                 \
    ((global T##4*)(result))[(s) / 4] = (T##4)(ZR_QUAD_STORED_##TN(r[0]), ZR_QUAD_STORED_##TN(r[1]),             \
                                               ZR_QUAD_STORED_##TN(r[2]), ZR_QUAD_STORED_##TN(r[3]));            \
  } else {                                                                                                       \
    ZR_QUAD_STORE_SCALAR(TN, T, result, s, r, aligned);                                                          \
  }
#define ZR_QUAD_LOAD(TN, T, x, in, i, aligned) ZR_QUAD_LOAD_OF(ZR_QUAD_KIND_##TN, TN, T, x, in, i, aligned)
#define ZR_QUAD_LOAD_OF(KIND, TN, T, x, in, i, aligned) ZR_QUAD_LOAD_OF_(KIND, TN, T, x, in, i, aligned)
#define ZR_QUAD_LOAD_OF_(KIND, TN, T, x, in, i, aligned) ZR_QUAD_LOAD_##KIND(TN, T, x, in, i, aligned)
#define ZR_QUAD_STORE(TN, T, result, s, r, aligned) ZR_QUAD_STORE_OF(ZR_QUAD_KIND_##TN, TN, T, result, s, r, aligned)
#define ZR_QUAD_STORE_OF(KIND, TN, T, result, s, r, aligned) ZR_QUAD_STORE_OF_(KIND, TN, T, result, s, r, aligned)
#define ZR_QUAD_STORE_OF_(KIND, TN, T, result, s, r, aligned) ZR_QUAD_STORE_##KIND(TN, T, result, s, r, aligned)

// acc = the fold of in[begin, end) from the identity, in order.
#define ZR_ITEM_FOLD(OP, TN, ATN, acc, begin, end) \
  for (ulong zr_i_ = (begin); zr_i_ < (end); ++zr_i_) acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, zr_i_))

#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                   \
  kernel void zr_segquad_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,          \
                                     uint offset_bytes, ulong length, ulong segments, global T* result,          \
                                     ACC identity, uint include_initial, ulong end_step) {                       \
    const ulong stride = get_global_size(0);                                                                     \
    const ulong quad_count = segments / 4;                                                                       \
    const bool bounds_vector = (end_step == 1) & (offset_bytes == 4) & (((ulong)offsets & 15) == 0);             \
    const bool in_aligned = ((ulong)in & (4 * sizeof(T) - 1)) == 0;                                              \
    const bool result_aligned = ((ulong)result & (4 * sizeof(T) - 1)) == 0;                                      \
    for (ulong q = get_global_id(0); q < quad_count; q += stride) {                                              \
      const ulong s = 4 * q;                                                                                     \
      ulong begin[4], end[4];                                                                                    \
      if (bounds_vector) {                                                                                       \
        const uint4 b = ((global const uint4*)offsets)[q];                                                       \
        const ulong after = min((ulong)((global const uint*)offsets)[s + 4], n);                                 \
        begin[0] = min((ulong)b.s0, n);                                                                          \
        begin[1] = min((ulong)b.s1, n);                                                                          \
        begin[2] = min((ulong)b.s2, n);                                                                          \
        begin[3] = min((ulong)b.s3, n);                                                                          \
        /* as zr_segment_end: never below its begin */                                                           \
        end[0] = max(begin[0], begin[1]);                                                                        \
        end[1] = max(begin[1], begin[2]);                                                                        \
        end[2] = max(begin[2], begin[3]);                                                                        \
        end[3] = max(begin[3], after);                                                                           \
      } else {                                                                                                   \
        _Pragma("unroll") for (uint k = 0; k < 4; ++k) {                                                         \
          begin[k] = zr_segment_bound(offsets, offset_bytes, length, s + k, n);                                  \
          end[k] = zr_segment_end(offsets, offset_bytes, length, s + k, end_step, begin[k], n);                  \
        }                                                                                                        \
      }                                                                                                          \
      ACC r[4];                                                                                                  \
      const bool singles = (end[0] == begin[0] + 1) & (begin[1] == end[0]) & (end[1] == begin[1] + 1) &          \
                           (begin[2] == end[1]) & (end[2] == begin[2] + 1) & (begin[3] == end[2]) &              \
                           (end[3] == begin[3] + 1);                                                             \
      if (singles) {                                                                                             \
        ZR_QUAD_LOAD(TN, T, r, in, begin[0], in_aligned & ((begin[0] & 3) == 0));                                \
        _Pragma("unroll") for (uint k = 0; k < 4; ++k) r[k] = ZR_COMBINE(OP, ATN)(identity, r[k]);               \
      } else {                                                                                                   \
        _Pragma("unroll") for (uint k = 0; k < 4; ++k) {                                                         \
          r[k] = identity;                                                                                       \
          ZR_ITEM_FOLD(OP, TN, ATN, r[k], begin[k], end[k]);                                                     \
        }                                                                                                        \
      }                                                                                                          \
      if (include_initial) {                                                                                     \
        ACC initial[4];                                                                                          \
        ZR_QUAD_LOAD(TN, T, initial, result, s, result_aligned);                                                 \
        _Pragma("unroll") for (uint k = 0; k < 4; ++k) r[k] = ZR_COMBINE(OP, ATN)(initial[k], r[k]);             \
      }                                                                                                          \
      ZR_QUAD_STORE(TN, T, result, s, r, result_aligned);                                                        \
    }                                                                                                            \
    for (ulong s = 4 * quad_count + get_global_id(0); s < segments; s += stride) {                               \
      const ulong begin = zr_segment_bound(offsets, offset_bytes, length, s, n);                                 \
      const ulong end = zr_segment_end(offsets, offset_bytes, length, s, end_step, begin, n);                    \
      ACC acc = identity;                                                                                        \
      ZR_ITEM_FOLD(OP, TN, ATN, acc, begin, end);                                                                \
      if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, s), acc);                              \
      ZR_STORE_##TN(result, s, acc);                                                                             \
    }                                                                                                            \
  }

ZR_FOR_EACH_PAIR(ZR_SEGMENT_KERNEL)
