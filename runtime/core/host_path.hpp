#pragma once
// The host path: small reductions on a CPU device computed on the calling thread instead of through the
// device's queue. Below a crossover the device's fixed cost (an enqueue, a wake-up of its worker threads, a
// completion) is most of the time; the input is in host memory already, so the thread that asked reduces it.
//
// Same semantics as the kernels (spirv_kernels/src/zr_types.h): identities, integer wrap, IEEE 754-2019
// minimum/maximum with the canonical NaN and -0.0 below +0.0, f16 accumulated in f32 and rounded once, bool
// results 0 or 1. The order is fixed (kHostLanes interleaved accumulators combined pairwise), so a result is
// the same bits for the same input every time (deterministic). Reproducible sums use the binned host model
// (binned_sum.hpp), whose bits equal the kernels'.
#include <cstddef>
#include <cstdint>
#include <span>

#include "arg_reference.hpp"
#include "capabilities.hpp"
#include "scalar.hpp"
#include "strategy.hpp"

namespace zr::core {

inline constexpr std::uint64_t kHostLanes = 16;

// The requests the host path serves: the nine SYCL ops of every type, reproducible floating-point sums, and
// argmin/argmax. Not transforms, moments, user operators, binned partial states or an explicit strategy.
bool host_path_serves(const ReductionRequest& request);

// Inputs of at most this many bytes take the host path on this device (0: never): the tuning table's value for
// CPU devices over their compute units (tuning.hpp), or ZE_REDUCE_HOST_PATH_MAX_BYTES (0 turns it off); GPUs
// never.
std::uint64_t host_path_max_bytes(const Capabilities& caps);
// The same for segmented and row reductions (host_path_segments.hpp): the tuning table's own value, or the same
// environment variable.
std::uint64_t host_path_segment_max_bytes(const Capabilities& caps);

// The result: the request's identity combined with every element, then with `initial` when include_initial.
// `data` holds request.n packed elements.
Scalar host_path_reduce(const ReductionRequest& request, std::span<const std::byte> data, const Scalar& initial);

// combine(initial, result) of one element each, as the kernels fold an initial value into a result (the initial
// value first; the combine of zr_types.h, the store of the kernels): for reductions whose host variable's initial
// value the host folds in after the kernels (api/reduction_job.cpp). The element type must be its own accumulator
// type (not f16), so that the stored result is the kernels' accumulator exactly.
Scalar combine_initial(Op op, const Scalar& initial, const Scalar& result);

// argmin/argmax (request.n >= 1): the first occurrence of the extreme value, a NaN first (the canonical NaN).
ArgCandidate host_path_arg_reduce(const ReductionRequest& request, std::span<const std::byte> data);

// The most combines one element goes through (the m of the host reference's floating bound).
std::uint64_t host_path_combine_depth(std::uint64_t n);

}  // namespace zr::core
