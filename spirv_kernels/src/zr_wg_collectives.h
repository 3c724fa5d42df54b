// The work-group collectives work_group_reduce_add/min/max with ze-reduce's semantics, as zr_wg_<op>_<type>(v)
// (every work-item of the group calls it, in uniform control flow; each gets the group's result). Shared by the
// "workgroup" variant (workgroup.cl) and the collective epilogue of kernels with reducers (kepiwg.cl).
// The collectives exist for 32- and 64-bit integers and floating types only, and their semantics are not ours
// everywhere, so:
//   - 8- and 16-bit integers are widened (sign- or zero-extended) and the result truncated back; plus goes
//     through the unsigned type, so it wraps without signed overflow;
//   - floating minimum/maximum of the collective ignore NaNs and do not order -0.0 and +0.0. A NaN anywhere
//     is found with work_group_any, and a zero result gets the sign of the zero that wins if any work-item
//     holds one: minimum is -0.0 exactly when some value is -0.0 (and none is below zero); maximum is +0.0
//     exactly when some value is +0.0.
// Needs OpenCL C 2.0 (or 3.0 with __opencl_c_work_group_collective_functions).
#ifndef ZR_WG_COLLECTIVES_H
#define ZR_WG_COLLECTIVES_H

#define ZR_WG_NAN_f32 as_float(0x7fc00000u)
#define ZR_WG_NAN_f64 as_double(0x7ff8000000000000ul)

#define ZR_WG_DEFINE_INTEGER(TN, T, WT, UT)                                           \
  static inline T zr_wg_plus_##TN(T v) { return (T)work_group_reduce_add((UT)v); }    \
  static inline T zr_wg_minimum_##TN(T v) { return (T)work_group_reduce_min((WT)v); } \
  static inline T zr_wg_maximum_##TN(T v) { return (T)work_group_reduce_max((WT)v); }

// Every branch below depends on collective results only, so the whole group takes it together, as the
// collectives inside require.
#define ZR_WG_DEFINE_FLOATING(TN, T)                                        \
  static inline T zr_wg_plus_##TN(T v) { return work_group_reduce_add(v); } \
  static inline T zr_wg_minimum_##TN(T v) {                                 \
    if (work_group_any(isnan(v))) return ZR_WG_NAN_##TN;                    \
    const T m = work_group_reduce_min(v);                                   \
    if (m != (T)0) return m;                                                \
    return work_group_any(v == (T)0 && signbit(v)) ? -(T)0 : (T)0;          \
  }                                                                         \
  static inline T zr_wg_maximum_##TN(T v) {                                 \
    if (work_group_any(isnan(v))) return ZR_WG_NAN_##TN;                    \
    const T m = work_group_reduce_max(v);                                   \
    if (m != (T)0) return m;                                                \
    return work_group_any(v == (T)0 && !signbit(v)) ? (T)0 : -(T)0;         \
  }

// Every integer type's, with the wider type each collective runs in.
#define ZR_WG_DEFINE_INTEGERS()                 \
  ZR_WG_DEFINE_INTEGER(i8, char, int, uint)     \
  ZR_WG_DEFINE_INTEGER(i16, short, int, uint)   \
  ZR_WG_DEFINE_INTEGER(i32, int, int, uint)     \
  ZR_WG_DEFINE_INTEGER(i64, long, long, ulong)  \
  ZR_WG_DEFINE_INTEGER(u8, uchar, uint, uint)   \
  ZR_WG_DEFINE_INTEGER(u16, ushort, uint, uint) \
  ZR_WG_DEFINE_INTEGER(u32, uint, uint, uint)   \
  ZR_WG_DEFINE_INTEGER(u64, ulong, ulong, ulong)

#endif  // ZR_WG_COLLECTIVES_H
