// A plain f32 sum as a user operator: what the built-in sum computes, for comparing the two.
#include <zereduce/user_operator_cl.h>

static float add(float a, float b) { return a + b; }
static float zero(void) { return 0.0f; }

ZR_USER_COMBINER(float, add, zero)
