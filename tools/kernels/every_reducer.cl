// One kernel per reducer type of <zereduce/reducer_cl.h> (but f64 and the 64-bit spans: every_reducer_f64.cl,
// every_span_i64.cl), for the conformance suite and the tests: k_<op>_<type> combines x[i] into its one scalar
// reducer; ks_<op>_<type> combines x[i] into element i % bins of its span.
#include <zereduce/reducer_cl.h>

#include "span_kernels.h"

#define SCALAR_KERNEL(OP, TN, T, LOAD)                                                           \
  ZR_KERNEL(k_##OP##_##TN, (global const T* x), (x), ZR_REDUCER(zr_##OP##_##TN, r)) {           \
    zr_combine(r, LOAD(x, zr_index));                                                           \
  }
#define PLAIN_LOAD(x, i) (x)[i]
#define HALF_LOAD(x, i) vload_half((i), (const global half*)(x))
#define BOOL_LOAD(x, i) (uchar)((x)[i] != 0)
#define INTEGER_KERNELS(TN, T)                                                                   \
  SCALAR_KERNEL(plus, TN, T, PLAIN_LOAD)                                                         \
  SCALAR_KERNEL(multiplies, TN, T, PLAIN_LOAD)                                                   \
  SCALAR_KERNEL(minimum, TN, T, PLAIN_LOAD)                                                      \
  SCALAR_KERNEL(maximum, TN, T, PLAIN_LOAD)                                                      \
  SCALAR_KERNEL(bit_and, TN, T, PLAIN_LOAD)                                                      \
  SCALAR_KERNEL(bit_or, TN, T, PLAIN_LOAD)                                                       \
  SCALAR_KERNEL(bit_xor, TN, T, PLAIN_LOAD)
#define FLOATING_KERNELS(TN, T, LOAD)                                                            \
  SCALAR_KERNEL(plus, TN, T, LOAD)                                                               \
  SCALAR_KERNEL(multiplies, TN, T, LOAD)                                                         \
  SCALAR_KERNEL(minimum, TN, T, LOAD)                                                            \
  SCALAR_KERNEL(maximum, TN, T, LOAD)

INTEGER_KERNELS(i8, char)
INTEGER_KERNELS(i16, short)
INTEGER_KERNELS(i32, int)
INTEGER_KERNELS(i64, long)
INTEGER_KERNELS(u8, uchar)
INTEGER_KERNELS(u16, ushort)
INTEGER_KERNELS(u32, uint)
INTEGER_KERNELS(u64, ulong)
FLOATING_KERNELS(f16, ushort, HALF_LOAD)
FLOATING_KERNELS(f32, float, PLAIN_LOAD)
SCALAR_KERNEL(logical_and, bool, uchar, BOOL_LOAD)
SCALAR_KERNEL(logical_or, bool, uchar, BOOL_LOAD)

SPAN_KERNELS(i32, int)
SPAN_KERNELS(u32, uint)
SPAN_KERNEL(plus, f32, float)
