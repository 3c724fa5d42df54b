// f32 values summed in double: an operator that needs fp64 of the device.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include <zereduce/user_operator_cl.h>

static double widen(float x, ulong index) { return (double)x; }
static double add(double a, double b) { return a + b; }
static double zero(void) { return 0.0; }

ZR_USER_OPERATOR(float, double, widen, add, zero)
