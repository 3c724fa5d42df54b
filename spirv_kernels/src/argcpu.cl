// Variant "argcpu": the first pass of an arg-reduction (zr_arg.h) on CPU devices (kernels.table: cpu_device).
// As cpu.cl, work-item i of G reads one contiguous chunk of ceil(n/G) elements rounded up to 16, and writes one
// partial. The chunk is read in runs of ZR_ACPU_RUN blocks of W elements: first for the run's best value alone
// (one max per block, as a plain max), and again, from cache, only when the run holds a value strictly better
// than the work-item's best so far: that second read searches for the first element equal to the run's best
// (zr_argcpu_first). A run with a NaN, and the chunk's last blocks, are read with per-lane states instead
// (zr_argcpu_rescan: per vector lane, the best value and the block it came from, one compare and two ?: per
// block; each lane visits its indices in increasing order, so only a strictly better value replaces its best,
// and the lanes are then combined in the arg order, zr_arg.h). The last < W elements are considered one by one.
// Arguments: in, n (64-bit), partials (one zr_arg per work-item), scratch (unused: the argtree signature).
#include "zr_cpu_device_kernel.h"
#include "zr_arg.h"

#define ZR_ACAT_(a, b) a##b
#define ZR_ACAT(a, b) ZR_ACAT_(a, b)

// Lanes per state: 64 bytes of 4-byte values (16 lanes; narrower types 16 lanes too), 8 of 8-byte values.
#define ZR_ACPU_W_i8 16
#define ZR_ACPU_W_u8 16
#define ZR_ACPU_W_i16 16
#define ZR_ACPU_W_u16 16
#define ZR_ACPU_W_f16 16
#define ZR_ACPU_W_i32 16
#define ZR_ACPU_W_u32 16
#define ZR_ACPU_W_f32 16
#define ZR_ACPU_W_i64 8
#define ZR_ACPU_W_u64 8
#define ZR_ACPU_W_f64 8
// Blocks are loaded as plain vector loads at the element's alignment, and the hot loop's comparisons and
// selections are operators, not built-in functions: PoCL 5.0 (the H100 host's) calls built-ins out of line
// from our SPIR bitcode, spilling every live vector register around each call (rchunks.cl measured the
// same). f16 still converts with vload_half16.
#define ZR_ACPU_DEFINE_LOAD(TN, V, ALIGN) typedef V __attribute__((aligned(ALIGN))) zr_acpu_block_##TN;
ZR_ACPU_DEFINE_LOAD(i8, char16, 1)
ZR_ACPU_DEFINE_LOAD(u8, uchar16, 1)
ZR_ACPU_DEFINE_LOAD(i16, short16, 2)
ZR_ACPU_DEFINE_LOAD(u16, ushort16, 2)
ZR_ACPU_DEFINE_LOAD(i32, int16, 4)
ZR_ACPU_DEFINE_LOAD(u32, uint16, 4)
ZR_ACPU_DEFINE_LOAD(f32, float16, 4)
ZR_ACPU_DEFINE_LOAD(i64, long8, 8)
ZR_ACPU_DEFINE_LOAD(u64, ulong8, 8)
#if defined(ZR_CLASS_FP64)
ZR_ACPU_DEFINE_LOAD(f64, double8, 8)
#endif
#define ZR_ACPU_LOAD_i8(W, p) (*(global const zr_acpu_block_i8*)(p))
#define ZR_ACPU_LOAD_u8(W, p) (*(global const zr_acpu_block_u8*)(p))
#define ZR_ACPU_LOAD_i16(W, p) (*(global const zr_acpu_block_i16*)(p))
#define ZR_ACPU_LOAD_u16(W, p) (*(global const zr_acpu_block_u16*)(p))
#define ZR_ACPU_LOAD_i32(W, p) (*(global const zr_acpu_block_i32*)(p))
#define ZR_ACPU_LOAD_u32(W, p) (*(global const zr_acpu_block_u32*)(p))
#define ZR_ACPU_LOAD_f32(W, p) (*(global const zr_acpu_block_f32*)(p))
#define ZR_ACPU_LOAD_i64(W, p) (*(global const zr_acpu_block_i64*)(p))
#define ZR_ACPU_LOAD_u64(W, p) (*(global const zr_acpu_block_u64*)(p))
#define ZR_ACPU_LOAD_f64(W, p) (*(global const zr_acpu_block_f64*)(p))
#define ZR_ACPU_LOAD_f16(W, p) ZR_ACAT(vload_half, W)(0, (p))

