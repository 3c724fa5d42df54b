// The kernels of bench/kernel_bench.cpp: a residual norm ||a x + y||^2 fused into the kernel that computes the
// vector (with and without storing it), and the first step of the two-step version (store a x + y, then reduce
// it with queue::transform_reduce), whose one reducer never receives a value.
#include <zereduce/reducer_cl.h>

ZR_KERNEL(axpy_sum_squares, (global const float* x, global const float* y, float a), (x, y, a),
          ZR_REDUCER(zr_plus_f32, sum_squares)) {
  const float v = a * x[zr_index] + y[zr_index];
  zr_combine(sum_squares, v * v);
}

ZR_KERNEL(axpy_store_sum_squares, (global const float* x, global const float* y, global float* out, float a),
          (x, y, out, a), ZR_REDUCER(zr_plus_f32, sum_squares)) {
  const float v = a * x[zr_index] + y[zr_index];
  out[zr_index] = v;
  zr_combine(sum_squares, v * v);
}

ZR_KERNEL(axpy_store, (global const float* x, global const float* y, global float* out, float a), (x, y, out, a),
          ZR_REDUCER(zr_plus_u32, unused)) {
  out[zr_index] = a * x[zr_index] + y[zr_index];
}
