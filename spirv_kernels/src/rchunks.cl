// Variant "rchunks": the first pass of a reproducible sum (zr_binned.h) shaped for CPU devices, as cpu.cl:
// work-item i of G adds the contiguous chunk [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up
// to a multiple of 16, and writes one state (launch with local size 1). The hot loop works on vectors of
// ZR_RLANES_* inputs at once, the bins' float sums kept per lane; a vector with any input that does not
// fit under the current top (a larger value, an infinity or NaN) is added one input at a time instead.
// Arguments: in, n (64-bit), states (one zr_binned per work-item), scratch (unused: the signature of rgrid).
// 16 f32 or 8 f64 lanes (64-byte vectors): the loop does about 16 vector operations a vector, so the widest
// vectors win where the CPU has them; and 8 interleaved streams (ZR_RSTREAMS). zr_reproducible_bench at 2^26
// on a 2-core Xeon with AVX-512 (2026-11-25), f32 / f64 GB/s: 8 and 4 lanes, one stream: PoCL 3.1 5.5 / 5.7,
// Intel's CPU runtime 6.2 / 6.6; 16 and 8 lanes: 8.6 / 10.4 and 9.0 / 10.8; with 8 streams: 20.4 / 23.8
// (0.83x / 0.75x our default sum) and 21.5 / 23.1 (0.79x / 0.73x). The one-factor step with fma and bin 3
// summed as integers (19 -> 16 operations), against the step before it, in turn on another 2-core Xeon
// (2026-11-25, 2^26 and 2^28, GB/s): PoCL 3.1 f32 13.3-16.4 -> 17.6-18.9, f64 15.8-19.0 -> 18.2-22.3;
// Intel's CPU runtime f32 18.3-18.4 -> 20.0-20.3, f64 19.6-20.5 -> 20.8-22.7. bench/README.md, "Reproducible sums".
#include "zr_binned.h"

#define ZR_RLANES_f32 16
#define ZR_RLANES_f64 8
#define ZR_RVEC_f32 float16
#define ZR_RVEC_f64 double8
#define ZR_RLONGS_f32(v) convert_long16(v)
#define ZR_RLONGS_f64(v) convert_long8(v)
#define ZR_RLANE_SUM_16(v) (ZR_RLANE_SUM_8((v).lo) + ZR_RLANE_SUM_8((v).hi))
#define ZR_RLANE_SUM_8(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3 + (v).s4 + (v).s5 + (v).s6 + (v).s7)
#define ZR_RLANE_SUM_(N, v) ZR_RLANE_SUM_##N(v)
#define ZR_RLANE_SUM(N, v) ZR_RLANE_SUM_(N, v)
#define ZR_RVLOAD_f32(i, p) vload16((i), (p))
#define ZR_RVLOAD_f16(i, p) vload_half16((i), (p))
#define ZR_RVLOAD_f64(i, p) vload8((i), (p))

#define ZR_RLANE_ADD(FTN, s, v) zr_rsum_add_##FTN(s, v)
#define ZR_RLANE_ADDS_4(FTN, s, x) \
  ZR_RLANE_ADD(FTN, s, (x).s0); ZR_RLANE_ADD(FTN, s, (x).s1); ZR_RLANE_ADD(FTN, s, (x).s2); ZR_RLANE_ADD(FTN, s, (x).s3)
#define ZR_RLANE_ADDS_8(FTN, s, x) ZR_RLANE_ADDS_4(FTN, s, (x).lo); ZR_RLANE_ADDS_4(FTN, s, (x).hi)
#define ZR_RLANE_ADDS_f64(s, x) ZR_RLANE_ADDS_8(f64, s, x)
#define ZR_RLANE_ADDS_f32(s, x) ZR_RLANE_ADDS_8(f32, s, (x).lo); ZR_RLANE_ADDS_8(f32, s, (x).hi)

#define ZR_RUVEC_f32 uint16
#define ZR_RUVEC_f64 ulong8
#define ZR_RAS_UINTS_f32(v) as_uint16(v)
#define ZR_RAS_UINTS_f64(v) as_ulong8(v)
#define ZR_RBIN3_LONGS_f32(v) convert_long16(as_int16(v))
#define ZR_RBIN3_LONGS_f64(v) as_long8(v)
#define ZR_RC3_BITS_f32 ((uint)as_uint(ZR_RSUM_C3_f32))
#define ZR_RC3_BITS_f64 ((ulong)as_ulong(ZR_RSUM_C3_f64))
#define ZR_RUINT_f32 uint
#define ZR_RUINT_f64 ulong

