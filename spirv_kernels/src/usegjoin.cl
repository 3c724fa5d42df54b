// Variant "usegjoin": see usegments.cl.
#define ZR_USER_SEGMENT_JOIN
#include "usegments.cl"
