// Must not compile: precompiled kernels exist only for the named function objects.
#include <zereduce/zereduce.hpp>
void f(int* var) { (void)zr::reduction(var, 0, [](int a, int b) { return a + b; }); }
