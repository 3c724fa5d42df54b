// A work-item's run of floating minimum/maximum, folded with fmin/fmax (one instruction) instead of the IEEE
// 754-2019 combine of zr_types.h (about seven: a NaN check, and the sign of equal zeros), and settled once: each
// element also goes into a probe, probe = fma(x, 0, probe), which stays 0 unless an element is a NaN or an infinity.
// Where the probe is 0 and the fold is not a zero, fmin/fmax gave exactly the IEEE result (no NaN to propagate, and
// only zeros of both signs compare equal with different bits); otherwise the caller folds the run again with the
// combine itself. segsub's rows of 16 f32 took 1.22x the time of a sum's with the combine (bench/results/
// segmented_h200_2026-11-29b), 1.00-1.04x with fmax (bench/results/segsub_quick_extremes_h200_2026-11-30). Only f32
// takes it: the other ops, f64 and the integer types fold with their combine as before.
//   ZR_QUICK_VFOLD(NAME, acc, probe, x): folds vector x (ZR_VTYPE_##TN) into acc through NAME =
//     zr_quick_fold_##OP##_##TN (a FOLD of zr_vector_rows.h: A1 = NAME, A2 = acc, A3 = probe);
//   ZR_QUICK_REDO(OP, ATN, acc, probe): whether the run must be folded again with the combine (0 for every op
//     but the floating extremes, so the compiler drops that fold).
#ifndef ZR_QUICK_EXTREMES_H
#define ZR_QUICK_EXTREMES_H

#include "zr_grid.h"

// One element: the combine for every op but minimum/maximum, which dispatch on the accumulator type.
#define ZR_QUICK_STEP_plus(ATN, acc, x, probe) ZR_COMBINE(plus, ATN)(acc, x)
#define ZR_QUICK_STEP_multiplies(ATN, acc, x, probe) ZR_COMBINE(multiplies, ATN)(acc, x)
#define ZR_QUICK_STEP_bit_and(ATN, acc, x, probe) ZR_COMBINE(bit_and, ATN)(acc, x)
#define ZR_QUICK_STEP_bit_or(ATN, acc, x, probe) ZR_COMBINE(bit_or, ATN)(acc, x)
#define ZR_QUICK_STEP_bit_xor(ATN, acc, x, probe) ZR_COMBINE(bit_xor, ATN)(acc, x)
#define ZR_QUICK_STEP_logical_and(ATN, acc, x, probe) ZR_COMBINE(logical_and, ATN)(acc, x)
#define ZR_QUICK_STEP_logical_or(ATN, acc, x, probe) ZR_COMBINE(logical_or, ATN)(acc, x)
#define ZR_QUICK_STEP_minimum(ATN, acc, x, probe) ZR_QUICK_EXTREME_##ATN(fmin, minimum, acc, x, probe)
#define ZR_QUICK_STEP_maximum(ATN, acc, x, probe) ZR_QUICK_EXTREME_##ATN(fmax, maximum, acc, x, probe)

#define ZR_QUICK_EXTREME_f32(F, OPN, acc, x, probe) ((probe) = fma((x), 0.0f, (probe)), F((acc), (x)))
// f64 keeps its combine: with fmax and the probe, rows of 16-64 f64 maxima took 1.22-1.25x as long on the H200
// (bench/results/segsub_quick_extremes_h200_2026-11-30), f64 rows being no faster to fold than to sum there.
#define ZR_QUICK_EXTREME_f64(F, OPN, acc, x, probe) ZR_COMBINE(OPN, f64)(acc, x)
#define ZR_QUICK_EXTREME_i8(F, OPN, acc, x, probe) ZR_COMBINE(OPN, i8)(acc, x)
#define ZR_QUICK_EXTREME_i16(F, OPN, acc, x, probe) ZR_COMBINE(OPN, i16)(acc, x)
#define ZR_QUICK_EXTREME_i32(F, OPN, acc, x, probe) ZR_COMBINE(OPN, i32)(acc, x)
#define ZR_QUICK_EXTREME_i64(F, OPN, acc, x, probe) ZR_COMBINE(OPN, i64)(acc, x)
#define ZR_QUICK_EXTREME_u8(F, OPN, acc, x, probe) ZR_COMBINE(OPN, u8)(acc, x)
#define ZR_QUICK_EXTREME_u16(F, OPN, acc, x, probe) ZR_COMBINE(OPN, u16)(acc, x)
#define ZR_QUICK_EXTREME_u32(F, OPN, acc, x, probe) ZR_COMBINE(OPN, u32)(acc, x)
#define ZR_QUICK_EXTREME_u64(F, OPN, acc, x, probe) ZR_COMBINE(OPN, u64)(acc, x)

