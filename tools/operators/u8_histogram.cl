// An 8-bucket histogram of u8 values (bucket x / 32), 32 bytes.
#include <zereduce/user_operator_cl.h>

typedef struct {
  uint counts[8];
} histogram8;

static histogram8 no_counts(void) {
  histogram8 h;
  for (int i = 0; i < 8; ++i) h.counts[i] = 0;
  return h;
}

// Every bucket written with a constant index: a private array indexed by data stays in memory on GPUs.
static histogram8 count_one(uchar x, ulong index) {
  histogram8 h;
  for (int i = 0; i < 8; ++i) h.counts[i] = (x >> 5) == i;
  return h;
}

static histogram8 add_counts(histogram8 a, histogram8 b) {
  for (int i = 0; i < 8; ++i) a.counts[i] += b.counts[i];
  return a;
}

ZR_USER_OPERATOR(uchar, histogram8, count_one, add_counts, no_counts)
