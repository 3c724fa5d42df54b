// Variant "segitemcpu": see segments.cl.
#define ZR_SEGMENT_ITEM
#define ZR_SEGMENT_ITEM_BLOCKS
#include "segments.cl"
