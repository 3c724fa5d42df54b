// Variant "segargspan": argmin/argmax over skewed segments by keys; see segspan.cl.
#define ZR_SPAN_ARG
#include "segspan.cl"
