// The entry points of the cpu_device modules (segcpu, argcpu, tcpu, mcpu, ucpu, rchunks): each runs one
// work-item per group, its own vector states making the SIMD work. A vector type hint keeps Intel's CPU compiler
// from also packing work-items into SIMD lanes (its implicit vectorizer), a version that one work-item per group
// never runs and that cost most of the build: rchunks_f32 built in 50 s without the hint and in 2.7 s with it
// (Intel's CPU runtime 2026.22 on a 2-core Xeon); sums read at the same speed either way. PoCL ignores it.
#ifndef ZR_CPU_DEVICE_KERNEL_H
#define ZR_CPU_DEVICE_KERNEL_H
#define ZR_CPU_DEVICE_KERNEL kernel __attribute__((vec_type_hint(float16)))
#endif
