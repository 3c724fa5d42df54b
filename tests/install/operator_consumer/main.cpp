// Reduces with the application's own operator on the default device and checks the result on the host.
#include <zereduce/zereduce.hpp>

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

#include "sum_of_cubes.hpp"

struct cubes {
  std::int64_t cubes;
  std::uint32_t negatives;
};

int main() {
  zr::queue q;
  const zr::user_operator<std::int32_t, cubes> op(consumer_ops::sum_of_cubes);
  std::vector<std::int32_t> x(100003);
  cubes want{0, 0};
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<std::int32_t>(i % 201) - 100;
    want.cubes += static_cast<std::int64_t>(x[i]) * x[i] * x[i];
    want.negatives += x[i] < 0;
  }
  const cubes got = q.reduce_value(std::span<const std::int32_t>(x), op);
  std::printf("operator_consumer on %s: sum of cubes %lld (host %lld), negatives %u (host %u)\n",
              q.get_device().name().c_str(), static_cast<long long>(got.cubes), static_cast<long long>(want.cubes),
              got.negatives, want.negatives);
  return got.cubes == want.cubes && got.negatives == want.negatives ? 0 : 1;
}
