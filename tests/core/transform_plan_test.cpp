// Transform-reduction plans (norms, counts, widening sums) as plain data, the strategy rules, and the host
// reference they are checked with (its exact counts, its bounds, its special values).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <variant>
#include <vector>

#include "fake_devices.hpp"
#include "half.hpp"
#include "identity.hpp"
#include "moments_reference.hpp"
#include "plan.hpp"
#include "transform_reference.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

ReductionRequest transform_request(Op op, DataType type, std::uint64_t n) {
  ReductionRequest r;
  r.op = op;
  r.type = type;
  r.n = n;
  r.identity = known_identity(op, type);
  r.include_initial = false;
  return r;
}

std::uint64_t u64_arg(const KernelArg& arg) { return std::get<Scalar>(arg).as<std::uint64_t>(); }

template <typename T>
std::span<const std::byte> bytes_of(const std::vector<T>& v) {
  return std::as_bytes(std::span<const T>(v));
}

TEST(TransformOps, GivenEveryTransform_ThenTypesResultsAndAccumulatorsFollowTheTable) {
  for (Op op : kTransformOps) {
    EXPECT_TRUE(is_transform_op(op));
    EXPECT_EQ(parse_op(name(op)), op) << name(op);
  }
  EXPECT_FALSE(is_transform_op(Op::plus));
  EXPECT_FALSE(is_transform_op(Op::argmax));
  EXPECT_TRUE(is_supported(Op::norm_l2, DataType::f16));
  EXPECT_FALSE(is_supported(Op::norm_l2, DataType::i32)) << "norms take floating types";
  EXPECT_TRUE(is_supported(Op::count_nonzero, DataType::boolean));
  EXPECT_TRUE(is_supported(Op::sum_i64, DataType::u8));
  EXPECT_FALSE(is_supported(Op::sum_i64, DataType::f32));
  EXPECT_FALSE(is_supported(Op::sum_f64, DataType::f64)) << "plus already sums f64 in f64";
  EXPECT_EQ(transform_result_type(Op::count_equal, DataType::f16), DataType::u64);
  EXPECT_EQ(transform_result_type(Op::norm_l1, DataType::f16), DataType::f16);
  EXPECT_EQ(transform_accumulator_type(Op::norm_l1, DataType::f16), DataType::f32);
  EXPECT_EQ(transform_result_type(Op::sum_i64, DataType::i8), DataType::i64);
  EXPECT_EQ(transform_accumulator_type(Op::sum_i64, DataType::i8), DataType::u64) << "wrapping adds in u64";
  EXPECT_EQ(transform_result_type(Op::sum_f64, DataType::f32), DataType::f64);
}

TEST(TransformPlan, GivenGpuAndCpuProfiles_WhenPlanned_ThenTheTransformKernelsReadNAndWriteTheResultType) {
  const std::uint64_t sizes[] = {0, 1, 255, 65537, (1ull << 32) + 5, 1ull << 40};
  for (const auto& caps : {test::pvc_like_gpu(), test::tgllp_like_gpu(), test::pocl_like_cpu()})
    for (Strategy s : {Strategy::tree, Strategy::last_group, Strategy::cpu_chunks})
      for (std::uint64_t n : sizes)
        for (Op op : {Op::norm_l2, Op::count_nonzero, Op::sum_f64}) {
          ReductionRequest r = transform_request(op, DataType::f32, n);
          r.strategy = s;
          if (auto why = why_unavailable(s, caps, r)) {  // tcpu is for CPU devices; sum_f64 needs fp64
            EXPECT_TRUE((s == Strategy::cpu_chunks && caps.type != DeviceType::cpu) || (op == Op::sum_f64 && !caps.fp64)) << *why;
            continue;
          }
          const Plan plan = make_plan(caps, r, choose_strategy(caps, r));
          SCOPED_TRACE(describe(plan));
          EXPECT_EQ(result_bytes(plan, 0), op == Op::norm_l2 ? 4u : 8u);
          EXPECT_FALSE(reads_initial_value(plan, 0)) << "a transform-reduction never reads its variable";
          EXPECT_TRUE(plan.request.deterministic);
          const KernelPass& first = plan.passes.front();
          EXPECT_EQ(u64_arg(first.args[1]), n);
          const std::string suffix = std::string(name(op)) + "_f32";
          if (s == Strategy::last_group) {
            ASSERT_EQ(plan.passes.size(), 1u);
            EXPECT_EQ(first.entry_point, "zr_tlast_" + suffix);
            EXPECT_EQ(std::get<BufferArg>(first.args[6]).which, BufferArg::Which::result);
            continue;
          }
          EXPECT_EQ(first.entry_point, (s == Strategy::cpu_chunks ? "zr_tcpu_" : "zr_ttree_") + suffix);
          const KernelPass& final_pass = plan.passes.back();
          EXPECT_EQ(final_pass.entry_point, "zr_tfinal_" + suffix);
          EXPECT_EQ(final_pass.group_count(), 1u);
          EXPECT_EQ(std::get<BufferArg>(final_pass.args[2]).which, BufferArg::Which::result);
          // Between them, the plain tree kernels sum the accumulator: u64 for counts, f64 for sum_f64.
          for (std::size_t p = 1; p + 1 < plan.passes.size(); ++p)
            EXPECT_EQ(plan.passes[p].entry_point, op == Op::count_nonzero ? "zr_tree_plus_u64"
                                                  : op == Op::sum_f64     ? "zr_tree_plus_f64"
                                                                          : "zr_tree_plus_f32");
          // Each pass reads what the one before wrote.
          for (std::size_t p = 1; p < plan.passes.size(); ++p)
            EXPECT_EQ(std::get<BufferArg>(plan.passes[p].args[0]), std::get<BufferArg>(plan.passes[p - 1].args[2]));
        }
}

