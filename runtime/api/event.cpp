#include "api/event_state.hpp"

namespace zr {

namespace {
const profile& empty_profile() {
  static const profile empty;
  return empty;
}
}  // namespace

event::event(std::shared_ptr<detail::event_state> state) : state_(std::move(state)) {}

void event::wait() const {
  if (state_) state_->wait();
}

bool event::wait_for(std::chrono::nanoseconds timeout) const { return !state_ || state_->wait_for(timeout); }

bool event::is_complete() const { return !state_ || state_->is_complete(); }

const profile& event::get_profile() const { return state_ ? state_->wait() : empty_profile(); }

}  // namespace zr
