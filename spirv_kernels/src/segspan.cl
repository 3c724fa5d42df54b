// Variants "segspan" and "segjoin": a segmented reduction whose work is split by elements, not by segments
// (runtime/core/plans/segmented.cpp, for skewed sizes: a few huge segments among many tiny ones). Segments as in
// segments.cl (offsets of offset_bytes 4 or 8, clamped to n; the host has checked that they never decrease).
//   segspan: a group per span of `span` consecutive elements (a multiple of its tile, lanes x ZR_SPAN_ITEMS),
//            grid-strided over the spans. The group reads its span a tile at a time: each lane loads its
//            ZR_SPAN_ITEMS consecutive positions into registers with 16-byte loads, the segments that begin in the
//            tile are marked as heads in local memory, then each lane folds its positions, and a segmented scan
//            over the lanes joins the runs that cross lanes
//            (and, through a carry, tiles). A segment that begins and ends inside the span (and an empty one
//            that begins there, or at n in the last span) is stored at once, after its initial value when
//            include_initial. A segment that crosses a span boundary leaves two pieces per span:
//              pieces[2c]     the fold of span c's elements in the segment holding its first element, when that
//                             segment begins at or before the span (else the identity);
//              pieces[2c + 1] the fold of span c's elements in a segment that begins after its first element
//                             and runs past its end (else the identity);
//            and opened[c] names the segment that begins in span c and runs past it (~0 when none).
//   segjoin: a work-item per span c with opened[c] = s: segment s spans c..e, and pieces[first, 2e + 1) with
//            first = 2c (s begins at the span's first element) or 2c + 1 holds exactly its pieces in order (a span
//            inside s has pieces[2k + 1] = identity). Up to serial_pieces of them are folded by the work-item;
//            longer runs are listed in local memory and folded one after another by the whole group (strided
//            lanes, then the local tree), so that a huge segment is not left to one work-item.
// segspan: (in T, n, offsets, offset_bytes, segments, span, pieces ACC, opened ulong, result T, identity,
//           include_initial, heads local uint[slots], scan_values local ACC[2 lanes + 1],
//           scan_ids local uint[2 lanes][, staged local ACC[lanes x ZR_SPAN_ITEMS] where the variant stages its
//           results]) with slots = ZR_TILE_SLOT(lanes x ZR_SPAN_ITEMS) + 6 (three round counts, and up to three to
//           reach a 16-byte boundary);
//           needs segments < 2^32 - 1
//           (heads hold segment numbers relative to the tile's first).
// segjoin: (pieces ACC, opened ulong, n, offsets, offset_bytes, segments, span, serial_pieces, result T, identity,
//           include_initial, scratch local ACC, listed local ulong, listed_count local uint)
#include "zr_grid.h"
#include "zr_group_tree.h"
#include "zr_segments.h"

// How many bounds (of segments 0..segments) lie below `at`, given that those before index lo do and those from
// index hi on do not: the first segment that may hold or begin at element `at` is one less (the last to begin
// before it). Steps of falling powers of two, written without a short-circuit condition (a plain bisection's
// selects become a "freeze" that llvm-spirv-15 rejects).
static inline ulong zr_bounds_below(global const uchar* offsets, uint offset_bytes, ulong lo, ulong hi, ulong at, ulong n) {
  ulong count = lo;
  for (ulong step = (ulong)1 << (63 - clz((hi - lo) | 1)); step > 0; step >>= 1) {
    const ulong probe = min(count + step, hi);
    if ((count + step <= hi) & (zr_segment_bound(offsets, offset_bytes, 0, probe - 1, n) < at)) count = probe;
  }
  return count;
}

// The hooks where the variants differ (what a lane loads, how a segment's result is stored, the kernels' further
// parameters): a variant's header defines them all and ZR_SPAN_HOOKS before it includes this file (zr_span_keys.h,
// zr_span_transform.h), and ZR_SPAN_STAGES with ZR_FINISH_SEGMENT_FROM where it stages its results (below); the plain
// ops' are these.
#if !defined(ZR_SPAN_HOOKS)
#define ZR_FINISH_SEGMENT(OP, TN, T, ATN, acc, s)                                \
  do {                                                                          \
    if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, s), acc); \
    ZR_STORE_##TN(result, s, acc);                                              \
  } while (0)
