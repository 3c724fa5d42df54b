#include "device_reduction.hpp"

#include <cstring>

#include "common/type_dispatch.hpp"

namespace zr::conformance {
using tools::visit_pair;

namespace {

property_list properties_of(const ConformanceCase& c) {
  property_list props{property::reduction::use_strategy{c.strategy}};
  if (c.properties.initialize_to_identity) props = props.with(property::reduction::initialize_to_identity{});
  if (c.properties.deterministic) props = props.with(property::reduction::deterministic{});
  if (c.properties.reproducible) props = props.with(property::reduction::reproducible{});
  return props;
}

}  // namespace

DeviceRun reduce_once(queue& q, const ConformanceCase& c, const void* input, const core::Scalar& initial) {
  return visit_pair(c.type, c.op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    T variable{};
    std::memcpy(&variable, initial.data(), sizeof(T));
    const auto descriptor = reduction(&variable, Op{}, properties_of(c));
    const T* elements = static_cast<const T*>(input);
    const event done = c.from_host_span ? q.reduce(std::span<const T>(elements, c.n), descriptor)
                                        : q.reduce(elements, c.n, descriptor);
    done.wait();
    const profile& p = done.get_profile();
    DeviceRun run;
    run.result = core::Scalar::from(static_cast<core::DataType>(c.type), variable);
    if (!p.plans.empty()) {
      run.combine_depth = p.plans.front().combine_depth;
      run.strategy = p.plans.front().strategy;
    }
    return run;
  });
}

}  // namespace zr::conformance
