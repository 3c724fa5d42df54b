// Variant "segargjoin": see segarg.cl.
#define ZR_SEGARG_JOIN
#include "segarg.cl"
