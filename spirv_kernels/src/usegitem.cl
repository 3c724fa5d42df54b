// Variant "usegitem": see usegments.cl.
#define ZR_USER_SEGMENT_ITEM
#include "usegments.cl"
