// zr_tune_sweep: the measurements behind runtime/core/tuning.cpp. Runs the default strategy's plan with
// every launch shape of a grid (work-group size x groups per compute unit x minimum elements per item) on one
// OpenCL device, through the library's own executor (internal API: plans are built with a given core::Tuning),
// and prints device time per shape, one JSON line each, plus the best shape per (type, op, n).
//
//   zr_tune_sweep [--device-type gpu|cpu] [--sizes 20,24,28,30] [--iterations 15] [--wgs 128,256,512,1024]
//                 [--per-cu 2,4,8,16,32,64] [--min-items 16,64]
//   zr_tune_sweep --reproducible 1 [...]   the same grid for reproducible f32 and f64 sums (binned plans)
//   zr_tune_sweep --latency 1 [--sizes 10,12,14,16] [--wgs ...] [--min-items ...] [--first-wgs 256,512]
// The latency mode times what a blocking reduction into a host variable costs on a queue without profiling
// (untimed run, then a blocking 4-byte read; wall clock, median of 200) and the plan's device time (profiling
// queue, median of 50) for small n, per first-pass work-group size, final work-group size (which is also the
// final-only plan's) and minimum elements per item, with final-only plans allowed up to 2^16 elements.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "identity.hpp"
#include "opencl/context.hpp"
#include "opencl/executor.hpp"
#include "opencl/selection.hpp"
#include "plan.hpp"

