// The public face of user-defined operators (zereduce/user_operator.hpp) over core/user_operator.hpp.
#include "zereduce/user_operator.hpp"

#include <cstring>

#include "api/user_operators.hpp"
#include "zereduce/errors.hpp"

namespace zr {

namespace {
core::UserOperatorSource core_source(const user_operator_source& source) {
  if (!source.name || !source.spirv || !source.opencl_c_source)
    throw InvalidArgumentError("a user operator source needs a name, SPIR-V and OpenCL C source (use the header "
                               "zereduce_add_operator() generates)");
  return {source.name, {source.spirv, source.spirv_words}, {source.opencl_c_source, std::strlen(source.opencl_c_source)}};
}
}  // namespace

namespace api {
std::shared_ptr<const core::UserOperator> load_user_operator(const user_operator_source& source) {
  return core::load_user_operator(core_source(source));
}
}  // namespace api

user_operator_info describe(const user_operator_source& source) {
  const auto op = api::load_user_operator(source);
  return {op->name, op->element_bytes, op->accumulator_bytes, op->accumulator_alignment, op->has_identity};
}

void detail::check_user_operator(const user_operator_source& source, std::size_t element_bytes,
                                 std::size_t accumulator_bytes, std::size_t accumulator_alignment) {
  const auto op = api::load_user_operator(source);
  const std::string label = "user operator '" + op->name + "'";
  if (op->element_bytes != element_bytes)
    throw InvalidArgumentError(label + " reads " + std::to_string(op->element_bytes) +
                               "-byte elements, but the C++ element type given has " + std::to_string(element_bytes) +
                               " bytes");
  if (op->accumulator_bytes != accumulator_bytes)
    throw InvalidArgumentError(label + " has a " + std::to_string(op->accumulator_bytes) +
                               "-byte accumulator, but the C++ accumulator type given has " +
                               std::to_string(accumulator_bytes) + " bytes: declare the same fields, in the same order");
  if (op->accumulator_alignment != accumulator_alignment)
    throw InvalidArgumentError(label + "'s accumulator is aligned to " + std::to_string(op->accumulator_alignment) +
                               " bytes, the C++ accumulator type given to " + std::to_string(accumulator_alignment));
}

}  // namespace zr
