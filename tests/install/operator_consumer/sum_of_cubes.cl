// The exact sum of the cubes of i32 values, in 64-bit integers, with the number of negative values.
#include <zereduce/user_operator_cl.h>

typedef struct {
  long cubes;
  uint negatives;
} cubes;

static cubes cube(int x, ulong index) {
  const long v = x;
  cubes c = {v * v * v, x < 0 ? 1u : 0u};
  return c;
}

static cubes add(cubes a, cubes b) {
  cubes c = {a.cubes + b.cubes, a.negatives + b.negatives};
  return c;
}

static cubes none(void) {
  cubes c = {0, 0};
  return c;
}

ZR_USER_OPERATOR(int, cubes, cube, add, none)
