// The f64 kernels of every_reducer.cl (a module of their own: only devices with fp64 load it).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include <zereduce/reducer_cl.h>

#define F64_KERNEL(OP)                                                                           \
  ZR_KERNEL(k_##OP##_f64, (global const double* x), (x), ZR_REDUCER(zr_##OP##_f64, r)) {        \
    zr_combine(r, x[zr_index]);                                                                 \
  }
F64_KERNEL(plus)
F64_KERNEL(multiplies)
F64_KERNEL(minimum)
F64_KERNEL(maximum)
