// Must not compile: the input's element type and the reduction's type differ.
#include <zereduce/zereduce.hpp>
void f(zr::queue& q, const float* in, double* var) { (void)q.reduce(in, 1, zr::reduction(var, zr::plus<>())); }
