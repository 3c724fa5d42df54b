// Variant "cpuwide": the cpu_chunks first pass (cpu.cl) for floating minimum/maximum with wide lane states,
// for CPU devices only (kernels.table: requires cpu_device, so GPUs never load it and ocloc never builds it).
// cpu.cl's own states are as narrow as a GPU build without register spills on PVC allows (8 lanes of f32, 2
// of f64), and there the IEEE min/max step, a few integer ops per lane, is bound by instructions rather than
// memory: on the 2-core EPYC CI-like machine (PoCL 3.1) f64 min/max read 0.74-0.94x OpenMP at 2^24..2^26 and
// on a 16-core Xeon (PoCL 5) floating min/max 0.45-0.73x (bench/results). Here a state is 64 bytes, one
// AVX-512 register: 16 lanes of f32, 8 of f64. Same arguments, partials and results as cpu.cl.
#define ZR_CPU_MINMAX_LANES_f32 16
#define ZR_CPU_MINMAX_LANES_f64 8
#define ZR_CPU_ENTRY(OP, TN) zr_cpuwide_##OP##_##TN

#define ZR_CPU_WIDE_PAIRS(K, TN, T) K(minimum, TN, T, T, TN) K(maximum, TN, T, T, TN)
#if defined(ZR_CLASS_F32)
#define ZR_CPU_INSTANCES(K) ZR_CPU_WIDE_PAIRS(K, f32, float)
#elif defined(ZR_CLASS_FP64)
#define ZR_CPU_INSTANCES(K) ZR_CPU_WIDE_PAIRS(K, f64, double)
#else
#error "cpu_wide.cl is built for the f32 and fp64 type classes only (kernels.table)"
#endif

#include "cpu.cl"