// The lane mask of "x replaces b": all ones where it does (vector comparisons give -1 / 0). Integer types
// have no NaN term (and an integer 0 would not combine with a char or short vector).
#define ZR_ACPU_BETTER_argmin(x, b) ((x) < (b))
#define ZR_ACPU_BETTER_argmax(x, b) ((x) > (b))
#define ZR_ACPU_REPLACES_INTEGER(OP, x, b) ZR_ACPU_BETTER_##OP(x, b)
#define ZR_ACPU_REPLACES_FLOATING(OP, x, b) (ZR_ACPU_BETTER_##OP(x, b) | (((x) != (x)) & ((b) == (b))))
#define ZR_ACPU_REPLACES_i8 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_u8 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_i16 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_u16 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_i32 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_u32 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_i64 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_u64 ZR_ACPU_REPLACES_INTEGER
#define ZR_ACPU_REPLACES_f32 ZR_ACPU_REPLACES_FLOATING
#define ZR_ACPU_REPLACES_f64 ZR_ACPU_REPLACES_FLOATING
#define ZR_ACPU_REPLACES(OP, ATN, x, b) ZR_ACPU_REPLACES_##ATN(OP, x, b)

// any() of a comparison's mask as an OR of its halves (any() is an out-of-line call on PoCL 5).
#define ZR_ACPU_DEFINE_ANY(S)                                                                     \
  static inline __attribute__((unused)) int zr_acpu_any_##S(S##16 m) {                      \
    const S##8 a = m.lo | m.hi;                                                                     \
    const S##4 b = a.lo | a.hi;                                                                     \
    const S##2 c = b.lo | b.hi;                                                                     \
    return (c.x | c.y) < 0;                                                                         \
  }
ZR_ACPU_DEFINE_ANY(char)
ZR_ACPU_DEFINE_ANY(short)
ZR_ACPU_DEFINE_ANY(int)
static inline __attribute__((unused)) int zr_acpu_any_long(long8 m) {
  const long4 a = m.lo | m.hi;
  const long2 b = a.lo | a.hi;
  return (b.x | b.y) < 0;
}
#define ZR_ACPU_ANY_i8 zr_acpu_any_char
#define ZR_ACPU_ANY_u8 zr_acpu_any_char
#define ZR_ACPU_ANY_i16 zr_acpu_any_short
#define ZR_ACPU_ANY_u16 zr_acpu_any_short
#define ZR_ACPU_ANY_i32 zr_acpu_any_int
#define ZR_ACPU_ANY_u32 zr_acpu_any_int
#define ZR_ACPU_ANY_f32 zr_acpu_any_int
#define ZR_ACPU_ANY_i64 zr_acpu_any_long
#define ZR_ACPU_ANY_u64 zr_acpu_any_long
#define ZR_ACPU_ANY_f64 zr_acpu_any_long

// Blocks per run of the hot loop (see the kernel): 16 blocks are 1 KiB of i32. A run with a better value costs a
// second look (zr_argcpu_first), and for random data the share of such runs falls only as the log of the runs
// per chunk: with the 16-core host's 1024 chunks of 16K elements at 2^24, 64-block runs had a record in a fifth of
// them (single PoCL thread, chunks of 16K: argmax 0.80-0.84x our max for random f32 with 64-block runs and the
// old full rescan, sorted data with no records 1.01x).
#define ZR_ACPU_RUN 16
// The run's probe (see the kernel): the lane-wise better of a and x by the plain comparison, which compilers
// make one max or min instruction (a NaN never gets in); floating types note NaNs apart, in a mask that no
// comparison waits on. A run with a NaN is read again unless the best so far is one (the first NaN stays):
// that term joins the run check's one vector OR. Written as `best == best && any(nans)`, the NaN compares were
// needed only under that branch, and compilers sank them there, keeping all the loaded blocks of the run alive
// until then: 41 spilled 64-byte vectors a 64-block run (clang-15 for Sapphire Rapids; PoCL 5's code on the
// H100 host stored every block of the run to the stack too).
#define ZR_ACPU_PROBE_argmin(a, x) ((x) < (a) ? (x) : (a))
#define ZR_ACPU_PROBE_argmax(a, x) ((x) > (a) ? (x) : (a))