TEST(TransformPlan, GivenCountEqual_ThenTheValueIsTheKernelsLaneTypeAndBoolIsZeroOrOne) {
  const auto caps = test::pvc_like_gpu();
  ReductionRequest r = transform_request(Op::count_equal, DataType::f16, 100);
  r.transform_value = Scalar::from(DataType::f16, float_to_half_bits(2.5f));
  Plan plan = make_plan(caps, r, choose_strategy(caps, r));
  const Scalar value = std::get<Scalar>(plan.passes.front().args[3]);
  EXPECT_EQ(value.type, DataType::f32) << "half is compared as float";
  EXPECT_EQ(value.as<float>(), 2.5f);
  r = transform_request(Op::count_equal, DataType::boolean, 100);
  r.transform_value = Scalar::from<std::uint8_t>(DataType::boolean, 0x40);
  plan = make_plan(caps, r, choose_strategy(caps, r));
  EXPECT_EQ(std::get<Scalar>(plan.passes.front().args[3]).as<std::uint8_t>(), 1u) << "any nonzero byte is true";
}

TEST(TransformStrategy, GivenAGpuAndACpu_ThenOneLaunchOnGpusAndChunksOnCpusAndTheOthersRefused) {
  const ReductionRequest r = transform_request(Op::norm_l1, DataType::f32, 1 << 20);
  EXPECT_EQ(choose_strategy(test::pvc_like_gpu(), r).strategy, Strategy::last_group);
  EXPECT_EQ(choose_strategy(test::pocl_like_cpu(), r).strategy, Strategy::cpu_chunks);
  for (Strategy s : {Strategy::subgroup, Strategy::work_group, Strategy::local_atomics, Strategy::global_atomics}) {
    const auto why = why_unavailable(s, test::pvc_like_gpu(), r);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("tree, last_group or cpu_chunks"), std::string::npos) << *why;
  }
  EXPECT_THROW(choose_strategy(test::pvc_like_gpu(), transform_request(Op::norm_l1, DataType::i32, 8)), InvalidArgumentError);
  ReductionRequest reproducible = r;
  reproducible.reproducible = true;
  EXPECT_THROW(choose_strategy(test::pvc_like_gpu(), reproducible), UnsupportedError) << "a floating sum is order-dependent";
  reproducible.op = Op::count_nonzero;
  EXPECT_NO_THROW(choose_strategy(test::pvc_like_gpu(), reproducible)) << "a count is exact";
  ReductionRequest wide = transform_request(Op::sum_f64, DataType::f32, 8);
  try {
    choose_strategy(test::tgllp_like_gpu(), wide);  // Xe-LP: no fp64
    FAIL() << "sum_f64 accepted without fp64";
  } catch (const UnsupportedError& error) {
    EXPECT_NE(std::string(error.what()).find("fp64"), std::string::npos) << error.what();
  }
}

