#include "device_selection.hpp"

#include <algorithm>
#include <cctype>

namespace zr::conformance {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool matches(const device& dev, const std::string& text) {
  const std::string haystack =
      lower(dev.description() + " " + std::string(to_string(dev.get_backend())) + " " + std::string(to_string(dev.kind())));
  return haystack.find(lower(text)) != std::string::npos;
}

}  // namespace

DeviceUnderTest::DeviceUnderTest(std::size_t index, device dev)
    : index_(index),
      device_(std::move(dev)),
      tag_("Dev" + std::to_string(index) + "_" + std::string(to_string(device_.get_backend())) + "_" +
           std::string(to_string(device_.kind()))),
      executes_kernels_(device_.executes_kernels()) {}

queue& DeviceUnderTest::get_queue() {
  if (!queue_) queue_.emplace(device_);
  return *queue_;
}

ApplicationPath& DeviceUnderTest::application() {
  if (!application_) application_ = ApplicationPath::make(device_);
  return *application_;
}

std::string list_devices() {
  std::string text;
  const auto& devices = get_devices();
  for (std::size_t i = 0; i < devices.size(); ++i)
    text += "  " + std::to_string(i) + ": " + std::string(to_string(devices[i].get_backend())) + " " +
            std::string(to_string(devices[i].kind())) + " " + devices[i].description() + "\n";
  return text.empty() ? "  (none: no Level Zero or OpenCL driver offers a device)\n" : text;
}

std::vector<DeviceUnderTest> select_devices(const std::vector<std::string>& requested) {
  const auto& devices = get_devices();
  std::vector<std::size_t> chosen;
  if (requested.empty())
    for (std::size_t i = 0; i < devices.size(); ++i) chosen.push_back(i);
  for (const std::string& entry : requested) {
    bool found = false;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const bool hit = all_digits(entry) ? entry.size() < 19 && std::stoull(entry) == i : matches(devices[i], entry);
      if (!hit) continue;
      found = true;
      if (std::find(chosen.begin(), chosen.end(), i) == chosen.end()) chosen.push_back(i);
    }
    if (!found)
      throw InvalidArgumentError("--device " + entry + " matches no device; the devices are:\n" + list_devices());
  }
  std::sort(chosen.begin(), chosen.end());
  std::vector<DeviceUnderTest> selected;
  for (std::size_t i : chosen) selected.emplace_back(i, devices[i]);
  return selected;
}

}  // namespace zr::conformance
