// Variant "cpu": the shape for CPU devices (PoCL). A CPU OpenCL runtime runs a group's work-items one after
// another on one core, so GPU-style grid striding makes every work-item touch scattered cache lines and
// runs 10-90x slower there. Here work-item i of G reduces one contiguous chunk
// [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up to a multiple of 16, and writes one partial
// per work-item (launch with local size 1, G about the number of cores or a small multiple of it).
// The hot loop loads W elements at a time (vload16/8/2, see ZR_CPU_W) into a W-lane state,
// branch-free, which the CPU compiler keeps in SIMD registers; two such states take alternate blocks of W
// so that two independent dependency chains hide the latency of the vector ops. At the end the states are
// merged, the last < W elements join as one more (masked) step, and the W lanes are folded in a fixed
// order, so the result is deterministic for a given G.
// Arguments: in, n (64-bit), partials (one ACC per work-item), identity, scratch (unused: kept so that every
// partial-producing first pass has the same signature).
#include "zr_types.h"
#include "zr_cpu_loads.h"

#define ZR_CAT_(a, b) a##b
#define ZR_CAT(a, b) ZR_CAT_(a, b)

// Lanes per state (W), per op and accumulator type. The same module is also compiled for GPUs, where it
// must build without register spills (a work-item holds its states in registers at SIMD16/32 there), so W is
// as wide as that allows (checked with ocloc for gen9, tgllp, dg2-g10, pvc): 16 (the widest OpenCL vector)
// for 1- to 4-byte integer types; but 8 for f32 minimum/maximum and 2 for f64 minimum/maximum, whose step
// needs more temporaries, and 2 for i64/u64, which PVC emulates partly (all of these spilled on PVC one step
// wider). CPU devices run floating minimum/maximum from cpu_wide.cl instead, with 64-byte states. Floating sums and products take 32 bytes per state, 8 lanes of f32 and 4 of f64: on the 2-core
// EPYC CI-like machine (PoCL 3.1) 64-byte states read f32 sums at 36-43 GB/s at n = 2^28 and 32-byte ones
// at 54-60 (f64: 0.70-0.80x the read probe against 1.03-1.18x; ze_reduce -t f32|f64 -n 2^28 --bandwidth,
// interleaved). On a 16-core Xeon under PoCL 5, f32 plus at n = 2^26 had run about 1.4x faster with 16
// lanes than with 8: a per-CPU choice would need both widths as variants.
#define ZR_CPU_W(OP, ATN) ZR_CAT(ZR_CPU_W_OF_##OP, ATN)
#define ZR_CPU_W_OF_plus ZR_CPU_W_
#define ZR_CPU_W_OF_multiplies ZR_CPU_W_
#define ZR_CPU_W_OF_minimum ZR_CPU_WMINMAX_
#define ZR_CPU_W_OF_maximum ZR_CPU_WMINMAX_
#define ZR_CPU_W_OF_bit_and ZR_CPU_W_
#define ZR_CPU_W_OF_bit_or ZR_CPU_W_
#define ZR_CPU_W_OF_bit_xor ZR_CPU_W_
#define ZR_CPU_W_OF_logical_and ZR_CPU_W_
#define ZR_CPU_W_OF_logical_or ZR_CPU_W_
#define ZR_CPU_W_i8 16
#define ZR_CPU_W_u8 16
#define ZR_CPU_W_bool 16
#define ZR_CPU_W_i16 16
#define ZR_CPU_W_u16 16
#define ZR_CPU_W_i32 16
#define ZR_CPU_W_u32 16
#define ZR_CPU_W_f32 8
#define ZR_CPU_W_i64 2
#define ZR_CPU_W_u64 2
#define ZR_CPU_W_f64 4
#define ZR_CPU_WMINMAX_i8 16
#define ZR_CPU_WMINMAX_u8 16
#define ZR_CPU_WMINMAX_i16 16
#define ZR_CPU_WMINMAX_u16 16
#define ZR_CPU_WMINMAX_i32 16
#define ZR_CPU_WMINMAX_u32 16
#define ZR_CPU_WMINMAX_f32 ZR_CPU_MINMAX_LANES_f32
#define ZR_CPU_WMINMAX_i64 2
#define ZR_CPU_WMINMAX_u64 2
#define ZR_CPU_WMINMAX_f64 ZR_CPU_MINMAX_LANES_f64
// cpu_wide.cl, built for CPU devices only, sets wider floating min/max lanes before including this file.
#ifndef ZR_CPU_MINMAX_LANES_f32
#define ZR_CPU_MINMAX_LANES_f32 8
#endif
#ifndef ZR_CPU_MINMAX_LANES_f64
#define ZR_CPU_MINMAX_LANES_f64 2
#endif

