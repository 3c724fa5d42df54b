// segspan.cl's hooks for argmin/argmax by keys (variants "segargspan" and "segargspanjoin"): elements of up to 32
// bits, n < 2^32 - 1.
#ifndef ZR_SPAN_KEYS_H
#define ZR_SPAN_KEYS_H
#define ZR_SPAN_HOOKS

// Each element becomes a 64-bit key, and the largest key is the first candidate in zr_arg.h's order: the value's
// rank in the high half (a NaN on top, then the best value; zeros of both signs ranked alike), the position's
// complement in the low half (the earlier element the larger key). Key 0, below every element's, is the identity.
// A segment's result reads its value back from the rank, from the input only where the rank does not say which bits
// the element had (a zero's sign, a NaN); the join reads the input too, as its last argument.
static inline ulong zr_maximum_key(ulong a, ulong b) { return a < b ? b : a; }
static inline ulong zr_arg_key(uint rank, ulong position) { return ((ulong)rank << 32) | (0xffffffffu - (uint)position); }
// Values in increasing order as unsigned ranks: a float's bits with the sign bit set when positive, all flipped when
// negative; -0 taken as +0, and NaNs (ranked on top by the caller) wherever they fall.
static inline uint zr_float_rank(float v) {
  const uint bits = v == 0.0f ? 0u : as_uint(v);
  return bits ^ (0x80000000u | (0u - (bits >> 31)));
}
#define ZR_RANK_argmax_FLOAT(v) (isnan(v) ? 0xffffffffu : zr_float_rank(v))
#define ZR_RANK_argmin_FLOAT(v) (isnan(v) ? 0xffffffffu : ~zr_float_rank(v))
#define ZR_RANK_argmax_SIGNED(v) ((uint)(int)(v) ^ 0x80000000u)
#define ZR_RANK_argmin_SIGNED(v) (~ZR_RANK_argmax_SIGNED(v))
#define ZR_RANK_argmax_UNSIGNED(v) ((uint)(v))
#define ZR_RANK_argmin_UNSIGNED(v) (~(uint)(v))
#define ZR_RANK_TYPE_f32 float
#define ZR_RANK_TYPE_f16 float
#define ZR_RANK_TYPE_i8 int
#define ZR_RANK_TYPE_i16 int
#define ZR_RANK_TYPE_i32 int
#define ZR_RANK_TYPE_u8 uint
#define ZR_RANK_TYPE_u16 uint
#define ZR_RANK_TYPE_u32 uint
#define ZR_RANK_KIND_f32 FLOAT
#define ZR_RANK_KIND_f16 FLOAT
#define ZR_RANK_KIND_i8 SIGNED
#define ZR_RANK_KIND_i16 SIGNED
#define ZR_RANK_KIND_i32 SIGNED
#define ZR_RANK_KIND_u8 UNSIGNED
#define ZR_RANK_KIND_u16 UNSIGNED
#define ZR_RANK_KIND_u32 UNSIGNED
#define ZR_RANK_OF(KOP, KIND, v) ZR_RANK_##KOP##_##KIND(v)
#define ZR_RANK_EXPAND(KOP, KIND, v) ZR_RANK_OF(KOP, KIND, v)
#define ZR_RANK(KOP, TN, v) ZR_RANK_EXPAND(KOP, ZR_RANK_KIND_##TN, v)

// The lane's keys: its elements loaded as KACC (zr_arg.h's accumulator), each keyed with its position.
#define ZR_SPAN_LOAD_LANE(ACC, TN, KOP, KACC, v, in, aligned, first, t1, identity)                        \
  do {                                                                                                   \
    KACC zr_raw_[ZR_SPAN_ITEMS(ACC)];                                                                    \
    ZR_LOAD_LANE_ITEMS(ZR_SPAN_ITEMS(ACC), KACC, TN, zr_raw_, in, aligned, first, t1, (KACC)0);          \
    _Pragma("unroll") for (uint zr_k_ = 0; zr_k_ < ZR_SPAN_ITEMS(ACC); ++zr_k_)                          \
      v[zr_k_] = (first) + zr_k_ < (t1) ? zr_arg_key(ZR_RANK(KOP, TN, zr_raw_[zr_k_]), (first) + zr_k_)  \
                                       : (identity);                                                     \
  } while (0)

// The kernels' rank flip (argmin ranks values in reverse), for reading a value back from its rank.
#define ZR_RANK_FLIP_argmin 0xffffffffu
#define ZR_RANK_FLIP_argmax 0u
#define ZR_SPAN_PROLOGUE(KOP) const uint zr_rank_flip = ZR_RANK_FLIP_##KOP;
// The value of an increasing rank: exact for integers and for floats other than zeros (either sign) and NaNs, whose
// element is read back from the input.
#define ZR_RANK_VALUE_FLOAT(rank) as_float(((rank) & 0x80000000u) ? (rank) ^ 0x80000000u : ~(rank))
#define ZR_RANK_VALUE_SIGNED(rank) ((int)((rank) ^ 0x80000000u))
#define ZR_RANK_VALUE_UNSIGNED(rank) (rank)
#define ZR_RANK_AMBIGUOUS_FLOAT(v) (((v) == 0.0f) | isnan(v))
#define ZR_RANK_AMBIGUOUS_SIGNED(v) 0
#define ZR_RANK_AMBIGUOUS_UNSIGNED(v) 0
#define ZR_RANK_CALL(WHAT, KIND, x) ZR_RANK_##WHAT##_##KIND(x)
#define ZR_RANK_KIND_CALL(WHAT, KIND, x) ZR_RANK_CALL(WHAT, KIND, x)
// The result's first 8 bytes: the value as T, the padding zeroed (one store where T's bits can be widened).
#define ZR_ARG_VALUE_WORD_f32(v) ((ulong)as_uint(ZR_STORED_f32(v)))
#define ZR_ARG_VALUE_WORD_i8(v) ((ulong)(uchar)(v))
#define ZR_ARG_VALUE_WORD_i16(v) ((ulong)(ushort)(v))
#define ZR_ARG_VALUE_WORD_i32(v) ((ulong)(uint)(v))
#define ZR_ARG_VALUE_WORD_u8(v) ((ulong)(uchar)(v))
#define ZR_ARG_VALUE_WORD_u16(v) ((ulong)(ushort)(v))
#define ZR_ARG_VALUE_WORD_u32(v) ((ulong)(uint)(v))
#define ZR_ARG_STORE_VALUE(TN, T, r, v) r[0] = ZR_ARG_VALUE_WORD_##TN(v)
#define ZR_ARG_STORE_VALUE_f16(TN, T, r, v) \
  r[0] = 0;                                 \
  ZR_STORE_f16((global half*)(r), 0, (v))
