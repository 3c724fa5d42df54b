// The PoCL matrix: every (op, type) pair with every strategy, on seeded data at sizes chosen to hit the
// edges (0, 1, 2, primes, powers of two and their neighbours, sizes that are no multiple of any group size),
// with and without the initial value, compared with the host reference: exact for integers, bool and
// min/max; within the combine-depth bound of host_reference.hpp for floating sums and products.
// A strategy the device cannot run is reported as skipped with the core's reason.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_support.hpp"

namespace zr::opencl::test {
namespace {

struct Case {
  core::Op op;
  core::DataType type;
  core::Strategy strategy;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (core::Op op : core::kAllOps)
    for (core::DataType type : core::kAllDataTypes)
      if (core::is_supported(op, type))
        for (core::Strategy strategy : core::kAllStrategies) cases.push_back({op, type, strategy});
  return cases;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return std::string(core::name(info.param.op)) + "_" + std::string(core::name(info.param.type)) + "_" +
         std::string(core::name(info.param.strategy));
}

core::ReductionRequest request_for(const Case& c, std::uint64_t n) {
  core::ReductionRequest request;
  request.op = c.op;
  request.type = c.type;
  request.n = n;
  request.identity = core::known_identity(c.op, c.type);
  request.strategy = c.strategy;
  return request;
}

class Matrix : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    ZR_REQUIRE_TEST_DEVICE();
    executor_ = shared_executor();
    const auto& caps = executor_->context().capabilities();
    if (auto why = core::why_unavailable(GetParam().strategy, caps, request_for(GetParam(), 1)))
      GTEST_SKIP() << "strategy " << core::name(GetParam().strategy) << " unavailable: " << *why;
  }
  Executor* executor_ = nullptr;
};

const std::uint64_t kSizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 4095, 4096, 4097, 65537, 1000003};

TEST_P(Matrix, GivenSeededData_WhenReducedAtEdgeSizes_ThenMatchesHostReference) {
  const Case& c = GetParam();
  for (std::uint64_t n : kSizes) {
    for (bool include_initial : {false, true}) {
      const auto outcome = reduce(*executor_, c.op, c.type, n, c.strategy, include_initial, /*seed=*/n + 7);
      std::string why;
      EXPECT_TRUE(core::agrees(outcome.reference, outcome.result, &why))
          << core::name(c.op) << " " << core::name(c.type) << " strategy " << core::name(c.strategy) << " n=" << n
          << " include_initial=" << include_initial << " seed=" << n + 7 << ": " << why << "\n"
          << core::describe(outcome.plan);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PoclMatrix, Matrix, testing::ValuesIn(all_cases()), case_name);

// Special floating-point values through every strategy: NaN anywhere wins minimum/maximum and poisons sums,
// -0.0 is below +0.0, infinities are exact.
class SpecialValues : public Matrix {};

template <typename F>
std::vector<std::byte> floats_as(core::DataType type, const std::vector<double>& values) {
  std::vector<std::byte> bytes(values.size() * core::size_of(type));
  for (std::size_t i = 0; i < values.size(); ++i) {
    core::Scalar s = type == core::DataType::f16 ? core::Scalar::from(type, core::float_to_half_bits(static_cast<float>(values[i])))
                     : type == core::DataType::f32 ? core::Scalar::from(type, static_cast<float>(values[i]))
                                                   : core::Scalar::from(type, values[i]);
    std::memcpy(bytes.data() + i * s.size(), s.data(), s.size());
  }
  return bytes;
}

TEST_P(SpecialValues, GivenNaNSignedZerosAndInfinities_WhenReduced_ThenIeeeMinimumMaximumSemantics) {
  const Case& c = GetParam();
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::uint64_t n = 1001;
  std::vector<std::pair<std::string, std::vector<double>>> inputs;
  for (std::uint64_t at : {std::uint64_t{0}, n / 2, n - 1}) {
    std::vector<double> v(n, 0.5);
    v[at] = nan;
    inputs.emplace_back("NaN at " + std::to_string(at), v);
  }
  inputs.emplace_back("signed zeros, -0.0 last", std::vector<double>(n, 0.0));
  inputs.back().second.back() = -0.0;
  inputs.emplace_back("signed zeros, +0.0 first", std::vector<double>(n, -0.0));
  inputs.back().second.front() = 0.0;
  inputs.emplace_back("all -0.0", std::vector<double>(n, -0.0));
  inputs.emplace_back("+inf and finite", std::vector<double>(n, 2.0));
  inputs.back().second[n / 3] = inf;
  inputs.emplace_back("+inf and -inf", std::vector<double>(n, 1.0));
  inputs.back().second[1] = inf;
  inputs.back().second[n - 2] = -inf;

  const auto& caps = executor_->context().capabilities();
  for (const auto& [label, values] : inputs) {
    const auto data = floats_as<double>(c.type, values);
    auto request = request_for(c, n);
    request.include_initial = false;
    const auto plan = core::make_plan(caps, request, core::choose_strategy(caps, request));
    const auto result = executor_->run(plan, data, request.identity);
    const auto reference = core::host_reference(c.op, c.type, data, n, request.identity, std::nullopt, core::combine_depth(plan));
    std::string why;
    EXPECT_TRUE(core::agrees(reference, result, &why))
        << core::name(c.op) << " " << core::name(c.type) << " strategy " << core::name(c.strategy) << " input '"
        << label << "': " << why;
  }
}

std::vector<Case> special_cases() {
  std::vector<Case> cases;
  for (core::Op op : {core::Op::plus, core::Op::minimum, core::Op::maximum})
    for (core::DataType type : {core::DataType::f16, core::DataType::f32, core::DataType::f64})
      for (core::Strategy strategy : core::kAllStrategies) cases.push_back({op, type, strategy});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(PoclSpecial, SpecialValues, testing::ValuesIn(special_cases()), case_name);

}  // namespace
}  // namespace zr::opencl::test
