#pragma once
// What a job adds to its event's profile: a backend run's passes and copies, and the copies the job makes.
#include <cstdint>
#include <string>
#include <string_view>

#include "api/backend_device.hpp"
#include "profile.hpp"
#include "zereduce/event.hpp"

namespace zr::api {

void add_run(profile& out, core::RunProfile run);

// The reason a host-path summary gives: "host path: <bytes> bytes on a CPU device, at most <limit> take the
// calling thread (<where>)", made with one allocation (it is made on every small call).
std::string host_path_reason(std::uint64_t bytes, std::uint64_t limit, std::string_view where);

// A blocking copy the runtime makes, timed on the host clock and listed in the profile.
void timed_copy(BackendDevice& device, profile& out, std::string label, void* destination, const void* source,
                std::uint64_t bytes);

}  // namespace zr::api
