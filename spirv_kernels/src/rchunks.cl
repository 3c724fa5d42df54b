// Variant "rchunks" (and "rchunks4", rchunks4.cl): the first pass of a reproducible sum (zr_binned.h) shaped for CPU devices, as cpu.cl:
// work-item i of G adds the contiguous chunk [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up
// to a multiple of 16, and writes one state (launch with local size 1). The hot loop works on vectors of
// ZR_RLANES_* inputs at once, the bins' integer sums kept per lane; a vector with any input that does not
// fit under the current top (a larger value, an infinity or NaN) is added one input at a time instead.
// Arguments: in, n (64-bit), states (one zr_binned per work-item), scratch (unused: the signature of rgrid).
// 16 f32 or 8 f64 lanes (64-byte vectors): 17 vector operations a vector (11 floating-point), so the widest win
// where the CPU has them; 8 interleaved streams (ZR_RSTREAMS); the range checked once per 64 vectors.
// zr_reproducible_bench at 2^26 on a 2-core Xeon with AVX-512 (2026-11-25), f32 / f64 GB/s: 8 and 4 lanes, one
// stream: PoCL 3.1 5.5 / 5.7, Intel's CPU runtime 6.2 / 6.6; 16 and 8 lanes: 8.6 / 10.4 and 9.0 / 10.8; with 8
// streams: 20.4 / 23.8 and 21.5 / 23.1. Then one scale factor where it is normal, the range check on the
// bin-0 piece without built-in calls, bin 3 summed as integers and batches of four, against the loop before
// them, in turn on another 2-core Xeon (2026-11-25, PoCL 3.1, 2^26 and 2^28): f32 17.7-19.1 -> 23.3-24.7 GB/s
// (0.59-0.62x -> 0.78-0.81x our default sum in the same run), f64 20.8-21.5 -> 23.4-24.9 (0.69-0.76x ->
// 0.82-0.88x). bench/README.md, "Reproducible sums".
#include "zr_cpu_device_kernel.h"
#include "zr_binned.h"

#define ZR_RLANES_f32 16
#define ZR_RLANES_f64 8
#define ZR_RVEC_f32 float16
#define ZR_RVEC_f64 double8
#define ZR_RLANE_SUM_16(v) (ZR_RLANE_SUM_8((v).lo) + ZR_RLANE_SUM_8((v).hi))
#define ZR_RLANE_SUM_8(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3 + (v).s4 + (v).s5 + (v).s6 + (v).s7)
#define ZR_RLANE_SUM_(N, v) ZR_RLANE_SUM_##N(v)
#define ZR_RLANE_SUM(N, v) ZR_RLANE_SUM_(N, v)
// Vector loads at the element's alignment written as plain loads: PoCL 5.0 (the H100 host's) calls its built-in
// functions (vload16, fabs, any, fma) out of line from our SPIR bitcode, and each call spills every live vector
// register. The hot loop below uses no built-in function at all (f16 inputs still convert with vload_half16).
typedef float16 __attribute__((aligned(4))) zr_rloaded_f32;
typedef double8 __attribute__((aligned(8))) zr_rloaded_f64;
#define ZR_RVLOAD_f32(p) (*(global const zr_rloaded_f32*)(p))
#define ZR_RVLOAD_f16(p) vload_half16(0, (p))
#define ZR_RVLOAD_f64(p) (*(global const zr_rloaded_f64*)(p))

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
#define ZR_RBIN_LONGS_f32(v) convert_long16(as_int16(v))
#define ZR_RBIN_LONGS_f64(v) as_long8(v)
#define ZR_RC_BITS_f32(k) ((uint)as_uint(ZR_RSUM_C##k##_f32))
#define ZR_RC_BITS_f64(k) ((ulong)as_ulong(ZR_RSUM_C##k##_f64))
#define ZR_RUINT_f32 uint
#define ZR_RUINT_f64 ulong
#define ZR_RAS_UINT_f32(x) as_uint(x)
#define ZR_RAS_UINT_f64(x) as_ulong(x)
#define ZR_RAS_FT_f32(bits) as_float(bits)
#define ZR_RAS_FT_f64(bits) as_double(bits)

