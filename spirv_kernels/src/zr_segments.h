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
#endif
