// Variant "segargcpujoin": see segarg.cl.
#define ZR_SEGARG_CPU_JOIN
#include "segarg.cl"
