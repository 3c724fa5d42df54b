// Variant "columnscpu4": see columns.cl.
#define ZR_COLUMNS_QUADS
#include "columns.cl"
