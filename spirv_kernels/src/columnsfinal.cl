// Variant "columnsfinal": see columns.cl.
#define ZR_COLUMNS_FINAL
#include "columns.cl"
