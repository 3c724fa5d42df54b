#pragma once
// A public reduction_spec as the core's ReductionRequest: shared by every kind of job.
#include <cstdint>

#include "data_types.hpp"
#include "strategy.hpp"
#include "zereduce/reduction.hpp"

namespace zr::api {

core::Scalar identity_of(const detail::reduction_spec& spec);
// The request for n elements; a later chunk (first_chunk false) always folds in the result so far.
core::ReductionRequest request_of(const detail::reduction_spec& spec, std::uint64_t n, bool first_chunk);

}  // namespace zr::api
