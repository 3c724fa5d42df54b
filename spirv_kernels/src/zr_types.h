// Element types, accumulator types and the combine functions of every (op, type) pair, shared by all kernel
// variants. A module is compiled for one type class (-DZR_CLASS_BASE, -DZR_CLASS_FP16, ...), and
// ZR_FOR_EACH_PAIR(K) expands K(OP, TN, T, ACC, ATN) once for every pair of that class, where
//   OP  the SYCL op name (plus, multiplies, minimum, ...)      TN  the type name in entry points (i8 .. bool)
//   T   the element's OpenCL C type                            ACC the accumulator's OpenCL C type
//   ATN the type name of the accumulator (the combine functions are zr_<OP>_<ATN>)
// Semantics (the host reference in runtime/core/host_reference.cpp implements the same):
//   - integer plus/multiplies wrap modulo 2^bits (computed in unsigned arithmetic, so never undefined);
//   - floating minimum/maximum follow IEEE 754-2019 minimum/maximum: a NaN operand gives NaN (always the
//     canonical quiet NaN, so results are bitwise reproducible) and -0.0 is below +0.0;
//   - half is accumulated in float and rounded to nearest even once, at the end;
//   - bool is stored as one byte; any non-zero byte reads as true, results are 0 or 1.
#ifndef ZR_TYPES_H
#define ZR_TYPES_H

#if defined(ZR_CLASS_FP64) || defined(ZR_CLASS_F32FP64) || defined(ZR_CLASS_F16FP64) || defined(ZR_CLASS_BASEFP64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if defined(ZR_CLASS_INT64ATOMIC)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#endif

// ---- combine functions ----------------------------------------------------------------------------------
// WT is a wide unsigned type: narrow operands are promoted to it before + and * so that no intermediate
// overflows a signed int (which would be undefined behaviour).
#define ZR_DEFINE_INTEGER(TN, T, WT)                                           \
  static inline T zr_plus_##TN(T a, T b) { return (T)((WT)a + (WT)b); }       \
  static inline T zr_multiplies_##TN(T a, T b) { return (T)((WT)a * (WT)b); } \
  static inline T zr_minimum_##TN(T a, T b) { return b < a ? b : a; }         \
  static inline T zr_maximum_##TN(T a, T b) { return a < b ? b : a; }         \
  static inline T zr_bit_and_##TN(T a, T b) { return a & b; }                 \
  static inline T zr_bit_or_##TN(T a, T b) { return a | b; }                  \
  static inline T zr_bit_xor_##TN(T a, T b) { return a ^ b; }

// The canonical quiet NaN of each floating type (what the host reference returns). Not OpenCL's NAN: clang
// defines it as as_float(0x7fffffff), which also widens to a non-canonical double (and differs between
// OpenCL C compilers, so results would differ between the SPIR-V and the source paths).
#define ZR_NAN_f32 as_float(0x7fc00000u)
#define ZR_NAN_f64 as_double(0x7ff8000000000000ul)

// Selects, not branches: with an early return for NaN, a small reduction's device time on the H100 was 1-2 us
// longer for min/max than for plus (bench, raw OpenCL, 2^12..2^16). Equal operands are either the same bits
// or zeros of both signs, so OR-ing the bits picks -0.0 for minimum and AND-ing picks +0.0 for maximum.
#define ZR_BITS_f32 as_uint
#define ZR_BITS_f64 as_ulong
#define ZR_FROM_BITS_f32 as_float
#define ZR_FROM_BITS_f64 as_double
#define ZR_DEFINE_FLOATING(TN, T)                                                                         \
  static inline T zr_plus_##TN(T a, T b) { return a + b; }                                               \
  static inline T zr_multiplies_##TN(T a, T b) { return a * b; }                                         \
  static inline T zr_minimum_##TN(T a, T b) {                                                            \
    const T lower = a == b ? ZR_FROM_BITS_##TN(ZR_BITS_##TN(a) | ZR_BITS_##TN(b)) : (b < a ? b : a);   \
    return isunordered(a, b) ? ZR_NAN_##TN : lower;                                                      \
  }                                                                                                      \
  static inline T zr_maximum_##TN(T a, T b) {                                                            \
    const T upper = a == b ? ZR_FROM_BITS_##TN(ZR_BITS_##TN(a) & ZR_BITS_##TN(b)) : (a < b ? b : a);   \
    return isunordered(a, b) ? ZR_NAN_##TN : upper;                                                      \
  }

