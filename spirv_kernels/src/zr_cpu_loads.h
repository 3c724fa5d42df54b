// Plain vector loads at the element's alignment, for the CPU-shaped kernels (cpu, tcpu, mcpu, ucpu): PoCL 5.0
// calls built-in functions (vloadN, fabs, mad, min, max, select, any) out of line from our SPIR bitcode, and
// every call spills each live vector register (seen in its kernel cache's disassembly on the H100 host;
// rchunks.cl and argcpu.cl measured what that costs). A plain load of a vector type declared with the element's
// alignment is one unaligned vector load on every compiler. f16 still converts with vload_halfN.
#ifndef ZR_CPU_LOADS_H
#define ZR_CPU_LOADS_H

// Included after zr_types.h where the module has doubles (the FP64 class enables them there); user-operator
// templates (zr_user.h) have no numeric class and read bits.

#define ZR_CPU_DEFINE_LOADS(S, ALIGN)                                  \
  typedef S##2 __attribute__((aligned(ALIGN))) zr_cpu_loaded_##S##2;   \
  typedef S##4 __attribute__((aligned(ALIGN))) zr_cpu_loaded_##S##4;   \
  typedef S##8 __attribute__((aligned(ALIGN))) zr_cpu_loaded_##S##8;   \
  typedef S##16 __attribute__((aligned(ALIGN))) zr_cpu_loaded_##S##16;
ZR_CPU_DEFINE_LOADS(char, 1)
ZR_CPU_DEFINE_LOADS(uchar, 1)
ZR_CPU_DEFINE_LOADS(short, 2)
ZR_CPU_DEFINE_LOADS(ushort, 2)
ZR_CPU_DEFINE_LOADS(int, 4)
ZR_CPU_DEFINE_LOADS(uint, 4)
ZR_CPU_DEFINE_LOADS(long, 8)
ZR_CPU_DEFINE_LOADS(ulong, 8)
ZR_CPU_DEFINE_LOADS(float, 4)
#if defined(ZR_CLASS_FP64)
ZR_CPU_DEFINE_LOADS(double, 8)
#endif

// W elements of scalar type S from p (both macros expanded first).
#define ZR_CPU_PLAIN_LOAD(S, W, p) ZR_CPU_PLAIN_LOAD_(S, W, p)
#define ZR_CPU_PLAIN_LOAD_(S, W, p) (*(global const zr_cpu_loaded_##S##W*)(p))

// The v-th 16-byte vector of p, as zr_grid.h's ZR_VLOAD_<TN> gives it (vloadN(v, p)).
#define ZR_CPU_VLOAD_i8(v, p) ZR_CPU_PLAIN_LOAD(char, 16, (p) + (v) * 16)
#define ZR_CPU_VLOAD_u8(v, p) ZR_CPU_PLAIN_LOAD(uchar, 16, (p) + (v) * 16)
#define ZR_CPU_VLOAD_bool(v, p) \
  (as_uchar16(ZR_CPU_PLAIN_LOAD(uchar, 16, (global const uchar*)(p) + (v) * 16) != (uchar16)0) & (uchar16)1)
#define ZR_CPU_VLOAD_i16(v, p) ZR_CPU_PLAIN_LOAD(short, 8, (p) + (v) * 8)
#define ZR_CPU_VLOAD_u16(v, p) ZR_CPU_PLAIN_LOAD(ushort, 8, (p) + (v) * 8)
#define ZR_CPU_VLOAD_f16(v, p) vload_half8((v), (p))
#define ZR_CPU_VLOAD_i32(v, p) ZR_CPU_PLAIN_LOAD(int, 4, (p) + (v) * 4)
#define ZR_CPU_VLOAD_u32(v, p) ZR_CPU_PLAIN_LOAD(uint, 4, (p) + (v) * 4)
#define ZR_CPU_VLOAD_f32(v, p) ZR_CPU_PLAIN_LOAD(float, 4, (p) + (v) * 4)
#define ZR_CPU_VLOAD_i64(v, p) ZR_CPU_PLAIN_LOAD(long, 2, (p) + (v) * 2)
#define ZR_CPU_VLOAD_u64(v, p) ZR_CPU_PLAIN_LOAD(ulong, 2, (p) + (v) * 2)
#define ZR_CPU_VLOAD_f64(v, p) ZR_CPU_PLAIN_LOAD(double, 2, (p) + (v) * 2)

#endif  // ZR_CPU_LOADS_H
