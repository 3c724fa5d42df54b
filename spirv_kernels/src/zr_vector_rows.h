// Equal rows read as 16-byte vectors (segsub in segments.cl, segt in segtransform.cl): where a row's length is a
// multiple of the vector's elements and the input starts on 16 bytes, every row starts on 16 bytes too, so lane k
// of a row can fold its vectors k, k + lanes, ... (each in element order) instead of its elements k, k + lanes, ...:
// a warp's load then covers whole 32-byte sectors where the scalar loads used 8 bytes of each. The types whose
// vectors are converted on load (bool, f16) keep the scalar loads.
#ifndef ZR_VECTOR_ROWS_H
#define ZR_VECTOR_ROWS_H

#define ZR_ROW_VECTOR_LOADS_bool 0
#define ZR_ROW_VECTOR_LOADS_f16 0
#define ZR_ROW_VECTOR_LOADS_i8 1
#define ZR_ROW_VECTOR_LOADS_u8 1
#define ZR_ROW_VECTOR_LOADS_i16 1
#define ZR_ROW_VECTOR_LOADS_u16 1
#define ZR_ROW_VECTOR_LOADS_i32 1
#define ZR_ROW_VECTOR_LOADS_u32 1
#define ZR_ROW_VECTOR_LOADS_f32 1
#define ZR_ROW_VECTOR_LOADS_i64 1
#define ZR_ROW_VECTOR_LOADS_u64 1
#define ZR_ROW_VECTOR_LOADS_f64 1

// Whether equal rows (offset_bytes 0) of `length` elements of type TN in `in` can be read as vectors.
#define ZR_ROW_VECTORS(TN, in, offset_bytes, length) \
  (ZR_ROW_VECTOR_LOADS_##TN && (offset_bytes) == 0 && (length) % ZR_VEC_##TN == 0 && ((ulong)(in) & 15) == 0)

// acc folded with the vectors first, first + stride, ... below last, in that order: LOAD(v, p) loads vector v of p
// (VT); FOLD(A1, A2, A3, x) folds one loaded vector x into the caller's accumulator, which A1-A3 name.
// ZR_VECTOR_RUN_FOLD2 issues two loads before their folds (segsub: four took rows of 16-256 f32 1.01-1.13x as long
// on the H200); ZR_VECTOR_RUN_FOLD4 four, then two, then one (seggroup, segt: bench/results/
// vector_rows_h200_2026-11-29).
#define ZR_VECTOR_RUN_FOLD2(VT, LOAD, p, FOLD, A1, A2, A3, first, last, stride) \
  do {                                                                         \
    const ulong zr_step_ = (stride);                                           \
    ulong zr_v_ = (first);                                                     \
    ZR_VECTOR_RUN_TWOS_(VT, LOAD, p, FOLD, A1, A2, A3, last)                   \
  } while (0)
#define ZR_VECTOR_RUN_FOLD4(VT, LOAD, p, FOLD, A1, A2, A3, first, last, stride) \
  do {                                                                         \
    const ulong zr_step_ = (stride);                                           \
    ulong zr_v_ = (first);                                                     \
    for (; zr_v_ + 3 * zr_step_ < (last); zr_v_ += 4 * zr_step_) {             \
      const VT zr_x0_ = LOAD(zr_v_, p);                                        \
      const VT zr_x1_ = LOAD(zr_v_ + zr_step_, p);                             \
      const VT zr_x2_ = LOAD(zr_v_ + 2 * zr_step_, p);                         \
      const VT zr_x3_ = LOAD(zr_v_ + 3 * zr_step_, p);                         \
      FOLD(A1, A2, A3, zr_x0_);                                                \
      FOLD(A1, A2, A3, zr_x1_);                                                \
      FOLD(A1, A2, A3, zr_x2_);                                                \
      FOLD(A1, A2, A3, zr_x3_);                                                \
    }                                                                          \
    ZR_VECTOR_RUN_TWOS_(VT, LOAD, p, FOLD, A1, A2, A3, last)                   \
  } while (0)
// The rest of a run two vectors at a time, then the last one (zr_v_ and zr_step_ as the callers above set them).
#define ZR_VECTOR_RUN_TWOS_(VT, LOAD, p, FOLD, A1, A2, A3, last) \
  for (; zr_v_ + zr_step_ < (last); zr_v_ += 2 * zr_step_) {     \
    const VT zr_x0_ = LOAD(zr_v_, p);                            \
    const VT zr_x1_ = LOAD(zr_v_ + zr_step_, p);                 \
    FOLD(A1, A2, A3, zr_x0_);                                    \
    FOLD(A1, A2, A3, zr_x1_);                                    \
  }                                                              \
  if (zr_v_ < (last)) {                                          \
    const VT zr_x_ = LOAD(zr_v_, p);                             \
    FOLD(A1, A2, A3, zr_x_);                                     \
  }

// Vector v of a pointer to vectors (rows that start on 16 bytes).
#define ZR_ROW_VLOAD(v, p) ((p)[v])

#endif  // ZR_VECTOR_ROWS_H
