// A lane's strided fold (segments.cl's segsub, segtransform.cl): acc = STEP(acc, x EXTRA) for x = in[i], i = from,
// from + stride, ... below last, in that order, the loads issued four at a time before their four steps. The order,
// and so every bit of the result, is that of a plain loop; on the H100 a plain loop read segments of 64 to 1024 f32
// at 0.65-0.74 of the read bandwidth, four loads ahead at 0.81-0.95.
// LT: an element as the loads give it (or the type the step takes); STEP a function (not a macro); EXTRA empty or
// a macro that expands to `, argument` (a further argument of every step).
#ifndef ZR_STRIDED_FOLD_H
#define ZR_STRIDED_FOLD_H

#define ZR_STRIDED_FOLD(LT, STEP, EXTRA, TN, acc, in, from, last, stride)                                 \
  do {                                                                                                 \
    ulong zr_i_ = (from);                                                                              \
    for (; zr_i_ + 3 * (ulong)(stride) < (last); zr_i_ += 4 * (ulong)(stride)) {                       \
      const LT zr_x0_ = ZR_LOAD_##TN(in, zr_i_);                                                       \
      const LT zr_x1_ = ZR_LOAD_##TN(in, zr_i_ + (stride));                                            \
      const LT zr_x2_ = ZR_LOAD_##TN(in, zr_i_ + 2 * (ulong)(stride));                                 \
      const LT zr_x3_ = ZR_LOAD_##TN(in, zr_i_ + 3 * (ulong)(stride));                                 \
      (acc) = STEP(STEP(STEP(STEP((acc), zr_x0_ EXTRA), zr_x1_ EXTRA), zr_x2_ EXTRA), zr_x3_ EXTRA);   \
    }                                                                                                  \
    for (; zr_i_ < (last); zr_i_ += (stride)) (acc) = STEP((acc), ZR_LOAD_##TN(in, zr_i_) EXTRA);      \
  } while (0)

#endif  // ZR_STRIDED_FOLD_H
