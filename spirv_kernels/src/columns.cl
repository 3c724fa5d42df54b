// Variants "columns" and "columnsfinal": array reductions. The input is rows of `columns` values and column
// c reduces on its own. Work-item g handles column g % columns for "lane" g / columns of `lanes`: it folds
// rows lane, lane + lanes, ... (consecutive work-items read consecutive addresses) and writes its accumulator
// to partials[g], so the partials are `lanes` rows of the same columns, reduced again by further passes.
// "columnsfinal" folds the remaining rows of each column in row order, folds in the result's initial value
// when asked to, and stores T. No local memory; work-items beyond lanes * columns do nothing.
// "columnscpu" (CPU devices) takes the same arguments, but lane l folds one contiguous block of rows,
// [l * per, (l + 1) * per) with per = ceil(rows / lanes): a CPU runs a group's work-items one after another on one
// core, so the columns of a block are read from cache, where a lane striding down the whole array (the GPU shape)
// read a cache line for every element.
// columns:      (in T, rows, columns, partials ACC, lanes, identity); columnscpu and columnscpu4 the same
// columnsfinal: (partials ACC, rows, columns, result T, identity, include_initial)
#include "zr_types.h"

#ifdef ZR_COLUMNS_FINAL
#define ZR_COLUMNS_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void zr_columnsfinal_##OP##_##TN(global const ACC* restrict partials, ulong rows, ulong columns,      \
                                         global T* result, ACC identity, uint include_initial) {               \
    const ulong c = get_global_id(0);                                                                          \
    if (c >= columns) return;                                                                                  \
    ACC acc = identity;                                                                                        \
    for (ulong row = 0; row < rows; ++row) acc = ZR_COMBINE(OP, ATN)(acc, partials[row * columns + c]);        \
    if (include_initial) acc = ZR_COMBINE(OP, ATN)(ZR_LOAD_##TN(result, c), acc);                              \
    ZR_STORE_##TN(result, c, acc);                                                                             \
  }
#elif defined(ZR_COLUMNS_ROWS)
// columnsrows (CPU devices, 16 columns or more): work-item g takes chunk g % chunks of `chunk` adjacent columns
// for lane g / chunks, and folds the lane's block of rows (as columnscpu's) into its partial row, a row at a time:
// a contiguous inner loop that the CPU compiler vectorises, over a partial row that stays in cache. Each column
// still folds its rows in order, and the row is stored as results are (the plan makes one lane's row of the
// elements' own type the result). (in T, rows, columns, partials ACC, lanes, identity, chunk)
#define ZR_COLUMNS_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void zr_columnsrows_##OP##_##TN(global const T* restrict in, ulong rows, ulong columns,               \
                                         global ACC* restrict partials, ulong lanes, ACC identity,             \
                                         ulong chunk) {                                                        \
    const ulong chunks = (columns + chunk - 1) / chunk;                                                        \
    const ulong g = get_global_id(0);                                                                          \
    if (g >= lanes * chunks) return;                                                                           \
    const ulong lane = g / chunks;                                                                             \
    const ulong c0 = (g - lane * chunks) * chunk;                                                              \
    const ulong width = min(columns - c0, chunk);                                                              \
    const ulong per = (rows + lanes - 1) / lanes;                                                              \
    const ulong first = lane * per;                                                                            \
    const ulong last = min(rows, first + per);                                                                 \
    global ACC* restrict out = partials + lane * columns + c0;                                                 \
    for (ulong c = 0; c < width; ++c) out[c] = identity;                                                       \
    for (ulong row = first; row < last; ++row) {                                                               \
      global const T* restrict from = in + row * columns + c0;                                                 \
      for (ulong c = 0; c < width; ++c) out[c] = ZR_COMBINE(OP, ATN)(out[c], ZR_LOAD_##TN(from, c));           \
    }                                                                                                          \
    /* Stored as results are (a NaN as the canonical one): the plan may make this row the result itself. */   \
    for (ulong c = 0; c < width; ++c) ZR_STORE_##ATN(out, c, out[c]);                                          \
  }
#elif defined(ZR_COLUMNS_QUADS)
// columnscpu4: columnscpu's contiguous blocks of rows, four adjacent columns per work-item (a ragged last quad
// folds its 1-3 columns one after another): a quarter of the work-items, each row's four values read together.
// For CPU compilers that do not pack work-items into SIMD lanes themselves (PoCL); Intel's CPU runtime, which
// does, runs one column per work-item faster.
#define ZR_COLUMN_QUAD_FOLD(OP, TN, ATN, acc, offset) acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, i + (offset)))
#define ZR_COLUMNS_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void zr_columnscpu4_##OP##_##TN(global const T* restrict in, ulong rows, ulong columns,               \
                                         global ACC* restrict partials, ulong lanes, ACC identity) {           \
    const ulong quads = (columns + 3) / 4;                                                                     \
    const ulong g = get_global_id(0);                                                                          \
    if (g >= lanes * quads) return;                                                                            \
    const ulong lane = g / quads; /* no % beside it: see columns below */                                     \
    const ulong c = (g - lane * quads) * 4;                                                                    \
    const ulong per = (rows + lanes - 1) / lanes;                                                              \
    const ulong first = lane * per;                                                                            \
    const ulong last = min(rows, first + per);                                                                 \
    global ACC* out = partials + lane * columns + c;                                                           \
    if (c + 4 <= columns) {                                                                                    \
      ACC a0 = identity, a1 = identity, a2 = identity, a3 = identity;                                          \
      for (ulong row = first; row < last; ++row) {                                                             \
        const ulong i = row * columns + c;                                                                     \
        ZR_COLUMN_QUAD_FOLD(OP, TN, ATN, a0, 0);                                                               \
        ZR_COLUMN_QUAD_FOLD(OP, TN, ATN, a1, 1);                                                               \
        ZR_COLUMN_QUAD_FOLD(OP, TN, ATN, a2, 2);                                                               \
        ZR_COLUMN_QUAD_FOLD(OP, TN, ATN, a3, 3);                                                               \
      }                                                                                                        \
      out[0] = a0;                                                                                             \
      out[1] = a1;                                                                                             \
      out[2] = a2;                                                                                             \
      out[3] = a3;                                                                                             \
      return;                                                                                                  \
    }                                                                                                          \
    for (ulong j = 0; c + j < columns; ++j) {                                                                  \
      ACC acc = identity;                                                                                      \
      for (ulong row = first; row < last; ++row) {                                                             \
        const ulong i = row * columns + c;                                                                     \
        ZR_COLUMN_QUAD_FOLD(OP, TN, ATN, acc, j);                                                              \
      }                                                                                                        \
      out[j] = acc;                                                                                            \
    }                                                                                                          \
  }
