// OpenCL C, for user-defined reduction operators (docs/user_operators.md). Include it from the operator's
// .cl file, write the operator as ordinary OpenCL C functions over your own accumulator type, and end the file
// with one of the ZR_USER_OPERATOR* macros. zereduce_add_operator() (CMake) compiles the file to SPIR-V at
// your build time; at run time ze-reduce links that SPIR-V into its precompiled reduction kernels.
//
//   typedef struct { float lo, hi; ulong lo_index, hi_index; } bounds;   // the accumulator: at most 64 bytes
//   static bounds bounds_of(float x, ulong index) { ... }              // the element at `index` as an accumulator
//   static bounds widen(bounds a, bounds b) { ... }                    // combine: associative and commutative
//   static bounds empty_bounds(void) { ... }                           // an identity of combine, if there is one
//   ZR_USER_OPERATOR(float, bounds, bounds_of, widen, empty_bounds)
//
// The element type is the input's (1, 2, 4 or 8 bytes: any scalar, or a struct or vector of that size); the
// transform sees each element with its 64-bit index in the input. Without an identity
// (ZR_USER_OPERATOR_NO_IDENTITY) every partial result is seeded from the input itself, as SYCL allows; such an
// operator cannot initialize_to_identity an empty input. ZR_USER_COMBINER is the short form whose accumulator
// is the element itself (no transform).
//
// llvm-spirv-15, which zereduce_add_operator() runs, cannot translate the `freeze` that clang makes of some
// short-circuit conditions: where it says so, combine comparisons with & and | instead of && and ||
// (tools/operators/bounds.cl does).
//
// The functions below are the interface the kernels import (names and signatures are the link contract,
// version 1): the operator's transform, combine and identity, and copies of its accumulator between private,
// local and global memory, made with its own type (a copy through another type could be reordered by a
// compiler's type-based alias analysis where the kernels are built from source). Everything else in the file
// may be static.
#ifndef ZEREDUCE_USER_OPERATOR_CL_H
#define ZEREDUCE_USER_OPERATOR_CL_H

#define ZR_USER_INTERFACE_VERSION 1u

// A volatile read of an accumulator in the widest units its size allows, through a union (which may alias
// anything): a volatile copy of the whole struct becomes byte loads in Intel's GPU compiler, and spills.
#define ZR_USER_VOLATILE_READ_UNITS_(ACC, UNIT, to, from)                                                  \
  {                                                                                                        \
    union {                                                                                                \
      ACC value;                                                                                           \
      UNIT units[sizeof(ACC) / sizeof(UNIT)];                                                              \
    } zr_read_;                                                                                            \
    for (uint zr_i_ = 0; zr_i_ < sizeof(ACC) / sizeof(UNIT); ++zr_i_)                                      \
      zr_read_.units[zr_i_] = ((const volatile global UNIT*)(from))[zr_i_];                                \
    *(private ACC*)(to) = zr_read_.value;                                                                  \
  }
#define ZR_USER_VOLATILE_READ_(ACC, to, from)                                                              \
  if (sizeof(ACC) % 4 == 0) ZR_USER_VOLATILE_READ_UNITS_(ACC, uint, to, from)                              \
  else if (sizeof(ACC) % 2 == 0) ZR_USER_VOLATILE_READ_UNITS_(ACC, ushort, to, from)                      \
  else ZR_USER_VOLATILE_READ_UNITS_(ACC, uchar, to, from)

#define ZR_USER_OPERATOR_COMMON_(ELEMENT, ACC, TRANSFORM, COMBINE)                                          \
  uint zr_user_interface_version(void) { return ZR_USER_INTERFACE_VERSION; }                               \
  uint zr_user_element_bytes(void) { return (uint)sizeof(ELEMENT); }                                       \
  uint zr_user_accumulator_bytes(void) { return (uint)sizeof(ACC); }                                       \
  uint zr_user_accumulator_alignment(void) { return (uint)__alignof__(ACC); }                              \
  void zr_user_transform(private uchar* zr_acc_, ulong zr_bits_, ulong zr_index_) {                     \
    union {                                                                                                \
      ulong bits;                                                                                          \
      ELEMENT value;                                                                                       \
    } zr_element_;                                                                                         \
    zr_element_.bits = zr_bits_;                                                                           \
    *(private ACC*)zr_acc_ = TRANSFORM(zr_element_.value, zr_index_);                                      \
  }                                                                                                        \
  void zr_user_combine(private uchar* zr_acc_, const private uchar* zr_other_) {                           \
    *(private ACC*)zr_acc_ = COMBINE(*(const private ACC*)zr_acc_, *(const private ACC*)zr_other_);        \
  }                                                                                                        \
  void zr_user_copy(private uchar* zr_to_, const private uchar* zr_from_) {                                \
    *(private ACC*)zr_to_ = *(const private ACC*)zr_from_;                                                 \
  }                                                                                                        \
  void zr_user_to_local(local uchar* zr_to_, const private uchar* zr_from_) {                              \
    *(local ACC*)zr_to_ = *(const private ACC*)zr_from_;                                                   \
  }                                                                                                        \
  void zr_user_from_local(private uchar* zr_to_, const local uchar* zr_from_) {                            \
    *(private ACC*)zr_to_ = *(const local ACC*)zr_from_;                                                   \
  }                                                                                                        \
  void zr_user_to_global(global uchar* zr_to_, const private uchar* zr_from_) {                            \
    *(global ACC*)zr_to_ = *(const private ACC*)zr_from_;                                                  \
  }                                                                                                        \
  void zr_user_from_global(private uchar* zr_to_, const volatile global uchar* zr_from_) {                 \
    ZR_USER_VOLATILE_READ_(ACC, zr_to_, zr_from_)                                                          \
  }

// An operator with an identity: IDENTITY() returns it (used for empty inputs and initialize_to_identity).
#define ZR_USER_OPERATOR(ELEMENT, ACC, TRANSFORM, COMBINE, IDENTITY)                                        \
  ZR_USER_OPERATOR_COMMON_(ELEMENT, ACC, TRANSFORM, COMBINE)                                                \
  uint zr_user_has_identity(void) { return 1u; }                                                           \
  uint zr_user_identity(private uchar* zr_acc_) {                                                          \
    *(private ACC*)zr_acc_ = IDENTITY();                                                                   \
    return 1u;                                                                                             \
  }

// An operator without an identity.
#define ZR_USER_OPERATOR_NO_IDENTITY(ELEMENT, ACC, TRANSFORM, COMBINE)                                      \
  ZR_USER_OPERATOR_COMMON_(ELEMENT, ACC, TRANSFORM, COMBINE)                                                \
  uint zr_user_has_identity(void) { return 0u; }                                                           \
  uint zr_user_identity(private uchar* zr_acc_) { return 0u; }

// The accumulator is the element: a combine (and an identity) of TYPE values.
#define ZR_USER_AS_IS_(TYPE) zr_user_as_is_##TYPE
#define ZR_USER_COMBINER(TYPE, COMBINE, IDENTITY)                                                           \
  static TYPE ZR_USER_AS_IS_(TYPE)(TYPE zr_value_, ulong zr_index_) { return zr_value_; }                 \
  ZR_USER_OPERATOR(TYPE, TYPE, ZR_USER_AS_IS_(TYPE), COMBINE, IDENTITY)

#endif  // ZEREDUCE_USER_OPERATOR_CL_H
