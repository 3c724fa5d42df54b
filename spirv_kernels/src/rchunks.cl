// Variant "rchunks": the first pass of a reproducible sum (zr_binned.h) shaped for CPU devices, as cpu.cl:
// work-item i of G adds the contiguous chunk [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up
// to a multiple of 16, and writes one state (launch with local size 1). The hot loop works on vectors of
// ZR_RLANES_* inputs at once, the bins' float sums kept per lane; a vector with any input that does not
// fit under the current top (a larger value, an infinity or NaN) is added one input at a time instead.
// Arguments: in, n (64-bit), states (one zr_binned per work-item), scratch (unused: the signature of rgrid).
// 16 f32 or 8 f64 lanes (64-byte vectors): the loop does about 19 vector operations a vector, so the widest
// vectors win where the CPU has them; and 8 interleaved streams (ZR_RSTREAMS). zr_reproducible_bench at 2^26
// on a 2-core Xeon with AVX-512 (2026-11-25), f32 / f64 GB/s: 8 and 4 lanes, one stream: PoCL 3.1 5.5 / 5.7,
// Intel's CPU runtime 6.2 / 6.6; 16 and 8 lanes: 8.6 / 10.4 and 9.0 / 10.8; with 8 streams: 20.4 / 23.8
// (0.83x / 0.75x our default sum) and 21.5 / 23.1 (0.79x / 0.73x). bench/README.md, "Reproducible sums".
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

// The lanes' integer values of the four bins' sums (exact: see ZR_RSUM_FLUSH_*), added into the bins.
#define ZR_RLANES_FLUSH(FTN, FT, bins, sum0, sum1, sum2, sum3)                                             \
  do {                                                                                                     \
    const FT##4 u = ZR_RSUM_UNITS_##FTN;                                                                   \
    (bins) += (long4)(ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum0) * u.s0)),                       \
                      ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum1) * u.s1)),                       \
                      ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum2) * u.s2)),                       \
                      ZR_RLANE_SUM(ZR_RLANES_##FTN, ZR_RLONGS_##FTN((sum3) * u.s3)));                      \
    (sum0) = (sum1) = (sum2) = (sum3) = 0;                                                                 \
  } while (0)

// One vector of the hot loop: the lanes' sums, the scales and the count live in local variables (registers);
// a vector with any input that does not fit under the current top (NaN too) goes through zr_rsum_add_* one
// input at a time, after the lanes' sums move to the bins (the top may rise).
#define ZR_RCHUNKS_STEP(TN, FTN, FT, at)                                                                       \
  {                                                                                                            \
    const ZR_RVEC_##FTN x = ZR_RVLOAD_##TN(0, in + (at));                                                      \
    ZR_RVEC_##FTN y = x * scale_high * scale_low;                                                              \
    if (any(!isless(fabs(y), (ZR_RVEC_##FTN)ZR_RSUM_LIMIT_##FTN))) {                                           \
      ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, sum3);                                                \
      pending = 0;                                                                                             \
      ZR_RLANE_ADDS_##FTN(&s, x);                                                                              \
      scale_high = s.scale_high;                                                                               \
      scale_low = s.scale_low;                                                                                 \
    } else {                                                                                                   \
      ZR_RVEC_##FTN piece = (y + ZR_RSUM_C0_##FTN) - ZR_RSUM_C0_##FTN;                                         \
      sum0 += piece;                                                                                           \
      y -= piece;                                                                                              \
      piece = (y + ZR_RSUM_C1_##FTN) - ZR_RSUM_C1_##FTN;                                                       \
      sum1 += piece;                                                                                           \
      y -= piece;                                                                                              \
      piece = (y + ZR_RSUM_C2_##FTN) - ZR_RSUM_C2_##FTN;                                                       \
      sum2 += piece;                                                                                           \
      y -= piece;                                                                                              \
      sum3 += (y + ZR_RSUM_C3_##FTN) - ZR_RSUM_C3_##FTN;                                                       \
      if (++pending == ZR_RSUM_FLUSH_##FTN) {                                                                  \
        ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, sum3);                                              \
        pending = 0;                                                                                           \
      }                                                                                                        \
    }                                                                                                          \
  }

// The chunk is read as ZR_RSTREAMS interleaved streams (then its rest as one), so that the memory system
// fetches that many places ahead at once: the loop's arithmetic leaves one stream's hardware prefetch behind.
// A C++ loop of the same arithmetic on one core of a 2-core Xeon, 2^26 f32 from memory: 6.2 GB/s with one
// stream, 11.0 with 4, 12.8 with 8 (19.5 from cache). The sum does not depend on the order.
#define ZR_RSTREAMS 8
#define ZR_RCHUNKS_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                              \
  kernel void zr_rchunks_plus_##TN(global const T* restrict in, ulong n, global zr_binned* restrict states,    \
                                   local zr_binned* scratch) {                                                 \
    const ulong items = get_global_size(0);                                                                    \
    const ulong chunk = ((n + items - 1) / items + 15) / 16 * 16;                                              \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                      \
    const ulong end = min(n, begin + chunk);                                                                   \
    zr_rsum_##FTN s;                                                                                           \
    zr_rsum_init_##FTN(&s);                                                                                    \
    ZR_RVEC_##FTN sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;                                                      \
    FT scale_high = s.scale_high, scale_low = s.scale_low;                                                     \
    uint pending = 0;                                                                                          \
    const ulong stream = (end - begin) / ZR_RSTREAMS / ZR_RLANES_##FTN * ZR_RLANES_##FTN;                      \
    /* vector v of the interleaved part: stream v % ZR_RSTREAMS, its vector v / ZR_RSTREAMS (one loop:         \
       llvm-spirv-15 orders the blocks of two nested ones wrongly) */                                          \
    for (ulong v = 0; v < stream / ZR_RLANES_##FTN * ZR_RSTREAMS; ++v)                                         \
      ZR_RCHUNKS_STEP(TN, FTN, FT, begin + (v % ZR_RSTREAMS) * stream + v / ZR_RSTREAMS * ZR_RLANES_##FTN);    \
    ulong i = begin + ZR_RSTREAMS * stream;                                                                    \
    for (; i + ZR_RLANES_##FTN <= end; i += ZR_RLANES_##FTN) ZR_RCHUNKS_STEP(TN, FTN, FT, i);                  \
    ZR_RLANES_FLUSH(FTN, FT, s.bins, sum0, sum1, sum2, sum3);                                                  \
    for (; i < end; ++i) zr_rsum_add_##FTN(&s, ZR_LOAD_##TN(in, i));                                           \
    states[get_global_id(0)] = zr_rsum_state_##FTN(&s);                                                        \
  }

ZR_FOR_EACH_RSUM(ZR_RCHUNKS_KERNEL)
