// Reproducible floating-point sums (property::reduction::reproducible): a sum whose bits depend only on the
// multiset of input values, never on the order, the launch shape, the device or how the input was split.
//
// The method is binned summation with fixed, global bin boundaries (in the spirit of Demmel and Nguyen's
// pre-rounding and the binned numbers of ReproBLAS, written here from the idea, not their code):
//   - Global bin j has the unit u_j = 2^(E0 + j*W). Every finite x has a canonical decomposition into
//     pieces, one per bin from the top down: piece_j = round-to-nearest-even(r / u_j) * u_j, r -= piece_j,
//     starting from r = x at any bin above b_top(x) (the lowest bin b with |x| < u_(b+1) / 2; above it every
//     piece is 0, so the start does not change the pieces).
//   - A state keeps the ZR_BINS bins below and at its top T = the largest b_top of the values it holds, each
//     bin the exact integer sum (in units of u_j) of its pieces; pieces of lower bins are dropped.
//   - Two states merge by moving the lower one's window up to the higher top (dropping bins that fall out)
//     and adding bins as integers. Integer addition is exact, and a bin is dropped exactly when it is below
//     the final window, so the merged state is the same whatever the order or grouping: the sum over all
//     inputs of their pieces in the bins [T - ZR_BINS + 1, T], T = max b_top over the whole input.
//   - The result is that exact integer combination rounded once, to nearest even, to the element type.
// Error: each input loses less than u_(T-ZR_BINS+1) / 2 <= 2^(-(ZR_BINS-1)*W) * max|x|, so
//   |result - exact sum| <= n * 2^(-(ZR_BINS-1)*W) * max|x| + half an ulp of the result
// (2^-48 for f32 and f16 data, 2^-60 for f64: runtime/core/binned_sum.hpp, checked against exact sums).
// Infinities and NaN are recorded as flags and give what the plain sum gives (NaN if any NaN or both
// infinities, else the infinity). An exact zero is +0.0.
//
// Per work-item, pieces are summed in floating point first (exact: they are multiples of the bin's unit and
// few enough not to round, see ZR_RSUM_FLUSH_*) in a scaled domain where the top bin's unit is 1, so that
// neither the extraction constants nor the pieces overflow or become subnormal; every ZR_RSUM_FLUSH_* inputs
// the sums move into the integer bins. One input costs 2 multiplies, a compare and 4 * ZR_BINS - 1 adds:
// less than the memory time of reading it on GPUs (bench/README.md, reproducible sums).
//
// Needs subnormal f32 arithmetic on devices reducing f32 (the runtime checks; f16 inputs are never
// subnormal as f32) and no fast-math: (r + c) - c must not be simplified.
#ifndef ZR_BINNED_H
#define ZR_BINNED_H

#include "zr_types.h"

#define ZR_BINS 4

// What partials hold between passes: a long8 (64 bytes; runtime/core/binned_sum.hpp reads the same layout)
//   s0..s3  bin k: the integer sum, in units of u_(top - k), of the pieces in bin top - k
//   s4      top        s5  flags (ZR_SEEN_*)        s6, s7  0
// A vector, not a struct, and the per-work-item sums below are changed through pointers: llvm-spirv-15 and
// spirv-val reject what clang makes of structs passed by value (byval copies with alias-scope metadata).
typedef long8 zr_binned;

#define ZR_SEEN_POSITIVE_INFINITY 1u
#define ZR_SEEN_NEGATIVE_INFINITY 2u
#define ZR_SEEN_NAN 4u

static inline zr_binned zr_binned_empty(void) { return (long8)(0); }

// The bins of a state moved `by` >= 0 bins up (the lowest fall out).
static inline long4 zr_bins_raised(long4 b, int by) {
  return by == 0 ? b : by == 1 ? (long4)(0, b.s0, b.s1, b.s2) : by == 2 ? (long4)(0, 0, b.s0, b.s1)
       : by == 3 ? (long4)(0, 0, 0, b.s0) : (long4)(0);
}

