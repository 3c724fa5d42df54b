// zr::device_group: each member reduces its part of the input on its own queue (so the parts run at the same
// time), then one coordinating worker waits for them, combines their results on the host and writes the
// reduction variable. The split is core::split_by_weights; the combine is the host model of the binned sum
// for reproducible floating sums, else the host reference's fold of the members' values.
#include "zereduce/device_group.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>

#include "api/queue_impl.hpp"
#include "binned_sum.hpp"
#include "host_reference.hpp"
#include "log.hpp"
#include "shares.hpp"
#include "zereduce/errors.hpp"
#include "zereduce/queue.hpp"
#include "zereduce/reproducible_partial.hpp"

namespace zr {

namespace detail {

class device_group_impl {
 public:
  device_group_impl(std::vector<device> members, std::vector<double> member_weights)
      : devices(std::move(members)), weights(std::move(member_weights)) {
    for (const device& d : devices) queues.emplace_back(d);
    // Host work only (waits and the combine): its device is never used.
    coordinator = std::make_unique<queue_impl>(devices.front(), false);
  }
  std::vector<device> devices;
  std::vector<double> weights;
  std::vector<queue> queues;
  std::unique_ptr<queue_impl> coordinator;
};

}  // namespace detail

namespace {

// Bytes per second of a 16 MiB f32 host-array sum on `d`, after one warm-up run (module builds, first
// allocation), best of three: what a member's part of a host input costs there, copies included.
double measured_throughput(const device& d) {
  static std::mutex mutex;
  static std::map<const detail::device_impl*, double> measured;
  std::lock_guard lock(mutex);
  if (auto found = measured.find(d.impl().get()); found != measured.end()) return found->second;
  queue q(d);
  const std::vector<float> data(std::size_t{1} << 22, 1.0f);
  q.reduce_value(std::span<const float>(data), plus<>());
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    q.reduce_value(std::span<const float>(data), plus<>());
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    best = std::max(best, static_cast<double>(data.size() * sizeof(float)) / std::max(seconds.count(), 1e-9));
  }
  logger().debug("device group: '{}' sums a 16 MiB host array at {:.1f} GB/s", d.name(), best / 1e9);
  return measured[d.impl().get()] = best;
}

std::vector<double> checked_weights(const std::vector<device>& devices, std::vector<double> weights) {
  if (devices.empty()) throw InvalidArgumentError("a device group needs at least one device");
  if (weights.empty()) {
    for (const device& d : devices) weights.push_back(measured_throughput(d));
  } else if (weights.size() != devices.size()) {
    throw InvalidArgumentError("a device group of " + std::to_string(devices.size()) + " devices was given " +
                               std::to_string(weights.size()) + " weights: give one per device, or none to measure them");
  }
  core::split_by_weights(0, weights);  // the same checks as every later split
  return weights;
}

// A member's error, rethrown with its class and with the member named. Driver errors name their device
// already and carry fields (call, code) that a new message would lose: those go on as they are.
[[noreturn]] void rethrow_for_member(std::exception_ptr error, std::size_t index, const device& member,
                                     const core::InputChunk& part) {
  const std::string where = "device group member " + std::to_string(index) + " ('" + member.name() +
                            "', elements [" + std::to_string(part.first) + ", " +
                            std::to_string(part.first + part.count) + ")): ";
  try {
    std::rethrow_exception(error);
  } catch (const BackendError&) {
    throw;
  } catch (const InvalidArgumentError& e) {
    throw InvalidArgumentError(where + e.what());
  } catch (const UnsupportedError& e) {
    throw UnsupportedError(where + e.what());
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
}

// What the members leave for the combine: a partial sum or a value each (only members with a part run).
struct MemberResults {
  std::vector<std::size_t> members;
  std::vector<core::InputChunk> parts;
  std::vector<event> events;
  std::vector<detail::partial_words> partials;
  std::vector<std::array<std::byte, 8>> values;
};

core::Scalar scalar_of(core::DataType type, const void* bytes) {
  core::Scalar value{type, {}};
  std::memcpy(value.bytes.data(), bytes, core::size_of(type));
  return value;
}

}  // namespace

device_group::device_group(std::vector<device> devices, std::vector<double> weights) {
  std::vector<double> checked = checked_weights(devices, std::move(weights));
  impl_ = std::make_shared<detail::device_group_impl>(std::move(devices), std::move(checked));
}

const std::vector<device>& device_group::devices() const { return impl_->devices; }
const std::vector<double>& device_group::weights() const { return impl_->weights; }

std::vector<double> device_group::shares() const {
  const double total = std::accumulate(impl_->weights.begin(), impl_->weights.end(), 0.0);
  std::vector<double> fractions;
  for (double w : impl_->weights) fractions.push_back(w / total);
  return fractions;
}

event device_group::submit(const void* input, element_type type, std::uint64_t n, const detail::reduction_spec& spec) {
  const auto core_type = static_cast<core::DataType>(type);
  const std::size_t element = core::size_of(core_type);
  if (!spec.var) throw InvalidArgumentError("device group: the reduction variable is nullptr");
  if (spec.columns != 1)
    throw UnsupportedError("device group: array reductions are not offered across devices: reduce the columns on "
                           "one device, or each column on its own");
  if (n > 0 && !input) throw InvalidArgumentError("device group: the input is nullptr but n = " + std::to_string(n));
  for (std::size_t i = 0; i < impl_->queues.size(); ++i)
    if (impl_->queues[i].pointer_kind(spec.var) != memory_kind::unknown)
      throw InvalidArgumentError("device group: the reduction variable is an allocation of member " +
                                 std::to_string(i) + " ('" + impl_->devices[i].name() +
                                 "'): the host writes the combined result, so give ordinary host memory");

  const bool binned = spec.properties.reproducible() && spec.op == op_kind::plus && core::is_floating(core_type);
  const auto parts = core::split_by_weights(n, impl_->weights);
  auto results = std::make_shared<MemberResults>();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].count == 0) continue;
    results->members.push_back(i);
    results->parts.push_back(parts[i]);
  }
  if (results->members.empty()) {  // n = 0: the first member reduces nothing, as one device would
    results->members.push_back(0);
    results->parts.push_back({0, 0});
  }
  results->partials.resize(results->members.size());
  results->values.resize(results->members.size());

  // Each member's part starts from the identity; the variable's initial value joins once, in the combine.
  for (std::size_t k = 0; k < results->members.size(); ++k) {
    const std::size_t member = results->members[k];
    detail::reduction_spec part_spec = spec;
    part_spec.properties = spec.properties.with(property::reduction::initialize_to_identity{});
    part_spec.partial = binned;
    part_spec.var = binned ? static_cast<void*>(&results->partials[k]) : static_cast<void*>(results->values[k].data());
    const auto* part_input = static_cast<const std::byte*>(input) + (input ? results->parts[k].first * element : 0);
    try {
      results->events.push_back(impl_->queues[member].submit(part_input, type, results->parts[k].count, true,
                                                              std::span(&part_spec, 1)));
    } catch (...) {
      const std::exception_ptr error = std::current_exception();
      // The parts already submitted write into `results`: let them finish first (their errors are this one's).
      for (const event& submitted : results->events) {
        try {
          submitted.wait();
        } catch (const std::exception&) {
        }
      }
      rethrow_for_member(error, member, impl_->devices[member], results->parts[k]);
    }
  }

  auto impl = impl_;  // the members' queues stay alive until the combine has run
  const detail::reduction_spec combined_spec = spec;
  return event(impl_->coordinator->submit([impl, results, combined_spec, core_type, binned](profile& out) {
    std::optional<std::size_t> failed;
    std::exception_ptr first_error;
    for (std::size_t k = 0; k < results->events.size(); ++k) {
      try {
        const profile& part = results->events[k].get_profile();
        const std::string member = "member " + std::to_string(results->members[k]) + ": ";
        for (pass_profile pass : part.passes) {
          pass.label = member + pass.label;
          out.passes.push_back(std::move(pass));
        }
        out.plans.insert(out.plans.end(), part.plans.begin(), part.plans.end());
        out.kernel_ns += part.kernel_ns;
        out.copy_ns += part.copy_ns;
        out.timestamps_valid = out.timestamps_valid && part.timestamps_valid;
      } catch (...) {
        if (!failed) {
          failed = k;
          first_error = std::current_exception();
        }
      }
    }
    if (failed) {
      const std::size_t member = results->members[*failed];
      rethrow_for_member(first_error, member, impl->devices[member], results->parts[*failed]);
    }

    const bool include_initial = !combined_spec.properties.initialize_to_identity();
    if (binned) {
      detail::partial_words total{};
      for (const auto& partial : results->partials) detail::merge_partial(total, partial);
      if (include_initial) detail::add_to_partial(total, combined_spec.type, combined_spec.var);
      detail::round_partial(total, combined_spec.type, combined_spec.var);
      return;
    }
    const std::size_t element = core::size_of(core_type);
    std::vector<std::byte> packed(results->values.size() * element);
    for (std::size_t k = 0; k < results->values.size(); ++k)
      std::memcpy(packed.data() + k * element, results->values[k].data(), element);
    core::Scalar identity{core_type, {}};
    std::copy(combined_spec.identity.begin(), combined_spec.identity.end(), identity.bytes.begin());
    std::optional<core::Scalar> initial;
    if (include_initial) initial = scalar_of(core_type, combined_spec.var);
    const core::HostReference combined = core::host_reference(static_cast<core::Op>(combined_spec.op), core_type, packed,
                                                              results->values.size(), identity, initial);
    std::memcpy(combined_spec.var, combined.value.data(), element);
  }));
}

}  // namespace zr