#define ZR_SPAN_LOAD_LANE(ACC, TN, KOP, KACC, v, in, aligned, first, t1, identity) \
  ZR_LOAD_LANE_ITEMS(ZR_SPAN_ITEMS(ACC), ACC, TN, v, in, aligned, first, t1, identity)
#define ZR_JOIN_INPUT_PARAM(T)
#define ZR_SPAN_PROLOGUE(KOP)
#define ZR_SPAN_VALUE_PARAM(KACC)
#endif

#if defined(ZR_SEGMENT_JOIN)
// Where segment s's pieces lie in `pieces` when it begins in span c: [*first, *last).
static inline void zr_span_pieces(global const uchar* offsets, uint offset_bytes, ulong n, ulong spans, ulong span,
                                  ulong s, ulong c, ulong* first, ulong* last) {
  const ulong begin = zr_segment_bound(offsets, offset_bytes, 0, s, n);
  const ulong end = max(begin + 1, zr_segment_bound(offsets, offset_bytes, 0, s + 1, n));
  *first = begin == c * span ? 2 * c : 2 * c + 1;
  *last = max(*first, min(2 * spans, 2 * ((end - 1) / span) + 1));
}

#define ZR_JOIN_KERNEL(NAME, OP, TN, T, ACC, ATN, RT, KOP)                                                      \
  kernel void NAME(global const ACC* restrict pieces, global const ulong* restrict opened, ulong n,              \
                   global const uchar* offsets, uint offset_bytes, ulong segments, ulong span, uint serial_pieces, \
                   global RT* result, ACC identity, uint include_initial, local ACC* scratch, local ulong* listed, \
                   local uint* listed_count ZR_JOIN_INPUT_PARAM(T)) {                                            \
    ZR_SPAN_PROLOGUE(KOP)                                                                                       \
    const uint lid = (uint)get_local_id(0);                                                                     \
    const ulong lsize = get_local_size(0);                                                                      \
    const ulong spans = (n + span - 1) / span;                                                                  \
    const ulong blocks = (spans + lsize - 1) / lsize;                                                           \
    for (ulong block = get_group_id(0); block < blocks; block += get_num_groups(0)) {                           \
      if (lid == 0) *listed_count = 0;                                                                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
      const ulong c = block * lsize + lid;                                                                      \
      const ulong s = c < spans ? opened[c] : ~(ulong)0;                                                        \
      if (s < segments) {                                                                                       \
        ulong first, last;                                                                                      \
        zr_span_pieces(offsets, offset_bytes, n, spans, span, s, c, &first, &last);                             \
        if (last - first <= serial_pieces) {                                                                    \
          ACC acc = identity;                                                                                   \
          for (ulong i = first; i < last; ++i) acc = ZR_COMBINE(OP, ATN)(acc, pieces[i]);                       \
          ZR_FINISH_SEGMENT(OP, TN, T, ATN, acc, s);                                                               \
        } else {                                                                                                \
          listed[atomic_inc(listed_count)] = c;                                                                 \
        }                                                                                                       \
      }                                                                                                         \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
      /* The block's long segments, one after another with all the group's lanes: the order of the list does    \
         not change any segment's result. */                                                                    \
      const uint long_segments = *listed_count;                                                                 \
      for (uint k = 0; k < long_segments; ++k) {                                                                \
        const ulong c_long = listed[k];                                                                         \
        const ulong s_long = opened[c_long];                                                                    \
        ulong first, last;                                                                                      \
        zr_span_pieces(offsets, offset_bytes, n, spans, span, s_long, c_long, &first, &last);                   \
        /* Eight chains per lane, so that a huge segment's pieces (one group for all of them) are read with     \
           eight loads in flight per lane rather than one. */                                                   \
        ACC a0 = identity, a1 = identity, a2 = identity, a3 = identity;                                         \
        ACC a4 = identity, a5 = identity, a6 = identity, a7 = identity;                                         \
        ulong i = first + lid;                                                                                  \
        for (; i + 7 * lsize < last; i += 8 * lsize) {                                                          \
          a0 = ZR_COMBINE(OP, ATN)(a0, pieces[i]);                                                              \
          a1 = ZR_COMBINE(OP, ATN)(a1, pieces[i + lsize]);                                                      \
          a2 = ZR_COMBINE(OP, ATN)(a2, pieces[i + 2 * lsize]);                                                  \
          a3 = ZR_COMBINE(OP, ATN)(a3, pieces[i + 3 * lsize]);                                                  \
          a4 = ZR_COMBINE(OP, ATN)(a4, pieces[i + 4 * lsize]);                                                  \
          a5 = ZR_COMBINE(OP, ATN)(a5, pieces[i + 5 * lsize]);                                                  \
          a6 = ZR_COMBINE(OP, ATN)(a6, pieces[i + 6 * lsize]);                                                  \
          a7 = ZR_COMBINE(OP, ATN)(a7, pieces[i + 7 * lsize]);                                                  \
        }                                                                                                       \
        for (; i < last; i += lsize) a0 = ZR_COMBINE(OP, ATN)(a0, pieces[i]);                                   \
        ACC acc = ZR_COMBINE(OP, ATN)(ZR_COMBINE(OP, ATN)(ZR_COMBINE(OP, ATN)(a0, a1), ZR_COMBINE(OP, ATN)(a2, a3)), \
                                      ZR_COMBINE(OP, ATN)(ZR_COMBINE(OP, ATN)(a4, a5), ZR_COMBINE(OP, ATN)(a6, a7))); \
        ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                        \
        if (lid == 0) ZR_FINISH_SEGMENT(OP, TN, T, ATN, acc, s_long);                                              \
        /* The next segment's tree overwrites the scratch slot that every work-item has just read. */           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
      }                                                                                                         \
    }                                                                                                           \
  }
