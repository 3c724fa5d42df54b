#include "dataset_cache.hpp"

#include "input_generation.hpp"

#include <string>

namespace zr::conformance {

const Dataset& DatasetCache::get(DeviceUnderTest& dut, const ConformanceCase& c) {
  const Key key{c.device_slot, c.type, input_family(c.type, c.op, c.input), c.input, c.n, c.seed, !c.from_host_span};
  if (key_ == key) return current_;
  // Free the previous input before making the next: two of the largest would not fit.
  key_.reset();
  current_ = Dataset{};
  Dataset next;
  next.contents = std::to_string(static_cast<int>(key.type)) + ' ' + std::to_string(static_cast<int>(key.family)) + ' ' +
                  std::to_string(static_cast<int>(key.input)) + ' ' + std::to_string(key.n) + ' ' + std::to_string(key.seed);
  next.host = make_input(c.type, c.op, c.input, c.n, c.seed);
  if (key.on_device && !next.host.empty()) {
    queue& q = dut.get_queue();
    next.on_device = usm_ptr<std::byte>(static_cast<std::byte*>(q.malloc_device_bytes(next.host.size())), usm_deleter{q});
    q.memcpy(next.on_device.get(), next.host.data(), next.host.size()).wait();
  }
  current_ = std::move(next);
  key_ = key;
  return current_;
}

}  // namespace zr::conformance
