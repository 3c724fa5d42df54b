#pragma once
// The public zr::user_operator_source as the core's checked operator.
#include <memory>

#include "user_operator.hpp"
#include "zereduce/user_operator.hpp"

namespace zr::api {
// Throws InvalidArgumentError for an incomplete source or an operator the core refuses (user_operator.hpp).
std::shared_ptr<const core::UserOperator> load_user_operator(const user_operator_source& source);
}  // namespace zr::api
