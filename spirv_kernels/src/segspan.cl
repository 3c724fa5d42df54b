// Variants "segspan" and "segjoin": a segmented reduction whose work is split by elements, not by segments
// (runtime/core/plans/segmented.cpp, for skewed sizes: a few huge segments among many tiny ones). Segments as in
// segments.cl (offsets of offset_bytes 4 or 8, clamped to n; the host has checked that they never decrease).
//   segspan: a group per span of `span` consecutive elements (a multiple of its tile, lanes x items), grid-strided
//            over the spans. The group reads its span a tile at a time: the tile's elements staged in local
//            memory with coalesced loads, the segments that begin in it marked as heads, then each lane folds
//            `items` consecutive positions, and a segmented scan over the lanes joins the runs that cross lanes
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
// segspan: (in T, n, offsets, offset_bytes, segments, span, items, pieces ACC, opened ulong, result T, identity,
//           include_initial, values local ACC[slots], heads local uint[slots], scan_values local ACC[2 lanes + 1],
//           scan_heads local uint[2 lanes + 1]) with slots = ZR_TILE_SLOT(lanes x items), items at most
//           ZR_SPAN_MAX_ITEMS; needs segments < 2^32 - 1 (heads hold segment numbers relative to the tile's first).
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
// Where position p of a tile lies in local memory: a pad slot every 32, so that the lanes' runs of `items`
// consecutive positions start in different banks.
#define ZR_TILE_SLOT(p) ((p) + ((p) >> 5))
#define ZR_NO_HEAD 0xffffffffu
// The segment of a run that began before the group's span (its lead piece): no segment number.
#define ZR_BEFORE_SPAN (~(ulong)0)

// At most this many positions per lane (the plan's items): a tile's elements are loaded into registers ahead of it.
#define ZR_SPAN_MAX_ITEMS 16

// The tile at t0 (z: the span's end) into `ahead`: position p = k x lanes + lid of in[t0 + p] for k < items, so
// that neighbouring lanes read neighbouring elements, the identity past z (and for every position when t0 >= z).
// All the loads are issued together, a tile before they are staged, so that their latency passes while the group
// works on the tile before.
#define ZR_LOAD_AHEAD(T, ACC, TN, ahead, in, t0, z, tile, identity, lid, lsize, items)                  \
  do {                                                                                                \
    const uint zr_valid_ = (t0) < (z) ? (uint)min((ulong)(tile), (z) - (t0)) : 0;                     \
    global const T* const zr_at_ = (in) + min((t0), (z));                                             \
    _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < ZR_SPAN_MAX_ITEMS; ++zr_k_) {                      \
      const uint zr_p_ = zr_k_ * (lsize) + (lid);                                                     \
      (ahead)[zr_k_] = ((zr_k_ < (items)) & (zr_p_ < zr_valid_)) ? (ACC)ZR_LOAD_##TN(zr_at_, zr_p_) : (identity); \
    }                                                                                                 \
  } while (0)
#define ZR_STAGE_AHEAD(ahead, values, lid, lsize, items)                                              \
  do {                                                                                                \
    _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < ZR_SPAN_MAX_ITEMS; ++zr_k_)                        \
      if (zr_k_ < (items)) (values)[ZR_TILE_SLOT(zr_k_ * (lsize) + (lid))] = (ahead)[zr_k_];          \
  } while (0)

// Bound s for s up to `segments` (the end bound), 0 past it; uses the kernel's offsets, offset_bytes, segments, n.
#define ZR_BOUND_UP_TO_END(s) ((s) <= segments ? zr_segment_bound(offsets, offset_bytes, 0, (s), n) : 0)

// Whether segment s, beginning at b, is taken into the tile ending at t1: it begins there (empty segments at n
// belong to the last tile), or it is the end bound (s = segments) and lies inside.
static inline uint zr_tile_takes(ulong s, ulong b, ulong segments, ulong t1, ulong n) {
  return s == segments ? b < t1 : (s < segments) & ((b < t1) | ((b == n) & (t1 == n)));
}

