// Sum and maximum of 0..1023 in one pass through the installed library; exits 0 when both are right.
#include <zereduce/zereduce.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  zr::queue q;
  std::vector<int> values(1024);
  std::iota(values.begin(), values.end(), 0);
  int* data = q.malloc_device<int>(values.size());
  q.copy(values.data(), data, values.size()).wait();
  int sum = 0;
  int max = 0;
  q.reduce(data, values.size(), zr::reduction(&sum, zr::plus<>()), zr::reduction(&max, zr::maximum<>())).wait();
  q.free(data);
  std::printf("zereduce %s on %s: sum %d, max %d\n", zr::version().data(), q.get_device().name().c_str(), sum, max);
  return sum == 523776 && max == 1023 ? 0 : 1;
}
