// Where segment s of a segmented reduction begins (segments.cl, segcpu.cl): offsets[s] of offset_bytes (4 or 8)
// bytes, or s * length for equal segments (offset_bytes 0), clamped to n.
#ifndef ZR_SEGMENTS_H
#define ZR_SEGMENTS_H
static inline ulong zr_segment_bound(global const uchar* offsets, uint offset_bytes, ulong length, ulong s, ulong n) {
  const ulong bound = offset_bytes == 0   ? s * length
                      : offset_bytes == 4 ? (ulong)((global const uint*)offsets)[s]
                                          : ((global const ulong*)offsets)[s];
  return min(bound, n);
}

// Where segment s, beginning at `begin`, ends: the bound end_step entries after its begin's (1 for segments + 1
// offsets, and for equal segments; `segments` for begin and end arrays stored one after the other), never below
// its begin.
static inline ulong zr_segment_end(global const uchar* offsets, uint offset_bytes, ulong length, ulong s, ulong end_step,
                                   ulong begin, ulong n) {
  return max(begin, zr_segment_bound(offsets, offset_bytes, length, s + end_step, n));
}

// A piece's fold `acc` (ACC) of segment s, slice k: with one slice the segment's result, folded after its initial
// value when include_initial; with more its partial, partials[k * segments + s], for the column passes. Uses the
// kernel's slices, segments, partials, result and include_initial.
#define ZR_SEGMENT_STORE(OP, TN, ATN, acc, s, k)                             \
  if (slices > 1) {                                                         \
    partials[(k) * segments + (s)] = (acc);                                 \
  } else {                                                                  \
    if (include_initial) (acc) = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, s), acc); \
    ZR_STORE_##TN(result, s, acc);                                          \
  }
// The segment of piece `piece` with `slices` slices each, without a 64-bit division where there is one slice
// (segments of a few elements, one a work-item, would pay one per element).
#define ZR_PIECE_OF(piece, slices) ((slices) == 1 ? (piece) : (piece) / (slices))
// The elements of each slice of a segment of `length` cut into `slices`: no 64-bit division for one slice (a work-item
// per short segment pays it per segment otherwise).
#define ZR_SLICE_LENGTH(length, slices) ((slices) == 1 ? (length) : ((length) + (slices) - 1) / (slices))

// Skewed sizes (segarg.cl, segtransform.cl): a first launch lists each segment longer than its defer_above in
// `deferred` (two uint counters, the segments listed and the listing launch's groups done, then the list of 64-bit
// segment numbers), and a second launch (listed = 1) takes the listed segments, a group each. The number of pieces
// a launch takes; piece `piece`'s segment; appending segment s to the list; and the listing launch's last group
// setting both counters back to 0 for the next run (every group read the count before counting itself).
#define ZR_DEFERRED_LIST(deferred) ((global ulong*)((deferred) + 2))
#define ZR_LAUNCH_PIECES(listed, deferred, segments, slices) ((listed) ? (ulong)(deferred)[0] : (segments) * (slices))
#define ZR_PIECE_SEGMENT(listed, deferred, piece, pieces, slices)                            \
  ((listed) ? ((piece) < (pieces) ? ZR_DEFERRED_LIST(deferred)[piece] : 0) : ZR_PIECE_OF(piece, slices))
#define ZR_DEFER_SEGMENT(deferred, s) (ZR_DEFERRED_LIST(deferred)[atomic_inc(deferred)] = (s))
#define ZR_RESET_DEFERRED(listed, deferred)                                                              \
  if ((listed) && get_local_id(0) == 0 && atomic_inc((deferred) + 1) == (uint)get_num_groups(0) - 1) { \
    (deferred)[0] = 0;                                                                                   \
    (deferred)[1] = 0;                                                                                   \
  }
#endif