static inline zr_binned zr_binned_merge(zr_binned a, zr_binned b) {
  const long top = max(a.s4, b.s4);
  const long4 bins = zr_bins_raised(a.lo, (int)(top - a.s4)) + zr_bins_raised(b.lo, (int)(top - b.s4));
  return (long8)(bins, top, a.s5 | b.s5, 0, 0);
}

// The states of a work-group merged through local memory; the merged state comes back to every work-item.
// Pairs, not zr_group_tree.h's eight-way steps: eight 64-byte states at once spill registers on Intel GPUs.
// The merge is exact, so the pairing does not change the result.
static inline zr_binned zr_binned_group_merge(zr_binned state, local zr_binned* scratch) {
  const uint lid = (uint)get_local_id(0);
  scratch[lid] = state;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint active = (uint)get_local_size(0); active > 1;) {
    const uint half_up = (active + 1) / 2;
    if (lid + half_up < active) scratch[lid] = zr_binned_merge(scratch[lid], scratch[lid + half_up]);
    barrier(CLK_LOCAL_MEM_FENCE);
    active = half_up;
  }
  return scratch[0];
}

// `count` states merged by one work-group: each work-item merges a strided share, then the group merges
// those through local memory (rfinal, rstate). Every work-item gets the merged state. (No `restrict` here:
// on an inlined function's parameter llvm-spirv-15 emits alias-scope declarations that spirv-val rejects.)
static inline zr_binned zr_binned_merge_states(global const zr_binned* states, ulong count,
                                               local zr_binned* scratch) {
  zr_binned state = zr_binned_empty();
  for (ulong i = get_local_id(0); i < count; i += get_local_size(0)) state = zr_binned_merge(state, states[i]);
  return zr_binned_group_merge(state, scratch);
}

// ---- rounding a state to a floating-point value ----------------------------------------------------------
// After zr_binned_carried the state is the integer Z = sum_k bin.sk * 2^((3-k)*W) with bins 1..3 in
// [0, 2^W) and the sign in bin 0; the value is Z * 2^(E0 + (top - 3) * W).
static inline long4 zr_binned_carried(long4 b, int width) {
  const long unit = 1L << width;
  long carry = b.s3 >> width;  // floor division: the rest is in [0, 2^width)
  b.s3 -= carry * unit;
  b.s2 += carry;
  carry = b.s2 >> width;
  b.s2 -= carry * unit;
  b.s1 += carry;
  carry = b.s1 >> width;
  b.s1 -= carry * unit;
  b.s0 += carry;
  return b;
}

// Bits [start, start + 64) of a non-negative digit at bit `offset` of Z, and its bits below `position`.
static inline ulong zr_digit_bits(ulong digit, int offset, int start) {
  const int up = offset - start;
  return up >= 64 || up <= -64 ? 0 : up >= 0 ? digit << up : digit >> -up;
}
static inline ulong zr_digit_below(ulong digit, int offset, int position) {
  const int below = position - offset;
  return below <= 0 ? 0 : below >= 64 ? digit : digit & ((1UL << below) - 1);
}
static inline ulong zr_binned_bits(long4 b, int width, int start) {
  return zr_digit_bits((ulong)b.s0, 3 * width, start) | zr_digit_bits((ulong)b.s1, 2 * width, start) |
         zr_digit_bits((ulong)b.s2, width, start) | zr_digit_bits((ulong)b.s3, 0, start);
}
static inline ulong zr_binned_below(long4 b, int width, int position) {
  return zr_digit_below((ulong)b.s0, 3 * width, position) | zr_digit_below((ulong)b.s1, 2 * width, position) |
         zr_digit_below((ulong)b.s2, width, position) | zr_digit_below((ulong)b.s3, 0, position);
}
static inline int zr_digit_length(ulong digit, int offset) { return digit ? offset + 64 - (int)clz(digit) : 0; }

// The finite part rounded to `mantissa` significant bits and to a multiple of 2^min_exponent, to nearest
// even: (negative ? -1 : 1) * significand * 2^exponent, with significand <= 2^mantissa.
typedef struct {
  ulong significand;
  int exponent;
  int negative;
} zr_rounded;

