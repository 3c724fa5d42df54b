// OpenCL C, for an application's own kernels with reducers (docs/kernels.md): SYCL 2020's reduction model,
// `parallel_for(range, reduction(&sum, plus<>()), [=](id i, auto& sum) { sum += f(i); })`, written as
//
//   #include <zereduce/reducer_cl.h>
//   ZR_KERNEL(axpy_norm, (global const float* x, global const float* y, float a), (x, y, a),
//             ZR_REDUCER(zr_plus_f32, norm2), ZR_REDUCER(zr_maximum_f32, peak)) {
//     const float v = a * x[zr_index] + y[zr_index];
//     zr_combine(norm2, v * v);
//     zr_combine(peak, fabs(v));
//   }
//
// The macro's arguments: the kernel's name; its parameters (global pointers and scalars, as in any kernel);
// the same parameters' names; then its reducers, in the order of the zr::reduction(...) arguments of
// queue::parallel_for. The block after it is the body, run once for every index `zr_index` (ulong) of the
// range, with each reducer as a pointer to this work-item's private accumulator. The body is a function of its
// own: `return` ends the work of that index. Everything after it is ze-reduce's:
//
//   - scalar reducers: the work-group combines its work-items' accumulators (the epilogue variant chosen for
//     the device at run time, linked in by ze-reduce: spirv_kernels/src/kepilogue.cl), every group writes its
//     partial, and the last group to finish folds the partials in group order and stores the result, combined
//     with the variable's initial value unless initialize_to_identity. Deterministic for a given launch.
//   - span reducers (ZR_SPAN_REDUCER, SYCL's reduction(span, op)): zr_combine_at(r, index, value) combines
//     into element `index` of the span with an atomic (integers: exact, so deterministic; f32 sums: a
//     compare-and-swap loop, whose rounding depends on the order, so ze-reduce refuses them with the
//     deterministic property). An index outside the span is ignored.
//
// Reducer types are zr_<op>_<type> and zr_span_<op>_<type>: ops plus, multiplies, minimum, maximum, bit_and,
// bit_or, bit_xor (integers), logical_and, logical_or (bool, as uchar); types i8 i16 i32 i64 u8 u16 u32 u64 f16
// f32 f64 bool, and reducers of your own (ZR_USER_REDUCER_TYPE, below). Floating minimum and maximum follow
// ze-reduce's reductions (a NaN gives the canonical NaN, -0.0 is below +0.0); integer sums and products wrap; f16
// accumulates in float and rounds once (its zr_combine takes a float). Spans: plus, minimum, maximum, bit_and, bit_or, bit_xor of i32 and u32 (i64 and u64 too where the
// device has 64-bit atomics), and plus of f32.
//
// zereduce_add_kernel() (CMake) compiles the file to SPIR-V at your build time; at run time ze-reduce links
// that SPIR-V with its epilogue (SPIRV-Tools' linker, validated), as it links user-defined operators.
#ifndef ZEREDUCE_REDUCER_CL_H
#define ZEREDUCE_REDUCER_CL_H

#define ZR_KERNEL_INTERFACE_VERSION 1u

// ---- codes: an op's and a type's place in ze-reduce's lists (runtime/core/data_types.hpp) ------------------
#define ZR_OP_plus 0u
#define ZR_OP_multiplies 1u
#define ZR_OP_minimum 2u
#define ZR_OP_maximum 3u
#define ZR_OP_bit_and 4u
#define ZR_OP_bit_or 5u
#define ZR_OP_bit_xor 6u
#define ZR_OP_logical_and 7u
#define ZR_OP_logical_or 8u
#define ZR_TYPE_i8 0u
#define ZR_TYPE_i16 1u
#define ZR_TYPE_i32 2u
#define ZR_TYPE_i64 3u
#define ZR_TYPE_u8 4u
#define ZR_TYPE_u16 5u
#define ZR_TYPE_u32 6u
#define ZR_TYPE_u64 7u
#define ZR_TYPE_f16 8u
#define ZR_TYPE_f32 9u
#define ZR_TYPE_f64 10u
#define ZR_TYPE_bool 11u
// A reducer's code: op x 16 + type, plus 256 for a span reducer; 512 for a reducer of your own
// (ZR_USER_REDUCER_TYPE).
#define ZR_REDUCER_CODE(OP, TN) (ZR_OP_##OP * 16u + ZR_TYPE_##TN)
#define ZR_SPAN_CODE 256u
#define ZR_USER_CODE 512u

