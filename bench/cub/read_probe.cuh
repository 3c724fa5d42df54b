#pragma once
// The read probe of the CUDA benches: 16-byte loads, grid-stride, two in flight, OR-folded (the result is
// written only for an impossible value, so the loads cannot be dropped). Its best rate over a few grid
// shapes is the memory-bandwidth limit the benches' ratios are taken against.
#include <cstddef>

__global__ void read_kernel(const int4* __restrict__ in, size_t n4, unsigned* out) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int4 a = make_int4(0, 0, 0, 0), b = make_int4(0, 0, 0, 0);
  for (; i + stride < n4; i += 2 * stride) {
    const int4 x = in[i], y = in[i + stride];
    a.x |= x.x; a.y |= x.y; a.z |= x.z; a.w |= x.w;
    b.x |= y.x; b.y |= y.y; b.z |= y.z; b.w |= y.w;
  }
  if (i < n4) {
    const int4 x = in[i];
    a.x |= x.x; a.y |= x.y; a.z |= x.z; a.w |= x.w;
  }
  const unsigned r = unsigned(a.x | a.y | a.z | a.w | b.x | b.y | b.z | b.w);
  if (r == 0x9e3779b9u) out[0] = r;
}

