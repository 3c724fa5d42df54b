// Variant "kepiwg": the epilogue of kernels with reducers (kepilogue.cl) for devices with work-group collective
// functions: a group combines its order-independent reducers with work_group_reduce_* rather than the local tree.
#define ZR_EPILOGUE_COLLECTIVES 1
#include "kepilogue.cl"