// ---- the epilogue's side of the link (spirv_kernels/src/kepilogue.cl, linked in at run time) -------------
// Accumulators travel as the 64 bits of a ulong (narrower ones zero-extended, f16 as its float accumulator).
// Every work-item of the group calls these, with the same code, its local id and the group's size (the epilogue
// reads no built-in variable of its own).
ulong zr_epilogue_combine(uint code, ulong a, ulong b);
// The group's accumulators combined (in a fixed order), as bits; the value comes back to every work-item. One
// function per accumulator type: the kernel hands over the value its loop ends with as it is (a conversion
// there would be sunk into the loop's exit block, which llvm-spirv-15 writes out of dominance order).
#define ZR_RC_GROUP_DECLARE_(ATN, ACC) \
  ulong zr_epilogue_group_##ATN(uint code, ACC value, ACC identity, local ulong* scratch, uint lid, uint size);
ZR_RC_GROUP_DECLARE_(i8, char)
ZR_RC_GROUP_DECLARE_(i16, short)
ZR_RC_GROUP_DECLARE_(i32, int)
ZR_RC_GROUP_DECLARE_(i64, long)
ZR_RC_GROUP_DECLARE_(u8, uchar)
ZR_RC_GROUP_DECLARE_(u16, ushort)
ZR_RC_GROUP_DECLARE_(u32, uint)
ZR_RC_GROUP_DECLARE_(u64, ulong)
ZR_RC_GROUP_DECLARE_(f32, float)
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
ZR_RC_GROUP_DECLARE_(f64, double)
#endif
// The `count` partials combined in index order (a strided share per work-item, then the group's tree).
ulong zr_epilogue_partials(uint code, const volatile global ulong* partials, uint count, ulong identity,
                           local ulong* scratch, uint lid, uint size);

// ---- combine functions, identities and bits of every (op, type) ------------------------------------------
// WT is a wide unsigned type: narrow operands are promoted to it before + and *, so nothing overflows a signed
// int (undefined behaviour).
#define ZR_RC_INTEGER_(TN, T, WT)                                                        \
  static inline T zr_acc_plus_##TN(T a, T b) { return (T)((WT)a + (WT)b); }             \
  static inline T zr_acc_multiplies_##TN(T a, T b) { return (T)((WT)a * (WT)b); }      \
  static inline T zr_acc_minimum_##TN(T a, T b) { return b < a ? b : a; }              \
  static inline T zr_acc_maximum_##TN(T a, T b) { return a < b ? b : a; }              \
  static inline T zr_acc_bit_and_##TN(T a, T b) { return a & b; }                      \
  static inline T zr_acc_bit_or_##TN(T a, T b) { return a | b; }                       \
  static inline T zr_acc_bit_xor_##TN(T a, T b) { return a ^ b; }

// Floating minimum and maximum as IEEE 754-2019's: a NaN operand gives the canonical quiet NaN; of equal
// operands (the same bits, or zeros of both signs) OR-ing the bits picks -0.0 for minimum, AND-ing +0.0 for
// maximum.
#define ZR_RC_FLOATING_(TN, T, UT, NAN_BITS)                                                                 \
  static inline T zr_acc_plus_##TN(T a, T b) { return a + b; }                                              \
  static inline T zr_acc_multiplies_##TN(T a, T b) { return a * b; }                                        \
  static inline T zr_acc_minimum_##TN(T a, T b) {                                                           \
    const T lower = a == b ? as_##T(as_##UT(a) | as_##UT(b)) : (b < a ? b : a);                             \
    return isunordered(a, b) ? as_##T((UT)NAN_BITS) : lower;                                                \
  }                                                                                                         \
  static inline T zr_acc_maximum_##TN(T a, T b) {                                                           \
    const T upper = a == b ? as_##T(as_##UT(a) & as_##UT(b)) : (a < b ? b : a);                             \
    return isunordered(a, b) ? as_##T((UT)NAN_BITS) : upper;                                                \
  }

ZR_RC_INTEGER_(i8, char, uint)
ZR_RC_INTEGER_(i16, short, uint)
ZR_RC_INTEGER_(i32, int, uint)
ZR_RC_INTEGER_(i64, long, ulong)
ZR_RC_INTEGER_(u8, uchar, uint)
ZR_RC_INTEGER_(u16, ushort, uint)
ZR_RC_INTEGER_(u32, uint, uint)
ZR_RC_INTEGER_(u64, ulong, ulong)
ZR_RC_FLOATING_(f32, float, uint, 0x7fc00000u)
ZR_RC_FLOATING_(f16, float, uint, 0x7fc00000u)
static inline uchar zr_acc_logical_and_bool(uchar a, uchar b) { return (uchar)(a && b); }
static inline uchar zr_acc_logical_or_bool(uchar a, uchar b) { return (uchar)(a || b); }
#if defined(cl_khr_fp64)
ZR_RC_FLOATING_(f64, double, ulong, 0x7ff8000000000000ul)
#endif

