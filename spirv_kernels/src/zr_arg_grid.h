// The grid-stride scan of the GPU-shaped arg-reduction kernels (argtree, arglast): each work-item reads its
// share of the input with the 16-byte loads of zr_grid.h and keeps its best {value, index}. It starts from its
// first element and visits its indices in increasing order, so a later element replaces the best only when it
// is strictly better (ties keep the earlier index).
#ifndef ZR_ARG_GRID_H
#define ZR_ARG_GRID_H

#include "zr_arg.h"
#include "zr_grid.h"

// One element x at index i against the work-item's best: selects, not branches.
#define ZR_ARG_CONSIDER(OP, ATN, best, x, i)             \
  do {                                                   \
    const int zr_r_ = zr_beats_##OP##_##ATN((x), (best).value); \
    (best).value = zr_r_ ? (x) : (best).value;           \
    (best).index = zr_r_ ? (i) : (best).index;           \
  } while (0)
#define ZR_ARG_SCAN_2(OP, ATN, best, x, i) \
  ZR_ARG_CONSIDER(OP, ATN, best, (x).s0, (i)); ZR_ARG_CONSIDER(OP, ATN, best, (x).s1, (i) + 1);
#define ZR_ARG_SCAN_4(OP, ATN, best, x, i) \
  ZR_ARG_SCAN_2(OP, ATN, best, (x).s01, (i)) ZR_ARG_SCAN_2(OP, ATN, best, (x).s23, (i) + 2)
#define ZR_ARG_SCAN_8(OP, ATN, best, x, i) \
  ZR_ARG_SCAN_4(OP, ATN, best, (x).s0123, (i)) ZR_ARG_SCAN_4(OP, ATN, best, (x).s4567, (i) + 4)
#define ZR_ARG_SCAN_16(OP, ATN, best, x, i) \
  ZR_ARG_SCAN_8(OP, ATN, best, (x).s01234567, (i)) ZR_ARG_SCAN_8(OP, ATN, best, (x).s89abcdef, (i) + 8)
#define ZR_ARG_SCAN_N(N, OP, ATN, best, x, i) ZR_ARG_SCAN_##N(OP, ATN, best, x, i)
#define ZR_ARG_SCAN(N, OP, ATN, best, x, i) ZR_ARG_SCAN_N(N, OP, ATN, best, x, i)

// best = the work-item's candidate of in[0, n) (identity when it has no element); identity must be set.
#define ZR_ARG_GRID_SCAN(OP, TN, ACC, ATN, in, n, best, identity)                                         \
  do {                                                                                                   \
    (best) = (identity);                                                                                   \
    const ulong vectors = (n) / ZR_VEC_##TN;                                                               \
    const ulong stride = get_global_size(0);                                                               \
    ulong v = get_global_id(0);                                                                            \
    /* Start from the work-item's first element, not the identity: an element equal to the identity's */   \
    /* value (-inf for argmax) must still be found, and it would not be strictly better. The scan then */  \
    /* meets that element again, which changes nothing. */                                                 \
    const ulong first = v < vectors ? v * ZR_VEC_##TN : vectors * ZR_VEC_##TN + v;                         \
    if (first < n) best = zr_arg_make_##ATN((ACC)ZR_LOAD_##TN(in, first), first);                          \
    for (; v + stride < vectors; v += 2 * stride) {                                                        \
      const ZR_VTYPE_##TN x = ZR_VLOAD_##TN(v, in);                                                        \
      const ZR_VTYPE_##TN y = ZR_VLOAD_##TN(v + stride, in);                                               \
      ZR_ARG_SCAN(ZR_VEC_##TN, OP, ATN, best, x, v * ZR_VEC_##TN)                                          \
      ZR_ARG_SCAN(ZR_VEC_##TN, OP, ATN, best, y, (v + stride) * ZR_VEC_##TN)                               \
    }                                                                                                      \
    if (v < vectors) {                                                                                     \
      const ZR_VTYPE_##TN x = ZR_VLOAD_##TN(v, in);                                                        \
      ZR_ARG_SCAN(ZR_VEC_##TN, OP, ATN, best, x, v * ZR_VEC_##TN)                                          \
    }                                                                                                      \
    for (ulong i = vectors * ZR_VEC_##TN + get_global_id(0); i < n; i += stride)                           \
      ZR_ARG_CONSIDER(OP, ATN, best, (ACC)ZR_LOAD_##TN(in, i), i);                                         \
  } while (0)

#endif  // ZR_ARG_GRID_H
