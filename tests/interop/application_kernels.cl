// The kernels of the raw Level Zero application in level_zero_interop_test.cpp (its own module, built to
// SPIR-V at build time as any Level Zero application builds its kernels): one writes the data before the
// reduction, one reads the reduction's result after it.
kernel void fill(global int* x, uint n, int seed) {
  uint i = get_global_id(0);
  if (i < n) x[i] = (int)((i * 2654435761u + (uint)seed) >> 9) % 2001 - 1000;
}
kernel void fill_float(global float* x, uint n) {
  uint i = get_global_id(0);
  if (i < n) x[i] = (float)((int)(i % 13u) - 6) * 0.25f;
}
kernel void twice(global int* r) { r[0] = 2 * r[0]; }
kernel void twice_float(global float* r) { r[0] = 2.0f * r[0]; }