TEST(TransformReference, GivenCountsAndIntegerSums_ThenExactWithNaNAndSignedZeroAsCompared) {
  const std::vector<float> floats{0.0f, -0.0f, 1.5f, std::numeric_limits<float>::quiet_NaN(), 1.5f, -2.0f};
  const Scalar nan = Scalar::from(DataType::f32, std::numeric_limits<float>::quiet_NaN());
  const Scalar zero = Scalar::from(DataType::f32, 0.0f);
  EXPECT_EQ(transform_reference(Op::count_nonzero, DataType::f32, bytes_of(floats), 6, zero).value.as<std::uint64_t>(), 4u);
  EXPECT_EQ(transform_reference(Op::count_equal, DataType::f32, bytes_of(floats), 6, zero).value.as<std::uint64_t>(), 2u);
  EXPECT_EQ(transform_reference(Op::count_equal, DataType::f32, bytes_of(floats), 6, nan).value.as<std::uint64_t>(), 0u);
  const std::vector<std::int8_t> bytes{-1, -128, 127, 5};
  const HostReference wide = transform_reference(Op::sum_i64, DataType::i8, bytes_of(bytes), 4, Scalar{DataType::i8, {}});
  EXPECT_EQ(wide.value.type, DataType::i64);
  EXPECT_EQ(wide.value.as<std::int64_t>(), 3);
  EXPECT_EQ(wide.tolerance, 0.0);
  const std::vector<std::uint64_t> big{UINT64_MAX, 2};
  EXPECT_EQ(transform_reference(Op::sum_u64, DataType::u64, bytes_of(big), 2, Scalar{DataType::u64, {}}).value.as<std::uint64_t>(),
            1u) << "wraps modulo 2^64";
}