// The hot loop over the chunk's whole runs (see the kernel), leaving i at the first block after them.
// Floating types: one flat loop of four blocks, the run checked in it. With the run unrolled, compilers
// gathered all its loads or all its NaN compares first and spilled the blocks (nested loops llvm-spirv-15
// orders wrongly). Integer types (no NaN mask) keep the unrolled run in two chains, which PoCL 5 compiles
// without spills and which read 1.02-1.12x our maximum at 2^26 i32 on the H100 host against 0.92-1.08x flat.
#define ZR_ACPU_RUNS_FLOATING(OP, TN, ACC, ATN, W)                                                            \
  const ulong runs_end = begin + ((end - begin) / (ZR_ACPU_RUN * W)) * (ZR_ACPU_RUN * W);                     \
  ulong run_begin = i;                                                                                       \
  ACC##W bests = (ACC##W)(best_value);                                                                       \
  ACC##W c0 = bests, c1 = bests, c2 = bests, c3 = bests; /* four chains of maxima: a quarter of the wait */   \
  __typeof__(bests != bests) nans = 0;                                                                       \
  for (; i < runs_end; i += 4 * W) {                                                                         \
    const ACC##W x0 = ZR_ACPU_LOAD_##TN(W, in + i), x1 = ZR_ACPU_LOAD_##TN(W, in + i + W);                  \
    const ACC##W x2 = ZR_ACPU_LOAD_##TN(W, in + i + 2 * W), x3 = ZR_ACPU_LOAD_##TN(W, in + i + 3 * W);      \
    c0 = ZR_ACPU_PROBE_##OP(c0, x0);                                                                         \
    c1 = ZR_ACPU_PROBE_##OP(c1, x1);                                                                         \
    c2 = ZR_ACPU_PROBE_##OP(c2, x2);                                                                         \
    c3 = ZR_ACPU_PROBE_##OP(c3, x3);                                                                         \
    nans |= (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3);                                               \
    if (i + 4 * W - run_begin == ZR_ACPU_RUN * W) {                                                          \
      if (ZR_ACPU_ANY_##ATN(ZR_ACPU_BETTER_##OP(c0, bests) | ZR_ACPU_BETTER_##OP(c1, bests) |               \
                            ZR_ACPU_BETTER_##OP(c2, bests) | ZR_ACPU_BETTER_##OP(c3, bests) |              \
                            (nans & (bests == bests))))                                                      \
        zr_argcpu_first_##OP##_##TN(in + run_begin, run_begin,                                               \
                                    ZR_ACPU_PROBE_##OP(ZR_ACPU_PROBE_##OP(c0, c1), ZR_ACPU_PROBE_##OP(c2, c3)), \
                                    ZR_ACPU_ANY_##ATN(nans), &best_value, &best_index);                       \
      run_begin = i + 4 * W;                                                                                 \
      bests = (ACC##W)(best_value);                                                                          \
      c0 = c1 = c2 = c3 = bests;                                                                             \
      nans = 0;                                                                                              \
    }                                                                                                        \
  }
