// Variant "segmcpu": see segtransform.cl.
#define ZR_SEGACC_MOMENTS
#define ZR_SEGACC_CPU
#include "segtransform.cl"
