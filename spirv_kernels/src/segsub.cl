// Variant "segsub": see segments.cl.
#define ZR_SEGMENT_LANES
#include "segments.cl"