// Accumulator <-> bits.
#define ZR_RC_BITS_i8(v) ((ulong)(uchar)(v))
#define ZR_RC_BITS_i16(v) ((ulong)(ushort)(v))
#define ZR_RC_BITS_i32(v) ((ulong)(uint)(v))
#define ZR_RC_BITS_i64(v) ((ulong)(v))
#define ZR_RC_BITS_u8(v) ((ulong)(v))
#define ZR_RC_BITS_u16(v) ((ulong)(v))
#define ZR_RC_BITS_u32(v) ((ulong)(v))
#define ZR_RC_BITS_u64(v) ((ulong)(v))
#define ZR_RC_BITS_f16(v) ((ulong)as_uint(v))
#define ZR_RC_BITS_f32(v) ((ulong)as_uint(v))
#define ZR_RC_BITS_f64(v) as_ulong(v)
#define ZR_RC_BITS_bool(v) ((ulong)(v))
#define ZR_RC_FROM_i8(b) ((char)(uchar)(b))
#define ZR_RC_FROM_i16(b) ((short)(ushort)(b))
#define ZR_RC_FROM_i32(b) ((int)(uint)(b))
#define ZR_RC_FROM_i64(b) ((long)(b))
#define ZR_RC_FROM_u8(b) ((uchar)(b))
#define ZR_RC_FROM_u16(b) ((ushort)(b))
#define ZR_RC_FROM_u32(b) ((uint)(b))
#define ZR_RC_FROM_u64(b) ((ulong)(b))
#define ZR_RC_FROM_f16(b) as_float((uint)(b))
#define ZR_RC_FROM_f32(b) as_float((uint)(b))
#define ZR_RC_FROM_f64(b) as_double(b)
#define ZR_RC_FROM_bool(b) ((uchar)(b))

// A result's element as stored (f16 as its bits, rounded to nearest even once; bool as 0 or 1) and read.
#define ZR_RC_STORE_DEFAULT_(p, v) (*(p) = (v))
#define ZR_RC_LOAD_DEFAULT_(p) (*(p))

// One scalar reducer type: the accumulator struct, its code, identity, element type, combine and result store.
#define ZR_RC_SCALAR_(OP, TN, ATN, ELEM, ACC, IDENTITY, STORE, LOAD)                                                \
  typedef struct {                                                                                          \
    ACC value;                                                                                              \
  } zr_##OP##_##TN;                                                                                         \
  typedef ELEM zr_element_of_zr_##OP##_##TN;                                                                \
  static inline uint zr_code_of_zr_##OP##_##TN(void) { return ZR_REDUCER_CODE(OP, TN); }                    \
  static inline uint zr_bytes_of_zr_##OP##_##TN(void) { return (uint)sizeof(ELEM); }                        \
  static inline ACC zr_identity_of_zr_##OP##_##TN(void) { return (IDENTITY); }                             \
  static inline ulong zr_bits_of_zr_##OP##_##TN(ACC v) { return ZR_RC_BITS_##TN(v); }                      \
  static inline ulong zr_group_bits_zr_##OP##_##TN(ACC v, local ulong* scratch) {                           \
    return zr_epilogue_group_##ATN(ZR_REDUCER_CODE(OP, TN), v, (IDENTITY), scratch, (uint)get_local_id(0),   \
                                   (uint)get_local_size(0));                                                \
  }                                                                                                         \
  static inline ulong zr_load_bits_zr_##OP##_##TN(global ELEM* p) { return ZR_RC_BITS_##TN(LOAD(p)); }     \
  static inline void zr_store_bits_zr_##OP##_##TN(global ELEM* p, ulong bits) {                             \
    STORE(p, ZR_RC_FROM_##TN(bits));                                                                        \
  }                                                                                                         \
  static inline __attribute__((overloadable)) void zr_combine(private zr_##OP##_##TN* r, ACC v) {           \
    r->value = zr_acc_##OP##_##TN(r->value, v);                                                             \
  }

#define ZR_RC_STORE_BOOL_(p, v) (*(p) = (uchar)((v) != 0))
#define ZR_RC_LOAD_BOOL_(p) ((uchar)(*(p) != 0))
#define ZR_RC_STORE_F32_(p, v) (*(p) = isnan(v) ? as_float(0x7fc00000u) : (v))
#define ZR_RC_STORE_F64_(p, v) (*(p) = isnan(v) ? as_double(0x7ff8000000000000ul) : (v))
// f16 results are kept as ushort bits: no half arithmetic (or cl_khr_fp16) is needed for them.
#define ZR_RC_STORE_F16_(p, v)                                                                             \
  (isnan(v) ? (void)(*(p) = (ushort)0x7e00) : vstore_half_rte((v), 0, (global half*)(p)))