// Segment s (bounds [b, e)) when the tile [t0, t1) takes it: a head for a non-empty one (and for the end bound),
// the identity (after the initial value) stored now for an empty one. Taken segments are a prefix of the ranks
// (bounds never decrease), so the last one taken alone sets the count, to its rank + 1.
#define ZR_MARK_SEGMENT(OP, TN, ATN, ACC, s, b, e, rank, last_rank)                              \
  if (zr_tile_takes((s), (b), segments, t1, n)) {                                                \
    if (((e) > (b)) | ((s) == segments)) {                                                       \
      heads[ZR_TILE_SLOT((uint)((b) - t0))] = (uint)((s) - base);                                \
    } else {                                                                                     \
      ACC zr_empty_ = identity;                                                                  \
      ZR_FINISH_SEGMENT(OP, TN, ATN, zr_empty_, (s));                                            \
    }                                                                                            \
    if (((rank) == (last_rank)) | !zr_tile_takes((s) + 1, (e), segments, t1, n)) *taken_count = (rank) + 1; \
  }

#define ZR_SEGMENT_KERNEL(OP, TN, T, ACC, ATN)                                                                  \
  kernel void zr_segspan_##OP##_##TN(global const T* restrict in, ulong n, global const uchar* offsets,         \
                                     uint offset_bytes, ulong segments, ulong span, uint items,                 \
                                     global ACC* restrict pieces, global ulong* restrict opened,                \
                                     global T* result, ACC identity, uint include_initial, local ACC* values,   \
                                     local uint* heads, local ACC* scan_values, local uint* scan_heads) {         \
    const uint lid = (uint)get_local_id(0);                                                                     \
    const uint lsize = (uint)get_local_size(0);                                                                 \
    const uint tile = lsize * items;                                                                            \
    const ulong spans = (n + span - 1) / span;                                                                  \
    local uint* const taken_count = scan_heads + 2 * lsize;                                                       \
    local ACC* const lead_slot = scan_values + 2 * lsize;                                                       \
    for (uint p = lid; p < tile; p += lsize) heads[ZR_TILE_SLOT(p)] = ZR_NO_HEAD;                               \
    if (lid == 0) {                                                                                             \
      *taken_count = 0;                                                                                         \
      *lead_slot = identity;                                                                                    \
    }                                                                                                           \
    for (ulong c = get_group_id(0); c < spans; c += get_num_groups(0)) {                                        \
      const ulong a = c * span;                                                                                 \
      const ulong z = min(n, a + span);                                                                         \
      /* The first segment that begins at or after a (segments + 1: none, the end bound included). */           \
      ulong next = zr_bounds_below(offsets, offset_bytes, 0, segments + 1, a, n);                               \
      ulong carry_segment = ZR_BEFORE_SPAN;                                                                     \
      ACC carry = identity;                                                                                     \
      /* The bounds of the next heads round, loaded as soon as its first segment is known (for a tile's first   \
         round, while the group works on the tile before). */                                                   \
      ulong b0 = ZR_BOUND_UP_TO_END(next + lid), b1 = ZR_BOUND_UP_TO_END(next + lid + lsize);                   \
      ulong b2 = ZR_BOUND_UP_TO_END(next + lid + 2 * lsize), b3 = ZR_BOUND_UP_TO_END(next + lid + 3 * lsize);   \
      ulong e0 = ZR_BOUND_UP_TO_END(next + lid + 1), e1 = ZR_BOUND_UP_TO_END(next + lid + lsize + 1);           \
      ulong e2 = ZR_BOUND_UP_TO_END(next + lid + 2 * lsize + 1);                                                \
      ulong e3 = ZR_BOUND_UP_TO_END(next + lid + 3 * lsize + 1);                                                \
      ACC ahead[ZR_SPAN_MAX_ITEMS];                                                                             \
      ZR_LOAD_AHEAD(T, ACC, TN, ahead, in, a, z, tile, identity, lid, lsize, items);                            \
      ulong t0 = a; /* a < z: at least one tile (a do-while: llvm-spirv-15 misorders the guarded loop's exit) */ \
      do {                                                                                                      \
        const ulong t1 = min(z, t0 + tile);                                                                     \
        ZR_STAGE_AHEAD(ahead, values, lid, lsize, items);                                                       \
        ZR_LOAD_AHEAD(T, ACC, TN, ahead, in, t1, z, tile, identity, lid, lsize, items);                         \
        /* Heads: heads[slot of b - t0] = s - base for each non-empty segment s beginning at b in the tile,      \
           and for the end bound (s = segments) when it lies inside; empty ones are stored now. Every           \
           position is written at most once: non-empty segments begin at distinct positions. */                 \
        const ulong base = next;                                                                                \
        uint taken;                                                                                             \
        do { /* four segments a lane per round */                                                               \
          barrier(CLK_LOCAL_MEM_FENCE); /* the staging, and the count's reset */                                \
          const ulong s0 = next + lid, s1 = s0 + lsize, s2 = s1 + lsize, s3 = s2 + lsize;                       \
          ZR_MARK_SEGMENT(OP, TN, ATN, ACC, s0, b0, e0, lid, 4 * lsize - 1);                                    \
          ZR_MARK_SEGMENT(OP, TN, ATN, ACC, s1, b1, e1, lid + lsize, 4 * lsize - 1);                            \
          ZR_MARK_SEGMENT(OP, TN, ATN, ACC, s2, b2, e2, lid + 2 * lsize, 4 * lsize - 1);                        \
          ZR_MARK_SEGMENT(OP, TN, ATN, ACC, s3, b3, e3, lid + 3 * lsize, 4 * lsize - 1);                        \
          barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
          taken = *taken_count;                                                                                 \
          next += taken;                                                                                        \
          barrier(CLK_LOCAL_MEM_FENCE); /* every lane has read the count before it is reset */                  \
          if (lid == 0) *taken_count = 0;                                                                       \
          b0 = ZR_BOUND_UP_TO_END(next + lid);                                                                  \
          b1 = ZR_BOUND_UP_TO_END(next + lid + lsize);                                                          \
          b2 = ZR_BOUND_UP_TO_END(next + lid + 2 * lsize);                                                      \
          b3 = ZR_BOUND_UP_TO_END(next + lid + 3 * lsize);                                                      \
          e0 = ZR_BOUND_UP_TO_END(next + lid + 1);                                                              \
          e1 = ZR_BOUND_UP_TO_END(next + lid + lsize + 1);                                                      \
          e2 = ZR_BOUND_UP_TO_END(next + lid + 2 * lsize + 1);                                                  \
          e3 = ZR_BOUND_UP_TO_END(next + lid + 3 * lsize + 1);                                                  \
        } while (taken == 4 * lsize);                                                                           \
        /* Each lane's run of `items` positions: a run that begins and ends inside it is a whole segment,     \
           whose value goes to the values slot of its head (read already, and the lane's own); the part before \
           its first head and the part from its last head on go through the scan. */                          \
        ACC first = identity, run = identity;                                                                   \
        uint run_at = ZR_NO_HEAD;                                                                               \
        for (uint k = 0; k < items; ++k) {                                                                      \
          const uint at = lid * items + k;                                                                      \
          if (heads[ZR_TILE_SLOT(at)] != ZR_NO_HEAD) {                                                          \
            if (run_at == ZR_NO_HEAD) first = run;                                                              \
            else values[ZR_TILE_SLOT(run_at)] = run;                                                            \
            run = identity;                                                                                     \
            run_at = at;                                                                                        \
          }                                                                                                     \
          run = ZR_COMBINE(OP, ATN)(run, values[ZR_TILE_SLOT(at)]);                                             \
        }                                                                                                       \
        const uint has_head = run_at != ZR_NO_HEAD;                                                             \
        /* Segmented inclusive scan over the lanes: each slot ends as the fold since the last head at or        \
           before its lane (and that head's position), or of every lane so far when there was none. */          \
        uint scan_at = run_at;                                                                                  \
        ACC scanned = run;                                                                                      \
        uint from = 0; /* two buffers: each step reads one and writes the other, one barrier a step */          \
        scan_heads[lid] = scan_at;                                                                              \
        scan_values[lid] = scanned;                                                                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
        for (uint d = 1; d < lsize; d <<= 1) {                                                                  \
          if ((lid >= d) & (scan_at == ZR_NO_HEAD)) {                                                           \
            scanned = ZR_COMBINE(OP, ATN)(scan_values[from + lid - d], scanned);                                \
            scan_at = scan_heads[from + lid - d];                                                               \
          }                                                                                                     \
          from = lsize - from;                                                                                  \
          scan_heads[from + lid] = scan_at;                                                                     \
          scan_values[from + lid] = scanned;                                                                    \
          barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
        }                                                                                                       \
        if (has_head) { /* the run ending at this lane's first head comes from the lanes before it */          \
          uint closed_at = ZR_NO_HEAD;                                                                          \
          ACC closed = carry;                                                                                   \
          if (lid > 0) {                                                                                        \
            const uint before_at = scan_heads[from + lid - 1];                                                  \
            if (before_at == ZR_NO_HEAD) {                                                                      \
              closed = ZR_COMBINE(OP, ATN)(carry, scan_values[from + lid - 1]);                                 \
            } else {                                                                                            \
              closed_at = before_at;                                                                            \
              closed = scan_values[from + lid - 1];                                                             \
            }                                                                                                   \
          }                                                                                                     \
          closed = ZR_COMBINE(OP, ATN)(closed, first);                                                          \
          if (closed_at != ZR_NO_HEAD) values[ZR_TILE_SLOT(closed_at)] = closed; /* that lane's walk is done */ \
          else if (carry_segment == ZR_BEFORE_SPAN) *lead_slot = closed;                                        \
          else if (carry_segment < segments) ZR_FINISH_SEGMENT(OP, TN, ATN, closed, carry_segment);             \
        }                                                                                                       \
        const uint open_at = scan_heads[from + lsize - 1];                                                      \
        if (open_at == ZR_NO_HEAD) {                                                                            \
          carry = ZR_COMBINE(OP, ATN)(carry, scan_values[from + lsize - 1]);                                    \
        } else {                                                                                                \
          carry_segment = base + heads[ZR_TILE_SLOT(open_at)];                                                  \
          carry = scan_values[from + lsize - 1];                                                                \
        }                                                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
        /* The segments finished in the tile, stored in order of their heads (neighbouring lanes store          \
           neighbouring results), but the one still open; the heads cleared for the next tile. */              \
        for (uint at = lid; at < tile; at += lsize) {                                                           \
          const uint head = heads[ZR_TILE_SLOT(at)];                                                            \
          if (head != ZR_NO_HEAD) {                                                                             \
            heads[ZR_TILE_SLOT(at)] = ZR_NO_HEAD;                                                               \
            const ulong finished = base + head;                                                                 \
            if ((finished < segments) & (at != open_at)) {                                                      \
              ACC value = values[ZR_TILE_SLOT(at)];                                                             \
              ZR_FINISH_SEGMENT(OP, TN, ATN, value, finished);                                                  \
            }                                                                                                   \
          }                                                                                                     \
        }                                                                                                       \
        /* The next tile's staging and scan overwrite what every lane has just read. */                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
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
            ZR_FINISH_SEGMENT(OP, TN, ATN, carry, carry_segment);                                               \
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

ZR_FOR_EACH_PAIR(ZR_SEGMENT_KERNEL)