static inline zr_rounded zr_binned_round(zr_binned s, int width, int e0, int mantissa, int min_exponent) {
  zr_rounded r;
  long4 b = zr_binned_carried(s.lo, width);
  r.negative = b.s0 < 0;
  b = r.negative ? zr_binned_carried(-b, width) : b;
  const int length = max(max(zr_digit_length((ulong)b.s0, 3 * width), zr_digit_length((ulong)b.s1, 2 * width)),
                         max(zr_digit_length((ulong)b.s2, width), zr_digit_length((ulong)b.s3, 0)));
  const int low = e0 + ((int)s.s4 - 3) * width;  // the exponent of Z's bit 0
  // Z's bit that becomes the result's last (<= 0: Z fits as it is).
  const int last = max(0, max(length - mantissa, min_exponent - low));
  const ulong kept = zr_binned_bits(b, width, last) & ((1UL << (mantissa + 1)) - 1);
  const ulong round_bit = last > 0 ? zr_binned_bits(b, width, last - 1) & 1 : 0;
  const ulong sticky = last > 1 ? zr_binned_below(b, width, last - 1) : 0;
  r.significand = kept + (round_bit & ((sticky != 0) | (kept & 1)));
  r.exponent = low + last;
  return r;
}

// NaN, an infinity, or 0 when the flags leave the finite sum to decide.
#define ZR_BINNED_SPECIAL(FT, flags)                                                                    \
  (((flags) & ZR_SEEN_NAN) || ((flags) & 3) == 3 ? (FT)NAN                                              \
   : ((flags) & ZR_SEEN_POSITIVE_INFINITY)         ? (FT)INFINITY                                       \
   : ((flags) & ZR_SEEN_NEGATIVE_INFINITY)         ? -(FT)INFINITY                                      \
                                                   : (FT)0)

// ---- per-work-item accumulation ---------------------------------------------------------------------------
// For each compute type FT (float for f16 and f32 data, double for f64):
//   ZR_RSUM_WIDTH_FT  W, bits per bin        ZR_RSUM_E0_FT  exponent of global bin 0's unit
//   ZR_RSUM_FLUSH_FT  inputs between moves of the float sums into the integer bins: each input adds less
//                     than 2^(W-1) units to a bin's sum, which must stay below 2^(mantissa bits) to be exact
//   ZR_RSUM_LIMIT_FT  2^(W-1): a scaled input below it belongs under the current top
//   ZR_RSUM_UNITS_FT  2^(k*W): the scaled sums times these are integers in units of their bins
// and the extraction constants 1.5 * 2^(mantissa bits - 1 - k*W) (adding and subtracting one rounds to a
// multiple of the bin's scaled unit 2^(-k*W), to nearest even).
#define ZR_RSUM_WIDTH_f32 16
#define ZR_RSUM_E0_f32 (-149)
#define ZR_RSUM_FLUSH_f32 256u /* + up to 15 more: 271 * 2^15 < 2^24 */
#define ZR_RSUM_LIMIT_f32 0x1p15f
#define ZR_RSUM_C0_f32 0x1.8p23f
#define ZR_RSUM_C1_f32 0x1.8p7f
#define ZR_RSUM_C2_f32 0x1.8p-9f
#define ZR_RSUM_C3_f32 0x1.8p-25f
#define ZR_RSUM_UINT_f32 uint
#define ZR_RSUM_UNITS_f32 (float4)(1.0f, 0x1p16f, 0x1p32f, 0x1p48f)
#define ZR_RSUM_BIAS_f32 127
#define ZR_RSUM_SHIFT_f32 23

#define ZR_RSUM_WIDTH_f64 20
#define ZR_RSUM_E0_f64 (-1074)
#define ZR_RSUM_FLUSH_f64 (1u << 30)
#define ZR_RSUM_LIMIT_f64 0x1p19
#define ZR_RSUM_C0_f64 0x1.8p52
#define ZR_RSUM_C1_f64 0x1.8p32
#define ZR_RSUM_C2_f64 0x1.8p12
#define ZR_RSUM_C3_f64 0x1.8p-8
#define ZR_RSUM_UINT_f64 ulong
#define ZR_RSUM_UNITS_f64 (double4)(1.0, 0x1p20, 0x1p40, 0x1p60)
#define ZR_RSUM_BIAS_f64 1023
#define ZR_RSUM_SHIFT_f64 52

