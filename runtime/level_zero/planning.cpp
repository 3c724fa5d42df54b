#include "level_zero/planning.hpp"

namespace zr::level_zero {

core::KernelHints kernel_hints(const Device& device, const core::KernelPass& pass) {
  const KernelEntry& kernel = device.modules().kernel(*pass.module, pass.entry_point);
  return core::KernelHints{.suggested_group_size = kernel.info.suggested_group_size,
                           .required_group_size = kernel.info.required_group_size,
                           .subgroup_size = kernel.info.max_subgroup_size};
}

core::Plan plan_for(const Device& device, const core::ReductionRequest& request) {
  const core::Capabilities& caps = device.capabilities();
  const core::StrategyChoice choice = core::choose_strategy(caps, request);
  const core::Plan draft = core::make_plan(caps, request, choice);
  const core::Tuning tuning = core::refine(core::tuning_for(caps), kernel_hints(device, draft.passes.front()));
  return core::make_plan(caps, request, choice, tuning);
}

}  // namespace zr::level_zero
