// The range of i16 values, {lo, hi}, without an identity: every partial is seeded from the input.
#include <zereduce/user_operator_cl.h>

typedef struct {
  short lo;
  short hi;
} range16;

static range16 range_of(short x, ulong index) {
  range16 r = {x, x};
  return r;
}

static range16 join(range16 a, range16 b) {
  range16 r = {min(a.lo, b.lo), max(a.hi, b.hi)};
  return r;
}

ZR_USER_OPERATOR_NO_IDENTITY(short, range16, range_of, join)
