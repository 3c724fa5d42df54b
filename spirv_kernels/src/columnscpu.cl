// Variant "columnscpu": see columns.cl.
#define ZR_COLUMNS_CONTIGUOUS
#include "columns.cl"
