// The 64-bit span kernels of every_reducer.cl (a module of their own: only devices with 64-bit atomics load it).
#include "span_kernels.h"

SPAN_KERNELS(i64, long)
SPAN_KERNELS(u64, ulong)