#else
// Where position p of a tile's heads lies in local memory: four pad slots every 32, so that a lane's run of
// ZR_SPAN_ITEMS consecutive positions starts on a 16-byte boundary (read as uint4) and the uint4 reads of
// neighbouring lanes fall in different banks. The three round counts of the marking follow the last position.
#define ZR_TILE_SLOT(p) ((p) + 4 * ((p) >> 5))
#define ZR_NO_HEAD 0xffffffffu
// The segment of a run that began before the group's span (its lead piece): no segment number.
#define ZR_BEFORE_SPAN (~(ulong)0)

// A lane's run of consecutive tile positions, held in registers (a compile-time count, so that the array is
// unrolled into them).
// 16 positions, 8 for 8-byte accumulators (as many registers as 16 of 4 bytes: 16 spilled on PVC).
#define ZR_SPAN_ITEMS(ACC) ((uint)(sizeof(ACC) == 8 ? 8 : 16))

// A variant whose hooks define ZR_SPAN_STAGES (zr_span_keys.h) stages the results of the segments that begin and end
// in a tile in local memory, each at its end's position (the head that closes it: no other non-empty segment ends
// there), and stores them once the tile is done, consecutive lanes on consecutive segments; the others store each
// result from the lane that closes its segment, scattered over the tile's positions. Empty segments are stored by the
// marking, segments that began in an earlier tile by their closing lane, in both.
#if defined(ZR_SPAN_STAGES)
#define ZR_SPAN_STAGED_PARAM(ACC) , local ACC* staged
#define ZR_TILE_CLOSES(OP, TN, T, ATN, acc, s, position) staged[position] = (acc)
// After the tile's last barrier: every non-empty segment taken but the run still open (the carry) and the end bound;
// then a barrier, as the next tile's lanes stage where these were read.
#define ZR_STORE_STAGED(OP, TN, T, ACC, ATN)                                                                \
  do {                                                                                                      \
    for (ulong zr_s_ = base + lid; zr_s_ < next; zr_s_ += lsize) {                                          \
      if ((zr_s_ < segments) & (zr_s_ != carry_segment)) {                                                  \
        const ulong zr_b_ = narrow ? ZR_BOUND32_UP_TO_END((uint)zr_s_) : ZR_BOUND_UP_TO_END(zr_s_);         \
        const ulong zr_e_ = narrow ? ZR_BOUND32_UP_TO_END((uint)zr_s_ + 1) : ZR_BOUND_UP_TO_END(zr_s_ + 1); \
        if (zr_e_ > zr_b_) {                                                                                \
          ACC zr_acc_ = staged[zr_e_ - t0];                                                                 \
          ZR_FINISH_SEGMENT_FROM(OP, TN, T, ATN, zr_acc_, zr_s_, zr_b_);                                    \
        }                                                                                                   \
      }                                                                                                     \
    }                                                                                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
  } while (0)
