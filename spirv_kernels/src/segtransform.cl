// Variants "segt", "segtcpu", "segm" and "segmcpu": transform-reductions (zr_transform.h: norms, sums of squares,
// counts, widened sums) and means and variances (zr_moments.h) per segment, in one read, with no temporary array.
// Segment s is bounded as in segments.cl (zr_segments.h: offsets, begin and end arrays, or equal segments), clamped
// to n; an empty segment gives the empty accumulator (0, a count of 0). A piece is slice k of segment s
// (piece = s * slices + k).
//   segt, segm:       2^lanes_log2 work-items ("lanes") per piece, the group's size / lanes pieces at a time,
//                     grid-strided over blocks of pieces. Each lane folds every lanes-th element of its piece in
//                     order, then the lanes merge pairwise in local memory. One slice: the piece's lane 0 stores the
//                     segment's result. More slices (then lanes = the group's size, a piece per group): the group
//                     writes partials[k * segments + s] and counts itself in arrivals[s]; the segment's last group
//                     to arrive merges the slices in slice order, stores the result and sets arrivals[s] back to 0
//                     for the next run (as lastgroup.cl, whose comments explain the fences).
//                     Skewed sizes (defer_above > 0, one slice): a segment longer than defer_above is left to a
//                     second launch (listed = 1, a group per slice of about slice_elements), its slices appended to
//                     `deferred` (ZR_DEFERRED_SLICES), side by side; a segment of several slices is merged in slice
//                     order by its last group to finish, as above, from partials and arrivals indexed by list entry.
//                     The second launch's last group sets the counters back to 0 (as segarg.cl).
//   segtcpu, segmcpu: the same on CPU devices without barriers or fences (PoCL 5's work-group compiler asserts on
//                     barriers in loops: segarg.cl; PoCL 3's kernel library has no mem_fence): a work-item per piece
//                     (launch with local size 1), and with slices a second launch (joining = 1), a work-item per
//                     segment merging its slices in order.
// Every segment is folded in an order set by the launch shape alone: results are deterministic.
// GPU: (in T, n, offsets, offset_bytes, length, segments, slices, lanes_log2, partials ACC, arrivals uint[segments],
//       result RT[segments], value, scratch local ACC, end_step, defer_above, deferred, listed, slice_elements)
// CPU: (in T, n, offsets, offset_bytes, length, segments, slices, partials ACC, joining, result RT[segments], value,
//       end_step)
// value: count_equal's value (LANE), ignored by the other transforms; a uint, ignored, for means and variances.
#include "zr_segments.h"
#include "zr_strided_fold.h"
#include "zr_vector_rows.h"

// The further argument of every ADD step: count_equal's value (ignored by the others).
#define ZR_SEGACC_VALUE , value

// Where piece (s, k) of a segment cut into `count` slices begins (first) and ends (last).
#define ZR_SEGACC_PIECE(s, k, count, first, last)                                                \
  const ulong zr_begin_ = zr_segment_bound(offsets, offset_bytes, length, s, n);                 \
  const ulong zr_end_ = zr_segment_end(offsets, offset_bytes, length, s, end_step, zr_begin_, n); \
  const ulong zr_per_slice_ = ZR_SLICE_LENGTH(zr_end_ - zr_begin_, (count));                     \
  const ulong first = zr_begin_ + min(zr_end_ - zr_begin_, (k) * zr_per_slice_);                 \
  const ulong last = zr_begin_ + min(zr_end_ - zr_begin_, ((k) + 1) * zr_per_slice_)

