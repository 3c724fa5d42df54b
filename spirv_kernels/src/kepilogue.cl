// Variant "kepilogue": the epilogue of an application's kernels with reducers (include/zereduce/reducer_cl.h,
// docs/kernels.md), linked into them at run time. No entry points: the kernel, written with ZR_KERNEL, calls
// these after its body, every work-item of the group with the same reducer code (a constant of the kernel, so
// the device compiler folds the switch once the modules are linked and inlined), and with its local id and
// group size: this module reads no built-in variable (zr_group_tree.h's ZR_LOCAL_TREE_AT says why).
//
// Accumulators travel as ulong bits; each group combines its work-items' through local memory with the fixed
// radix-8 tree of zr_group_tree.h, the last group the groups' partials in index order: deterministic for a given
// launch shape, on every device (only OpenCL C 1.2).
// Built with ZR_EPILOGUE_COLLECTIVES (variant "kepiwg", kepiwg.cl: devices with work-group collectives), a group
// combines the reducers whose result does not depend on the order with the collectives instead: integer plus,
// minimum and maximum, floating minimum and maximum (zr_wg_collectives.h gives them ze-reduce's NaN and signed-zero
// rules). Floating sums and products, bitwise and logical ops keep the tree.
#include <zereduce/reducer_cl.h>

#include "zr_group_tree.h"

#if defined(ZR_EPILOGUE_COLLECTIVES)
#include "zr_wg_collectives.h"
ZR_WG_DEFINE_INTEGERS()
ZR_WG_DEFINE_FLOATING(f32, float)
#if defined(ZR_CLASS_FP64)
ZR_WG_DEFINE_FLOATING(f64, double)
#endif
// The codes a collective takes, for reducers of type TN accumulated as ATN (f16 as float). The code is the same in
// every work-item, so the whole group takes the same case, as the collectives require.
#define ZR_EPI_WG_CASE_(OP, TN, ATN) \
  case ZR_REDUCER_CODE(OP, TN): return ZR_RC_BITS_##ATN(zr_wg_##OP##_##ATN(value));
#define ZR_EPI_WG_INTEGER_(ATN) \
  ZR_EPI_WG_CASE_(plus, ATN, ATN) ZR_EPI_WG_CASE_(minimum, ATN, ATN) ZR_EPI_WG_CASE_(maximum, ATN, ATN)
#define ZR_EPI_WG_CASES_i8 ZR_EPI_WG_INTEGER_(i8)
#define ZR_EPI_WG_CASES_i16 ZR_EPI_WG_INTEGER_(i16)
#define ZR_EPI_WG_CASES_i32 ZR_EPI_WG_INTEGER_(i32)
#define ZR_EPI_WG_CASES_i64 ZR_EPI_WG_INTEGER_(i64)
#define ZR_EPI_WG_CASES_u8 ZR_EPI_WG_INTEGER_(u8)
#define ZR_EPI_WG_CASES_u16 ZR_EPI_WG_INTEGER_(u16)
#define ZR_EPI_WG_CASES_u32 ZR_EPI_WG_INTEGER_(u32)
#define ZR_EPI_WG_CASES_u64 ZR_EPI_WG_INTEGER_(u64)
#define ZR_EPI_WG_CASES_f32                                                                              \
  ZR_EPI_WG_CASE_(minimum, f32, f32) ZR_EPI_WG_CASE_(maximum, f32, f32) ZR_EPI_WG_CASE_(minimum, f16, f32) \
  ZR_EPI_WG_CASE_(maximum, f16, f32)
#define ZR_EPI_WG_CASES_f64 ZR_EPI_WG_CASE_(minimum, f64, f64) ZR_EPI_WG_CASE_(maximum, f64, f64)
#define ZR_EPI_COLLECTIVE_(ATN) \
  switch (code) {               \
    ZR_EPI_WG_CASES_##ATN       \
    default: break;             \
  }
#else
#define ZR_EPI_COLLECTIVE_(ATN)
#endif

// Devices that build OpenCL C get the kernel's source followed by this one: the reducer header is already in the
// kernel's, so the runtime keeps only what follows this marker (runtime/core/kernel_reducers.cpp).
typedef int zr_epilogue_definitions_follow;

