// Variant "segm": see segtransform.cl.
#define ZR_SEGACC_MOMENTS
#include "segtransform.cl"
