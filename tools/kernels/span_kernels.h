// The span kernels of every_reducer.cl and every_span_i64.cl: ks_<op>_<type> combines x[i] into element i % bins of
// its span reducer.
#ifndef ZR_SAMPLE_SPAN_KERNELS_H
#define ZR_SAMPLE_SPAN_KERNELS_H

#include <zereduce/reducer_cl.h>

#define SPAN_KERNEL(OP, TN, T)                                                                                  \
  ZR_KERNEL(ks_##OP##_##TN, (global const T* x, ulong bins), (x, bins), ZR_SPAN_REDUCER(zr_span_##OP##_##TN, r)) { \
    zr_combine_at(r, zr_index % bins, x[zr_index]);                                                             \
  }
#define SPAN_KERNELS(TN, T)                                                                      \
  SPAN_KERNEL(plus, TN, T) SPAN_KERNEL(minimum, TN, T) SPAN_KERNEL(maximum, TN, T)               \
  SPAN_KERNEL(bit_and, TN, T) SPAN_KERNEL(bit_or, TN, T) SPAN_KERNEL(bit_xor, TN, T)

#endif  // ZR_SAMPLE_SPAN_KERNELS_H