#define ZR_EPI_CASE_(OP, TN) \
  case ZR_REDUCER_CODE(OP, TN): return ZR_RC_BITS_##TN(zr_acc_##OP##_##TN(ZR_RC_FROM_##TN(a), ZR_RC_FROM_##TN(b)));
#define ZR_EPI_INTEGER_CASES_(TN)                                                                          \
  ZR_EPI_CASE_(plus, TN) ZR_EPI_CASE_(multiplies, TN) ZR_EPI_CASE_(minimum, TN) ZR_EPI_CASE_(maximum, TN) \
  ZR_EPI_CASE_(bit_and, TN) ZR_EPI_CASE_(bit_or, TN) ZR_EPI_CASE_(bit_xor, TN)
#define ZR_EPI_FLOATING_CASES_(TN) \
  ZR_EPI_CASE_(plus, TN) ZR_EPI_CASE_(multiplies, TN) ZR_EPI_CASE_(minimum, TN) ZR_EPI_CASE_(maximum, TN)

ulong zr_epilogue_combine(uint code, ulong a, ulong b) {
  switch (code) {
    ZR_EPI_INTEGER_CASES_(i8)
    ZR_EPI_INTEGER_CASES_(i16)
    ZR_EPI_INTEGER_CASES_(i32)
    ZR_EPI_INTEGER_CASES_(i64)
    ZR_EPI_INTEGER_CASES_(u8)
    ZR_EPI_INTEGER_CASES_(u16)
    ZR_EPI_INTEGER_CASES_(u32)
    ZR_EPI_INTEGER_CASES_(u64)
    ZR_EPI_FLOATING_CASES_(f16)
    ZR_EPI_FLOATING_CASES_(f32)
#if defined(ZR_CLASS_FP64)
    ZR_EPI_FLOATING_CASES_(f64)
#endif
    ZR_EPI_CASE_(logical_and, bool)
    ZR_EPI_CASE_(logical_or, bool)
    default: return a;  // the runtime links this module only with kernels whose codes it knows
  }
}

#define ZR_EPI_COMBINE_(a, b) zr_epilogue_combine(code, (a), (b))

static inline ulong zr_epilogue_tree(uint code, ulong bits, ulong identity, local ulong* scratch, uint lid, uint size) {
  ZR_LOCAL_TREE_AT(ZR_EPI_COMBINE_, ulong, bits, scratch, identity, lid, size);
  barrier(CLK_LOCAL_MEM_FENCE);  // every item has read scratch[0] before the next reducer's tree writes it
  return bits;
}

#define ZR_EPI_GROUP_(ATN, ACC)                                                                             \
  ulong zr_epilogue_group_##ATN(uint code, ACC value, ACC identity, local ulong* scratch, uint lid,          \
                                uint size) {                                                                \
    ZR_EPI_COLLECTIVE_(ATN)                                                                                 \
    return zr_epilogue_tree(code, ZR_RC_BITS_##ATN(value), ZR_RC_BITS_##ATN(identity), scratch, lid, size); \
  }
ZR_EPI_GROUP_(i8, char)
ZR_EPI_GROUP_(i16, short)
ZR_EPI_GROUP_(i32, int)
ZR_EPI_GROUP_(i64, long)
ZR_EPI_GROUP_(u8, uchar)
ZR_EPI_GROUP_(u16, ushort)
ZR_EPI_GROUP_(u32, uint)
ZR_EPI_GROUP_(u64, ulong)
ZR_EPI_GROUP_(f32, float)
#if defined(ZR_CLASS_FP64)
ZR_EPI_GROUP_(f64, double)
#endif

ulong zr_epilogue_partials(uint code, const volatile global ulong* partials, uint count, ulong identity,
                           local ulong* scratch, uint lid, uint size) {
  ulong bits = identity;
  for (uint g = lid; g < count; g += size) bits = zr_epilogue_combine(code, bits, partials[g]);
  return zr_epilogue_tree(code, bits, identity, scratch, lid, size);
}
