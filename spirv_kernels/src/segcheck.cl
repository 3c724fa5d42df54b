// Variant "segcheck": the check of a segmented reduction's offsets where they lie in device memory
// (runtime/core/plans/segment_check.hpp), so that the host reads a few bytes per group instead of every offset.
// Segment s is [bounds[s], bounds[s + end_step]) as segments.cl reads it (end_step 1: segments + 1 offsets; end_step
// `segments`: begin and end arrays stored one after the other). A segment is bad when a bound is negative (where
// signed_bounds), past n, or its end is below its begin, or it is empty where refuse_empty. Each group writes four
// 64-bit values to partials[4 * group ..]: its first bad segment (ULONG_MAX: none), its longest and shortest good
// segments (0 and ULONG_MAX when it has none) and the sum of their lengths (saturated at ULONG_MAX). The host folds
// the groups and, for a bad segment, reads its two bounds to say what is wrong with them.
// Entry points zr_segcheck_u32 (4-byte bounds) and zr_segcheck_u64 (8-byte), type classes bits32 and bits64.
// Arguments: (bounds uint|ulong, segments, end_step, n, signed_bounds, refuse_empty, partials ulong, scratch local
//             ulong[4 x local size]); the group's size a power of two.
#if defined(ZR_CLASS_BITS32)
#define ZR_CHECK_TN u32
#define ZR_CHECK_T uint
#define ZR_CHECK_NEGATIVE(v) ((int)(v) < 0)
// Four bounds a load where they are 16-byte aligned and each segment ends at the next bound: the segments of lanes
// (k, k + 1), then (3, the next vector's first).
#define ZR_CHECK_V 4
#define ZR_CHECK_VT uint4
#define ZR_CHECK_PAIRS(F, v, s) F((v).s0, (v).s1, (s)) F((v).s1, (v).s2, (s) + 1) F((v).s2, (v).s3, (s) + 2)
#define ZR_CHECK_LAST(v) (v).s3
// A vector's four segments checked at once in 32 bits where all four are good (the quick test in the kernel): each
// segment's checks in 64 bits took the H200 107 us for 50.6 million offsets (1.9 TB/s).
#define ZR_CHECK_QUICK 1
#elif defined(ZR_CLASS_BITS64)
#define ZR_CHECK_TN u64
#define ZR_CHECK_T ulong
#define ZR_CHECK_NEGATIVE(v) ((long)(v) < 0)
#define ZR_CHECK_V 2
#define ZR_CHECK_VT ulong2
#define ZR_CHECK_PAIRS(F, v, s) F((v).s0, (v).s1, (s))
#define ZR_CHECK_LAST(v) (v).s1
#endif
#define ZR_CHECK_NAME(TN) ZR_CHECK_NAME_(TN)
#define ZR_CHECK_NAME_(TN) zr_segcheck_##TN

// Segment s from `begin` to `end`: a bad one lowers *first_bad, a good one raises *longest, lowers *shortest and adds
// its length to *covered.
static inline void zr_check_segment(ZR_CHECK_T begin, ZR_CHECK_T end, ulong s, ulong n, uint signed_bounds,
                                    uint refuse_empty, ulong* first_bad, ulong* longest, ulong* shortest,
                                    ulong* covered) {
  const bool negative = signed_bounds && (ZR_CHECK_NEGATIVE(begin) || ZR_CHECK_NEGATIVE(end));
  const bool bad = negative || (ulong)begin > n || (ulong)end > n || end < begin || (refuse_empty && end == begin);
  if (bad) {
    *first_bad = min(*first_bad, s);
  } else {
    const ulong length = (ulong)(end - begin);
    *longest = max(*longest, length);
    *shortest = min(*shortest, length);
    *covered = add_sat(*covered, length);
  }
}