// The lanes' integer values of the four bins' sums, added into the bins: bin k's are its summed bits less
// bits(ck), the extraction constant in use (ZR_RCHUNKS_CONSTANTS), once for each of the `pending` vectors.
#define ZR_RLANE_BIN(FTN, k, bits, pending) \
  ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RBIN_LONGS_##FTN((bits) - (ZR_RUINT_##FTN)(pending) * ZR_RAS_UINTS_##FTN(c##k)))
#define ZR_RLANES_FLUSH(FTN, FT, bins, sum0, sum1, sum2, bits3, pending)                                     \
  do {                                                                                                       \
    (bins) += (long4)(ZR_RLANE_BIN(FTN, 0, sum0, pending), ZR_RLANE_BIN(FTN, 1, sum1, pending),              \
                      ZR_RLANE_BIN(FTN, 2, sum2, pending), ZR_RLANE_BIN(FTN, 3, bits3, pending));            \
    (sum0) = (sum1) = (sum2) = 0;                                                                            \
    (bits3) = 0;                                                                                             \
    (pending) = 0;                                                                                           \
  } while (0)

// The range check in integers, without fabs, compares or any() (built-in calls on PoCL 5): q0 = y + c0 has
// bits(q0) = bits(c0) + piece0 while |piece0| < LIMIT (q0 stays in c0's binade, whose unit is bin 0's), so
// the input fits under the top exactly when t = bits(q0) - bits(c0) + LIMIT - 1 is at most 2 LIMIT - 2 as
// an unsigned number; a larger piece, a negative q0, an infinity or a NaN give a larger t. `outside` keeps
// each lane's largest t (a ?: of a comparison, one unsigned max instruction). outside_shift is
// bits(c0) - LIMIT + 1 (ZR_RCHUNKS_CONSTANTS).
#define ZR_ROUTSIDE_ABOVE_f32 (2u * (uint)ZR_RSUM_LIMIT_f32 - 2u)
#define ZR_ROUTSIDE_ABOVE_f64 (2UL * (ulong)ZR_RSUM_LIMIT_f64 - 2UL)
#define ZR_ROUTSIDE_NOTE(FTN, q0_bits)                                                                       \
  {                                                                                                          \
    const ZR_RUVEC_##FTN t_ = (q0_bits) - outside_shift;                                                     \
    outside = t_ > outside ? t_ : outside;                                                                   \
  }
#define ZR_RMAX(a, b) ((a) > (b) ? (a) : (b))
#if defined(ZR_CLASS_FP64)
static inline int zr_rany_outside_f64(ulong8 v) {
  const ulong4 b = ZR_RMAX(v.lo, v.hi);
  const ulong2 c = ZR_RMAX(b.lo, b.hi);
  return ZR_RMAX(c.x, c.y) > ZR_ROUTSIDE_ABOVE_f64;
}
#else
static inline int zr_rany_outside_f32(uint16 v) {
  const uint8 a = ZR_RMAX(v.lo, v.hi);
  const uint4 b = ZR_RMAX(a.lo, a.hi);
  const uint2 c = ZR_RMAX(b.lo, b.hi);
  return ZR_RMAX(c.x, c.y) > ZR_ROUTSIDE_ABOVE_f32;
}
#endif

