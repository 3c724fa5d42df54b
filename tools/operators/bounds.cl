// The smallest and largest f32 values with the index of their first occurrence, and how many values there are:
// a 32-byte accumulator. NaN is skipped (it is neither smallest nor largest, and not counted).
#include <zereduce/user_operator_cl.h>

typedef struct {
  float lo;
  float hi;
  ulong lo_index;
  ulong hi_index;
  uint count;
} bounds;

static bounds empty_bounds(void) {
  bounds b = {INFINITY, -INFINITY, ULONG_MAX, ULONG_MAX, 0};
  return b;
}

static bounds bounds_of(float x, ulong index) {
  if (isnan(x)) return empty_bounds();
  bounds b = {x, x, index, index, 1};
  return b;
}

static bounds widen(bounds a, bounds b) {
  bounds r;
  // & and | rather than && and ||: clang turns those into `freeze`, which llvm-spirv-15 cannot translate.
  const int lower = (b.lo < a.lo) | ((b.lo == a.lo) & (b.lo_index < a.lo_index));
  const int higher = (b.hi > a.hi) | ((b.hi == a.hi) & (b.hi_index < a.hi_index));
  r.lo = lower ? b.lo : a.lo;
  r.lo_index = lower ? b.lo_index : a.lo_index;
  r.hi = higher ? b.hi : a.hi;
  r.hi_index = higher ? b.hi_index : a.hi_index;
  r.count = a.count + b.count;
  return r;
}

ZR_USER_OPERATOR(float, bounds, bounds_of, widen, empty_bounds)