// segt reads equal rows as 16-byte vectors where it can (zr_vector_rows.h): lane k folds vectors k, k + lanes, ...
// of its row, each in element order. segm keeps the element loads (Intel's compiler spilled in its f64 kernels).
#if defined(ZR_SEGACC_MOMENTS)
#define ZR_SEGACC_ROW_VECTORS 0
#else
#define ZR_SEGACC_ROW_VECTORS 1
#endif
// One loaded vector x of N elements into acc, ADD(acc, x.sK, value) for K in order.
#define ZR_SEGACC_ADD_2(ADD, acc, x) acc = ADD(ADD(acc, (x).s0, value), (x).s1, value)
#define ZR_SEGACC_ADD_4(ADD, acc, x) \
  acc = ADD(ADD(ADD(ADD(acc, (x).s0, value), (x).s1, value), (x).s2, value), (x).s3, value)
#define ZR_SEGACC_ADD_8(ADD, acc, x) \
  ZR_SEGACC_ADD_4(ADD, acc, (x).s0123); \
  ZR_SEGACC_ADD_4(ADD, acc, (x).s4567)
#define ZR_SEGACC_ADD_16(ADD, acc, x)             \
  ZR_SEGACC_ADD_8(ADD, acc, (x).s01234567); \
  ZR_SEGACC_ADD_8(ADD, acc, (x).s89abcdef)
#define ZR_SEGACC_ADD_N(N, ADD, acc, x) ZR_SEGACC_ADD_##N(ADD, acc, x)
#define ZR_SEGACC_ADD_VECTOR(N, ADD, acc, x) ZR_SEGACC_ADD_N(N, ADD, acc, x)

// Rows s, s + 1, ... of one element each from the N lanes of loaded vector x: each row's result from the empty
// accumulator.
#define ZR_SEGACC_ONE_ROW(ADD, NONE, STORE, s, x) STORE(result, (s), ADD(NONE(), (x), value))
#define ZR_SEGACC_ONE_ROWS_2(ADD, NONE, STORE, s, x) \
  ZR_SEGACC_ONE_ROW(ADD, NONE, STORE, s, (x).s0);    \
  ZR_SEGACC_ONE_ROW(ADD, NONE, STORE, (s) + 1, (x).s1)
#define ZR_SEGACC_ONE_ROWS_4(ADD, NONE, STORE, s, x)  \
  ZR_SEGACC_ONE_ROWS_2(ADD, NONE, STORE, s, (x).s01); \
  ZR_SEGACC_ONE_ROWS_2(ADD, NONE, STORE, (s) + 2, (x).s23)
#define ZR_SEGACC_ONE_ROWS_8(ADD, NONE, STORE, s, x)    \
  ZR_SEGACC_ONE_ROWS_4(ADD, NONE, STORE, s, (x).s0123); \
  ZR_SEGACC_ONE_ROWS_4(ADD, NONE, STORE, (s) + 4, (x).s4567)
#define ZR_SEGACC_ONE_ROWS_16(ADD, NONE, STORE, s, x)       \
  ZR_SEGACC_ONE_ROWS_8(ADD, NONE, STORE, s, (x).s01234567); \
  ZR_SEGACC_ONE_ROWS_8(ADD, NONE, STORE, (s) + 8, (x).s89abcdef)
#define ZR_SEGACC_ONE_ROWS_N(N, ADD, NONE, STORE, s, x) ZR_SEGACC_ONE_ROWS_##N(ADD, NONE, STORE, s, x)
#define ZR_SEGACC_ONE_ROWS(N, ADD, NONE, STORE, s, x) ZR_SEGACC_ONE_ROWS_N(N, ADD, NONE, STORE, s, x)

// The GPU kernels' list of deferred slices: four uint counters (the slices listed, the second launch's groups done,
// two unused: the entries are 16-byte aligned), then one entry per slice: (segment, slices << 32 | slice).
#define ZR_DEFERRED_SLICES(deferred) ((global ulong2*)((deferred) + 4))
// Lists segment s, of `length` elements, as ceil(length / slice_elements) slices (one lane does it).
#define ZR_DEFER_SLICES(deferred, s, length, slice_elements)                        \
  do {                                                                              \
    const ulong zr_count_ = ((length) + (slice_elements) - 1) / (slice_elements);   \
    const uint zr_start_ = atomic_add((deferred), (uint)zr_count_);                 \
    for (ulong zr_j_ = 0; zr_j_ < zr_count_; ++zr_j_)                               \
      ZR_DEFERRED_SLICES(deferred)[zr_start_ + zr_j_] = (ulong2)((s), (zr_count_ << 32) | zr_j_); \
  } while (0)