// The extraction constants c0..c3 of the current top, and whether inputs are added as they are. zr_rsum_add_*
// scales each input by 2^(-E0 - top*W), so that the top bin's unit is 1 and the constants are the fixed Ck.
// Scaling both sides by a power of two changes no piece, so the hot loop adds the inputs unscaled, against
// ck = Ck * 2^(E0 + top*W) (`unscaled`), and has no multiply, wherever that is as fast: for f32 the tops 6 to
// 15 (inputs of largest magnitude about 2^-54 to 2^105), for f64 9 to 102. Above, c0 would overflow. Below,
// the remainders of tiny normal inputs (|x| < 2^(mantissa - 1) times the least normal number, whose last
// bit is subnormal) can be subnormal once the window's lowest unit is at most 2|x|, and subnormal operands
// cost x86 a microcode assist each: with the top at 2, f32 inputs near 2^-110 read 1.6 GB/s unscaled against
// 39 GB/s scaled (2-core Xeon, PoCL 3.1, 2^24). Those tops scale by the two factors against the Ck and take
// the batch-checked path (ZR_RCHUNKS_STEP4). One PoCL 3.1 thread on that Xeon, 2^19 f32 from cache, fastest
// of 41: 19.2 GB/s at every magnitude with the one-factor loop before; now 21.5 GB/s unscaled, 17.0 for data
// whose largest magnitude is below about 2^-54 or above 2^105. Where memory is the limit (2^26 and more,
// bench/results/reproducible/h100_host_pocl5_2026-11-26d/), neither shows.
// The constants are the Ck with the top's exponent added to their bits.
#define ZR_RUNSCALED_TOPS_f32(top) ((top) >= 6 && (top) <= 15)
#define ZR_RUNSCALED_TOPS_f64(top) ((top) >= 9 && (top) <= 102)
#define ZR_RCHUNKS_CONSTANTS(FTN, top)                                                                         \
  {                                                                                                            \
    unscaled = ZR_RUNSCALED_TOPS_##FTN(top);                                                                   \
    const ZR_RUINT_##FTN offset_ =                                                                             \
        unscaled ? (ZR_RUINT_##FTN)(ZR_RSUM_E0_##FTN + (top) * ZR_RSUM_WIDTH_##FTN) << ZR_RSUM_SHIFT_##FTN : 0; \
    c0 = (ZR_RVEC_##FTN)(ZR_RAS_FT_##FTN(ZR_RC_BITS_##FTN(0) + offset_));                                      \
    c1 = (ZR_RVEC_##FTN)(ZR_RAS_FT_##FTN(ZR_RC_BITS_##FTN(1) + offset_));                                      \
    c2 = (ZR_RVEC_##FTN)(ZR_RAS_FT_##FTN(ZR_RC_BITS_##FTN(2) + offset_));                                      \
    c3 = (ZR_RVEC_##FTN)(ZR_RAS_FT_##FTN(ZR_RC_BITS_##FTN(3) + offset_));                                      \
    outside_shift = (ZR_RUVEC_##FTN)(ZR_RC_BITS_##FTN(0) + offset_ - (ZR_RUINT_##FTN)ZR_RSUM_LIMIT_##FTN + 1); \
  }
// As vectors: the hot loop's constants change only where the top rises (in the careful function), and
// scalars were broadcast again on every pass of the loop.
#define ZR_RCHUNKS_DECLARE_CONSTANTS(FTN, FT, top) \
  ZR_RVEC_##FTN c0, c1, c2, c3;                    \
  ZR_RUVEC_##FTN outside_shift;                    \
  int unscaled;                                    \
  ZR_RCHUNKS_CONSTANTS(FTN, top)

// y: a vector of inputs, scaled or not (ZR_RCHUNKS_CONSTANTS). For each bin k, qk = y + ck rounds y to a
// multiple of the bin's unit and lies in ck's binade, whose unit that is: bits(qk) is bits(ck) plus the piece
// in the bin's units. So the lanes sum bits(qk) as unsigned integers, the biases come off once per flush
// (ZR_RLANES_FLUSH; the wrapping sums are exact: a lane's true sum fits in 31 or 63 bits), and y loses the
// piece qk - ck: three floating-point operations a bin, not four (the sums were float additions). That and
// the interval check below took a fifth of the hot loop's instructions, but did not change its speed on the
// H100 host's CPU, whose one-thread runs point at the chain of dependent operations per vector instead
// (bench/README.md, "Reproducible sums"). The range check joins `outside`.
#define ZR_RCHUNKS_PIECES(FTN, y_in)                                                                           \
  {                                                                                                            \
    ZR_RVEC_##FTN y = (y_in);                                                                                  \
    ZR_RVEC_##FTN q = y + c0;                                                                                  \
    const ZR_RUVEC_##FTN q0_bits = ZR_RAS_UINTS_##FTN(q);                                                      \
    ZR_ROUTSIDE_NOTE(FTN, q0_bits)                                                                             \
    sum0 += q0_bits;                                                                                           \
    y -= q - c0;                                                                                               \
    q = y + c1;                                                                                                \
    sum1 += ZR_RAS_UINTS_##FTN(q);                                                                             \
    y -= q - c1;                                                                                               \
    q = y + c2;                                                                                                \
    sum2 += ZR_RAS_UINTS_##FTN(q);                                                                             \
    y -= q - c2;                                                                                               \
    bits3 += ZR_RAS_UINTS_##FTN(y + c3);                                                                       \
  }

// x as the pieces take it: as it is, scaled by the two factors, or whichever the constants in use want.
#define ZR_RSCALED_NONE(x) (x)
#define ZR_RSCALED_TWO(x) ((x) * scale_high * scale_low)
#define ZR_RSCALED_ANY(x) (unscaled ? (x) : ZR_RSCALED_TWO(x))

// A vector with an input that does not fit under the current top (NaN too) goes through zr_rsum_add_* one input
// at a time, after the lanes' sums move to the bins (the top may rise, and with it the scale and constants).
#define ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x)                                                                   \
  {                                                                                                            \
    ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);                                        \
    ZR_RLANE_ADDS_##FTN(&s, x);                                                                                \
    scale_high = s.scale_high;                                                                                 \
    scale_low = s.scale_low;                                                                                   \
    ZR_RCHUNKS_CONSTANTS(FTN, s.top)                                                                           \
  }

// A batch of vectors is added first and checked once (one branch, not one per vector); if any input was
// outside the range, the lanes' sums go back to what they were before the batch and its vectors are added
// one input at a time. ZR_RSUM_FLUSH_* is a multiple of the batch.
#define ZR_RCHUNKS_BATCH_BEGIN(FTN)                                                                            \
  const ZR_RUVEC_##FTN kept0 = sum0, kept1 = sum1, kept2 = sum2;                                               \
  const ZR_RUVEC_##FTN kept3 = bits3;                                                                          \
  ZR_RUVEC_##FTN outside = 0;
#define ZR_RCHUNKS_BATCH_REJECTED(FTN)                                                                         \
  (zr_rany_outside_##FTN(outside) ? (sum0 = kept0, sum1 = kept1, sum2 = kept2, bits3 = kept3, 1) : 0)
#define ZR_RCHUNKS_BATCH_COUNT(FTN, FT, vectors)                                                               \
  if ((pending += (vectors)) >= ZR_RSUM_FLUSH_##FTN) ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);

// Four vectors (of four of the interleaved streams), or one (the rest of the chunk).
#define ZR_RCHUNKS_STEP4(TN, FTN, FT, SCALED, a0, a1, a2, a3)                                                          \
  {                                                                                                            \
    const ZR_RVEC_##FTN x0 = ZR_RVLOAD_##TN(in + (a0)), x1 = ZR_RVLOAD_##TN(in + (a1));                        \
    const ZR_RVEC_##FTN x2 = ZR_RVLOAD_##TN(in + (a2)), x3 = ZR_RVLOAD_##TN(in + (a3));                        \
    ZR_RCHUNKS_BATCH_BEGIN(FTN);                                                                               \
    ZR_RCHUNKS_PIECES(FTN, SCALED(x0));                                                                    \
    ZR_RCHUNKS_PIECES(FTN, SCALED(x1));                                                                    \
    ZR_RCHUNKS_PIECES(FTN, SCALED(x2));                                                                    \
    ZR_RCHUNKS_PIECES(FTN, SCALED(x3));                                                                    \
    if (ZR_RCHUNKS_BATCH_REJECTED(FTN)) {                                                                      \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x0);                                                                   \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x1);                                                                   \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x2);                                                                   \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x3);                                                                   \
    } else {                                                                                                   \
      ZR_RCHUNKS_BATCH_COUNT(FTN, FT, 4);                                                                      \
    }                                                                                                          \
  }
#define ZR_RCHUNKS_STEP1(TN, FTN, FT, SCALED, a0)                                                                      \
  {                                                                                                            \
    const ZR_RVEC_##FTN x0 = ZR_RVLOAD_##TN(in + (a0));                                                        \
    ZR_RCHUNKS_BATCH_BEGIN(FTN);                                                                               \
    ZR_RCHUNKS_PIECES(FTN, SCALED(x0));                                                                    \
    if (ZR_RCHUNKS_BATCH_REJECTED(FTN)) {                                                                      \
      ZR_RCHUNKS_ONE_AT_A_TIME(FTN, FT, x0);                                                                   \
    } else {                                                                                                   \
      ZR_RCHUNKS_BATCH_COUNT(FTN, FT, 1);                                                                      \
    }                                                                                                          \
  }

// The hot loop (inputs unscaled) checks the range once per ZR_RCHECK_EVERY vectors, not once per batch: an
// interval's vectors join the lanes' sums unchecked, and if any input was outside, the sums go back to what
// they were before the interval, which is read again (from cache) batch by batch by a function of its own
// (ZR_RCHUNKS_CAREFUL; rewinding the loop's counter instead cost the loop its strength-reduced addresses).
// The per-batch check (an OR across the lanes and a branch) was about an eighth of the hot loop's vector
// operations. The lanes' sums are flushed before an interval that could take them past ZR_RSUM_FLUSH_*.
#define ZR_RCHECK_EVERY 64
#define ZR_RCHUNKS_FAST4(TN, FTN, a0, a1, a2, a3)                                                              \
  {                                                                                                            \
    const ZR_RVEC_##FTN x0 = ZR_RVLOAD_##TN(in + (a0)), x1 = ZR_RVLOAD_##TN(in + (a1));                        \
    const ZR_RVEC_##FTN x2 = ZR_RVLOAD_##TN(in + (a2)), x3 = ZR_RVLOAD_##TN(in + (a3));                        \
    ZR_RCHUNKS_PIECES(FTN, x0);                                                                                \
    ZR_RCHUNKS_PIECES(FTN, x1);                                                                                \
    ZR_RCHUNKS_PIECES(FTN, x2);                                                                                \
    ZR_RCHUNKS_PIECES(FTN, x3);                                                                                \
  }
#define ZR_RCHUNKS_NEXT_INTERVAL(FTN, FT)                                                                      \
  {                                                                                                            \
    if (pending > ZR_RSUM_FLUSH_##FTN - ZR_RCHECK_EVERY)                                                       \
      ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);                                      \
    interval0 = sum0;                                                                                          \
    interval1 = sum1;                                                                                          \
    interval2 = sum2;                                                                                          \
    interval3 = bits3;                                                                                         \
    outside = 0;                                                                                               \
    next_check = min(vectors, checked + ZR_RCHECK_EVERY);                                                      \
  }
// Vectors [from, to) of the interleaved part, batch by batch, into the work-item's running state at *state
// (`unscaled` on return: whether the hot loop can go on; the constants follow from the top).
#define ZR_DEFINE_RCHUNKS_CAREFUL(NAME, TN, T, FTN, FT) ZR_DEFINE_RCHUNKS_CAREFUL_(NAME, TN, T, FTN, FT)
#define ZR_DEFINE_RCHUNKS_CAREFUL_(NAME, TN, T, FTN, FT)                                                       \
  typedef struct {                                                                                             \
    zr_rsum_##FTN s;                                                                                           \
    ZR_RUVEC_##FTN sum0, sum1, sum2, bits3;                                                                    \
    FT scale_high, scale_low;                                                                                  \
    uint pending;                                                                                              \
    int unscaled;                                                                                              \
  } NAME##_state;                                                                                              \
  static __attribute__((noinline)) void NAME##_careful(global const T* restrict in, ulong begin, ulong stream,  \
                                                       ulong from, ulong to, NAME##_state* state) {            \
    zr_rsum_##FTN s = state->s;                                                                                \
    ZR_RUVEC_##FTN sum0 = state->sum0, sum1 = state->sum1, sum2 = state->sum2;                                 \
    ZR_RUVEC_##FTN bits3 = state->bits3;                                                                       \
    FT scale_high = state->scale_high, scale_low = state->scale_low;                                           \
    uint pending = state->pending;                                                                             \
    ZR_RCHUNKS_DECLARE_CONSTANTS(FTN, FT, s.top)                                                               \
    /* by batch numbers: with v = 4 * batch, v % 4 is known (else clang makes 2-bit integers, not SPIR-V) */  \
    for (ulong batch = from / 4; batch < to / 4; ++batch)                                                      \
      ZR_RCHUNKS_STEP4(TN, FTN, FT, ZR_RSCALED_ANY, ZR_RCHUNKS_AT(FTN, 4 * batch), ZR_RCHUNKS_AT(FTN, 4 * batch + 1), \
                       ZR_RCHUNKS_AT(FTN, 4 * batch + 2), ZR_RCHUNKS_AT(FTN, 4 * batch + 3));                  \
    state->s = s;                                                                                              \
    state->sum0 = sum0;                                                                                        \
    state->sum1 = sum1;                                                                                        \
    state->sum2 = sum2;                                                                                        \
    state->bits3 = bits3;                                                                                      \
    state->scale_high = scale_high;                                                                            \
    state->scale_low = scale_low;                                                                              \
    state->pending = pending;                                                                                  \
    state->unscaled = unscaled;                                                                                \
  }

// The chunk is read as ZR_RSTREAMS interleaved streams (then its rest as one), so that the memory system
// fetches that many places ahead at once: the loop's arithmetic leaves one stream's hardware prefetch behind.
// A C++ loop of the same arithmetic on one core of a 2-core Xeon, 2^26 f32 from memory: 6.2 GB/s with one
// stream, 11.0 with 4, 12.8 with 8 (19.5 from cache). With many cores sharing the memory, fewer streams read
// better: zr_reproducible_bench on the H200 host's 16-core Xeon (PoCL 5, 2026-11-26, two runs each, f32 / f64
// against our default sum at 2^28): 8 streams 0.72-0.73x / 0.73x, 4 streams 0.79-0.82x / 0.78-0.85x, 2
// streams 0.77-0.80x / 0.78-0.84x; on the 2-core Xeon 4 streams cost 5-10% at 2^26. rchunks4.cl builds this
// kernel with 4 streams, for CPU devices of 8 compute units and more (core::binned_variant). The sum does not
// depend on the order.
#ifndef ZR_RSTREAMS
#define ZR_RSTREAMS 8
#define ZR_RCHUNKS_VARIANT rchunks
#endif
#define ZR_RCHUNKS_NAME__(VARIANT, TN) zr_##VARIANT##_plus_##TN
#define ZR_RCHUNKS_NAME_(VARIANT, TN) ZR_RCHUNKS_NAME__(VARIANT, TN)
#define ZR_RCHUNKS_AT(FTN, v) (begin + ((v) % ZR_RSTREAMS) * stream + (v) / ZR_RSTREAMS * ZR_RLANES_##FTN)
#define ZR_RCHUNKS_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                              \
  ZR_DEFINE_RCHUNKS_CAREFUL(ZR_RCHUNKS_NAME_(ZR_RCHUNKS_VARIANT, TN), TN, T, FTN, FT)                          \
  ZR_CPU_DEVICE_KERNEL void ZR_RCHUNKS_NAME_(ZR_RCHUNKS_VARIANT, TN)(global const T* restrict in, ulong n,                  \
                                                      global zr_binned* restrict states, local zr_binned* scratch) { \
    const ulong items = get_global_size(0);                                                                    \
    const ulong chunk = ((n + items - 1) / items + 15) / 16 * 16;                                              \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                      \
    const ulong end = min(n, begin + chunk);                                                                   \
    zr_rsum_##FTN s;                                                                                           \
    zr_rsum_init_##FTN(&s);                                                                                    \
    ZR_RUVEC_##FTN sum0 = 0, sum1 = 0, sum2 = 0;                                                               \
    ZR_RUVEC_##FTN bits3 = 0;                                                                                  \
    FT scale_high = s.scale_high, scale_low = s.scale_low;                                                     \
    ZR_RCHUNKS_DECLARE_CONSTANTS(FTN, FT, s.top)                                                               \
    uint pending = 0;                                                                                          \
    const ulong stream = (end - begin) / ZR_RSTREAMS / ZR_RLANES_##FTN * ZR_RLANES_##FTN;                      \
    /* vector v of the interleaved part: stream v % ZR_RSTREAMS, its vector v / ZR_RSTREAMS (loops one after   \
       another, not nested: llvm-spirv-15 orders the blocks of two nested ones wrongly) */                     \
    const ulong vectors = stream / ZR_RLANES_##FTN * ZR_RSTREAMS; /* a multiple of 8 */                        \
    ulong v = 0;                                                                                               \
    for (; v < vectors && !unscaled; v += 4)                                                                   \
      ZR_RCHUNKS_STEP4(TN, FTN, FT, ZR_RSCALED_TWO, ZR_RCHUNKS_AT(FTN, v), ZR_RCHUNKS_AT(FTN, v + 1),          \
                       ZR_RCHUNKS_AT(FTN, v + 2), ZR_RCHUNKS_AT(FTN, v + 3));                                  \
    /* vectors [checked, v) are in the lanes' sums, unchecked */                                             \
    ulong checked = v, next_check;                                                                             \
    ZR_RUVEC_##FTN interval0, interval1, interval2, interval3, outside;                                        \
    ZR_RCHUNKS_NEXT_INTERVAL(FTN, FT)                                                                          \
    for (; v < vectors; v += 4) {                                                                              \
      ZR_RCHUNKS_FAST4(TN, FTN, ZR_RCHUNKS_AT(FTN, v), ZR_RCHUNKS_AT(FTN, v + 1), ZR_RCHUNKS_AT(FTN, v + 2),   \
                       ZR_RCHUNKS_AT(FTN, v + 3));                                                             \
      if (v + 4 == next_check) {                                                                               \
        if (zr_rany_outside_##FTN(outside)) {                                                                  \
          ZR_RCHUNKS_NAME_(ZR_RCHUNKS_VARIANT, TN##_state) state;                                              \
          state.s = s;                                                                                         \
          state.sum0 = interval0;                                                                              \
          state.sum1 = interval1;                                                                              \
          state.sum2 = interval2;                                                                              \
          state.bits3 = interval3;                                                                             \
          state.scale_high = scale_high;                                                                       \
          state.scale_low = scale_low;                                                                         \
          state.pending = pending;                                                                             \
          ZR_RCHUNKS_NAME_(ZR_RCHUNKS_VARIANT, TN##_careful)(in, begin, stream, checked, v + 4, &state);       \
          /* a huge input: the rest goes batch by batch, scaled, and the hot loop ends below */                \
          if (!state.unscaled)                                                                                 \
            ZR_RCHUNKS_NAME_(ZR_RCHUNKS_VARIANT, TN##_careful)(in, begin, stream, v + 4, vectors, &state);     \
          s = state.s;                                                                                         \
          sum0 = state.sum0;                                                                                   \
          sum1 = state.sum1;                                                                                   \
          sum2 = state.sum2;                                                                                   \
          bits3 = state.bits3;                                                                                 \
          scale_high = state.scale_high;                                                                       \
          scale_low = state.scale_low;                                                                         \
          pending = state.pending;                                                                             \
          ZR_RCHUNKS_CONSTANTS(FTN, s.top)                                                                     \
          if (!unscaled) break;                                                                                \
        } else {                                                                                               \
          pending += (uint)(v + 4 - checked);                                                                  \
        }                                                                                                      \
        checked = v + 4;                                                                                       \
        ZR_RCHUNKS_NEXT_INTERVAL(FTN, FT)                                                                      \
      }                                                                                                        \
    }                                                                                                          \
    ulong i = begin + ZR_RSTREAMS * stream;                                                                    \
    for (; i + ZR_RLANES_##FTN <= end; i += ZR_RLANES_##FTN) ZR_RCHUNKS_STEP1(TN, FTN, FT, ZR_RSCALED_ANY, i);  \
    ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, bits3, pending);                                        \
    for (; i < end; ++i) zr_rsum_add_##FTN(&s, ZR_LOAD_##TN(in, i));                                           \
    states[get_global_id(0)] = zr_rsum_state_##FTN(&s);                                                        \
  }

ZR_FOR_EACH_RSUM(ZR_RCHUNKS_KERNEL)