// Chunks are a multiple of 16 elements, whatever the lane count, so that they start on 16-element
// boundaries (and 64-byte ones for 4-byte types when the input is aligned).
#define ZR_CPU_CHUNK_MULTIPLE 16

// ---- lane-wise combine functions ----------------------------------------------------------------------------
// zr_vw_<op>_<ATN>(a, b): the combine functions of zr_types.h lane by lane, with the same semantics except
// that a NaN result may have any payload (the final scalar combine makes it canonical). Wrapping integer
// arithmetic goes through the unsigned vector type (signed overflow would be undefined).
//
// ---- lane states of the hot loop ----------------------------------------------------------------------------
// For each (op, ATN): a state type zr_sw_<op>_<ATN> and
//   zr_sw_init_*(identity)  the state of no element       zr_sw_step_*(s, v)  combine W elements
//   zr_sw_merge_*(s, t)     combine two states            zr_sw_values_*(s)   the W lane values
// For most ops the state is just the lane values. Floating minimum/maximum differ: the IEEE rules (NaN
// wins, -0 < +0) cost several compares and a mask repack per step as floating-point selects, about 4x
// slower on AVX2. Instead the state holds each lane's value as a totally ordered integer key (below), so
// that a step is a few integer ops and one integer min/max.
#define ZR_CPU_PLAIN_STATE(OP, TN, S, V, INIT)                                          \
  typedef V zr_sw_##OP##_##TN;                                                          \
  static inline V zr_sw_init_##OP##_##TN(S identity) { return (V)(INIT); }              \
  static inline V zr_sw_step_##OP##_##TN(V s, V v) { return zr_vw_##OP##_##TN(s, v); }  \
  static inline V zr_sw_merge_##OP##_##TN(V s, V t) { return zr_vw_##OP##_##TN(s, t); } \
  static inline V zr_sw_values_##OP##_##TN(V s) { return s; }

#define ZR_CPU_DEFINE_INTEGER(TN, S, V, UV)                                                   \
  static inline V zr_vw_plus_##TN(V a, V b) { return as_##V(as_##UV(a) + as_##UV(b)); }       \
  static inline V zr_vw_multiplies_##TN(V a, V b) { return as_##V(as_##UV(a) * as_##UV(b)); } \
  static inline V zr_vw_minimum_##TN(V a, V b) { return b < a ? b : a; }                      \
  static inline V zr_vw_maximum_##TN(V a, V b) { return a < b ? b : a; }                      \
  static inline V zr_vw_bit_and_##TN(V a, V b) { return a & b; }                              \
  static inline V zr_vw_bit_or_##TN(V a, V b) { return a | b; }                               \
  static inline V zr_vw_bit_xor_##TN(V a, V b) { return a ^ b; }                              \
  ZR_CPU_PLAIN_STATE(plus, TN, S, V, identity)                                                \
  ZR_CPU_PLAIN_STATE(multiplies, TN, S, V, identity)                                          \
  ZR_CPU_PLAIN_STATE(minimum, TN, S, V, identity)                                             \
  ZR_CPU_PLAIN_STATE(maximum, TN, S, V, identity)                                             \
  ZR_CPU_PLAIN_STATE(bit_and, TN, S, V, identity)                                             \
  ZR_CPU_PLAIN_STATE(bit_or, TN, S, V, identity)                                              \
  ZR_CPU_PLAIN_STATE(bit_xor, TN, S, V, identity)

