// Variant "segitem": see segments.cl.
#define ZR_SEGMENT_ITEM
#include "segments.cl"
