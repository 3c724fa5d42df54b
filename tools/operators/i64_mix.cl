// 8-byte elements: the wrapping sum of i64 values and the xor of their indices-weighted values, {sum, hash}.
#include <zereduce/user_operator_cl.h>

typedef struct {
  long sum;
  ulong hash;
} mix_state;

static mix_state mix_of(long x, ulong index) {
  mix_state m = {x, (ulong)x * (index | 1)};
  return m;
}

static mix_state combine_mix(mix_state a, mix_state b) {
  mix_state m = {a.sum + b.sum, a.hash ^ b.hash};
  return m;
}

static mix_state no_mix(void) {
  mix_state m = {0, 0};
  return m;
}

ZR_USER_OPERATOR(long, mix_state, mix_of, combine_mix, no_mix)
