// The examples of SYCL 2020's reduction pages, as kernels with reducers (docs/kernels.md): the conformance suite,
// the tests and the benchmarks launch them with queue::parallel_for.
#include <zereduce/reducer_cl.h>

// The sum and the maximum of the same values, in one kernel.
ZR_KERNEL(sum_and_max, (global const float* x), (x), ZR_REDUCER(zr_plus_f32, sum), ZR_REDUCER(zr_maximum_f32, peak)) {
  zr_combine(sum, x[zr_index]);
  zr_combine(peak, x[zr_index]);
}

// A histogram of computed bins, with a span reducer.
ZR_KERNEL(histogram, (global const uint* values, uint bins), (values, bins), ZR_SPAN_REDUCER(zr_span_plus_u32, counts)) {
  zr_combine_at(counts, values[zr_index] % bins, 1u);
}

// pi as the integral of 4 / (1 + x^2) over [0, 1], by the midpoint rule: no input array at all.
ZR_KERNEL(pi_midpoint, (float step), (step), ZR_REDUCER(zr_plus_f32, sum)) {
  const float x = ((float)zr_index + 0.5f) * step;
  zr_combine(sum, 4.0f / (1.0f + x * x) * step);
}

// || a x + y ||^2 without storing a x + y (a fused residual norm), and the largest |a x + y|.
ZR_KERNEL(axpy_norm, (global const float* x, global const float* y, float a), (x, y, a),
          ZR_REDUCER(zr_plus_f32, sum_squares), ZR_REDUCER(zr_maximum_f32, largest)) {
  const float v = a * x[zr_index] + y[zr_index];
  zr_combine(sum_squares, v * v);
  zr_combine(largest, fabs(v));
}

// The same norm while storing the vector.
ZR_KERNEL(axpy_store_norm, (global const float* x, global const float* y, global float* out, float a), (x, y, out, a),
          ZR_REDUCER(zr_plus_f32, sum_squares)) {
  const float v = a * x[zr_index] + y[zr_index];
  out[zr_index] = v;
  zr_combine(sum_squares, v * v);
}

// A reducer of your own: the smallest and largest values with the first index of each (SYCL's user-defined
// combiner), beside a built-in sum.
typedef struct {
  float lo, hi;
  ulong lo_index, hi_index;
} extent;
static extent widen(extent a, extent b) {
  extent r = a;
  // & and | rather than && and ||: llvm-spirv-15 cannot translate the freeze clang makes of the latter.
  if ((b.lo < r.lo) | ((b.lo == r.lo) & (b.lo_index < r.lo_index))) {
    r.lo = b.lo;
    r.lo_index = b.lo_index;
  }
  if ((b.hi > r.hi) | ((b.hi == r.hi) & (b.hi_index < r.hi_index))) {
    r.hi = b.hi;
    r.hi_index = b.hi_index;
  }
  return r;
}
static extent no_extent(void) {
  const extent none = {INFINITY, -INFINITY, ULONG_MAX, ULONG_MAX};
  return none;
}
ZR_USER_REDUCER_TYPE(zr_extent, extent, widen, no_extent)

ZR_KERNEL(extent_and_sum, (global const float* x), (x), ZR_USER_REDUCER(zr_extent, bounds), ZR_REDUCER(zr_plus_f32, sum)) {
  const extent one = {x[zr_index], x[zr_index], zr_index, zr_index};
  zr_combine(bounds, one);
  zr_combine(sum, x[zr_index]);
}