#define ZR_DEFINE_BOOL()                                                               \
  static inline uchar zr_logical_and_bool(uchar a, uchar b) { return (uchar)(a && b); } \
  static inline uchar zr_logical_or_bool(uchar a, uchar b) { return (uchar)(a || b); }

// ---- loads and stores of one element as its accumulator -------------------------------------------------
#define ZR_LOAD_DEFAULT(p, i) ((p)[i])
#define ZR_LOAD_i8 ZR_LOAD_DEFAULT
#define ZR_LOAD_i16 ZR_LOAD_DEFAULT
#define ZR_LOAD_i32 ZR_LOAD_DEFAULT
#define ZR_LOAD_i64 ZR_LOAD_DEFAULT
#define ZR_LOAD_u8 ZR_LOAD_DEFAULT
#define ZR_LOAD_u16 ZR_LOAD_DEFAULT
#define ZR_LOAD_u32 ZR_LOAD_DEFAULT
#define ZR_LOAD_u64 ZR_LOAD_DEFAULT
#define ZR_LOAD_f32 ZR_LOAD_DEFAULT
#define ZR_LOAD_f64 ZR_LOAD_DEFAULT
#define ZR_LOAD_f16(p, i) vload_half((i), (p))
#define ZR_LOAD_bool(p, i) ((uchar)((p)[i] != 0))

#define ZR_STORE_DEFAULT(p, i, v) ((p)[i] = (v))
#define ZR_STORE_i8 ZR_STORE_DEFAULT
#define ZR_STORE_i16 ZR_STORE_DEFAULT
#define ZR_STORE_i32 ZR_STORE_DEFAULT
#define ZR_STORE_i64 ZR_STORE_DEFAULT
#define ZR_STORE_u8 ZR_STORE_DEFAULT
#define ZR_STORE_u16 ZR_STORE_DEFAULT
#define ZR_STORE_u32 ZR_STORE_DEFAULT
#define ZR_STORE_u64 ZR_STORE_DEFAULT
// Floating results are stored with a NaN made canonical, whatever op produced it (plus and multiplies pass
// on an input NaN's payload), as the host reference expects.
#define ZR_STORED_f32(v) (isnan(v) ? ZR_NAN_f32 : (v))
#define ZR_STORED_f64(v) (isnan(v) ? ZR_NAN_f64 : (v))
#define ZR_STORE_f32(p, i, v) ((p)[i] = ZR_STORED_f32(v))
#define ZR_STORE_f64(p, i, v) ((p)[i] = ZR_STORED_f64(v))
// A NaN is stored as the canonical half NaN 0x7e00 explicitly: conversions differ in the payload they keep
// (PoCL's vstore_half gives 0x7fff for every NaN).
#define ZR_STORE_f16(p, i, v) \
  (isnan(v) ? (void)(((global ushort*)(p))[i] = (ushort)0x7e00) : vstore_half_rte((v), (i), (p)))
#define ZR_STORE_bool(p, i, v) ((p)[i] = (uchar)((v) != 0))

// ---- (op, type) pairs -------------------------------------------------------------------------------------
#define ZR_INTEGER_PAIRS(K, TN, T)                                                              \
  K(plus, TN, T, T, TN) K(multiplies, TN, T, T, TN) K(minimum, TN, T, T, TN) K(maximum, TN, T, T, TN) \
  K(bit_and, TN, T, T, TN) K(bit_or, TN, T, T, TN) K(bit_xor, TN, T, T, TN)
#define ZR_FLOATING_PAIRS(K, TN, T, ACC, ATN) \
  K(plus, TN, T, ACC, ATN) K(multiplies, TN, T, ACC, ATN) K(minimum, TN, T, ACC, ATN) K(maximum, TN, T, ACC, ATN)
