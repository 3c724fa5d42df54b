// The grid-stride scan of the GPU-shaped arg-reduction kernels (argtree, arglast): each work-item reads its
// share of the input with the 16-byte loads of zr_grid.h. Each lane of the vector keeps its own best value
// and the visit (0, 1, 2, ... of the work-item's vectors) it came from, as a vector of values and a vector of
// 32-bit visit numbers: per element one compare and two selects, and the lanes are independent dependency
// chains. (One scalar best over all lanes, with a 64-bit index per element, made a chain of eight
// compare-selects per loop step: f32 argmax ran at 0.85x of our maximum at 2^24 on the H100.) The lanes start
// from the work-item's first vector, so every lane holds a real element, and each visits its elements in
// increasing order: a later one replaces the best only when strictly better (ties keep the earlier index).
// The lanes then meet in the arg order (zr_arg.h), and the last n mod VEC elements one by one. The plans
// keep a work-item's visits below 2^32 (core/plan.cpp, plans/segmented_arg.cpp).
#ifndef ZR_ARG_GRID_H
#define ZR_ARG_GRID_H

#include "zr_arg.h"
#include "zr_grid.h"

#define ZR_AG_CAT_(a, b) a##b
#define ZR_AG_CAT(a, b) ZR_AG_CAT_(a, b)

// The lane mask of "x replaces b" (zr_arg.h's rule, on vectors: comparisons give -1 / 0 per lane).
#define ZR_ARG_VBEATS_INTEGER_argmin(x, b) ((x) < (b))
#define ZR_ARG_VBEATS_INTEGER_argmax(x, b) ((x) > (b))
#define ZR_ARG_VBEATS_FLOATING_argmin(x, b) (~((x) >= (b)) & ((b) == (b)))
#define ZR_ARG_VBEATS_FLOATING_argmax(x, b) (~((x) <= (b)) & ((b) == (b)))
#define ZR_ARG_KIND_i8 INTEGER
#define ZR_ARG_KIND_i16 INTEGER
#define ZR_ARG_KIND_i32 INTEGER
#define ZR_ARG_KIND_i64 INTEGER
#define ZR_ARG_KIND_u8 INTEGER
#define ZR_ARG_KIND_u16 INTEGER
#define ZR_ARG_KIND_u32 INTEGER
#define ZR_ARG_KIND_u64 INTEGER
#define ZR_ARG_KIND_f32 FLOATING
#define ZR_ARG_KIND_f64 FLOATING
#define ZR_ARG_VBEATS_(KIND, OP, x, b) ZR_ARG_VBEATS_##KIND##_##OP(x, b)
#define ZR_ARG_VBEATS(KIND, OP, x, b) ZR_ARG_VBEATS_(KIND, OP, x, b)

// One vector x (visit number c) into the lane states (values, visits).
#define ZR_ARG_LANES_STEP(OP, ATN, VEC, values, visits, x, c)                                            \
  do {                                                                                                  \
    const ZR_AG_CAT(int, VEC) zr_m_ = ZR_AG_CAT(convert_int, VEC)(ZR_ARG_VBEATS(ZR_ARG_KIND_##ATN, OP, x, values)); \
    (values) = select((values), (x), ZR_ARG_VBEATS(ZR_ARG_KIND_##ATN, OP, x, values));                    \
    (visits) = select((visits), (ZR_AG_CAT(uint, VEC))(c), zr_m_);                                      \
  } while (0)

// Lane k into best: its element is at vector first + visit * stride, lane k.
#define ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, k, sk)                                \
  {                                                                                                        \
    const ulong zr_at_ = ((first) + (ulong)(visits).sk * (stride)) * VEC + (k);                            \
    ZR_ARG_TAKE(OP, ATN, best##_value, best##_index, (values).sk, zr_at_);                                 \
  }
#define ZR_ARG_LANES_2(OP, ATN, VEC, best, values, visits, first, stride) \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 0, s0)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 1, s1)
#define ZR_ARG_LANES_4(OP, ATN, VEC, best, values, visits, first, stride) \
  ZR_ARG_LANES_2(OP, ATN, VEC, best, values, visits, first, stride)       \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 2, s2)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 3, s3)
#define ZR_ARG_LANES_8(OP, ATN, VEC, best, values, visits, first, stride) \
  ZR_ARG_LANES_4(OP, ATN, VEC, best, values, visits, first, stride)       \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 4, s4)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 5, s5)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 6, s6)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 7, s7)
#define ZR_ARG_LANES_16(OP, ATN, VEC, best, values, visits, first, stride) \
  ZR_ARG_LANES_8(OP, ATN, VEC, best, values, visits, first, stride)        \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 8, s8)    \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 9, s9)    \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 10, sa)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 11, sb)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 12, sc)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 13, sd)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 14, se)   \
  ZR_ARG_LANE(OP, ATN, VEC, best, values, visits, first, stride, 15, sf)

