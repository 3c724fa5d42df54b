// Variant "ucpu": the first pass of a user-defined operator's reduction on CPU devices, shaped as cpu.cl
// (whose comment says why CPUs want contiguous chunks): work-item i of G combines the elements of one
// contiguous chunk [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up to a multiple of 16, 16 bytes a
// load, and writes one partial and its flag (launch with local size 1); ufinal.cl combines them.
// The chunk is read as four contiguous quarters side by side, each folded in index order into an accumulator of
// its own, and the four are then combined in index order: only associativity is used (no element changes
// places), and the operator's combine, a chain of dependent operations through one accumulator, runs as four
// independent chains. A chunk shorter than four vectors is folded in one.
// Arguments: in, n (64-bit), partials (one slot per work-item), partial_flags (one uint per work-item),
// slots and flags (local; unused: the signature of utree).
#include "zr_cpu_device_kernel.h"
#include "zr_user.h"
#include "zr_cpu_loads.h"

// Plain loads (zr_cpu_loads.h says why), not zr_user.h's vloadN.
#undef ZR_UVLOAD
#define ZR_UVLOAD(v, p) ZR_CPU_PLAIN_LOAD(ZR_UT, ZR_UL, (p) + (v) * ZR_UL)

// ZR_USER_FOLD_LANE for the second, third and fourth quarters' accumulators.
#define ZR_UCPU_FOLD_(k, lane, index)                                  \
  zr_user_transform(ZR_USER_BYTES(tmp##k), (ulong)(lane), (index));   \
  zr_user_combine(ZR_USER_BYTES(acc##k), ZR_USER_BYTES(tmp##k));
#define ZR_UCPU_FOLD_1(lane, index) ZR_UCPU_FOLD_(1, lane, index)
#define ZR_UCPU_FOLD_2(lane, index) ZR_UCPU_FOLD_(2, lane, index)
#define ZR_UCPU_FOLD_3(lane, index) ZR_UCPU_FOLD_(3, lane, index)

ZR_CPU_DEVICE_KERNEL void ZR_USER_KERNEL_NAME(ucpu)(global const ZR_UT* restrict in, ulong n, global uint4* partial_words,
                                      global uint* partial_flags, local uint4* slot_words, local uint* flags) {
  // Declared as 16-byte words so that every device aligns them for any accumulator (a uchar* local argument
  // need not be).
  global uchar* partials = (global uchar*)partial_words;
  ZR_USER_STORE(store);
  private uint* acc = ZR_USER_ACC(store);
  private uint* tmp = ZR_USER_TMP(store);
  const ulong items = get_global_size(0);
  const ulong per_item = n == 0 ? 0 : (n - 1) / items + 1;
  const ulong chunk = (per_item + 15) & ~(ulong)15;
  const ulong begin = min(n, get_global_id(0) * chunk);
  const ulong end = min(n, begin + chunk);
  uint has = 0;
  ulong i = begin;
  const ulong quarter = ((end - begin) / (4 * ZR_UL)) * ZR_UL;  // elements of each quarter, whole vectors
  if (quarter > 0) {
    ZR_USER_STORE(store1);
    ZR_USER_STORE(store2);
    ZR_USER_STORE(store3);
    private uint* acc1 = ZR_USER_ACC(store1);
    private uint* tmp1 = ZR_USER_TMP(store1);
    private uint* acc2 = ZR_USER_ACC(store2);
    private uint* tmp2 = ZR_USER_TMP(store2);
    private uint* acc3 = ZR_USER_ACC(store3);
    private uint* tmp3 = ZR_USER_TMP(store3);
    const ulong q1 = begin + quarter, q2 = q1 + quarter, q3 = q2 + quarter;
    // Each quarter's first element seeds its accumulator.
    const ZR_UVT f0 = ZR_UVLOAD(0, in + begin), f1 = ZR_UVLOAD(0, in + q1);
    const ZR_UVT f2 = ZR_UVLOAD(0, in + q2), f3 = ZR_UVLOAD(0, in + q3);
    zr_user_transform(ZR_USER_BYTES(acc), (ulong)f0.s0, begin);
    zr_user_transform(ZR_USER_BYTES(acc1), (ulong)f1.s0, q1);
    zr_user_transform(ZR_USER_BYTES(acc2), (ulong)f2.s0, q2);
    zr_user_transform(ZR_USER_BYTES(acc3), (ulong)f3.s0, q3);
    ZR_ULANES_AFTER_FIRST(ZR_USER_FOLD_LANE, f0, begin)
    ZR_ULANES_AFTER_FIRST(ZR_UCPU_FOLD_1, f1, q1)
    ZR_ULANES_AFTER_FIRST(ZR_UCPU_FOLD_2, f2, q2)
    ZR_ULANES_AFTER_FIRST(ZR_UCPU_FOLD_3, f3, q3)
    for (ulong v = ZR_UL; v < quarter; v += ZR_UL) {
      const ZR_UVT x0 = ZR_UVLOAD(0, in + begin + v), x1 = ZR_UVLOAD(0, in + q1 + v);
      const ZR_UVT x2 = ZR_UVLOAD(0, in + q2 + v), x3 = ZR_UVLOAD(0, in + q3 + v);
      ZR_ULANES(ZR_USER_FOLD_LANE, x0, begin + v)
      ZR_ULANES(ZR_UCPU_FOLD_1, x1, q1 + v)
      ZR_ULANES(ZR_UCPU_FOLD_2, x2, q2 + v)
      ZR_ULANES(ZR_UCPU_FOLD_3, x3, q3 + v)
    }
    // The rest of the chunk follows the last quarter.
    for (i = q3 + quarter; i < end; ++i) {
      ZR_UCPU_FOLD_3(in[i], i)
    }
    zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(acc1));
    zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(acc2));
    zr_user_combine(ZR_USER_BYTES(acc), ZR_USER_BYTES(acc3));
    has = 1;
  } else if (i < end) {
    zr_user_transform(ZR_USER_BYTES(acc), (ulong)in[i], i);
    has = 1;
    for (++i; i < end; ++i) {
      ZR_USER_FOLD_LANE(in[i], i)
    }
  }
  // ufinal combines an operator's partials without looking at their flags where it has an identity
  // (zr_user_seeded): an empty chunk's partial is that identity.
  if (!has) zr_user_identity(ZR_USER_BYTES(acc));
  zr_user_to_global(ZR_USER_SLOT(partials, get_global_id(0)), ZR_USER_BYTES(acc));
  partial_flags[get_global_id(0)] = has;
}