#define ZR_ARG_STORE_VALUE_OF_f32 ZR_ARG_STORE_VALUE
#define ZR_ARG_STORE_VALUE_OF_f16 ZR_ARG_STORE_VALUE_f16
#define ZR_ARG_STORE_VALUE_OF_i8 ZR_ARG_STORE_VALUE
#define ZR_ARG_STORE_VALUE_OF_i16 ZR_ARG_STORE_VALUE
#define ZR_ARG_STORE_VALUE_OF_i32 ZR_ARG_STORE_VALUE
#define ZR_ARG_STORE_VALUE_OF_u8 ZR_ARG_STORE_VALUE
#define ZR_ARG_STORE_VALUE_OF_u16 ZR_ARG_STORE_VALUE
#define ZR_ARG_STORE_VALUE_OF_u32 ZR_ARG_STORE_VALUE

// zr::arg_result<T> of segment s, which begins at `begin` (16 bytes: the value as T, padding zeroed, then the index
// from the segment's begin). Key 0 only for an empty segment, which the host refuses for arg-reductions.
#define ZR_FINISH_SEGMENT_FROM(OP, TN, T, ATN, acc, s, begin)                                             \
  do {                                                                                                   \
    const ulong zr_key_ = (acc);                                                                         \
    const ulong zr_at_ = 0xffffffffu - (uint)zr_key_;                                                    \
    global ulong* const zr_r_ = result + 2 * (ulong)(s);                                                 \
    if (zr_key_ == 0) {                                                                                  \
      zr_r_[0] = 0;                                                                                      \
      zr_r_[1] = ULONG_MAX;                                                                              \
    } else {                                                                                             \
      const uint zr_rank_ = (uint)(zr_key_ >> 32) ^ zr_rank_flip;                                        \
      ZR_RANK_TYPE_##TN zr_value_ = (ZR_RANK_TYPE_##TN)ZR_RANK_KIND_CALL(VALUE, ZR_RANK_KIND_##TN, zr_rank_);       \
      if (ZR_RANK_KIND_CALL(AMBIGUOUS, ZR_RANK_KIND_##TN, zr_value_)) zr_value_ = ZR_LOAD_##TN(in, zr_at_); \
      ZR_ARG_STORE_VALUE_OF_##TN(TN, T, zr_r_, zr_value_);                                                \
      zr_r_[1] = zr_at_ - (begin);                                                                       \
    }                                                                                                    \
  } while (0)
#define ZR_FINISH_SEGMENT(OP, TN, T, ATN, acc, s) \
  ZR_FINISH_SEGMENT_FROM(OP, TN, T, ATN, acc, s, zr_segment_bound(offsets, offset_bytes, 0, (s), n))
// The 16-byte results are staged a tile at a time and stored by consecutive lanes (segspan.cl): over power-law sizes
// on an H200, 0.90x the time of storing each from the lane that closes its segment, where the plain ops' 4- and 8-byte
// results took 1.09-1.17x staged (bench/results/segstage_h200_2026-11-30).
#define ZR_SPAN_STAGES
#define ZR_JOIN_INPUT_PARAM(T) , global const T* restrict in
#define ZR_SPAN_VALUE_PARAM(KACC)

#define ZR_SPAN_ARG_PAIRS(K, TN, T, KACC) K(argmin, TN, T, KACC) K(argmax, TN, T, KACC)
#if defined(ZR_CLASS_INT32)
#define ZR_FOR_EACH_SPAN_ARG(K)                                                                                  \
  ZR_SPAN_ARG_PAIRS(K, i8, char, char) ZR_SPAN_ARG_PAIRS(K, i16, short, short) ZR_SPAN_ARG_PAIRS(K, i32, int, int) \
  ZR_SPAN_ARG_PAIRS(K, u8, uchar, uchar) ZR_SPAN_ARG_PAIRS(K, u16, ushort, ushort) ZR_SPAN_ARG_PAIRS(K, u32, uint, uint)
#elif defined(ZR_CLASS_F32)
#define ZR_FOR_EACH_SPAN_ARG(K) ZR_SPAN_ARG_PAIRS(K, f32, float, float)
#elif defined(ZR_CLASS_FP16)
#define ZR_FOR_EACH_SPAN_ARG(K) ZR_SPAN_ARG_PAIRS(K, f16, half, float)
#else
#error "segargspan keys elements of up to 32 bits: built for the int32, f32 and fp16 type classes (kernels.table)"
#endif

#endif  // ZR_SPAN_KEYS_H
