// Must compile: proves the failures above come from the checks, not from a broken include path.
#include <zereduce/zereduce.hpp>
void f(zr::queue& q, const int* in, int* var) { (void)q.reduce(in, 1, zr::reduction(var, zr::bit_and<>())); }
