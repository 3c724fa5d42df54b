// Variant "segargspanjoin": see segspan.cl.
#define ZR_SPAN_ARG
#define ZR_SEGMENT_JOIN
#include "segspan.cl"
