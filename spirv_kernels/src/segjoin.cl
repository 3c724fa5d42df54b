// Variant "segjoin": see segspan.cl.
#define ZR_SEGMENT_JOIN
#include "segspan.cl"