namespace {
using namespace zr;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
using Clock = std::chrono::steady_clock;

int sweep_latency(opencl::Context& context, opencl::Executor& executor, cl_mem input, cl_mem result,
                  const core::Tuning& base, const std::vector<int>& sizes, const std::vector<int>& final_wgs,
                  const std::vector<int>& min_items, const std::vector<int>& first_wgs) {
  const auto& caps = context.capabilities();
  for (const auto& [type, op] : {std::pair{core::DataType::f32, core::Op::plus}, std::pair{core::DataType::i32, core::Op::plus},
                                std::pair{core::DataType::f64, core::Op::minimum}}) {
    for (int log2 : sizes) {
      core::ReductionRequest request;
      request.op = op;
      request.type = type;
      request.n = 1ull << log2;
      request.identity = core::known_identity(op, type);
      request.include_initial = false;
      const auto choice = core::choose_strategy(caps, request);
      for (int first_wg : first_wgs)
        for (int final_wg : final_wgs)
          for (int m : min_items)
            for (const std::uint64_t final_only : {base.final_only_max_elements, std::uint64_t{1} << 16}) {
              core::Tuning t = base;
              t.work_group_size = static_cast<std::uint64_t>(first_wg);
              t.final_work_group_size = static_cast<std::uint64_t>(final_wg);
              t.min_elements_per_item = static_cast<std::uint64_t>(m);
              t.final_only_max_elements = final_only;
              t.max_final_inputs = std::max<std::uint64_t>(t.max_final_inputs, final_only);
              const auto plan = core::make_plan(caps, request, choice, t);
              const cl_mem results[] = {result};
              // Device time first (profiling queue, first kernel's start to last kernel's end), then the
              // blocking latency on the queue without profiling, as run_on_pointers waits for a host result.
              std::vector<double> device, wall;
              for (int i = 0; i < 60; ++i) {
                const auto profile = executor.wait(executor.enqueue(plan, input, results, opencl::Timestamps::on));
                if (i >= 10)
                  device.push_back(static_cast<double>(profile.passes.back().end_ns - profile.passes.front().start_ns) * 1e-9);
              }
              std::uint64_t value = 0;
              for (int i = 0; i < 220; ++i) {
                const auto start = Clock::now();
                auto submission = executor.enqueue(plan, input, results, opencl::Timestamps::off);
                clEnqueueReadBuffer(submission.queue, result, CL_TRUE, 0, core::size_of(type), &value, 0, nullptr,
                                    nullptr);
                submission.completed = true;
                (void)executor.wait(submission);
                if (i >= 20) wall.push_back(std::chrono::duration<double>(Clock::now() - start).count());
              }
              std::printf("{\"latency\":1,\"type\":\"%s\",\"op\":\"%s\",\"log2\":%d,\"strategy\":\"%s\",\"first_wg\":%d,"
                          "\"final_wg\":%d,\"min_items\":%d,\"final_only_max\":%lu,\"passes\":%zu,\"groups\":%lu,"
                          "\"device_us\":%.2f,\"wall_us\":%.2f}\n",
                          std::string(core::name(type)).c_str(), std::string(core::name(op)).c_str(), log2,
                          std::string(core::name(plan.strategy)).c_str(), first_wg, final_wg, m,
                          (unsigned long)final_only, plan.passes.size(), (unsigned long)plan.passes.front().group_count(),
                          median(device) * 1e6, median(wall) * 1e6);
              std::fflush(stdout);
            }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device_type = "gpu";
  std::vector<int> sizes = {20, 22, 24, 26, 28, 30};
  std::vector<int> wg_list, first_wgs, per_cu_list = {2, 4, 8, 16, 32, 64}, min_items_list = {16, 64};
  int iterations = 15;
  bool latency = false, reproducible = false;
  auto parse_list = [](const char* p) {
    std::vector<int> out;
    while (*p) {
      out.push_back(std::atoi(p));
      while (*p && *p != ',') ++p;
      if (*p) ++p;
    }
    return out;
  };
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--device-type")) device_type = argv[i + 1];
    else if (!std::strcmp(argv[i], "--iterations")) iterations = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--sizes")) sizes = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--wgs")) wg_list = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--first-wgs")) first_wgs = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--per-cu")) per_cu_list = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--min-items")) min_items_list = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--latency")) latency = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--reproducible")) reproducible = std::atoi(argv[i + 1]) != 0;
  }
  std::optional<opencl::Device> device;
  for (const auto& d : opencl::devices_by_preference(opencl::list_devices()))
    if ((device_type == "gpu") == (d.type == core::DeviceType::gpu) && opencl::probe_execution(d)) {
      device = d;
      break;
    }
  if (!device) {
    std::fprintf(stderr, "zr_tune_sweep: no OpenCL %s device that executes kernels\n", device_type.c_str());
    return 3;
  }
  opencl::Context context(*device);
  opencl::Executor executor(context);
  const auto& caps = context.capabilities();
  std::printf("# device: %s, %u compute units\n", device->description().c_str(), caps.compute_units);
  const int max_log2 = *std::max_element(sizes.begin(), sizes.end());
  const std::uint64_t max_bytes = (1ull << max_log2) * 8;
  std::vector<std::uint32_t> host(max_bytes / 4);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::uint32_t>((i * 2654435761u) % 1000) + 0x3f000000u;
  const auto input = context.create_buffer(max_bytes);
  context.write(input.get(), std::as_bytes(std::span(host)));
  const auto result = context.create_buffer(8);

  const core::Tuning base = core::tuning_for(caps);
  if (latency) {
    if (first_wgs.empty()) first_wgs = {static_cast<int>(base.work_group_size)};
    if (wg_list.empty()) wg_list = {static_cast<int>(base.final_work_group_size)};
    return sweep_latency(context, executor, input.get(), result.get(), base, sizes, wg_list, min_items_list, first_wgs);
  }
  if (wg_list.empty()) wg_list = caps.type == core::DeviceType::cpu ? std::vector<int>{64} : std::vector<int>{128, 256, 512, 1024};
  const std::vector<std::uint64_t> wgs(wg_list.begin(), wg_list.end());
  const std::vector<std::uint64_t> per_cu(per_cu_list.begin(), per_cu_list.end());
  const std::vector<std::uint64_t> min_items(min_items_list.begin(), min_items_list.end());
  struct Case {
    core::DataType type;
    core::Op op;
  };
  const std::vector<Case> cases =
      reproducible ? std::vector<Case>{{core::DataType::f32, core::Op::plus}, {core::DataType::f64, core::Op::plus}}
                   : std::vector<Case>{{core::DataType::f32, core::Op::plus}, {core::DataType::f32, core::Op::maximum},
                                       {core::DataType::f64, core::Op::plus}, {core::DataType::i32, core::Op::plus},
                                       {core::DataType::i32, core::Op::minimum}};
  for (const Case c : cases) {
    for (int log2 : sizes) {
      const std::uint64_t n = 1ull << log2;
      core::ReductionRequest request;
      request.op = c.op;
      request.type = c.type;
      request.n = n;
      request.identity = core::known_identity(c.op, c.type);
      request.include_initial = false;
      request.reproducible = request.deterministic = reproducible;
      const auto choice = core::choose_strategy(caps, request);
      double best = 1e30, base_time = 0;
      std::string best_shape;
      for (std::uint64_t wg : wgs)
        for (std::uint64_t g : per_cu)
          for (std::uint64_t m : min_items) {
            core::Tuning t = base;
            t.work_group_size = wg;
            t.groups_per_compute_unit = g;
            t.min_elements_per_item = m;
            t.wave_groups_per_compute_unit = 0;  // the plain rule: groups = n / (wg x m), at most CUs x g
            t.wave_elements_per_item = 0;
            const auto plan = core::make_plan(caps, request, choice, t);
            std::vector<double> s, first_pass;
            for (int i = 0; i < iterations + 2; ++i) {
              const auto profile = executor.run(plan, input.get(), result.get());
              if (i < 2) continue;
              s.push_back(profile.total_ns() * 1e-9);
              first_pass.push_back(profile.passes.front().duration_ns() * 1e-9);
            }
            const double med = median(s);
            const double gbps = n * core::size_of(c.type) / med * 1e-9;
            const bool is_base = wg == base.work_group_size && g == base.groups_per_compute_unit &&
                                 m == base.min_elements_per_item && base.wave_groups_per_compute_unit == 0;
            if (is_base) base_time = med;
            std::printf("{\"type\":\"%s\",\"op\":\"%s\",\"log2\":%d,\"strategy\":\"%s\",\"wg\":%lu,\"groups_per_cu\":%lu,"
                        "\"min_items\":%lu,\"groups\":%lu,\"local\":%lu,\"device_s\":%.9g,\"first_pass_s\":%.9g,\"gbps\":%.1f}\n",
                        std::string(core::name(c.type)).c_str(), std::string(core::name(c.op)).c_str(), log2,
                        std::string(core::name(choice.strategy)).c_str(), (unsigned long)wg, (unsigned long)g,
                        (unsigned long)m, (unsigned long)plan.passes.front().group_count(),
                        (unsigned long)plan.passes.front().local_size, med, median(first_pass), gbps);
            if (med < best) {
              best = med;
              best_shape = "wg " + std::to_string(wg) + ", groups/CU " + std::to_string(g) + ", min items " + std::to_string(m);
            }
          }
      const double bytes = static_cast<double>(n * core::size_of(c.type));
      std::printf("# BEST %s %s 2^%d: %s: %.1f GB/s; current tuning %.1f GB/s\n", std::string(core::name(c.type)).c_str(),
                  std::string(core::name(c.op)).c_str(), log2, best_shape.c_str(), bytes / best * 1e-9,
                  base_time > 0 ? bytes / base_time * 1e-9 : 0.0);
      std::fflush(stdout);
    }
  }
}