#define ZR_RC_LOAD_F16_(p) vload_half(0, (const global half*)(p))

#define ZR_RC_INTEGER_REDUCERS_(TN, T, LOWEST, HIGHEST, ONES)                                                    \
  ZR_RC_SCALAR_(plus, TN, TN, T, T, (T)0, ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)                              \
  ZR_RC_SCALAR_(multiplies, TN, TN, T, T, (T)1, ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)                        \
  ZR_RC_SCALAR_(minimum, TN, TN, T, T, (T)(HIGHEST), ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)                   \
  ZR_RC_SCALAR_(maximum, TN, TN, T, T, (T)(LOWEST), ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)                    \
  ZR_RC_SCALAR_(bit_and, TN, TN, T, T, (T)(ONES), ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)                      \
  ZR_RC_SCALAR_(bit_or, TN, TN, T, T, (T)0, ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)                            \
  ZR_RC_SCALAR_(bit_xor, TN, TN, T, T, (T)0, ZR_RC_STORE_DEFAULT_, ZR_RC_LOAD_DEFAULT_)
#define ZR_RC_FLOATING_REDUCERS_(TN, ATN, ELEM, ACC, STORE, LOAD)                                                     \
  ZR_RC_SCALAR_(plus, TN, ATN, ELEM, ACC, (ACC)0, STORE, LOAD)                                                     \
  ZR_RC_SCALAR_(multiplies, TN, ATN, ELEM, ACC, (ACC)1, STORE, LOAD)                                               \
  ZR_RC_SCALAR_(minimum, TN, ATN, ELEM, ACC, (ACC)INFINITY, STORE, LOAD)                                           \
  ZR_RC_SCALAR_(maximum, TN, ATN, ELEM, ACC, -(ACC)INFINITY, STORE, LOAD)

ZR_RC_INTEGER_REDUCERS_(i8, char, CHAR_MIN, CHAR_MAX, -1)
ZR_RC_INTEGER_REDUCERS_(i16, short, SHRT_MIN, SHRT_MAX, -1)
ZR_RC_INTEGER_REDUCERS_(i32, int, INT_MIN, INT_MAX, -1)
ZR_RC_INTEGER_REDUCERS_(i64, long, LONG_MIN, LONG_MAX, -1)
ZR_RC_INTEGER_REDUCERS_(u8, uchar, 0, UCHAR_MAX, UCHAR_MAX)
ZR_RC_INTEGER_REDUCERS_(u16, ushort, 0, USHRT_MAX, USHRT_MAX)
ZR_RC_INTEGER_REDUCERS_(u32, uint, 0, UINT_MAX, UINT_MAX)
ZR_RC_INTEGER_REDUCERS_(u64, ulong, 0, ULONG_MAX, ULONG_MAX)
ZR_RC_FLOATING_REDUCERS_(f16, f32, ushort, float, ZR_RC_STORE_F16_, ZR_RC_LOAD_F16_)
ZR_RC_FLOATING_REDUCERS_(f32, f32, float, float, ZR_RC_STORE_F32_, ZR_RC_LOAD_DEFAULT_)
#if defined(cl_khr_fp64)
ZR_RC_FLOATING_REDUCERS_(f64, f64, double, double, ZR_RC_STORE_F64_, ZR_RC_LOAD_DEFAULT_)
#endif
ZR_RC_SCALAR_(logical_and, bool, u8, uchar, uchar, (uchar)1, ZR_RC_STORE_BOOL_, ZR_RC_LOAD_BOOL_)
ZR_RC_SCALAR_(logical_or, bool, u8, uchar, uchar, (uchar)0, ZR_RC_STORE_BOOL_, ZR_RC_LOAD_BOOL_)

// ---- span reducers: combined into global memory with atomics ---------------------------------------------
#define ZR_RC_SPAN_(OP, TN, T, ATOMIC)                                                                       \
  typedef struct {                                                                                        \
    global T* data;                                                                                       \
    ulong size;                                                                                           \
  } zr_span_##OP##_##TN;                                                                                  \
  typedef T zr_element_of_zr_span_##OP##_##TN;                                                            \
  static inline uint zr_bytes_of_zr_span_##OP##_##TN(void) { return (uint)sizeof(T); }                    \
  static inline uint zr_code_of_zr_span_##OP##_##TN(void) { return ZR_SPAN_CODE + ZR_REDUCER_CODE(OP, TN); } \
  static inline __attribute__((overloadable)) void zr_combine_at(private zr_span_##OP##_##TN* r, ulong index, \
                                                                 T v) {                                   \
    if (index < r->size) (void)ATOMIC(r->data + index, v);                                                \
  }