// (best_value, best_index) = the work-item's candidate of in[0, n) (the identity when it has no element).
#define ZR_ARG_GRID_SCAN(OP, TN, ACC, ATN, in, n, best) \
  ZR_ARG_RANGE_SCAN(OP, TN, ACC, ATN, in, 0, n, get_global_id(0), get_global_size(0), best)

// (best_value, best_index) = worker `worker` of `workers`' candidate of in[begin, end): the scalar head up to the
// first vector boundary of `in` (relative to in[0], so that the loads are as aligned as the input), every
// workers-th vector from there, the scalar tail. The identity when the worker has no element.
#define ZR_ARG_RANGE_SCAN(OP, TN, ACC, ATN, in, begin, end, worker, workers, best) \
  ZR_ARG_RANGE_SCAN_(OP, TN, ACC, ATN, in, begin, end, worker, workers, best, ZR_VEC_##TN)
// The vectors are read with loads of the vector type where the input starts on 16 bytes (ZR_ALIGNED_VLOAD: one
// 16-byte load on NVIDIA, where vloadN comes as N loads; segsub's short rows read 0.8-0.9x the time that way:
// bench/results/segsub_vectors_h200_2026-11-29).
#define ZR_ARG_RANGE_SCAN_(OP, TN, ACC, ATN, in, begin, end, worker, workers, best, VEC)                          \
  do {                                                                                                           \
    if (((ulong)(in) & 15) == 0)                                                                                 \
      ZR_ARG_RANGE_SCAN_VEC(OP, TN, ACC, ATN, in, begin, end, worker, workers, best, VEC, ZR_ALIGNED_VLOAD_##TN); \
    else                                                                                                         \
      ZR_ARG_RANGE_SCAN_VEC(OP, TN, ACC, ATN, in, begin, end, worker, workers, best, VEC, ZR_VLOAD_##TN);         \
  } while (0)
#define ZR_ARG_RANGE_SCAN_VEC(OP, TN, ACC, ATN, in, begin, end, worker, workers, best, VEC, VLOAD)           \
  do {                                                                                                     \
    ZR_ARG_IDENTITY(OP, ATN, best##_value, best##_index);                                                  \
    const ulong zr_head_end_ = min((ulong)(end), ((ulong)(begin) + VEC - 1) / VEC * VEC);                 \
    const ulong zr_vectors_ = (ulong)(end) / VEC;                                                          \
    const ulong zr_stride_ = (workers);                                                                    \
    const ulong zr_first_ = zr_head_end_ / VEC + (worker);                                                 \
    if (zr_first_ < zr_vectors_) {                                                                         \
      ZR_VTYPE_##TN zr_values_ = VLOAD(zr_first_, (in));                                                  \
      ZR_AG_CAT(uint, VEC) zr_visits_ = (ZR_AG_CAT(uint, VEC))(0);                                         \
      uint zr_c_ = 1;                                                                                      \
      ulong zr_v_ = zr_first_ + zr_stride_;                                                                \
      for (; zr_v_ + zr_stride_ < zr_vectors_; zr_v_ += 2 * zr_stride_, zr_c_ += 2) {                      \
        const ZR_VTYPE_##TN zr_x_ = VLOAD(zr_v_, (in));                                                   \
        const ZR_VTYPE_##TN zr_y_ = VLOAD(zr_v_ + zr_stride_, (in));                                      \
        ZR_ARG_LANES_STEP(OP, ATN, VEC, zr_values_, zr_visits_, zr_x_, zr_c_);                             \
        ZR_ARG_LANES_STEP(OP, ATN, VEC, zr_values_, zr_visits_, zr_y_, zr_c_ + 1);                         \
      }                                                                                                    \
      if (zr_v_ < zr_vectors_) {                                                                           \
        const ZR_VTYPE_##TN zr_x_ = VLOAD(zr_v_, (in));                                                   \
        ZR_ARG_LANES_STEP(OP, ATN, VEC, zr_values_, zr_visits_, zr_x_, zr_c_);                             \
      }                                                                                                    \
      ZR_ARG_LANES_##VEC(OP, ATN, VEC, best, zr_values_, zr_visits_, zr_first_, zr_stride_)                \
    }                                                                                                      \
    /* The head, then the tail past the last whole vector (each empty or under VEC elements). */           \
    for (ulong zr_i_ = (ulong)(begin) + (worker); zr_i_ < zr_head_end_; zr_i_ += zr_stride_) {             \
      const ACC zr_e_ = (ACC)ZR_LOAD_##TN((in), zr_i_);                                                    \
      ZR_ARG_TAKE(OP, ATN, best##_value, best##_index, zr_e_, zr_i_);                                      \
    }                                                                                                      \
    for (ulong zr_i_ = max(zr_head_end_, zr_vectors_ * VEC) + (worker); zr_i_ < (ulong)(end); zr_i_ += zr_stride_) { \
      const ACC zr_e_ = (ACC)ZR_LOAD_##TN((in), zr_i_);                                                    \
      ZR_ARG_TAKE(OP, ATN, best##_value, best##_index, zr_e_, zr_i_);                                      \
    }                                                                                                      \
  } while (0)

#endif  // ZR_ARG_GRID_H
