// Integer atomics for the "atomic" and "localatomic" variants (type classes int32 and int64atomic; every op
// but multiplies, which has no atomic). OpenCL atomics work on 32- and 64-bit integers only, so an element
// type's accumulator is widened to ATOM: int for i8/i16/i32 (sign-extended), uint for u8/u16/u32 and bool,
// long/ulong for i64/u64. That keeps every op exact on the low bits:
//   - plus wraps modulo 2^32 (or 2^64), and truncating to T gives the sum modulo 2^bits of T;
//   - minimum/maximum compare widened values in the same order as the narrow ones (sign- or zero-extended);
//   - and/or/xor act bit by bit, so the low bits are those of the narrow op.
// A bool is widened to all ones (true) or zero for logical_and and to 1 or 0 for logical_or, and the atomic
// value reads back as true when non-zero, so any non-zero identity byte counts as true.
#ifndef ZR_ATOMIC_H
#define ZR_ATOMIC_H

#define ZR_CAT_(a, b) a##b
#define ZR_CAT(a, b) ZR_CAT_(a, b)

#define ZR_ATOM_i8 int
#define ZR_ATOM_i16 int
#define ZR_ATOM_i32 int
#define ZR_ATOM_u8 uint
#define ZR_ATOM_u16 uint
#define ZR_ATOM_u32 uint
#define ZR_ATOM_bool uint
#define ZR_ATOM_i64 long
#define ZR_ATOM_u64 ulong

// The atomic function family: OpenCL 1.1 atomic_* for 32 bits, cl_khr_int64_*_atomics atom_* for 64.
#define ZR_ATOMIC_FN_i8(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_i16(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_i32(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_u8(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_u16(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_u32(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_bool(fn) ZR_CAT(atomic_, fn)
#define ZR_ATOMIC_FN_i64(fn) ZR_CAT(atom_, fn)
#define ZR_ATOMIC_FN_u64(fn) ZR_CAT(atom_, fn)

// The atomic that combines under each op.
#define ZR_ATOMIC_OP_plus add
#define ZR_ATOMIC_OP_minimum min
#define ZR_ATOMIC_OP_maximum max
#define ZR_ATOMIC_OP_bit_and and
#define ZR_ATOMIC_OP_bit_or or
#define ZR_ATOMIC_OP_bit_xor xor
#define ZR_ATOMIC_OP_logical_and and
#define ZR_ATOMIC_OP_logical_or or

// ZR_ATOMIC(OP, TN, p, v): the atomic combine of OP on the ATOM at p (global or local).
#define ZR_ATOMIC(OP, TN, p, v) ZR_ATOMIC_FN_##TN(ZR_ATOMIC_OP_##OP)((p), (v))
// An atomic read: or with zero changes nothing and returns the value.
#define ZR_ATOMIC_READ(TN, p) ZR_ATOMIC_FN_##TN(or)((p), 0)
#define ZR_ATOMIC_WRITE(TN, p, v) ZR_ATOMIC_FN_##TN(xchg)((p), (v))

// ACC -> ATOM and back.
#define ZR_WIDEN_DEFAULT(ATOM, v) ((ATOM)(v))
#define ZR_WIDEN_plus ZR_WIDEN_DEFAULT
#define ZR_WIDEN_minimum ZR_WIDEN_DEFAULT
#define ZR_WIDEN_maximum ZR_WIDEN_DEFAULT
#define ZR_WIDEN_bit_and ZR_WIDEN_DEFAULT
#define ZR_WIDEN_bit_or ZR_WIDEN_DEFAULT
#define ZR_WIDEN_bit_xor ZR_WIDEN_DEFAULT
#define ZR_WIDEN_logical_and(ATOM, v) ((v) ? ~(ATOM)0 : (ATOM)0)
#define ZR_WIDEN_logical_or(ATOM, v) ((v) ? (ATOM)1 : (ATOM)0)

#define ZR_NARROW_DEFAULT(ACC, v) ((ACC)(v))  // truncation: clang converts modulo 2^bits
#define ZR_NARROW_plus ZR_NARROW_DEFAULT
#define ZR_NARROW_minimum ZR_NARROW_DEFAULT
#define ZR_NARROW_maximum ZR_NARROW_DEFAULT
#define ZR_NARROW_bit_and ZR_NARROW_DEFAULT
#define ZR_NARROW_bit_or ZR_NARROW_DEFAULT
#define ZR_NARROW_bit_xor ZR_NARROW_DEFAULT
#define ZR_NARROW_logical_and(ACC, v) ((ACC)((v) != 0))
#define ZR_NARROW_logical_or(ACC, v) ((ACC)((v) != 0))

// Ops that have an atomic: a file defines K_PAIR(OP, TN, T, ACC, ATN) as ZR_KEEP_##OP(K, OP, TN, T, ACC, ATN)
// and expands ZR_FOR_EACH_PAIR(K_PAIR), so that K is expanded for every pair but the multiplies ones.
#define ZR_SKIP_multiplies(K, OP, TN, T, ACC, ATN)
#define ZR_KEEP_plus(K, OP, TN, T, ACC, ATN) K(OP, TN, T, ACC, ATN)
#define ZR_KEEP_minimum ZR_KEEP_plus
#define ZR_KEEP_maximum ZR_KEEP_plus
#define ZR_KEEP_bit_and ZR_KEEP_plus
#define ZR_KEEP_bit_or ZR_KEEP_plus
#define ZR_KEEP_bit_xor ZR_KEEP_plus
#define ZR_KEEP_logical_and ZR_KEEP_plus
#define ZR_KEEP_logical_or ZR_KEEP_plus
#define ZR_KEEP_multiplies ZR_SKIP_multiplies

#endif  // ZR_ATOMIC_H
