// Variant "argcpu": the first pass of an arg-reduction (zr_arg.h) on CPU devices (kernels.table: cpu_device).
// As cpu.cl, work-item i of G reads one contiguous chunk of ceil(n/G) elements rounded up to 16, and writes one
// partial. The hot loop keeps, per vector lane, the best value and the block (W elements) it came from, as a
// W-lane value vector and a W-lane uint vector: one compare and two selects per W elements, which the CPU
// compiler keeps in SIMD registers; two such states take alternate blocks (two dependency chains). Each lane
// visits its indices in increasing order, so only a strictly better value replaces its best. Lanes are then
// combined in the arg order (zr_arg.h), and the last < W elements of the chunk considered one by one.
// Block numbers are 32-bit: a chunk is read in segments of at most 2^30 blocks, each folded on its own.
// Arguments: in, n (64-bit), partials (one zr_arg per work-item), scratch (unused: the argtree signature).
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
#define ZR_ACPU_LOAD_DEFAULT(W, p) ZR_ACAT(vload, W)(0, (p))
#define ZR_ACPU_LOAD_i8 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_u8 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_i16 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_u16 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_i32 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_u32 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_f32 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_i64 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_u64 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_f64 ZR_ACPU_LOAD_DEFAULT
#define ZR_ACPU_LOAD_f16(W, p) ZR_ACAT(vload_half, W)(0, (p))

// The lane mask of "x replaces b": all ones where it does (vector comparisons give -1 / 0). Integer types
// have no NaN term (and an integer 0 would not combine with a char or short vector).
#define ZR_ACPU_BETTER_argmin(x, b) ((x) < (b))
#define ZR_ACPU_BETTER_argmax(x, b) ((x) > (b))
#define ZR_ACPU_REPLACES_INTEGER(OP, x, b) ZR_ACPU_BETTER_##OP(x, b)
#define ZR_ACPU_REPLACES_FLOATING(OP, x, b) (ZR_ACPU_BETTER_##OP(x, b) | (isnan(x) & ~isnan(b)))
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

// One block x (W values, block number blk) into the state (values, blocks).
#define ZR_ACPU_STEP(OP, ATN, W, values, blocks, x, blk)                       \
  do {                                                                        \
    const ZR_ACAT(int, W) zr_m_ = ZR_ACAT(convert_int, W)(ZR_ACPU_REPLACES(OP, ATN, x, values)); \
    (values) = select((values), (x), ZR_ACPU_REPLACES(OP, ATN, x, values));  \
    (blocks) = select((blocks), (ZR_ACAT(uint, W))(blk), zr_m_);               \
  } while (0)

// Lane k of a state into best: its value came from block b of the segment.
// Straight-line code over the lanes: a loop over them through a private array gave llvm-spirv-15 a block
// order spirv-val rejects.
#define ZR_ACPU_LANE(OP, ATN, W, best, values, blocks, segment, k, sk)                                        \
  {                                                                                                         \
    const ulong zr_at_ = (segment) + (ulong)(blocks).sk * W + (k);                                          \
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
#define ZR_ARGCPU_KERNEL_W(OP, TN, T, ACC, ATN, W)                                                          \
  kernel void zr_argcpu_##OP##_##TN(global const T* restrict in, ulong n, global zr_arg_##ATN* restrict partials, \
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
    for (ulong segment = begin; segment < body_end;) {                                                       \
      const ulong segment_end = min(body_end, segment + ((ulong)W << 30));                                   \
      /* the states start from the segment's first two blocks (or the first, twice): a lane's value must */ \
      /* come from the input, as one equal to the identity's would never replace it */                      \
      ACC##W even_values = ZR_ACPU_LOAD_##TN(W, in + segment);                                               \
      ACC##W odd_values = segment + 2 * W <= segment_end ? ZR_ACPU_LOAD_##TN(W, in + segment + W) : even_values; \
      uint##W even_blocks = (uint##W)(0);                                                                    \
      uint##W odd_blocks = (uint##W)(segment + 2 * W <= segment_end ? 1 : 0);                                \
      uint blk = 0;                                                                                          \
      ulong i = segment;                                                                                     \
      for (; i + 2 * W <= segment_end; i += 2 * W, blk += 2) {                                               \
        const ACC##W x = ZR_ACPU_LOAD_##TN(W, in + i);                                                       \
        const ACC##W y = ZR_ACPU_LOAD_##TN(W, in + i + W);                                                   \
        ZR_ACPU_STEP(OP, ATN, W, even_values, even_blocks, x, blk);                                          \
        ZR_ACPU_STEP(OP, ATN, W, odd_values, odd_blocks, y, blk + 1);                                        \
      }                                                                                                      \
      if (i < segment_end) {                                                                                 \
        const ACC##W x = ZR_ACPU_LOAD_##TN(W, in + i);                                                       \
        ZR_ACPU_STEP(OP, ATN, W, even_values, even_blocks, x, blk);                                          \
      }                                                                                                      \
      ZR_ACAT(ZR_ACPU_FOLD_, W)(OP, ATN, W, best, even_values, even_blocks, segment)                       \
      ZR_ACAT(ZR_ACPU_FOLD_, W)(OP, ATN, W, best, odd_values, odd_blocks, segment)                         \
      segment = segment_end;                                                                                 \
    }                                                                                                        \
    for (ulong i = body_end; i < end; ++i) {                                                                 \
      const ACC x = (ACC)ZR_LOAD_##TN(in, i);                                                                \
      if (zr_beats_##OP##_##ATN(x, best_value) | (best_index == ULONG_MAX)) { /* or still the identity */    \
        best_value = x;                                                                                      \
        best_index = i;                                                                                      \
      }                                                                                                      \
    }                                                                                                        \
    partials[get_global_id(0)].value = best_value;                                                           \
    partials[get_global_id(0)].index = best_index;                                                           \
  }

ZR_FOR_EACH_ARG_PAIR(ZR_ARGCPU_KERNEL)