#define ZR_BOOL_PAIRS(K) K(logical_and, bool, uchar, uchar, bool) K(logical_or, bool, uchar, uchar, bool)

ZR_DEFINE_FLOATING(f32, float)

#if defined(ZR_CLASS_BASE)
ZR_DEFINE_INTEGER(i8, char, uint)
ZR_DEFINE_INTEGER(i16, short, uint)
ZR_DEFINE_INTEGER(i32, int, uint)
ZR_DEFINE_INTEGER(i64, long, ulong)
ZR_DEFINE_INTEGER(u8, uchar, uint)
ZR_DEFINE_INTEGER(u16, ushort, uint)
ZR_DEFINE_INTEGER(u32, uint, uint)
ZR_DEFINE_INTEGER(u64, ulong, ulong)
ZR_DEFINE_BOOL()
#define ZR_FOR_EACH_PAIR(K)                                                                              \
  ZR_INTEGER_PAIRS(K, i8, char) ZR_INTEGER_PAIRS(K, i16, short) ZR_INTEGER_PAIRS(K, i32, int)          \
  ZR_INTEGER_PAIRS(K, i64, long) ZR_INTEGER_PAIRS(K, u8, uchar) ZR_INTEGER_PAIRS(K, u16, ushort)       \
  ZR_INTEGER_PAIRS(K, u32, uint) ZR_INTEGER_PAIRS(K, u64, ulong) ZR_FLOATING_PAIRS(K, f32, float, float, f32) \
  ZR_BOOL_PAIRS(K)

#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_PAIR(K) ZR_FLOATING_PAIRS(K, f16, half, float, f32)

#elif defined(ZR_CLASS_FP64)
ZR_DEFINE_FLOATING(f64, double)
#define ZR_FOR_EACH_PAIR(K) ZR_FLOATING_PAIRS(K, f64, double, double, f64)

#elif defined(ZR_CLASS_INT32)
ZR_DEFINE_INTEGER(i8, char, uint)
ZR_DEFINE_INTEGER(i16, short, uint)
ZR_DEFINE_INTEGER(i32, int, uint)
ZR_DEFINE_INTEGER(u8, uchar, uint)
ZR_DEFINE_INTEGER(u16, ushort, uint)
ZR_DEFINE_INTEGER(u32, uint, uint)
ZR_DEFINE_BOOL()
#define ZR_FOR_EACH_PAIR(K)                                                                     \
  ZR_INTEGER_PAIRS(K, i8, char) ZR_INTEGER_PAIRS(K, i16, short) ZR_INTEGER_PAIRS(K, i32, int) \
  ZR_INTEGER_PAIRS(K, u8, uchar) ZR_INTEGER_PAIRS(K, u16, ushort) ZR_INTEGER_PAIRS(K, u32, uint) ZR_BOOL_PAIRS(K)

#elif defined(ZR_CLASS_INT64ATOMIC)
ZR_DEFINE_INTEGER(i64, long, ulong)
ZR_DEFINE_INTEGER(u64, ulong, ulong)
#define ZR_FOR_EACH_PAIR(K) ZR_INTEGER_PAIRS(K, i64, long) ZR_INTEGER_PAIRS(K, u64, ulong)

#elif defined(ZR_CLASS_F32)
#define ZR_FOR_EACH_PAIR(K) ZR_FLOATING_PAIRS(K, f32, float, float, f32)

#elif defined(ZR_CLASS_F32FP64) || defined(ZR_CLASS_F16FP64) || defined(ZR_CLASS_BASEFP64)
// Sums into f64 (zr_transform.h) and means and variances in f64 (zr_moments.h): only those are built for them.
#define ZR_FOR_EACH_PAIR(K)

#else
#error "compile with one -DZR_CLASS_<name> (see runtime/core/type_classes.cpp)"
#endif

#define ZR_COMBINE(OP, ATN) zr_##OP##_##ATN

#endif  // ZR_TYPES_H
