// The 64-bit span kernels of every_reducer.cl (a module of their own: only devices with 64-bit atomics load it).
#include <zereduce/reducer_cl.h>

#define SPAN_KERNEL(OP, TN, T)                                                                                  \
  ZR_KERNEL(ks_##OP##_##TN, (global const T* x, ulong bins), (x, bins), ZR_SPAN_REDUCER(zr_span_##OP##_##TN, r)) { \
    zr_combine_at(r, zr_index % bins, x[zr_index]);                                                             \
  }
#define SPAN_KERNELS(TN, T)                                                                      \
  SPAN_KERNEL(plus, TN, T) SPAN_KERNEL(minimum, TN, T) SPAN_KERNEL(maximum, TN, T)               \
  SPAN_KERNEL(bit_and, TN, T) SPAN_KERNEL(bit_or, TN, T) SPAN_KERNEL(bit_xor, TN, T)
SPAN_KERNELS(i64, long)
SPAN_KERNELS(u64, ulong)
