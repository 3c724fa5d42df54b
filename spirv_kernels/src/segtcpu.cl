// Variant "segtcpu": see segtransform.cl.
#define ZR_SEGACC_CPU
#include "segtransform.cl"