#define ZR_ACPU_RUNS_INTEGER(OP, TN, ACC, ATN, W)                                                             \
  for (; i + ZR_ACPU_RUN * W <= body_end; i += ZR_ACPU_RUN * W) {                                            \
    const ACC##W bests = (ACC##W)(best_value);                                                               \
    ACC##W even = bests, odd = bests; /* two chains of maxima: half the wait on each */                      \
    /* unrolled: as a loop inside the run loop, llvm-spirv-15 ordered its blocks wrongly (undefined ID) */   \
    _Pragma("unroll") for (uint r = 0; r < ZR_ACPU_RUN; r += 2) {                                            \
      even = ZR_ACPU_PROBE_##OP(even, ZR_ACPU_LOAD_##TN(W, in + i + r * W));                                 \
      odd = ZR_ACPU_PROBE_##OP(odd, ZR_ACPU_LOAD_##TN(W, in + i + (r + 1) * W));                             \
    }                                                                                                        \
    if (ZR_ACPU_ANY_##ATN(ZR_ACPU_BETTER_##OP(even, bests) | ZR_ACPU_BETTER_##OP(odd, bests)))               \
      zr_argcpu_first_##OP##_##TN(in + i, i, ZR_ACPU_PROBE_##OP(even, odd), 0, &best_value, &best_index);    \
  }
#define ZR_ACPU_KIND_i8 INTEGER
#define ZR_ACPU_KIND_u8 INTEGER
#define ZR_ACPU_KIND_i16 INTEGER
#define ZR_ACPU_KIND_u16 INTEGER
#define ZR_ACPU_KIND_i32 INTEGER
#define ZR_ACPU_KIND_u32 INTEGER
#define ZR_ACPU_KIND_i64 INTEGER
#define ZR_ACPU_KIND_u64 INTEGER
#define ZR_ACPU_KIND_f32 FLOATING
#define ZR_ACPU_KIND_f64 FLOATING
#define ZR_ACPU_RUNS_(KIND, ...) ZR_ACPU_RUNS_##KIND(__VA_ARGS__)
#define ZR_ACPU_RUNS__(KIND, ...) ZR_ACPU_RUNS_(KIND, __VA_ARGS__)
#define ZR_ACPU_RUNS(ATN, OP, TN, ACC, W) ZR_ACPU_RUNS__(ZR_ACPU_KIND_##ATN, OP, TN, ACC, ATN, W)

// The best of a state's W lanes by the probe (a NaN-free state: the run's probe never takes one in).
#define ZR_ACPU_HBEST_8(OP, ACC, h8, m)                                     \
  {                                                                         \
    const ACC##4 zr_h4_ = ZR_ACPU_PROBE_##OP((h8).lo, (h8).hi);             \
    const ACC##2 zr_h2_ = ZR_ACPU_PROBE_##OP(zr_h4_.lo, zr_h4_.hi);         \
    (m) = ZR_ACPU_PROBE_##OP(zr_h2_.x, zr_h2_.y);                           \
  }
#define ZR_ACPU_HBEST_16(OP, ACC, c, m)                                     \
  {                                                                         \
    const ACC##8 zr_h8_ = ZR_ACPU_PROBE_##OP((c).lo, (c).hi);               \
    ZR_ACPU_HBEST_8(OP, ACC, zr_h8_, m)                                     \
  }

// One block x (W values, block number blk) into the state (values, blocks), with ?: rather than select()
// (an out-of-line call on PoCL 5). The block numbers need the comparison's mask as W ints: 4-byte types have it
// as it is, the others convert it.
#define ZR_ACPU_INT_MASK_i8(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_INT_MASK_u8(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_INT_MASK_i16(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_INT_MASK_u16(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_INT_MASK_i32(W, m) (m)
#define ZR_ACPU_INT_MASK_u32(W, m) (m)
#define ZR_ACPU_INT_MASK_f32(W, m) (m)
#define ZR_ACPU_INT_MASK_i64(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_INT_MASK_u64(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_INT_MASK_f64(W, m) ZR_ACAT(convert_int, W)(m)
#define ZR_ACPU_STEP(OP, ATN, W, values, blocks, x, blk)                                            \
  do {                                                                                             \
    const __typeof__(ZR_ACPU_REPLACES(OP, ATN, x, values)) zr_m_ = ZR_ACPU_REPLACES(OP, ATN, x, values); \
    (values) = zr_m_ ? (x) : (values);                                                             \
    (blocks) = ZR_ACPU_INT_MASK_##ATN(W, zr_m_) ? (ZR_ACAT(uint, W))(blk) : (blocks);              \
  } while (0)

// Lane k of a state into best: its value came from block b after element `segment`, or it was never replaced
// (UINT_MAX: it holds the best so far, and index ULONG_MAX makes it lose the tie).
// Straight-line code over the lanes: a loop over them through a private array gave llvm-spirv-15 a block
// order spirv-val rejects.
#define ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, k, sk)                                        \
  {                                                                                                         \
    const ulong zr_at_ = (blocks).sk == UINT_MAX ? ULONG_MAX : (segment) + (ulong)(blocks).sk * W + (k);    \
    ZR_ARG_TAKE(OP, ATN, best##_value, best##_index, (values).sk, zr_at_);                                  \
  }
#define ZR_ACPU_FOLD_8(OP, ATN, W, best, values, blocks, segment)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 0, s0)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 1, s1)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 2, s2)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 3, s3)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 4, s4)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 5, s5)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 6, s6)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 7, s7)
#define ZR_ACPU_FOLD_16(OP, ATN, W, best, values, blocks, segment)  \
  ZR_ACPU_FOLD_8(OP, ATN, W, best, values, blocks, segment)        \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 8, s8)   \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 9, s9)   \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 10, sa)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 11, sb)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 12, sc)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 13, sd)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 14, se)  \
  ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, 15, sf)