// Floating minimum/maximum lane by lane, used where speed does not matter (the tail, the fold): a NaN in b
// is taken and a NaN in a is kept (no ordered comparison picks b over it), so NaN wins.
// The key of a non-NaN float with bits x (read as the signed integer type IV of the same width) is x with
// the bits below the sign flipped when the sign is set: -inf < ... < -0 < +0 < ... < +inf as signed
// integers, so minimum/maximum of keys is IEEE minimum/maximum, -0 < +0 included; the map is its own
// inverse. Every NaN gets the key NANKEY that wins (IMIN for minimum, IMAX for maximum), which no other
// value has (only the NaNs with all bits set map there).
#define ZR_CPU_KEY_STATE(OP, TN, S, V, IV, PICK, NANKEY)                                          \
  typedef IV zr_sw_##OP##_##TN;                                                                   \
  static inline IV zr_key_##OP##_##TN(V v) {                                                      \
    return zr_isnan_##TN(as_##IV(v)) ? (IV)(NANKEY) : zr_key_##TN(as_##IV(v));                    \
  }                                                                                               \
  static inline IV zr_sw_init_##OP##_##TN(S identity) { return zr_key_##OP##_##TN((V)identity); } \
  static inline IV zr_sw_step_##OP##_##TN(IV s, V v) { return PICK(s, zr_key_##OP##_##TN(v)); }   \
  static inline IV zr_sw_merge_##OP##_##TN(IV s, IV t) { return PICK(s, t); }                     \
  static inline V zr_sw_values_##OP##_##TN(IV s) {                                                \
    return select(as_##V(zr_key_##TN(s)), (V)(ZR_NAN_##TN), s == (IV)(NANKEY));                   \
  }

#define ZR_CPU_PICK_MIN(a, b) ((b) < (a) ? (b) : (a))
#define ZR_CPU_PICK_MAX(a, b) ((a) < (b) ? (b) : (a))

// V: the lanes of plus and multiplies; VK, IVK: those of minimum and maximum, and as integers.
#define ZR_CPU_DEFINE_FLOATING(TN, S, V, VK, IVK, IMIN, IMAX, INF_BITS)                                      \
  static inline V zr_vw_plus_##TN(V a, V b) { return a + b; }                                                \
  static inline V zr_vw_multiplies_##TN(V a, V b) { return a * b; }                                          \
  static inline VK zr_vw_minimum_##TN(VK a, VK b) {                                                          \
    return select(a, b, (b < a) | ((b == a) & signbit(b)) | isnan(b));                                       \
  }                                                                                                          \
  static inline VK zr_vw_maximum_##TN(VK a, VK b) {                                                          \
    return select(a, b, (a < b) | ((a == b) & signbit(a)) | isnan(b));                                       \
  }                                                                                                          \
  static inline IVK zr_key_##TN(IVK x) { return x ^ ((x < (IVK)0) & (IVK)(IMAX)); }                          \
  static inline IVK zr_isnan_##TN(IVK x) { return (x & (IVK)(IMAX)) > (IVK)(INF_BITS); }                     \
  ZR_CPU_PLAIN_STATE(plus, TN, S, V, identity)                                                               \
  ZR_CPU_PLAIN_STATE(multiplies, TN, S, V, identity)                                                         \
  ZR_CPU_KEY_STATE(minimum, TN, S, VK, IVK, ZR_CPU_PICK_MIN, IMIN)                                          \
  ZR_CPU_KEY_STATE(maximum, TN, S, VK, IVK, ZR_CPU_PICK_MAX, IMAX)

