#include "api/interop_request.hpp"

#include <algorithm>
#include <string>

#include "data_types.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

plan_summary empty_input_summary(const core::ReductionRequest& request) {
  plan_summary summary;
  if (request.strategy) summary.strategy = static_cast<zr::strategy>(*request.strategy);
  summary.reason = "no elements: no kernel runs; the result keeps its value, or becomes the identity";
  summary.description = "no passes";
  return summary;
}

core::ReductionRequest core_request(const zr::detail::interop_request& request, std::uint64_t n, const char* who) {
  const auto type = static_cast<core::DataType>(request.type);
  const std::uint64_t element = core::size_of(type);
  if (n > UINT64_MAX / element)
    throw InvalidArgumentError(std::string(who) + ": n = " + std::to_string(n) + " elements of " +
                               std::string(core::name(type)) + " is more bytes than a 64-bit size can hold");
  core::ReductionRequest reduction;
  reduction.op = static_cast<core::Op>(request.op);
  reduction.type = type;
  reduction.n = n;
  reduction.identity = core::Scalar{type, {}};
  std::copy_n(request.identity.begin(), element, reduction.identity.bytes.begin());
  reduction.include_initial = !request.properties.initialize_to_identity();
  reduction.deterministic = request.properties.deterministic();
  reduction.reproducible = request.properties.reproducible();
  if (auto asked = request.properties.requested_strategy()) reduction.strategy = static_cast<core::Strategy>(*asked);
  return reduction;
}

}  // namespace zr::api
