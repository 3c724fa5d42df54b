// Variant "ucpu": the first pass of a user-defined operator's reduction on CPU devices, shaped as cpu.cl
// (whose comment says why CPUs want contiguous chunks): work-item i of G combines the elements of one
// contiguous chunk [i*chunk, min(n, (i+1)*chunk)), chunk = ceil(n/G) rounded up to a multiple of 16, in index
// order, 16 bytes a load, and writes one partial and its flag (launch with local size 1); ufinal.cl combines
// them. Arguments: in, n (64-bit), partials (one slot per work-item), partial_flags (one uint per work-item),
// slots and flags (local; unused: the signature of utree).
#include "zr_user.h"
#include "zr_cpu_loads.h"

// Plain loads (zr_cpu_loads.h says why), not zr_user.h's vloadN.
#undef ZR_UVLOAD
#define ZR_UVLOAD(v, p) ZR_CPU_PLAIN_LOAD(ZR_UT, ZR_UL, (p) + (v) * ZR_UL)

kernel void ZR_USER_KERNEL_NAME(ucpu)(global const ZR_UT* restrict in, ulong n, global uint4* partial_words,
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
  if (i < end) {
    zr_user_transform(ZR_USER_BYTES(acc), (ulong)in[i], i);
    has = 1;
    ++i;
  }
  // From the next 16-byte boundary (begin is one: a multiple of 16 elements), whole vectors, then the rest.
  for (; i < end && i % ZR_UL != 0; ++i) {
    ZR_USER_FOLD_LANE(in[i], i)
  }
  for (; i + ZR_UL <= end; i += ZR_UL) {
    const ZR_UVT x = ZR_UVLOAD(i / ZR_UL, in);
    ZR_ULANES(ZR_USER_FOLD_LANE, x, i)
  }
  for (; i < end; ++i) {
    ZR_USER_FOLD_LANE(in[i], i)
  }
  // ufinal combines an operator's partials without looking at their flags where it has an identity
  // (zr_user_seeded): an empty chunk's partial is that identity.
  if (!has) zr_user_identity(ZR_USER_BYTES(acc));
  zr_user_to_global(ZR_USER_SLOT(partials, get_global_id(0)), ZR_USER_BYTES(acc));
  partial_flags[get_global_id(0)] = has;
}