#define ZR_DEFINE_RSUM(FTN, FT, AS_FT)                                                                      \
  typedef struct {                                                                                          \
    FT##4 sum; /* sum.sk: pieces of bin top - k, scaled: that bin's unit is 2^(-k*W) */                    \
    long4 bins;               /* as zr_binned's s0..s3 */                                                   \
    int top;                                                                                                \
    uint flags;                                                                                             \
    FT scale_high, scale_low; /* 2^(-E0 - top*W) as two factors of the same sign */                         \
    uint pending;             /* inputs in sum */                                                            \
  } zr_rsum_##FTN;                                                                                          \
                                                                                                            \
  static inline FT zr_rsum_pow2_##FTN(int e) {                                                              \
    return AS_FT((ZR_RSUM_UINT_##FTN)(e + ZR_RSUM_BIAS_##FTN) << ZR_RSUM_SHIFT_##FTN);                      \
  }                                                                                                         \
  static inline void zr_rsum_rescale_##FTN(zr_rsum_##FTN* s) {                                              \
    const int to_unit = -(ZR_RSUM_E0_##FTN + s->top * ZR_RSUM_WIDTH_##FTN);                      \
    s->scale_high = zr_rsum_pow2_##FTN(to_unit / 2);                                                        \
    s->scale_low = zr_rsum_pow2_##FTN(to_unit - to_unit / 2);                                               \
  }                                                                                                         \
  static inline void zr_rsum_init_##FTN(zr_rsum_##FTN* s) {                                                 \
    s->sum = 0;                                                                                             \
    s->bins = 0;                                                                                            \
    s->top = 0;                                                                                             \
    s->flags = 0;                                                                                           \
    s->pending = 0;                                                                                         \
    zr_rsum_rescale_##FTN(s);                                                                               \
  }                                                                                                         \
  static inline void zr_rsum_flush_##FTN(zr_rsum_##FTN* s) {                                                \
    s->bins += convert_long4(s->sum * ZR_RSUM_UNITS_##FTN);                                                   \
    s->sum = 0;                                                                                             \
    s->pending = 0;                                                                                         \
  }                                                                                                         \
  /* y: an input scaled by 2^(-E0 - top*W), |y| < 2^(W-1) */                                                \
  static inline void zr_rsum_pieces_##FTN(zr_rsum_##FTN* s, FT y) {                                         \
    FT##4 pieces;                                                                                           \
    pieces.s0 = (y + ZR_RSUM_C0_##FTN) - ZR_RSUM_C0_##FTN;                                                  \
    y -= pieces.s0;                                                                                         \
    pieces.s1 = (y + ZR_RSUM_C1_##FTN) - ZR_RSUM_C1_##FTN;                                                  \
    y -= pieces.s1;                                                                                         \
    pieces.s2 = (y + ZR_RSUM_C2_##FTN) - ZR_RSUM_C2_##FTN;                                                  \
    y -= pieces.s2;                                                                                         \
    pieces.s3 = (y + ZR_RSUM_C3_##FTN) - ZR_RSUM_C3_##FTN;                                                  \
    s->sum += pieces;                                                                                       \
  }                                                                                                         \
  /* after `added` more inputs (at most 16 at a time): the sums move to the bins before they could round */ \
  static inline void zr_rsum_count_##FTN(zr_rsum_##FTN* s, uint added) {                                    \
    s->pending += added;                                                                                    \
    if (s->pending >= ZR_RSUM_FLUSH_##FTN) zr_rsum_flush_##FTN(s);                                          \
  }                                                                                                         \
  /* x does not fit under the current top: an infinity, a NaN, or a value that raises the top */            \
  static inline void zr_rsum_raise_##FTN(zr_rsum_##FTN* s, FT x) {                                               \
    if (isnan(x)) {                                                                                         \
      s->flags |= ZR_SEEN_NAN;                                                                               \
    } else if (isinf(x)) {                                                                                  \
      s->flags |= x > 0 ? ZR_SEEN_POSITIVE_INFINITY : ZR_SEEN_NEGATIVE_INFINITY;                                 \
    } else {                                                                                                \
      const int above = ilogb(x) + 2 - ZR_RSUM_E0_##FTN; /* > 0 */                                          \
      const int top = (above + ZR_RSUM_WIDTH_##FTN - 1) / ZR_RSUM_WIDTH_##FTN - 1;                          \
      if (top > s->top) {                                                                                   \
        zr_rsum_flush_##FTN(s);                                                                             \
        s->bins = zr_bins_raised(s->bins, top - s->top);                                                    \
        s->top = top;                                                                                       \
        zr_rsum_rescale_##FTN(s);                                                                           \
      }                                                                                                     \
      zr_rsum_pieces_##FTN(s, x * s->scale_high * s->scale_low);                                            \
    }                                                                                                       \
  }                                                                                                         \
  /* adds x, leaving the count to the caller (zr_rsum_count_*) */                                           \
  static inline void zr_rsum_add_uncounted_##FTN(zr_rsum_##FTN* s, FT x) {                                  \
    const FT y = x * s->scale_high * s->scale_low;                                                          \
    if (fabs(y) < ZR_RSUM_LIMIT_##FTN) /* false for NaN and infinities */                                   \
      zr_rsum_pieces_##FTN(s, y);                                                                           \
    else                                                                                                    \
      zr_rsum_raise_##FTN(s, x);                                                                            \
  }                                                                                                         \
  static inline void zr_rsum_add_##FTN(zr_rsum_##FTN* s, FT x) {                                            \
    zr_rsum_add_uncounted_##FTN(s, x);                                                                      \
    zr_rsum_count_##FTN(s, 1);                                                                              \
  }                                                                                                         \
  static inline zr_binned zr_rsum_state_##FTN(zr_rsum_##FTN* s) {                                           \
    zr_rsum_flush_##FTN(s);                                                                                 \
    return (long8)(s->bins, s->top, s->flags, 0, 0);                                                        \
  }

ZR_DEFINE_RSUM(f32, float, as_float)
#if defined(ZR_CLASS_FP64)
ZR_DEFINE_RSUM(f64, double, as_double)
#endif

// ---- the (data type, compute type) pairs of the module's class ---------------------------------------------
// ZR_FOR_EACH_RSUM(K) expands K(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT): the element type's name and OpenCL C
// type, the compute type, and the element type's significand bits and least subnormal exponent.
#if defined(ZR_CLASS_F32)
#define ZR_FOR_EACH_RSUM(K) K(f32, float, f32, float, 24, -149)
#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_RSUM(K) K(f16, half, f32, float, 11, -24)
#elif defined(ZR_CLASS_FP64)
#define ZR_FOR_EACH_RSUM(K) K(f64, double, f64, double, 53, -1074)
#else
#error "reproducible sums are built for the f32, fp16 and fp64 classes"
#endif

// The value of a state as the compute type FT: exact for every element type (its significand and exponent
// fit), so that storing it as the element type (ZR_STORE_*) does not round again.
#define ZR_BINNED_VALUE(FTN, FT, state, MANTISSA, MIN_EXPONENT)                                          \
  ((state).s5 ? ZR_BINNED_SPECIAL(FT, (state).s5) : zr_binned_finite_##FTN((state), MANTISSA, MIN_EXPONENT))

#define ZR_DEFINE_BINNED_FINITE(FTN, FT, CONVERT)                                                        \
  static inline FT zr_binned_finite_##FTN(zr_binned s, int mantissa, int min_exponent) {                \
    const zr_rounded r = zr_binned_round(s, ZR_RSUM_WIDTH_##FTN, ZR_RSUM_E0_##FTN, mantissa, min_exponent); \
    const FT magnitude = ldexp(CONVERT(r.significand), r.exponent);                                      \
    return r.negative ? -magnitude : magnitude;                                                          \
  }
ZR_DEFINE_BINNED_FINITE(f32, float, convert_float)
#if defined(ZR_CLASS_FP64)
ZR_DEFINE_BINNED_FINITE(f64, double, convert_double)
#endif

#endif  // ZR_BINNED_H