// Lanes hold 0 or 1 (elements are normalised as they are loaded), so the logical ops are bitwise ones.
#define ZR_CPU_DEFINE_BOOL()                                                           \
  static inline uchar16 zr_vw_logical_and_bool(uchar16 a, uchar16 b) { return a & b; } \
  static inline uchar16 zr_vw_logical_or_bool(uchar16 a, uchar16 b) { return a | b; }  \
  ZR_CPU_PLAIN_STATE(logical_and, bool, uchar, uchar16, identity != 0)                 \
  ZR_CPU_PLAIN_STATE(logical_or, bool, uchar, uchar16, identity != 0)

#define ZR_CPU_DEFINE_F32()                                                                               \
  ZR_CPU_DEFINE_FLOATING(f32, float, float8, ZR_CAT(float, ZR_CPU_MINMAX_LANES_f32),                     \
                         ZR_CAT(int, ZR_CPU_MINMAX_LANES_f32), INT_MIN, INT_MAX, 0x7f800000)
#define ZR_CPU_DEFINE_F64()                                                                               \
  ZR_CPU_DEFINE_FLOATING(f64, double, double4, ZR_CAT(double, ZR_CPU_MINMAX_LANES_f64),                  \
                         ZR_CAT(long, ZR_CPU_MINMAX_LANES_f64), LONG_MIN, LONG_MAX, 0x7ff0000000000000L)

#if defined(ZR_CLASS_BASE)
ZR_CPU_DEFINE_INTEGER(i8, char, char16, uchar16)
ZR_CPU_DEFINE_INTEGER(i16, short, short16, ushort16)
ZR_CPU_DEFINE_INTEGER(i32, int, int16, uint16)
ZR_CPU_DEFINE_INTEGER(i64, long, long2, ulong2)
ZR_CPU_DEFINE_INTEGER(u8, uchar, uchar16, uchar16)
ZR_CPU_DEFINE_INTEGER(u16, ushort, ushort16, ushort16)
ZR_CPU_DEFINE_INTEGER(u32, uint, uint16, uint16)
ZR_CPU_DEFINE_INTEGER(u64, ulong, ulong2, ulong2)
ZR_CPU_DEFINE_F32()
ZR_CPU_DEFINE_BOOL()
#elif defined(ZR_CLASS_FP16) || defined(ZR_CLASS_F32)
ZR_CPU_DEFINE_F32()
#elif defined(ZR_CLASS_FP64)
ZR_CPU_DEFINE_F64()
#endif

// ---- W elements as W accumulator values ------------------------------------------------------------------------
// Plain vector loads (zr_cpu_loads.h), and operators rather than built-in functions in the steps: PoCL 5.0
// calls built-ins (min, max, select) out of line from our SPIR bitcode. f16 still converts with vload_halfN.
#define ZR_CPU_LOADW_i8(W, p) ZR_CPU_PLAIN_LOAD(char, W, p)
#define ZR_CPU_LOADW_u8(W, p) ZR_CPU_PLAIN_LOAD(uchar, W, p)
#define ZR_CPU_LOADW_i16(W, p) ZR_CPU_PLAIN_LOAD(short, W, p)
#define ZR_CPU_LOADW_u16(W, p) ZR_CPU_PLAIN_LOAD(ushort, W, p)
#define ZR_CPU_LOADW_i32(W, p) ZR_CPU_PLAIN_LOAD(int, W, p)
#define ZR_CPU_LOADW_u32(W, p) ZR_CPU_PLAIN_LOAD(uint, W, p)
#define ZR_CPU_LOADW_i64(W, p) ZR_CPU_PLAIN_LOAD(long, W, p)
#define ZR_CPU_LOADW_u64(W, p) ZR_CPU_PLAIN_LOAD(ulong, W, p)
#define ZR_CPU_LOADW_f32(W, p) ZR_CPU_PLAIN_LOAD(float, W, p)
#define ZR_CPU_LOADW_f64(W, p) ZR_CPU_PLAIN_LOAD(double, W, p)
#define ZR_CPU_LOADW_f16(W, p) ZR_CAT(vload_half, W)(0, (p))
#define ZR_CPU_LOADW_bool(W, p) \
  (as_uchar16(ZR_CPU_PLAIN_LOAD(uchar, 16, (global const uchar*)(p)) != (uchar16)0) & (uchar16)1) /* W is 16 */

