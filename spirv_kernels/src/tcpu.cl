// Variant "tcpu": the first pass of a transform-reduction (zr_transform.h) on CPU devices, shaped as cpu.cl
// (whose comment says why CPUs want contiguous chunks): work-item i of G sums the transformed values of one
// contiguous chunk [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up to a multiple of 16, and
// writes one partial per work-item (launch with local size 1); tfinal.cl sums them. The hot loop reads four
// 16-byte vectors a step into four independent vector sums (four dependency chains for the CPU's pipelines),
// merged and folded in a fixed order at the end, then the last elements of the chunk one by one: the result
// is deterministic for a given G. The GPU-shaped ttree read PoCL at 3 GB/s where cpu.cl's plain sum read 40
// (2-core Xeon, 2^24 f32).
// Arguments: in, n (64-bit), partials (one ACC per work-item), value (count_equal's; LANE), scratch (unused:
// the signature of ttree).
#include "zr_cpu_device_kernel.h"
#include "zr_transform.h"
#include "zr_cpu_loads.h"

// No built-in call in the hot loop (zr_cpu_loads.h says why): plain loads, |v| as a comparison, and no
// contraction of norm_l2's v * v + a into mad() (which PoCL 5 also calls out of line).
#pragma OPENCL FP_CONTRACT OFF
#undef ZR_XV_norm_l1
#define ZR_XV_norm_l1(XT, VT, v) ((v) < (XT)0 ? -(v) : (v))

#define ZR_TCPU_KERNEL(OP, TN, T, LANE, ACC, ATN, RT, RTN) \
  ZR_TCPU_KERNEL_(OP, TN, T, LANE, ACC, ATN, ZR_VECTOR_OF(ACC, ZR_VEC_##TN))
#define ZR_TCPU_KERNEL_(OP, TN, T, LANE, ACC, ATN, XT)                                                       \
  ZR_CPU_DEVICE_KERNEL void zr_tcpu_##OP##_##TN(global const T* restrict in, ulong n, global ACC* restrict partials,       \
                                  LANE value, local ACC* scratch) {                                          \
    const ulong items = get_global_size(0);                                                                  \
    const ulong per_item = n == 0 ? 0 : (n - 1) / items + 1; /* no n % items: see cpu.cl */                 \
    const ulong chunk = (per_item + 15) & ~(ulong)15;                                                        \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                    \
    const ulong end = min(n, begin + chunk);                                                                 \
    /* begin is a multiple of 16 elements, so of the vector length too */                                   \
    const ulong first = begin / ZR_VEC_##TN;                                                                 \
    const ulong vectors = (end - begin) / ZR_VEC_##TN;                                                       \
    XT a = (XT)0, b = (XT)0, c = (XT)0, d = (XT)0;                                                           \
    ulong v = 0;                                                                                             \
    for (; v + 4 <= vectors; v += 4) {                                                                       \
      a += ZR_XV_##OP(XT, ZR_VTYPE_##TN, ZR_CPU_VLOAD_##TN(first + v, in));                                      \
      b += ZR_XV_##OP(XT, ZR_VTYPE_##TN, ZR_CPU_VLOAD_##TN(first + v + 1, in));                                  \
      c += ZR_XV_##OP(XT, ZR_VTYPE_##TN, ZR_CPU_VLOAD_##TN(first + v + 2, in));                                  \
      d += ZR_XV_##OP(XT, ZR_VTYPE_##TN, ZR_CPU_VLOAD_##TN(first + v + 3, in));                                  \
    }                                                                                                        \
    for (; v < vectors; ++v) a += ZR_XV_##OP(XT, ZR_VTYPE_##TN, ZR_CPU_VLOAD_##TN(first + v, in));               \
    a = (a + b) + (c + d);                                                                                   \
    ACC acc = 0;                                                                                             \
    ZR_FOLD(ZR_VEC_##TN, zr_tsum_##ATN, acc, a);                                                             \
    for (ulong i = begin + vectors * ZR_VEC_##TN; i < end; ++i)                                              \
      acc = zr_tsum_##ATN(acc, ZR_XS_##OP(ACC, ZR_LOAD_##TN(in, i)));                                        \
    partials[get_global_id(0)] = acc;                                                                        \
  }

ZR_FOR_EACH_TRANSFORM(ZR_TCPU_KERNEL)
