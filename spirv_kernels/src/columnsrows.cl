// Variant "columnsrows": see columns.cl.
#define ZR_COLUMNS_ROWS
#include "columns.cl"