// The last (end - body_end) < W elements go into a vector of identities, one conditional load per lane. A
// scalar tail loop would be the obvious way, but clang's loop vectoriser turns it into llvm.vector.reduce.*,
// which llvm-spirv-15 cannot translate (the build also turns clang's vectorisers off now; this way the
// kernel does not depend on that).
#define ZR_CPU_TAIL_LANE(TN, rest, count, at, k, s) \
  if (k < (count)) (rest).s = ZR_LOAD_##TN(in, (at) + k);
#define ZR_CPU_LOAD_TAIL_2(TN, rest, count, at) ZR_CPU_TAIL_LANE(TN, rest, count, at, 0, s0)
#define ZR_CPU_LOAD_TAIL_4(TN, rest, count, at)                                             \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 0, s0) ZR_CPU_TAIL_LANE(TN, rest, count, at, 1, s1) \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 2, s2)
#define ZR_CPU_LOAD_TAIL_8(TN, rest, count, at)                                             \
  ZR_CPU_LOAD_TAIL_4(TN, rest, count, at) ZR_CPU_TAIL_LANE(TN, rest, count, at, 3, s3)      \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 4, s4) ZR_CPU_TAIL_LANE(TN, rest, count, at, 5, s5) \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 6, s6)
#define ZR_CPU_LOAD_TAIL_16(TN, rest, count, at)                                              \
  ZR_CPU_LOAD_TAIL_8(TN, rest, count, at) ZR_CPU_TAIL_LANE(TN, rest, count, at, 7, s7)        \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 8, s8) ZR_CPU_TAIL_LANE(TN, rest, count, at, 9, s9)   \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 10, sa) ZR_CPU_TAIL_LANE(TN, rest, count, at, 11, sb) \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 12, sc) ZR_CPU_TAIL_LANE(TN, rest, count, at, 13, sd) \
  ZR_CPU_TAIL_LANE(TN, rest, count, at, 14, se)

// The lanes are folded as a fixed halving tree (lane k with lane k+W/2, then k+W/4, ...) by shuffles within
// the vector. A scalar fold in lane order would do as well, but clang's SLP vectoriser turns such a fold of
// an integer op into llvm.vector.reduce.* too (and loop pragmas that would prevent that produce
// structured-loop SPIR-V that spirv-val rejects).
#define ZR_CPU_FOLD_2(VCOMBINE, lanes) (lanes) = VCOMBINE((lanes), (lanes).s10);
#define ZR_CPU_FOLD_4(VCOMBINE, lanes)        \
  (lanes) = VCOMBINE((lanes), (lanes).s2301); \
  (lanes) = VCOMBINE((lanes), (lanes).s1032);
#define ZR_CPU_FOLD_8(VCOMBINE, lanes)            \
  (lanes) = VCOMBINE((lanes), (lanes).s45670123); \
  (lanes) = VCOMBINE((lanes), (lanes).s23016745); \
  (lanes) = VCOMBINE((lanes), (lanes).s10325476);
#define ZR_CPU_FOLD_16(VCOMBINE, lanes)                   \
  (lanes) = VCOMBINE((lanes), (lanes).s89abcdef01234567); \
  (lanes) = VCOMBINE((lanes), (lanes).s4567012389abcdef); \
  (lanes) = VCOMBINE((lanes), (lanes).s2301674589abcdef); \
  (lanes) = VCOMBINE((lanes), (lanes).s1032547689abcdef);