kernel void ZR_CHECK_NAME(ZR_CHECK_TN)(global const ZR_CHECK_T* bounds, ulong segments, ulong end_step, ulong n,
                                       uint signed_bounds, uint refuse_empty, global ulong* partials,
                                       local ulong* scratch) {
  ulong first_bad = ULONG_MAX, longest = 0, shortest = ULONG_MAX, covered = 0;
#define ZR_CHECK_ONE(begin, end, s) \
  zr_check_segment((begin), (end), (s), n, signed_bounds, refuse_empty, &first_bad, &longest, &shortest, &covered);
  // Segments + 1 offsets at a 16-byte boundary: a vector of bounds a work-item at a time, then the rest one by one.
  // (H200: scalar loads read 268 million offsets at 1.7 TB/s.)
  ulong vectored = 0;
  if (end_step == 1 && ((ulong)bounds & 15) == 0) {
    const ulong vectors = segments / ZR_CHECK_V;
#if defined(ZR_CHECK_QUICK)
    // The longest segment that passed the quick test, in 32 bits (bounds of 32 bits: no length is wider).
    uint quick_longest = 0;
#endif
    for (ulong q = get_global_id(0); q < vectors; q += get_global_size(0)) {
      const ZR_CHECK_VT v = ((global const ZR_CHECK_VT*)bounds)[q];
      const ulong s = q * ZR_CHECK_V;
      const ZR_CHECK_T after = bounds[s + ZR_CHECK_V];
#if defined(ZR_CHECK_QUICK)
      // Bounds that never decrease (increase, where refuse_empty) up to a last one within n are four good segments,
      // whose lengths sum to the last bound less the first. Where signed_bounds, a last bound that is not negative
      // makes every bound in between not negative either. Anything else is looked at segment by segment.
      const uint4 ends = (uint4)(v.s123, after);
      // (no select between the two compares: SPIR-V 1.3 selects vectors by a vector of conditions only)
      const int4 ordered = (ends > v) | ((ends == v) & (int4)(refuse_empty ? 0 : -1));
      if (all(ordered) & ((ulong)after <= n) & (!signed_bounds | ((int)after >= 0))) {
        const uint4 lengths = ends - v;
        quick_longest = max(quick_longest, max(max(lengths.s0, lengths.s1), max(lengths.s2, lengths.s3)));
        shortest = min(shortest, (ulong)min(min(lengths.s0, lengths.s1), min(lengths.s2, lengths.s3)));
        covered = add_sat(covered, (ulong)(after - v.s0));
      } else
#endif
      {
        ZR_CHECK_PAIRS(ZR_CHECK_ONE, v, s)
        ZR_CHECK_ONE(ZR_CHECK_LAST(v), after, s + ZR_CHECK_V - 1)
      }
    }
#if defined(ZR_CHECK_QUICK)
    longest = max(longest, (ulong)quick_longest);
#endif
    vectored = vectors * ZR_CHECK_V;
  }
  for (ulong s = vectored + get_global_id(0); s < segments; s += get_global_size(0))
    ZR_CHECK_ONE(bounds[s], bounds[s + end_step], s)
#undef ZR_CHECK_ONE
  const uint lid = (uint)get_local_id(0);
  const uint size = (uint)get_local_size(0);
  local ulong* bad_slots = scratch;
  local ulong* longest_slots = scratch + size;
  local ulong* shortest_slots = scratch + 2 * size;
  local ulong* covered_slots = scratch + 3 * size;
  bad_slots[lid] = first_bad;
  longest_slots[lid] = longest;
  shortest_slots[lid] = shortest;
  covered_slots[lid] = covered;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint step = size >> 1; step > 0; step >>= 1) {
    if (lid < step) {
      bad_slots[lid] = min(bad_slots[lid], bad_slots[lid + step]);
      longest_slots[lid] = max(longest_slots[lid], longest_slots[lid + step]);
      shortest_slots[lid] = min(shortest_slots[lid], shortest_slots[lid + step]);
      covered_slots[lid] = add_sat(covered_slots[lid], covered_slots[lid + step]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    global ulong* out = partials + 4 * get_group_id(0);
    out[0] = bad_slots[0];
    out[1] = longest_slots[0];
    out[2] = shortest_slots[0];
    out[3] = covered_slots[0];
  }
}