#define ZR_RC_SPAN_INTEGER_(TN, T, PREFIX)                                                                   \
  ZR_RC_SPAN_(plus, TN, T, PREFIX##_add)                                                                     \
  ZR_RC_SPAN_(minimum, TN, T, PREFIX##_min)                                                                  \
  ZR_RC_SPAN_(maximum, TN, T, PREFIX##_max)                                                                  \
  ZR_RC_SPAN_(bit_and, TN, T, PREFIX##_and)                                                                  \
  ZR_RC_SPAN_(bit_or, TN, T, PREFIX##_or)                                                                    \
  ZR_RC_SPAN_(bit_xor, TN, T, PREFIX##_xor)
ZR_RC_SPAN_INTEGER_(i32, int, atomic)
ZR_RC_SPAN_INTEGER_(u32, uint, atomic)
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_int64_extended_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
ZR_RC_SPAN_INTEGER_(i64, long, atom)
ZR_RC_SPAN_INTEGER_(u64, ulong, atom)
#endif
// f32 sums: a compare-and-swap loop on the bits (OpenCL 1.2 has no float atomics).
static inline float zr_rc_atomic_add_f32_(global float* p, float v) {
  volatile global uint* word = (volatile global uint*)p;
  uint seen = *word;
  for (;;) {
    const uint wanted = as_uint(as_float(seen) + v);
    const uint before = atomic_cmpxchg(word, seen, wanted);
    if (before == seen) return as_float(before);
    seen = before;
  }
}
ZR_RC_SPAN_(plus, f32, float, zr_rc_atomic_add_f32_)

// ---- reducers of your own ----------------------------------------------------------------------------------
// ZR_USER_REDUCER_TYPE(NAME, ACC, COMBINE, IDENTITY) defines the reducer type NAME: ACC values (a struct or
// scalar of at most 64 bytes, aligned to at most 16) combined with COMBINE(ACC, ACC) -> ACC (associative and
// commutative, as SYCL requires), each work-item's starting from IDENTITY(). zr_combine(r, value) takes an ACC.
// The host passes zr::user_reduction(&var) for it, var of a C++ type of the same size. Its group and last-group
// folds are in the kernel's own module (a tree of pairs through local memory, then the groups in order):
// deterministic for a given launch shape.
#define ZR_USER_REDUCER_TYPE(NAME, ACC, COMBINE, IDENTITY)                                                       \
  typedef struct {                                                                                            \
    ACC value;                                                                                                \
  } NAME;                                                                                                     \
  typedef ACC zr_element_of_##NAME;                                                                           \
  static inline uint zr_code_of_##NAME(void) { return ZR_USER_CODE; }                                         \
  static inline uint zr_bytes_of_##NAME(void) { return (uint)sizeof(ACC); }                                   \
  static inline ACC zr_identity_of_##NAME(void) { return IDENTITY(); }                                        \
  static inline __attribute__((overloadable)) void zr_combine(private NAME* r, ACC v) {                       \
    r->value = COMBINE(r->value, v);                                                                          \
  }                                                                                                           \
  /* The group's values, one a slot, combined by a tree of pairs; every work-item gets the result. */         \
  static inline ACC zr_user_tree_of_##NAME(local ACC* slots) {                                                \
    const uint lid = (uint)get_local_id(0);                                                                   \
    uint active = (uint)get_local_size(0);                                                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    while (active > 1) {                                                                                      \
      const uint step = (active + 1) / 2;                                                                     \
      if (lid + step < active) slots[lid] = COMBINE(slots[lid], slots[lid + step]);                          \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
      active = step;                                                                                          \
    }                                                                                                         \
    const ACC out = slots[0];                                                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
    return out;                                                                                               \
  }                                                                                                           \
  /* A partial another group wrote, read past any cache (volatile) in words: a volatile copy of the struct */   \
  /* becomes byte loads in Intel's compiler, which spill. */                                                  \
  static inline ACC zr_user_load_of_##NAME(const global ACC* p) {                                             \
    union {                                                                                                   \
      ACC value;                                                                                              \
      uint words[sizeof(ACC) / 4 + 1];                                                                        \
      uchar bytes[sizeof(ACC)];                                                                               \
    } read;                                                                                                   \
    if (sizeof(ACC) % 4 == 0) {                                                                               \
      for (uint k = 0; k < sizeof(ACC) / 4; ++k) read.words[k] = ((const volatile global uint*)p)[k];         \
    } else {                                                                                                  \
      for (uint k = 0; k < sizeof(ACC); ++k) read.bytes[k] = ((const volatile global uchar*)p)[k];            \
    }                                                                                                         \
    return read.value;                                                                                        \
  }                                                                                                           \
  /* The last group: `count` partials folded in index order (a strided share per work-item, then the tree). */ \
  /* A loop that always runs once: llvm-spirv-15 writes the exit block of a guarded loop whose values are */  \
  /* used after it out of dominance order. */                                                                 \
  static inline ACC zr_user_partials_of_##NAME(const global ACC* partials, uint count, local ACC* slots) {     \
    const uint lid = (uint)get_local_id(0);                                                                   \
    ACC acc = IDENTITY();                                                                                     \
    uint g = lid;                                                                                             \
    do {                                                                                                      \
      if (g < count) acc = COMBINE(acc, zr_user_load_of_##NAME(partials + g));                                \
      g += (uint)get_local_size(0);                                                                           \
    } while (g < count);                                                                                      \
    slots[lid] = acc;                                                                                         \
    return zr_user_tree_of_##NAME(slots);                                                                     \
  }

// ---- ZR_KERNEL ----------------------------------------------------------------------------------------------
#define ZR_REDUCER(TYPE, NAME) (SCALAR, TYPE, NAME)
#define ZR_SPAN_REDUCER(TYPE, NAME) (SPAN, TYPE, NAME)
#define ZR_USER_REDUCER(TYPE, NAME) (USER, TYPE, NAME)

#define ZR_RC_CAT_(a, b) ZR_RC_CAT2_(a, b)
#define ZR_RC_CAT2_(a, b) a##b
#define ZR_RC_UNPAREN_(...) __VA_ARGS__
#define ZR_RC_COUNT_(...) ZR_RC_COUNT2_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define ZR_RC_COUNT2_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
// F(X, index, KIND, TYPE, NAME) for every reducer, with S() between them (X: the kernel's name).
#define ZR_RC_APPLY_(F, X, i, r) ZR_RC_APPLY2_(F, X, i, ZR_RC_UNPAREN_ r)
#define ZR_RC_APPLY2_(F, X, i, ...) ZR_RC_APPLY3_(F, X, i, __VA_ARGS__)
#define ZR_RC_APPLY3_(F, X, i, KIND, TYPE, NAME) F(X, i, KIND, TYPE, NAME)
#define ZR_RC_EACH_1_(F, S, X, r0) ZR_RC_APPLY_(F, X, 0, r0)
#define ZR_RC_EACH_2_(F, S, X, r0, r1) ZR_RC_EACH_1_(F, S, X, r0) S() ZR_RC_APPLY_(F, X, 1, r1)
#define ZR_RC_EACH_3_(F, S, X, r0, r1, r2) ZR_RC_EACH_2_(F, S, X, r0, r1) S() ZR_RC_APPLY_(F, X, 2, r2)
#define ZR_RC_EACH_4_(F, S, X, r0, r1, r2, r3) ZR_RC_EACH_3_(F, S, X, r0, r1, r2) S() ZR_RC_APPLY_(F, X, 3, r3)
#define ZR_RC_EACH_5_(F, S, X, r0, r1, r2, r3, r4) \
  ZR_RC_EACH_4_(F, S, X, r0, r1, r2, r3) S() ZR_RC_APPLY_(F, X, 4, r4)
#define ZR_RC_EACH_6_(F, S, X, r0, r1, r2, r3, r4, r5) \
  ZR_RC_EACH_5_(F, S, X, r0, r1, r2, r3, r4) S() ZR_RC_APPLY_(F, X, 5, r5)
#define ZR_RC_EACH_7_(F, S, X, r0, r1, r2, r3, r4, r5, r6) \
  ZR_RC_EACH_6_(F, S, X, r0, r1, r2, r3, r4, r5) S() ZR_RC_APPLY_(F, X, 6, r6)
#define ZR_RC_EACH_8_(F, S, X, r0, r1, r2, r3, r4, r5, r6, r7) \
  ZR_RC_EACH_7_(F, S, X, r0, r1, r2, r3, r4, r5, r6) S() ZR_RC_APPLY_(F, X, 7, r7)
#define ZR_RC_EACH_(F, S, X, ...) \
  ZR_RC_CAT_(ZR_RC_EACH_, ZR_RC_CAT_(ZR_RC_COUNT_(__VA_ARGS__), _))(F, S, X, __VA_ARGS__)
#define ZR_RC_COMMA_() ,
#define ZR_RC_NOTHING_()

// The body's parameter for each reducer, and what the kernel passes for it.
#define ZR_RC_BODY_PARAM_(X, i, KIND, TYPE, NAME) private TYPE* NAME
#define ZR_RC_BODY_ARG_(X, i, KIND, TYPE, NAME) &zr_acc_##i
// The kernel's parameters for each reducer: a scalar's result variable; a span's elements and size.
#define ZR_RC_KERNEL_PARAM_(X, i, KIND, TYPE, NAME) ZR_RC_KERNEL_PARAM_##KIND(i, TYPE)
#define ZR_RC_KERNEL_PARAM_SCALAR(i, TYPE) global zr_element_of_##TYPE* zr_result_##i
#define ZR_RC_KERNEL_PARAM_SPAN(i, TYPE) global zr_element_of_##TYPE* zr_span_##i, ulong zr_span_size_##i
#define ZR_RC_KERNEL_PARAM_USER ZR_RC_KERNEL_PARAM_SCALAR
#define ZR_RC_INIT_(X, i, KIND, TYPE, NAME) ZR_RC_INIT_##KIND(i, TYPE)
#define ZR_RC_INIT_SCALAR(i, TYPE) TYPE zr_acc_##i = {zr_identity_of_##TYPE()};
#define ZR_RC_INIT_SPAN(i, TYPE) TYPE zr_acc_##i = {zr_span_##i, zr_span_size_##i};
#define ZR_RC_INIT_USER ZR_RC_INIT_SCALAR
// Reducer i's partials: groups slots of zr_slot_bytes each (the largest reducer's accumulator, a multiple of 16).
#define ZR_RC_PARTIALS_(i) (zr_partials + (ulong)(i)*zr_groups_ * (zr_slot_bytes / 8))
// Scalars: the group's value to its partial; spans need nothing.
#define ZR_RC_GROUP_(X, i, KIND, TYPE, NAME) ZR_RC_GROUP_##KIND(i, TYPE)
#define ZR_RC_GROUP_SCALAR(i, TYPE)                                                                         \
  {                                                                                                         \
    const ulong zr_bits_ = zr_group_bits_##TYPE(zr_acc_##i.value, zr_scratch);                              \
    if (get_local_id(0) == 0) ZR_RC_PARTIALS_(i)[get_group_id(0)] = zr_bits_;                               \
  }
#define ZR_RC_GROUP_SPAN(i, TYPE)
#define ZR_RC_GROUP_USER(i, TYPE)                                                                           \
  {                                                                                                         \
    ((local zr_element_of_##TYPE*)zr_scratch)[get_local_id(0)] = zr_acc_##i.value;                          \
    const zr_element_of_##TYPE zr_group_value_ = zr_user_tree_of_##TYPE((local zr_element_of_##TYPE*)zr_scratch); \
    if (get_local_id(0) == 0)                                                                               \
      ((global zr_element_of_##TYPE*)ZR_RC_PARTIALS_(i))[get_group_id(0)] = zr_group_value_;                 \
  }
#define ZR_RC_FINAL_(X, i, KIND, TYPE, NAME) ZR_RC_FINAL_##KIND(i, TYPE)
#define ZR_RC_FINAL_SCALAR(i, TYPE)                                                                         \
  {                                                                                                         \
    ulong zr_bits_ = zr_epilogue_partials(zr_code_of_##TYPE(), ZR_RC_PARTIALS_(i),                           \
                                          zr_groups_, zr_bits_of_##TYPE(zr_identity_of_##TYPE()),           \
                                          zr_scratch, (uint)get_local_id(0), (uint)get_local_size(0));      \
    if (get_local_id(0) == 0) {                                                                             \
      if ((zr_include_initial >> (i)) & 1u)                                                                 \
        zr_bits_ = zr_epilogue_combine(zr_code_of_##TYPE(), zr_load_bits_##TYPE(zr_result_##i), zr_bits_);  \
      zr_store_bits_##TYPE(zr_result_##i, zr_bits_);                                                        \
    }                                                                                                       \
  }
#define ZR_RC_FINAL_SPAN(i, TYPE)
#define ZR_RC_FINAL_USER(i, TYPE)                                                                           \
  {                                                                                                         \
    zr_element_of_##TYPE zr_value_ = zr_user_partials_of_##TYPE(                                            \
        (const global zr_element_of_##TYPE*)ZR_RC_PARTIALS_(i), zr_groups_,                                 \
        (local zr_element_of_##TYPE*)zr_scratch);                                                           \
    if (get_local_id(0) == 0) {                                                                             \
      if ((zr_include_initial >> (i)) & 1u) {                                                               \
        TYPE zr_initial_ = {*zr_result_##i};                                                                \
        zr_combine(&zr_initial_, zr_value_);                                                                \
        zr_value_ = zr_initial_.value;                                                                      \
      }                                                                                                     \
      *zr_result_##i = zr_value_;                                                                           \
    }                                                                                                       \
  }
// What ze-reduce reads of the kernel (from its SPIR-V: exported functions that return constants): each
// reducer's code and the bytes of one of its values, in order.
#define ZR_RC_DESCRIBE_(X, i, KIND, TYPE, NAME)                                   \
  uint zr_kernel_##X##_reducer_##i(void) { return zr_code_of_##TYPE(); }         \
  uint zr_kernel_##X##_reducer_##i##_bytes(void) { return zr_bytes_of_##TYPE(); }

#define ZR_KERNEL(NAME, PARAMS, ARGS, ...)                                                                      \
  static void NAME##_zr_body(ulong zr_index, ZR_RC_UNPAREN_ PARAMS,                                             \
                             ZR_RC_EACH_(ZR_RC_BODY_PARAM_, ZR_RC_COMMA_, NAME, __VA_ARGS__));                        \
  uint zr_kernel_##NAME##_interface(void) { return ZR_KERNEL_INTERFACE_VERSION; }                               \
  uint zr_kernel_##NAME##_parameters(void) { return ZR_RC_COUNT_ ARGS; }                                        \
  uint zr_kernel_##NAME##_reducers(void) { return ZR_RC_COUNT_(__VA_ARGS__); }                                  \
  ZR_RC_EACH_(ZR_RC_DESCRIBE_, ZR_RC_NOTHING_, NAME, __VA_ARGS__)                                   \
  kernel void NAME(ZR_RC_UNPAREN_ PARAMS, ulong zr_n, ulong zr_chunk, global ulong* zr_partials,               \
                   ulong zr_slot_bytes, global uint* zr_counter,                                                \
                   local ulong2* zr_scratch_words, uint zr_include_initial,                                     \
                   ZR_RC_EACH_(ZR_RC_KERNEL_PARAM_, ZR_RC_COMMA_, NAME, __VA_ARGS__)) {                               \
    local uint zr_is_last_[1];                                                                                  \
    /* 16-byte words: aligned for any accumulator of a reducer of your own */                                   \
    local ulong* zr_scratch = (local ulong*)zr_scratch_words;                                                   \
    (void)zr_scratch; /* spans use none */                                                                      \
    ZR_RC_EACH_(ZR_RC_INIT_, ZR_RC_NOTHING_, NAME, __VA_ARGS__)                                                       \
    /* GPUs: indices a grid apart (zr_chunk 0); CPU devices, which run a group's items one after another: a     \
       contiguous chunk each */                                                                                 \
    if (zr_chunk == 0) {                                                                                        \
      const ulong zr_step_ = get_global_size(0);                                                                \
      for (ulong zr_i_ = get_global_id(0); zr_i_ < zr_n; zr_i_ += zr_step_)                                     \
        NAME##_zr_body(zr_i_, ZR_RC_UNPAREN_ ARGS, ZR_RC_EACH_(ZR_RC_BODY_ARG_, ZR_RC_COMMA_, NAME, __VA_ARGS__));     \
    } else {                                                                                                    \
      const ulong zr_first_ = get_global_id(0) * zr_chunk;                                                      \
      const ulong zr_last_ = min(zr_n, zr_first_ + zr_chunk);                                                   \
      for (ulong zr_i_ = zr_first_; zr_i_ < zr_last_; ++zr_i_)                                                  \
        NAME##_zr_body(zr_i_, ZR_RC_UNPAREN_ ARGS, ZR_RC_EACH_(ZR_RC_BODY_ARG_, ZR_RC_COMMA_, NAME, __VA_ARGS__));     \
    }                                                                                                           \
    const uint zr_groups_ = (uint)get_num_groups(0);                                                            \
    ZR_RC_EACH_(ZR_RC_GROUP_, ZR_RC_NOTHING_, NAME, __VA_ARGS__)                                                      \
    /* release: the partials are out before the group counts itself; then acquire, for the partials below */   \
    barrier(CLK_GLOBAL_MEM_FENCE);                                                                              \
    if (get_local_id(0) == 0) zr_is_last_[0] = atomic_inc(zr_counter) == zr_groups_ - 1;                        \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                                                        \
    if (!zr_is_last_[0]) return; /* uniform across the group */                                                 \
    ZR_RC_EACH_(ZR_RC_FINAL_, ZR_RC_NOTHING_, NAME, __VA_ARGS__)                                                      \
    if (get_local_id(0) == 0) *zr_counter = 0;                                                                  \
  }                                                                                                             \
  static void NAME##_zr_body(ulong zr_index, ZR_RC_UNPAREN_ PARAMS,                                             \
                             ZR_RC_EACH_(ZR_RC_BODY_PARAM_, ZR_RC_COMMA_, NAME, __VA_ARGS__))

#endif  // ZEREDUCE_REDUCER_CL_H
