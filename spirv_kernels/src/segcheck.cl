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
#elif defined(ZR_CLASS_BITS64)
#define ZR_CHECK_TN u64
#define ZR_CHECK_T ulong
#define ZR_CHECK_NEGATIVE(v) ((long)(v) < 0)
#endif
#define ZR_CHECK_NAME(TN) ZR_CHECK_NAME_(TN)
#define ZR_CHECK_NAME_(TN) zr_segcheck_##TN

kernel void ZR_CHECK_NAME(ZR_CHECK_TN)(global const ZR_CHECK_T* bounds, ulong segments, ulong end_step, ulong n,
                                       uint signed_bounds, uint refuse_empty, global ulong* partials,
                                       local ulong* scratch) {
  ulong first_bad = ULONG_MAX, longest = 0, shortest = ULONG_MAX, covered = 0;
  for (ulong s = get_global_id(0); s < segments; s += get_global_size(0)) {
    const ZR_CHECK_T begin = bounds[s];
    const ZR_CHECK_T end = bounds[s + end_step];
    const bool negative = signed_bounds && (ZR_CHECK_NEGATIVE(begin) || ZR_CHECK_NEGATIVE(end));
    const bool bad = negative || (ulong)begin > n || (ulong)end > n || end < begin || (refuse_empty && end == begin);
    if (bad) {
      first_bad = min(first_bad, s);  // the grid-stride walk meets a work-item's segments in order
    } else {
      const ulong length = (ulong)(end - begin);
      longest = max(longest, length);
      shortest = min(shortest, length);
      covered = add_sat(covered, length);
    }
  }
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
