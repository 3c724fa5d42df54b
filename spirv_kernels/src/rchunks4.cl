// Variant "rchunks4": rchunks.cl with 4 interleaved streams per work-item instead of 8, for CPU devices of
// many cores (core::binned_variant; rchunks.cl has the measurements).
#define ZR_RSTREAMS 4
#define ZR_RCHUNKS_VARIANT rchunks4
#include "rchunks.cl"
