#include <array>

#include "kernel_catalog.hpp"

namespace zr::core {

namespace {
using enum DataType;
constexpr std::array<DataType, 10> kBase{i8, i16, i32, i64, u8, u16, u32, u64, f32, boolean};
constexpr std::array<DataType, 1> kFp16{f16};
constexpr std::array<DataType, 1> kFp64{f64};
constexpr std::array<DataType, 7> kInt32{i8, i16, i32, u8, u16, u32, boolean};
constexpr std::array<DataType, 2> kInt64{i64, u64};
constexpr std::array<DataType, 1> kF32{f32};
constexpr std::array<DataType, 1> kBits8{u8};
constexpr std::array<DataType, 1> kBits16{u16};
constexpr std::array<DataType, 1> kBits32{u32};
constexpr std::array<DataType, 1> kBits64{u64};
constexpr std::array<DataType, 9> kNumericFp64{i8, i16, i32, i64, u8, u16, u32, u64, f32};

// Keep in step with the ZR_CLASS_* lists in spirv_kernels/src/zr_types.h; the embedder fails the build
// if a module's entry points differ from what this table predicts.
const std::array<TypeClass, 13> kClasses{{
    {"base", kBase, {}},
    {"fp16", kFp16, Feature::fp16},
    {"fp64", kFp64, Feature::fp64},
    {"int32", kInt32, {}},
    {"int64atomic", kInt64, Feature::int64_atomics},
    {"f32", kF32, {}},
    // f32 and f16 elements summed into f64 (Op::sum_f64). Modules that read half data declare fp16 in
    // kernels.table (the last pass reads and writes only f64).
    {"f32fp64", kF32, Feature::fp64},
    {"f16fp64", kFp16, Feature::fp64},
    // Integer and f32 elements whose means and variances accumulate in f64 (Op::mean_var_f64).
    {"basefp64", kNumericFp64, Feature::fp64},
    // Elements of 1, 2, 4 and 8 bytes as bits, whatever their type: the user-defined operators' templates
    // (zr_user.h), which hand each element's bits to the operator's transform.
    {"bits8", kBits8, {}},
    {"bits16", kBits16, {}},
    {"bits32", kBits32, {}},
    {"bits64", kBits64, {}},
}};
}  // namespace

std::span<const TypeClass> type_classes() { return kClasses; }

const TypeClass* find_type_class(std::string_view name) {
  for (const auto& c : kClasses) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace zr::core