// The lanes' integer values of the four bins' sums (exact: see ZR_RSUM_FLUSH_*), added into the bins; bin 3's
// are its summed bits less bits(C3) once for each of the `pending` vectors.
#define ZR_RLANES_FLUSH(FTN, FT, bins, sum0, sum1, sum2, bits3, pending)                                     \
  do {                                                                                                       \
    const FT##4 u = ZR_RSUM_UNITS_##FTN;                                                                     \
    const ZR_RUVEC_##FTN bias = (ZR_RUINT_##FTN)(pending) * ZR_RC3_BITS_##FTN;                               \
    (bins) += (long4)(ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum0) * u.s0)),                         \
                      ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum1) * u.s1)),                         \
                      ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum2) * u.s2)),                         \
                      ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RBIN3_LONGS_##FTN((bits3) - bias)));                  \
    (sum0) = (sum1) = (sum2) = 0;                                                                            \
    (bits3) = 0;                                                                                             \
    (pending) = 0;                                                                                           \
  } while (0)

// The scale 2^(-E0 - top*W) as one factor where it is a normal number, else infinity (the fast step is then
// not used: ZR_RCHUNKS_STEP_TWO_FACTORS instead). The top only rises, so once normal it stays normal.
#define ZR_DEFINE_RCHUNKS_SCALE(FTN, FT)                                                                     \
  static inline FT zr_rchunks_scale_##FTN(FT high, FT low) {                                                 \
    const FT scale = high * low;                                                                             \
    return isnormal(scale) ? scale : (FT)INFINITY;                                                           \
  }
#if defined(ZR_CLASS_FP64)
ZR_DEFINE_RCHUNKS_SCALE(f64, double)
#else
ZR_DEFINE_RCHUNKS_SCALE(f32, float)
#endif

// Bins 1 to 3 of one vector, from y1 = the input less its bin-0 piece. Bin 3 is summed as the integers
// bits(y3 + C3): in C3's binade they are bits(C3) plus the piece in bin 3's units, so the bias comes off once
// per flush (ZR_RLANES_FLUSH, wrapping unsigned sums are exact: a lane's true sum fits in 31 or 63 bits).
#define ZR_RCHUNKS_LOW_BINS(FTN, y1)                                                                           \
  {                                                                                                            \
    ZR_RVEC_##FTN rest = (y1);                                                                                    \
    ZR_RVEC_##FTN piece = (rest + ZR_RSUM_C1_##FTN) - ZR_RSUM_C1_##FTN;                                           \
    sum1 += piece;                                                                                             \
    rest -= piece;                                                                                                \
    piece = (rest + ZR_RSUM_C2_##FTN) - ZR_RSUM_C2_##FTN;                                                         \
    sum2 += piece;                                                                                             \
    rest -= piece;                                                                                                \
    bits3 += ZR_RAS_UINTS_##FTN(rest + ZR_RSUM_C3_##FTN);                                                         \
  }

// A vector with any input that does not fit under the current top (NaN too) goes through zr_rsum_add_* one
// input at a time, after the lanes' sums move to the bins (the top may rise, and with it the scale).
#define ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x)                                                                   \
  {                                                                                                            \
    ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);                                        \
    ZR_RLANE_ADDS_##FTN(&s, x);                                                                                \
    scale_high = s.scale_high;                                                                                 \
    scale_low = s.scale_low;                                                                                   \
    scale = zr_rchunks_scale_##FTN(scale_high, scale_low);                                                     \
  }

