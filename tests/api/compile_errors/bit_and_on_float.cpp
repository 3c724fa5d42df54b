// Must not compile: SYCL allows bit_and on integers only.
#include <zereduce/zereduce.hpp>
void f(float* var) { (void)zr::reduction(var, zr::bit_and<>()); }