// Folds in[begin, end) into the ACC `out`: the hot loop and tail above, then the lanes' fixed fold (segcpu.cl folds
// its pieces with it too). Reads the kernel's `in`.
#define ZR_CPU_FOLD_RANGE(OP, TN, ATN, W, VACC, begin, end, identity, out)                                  \
  {                                                                                                        \
    const ulong body_end = (begin) + (((end) - (begin)) & ~(ulong)(W - 1));                                \
    /* two states take alternate blocks of W, two independent dependency chains for the CPU's pipelines */ \
    zr_sw_##OP##_##ATN even = zr_sw_init_##OP##_##ATN(identity);                                           \
    zr_sw_##OP##_##ATN odd = even;                                                                         \
    ulong i = (begin);                                                                                     \
    for (; i + 2 * W <= body_end; i += 2 * W) {                                                            \
      even = zr_sw_step_##OP##_##ATN(even, ZR_CPU_LOADW_##TN(W, in + i));                                  \
      odd = zr_sw_step_##OP##_##ATN(odd, ZR_CPU_LOADW_##TN(W, in + i + W));                                \
    }                                                                                                      \
    if (i < body_end) even = zr_sw_step_##OP##_##ATN(even, ZR_CPU_LOADW_##TN(W, in + i));                  \
    VACC lanes = zr_sw_values_##OP##_##ATN(zr_sw_merge_##OP##_##ATN(even, odd));                           \
    VACC rest = zr_sw_values_##OP##_##ATN(zr_sw_init_##OP##_##ATN(identity));                              \
    ZR_CAT(ZR_CPU_LOAD_TAIL_, W)(TN, rest, (uint)((end) - body_end), body_end)                             \
    lanes = zr_vw_##OP##_##ATN(lanes, rest);                                                               \
    ZR_CAT(ZR_CPU_FOLD_, W)(zr_vw_##OP##_##ATN, lanes)                                                     \
    /* the scalar combine also makes the payload of a NaN canonical */                                     \
    (out) = ZR_COMBINE(OP, ATN)(identity, lanes.s0);                                                       \
  }

#define ZR_CPU_KERNEL(OP, TN, T, ACC, ATN) ZR_CPU_KERNEL_W(OP, TN, T, ACC, ATN, ZR_CPU_W(OP, ATN))
#define ZR_CPU_KERNEL_W(OP, TN, T, ACC, ATN, W) ZR_CPU_KERNEL_(OP, TN, T, ACC, ATN, W, ZR_CAT(ACC, W))
#define ZR_CPU_KERNEL_(OP, TN, T, ACC, ATN, W, VACC)                                                       \
  kernel void ZR_CPU_ENTRY(OP, TN)(global const T* restrict in, ulong n, global ACC* restrict partials,   \
                                   ACC identity, local ACC* scratch) {                                     \
    const ulong items = get_global_size(0);                                                                \
    /* ceil(n / items) written without n % items, which clang turns into a freeze llvm-spirv-15 rejects */ \
    const ulong per_item = n == 0 ? 0 : (n - 1) / items + 1;                                               \
    const ulong chunk = (per_item + (ZR_CPU_CHUNK_MULTIPLE - 1)) & ~(ulong)(ZR_CPU_CHUNK_MULTIPLE - 1);    \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                  \
    const ulong end = min(n, begin + chunk);                                                               \
    ACC acc;                                                                                               \
    ZR_CPU_FOLD_RANGE(OP, TN, ATN, W, VACC, begin, end, identity, acc)                                     \
    partials[get_global_id(0)] = acc;                                                                      \
  }

// cpu_wide.cl names and picks its own kernels.
#ifndef ZR_CPU_ENTRY
#define ZR_CPU_ENTRY(OP, TN) zr_cpu_##OP##_##TN
#endif
#ifndef ZR_CPU_INSTANCES
#define ZR_CPU_INSTANCES ZR_FOR_EACH_PAIR
#endif
ZR_CPU_INSTANCES(ZR_CPU_KERNEL)
