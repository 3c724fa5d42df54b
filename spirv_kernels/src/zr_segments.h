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
#endif