#define ZR_ARGCPU_KERNEL(OP, TN, T, ACC, ATN) ZR_ARGCPU_KERNEL_(OP, TN, T, ACC, ATN, ZR_ACPU_W_##TN)
#define ZR_ARGCPU_KERNEL_(OP, TN, T, ACC, ATN, W) ZR_ARGCPU_KERNEL_W(OP, TN, T, ACC, ATN, W)
// Blocks [0, count) of p (element `first` of the input onwards) into (best_value, best_index): lane states
// that start from the best so far, then folded. A function of its own, called only for runs with a better
// value: the same code inlined under an if gave llvm-spirv-15 blocks before their dominators.
#define ZR_ARGCPU_KERNEL_W(OP, TN, T, ACC, ATN, W)                                                          \
  static __attribute__((noinline)) void zr_argcpu_rescan_##OP##_##TN(global const T* p, ulong first, uint count, \
                                                                    ACC* best_value_out, ulong* best_index_out) { \
    ACC best_value = *best_value_out;                                                                        \
    ulong best_index = *best_index_out;                                                                      \
    ACC##W values = (ACC##W)(best_value);                                                                    \
    uint##W blocks = (uint##W)(UINT_MAX);                                                                    \
    for (uint r = 0; r < count; ++r) ZR_ACPU_STEP(OP, ATN, W, values, blocks, ZR_ACPU_LOAD_##TN(W, p + r * W), r); \
    ZR_ACAT(ZR_ACPU_FOLD_, W)(OP, ATN, W, best, values, blocks, first)                                       \
    *best_value_out = best_value;                                                                            \
    *best_index_out = best_index;                                                                            \
  }                                                                                                          \
  /* A run of ZR_ACPU_RUN blocks whose probe c holds a value better than the best so far: that value is the */ \
  /* run's best m, and its first occurrence is the first element equal to m (a -0.0 before a +0.0 m is the */  \
  /* first zero: it is taken with its own bits). Read four blocks a step up to those holding it, then block */ \
  /* by block, then lane by lane: records sit anywhere in a run of random data, at its end in sorted data. */  \
  /* A run with a NaN (the best so far is none) is read again in full, for its first NaN. The loops stop on */ \
  /* a bitwise & of their conditions: a break, or &&, gave llvm-spirv-15 a block order spirv-val rejects. */    \
  static __attribute__((noinline)) void zr_argcpu_first_##OP##_##TN(global const T* p, ulong first, ACC##W c,  \
                                                                   int nan_run, ACC* best_value_out,        \
                                                                   ulong* best_index_out) {                 \
    if (!nan_run) {                                                                                          \
      ACC m;                                                                                                 \
      ZR_ACAT(ZR_ACPU_HBEST_, W)(OP, ACC, c, m)                                                              \
      const ACC##W target = (ACC##W)(m);                                                                     \
      uint r = 0;                                                                                            \
      while ((r + 4 < ZR_ACPU_RUN) &                                                                         \
             !ZR_ACPU_ANY_##ATN((ZR_ACPU_LOAD_##TN(W, p + r * W) == target) |                                \
                                (ZR_ACPU_LOAD_##TN(W, p + (r + 1) * W) == target) |                          \
                                (ZR_ACPU_LOAD_##TN(W, p + (r + 2) * W) == target) |                          \
                                (ZR_ACPU_LOAD_##TN(W, p + (r + 3) * W) == target)))                          \
        r += 4;                                                                                              \
      while ((r + 1 < ZR_ACPU_RUN) & !ZR_ACPU_ANY_##ATN(ZR_ACPU_LOAD_##TN(W, p + r * W) == target)) ++r;      \
      uint k = r * W;                                                                                        \
      while ((k + 1 < (r + 1) * W) & ((ACC)ZR_LOAD_##TN(p, k) != m)) ++k;                                    \
      const ACC x = (ACC)ZR_LOAD_##TN(p, k);                                                                 \
      if (x == m) {                                                                                          \
        *best_value_out = x;                                                                                 \
        *best_index_out = first + k;                                                                         \
        return;                                                                                              \
      }                                                                                                      \
    }                                                                                                        \
    zr_argcpu_rescan_##OP##_##TN(p, first, ZR_ACPU_RUN, best_value_out, best_index_out);                      \
  }                                                                                                          \
  ZR_CPU_DEVICE_KERNEL void zr_argcpu_##OP##_##TN(global const T* restrict in, ulong n, global zr_arg_##ATN* restrict partials, \
                                    local zr_arg_##ATN* scratch) {                                           \
    const ulong items = get_global_size(0);                                                                  \
    /* ceil(n / items) written without n % items, which clang turns into a freeze llvm-spirv-15 rejects */  \
    const ulong per_item = n == 0 ? 0 : (n - 1) / items + 1;                                                 \
    const ulong chunk = (per_item + 15) & ~(ulong)15;                                                        \
    const ulong begin = min(n, get_global_id(0) * chunk);                                                    \
    const ulong end = min(n, begin + chunk);                                                                 \
    const ulong body_end = begin + ((end - begin) & ~(ulong)(W - 1));                                        \
    ACC best_value;                                                                                          \
    ulong best_index;                                                                                        \
    ZR_ARG_IDENTITY(OP, ATN, best_value, best_index);                                                        \
    /* from the chunk's first element: one equal to the identity's value would never replace the identity */ \
    if (begin < end) {                                                                                       \
      best_value = (ACC)ZR_LOAD_##TN(in, begin);                                                             \
      best_index = begin;                                                                                    \
    }                                                                                                        \
    ulong i = begin;                                                                                         \
    /* Runs of ZR_ACPU_RUN blocks are read first for their best value alone, one max per block as a plain */ \
    /* max does. Only a run with a value strictly better than the work-item's best so far is read again */   \
    /* (from cache) with block numbers: for random data a few runs of a chunk (records get rare), not the */ \
    /* nearly every run that per-lane bests would trigger (16 lanes, each with its own records). */          \
    ZR_ACPU_RUNS(ATN, OP, TN, ACC, W)                                                                        \
    /* the last blocks, fewer than a run */                                                                 \
    zr_argcpu_rescan_##OP##_##TN(in + i, i, (uint)((body_end - i) / W), &best_value, &best_index);          \
    for (ulong t = body_end; t < end; ++t) {                                                                 \
      const ACC x = (ACC)ZR_LOAD_##TN(in, t);                                                                \
      if (zr_beats_##OP##_##ATN(x, best_value)) {                                                            \
        best_value = x;                                                                                      \
        best_index = t;                                                                                      \
      }                                                                                                      \
    }                                                                                                        \
    partials[get_global_id(0)].value = best_value;                                                           \
    partials[get_global_id(0)].index = best_index;                                                           \
  }

ZR_FOR_EACH_ARG_PAIR(ZR_ARGCPU_KERNEL)
