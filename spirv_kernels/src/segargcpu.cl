// Variant "segargcpu": see segarg.cl.
#define ZR_SEGARG_CPU
#include "segarg.cl"