TEST(TransformReference, GivenFloatSums_ThenTheBoundHoldsFloatEvaluationAndCatchesAWrongOne) {
  std::vector<float> data(100000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(std::sin(static_cast<double>(i))) * 3.0f;
  const Scalar unused{DataType::f32, {}};
  for (Op op : {Op::sum_squares, Op::norm_l2, Op::norm_l1}) {
    SCOPED_TRACE(std::string(name(op)));
    float sequential = 0;  // one chain in float: the deepest tree of all (m = n)
    for (float x : data) sequential += op == Op::norm_l1 ? std::fabs(x) : x * x;
    if (op == Op::norm_l2) sequential = std::sqrt(sequential);
    const HostReference any_order = transform_reference(op, DataType::f32, bytes_of(data), data.size(), unused);
    EXPECT_TRUE(agrees(any_order, Scalar::from(DataType::f32, sequential)));
    EXPECT_FALSE(agrees(any_order, Scalar::from(DataType::f32, sequential * 1.05f))) << "a 5% error passes";
    const HostReference shallow = transform_reference(op, DataType::f32, bytes_of(data), data.size(), unused, 20);
    EXPECT_LT(shallow.tolerance, any_order.tolerance / 100) << "a shallow tree's bound is far tighter";
    EXPECT_FALSE(agrees(shallow, Scalar::from(DataType::f32, static_cast<float>(shallow.value.to_double() * 1.001))))
        << "a 0.1% error passes the bound of a tree of depth 20";
  }
}

TEST(TransformReference, GivenInfinityNaNOrOverflow_ThenTheResultIsExact) {
  const Scalar unused{DataType::f32, {}};
  const std::vector<float> with_nan{1.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f};
  const HostReference nan = transform_reference(Op::norm_l2, DataType::f32, bytes_of(with_nan), 3, unused);
  EXPECT_TRUE(std::isnan(nan.value.as<float>()));
  EXPECT_EQ(nan.tolerance, 0.0);
  const std::vector<float> huge(4, 1e20f);  // squares of 1e40: beyond float
  const HostReference inf = transform_reference(Op::sum_squares, DataType::f32, bytes_of(huge), 4, unused);
  EXPECT_TRUE(std::isinf(inf.value.as<float>()));
  EXPECT_FALSE(agrees(inf, Scalar::from(DataType::f32, std::numeric_limits<float>::max())));
  // In f64 the same values sum exactly: sum_f64 of floats stays finite.
  const HostReference wide = transform_reference(Op::sum_f64, DataType::f32, bytes_of(huge), 4, unused);
  EXPECT_EQ(wide.value.as<double>(), 4 * static_cast<double>(1e20f));
}

TEST(MomentsPlan, GivenEachStrategy_ThenStatesOfTheAccumulatorAndOneFinalEntryPerAccumulator) {
  for (const auto& caps : {test::pvc_like_gpu(), test::pocl_like_cpu()})
    for (Strategy s : {Strategy::tree, Strategy::last_group, Strategy::cpu_chunks})
      for (Op op : kMomentsOps) {
        ReductionRequest r = transform_request(op, DataType::i16, 1 << 20);
        r.strategy = s;
        if (auto why = why_unavailable(s, caps, r)) {
          EXPECT_TRUE(s == Strategy::cpu_chunks && caps.type != DeviceType::cpu) << *why;
          continue;
        }
        const Plan plan = make_plan(caps, r, choose_strategy(caps, r));
        SCOPED_TRACE(describe(plan));
        EXPECT_EQ(result_bytes(plan, 0), op == Op::mean_var_f64 ? 24u : 16u);
        EXPECT_FALSE(reads_initial_value(plan, 0));
        if (s == Strategy::last_group) {
          ASSERT_EQ(plan.passes.size(), 1u);
          EXPECT_EQ(plan.passes[0].entry_point, "zr_mlast_" + std::string(name(op)) + "_i16");
          continue;
        }
        ASSERT_EQ(plan.passes.size(), 2u);
        EXPECT_EQ(plan.passes[0].entry_point, (s == Strategy::cpu_chunks ? "zr_mcpu_" : "zr_mtree_") + std::string(name(op)) + "_i16");
        // mfinal reads states alone: its entry point of the accumulator's type serves every element type.
        EXPECT_EQ(plan.passes[1].entry_point, op == Op::mean_var_f64 ? "zr_mfinal_mean_var_f64_f64" : "zr_mfinal_mean_var_f32_f32");
        const std::uint64_t states = s == Strategy::cpu_chunks ? plan.passes[0].global_size : plan.passes[0].group_count();
        EXPECT_EQ(u64_arg(plan.passes[1].args[1]), states);
        EXPECT_EQ(plan.scratch.front().bytes, std::max<std::uint64_t>(states * result_bytes(plan, 0), 8));
      }
  EXPECT_FALSE(is_supported(Op::mean_var_f32, DataType::f64)) << "f64 data takes f64 moments";
  EXPECT_FALSE(is_supported(Op::mean_var_f64, DataType::boolean));
  ReductionRequest reproducible = transform_request(Op::mean_var_f64, DataType::f32, 8);
  reproducible.reproducible = true;
  EXPECT_THROW(choose_strategy(test::pvc_like_gpu(), reproducible), UnsupportedError);
}

TEST(MomentsReference, GivenAMeanFarFromZero_ThenTwoPassExactValuesAndBoundsThatCatchAWrongFormula) {
  std::vector<double> data(10000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = 1e6 + static_cast<double>(i % 7);  // mean 1e6 + 3
  const MomentsReference ref = moments_reference(Op::mean_var_f64, DataType::f64, bytes_of(data), data.size(), 40);
  EXPECT_EQ(ref.exact.count, data.size());
  long double sum = 0;
  for (double x : data) sum += x;
  EXPECT_NEAR(static_cast<double>(ref.exact.mean), static_cast<double>(sum / data.size()), 1e-6);
  double m2 = 0;
  for (double x : data) m2 += (x - static_cast<double>(ref.exact.mean)) * (x - static_cast<double>(ref.exact.mean));
  EXPECT_NEAR(static_cast<double>(ref.exact.m2), m2, 1e-6 * m2);
  Moments right{data.size(), ref.exact.mean, ref.exact.m2};
  EXPECT_TRUE(agrees(ref, right));
  // The textbook formula sum x^2 - n mean^2 in double loses most digits here: off by far more than the bound.
  Moments wrong = right;
  wrong.m2 = ref.exact.m2 * 1.01L;
  std::string why;
  EXPECT_FALSE(agrees(ref, wrong, &why));
  EXPECT_NE(why.find("m2"), std::string::npos) << why;
  wrong = right;
  wrong.count -= 1;
  EXPECT_FALSE(agrees(ref, wrong));
}

TEST(MomentsReference, GivenNaNInfinityOrNothing_ThenNaNIsRequiredOrTheCountIsZero) {
  const std::vector<float> with_inf{1.0f, std::numeric_limits<float>::infinity()};
  const MomentsReference inf = moments_reference(Op::mean_var_f32, DataType::f32, bytes_of(with_inf), 2);
  EXPECT_TRUE(inf.nan_expected);
  EXPECT_FALSE(agrees(inf, Moments{2, std::numeric_limits<long double>::infinity(), 0}));
  EXPECT_TRUE(agrees(inf, Moments{2, std::numeric_limits<long double>::quiet_NaN(), std::numeric_limits<long double>::quiet_NaN()}));
  const MomentsReference empty = moments_reference(Op::mean_var_f32, DataType::f32, bytes_of(with_inf), 0);
  EXPECT_TRUE(agrees(empty, Moments{0, 0, 0}));
  std::array<std::byte, 24> bytes{};
  const std::uint64_t count = 5;
  const double values[2] = {1.5, 2.25};
  std::memcpy(bytes.data(), &count, 8);
  std::memcpy(bytes.data() + 8, values, 16);
  const Moments read = moments_from_bytes(Op::mean_var_f64, bytes.data());
  EXPECT_EQ(read.count, 5u);
  EXPECT_EQ(read.mean, 1.5L);
  EXPECT_EQ(read.m2, 2.25L);
}

}  // namespace
}  // namespace zr::core