#else
#define ZR_SPAN_STAGED_PARAM(ACC)
#define ZR_TILE_CLOSES(OP, TN, T, ATN, acc, s, position) \
  do {                                                    \
    (void)(position);                                     \
    ZR_FINISH_SEGMENT(OP, TN, T, ATN, acc, s);            \
  } while (0)
#define ZR_STORE_STAGED(OP, TN, T, ACC, ATN) \
  do {                                       \
  } while (0)
#endif

// v[k..k+N) = the N lanes of vector x, converted to the accumulator type.
#define ZR_SPLIT_2(v, k, x) \
  v[(k)] = (x).s0;          \
  v[(k) + 1] = (x).s1
#define ZR_SPLIT_4(v, k, x)    \
  ZR_SPLIT_2(v, k, (x).s01);   \
  ZR_SPLIT_2(v, (k) + 2, (x).s23)
#define ZR_SPLIT_8(v, k, x)      \
  ZR_SPLIT_4(v, k, (x).s0123);   \
  ZR_SPLIT_4(v, (k) + 4, (x).s4567)
#define ZR_SPLIT_16(v, k, x)         \
  ZR_SPLIT_8(v, k, (x).s01234567);   \
  ZR_SPLIT_8(v, (k) + 8, (x).s89abcdef)
#define ZR_SPLIT_N(N, v, k, x) ZR_SPLIT_##N(v, k, x)
#define ZR_SPLIT(N, v, k, x) ZR_SPLIT_N(N, v, k, x)

