// Must not compile: ze-reduce runs logical_or on bool only.
#include <zereduce/zereduce.hpp>
void f(int* var) { (void)zr::reduction(var, zr::logical_or<>()); }
