// Variants "segspan" and "segjoin": a segmented reduction whose work is split by elements, not by segments
// (runtime/core/plans/segmented.cpp, for skewed sizes: a few huge segments among many tiny ones). Segments as in
// segments.cl (offsets of offset_bytes 4 or 8, clamped to n; an end below its begin reads as empty).
//   segspan: a work-item per span of `span` consecutive elements, grid-strided over the spans. It folds, in
//            order, the part of each segment that lies in its span. A segment wholly inside the span (and an
//            empty one that begins there, or at n in the last span) is stored at once, after its initial value
//            when include_initial. A segment that crosses a span boundary leaves two pieces per span:
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
//           include_initial)
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

#define ZR_FINISH_SEGMENT(OP, TN, ATN, acc, s)                             \
  do {                                                                    \
    if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, s), acc); \
    ZR_STORE_##TN(result, s, acc);                                        \
  } while (0)

#if defined(ZR_SEGMENT_JOIN)
// Where segment s's pieces lie in `pieces` when it begins in span c: [*first, *last).
static inline void zr_span_pieces(global const uchar* offsets, uint offset_bytes, ulong n, ulong spans, ulong span,
                                  ulong s, ulong c, ulong* first, ulong* last) {
  const ulong begin = zr_segment_bound(offsets, offset_bytes, 0, s, n);
  const ulong end = max(begin + 1, zr_segment_bound(offsets, offset_bytes, 0, s + 1, n));
  *first = begin == c * span ? 2 * c : 2 * c + 1;
  *last = max(*first, min(2 * spans, 2 * ((end - 1) / span) + 1));
}

#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                  \
  kernel void zr_segjoin_##OP##_##TN(global const ACC* restrict pieces, global const ulong* restrict opened,   \
                                     ulong n, global const uchar* offsets, uint offset_bytes, ulong segments,   \
                                     ulong span, uint serial_pieces, global T* result, ACC identity,            \
                                     uint include_initial, local ACC* scratch, local ulong* listed,            \
                                     local uint* listed_count) {                                               \
    const uint lid = (uint)get_local_id(0);                                                                     \
    const ulong lsize = get_local_size(0);                                                                      \
    const ulong spans = (n + span - 1) / span;                                                                  \
    const ulong blocks = (spans + lsize - 1) / lsize;                                                           \
    for (ulong block = get_group_id(0); block < blocks; block += get_num_groups(0)) {                          \
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
          ZR_FINISH_SEGMENT(OP, TN, ATN, acc, s);                                                               \
        } else {                                                                                                \
          listed[atomic_inc(listed_count)] = c;                                                                 \
        }                                                                                                       \
      }                                                                                                         \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
      /* The block's long segments, one after another with all the group's lanes: the order of the list does   \
         not change any segment's result. */                                                                   \
      const uint long_segments = *listed_count;                                                                 \
      for (uint k = 0; k < long_segments; ++k) {                                                                \
        const ulong c_long = listed[k];                                                                         \
        const ulong s_long = opened[c_long];                                                                    \
        ulong first, last;                                                                                      \
        zr_span_pieces(offsets, offset_bytes, n, spans, span, s_long, c_long, &first, &last);                   \
        /* Eight chains per lane, so that a huge segment's pieces (one group for all of them) are read with      \
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
        ZR_LOCAL_TREE(ZR_COMBINE(OP, ATN), ACC, acc, scratch, identity);                                     \
        if (lid == 0) ZR_FINISH_SEGMENT(OP, TN, ATN, acc, s_long);                                              \
        /* The next segment's tree overwrites the scratch slot that every work-item has just read. */          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
      }                                                                                                         \
    }                                                                                                           \
  }
#else
// A work-item walks its span a segment at a time, straight from global memory (staging the spans and their
// bounds in local memory measured slower on the H100: the groups it allows are too narrow).
#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                  \
  kernel void zr_segspan_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,         \
                                     uint offset_bytes, ulong segments, ulong span, global ACC* restrict pieces, \
                                     global ulong* restrict opened, global T* result, ACC identity,             \
                                     uint include_initial) {                                                    \
    const ulong spans = (n + span - 1) / span;                                                                  \
    for (ulong c = get_global_id(0); c < spans; c += get_global_size(0)) {                                      \
      const ulong a = c * span;                                                                                 \
      const ulong z = min(n, a + span);                                                                         \
      const ulong below = zr_bounds_below(offsets, offset_bytes, 0, segments + 1, a, n);                        \
      ACC lead = identity, tail = identity;                                                                     \
      ulong open = ~(ulong)0;                                                                                   \
      ulong s = max(below, (ulong)1) - 1;                                                                       \
      ulong begin = zr_segment_bound(offsets, offset_bytes, 0, s, n);                                           \
      for (; s < segments; ++s) {                                                                               \
        /* Segments that begin in a later span are its own; empty ones at n belong to the last span. */         \
        if ((begin >= z) & !((z == n) & (begin == n))) break; /* & not &&: no freeze for llvm-spirv-15 */          \
        const ulong next = zr_segment_bound(offsets, offset_bytes, 0, s + 1, n);                                \
        const ulong end = max(begin, next);                                                                     \
        if (end <= a && begin < a) { /* the last to begin before the span ended before it too */                \
          begin = next;                                                                                         \
          continue;                                                                                             \
        }                                                                                                       \
        ACC acc = identity;                                                                                     \
        for (ulong i = max(begin, a); i < min(end, z); ++i) acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, i)); \
        if (end > z) {                                                                                          \
          if (begin <= a) lead = acc;                                                                           \
          else tail = acc;                                                                                      \
          if (begin >= a) open = s;                                                                             \
          break;                                                                                                \
        }                                                                                                       \
        if (begin >= a) ZR_FINISH_SEGMENT(OP, TN, ATN, acc, s);                                                 \
        else lead = acc; /* began in an earlier span: segjoin finishes it */                                    \
        begin = next;                                                                                           \
      }                                                                                                         \
      pieces[2 * c] = lead;                                                                                     \
      pieces[2 * c + 1] = tail;                                                                                 \
      opened[c] = open;                                                                                         \
    }                                                                                                           \
  }
#endif

ZR_FOR_EACH_PAIR(ZR_SEGMENT_KERNEL)
