#pragma once
// What every kind of run of ze_reduce shares (reduce_run.cpp for the SYCL ops, arg_run.cpp for argmin/argmax,
// transform_run.cpp for transform-reductions and means and variances):
// the properties the options ask for, where the kernels read the input, and the warm-up and timed runs with
// their profiles. Kept in one place so that both kinds are timed and placed exactly alike, and their numbers
// compare.
#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "options.hpp"
#include "progress.hpp"
#include "reduce_run.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

inline std::uint64_t elapsed_ns(std::chrono::steady_clock::time_point since) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - since).count());
}

inline zr::property_list properties_of(const Options& options) {
  zr::property_list props;
  if (options.initialize_to_identity) props = props.with(zr::property::reduction::initialize_to_identity{});
  if (options.deterministic) props = props.with(zr::property::reduction::deterministic{});
  if (options.reproducible) props = props.with(zr::property::reduction::reproducible{});
  if (options.strategy) props = props.with(zr::property::reduction::use_strategy{*options.strategy});
  return props;
}

// The input where the kernels read it: a device allocation holding a copy, or the host data itself when it is
// larger than one device allocation (the library then copies it chunk by chunk in every run, and merges the
// chunks' results itself: for argmin/argmax it offsets each chunk's index by the chunk's first element).
template <typename T>
struct DeviceInput {
  zr::usm_ptr<T> copy;
  const T* host = nullptr;
  std::uint64_t n = 0;

  bool on_device() const { return copy != nullptr || n == 0; }

  zr::event reduce(zr::queue& queue, zr::reduction_descriptor<T> reduction) const {
    if (on_device()) return queue.reduce(static_cast<const T*>(copy.get()), n, reduction);
    return queue.reduce(std::span<const T>(host, n), reduction);
  }

  template <typename Transform>
  zr::event transform(zr::queue& queue, Transform transform, zr::transform_result_t<Transform, T>* result,
                      const zr::property_list& props) const {
    if (on_device()) return queue.transform_reduce(static_cast<const T*>(copy.get()), n, transform, result, props);
    return queue.transform_reduce(std::span<const T>(host, n), transform, result, props);
  }

  zr::event arg(zr::queue& queue, bool largest, zr::arg_result<T>* result, const zr::property_list& props) const {
    if (on_device())
      return largest ? queue.argmax(static_cast<const T*>(copy.get()), n, result, props)
                     : queue.argmin(static_cast<const T*>(copy.get()), n, result, props);
    const std::span<const T> data(host, n);
    return largest ? queue.argmax(data, result, props) : queue.argmin(data, result, props);
  }
};

template <typename T>
DeviceInput<T> place_input(zr::queue& queue, const Workload& workload, std::uint64_t& upload_ns) {
  DeviceInput<T> input;
  input.host = reinterpret_cast<const T*>(workload.data.data());
  input.n = workload.n;
  const std::uint64_t bytes = workload.n * sizeof(T);
  if (bytes == 0 || bytes > queue.get_device().capabilities().max_allocation_bytes) return input;
  input.copy = zr::make_device_array<T>(queue, workload.n);
  const auto start = std::chrono::steady_clock::now();
  queue.copy(input.host, input.copy.get(), workload.n).wait();
  upload_ns = elapsed_ns(start);
  return input;
}

// options.warmup untimed runs, then options.iterations timed ones: `prepare()` resets the result variables
// (outside the timed span), `submit()` starts one run and returns its event. The timed runs' times and the last
// one's plans and passes land in `outcome`.
template <typename Prepare, typename Submit>
void run_timed(const Options& options, const Workload& workload, Progress& progress, RunOutcome& outcome,
               Prepare&& prepare, Submit&& submit) {
  const std::string what = " (" + std::to_string(workload.n) + " x " + std::string(core::name(workload.type)) + ")";
  const std::uint64_t runs = options.warmup + options.iterations;
  for (std::uint64_t run = 0; run < runs; ++run) {
    const bool timed = run >= options.warmup;
    progress.update((timed ? "run " + std::to_string(run - options.warmup + 1) + " of " +
                                 std::to_string(options.iterations)
                           : "warm-up " + std::to_string(run + 1) + " of " + std::to_string(options.warmup)) +
                    what);
    prepare();
    const auto start = std::chrono::steady_clock::now();
    const zr::event done = submit();
    const zr::profile& profile = done.get_profile();
    const std::uint64_t wall = elapsed_ns(start);
    if (!timed) continue;
    outcome.timings.push_back({wall, profile.kernel_ns, profile.copy_ns, profile.timestamps_valid});
    outcome.plans = profile.plans;
    outcome.last_passes = profile.passes;
  }
}

}  // namespace zr::cli