// v[0, ITEMS) = in[first, first + ITEMS) as VT, the identity at and past t1: 16-byte loads (first is a multiple of
// ITEMS) when the run lies before t1 and holds a whole vector (vector-typed ones when the input is 16-byte aligned),
// element by element in the input's last tile.
#define ZR_LOAD_LANE_ITEMS(ITEMS, VT, TN, v, in, aligned, first, t1, identity)                                 \
  do {                                                                                                   \
    if (((ITEMS) >= ZR_VEC_##TN) & ((first) + (ITEMS) <= (t1))) {                                                          \
      if (aligned) {                                                                                     \
        _Pragma("unroll") for (uint zr_j_ = 0; zr_j_ < (ITEMS) / ZR_VEC_##TN; ++zr_j_) {      \
          const ZR_VTYPE_##TN zr_x_ = ZR_ALIGNED_VLOAD_##TN((first) / ZR_VEC_##TN + zr_j_, in);          \
          ZR_SPLIT(ZR_VEC_##TN, v, zr_j_ * ZR_VEC_##TN, zr_x_);                                          \
        }                                                                                                \
      } else {                                                                                           \
        _Pragma("unroll") for (uint zr_j_ = 0; zr_j_ < (ITEMS) / ZR_VEC_##TN; ++zr_j_) {      \
          const ZR_VTYPE_##TN zr_x_ = ZR_VLOAD_##TN((first) / ZR_VEC_##TN + zr_j_, in);                  \
          ZR_SPLIT(ZR_VEC_##TN, v, zr_j_ * ZR_VEC_##TN, zr_x_);                                          \
        }                                                                                                \
      }                                                                                                  \
    } else {                                                                                             \
      _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < (ITEMS); ++zr_k_)                        \
        v[zr_k_] = (first) + zr_k_ < (t1) ? (VT)ZR_LOAD_##TN(in, (first) + zr_k_) : (identity);         \
    }                                                                                                    \
  } while (0)

// Bound s for s up to `segments` (the end bound), 0 past it; uses the kernel's offsets, offset_bytes, segments, n.
#define ZR_BOUND_UP_TO_END(s) ((s) <= segments ? zr_segment_bound(offsets, offset_bytes, 0, (s), n) : 0)
// The same in 32 bits, for 32-bit offsets into fewer than 2^32 elements (segments, n as uint: segments32, n32).
#define ZR_BOUND32_UP_TO_END(s) ((s) <= segments32 ? min(((global const uint*)offsets)[s], n32) : 0u)

// Whether segment s, beginning at bound b, is taken into the tile [t0, T1): the end bound (s = SEGMENTS) when it lies
// inside, a segment when it begins inside (empty segments at N belong to the last tile). Bounds never decrease, so
// the segments taken are a prefix of those from `next` on.
#define ZR_SPAN_TAKES(s, b, SEGMENTS, N, T1) \
  ((s) == (SEGMENTS) ? (b) < (T1) : ((s) < (SEGMENTS)) & (((b) < (T1)) | (((b) == (N)) & ((T1) == (N)))))

// Segment s (bounds [b, e)) of rank `rank` among those from `next` on, taken into the tile: a head for a non-empty
// one (and for the end bound), the identity (after the initial value) stored now for an empty one. The last one
// taken (the next, bounded by e, is not, or the round ends with it) writes the round's count: one writer and no
// atomics.
#define ZR_MARK_SEGMENT(OP, TN, T, ATN, ACC, s, b, e, rank, rank_is_last, SEGMENTS, N, T1)     \
  if (ZR_SPAN_TAKES(s, b, SEGMENTS, N, T1)) {                                               \
    if (((s) == (SEGMENTS)) | ((e) > (b))) {                                                \
      tile_heads[ZR_TILE_SLOT((uint)((b) - t0))] = (uint)((s) - base);                      \
    } else {                                                                                \
      ACC zr_empty_ = identity;                                                             \
      ZR_FINISH_SEGMENT(OP, TN, T, ATN, zr_empty_, (s));                                       \
    }                                                                                       \
    if ((rank_is_last) || !ZR_SPAN_TAKES((s) + 1, e, SEGMENTS, N, T1)) *taken_count = (rank) + 1; \
  }

// Segments a lane marks in a round with 32-bit bounds: one per four tile positions, so that a tile whose segments
// average four positions or more is marked in one round. Two with 64-bit bounds (four spilled on PVC).
#define ZR_MARKS_PER_LANE(ACC) (ZR_SPAN_ITEMS(ACC) / 4)
#define ZR_WIDE_MARKS_PER_LANE 2

// A marking round: the lane's MARKS consecutive segments from next + lid x MARKS, their bounds and the one after
// them loaded together (each segment's end is the next one's beginning), in index type IT through BOUND.
#define ZR_MARK_ROUND(OP, TN, T, ATN, ACC, MARKS, IT, BOUND, SEGMENTS, N, T1)                              \
  do {                                                                                                  \
    const IT zr_s_ = (IT)next + lid * (MARKS);                                                          \
    IT zr_b_[(MARKS) + 1];                                                                              \
    _Pragma("unroll") for (uint zr_j_ = 0; zr_j_ <= (MARKS); ++zr_j_) zr_b_[zr_j_] = BOUND(zr_s_ + zr_j_); \
    _Pragma("unroll") for (uint zr_j_ = 0; zr_j_ < (MARKS); ++zr_j_) {                                  \
      ZR_MARK_SEGMENT(OP, TN, T, ATN, ACC, zr_s_ + zr_j_, zr_b_[zr_j_], zr_b_[zr_j_ + 1], lid * (MARKS) + zr_j_, \
                      (lid + 1 == lsize) & (zr_j_ + 1 == (MARKS)), SEGMENTS, N, T1);                    \
    }                                                                                                   \
  } while (0)

// The run open after the lanes up to scan slot `slot`: (segment, value) = the carry from the tiles before with
// the slot's fold after it, when no head lies at or before the slot's lane; else the last head's segment and the
// fold since it. Uses the kernel's scan_ids, scan_values, base, carry and carry_segment.
#define ZR_RUN_THROUGH(OP, ATN, slot, segment, value)              \
  do {                                                             \
    const uint zr_head_ = scan_ids[slot];                          \
    if (zr_head_ == ZR_NO_HEAD) {                                  \
      (value) = ZR_COMBINE(OP, ATN)(carry, scan_values[slot]);     \
      (segment) = carry_segment;                                   \
    } else {                                                       \
      (value) = scan_values[slot];                                 \
      (segment) = base + zr_head_;                                 \
    }                                                              \
  } while (0)

#define ZR_SPAN_KERNEL(NAME, OP, TN, T, ACC, ATN, RT, KOP, KACC)                                                \
  kernel void NAME(global const T* restrict in, ulong n, global const uchar* offsets, uint offset_bytes,         \
                   ulong segments, ulong span, global ACC* restrict pieces, global ulong* restrict opened,       \
                   global RT* result, ACC identity, uint include_initial, local uint* heads,                     \
                   local ACC* scan_values, local uint* scan_ids ZR_SPAN_STAGED_PARAM(ACC)                       \
                       ZR_SPAN_VALUE_PARAM(KACC)) {                                                             \
    ZR_SPAN_PROLOGUE(KOP)                                                                                       \
    const uint lid = (uint)get_local_id(0);                                                                     \
    const uint lsize = (uint)get_local_size(0);                                                                 \
    /* The heads from a 16-byte boundary, for the lanes' uint4 reads: a local argument is promised only its     \
       element's alignment (NVIDIA's PTX declares .align 4), and the host gives three slots more. */            \
    local uint* const tile_heads = heads + ((16 - ((uint)(uintptr_t)heads & 15)) & 15) / 4;                     \
    const ulong tile = (ulong)lsize * ZR_SPAN_ITEMS(ACC);                                                       \
    const uint lane_first = lid * ZR_SPAN_ITEMS(ACC);                                                           \
    const bool aligned = ((ulong)in & 15) == 0;                                                                 \
    /* 32-bit offsets into fewer than 2^32 elements: the marking's bounds and compares in 32 bits (and segment  \
       numbers, so few enough that a round's last rank + 1 does not wrap) */                                    \
    const bool narrow = (offset_bytes == 4) & (n <= 0xffffffffu) &                                              \
                        (segments < 0xffffffffu - ZR_MARKS_PER_LANE(ACC) * (ulong)lsize - 2);                   \
    const uint segments32 = (uint)segments, n32 = (uint)n;                                                      \
    const uint round_marks = (narrow ? ZR_MARKS_PER_LANE(ACC) : ZR_WIDE_MARKS_PER_LANE) * lsize;                \
    const ulong spans = (n + span - 1) / span;                                                                  \
    /* A marking round's count: three slots in turn, so that one barrier a round suffices. Round r's slot was   \
       cleared in round r - 1 (before its barrier); lane 0 clears round r + 1's, last read in round r - 2, which \
       every lane left at round r - 1's barrier. */                                                             \
    local uint* const round_counts = tile_heads + ZR_TILE_SLOT(tile);                                           \
    uint round_slot = 0;                                                                                        \
    local ACC* const lead_slot = scan_values + 2 * lsize;                                                       \
    local uint4* const lane_heads = (local uint4*)(tile_heads + ZR_TILE_SLOT(lane_first));                      \
    for (ulong p = lid; p < tile; p += lsize) tile_heads[ZR_TILE_SLOT(p)] = ZR_NO_HEAD;                         \
    if (lid < 3) round_counts[lid] = 0;                                                                         \
    if (lid == 0) *lead_slot = identity;                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                               \
    for (ulong c = get_group_id(0); c < spans; c += get_num_groups(0)) {                                        \
      const ulong a = c * span;                                                                                 \
      const ulong z = min(n, a + span);                                                                         \
      /* The first segment that begins at or after a (segments + 1: none, the end bound included). */           \
      ulong next = zr_bounds_below(offsets, offset_bytes, 0, segments + 1, a, n);                               \
      ulong carry_segment = ZR_BEFORE_SPAN;                                                                     \
      ACC carry = identity;                                                                                     \
      ulong t0 = a; /* a < z: at least one tile (a do-while: llvm-spirv-15 misorders the guarded loop's exit) */ \
      do {                                                                                                      \
        const ulong t1 = min(z, t0 + tile);                                                                     \
        /* Heads: heads[slot of b - t0] = s - base for each non-empty segment s beginning at b in the tile,     \
           and for the end bound (s = segments) when it lies inside; empty ones are stored now. Every           \
           position is written at most once: non-empty segments begin at distinct positions. */                 \
        const ulong base = next;                                                                                \
        uint taken;                                                                                             \
        do {                                                                                                    \
          local uint* const taken_count = round_counts + round_slot;                                            \
          round_slot = round_slot == 2 ? 0 : round_slot + 1;                                                    \
          if (lid == 0) round_counts[round_slot] = 0;                                                           \
          if (narrow)                                                                                           \
            ZR_MARK_ROUND(OP, TN, T, ATN, ACC, ZR_MARKS_PER_LANE(ACC), uint, ZR_BOUND32_UP_TO_END, segments32, n32, \
                          (uint)t1);                                                                            \
          else                                                                                                  \
            ZR_MARK_ROUND(OP, TN, T, ATN, ACC, ZR_WIDE_MARKS_PER_LANE, ulong, ZR_BOUND_UP_TO_END, segments, n, t1);  \
          barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
          taken = *taken_count;                                                                                 \
          next += taken;                                                                                        \
        } while (taken == round_marks);                                                                         \
        /* (loaded after the marking, so that the values and the marking's bounds are not in registers at once: \
           together they spilled on PVC) */                                                                     \
        ACC v[ZR_SPAN_ITEMS(ACC)];                                                                              \
        ZR_SPAN_LOAD_LANE(ACC, TN, KOP, KACC, v, in, aligned, t0 + lane_first, t1, identity);                    \
        /* Each lane's run of ZR_SPAN_ITEMS positions: runs that begin and end inside it are whole segments; the \
           part before its first head and the part from its last head on go through the scan. */                \
        ACC first = identity, run = identity;                                                                   \
        uint run_head = ZR_NO_HEAD;                                                                             \
        uint first_at = 0; /* where the lane's first head lies in its run */                                    \
        _Pragma("unroll") for (uint j = 0; j < ZR_SPAN_ITEMS(ACC) / 4; ++j) {                                   \
          const uint4 zr_heads_ = lane_heads[j];                                                                \
          uint lane_head[4];                                                                                    \
          ZR_SPLIT_4(lane_head, 0, zr_heads_);                                                                  \
          lane_heads[j] = (uint4)(ZR_NO_HEAD); /* for the next tile's marks */                                  \
          _Pragma("unroll") for (uint k = 0; k < 4; ++k) {                                                      \
            if (lane_head[k] != ZR_NO_HEAD) {                                                                   \
              if (run_head == ZR_NO_HEAD) {                                                                     \
                first = run;                                                                                    \
                first_at = 4 * j + k;                                                                           \
              } else {                                                                                          \
                ZR_TILE_CLOSES(OP, TN, T, ATN, run, base + run_head, lane_first + 4 * j + k);                   \
              }                                                                                                 \
              run = identity;                                                                                   \
              run_head = lane_head[k];                                                                          \
            }                                                                                                   \
            run = ZR_COMBINE(OP, ATN)(run, v[4 * j + k]);                                                       \
          }                                                                                                     \
        }                                                                                                       \
        const uint has_head = run_head != ZR_NO_HEAD;                                                           \
        /* Segmented inclusive scan over the lanes: each slot ends as the fold since the last head at or        \
           before its lane (and that head), or of every lane so far when there was none. */                     \
        uint scan_head = run_head;                                                                              \
        ACC scanned = run;                                                                                      \
        uint from = 0; /* two buffers: each step reads one and writes the other, one barrier a step */          \
        scan_ids[lid] = scan_head;                                                                              \
        scan_values[lid] = scanned;                                                                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
        for (uint d = 1; d < lsize; d <<= 1) {                                                                  \
          if ((lid >= d) & (scan_head == ZR_NO_HEAD)) {                                                         \
            scanned = ZR_COMBINE(OP, ATN)(scan_values[from + lid - d], scanned);                                \
            scan_head = scan_ids[from + lid - d];                                                               \
          }                                                                                                     \
          from = lsize - from;                                                                                  \
          scan_ids[from + lid] = scan_head;                                                                     \
          scan_values[from + lid] = scanned;                                                                    \
          barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
        }                                                                                                       \
        if (has_head) { /* the run ending at this lane's first head comes from the lanes before it */           \
          ulong closed_segment = carry_segment;                                                                 \
          ACC closed = carry;                                                                                   \
          if (lid > 0) ZR_RUN_THROUGH(OP, ATN, from + lid - 1, closed_segment, closed);                         \
          closed = ZR_COMBINE(OP, ATN)(closed, first);                                                          \
          if (closed_segment == ZR_BEFORE_SPAN) *lead_slot = closed;                                            \
          else if ((closed_segment >= base) & (closed_segment < segments))                                      \
            ZR_TILE_CLOSES(OP, TN, T, ATN, closed, closed_segment, lane_first + first_at);                      \
          else if (closed_segment < segments) ZR_FINISH_SEGMENT(OP, TN, T, ATN, closed, closed_segment);        \
        }                                                                                                       \
        ZR_RUN_THROUGH(OP, ATN, from + lsize - 1, carry_segment, carry);                                        \
        /* The next tile's marks and scan overwrite what every lane has just read. */                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
        ZR_STORE_STAGED(OP, TN, T, ACC, ATN);                                                                   \
        t0 += tile;                                                                                             \
      } while (t0 < z);                                                                                         \
      /* The run still open at the span's end, as segjoin reads pieces (see the top of the file). */            \
      if (lid == 0) {                                                                                           \
        ACC lead = *lead_slot, tail = identity;                                                                 \
        *lead_slot = identity; /* for the next span */                                                          \
        ulong open = ~(ulong)0;                                                                                 \
        if (carry_segment == ZR_BEFORE_SPAN) {                                                                  \
          lead = carry;                                                                                         \
        } else if (carry_segment < segments) {                                                                  \
          const ulong begin = zr_segment_bound(offsets, offset_bytes, 0, carry_segment, n);                     \
          if (zr_segment_bound(offsets, offset_bytes, 0, carry_segment + 1, n) > z) {                           \
            open = carry_segment;                                                                               \
            if (begin == a) lead = carry;                                                                       \
            else tail = carry;                                                                                  \
          } else {                                                                                              \
            ZR_FINISH_SEGMENT(OP, TN, T, ATN, carry, carry_segment);                                               \
          }                                                                                                     \
        }                                                                                                       \
        pieces[2 * c] = lead;                                                                                   \
        pieces[2 * c + 1] = tail;                                                                               \
        opened[c] = open;                                                                                       \
      }                                                                                                         \
      barrier(CLK_LOCAL_MEM_FENCE); /* the lead slot's reset */                                                 \
    }                                                                                                           \
  }
#endif

#if !defined(ZR_SPAN_HOOKS)
#if defined(ZR_SEGMENT_JOIN)
#define ZR_SEGMENT_JOIN_ENTRY(OP, TN, T, ACC, ATN) ZR_JOIN_KERNEL(zr_segjoin_##OP##_##TN, OP, TN, T, ACC, ATN, T, OP)
ZR_FOR_EACH_PAIR(ZR_SEGMENT_JOIN_ENTRY)
#else
#define ZR_SEGMENT_SPAN_ENTRY(OP, TN, T, ACC, ATN) \
  ZR_SPAN_KERNEL(zr_segspan_##OP##_##TN, OP, TN, T, ACC, ATN, T, OP, ACC)
ZR_FOR_EACH_PAIR(ZR_SEGMENT_SPAN_ENTRY)
#endif
#endif
