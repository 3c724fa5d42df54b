#pragma once
// The host references of one input, kept while that input's cases run. Consecutive cases share their input
// (dataset_cache.hpp) and differ by strategy and property far more often than by op or initial value, yet each
// folded the whole input again: on inputs of 2^24 elements the host reference took as long as the device's run.
// A reference depends only on the input's contents and on what the key names, so a kept one is the same
// object the fold would make again.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "arg_reference.hpp"
#include "host_reference.hpp"
#include "moments_reference.hpp"
#include "scalar.hpp"

namespace zr::conformance {

// A reproducible sum's host model (binned_sum.hpp) and, when it is beyond its bound of the exact sum, why.
struct BinnedModel {
  core::Scalar model;
  std::optional<std::string> beyond_bound;
};

class ReferenceMemo {
 public:
  // Names the input of the cases that follow (its type, kind, size and seed: what makes its contents); forgets
  // every kept reference when that is another input than before.
  void use_input(std::string input) {
    if (input == input_) return;
    kept_.clear();
    input_ = std::move(input);
  }

  // The reference that make() returns, made once per key while the input stays the same.
  template <typename Reference, typename Make>
  const Reference& get(const std::string& key, Make&& make) {
    auto found = kept_.find(key);
    if (found == kept_.end()) found = kept_.emplace(key, std::forward<Make>(make)()).first;
    return std::get<Reference>(found->second);
  }

 private:
  std::string input_;
  std::map<std::string, std::variant<core::HostReference, core::MomentsReference, core::ArgCandidate, BinnedModel>>
      kept_;
};

}  // namespace zr::conformance