#define ZR_QUICK_REDO_plus(ATN, acc, probe) 0
#define ZR_QUICK_REDO_multiplies(ATN, acc, probe) 0
#define ZR_QUICK_REDO_bit_and(ATN, acc, probe) 0
#define ZR_QUICK_REDO_bit_or(ATN, acc, probe) 0
#define ZR_QUICK_REDO_bit_xor(ATN, acc, probe) 0
#define ZR_QUICK_REDO_logical_and(ATN, acc, probe) 0
#define ZR_QUICK_REDO_logical_or(ATN, acc, probe) 0
#define ZR_QUICK_REDO_minimum(ATN, acc, probe) ZR_QUICK_REDO_TYPE_##ATN(acc, probe)
#define ZR_QUICK_REDO_maximum(ATN, acc, probe) ZR_QUICK_REDO_TYPE_##ATN(acc, probe)
#define ZR_QUICK_REDO_TYPE_f32(acc, probe) (((probe) != 0) | ((acc) == 0))
#define ZR_QUICK_REDO_TYPE_f64(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_i8(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_i16(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_i32(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_i64(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_u8(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_u16(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_u32(acc, probe) 0
#define ZR_QUICK_REDO_TYPE_u64(acc, probe) 0
#define ZR_QUICK_REDO(OP, ATN, acc, probe) ZR_QUICK_REDO_##OP(ATN, acc, probe)

// The lanes of a vector in order (ZR_FOLD's order, so a run folds its elements as the combine's fold does).
#define ZR_QUICK_LANES2(OP, ATN, acc, x, probe) \
  acc = ZR_QUICK_STEP_##OP(ATN, acc, (x).s0, probe); \
  acc = ZR_QUICK_STEP_##OP(ATN, acc, (x).s1, probe)
#define ZR_QUICK_LANES4(OP, ATN, acc, x, probe)   \
  ZR_QUICK_LANES2(OP, ATN, acc, (x).s01, probe); \
  ZR_QUICK_LANES2(OP, ATN, acc, (x).s23, probe)
#define ZR_QUICK_LANES8(OP, ATN, acc, x, probe)     \
  ZR_QUICK_LANES4(OP, ATN, acc, (x).s0123, probe); \
  ZR_QUICK_LANES4(OP, ATN, acc, (x).s4567, probe)
#define ZR_QUICK_LANES16(OP, ATN, acc, x, probe)            \
  ZR_QUICK_LANES8(OP, ATN, acc, (x).s01234567, probe);     \
  ZR_QUICK_LANES8(OP, ATN, acc, (x).s89abcdef, probe)
#define ZR_QUICK_LANES_N(N, OP, ATN, acc, x, probe) ZR_QUICK_LANES##N(OP, ATN, acc, x, probe)
#define ZR_QUICK_LANES(N, OP, ATN, acc, x, probe) ZR_QUICK_LANES_N(N, OP, ATN, acc, x, probe)

#define ZR_DEFINE_QUICK_FOLD(OP, TN, T, ACC, ATN)                                                       \
  static inline ACC zr_quick_fold_##OP##_##TN(ACC acc, ZR_VTYPE_##TN x, ACC* probe) {                  \
    ACC zr_probe_ = *probe;                                                                             \
    ZR_QUICK_LANES(ZR_VEC_##TN, OP, ATN, acc, x, zr_probe_);                                            \
    *probe = zr_probe_;                                                                                 \
    return acc;                                                                                         \
  }
ZR_FOR_EACH_PAIR(ZR_DEFINE_QUICK_FOLD)

#define ZR_QUICK_VFOLD(NAME, acc, probe, x) acc = NAME(acc, x, &(probe))

#endif  // ZR_QUICK_EXTREMES_H