#define ZR_RCHUNKS_COUNT(FTN, FT)                                                                              \
  if (++pending == ZR_RSUM_FLUSH_##FTN) ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);

// One vector while 2^(-E0 - top*W) is not a normal number (the top of tiny inputs, or of none yet): the input
// is scaled by two factors, as zr_rsum_add_* does.
#define ZR_RCHUNKS_STEP_TWO_FACTORS(TN, FTN, FT, at)                                                           \
  {                                                                                                            \
    const ZR_RVEC_##FTN x = ZR_RVLOAD_##TN(0, in + (at));                                                      \
    const ZR_RVEC_##FTN y = x * scale_high * scale_low;                                                        \
    if (any(!isless(fabs(y), (ZR_RVEC_##FTN)ZR_RSUM_LIMIT_##FTN))) {                                           \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x);                                                                    \
    } else {                                                                                                   \
      const ZR_RVEC_##FTN piece = (y + ZR_RSUM_C0_##FTN) - ZR_RSUM_C0_##FTN;                                   \
      sum0 += piece;                                                                                           \
      ZR_RCHUNKS_LOW_BINS(FTN, y - piece);                                                                     \
      ZR_RCHUNKS_COUNT(FTN, FT);                                                                               \
    }                                                                                                          \
  }

// One vector of the hot loop, once the scale is one normal factor: x * scale is exact (or, below the normal
// range, far below bin 3 either way), so fma(x, scale, C0) rounds exactly as (x * scale) + C0 does and
// fma(x, scale, -piece) is the exact remainder: the pieces are those of the two-factor path. The range check
// is on the bin-0 piece, an integer: |piece| < LIMIT means |y| < LIMIT - 1/2 (NaN, infinities, overflow and
// inputs just under LIMIT take the one-at-a-time path, which decides exactly). Three operations a vector fewer
// than the two-factor step with the check on y, and bin 3's integer sum one more: zr_reproducible_bench,
// bench/README.md "Reproducible sums".
#define ZR_RCHUNKS_STEP(TN, FTN, FT, at)                                                                       \
  {                                                                                                            \
    const ZR_RVEC_##FTN x = ZR_RVLOAD_##TN(0, in + (at));                                                      \
    const ZR_RVEC_##FTN piece = fma(x, (ZR_RVEC_##FTN)scale, (ZR_RVEC_##FTN)ZR_RSUM_C0_##FTN) - ZR_RSUM_C0_##FTN; \
    if (any(!isless(fabs(piece), (ZR_RVEC_##FTN)ZR_RSUM_LIMIT_##FTN))) {                                       \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x);                                                                    \
    } else {                                                                                                   \
      sum0 += piece;                                                                                           \
      ZR_RCHUNKS_LOW_BINS(FTN, fma(x, (ZR_RVEC_##FTN)scale, -piece));                                          \
      ZR_RCHUNKS_COUNT(FTN, FT);                                                                               \
    }                                                                                                          \
  }

// The chunk is read as ZR_RSTREAMS interleaved streams (then its rest as one), so that the memory system
// fetches that many places ahead at once: the loop's arithmetic leaves one stream's hardware prefetch behind.
// A C++ loop of the same arithmetic on one core of a 2-core Xeon, 2^26 f32 from memory: 6.2 GB/s with one
// stream, 11.0 with 4, 12.8 with 8 (19.5 from cache). The sum does not depend on the order.
#define ZR_RSTREAMS 8
#define ZR_RCHUNKS_AT(FTN, v) (begin + ((v) % ZR_RSTREAMS) * stream + (v) / ZR_RSTREAMS * ZR_RLANES_##FTN)
#define ZR_RCHUNKS_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                              \
  kernel void zr_rchunks_plus_##TN(global const T* restrict in, ulong n, global zr_binned* restrict states,    \
                                   local zr_binned* scratch) {                                                 \
    const ulong items = get_global_size(0);                                                                    \
    const ulong chunk = ((n + items - 1) / items + 15) / 16 * 16;                                              \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                      \
    const ulong end = min(n, begin + chunk);                                                                   \
    zr_rsum_##FTN s;                                                                                           \
    zr_rsum_init_##FTN(&s);                                                                                    \
    ZR_RVEC_##FTN sum0 = 0, sum1 = 0, sum2 = 0;                                                                \
    ZR_RUVEC_##FTN bits3 = 0;                                                                                  \
    FT scale_high = s.scale_high, scale_low = s.scale_low;                                                     \
    FT scale = zr_rchunks_scale_##FTN(scale_high, scale_low);                                                  \
    uint pending = 0;                                                                                          \
    const ulong stream = (end - begin) / ZR_RSTREAMS / ZR_RLANES_##FTN * ZR_RLANES_##FTN;                      \
    /* vector v of the interleaved part: stream v % ZR_RSTREAMS, its vector v / ZR_RSTREAMS (loops one after   \
       another, not nested: llvm-spirv-15 orders the blocks of two nested ones wrongly) */                     \
    const ulong vectors = stream / ZR_RLANES_##FTN * ZR_RSTREAMS;                                              \
    ulong v = 0;                                                                                               \
    for (; v < vectors && isinf(scale); ++v) ZR_RCHUNKS_STEP_TWO_FACTORS(TN, FTN, FT, ZR_RCHUNKS_AT(FTN, v));       \
    for (; v < vectors; ++v) ZR_RCHUNKS_STEP(TN, FTN, FT, ZR_RCHUNKS_AT(FTN, v));                                   \
    ulong i = begin + ZR_RSTREAMS * stream;                                                                    \
    for (; i + ZR_RLANES_##FTN <= end; i += ZR_RLANES_##FTN) ZR_RCHUNKS_STEP_TWO_FACTORS(TN, FTN, FT, i);      \
    ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);                                        \
    for (; i < end; ++i) zr_rsum_add_##FTN(&s, ZR_LOAD_##TN(in, i));                                           \
    states[get_global_id(0)] = zr_rsum_state_##FTN(&s);                                                        \
  }

ZR_FOR_EACH_RSUM(ZR_RCHUNKS_KERNEL)