#else
#if defined(ZR_COLUMNS_CONTIGUOUS)
#define ZR_COLUMNS_NAME(OP, TN) zr_columnscpu_##OP##_##TN
#define ZR_COLUMN_ROWS(lane, rows, lanes) \
  const ulong per = ((rows) + (lanes) - 1) / (lanes);  \
  const ulong first = (lane) * per;                    \
  const ulong last = min((rows), first + per);         \
  const ulong step = 1
#else
#define ZR_COLUMNS_NAME(OP, TN) zr_columns_##OP##_##TN
#define ZR_COLUMN_ROWS(lane, rows, lanes) \
  const ulong first = (lane);                          \
  const ulong last = (rows);                           \
  const ulong step = (lanes)
#endif
#define ZR_COLUMNS_KERNEL(OP, TN, T, ACC, ATN)                                                                 \
  kernel void ZR_COLUMNS_NAME(OP, TN)(global const T* restrict in, ulong rows, ulong columns,                   \
                                     global ACC* restrict partials, ulong lanes, ACC identity) {               \
    const ulong g = get_global_id(0);                                                                          \
    if (g >= lanes * columns) return;                                                                          \
    /* The lane by a loop-free division and no remainder: LLVM turns a / and % pair into a "freeze", which */  \
    /* llvm-spirv-15 cannot translate. */                                                                      \
    const ulong lane = g / columns;                                                                            \
    const ulong c = g - lane * columns;                                                                        \
    ZR_COLUMN_ROWS(lane, rows, lanes);                                                                        \
    ACC acc = identity;                                                                                        \
    for (ulong row = first; row < last; row += step)                                                           \
      acc = ZR_COMBINE(OP, ATN)(acc, ZR_LOAD_##TN(in, row * columns + c));                                     \
    partials[g] = acc;                                                                                         \
  }
#endif

ZR_FOR_EACH_PAIR(ZR_COLUMNS_KERNEL)
