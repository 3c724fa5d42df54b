# Intel GPU generations every module is compiled for with ocloc (the compile-only check, and the optional
# embedded native binaries), with the module features each one lacks (DESIGN.md section 3: fp64 modules do
# not build for tgllp and dg2; float atomics as the Level Zero driver reports them per profile; no GPU is a
# cpu_device, so the CPU-only modules are never built for one).
set(ZR_INTEL_TARGETS gen9 tgllp dg2-g10 pvc)
set(ZR_INTEL_TARGET_LACKS_gen9 "float_atomic_add;float_atomic_min_max;cpu_device;user_operator_template")
set(ZR_INTEL_TARGET_LACKS_tgllp "fp64;float_atomic_add;float_atomic_min_max;cpu_device;user_operator_template")
set(ZR_INTEL_TARGET_LACKS_dg2-g10 "fp64;float_atomic_min_max;cpu_device;user_operator_template")
set(ZR_INTEL_TARGET_LACKS_pvc "cpu_device;user_operator_template")
