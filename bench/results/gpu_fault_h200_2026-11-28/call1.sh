cd .devcarry && tar xJf bin1.tar.xz && cd ..
export out=$OUT
CONFORMANCE_OUT=$OUT bash bench/run_h100_conformance.sh nvidia
OUT=$OUT bash bench/run_h100_gpu_fault.sh
