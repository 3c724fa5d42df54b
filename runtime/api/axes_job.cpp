#include "api/axes_job.hpp"

#include <string>

#include "api/memory_checks.hpp"
#include "data_types.hpp"
#include "zereduce/errors.hpp"

namespace zr::api {

namespace {

bool plain_op(op_kind op) {
  const auto core_op = static_cast<core::Op>(op);
  return !core::is_arg_op(core_op) && !core::is_transform_op(core_op) && !core::is_moments_op(core_op) &&
         !core::is_user_op(core_op);
}

}  // namespace

AxesJob::AxesJob(BackendDevice& device, const void* input, bool host_input, std::span<const std::uint64_t> shape,
                 std::span<const std::int64_t> axes, const detail::reduction_spec& spec, core::Timestamps timestamps)
    : device_(device),
      input_(input),
      host_input_(host_input),
      spec_(spec),
      timestamps_(timestamps),
      axes_(core::reduce_axes_of(shape, axes)),
      element_(core::size_of(static_cast<core::DataType>(spec.type))) {
  const std::string what = std::string(to_string(spec.op)) + " over axes " + core::tuple_text(axes) + " of an array of shape " +
                           axes_.shape_text;
  if (spec.properties.requested_strategy())
    throw UnsupportedError(what + ": reductions over axes choose their plans; a strategy cannot be asked for");
  const bool one_pass_of_rows = axes_.passes.size() == 1 && axes_.passes.front().rows();
  if (!one_pass_of_rows && !plain_op(spec.op))
    throw UnsupportedError(what + ": argmin/argmax, transforms and user operators reduce the last axes only (one "
                           "segmented reduction of rows); move the reduced axes last first, e.g. with numpy.moveaxis");
  if (!one_pass_of_rows && spec.properties.reproducible())
    throw UnsupportedError(what + ": reproducible sums over axes reduce the last axes only (the bits of one sum per "
                           "result); move the reduced axes last first");
  if (!one_pass_of_rows && spec.has_user_identity)
    throw UnsupportedError(what + ": a user identity is taken only where the reduced axes are the last ones");
  if (axes_.passes.empty()) return;  // no results: nothing to read or write
  for (std::size_t p = 0; p + 1 < axes_.passes.size(); ++p)
    temporaries_.emplace_back(device_, memory_kind::device, axes_.passes[p].outer * axes_.passes[p].inner * element_);
  first_.emplace(make_job(0, 0, input_, host_input_));
  // The input and the results as a whole (a pass's first reduction checks only its own block).
  if (!host_input_ && axes_.elements > 0)
    is_host_range(device_, input_, axes_.elements * element_, what + ": the input", false);
}

void* AxesJob::target_of(std::size_t p) const {
  return p + 1 < axes_.passes.size() ? temporaries_[p].get() : spec_.var;
}

AxesJob::SubJob AxesJob::make_job(std::size_t p, std::uint64_t block, const void* source, bool host_source) const {
  const core::AxesPass& pass = axes_.passes[p];
  detail::reduction_spec spec = spec_;
  // Every pass but the last starts from the identity; the last folds after the results' values as asked.
  if (p + 1 < axes_.passes.size()) spec.properties = spec.properties.with(property::reduction::initialize_to_identity{});
  if (pass.rows()) {
    spec.var = target_of(p);
    return SubJob(std::in_place_type<SegmentedJob>, device_, source, pass.outer * pass.extent, host_source,
                  detail::segment_source{nullptr, 0, false, pass.outer, pass.extent}, spec, timestamps_);
  }
  spec.var = static_cast<std::byte*>(target_of(p)) + block * pass.inner * element_;
  spec.columns = pass.inner;
  const void* block_input = static_cast<const std::byte*>(source) + block * pass.extent * pass.inner * element_;
  return SubJob(std::in_place_type<ReductionJob>, device_, block_input, spec_.type, pass.extent * pass.inner,
                host_source, std::span(&spec, 1), timestamps_);
}

void AxesJob::execute(profile& out) {
  const void* source = input_;
  bool host_source = host_input_;
  for (std::size_t p = 0; p < axes_.passes.size(); ++p) {
    const std::uint64_t blocks = axes_.passes[p].rows() ? 1 : axes_.passes[p].outer;
    for (std::uint64_t block = 0; block < blocks; ++block) {
      if (p == 0 && block == 0) {
        std::visit([&](auto& job) { job.execute(out); }, *first_);
        continue;
      }
      SubJob job = make_job(p, block, source, host_source);
      std::visit([&](auto& j) { j.execute(out); }, job);
    }
    source = target_of(p);
    host_source = false;
  }
}

}  // namespace zr::api
