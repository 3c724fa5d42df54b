// Variant "mcpu": the first pass of a mean and variance (zr_moments.h) on CPU devices, shaped as cpu.cl:
// work-item i of G reads one contiguous chunk (a multiple of 16 elements long) in blocks of ZR_MCPU_BLOCK
// vectors: their sum gives the block's mean, a second read from cache the squared deviations from it, and the
// block is merged into the work-item's state, one division per block (merging every vector, as the GPU shape
// does, read 5.7 GB/s where a plain sum reads 27-52 on a 2-core Xeon: the merges' chain of divisions). The
// chunk's last elements join one by one; one state per work-item (launch with local size 1); mfinal.cl merges
// them. The tail sits inside the block loop, and the blocks are unrolled by hand: a tail loop after the block
// loop, or inner loops, gave llvm-spirv-15 blocks before their dominators or undefined IDs (spirv-val
// rejects both).
// Arguments: in, n (64-bit), partials (one state per work-item), scratch (unused: mtree's signature).
#include "zr_cpu_device_kernel.h"
#include "zr_moments.h"
#include "zr_cpu_loads.h"

// No built-in call in the hot loop (zr_cpu_loads.h says why): plain loads, and no contraction of d * d + a
// into mad() (which PoCL 5 also calls out of line).
#pragma OPENCL FP_CONTRACT OFF

#define ZR_MCPU_BLOCK 8
// At most 8 lanes: 1-byte elements are read 8 at a time. With 16 (char16 to double16) PoCL 5.0's CPU driver
// (16-core Xeon, AVX-512) returned NaN for every i8/u8 mean in f64 that reached a block; PoCL 3.1 and Intel's
// CPU runtime did not.
#define ZR_MCPU_LANES_i8 8
#define ZR_MCPU_LANES_u8 8
#define ZR_MCPU_LANES_i16 8
#define ZR_MCPU_LANES_u16 8
#define ZR_MCPU_LANES_f16 8
#define ZR_MCPU_LANES_i32 4
#define ZR_MCPU_LANES_u32 4
#define ZR_MCPU_LANES_f32 4
#define ZR_MCPU_LANES_i64 2
#define ZR_MCPU_LANES_u64 2
#define ZR_MCPU_LANES_f64 2
#define ZR_MCPU_VLOAD_i8(v, p) ZR_CPU_PLAIN_LOAD(char, 8, (p) + (v) * 8)
#define ZR_MCPU_VLOAD_u8(v, p) ZR_CPU_PLAIN_LOAD(uchar, 8, (p) + (v) * 8)
#define ZR_MCPU_VLOAD_i16 ZR_CPU_VLOAD_i16
#define ZR_MCPU_VLOAD_u16 ZR_CPU_VLOAD_u16
#define ZR_MCPU_VLOAD_f16 ZR_CPU_VLOAD_f16
#define ZR_MCPU_VLOAD_i32 ZR_CPU_VLOAD_i32
#define ZR_MCPU_VLOAD_u32 ZR_CPU_VLOAD_u32
#define ZR_MCPU_VLOAD_f32 ZR_CPU_VLOAD_f32
#define ZR_MCPU_VLOAD_i64 ZR_CPU_VLOAD_i64
#define ZR_MCPU_VLOAD_u64 ZR_CPU_VLOAD_u64
#define ZR_MCPU_VLOAD_f64 ZR_CPU_VLOAD_f64
#define ZR_MCPU_LOAD(A, TN, v) ZR_MOMENTS_CONVERT(A, ZR_MCPU_LANES_##TN, ZR_MCPU_VLOAD_##TN(v, in))
#define ZR_MCPU_ADD(A, TN, v, acc) acc += ZR_MCPU_LOAD(A, TN, v);
#define ZR_MCPU_SQUARE(A, TN, v, acc) { const zr_xt_ d = ZR_MCPU_LOAD(A, TN, v) - centre; acc += d * d; }
#define ZR_MCPU_REPEAT(F, A, TN, v0, acc) \
  F(A, TN, v0, acc) F(A, TN, v0 + 1, acc) F(A, TN, v0 + 2, acc) F(A, TN, v0 + 3, acc) \
  F(A, TN, v0 + 4, acc) F(A, TN, v0 + 5, acc) F(A, TN, v0 + 6, acc) F(A, TN, v0 + 7, acc)
#define ZR_MCPU_KERNEL(OP, TN, T, A, ATN)                                                                     \
  ZR_CPU_DEVICE_KERNEL void zr_mcpu_##OP##_##TN(global const T* restrict in, ulong n, global zr_moments_##ATN* partials,     \
                                  local zr_moments_##ATN* scratch) {                                          \
    typedef ZR_MOMENTS_VECTOR(A, ZR_MCPU_LANES_##TN) zr_xt_;                                                         \
    const ulong items = get_global_size(0);                                                                   \
    const ulong per_item = n == 0 ? 0 : (n - 1) / items + 1;                                                  \
    const ulong chunk = (per_item + 15) & ~(ulong)15;                                                         \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                     \
    const ulong end = min(n, begin + chunk);                                                                  \
    const ulong first = begin / ZR_MCPU_LANES_##TN;                                                                  \
    const ulong step = ZR_MCPU_BLOCK * ZR_MCPU_LANES_##TN;                                                           \
    zr_moments_##ATN s = zr_moments_none_##ATN();                                                             \
    for (ulong i = 0; i < end - begin; i += step) {                                                           \
      if (i + step <= end - begin) {                                                                          \
        const ulong v0 = first + i / ZR_MCPU_LANES_##TN;                                                             \
        zr_xt_ sum = (zr_xt_)0;                                                                               \
        ZR_MCPU_REPEAT(ZR_MCPU_ADD, A, TN, v0, sum)                                                           \
        zr_moments_##ATN block;                                                                               \
        block.count = step;                                                                                   \
        block.mean = ZR_MOMENTS_SUM(ZR_MCPU_LANES_##TN, sum) * ((A)1 / (A)step);                                     \
        zr_xt_ squares = (zr_xt_)0;                                                                           \
        const zr_xt_ centre = (zr_xt_)block.mean;                                                             \
        ZR_MCPU_REPEAT(ZR_MCPU_SQUARE, A, TN, v0, squares)                                                    \
        block.m2 = ZR_MOMENTS_SUM(ZR_MCPU_LANES_##TN, squares);                                                      \
        s = zr_moments_merge_##ATN(s, block);                                                                 \
      } else {                                                                                                \
        for (ulong k = begin + i; k < end; ++k)                                                               \
          s = zr_moments_merge_##ATN(s, zr_moments_one_##ATN((A)ZR_LOAD_##TN(in, k)));                        \
      }                                                                                                       \
    }                                                                                                         \
    partials[get_global_id(0)] = s;                                                                           \
  }

ZR_FOR_EACH_MOMENTS(ZR_MCPU_KERNEL)
