// Variant "rfinal": the last pass of a reproducible sum (zr_binned.h). One work-group merges `count` binned
// states, adds the result variable's initial value when asked to (as one more input, so that it is rounded
// only once, with the rest), and stores the state's value rounded once to the element type.
// Arguments: states, count (64-bit), result (T), include_initial, scratch (local, one zr_binned per
// work-item). Launch exactly one work-group.
#include "zr_binned.h"

#define ZR_RFINAL_KERNEL(TN, T, FTN, FT, MANTISSA, MIN_EXPONENT)                                          \
  kernel void zr_rfinal_plus_##TN(global const zr_binned* restrict states, ulong count, global T* result, \
                                  uint include_initial, local zr_binned* scratch) {                       \
    zr_binned state = zr_binned_merge_states(states, count, scratch);                                     \
    if (get_local_id(0) == 0) {                                                                           \
      if (include_initial) {                                                                              \
        zr_rsum_##FTN initial;                                                                            \
        zr_rsum_init_##FTN(&initial);                                                                     \
        zr_rsum_add_##FTN(&initial, ZR_LOAD_##TN(result, 0));                                             \
        state = zr_binned_merge(state, zr_rsum_state_##FTN(&initial));                                    \
      }                                                                                                   \
      ZR_STORE_##TN(result, 0, ZR_BINNED_VALUE(FTN, FT, state, MANTISSA, MIN_EXPONENT));                  \
    }                                                                                                     \
  }

ZR_FOR_EACH_RSUM(ZR_RFINAL_KERNEL)