// Piece `piece`'s segment s and its slice k of `count`: from the launch's slices, or listed, from its entry (a group
// per piece, so every work-item of the group sees the same count).
#define ZR_SEGACC_SLICE(piece, s, k, count)                                                        \
  const ulong2 zr_entry_##s = listed && (piece) < pieces ? ZR_DEFERRED_SLICES(deferred)[piece]     \
                                                         : (ulong2)(ZR_PIECE_OF(piece, slices), 0); \
  const ulong s = zr_entry_##s.s0;                                                                 \
  const uint k = listed ? (uint)zr_entry_##s.s1 : (uint)((piece) - s * slices);                    \
  const uint count = listed ? (uint)(zr_entry_##s.s1 >> 32) : (uint)slices

// The lanes of each piece merged pairwise in local memory: lane 0's acc becomes the piece's fold. Every work-item
// of the group takes part (the barriers are the group's).
#define ZR_SEGACC_LANE_TREE(MERGE, acc, scratch, lid, lane, lanes)                                   \
  do {                                                                                               \
    (scratch)[lid] = (acc);                                                                          \
    if ((lanes) > 1) barrier(CLK_LOCAL_MEM_FENCE); /* one lane reads back its own slot */            \
    for (uint zr_step_ = (lanes) >> 1; zr_step_ > 0; zr_step_ >>= 1) {                               \
      if ((lane) < zr_step_) (scratch)[lid] = MERGE((scratch)[lid], (scratch)[(lid) + zr_step_]);    \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    }                                                                                                \
    (acc) = (scratch)[lid];                                                                          \
  } while (0)

// A family's accumulator: LT an element as the loads give it (the accumulator's type for means and variances),
// ACC, NONE() the empty one, ADD(acc, x, value) one loaded element, MERGE(a, b), LOAD_PARTIAL(&part, done, i) from a
// volatile global array (into a private variable: a function returning a struct leaves alias scopes in its inlined
// loads, which llvm-spirv-15 writes where spirv-val rejects them), STORE(result, s, acc) a segment's finished
// result (RT).
#if defined(ZR_SEGACC_CPU)
#include "zr_cpu_device_kernel.h"
#define ZR_SEGACC_KERNEL(NAME, T, TN, LT, ACC, NONE, ADD, MERGE, LOAD_PARTIAL, STORE, RT, VT)                   \
  ZR_CPU_DEVICE_KERNEL void NAME(global const T* restrict in, ulong n, global const uchar* offsets,         \
                                 uint offset_bytes, ulong length, ulong segments, ulong slices,             \
                                 global ACC* partials, uint joining, global RT* result, VT value,           \
                                 ulong end_step) {                                                          \
    if (joining) {                                                                                          \
      for (ulong s = get_global_id(0); s < segments; s += get_global_size(0)) {                             \
        ACC acc = NONE();                                                                                   \
        for (ulong j = 0; j < slices; ++j) {                                                                \
          ACC part;                                                                                         \
          LOAD_PARTIAL(&part, partials, j * segments + s);                                                  \
          acc = MERGE(acc, part);                                                                           \
        }                                                                                                   \
        STORE(result, s, acc);                                                                              \
      }                                                                                                     \
      return;                                                                                               \
    }                                                                                                       \
    const ulong pieces = segments * slices;                                                                 \
    for (ulong piece = get_global_id(0); piece < pieces; piece += get_global_size(0)) {                     \
      const ulong s = ZR_PIECE_OF(piece, slices);                                                           \
      const ulong k = piece - s * slices;                                                                   \
      ZR_SEGACC_PIECE(s, k, slices, first, last);                                                           \
      ACC acc = NONE();                                                                                     \
      /* A do-while: llvm-spirv-15 misplaces the blocks of a for loop whose count LLVM rewrites (segmcpu). */ \
      if (first < last) {                                                                                   \
        ulong i = first;                                                                                    \
        do acc = ADD(acc, ZR_LOAD_##TN(in, i), value);                                                      \
        while (++i < last);                                                                                 \
      }                                                                                                     \
      if (slices == 1) STORE(result, s, acc);                                                               \
      else partials[k * segments + s] = acc;                                                                \
    }                                                                                                       \
  }
#else
#define ZR_SEGACC_KERNEL(NAME, T, TN, LT, ACC, NONE, ADD, MERGE, LOAD_PARTIAL, STORE, RT, VT)                   \
  kernel void NAME(global const T* restrict in, ulong n, global const uchar* offsets, uint offset_bytes,    \
                   ulong length, ulong segments, ulong slices, uint lanes_log2, global ACC* partials,       \
                   global uint* arrivals, global RT* result, VT value, local ACC* scratch, ulong end_step,       \
                   ulong defer_above, global uint* deferred, uint listed, ulong slice_elements) {                \
    local uint is_last[1];                                                                                  \
    const uint lid = (uint)get_local_id(0);                                                                 \
    const uint lanes = 1u << lanes_log2;                                                                    \
    const uint lane = lid & (lanes - 1);                                                                    \
    const ulong per_group = get_local_size(0) >> lanes_log2;                                                \
    const ulong pieces = listed ? (ulong)deferred[0] : segments * slices;                                   \
    const ulong blocks = (pieces + per_group - 1) / per_group;                                              \
    const bool vectors = ZR_SEGACC_ROW_VECTORS && ZR_ROW_VECTORS(TN, in, offset_bytes, length);             \
    /* Rows of one element, a work-item each: a 16-byte vector of rows at a time (the general path below, a  \
       piece's work for each row, read them at 0.26 of the H200's bandwidth: bench/results/segt_single_rows_*). */ \
    if (ZR_SEGACC_ROW_VECTORS && ZR_ROW_VECTOR_LOADS_##TN && offset_bytes == 0 && length == 1 && slices == 1 && \
        lanes_log2 == 0 && !listed && segments <= n && ((ulong)in & 15) == 0) {                             \
      const ulong row_vectors = segments / ZR_VEC_##TN;                                                     \
      for (ulong v = get_global_id(0); v < row_vectors; v += get_global_size(0)) {                         \
        const ZR_VTYPE_##TN x = ZR_ALIGNED_VLOAD_##TN(v, in);                                               \
        ZR_SEGACC_ONE_ROWS(ZR_VEC_##TN, ADD, NONE, STORE, v * ZR_VEC_##TN, x);                              \
      }                                                                                                     \
      for (ulong s = row_vectors * ZR_VEC_##TN + get_global_id(0); s < segments; s += get_global_size(0))  \
        STORE(result, s, ADD(NONE(), ZR_LOAD_##TN(in, s), value));                                         \
      return;                                                                                               \
    }                                                                                                       \
    for (ulong block = get_group_id(0); block < blocks; block += get_num_groups(0)) {                       \
      const ulong piece = block * per_group + (lid >> lanes_log2);                                          \
      ACC acc = NONE();                                                                                     \
      uint store = piece < pieces;                                                                          \
      if (store) {                                                                                          \
        ZR_SEGACC_SLICE(piece, s, k, count);                                                                \
        ZR_SEGACC_PIECE(s, k, count, first, last);                                                          \
        if (defer_above > 0 && last - first > defer_above) {                                                \
          store = 0;                                                                                        \
          if (lane == 0) ZR_DEFER_SLICES(deferred, s, last - first, slice_elements);                        \
        } else {                                                                                            \
          if (vectors && !listed && count == 1 && last - first == length)                                   \
            ZR_VECTOR_RUN_FOLD4(ZR_VTYPE_##TN, ZR_ROW_VLOAD, (global const ZR_VTYPE_##TN*)in,                 \
                               ZR_SEGACC_ADD_VECTOR, ZR_VEC_##TN, ADD, acc, first / ZR_VEC_##TN + lane,        \
                               last / ZR_VEC_##TN, lanes);                                                    \
          else                                                                                              \
            ZR_STRIDED_FOLD(LT, ADD, ZR_SEGACC_VALUE, TN, acc, in, first + lane, last, lanes);              \
        }                                                                                                   \
      }                                                                                                     \
      /* The branches to barriers test kernel arguments (or local memory), never a count read from global   \
         memory, though it is the same for the whole group: a listed segment of one slice takes the merge. */ \
      ZR_SEGACC_LANE_TREE(MERGE, acc, scratch, lid, lane, lanes);                                           \
      /* Read again rather than kept through the fold (Intel's compiler spilled in segm's f64 kernels). */   \
      ZR_SEGACC_SLICE(piece, s, k, count);                                                                  \
      if (!listed && slices == 1) {                                                                         \
        if (lane == 0 && store) STORE(result, s, acc);                                                      \
      } else {                                                                                              \
        /* lanes = the group's size: this group holds one piece. Its partial's slot and the slot counting   \
           the segment's slices done: listed, by entry (a segment's side by side); else by segment. */       \
        const ulong arrive_at = listed ? piece - k : s;                                                     \
        if (lid == 0) partials[listed ? piece : k * segments + s] = acc;                                    \
        barrier(CLK_GLOBAL_MEM_FENCE);                                                                      \
        if (lid == 0) is_last[0] = atomic_inc(arrivals + arrive_at) == count - 1;                           \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                                \
        if (is_last[0]) {                                                                                   \
          const volatile global ACC* done = partials;                                                       \
          /* The segment's slices: listed, side by side from arrive_at; else a column of the partials. */   \
          const ulong first_part = listed ? arrive_at : s, part_step = listed ? 1 : segments;               \
          acc = NONE();                                                                                     \
          for (ulong j = lid; j < count; j += get_local_size(0)) {                                          \
            ACC part;                                                                                       \
            LOAD_PARTIAL(&part, done, first_part + j * part_step);                                          \
            acc = MERGE(acc, part);                                                                         \
          }                                                                                                 \
          ZR_SEGACC_LANE_TREE(MERGE, acc, scratch, lid, lid, (uint)get_local_size(0));                      \
          if (lid == 0) {                                                                                   \
            STORE(result, s, acc);                                                                          \
            arrivals[arrive_at] = 0;                                                                        \
          }                                                                                                 \
        }                                                                                                   \
      }                                                                                                     \
      /* The next block's lanes overwrite the slots just read, and is_last. */                              \
      if (lanes > 1 || slices > 1 || listed) barrier(CLK_LOCAL_MEM_FENCE);                                  \
    }                                                                                                       \
    /* The listing launch's last group resets the counters. */                                               \
    ZR_RESET_DEFERRED(listed, deferred)                                                                      \
  }
#endif

#if defined(ZR_SEGACC_MOMENTS)
#include "zr_moments.h"
#if defined(ZR_SEGACC_CPU)
#define ZR_SEGACC_NAME(OP, TN) zr_segmcpu_##OP##_##TN
#else
#define ZR_SEGACC_NAME(OP, TN) zr_segm_##OP##_##TN
#endif
// Volatile partials are read a field at a time (as mlast.cl does).
#define ZR_SEGM_ACCUMULATOR(A, ATN)                                                                             \
  static inline zr_moments_##ATN zr_segm_add_##ATN(zr_moments_##ATN s, A x, uint unused) {                      \
    return zr_moments_merge_##ATN(s, zr_moments_one_##ATN(x));                                                  \
  }                                                                                                             \
  static inline void zr_segm_load_##ATN(private zr_moments_##ATN* to, const volatile global zr_moments_##ATN* done, \
                                        ulong i) {                                                              \
    to->count = done[i].count;                                                                                  \
    to->mean = done[i].mean;                                                                                    \
    to->m2 = done[i].m2;                                                                                        \
  }                                                                                                             \
  static inline void zr_segm_store_##ATN(global zr_moments_##ATN* result, ulong s, zr_moments_##ATN acc) {      \
    zr_moments_store_##ATN(result + s, acc);                                                                    \
  }
ZR_SEGM_ACCUMULATOR(float, f32)
#if defined(ZR_CLASS_BASEFP64) || defined(ZR_CLASS_FP64) || defined(ZR_CLASS_F16FP64)
ZR_SEGM_ACCUMULATOR(double, f64)
#endif
#define ZR_SEGM_KERNEL(OP, TN, T, A, ATN)                                                                       \
  ZR_SEGACC_KERNEL(ZR_SEGACC_NAME(OP, TN), T, TN, A, zr_moments_##ATN, zr_moments_none_##ATN, zr_segm_add_##ATN, \
                   zr_moments_merge_##ATN, zr_segm_load_##ATN, zr_segm_store_##ATN, zr_moments_##ATN, uint)
ZR_FOR_EACH_MOMENTS(ZR_SEGM_KERNEL)
#else
#include "zr_transform.h"
#if defined(ZR_SEGACC_CPU)
#define ZR_SEGACC_NAME(OP, TN) zr_segtcpu_##OP##_##TN
#else
#define ZR_SEGACC_NAME(OP, TN) zr_segt_##OP##_##TN
#endif
// Each class uses only some of these accumulators.
#define ZR_SEGT_MAYBE_UNUSED static inline __attribute__((unused))
ZR_SEGT_MAYBE_UNUSED ulong zr_segt_none_u64(void) { return 0; }
ZR_SEGT_MAYBE_UNUSED float zr_segt_none_f32(void) { return 0; }
ZR_SEGT_MAYBE_UNUSED void zr_segt_load_u64(private ulong* to, const volatile global ulong* done, ulong i) { *to = done[i]; }
ZR_SEGT_MAYBE_UNUSED void zr_segt_load_f32(private float* to, const volatile global float* done, ulong i) { *to = done[i]; }
#if defined(ZR_CLASS_FP64) || defined(ZR_CLASS_F32FP64) || defined(ZR_CLASS_F16FP64)
ZR_SEGT_MAYBE_UNUSED double zr_segt_none_f64(void) { return 0; }
ZR_SEGT_MAYBE_UNUSED void zr_segt_load_f64(private double* to, const volatile global double* done, ulong i) { *to = done[i]; }
#endif
// The per-op element step and finish (a square root for norm_l2), then the kernel.
#define ZR_SEGT_KERNEL(OP, TN, T, LANE, ACC, ATN, RT, RTN)                                                      \
  static inline ACC zr_segt_add_##OP##_##TN(ACC acc, LANE x, LANE value) {                                      \
    return zr_tsum_##ATN(acc, ZR_XS_##OP(ACC, x));                                                              \
  }                                                                                                             \
  static inline void zr_segt_store_##OP##_##TN(global RT* result, ulong s, ACC acc) {                           \
    ZR_STORE_##RTN(result, s, ZR_FINISH_##OP(acc));                                                             \
  }                                                                                                             \
  ZR_SEGACC_KERNEL(ZR_SEGACC_NAME(OP, TN), T, TN, LANE, ACC, zr_segt_none_##ATN, zr_segt_add_##OP##_##TN,       \
                   zr_tsum_##ATN, zr_segt_load_##ATN, zr_segt_store_##OP##_##TN, RT, LANE)
ZR_FOR_EACH_TRANSFORM(ZR_SEGT_KERNEL)
#endif
