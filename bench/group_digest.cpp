// zr_group_digest: one reduction over several devices (zr::device_group). Prints JSON lines:
//   {"kind":"device", "name"}                       the group's members
//   {"kind":"digest", ...}                          the reproducible sum of each seeded input of the digest table
//       (seeded_input.hpp) made by the group with several splits ("ways"): one value whatever the split
//   {"kind":"group_speed", "type", "log2", "reproducible", "members_GBps", "group_GBps", "shares"}  wall time
//       of a blocking sum of host data by each member alone and by the group (measured weights), median of
//       --runs runs called in turn, as GB/s of input
//
//   zr_group_digest [--devices 0,1,...] [--min-log2 24] [--max-log2 28] [--runs 5]
// Without --devices: every device whose kernels execute.
#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <zereduce/zereduce.hpp>

#include "seeded_input.hpp"

namespace {

// "a,b,c" one item at a time (GCC 12 warns, wrongly, about `(first ? "" : ",") + item`).
void append(std::string& list, const std::string& item) {
  if (!list.empty()) list += ',';
  list += item;
}

struct Options {
  std::vector<zr::device> devices;
  int min_log2 = 24, max_log2 = 28, runs = 5;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--devices") {
      std::stringstream list(value);
      for (std::string index; std::getline(list, index, ',');) o.devices.push_back(zr::get_device(std::stoul(index)));
    } else if (flag == "--min-log2") {
      o.min_log2 = std::stoi(value);
    } else if (flag == "--max-log2") {
      o.max_log2 = std::stoi(value);
    } else if (flag == "--runs") {
      o.runs = std::stoi(value);
    } else {
      throw std::runtime_error("unknown option " + flag);
    }
  }
  if (o.devices.empty())
    for (const zr::device& d : zr::get_devices())
      if (d.executes_kernels()) o.devices.push_back(d);
  return o;
}

template <typename T>
T group_sum(zr::device_group& group, const std::vector<T>& data, const zr::property_list& props) {
  T sum{};
  group.reduce(std::span<const T>(data), zr::reduction(&sum, zr::plus<>(), props.with(zr::property::reduction::initialize_to_identity{}))).wait();
  return sum;
}

template <typename T>
void digest_rows(const std::vector<zr::device>& devices, const char* type) {
  const zr::property_list reproducible{zr::property::reduction::reproducible{}};
  std::vector<std::pair<std::string, zr::device_group>> splits;
  std::vector<double> even(devices.size(), 1.0), rising, falling;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    rising.push_back(static_cast<double>(i + 1));
    falling.push_back(static_cast<double>(devices.size() - i) * 3);
  }
  splits.emplace_back("even", zr::device_group(devices, even));
  splits.emplace_back("rising weights", zr::device_group(devices, rising));
  splits.emplace_back("falling weights", zr::device_group(devices, falling));
  splits.emplace_back("measured weights", zr::device_group(devices));
  for (std::uint64_t seed : zr::bench::kDigestSeeds) {
    const std::vector<T> data = zr::bench::seeded_input<T>(seed, zr::bench::kDigestElements);
    std::vector<std::uint64_t> seen;
    std::string ways;
    for (auto& [name, group] : splits) {
      seen.push_back(zr::bench::bits_of(group_sum(group, data, reproducible)));
      append(ways, name);
    }
    const bool one_value = std::all_of(seen.begin(), seen.end(), [&](std::uint64_t b) { return b == seen.front(); });
    zr::bench::print_digest_row(type, seed, seen.front(), one_value, ways);
  }
}

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void speed_rows(const Options& o) {
  zr::device_group group(o.devices);
  std::vector<zr::queue> alone;
  for (const zr::device& d : o.devices) alone.emplace_back(d);
  std::string shares;
  for (double s : group.shares()) append(shares, std::to_string(s));
  for (bool reproducible : {false, true}) {
    const zr::property_list props = reproducible ? zr::property_list{zr::property::reduction::reproducible{}}
                                                 : zr::property_list{};
    for (int log2 = o.min_log2; log2 <= o.max_log2; log2 += 2) {
      const std::vector<float> data(std::size_t{1} << log2, 0.5f);
      std::vector<std::vector<double>> member_times(alone.size());
      std::vector<double> group_times;
      for (int run = 0; run <= o.runs; ++run) {  // run 0 warms up
        for (std::size_t m = 0; m < alone.size(); ++m) {
          const double t = seconds_of([&] { alone[m].reduce_value(std::span<const float>(data), zr::plus<>(), props); });
          if (run > 0) member_times[m].push_back(t);
        }
        const double t = seconds_of([&] { group_sum(group, data, props); });
        if (run > 0) group_times.push_back(t);
      }
      const double bytes = static_cast<double>(data.size() * sizeof(float));
      std::string members;
      for (const auto& times : member_times)
        append(members, std::to_string(bytes / median(times) / 1e9));
      std::printf("{\"kind\":\"group_speed\",\"type\":\"f32\",\"log2\":%d,\"reproducible\":%s,\"members_GBps\":[%s],"
                  "\"group_GBps\":%.3f,\"shares\":[%s]}\n",
                  log2, reproducible ? "true" : "false", members.c_str(), bytes / median(group_times) / 1e9,
                  shares.c_str());
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    if (o.devices.empty()) throw std::runtime_error("no device executes kernels here");
    std::string name = "device group:";
    for (std::size_t i = 0; i < o.devices.size(); ++i) {
      name += i ? " + " : " ";
      name += o.devices[i].name();
    }
    std::printf("{\"kind\":\"device\",\"name\":\"%s\"}\n", name.c_str());
    bool fp64 = true;
    for (const zr::device& d : o.devices) fp64 = fp64 && d.capabilities().fp64;
    digest_rows<float>(o.devices, "f32");
    if (fp64) digest_rows<double>(o.devices, "f64");
    speed_rows(o);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "zr_group_digest: %s\n", error.what());
    return 1;
  }
}
