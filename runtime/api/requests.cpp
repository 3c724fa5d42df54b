#include "api/requests.hpp"

#include <algorithm>

#include "api/user_operators.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

core::Scalar identity_of(const detail::reduction_spec& spec) {
  core::Scalar identity{static_cast<core::DataType>(spec.type), {}};
  std::copy(spec.identity.begin(), spec.identity.end(), identity.bytes.begin());
  return identity;
}

core::ReductionRequest request_of(const detail::reduction_spec& spec, std::uint64_t n, bool first_chunk) {
  core::ReductionRequest request;
  request.op = static_cast<core::Op>(spec.op);
  request.type = static_cast<core::DataType>(spec.type);
  request.n = n;
  request.identity = identity_of(spec);
  request.include_initial = !first_chunk || !spec.properties.initialize_to_identity();
  request.deterministic = spec.properties.deterministic();
  request.reproducible = spec.properties.reproducible();
  request.binned_state_output = spec.partial;
  if (auto s = spec.properties.requested_strategy()) request.strategy = static_cast<core::Strategy>(*s);
  if (request.op == core::Op::user) {
    if (!spec.user)
      throw InvalidArgumentError("zr::user_reduction names a kernel's reducer of its own: it goes to queue::parallel_for, "
                                 "not to reductions of an input");
    request.user_operator = load_user_operator(*spec.user);
  }
  if (request.op == core::Op::count_equal) {
    request.transform_value = core::Scalar{request.type, {}};
    std::copy(spec.operand.begin(), spec.operand.end(), request.transform_value.bytes.begin());
  }
  return request;
}

}  // namespace zr::api
