// Waits handed to a BlockingWaitHelper keep their deadline: user events stand for commands that finish
// late, fail, or never finish.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "opencl/blocking_wait_helper.hpp"
#include "opencl/event_wait.hpp"
#include "opencl/handles.hpp"
#include "test_support.hpp"

namespace zr::opencl {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

class BlockingWait : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = test::shared_context();
    if (context_ == nullptr) GTEST_SKIP() << "no OpenCL CPU device here (apt-get install pocl-opencl-icd)";
  }
  cl_event user_event() {
    cl_int code = CL_SUCCESS;
    cl_event event = clCreateUserEvent(context_->handle(), &code);
    EXPECT_EQ(code, CL_SUCCESS);
    return event;
  }
  Context* context_ = nullptr;
};

TEST_F(BlockingWait, GivenAnEventCompletedLater_WhenWaitedThroughTheHelper_ThenCompleteOnceItIsSet) {
  BlockingWaitHelper helper;
  cl_event event = user_event();
  std::thread completer([event] {
    std::this_thread::sleep_for(50ms);
    clSetUserEventStatus(event, CL_COMPLETE);
  });
  const auto start = clock_type::now();
  const EventWait waited = wait_for_event(event, 10s, 0us, &helper);
  const auto took = clock_type::now() - start;
  completer.join();
  EXPECT_EQ(waited.outcome, EventWait::Outcome::complete);
  EXPECT_GE(took, 45ms);
  EXPECT_LT(took, 5s);
  clReleaseEvent(event);
}

TEST_F(BlockingWait, GivenAFailedEvent_WhenWaitedThroughTheHelper_ThenFailedWithItsStatus) {
  BlockingWaitHelper helper;
  cl_event event = user_event();
  std::thread failer([event] {
    std::this_thread::sleep_for(20ms);
    clSetUserEventStatus(event, CL_OUT_OF_RESOURCES);
  });
  const EventWait waited = wait_for_event(event, 10s, 0us, &helper);
  failer.join();
  EXPECT_EQ(waited.outcome, EventWait::Outcome::failed);
  EXPECT_EQ(waited.code, CL_OUT_OF_RESOURCES);
  clReleaseEvent(event);
}

TEST_F(BlockingWait, GivenAnEventThatNeverCompletes_WhenWaitedThroughTheHelper_ThenTimedOutAtTheDeadlineAndLaterWaitsPoll) {
  auto helper = std::make_unique<BlockingWaitHelper>();
  cl_event stuck = user_event();
  const auto start = clock_type::now();
  const EventWait waited = wait_for_event(stuck, 200ms, 0us, helper.get());
  const auto took = clock_type::now() - start;
  EXPECT_EQ(waited.outcome, EventWait::Outcome::timed_out);
  EXPECT_GE(took, 200ms);
  EXPECT_LT(took, 3s);

  // The helper thread still blocks on the first event: a later wait polls, and still sees completion.
  cl_event done = user_event();
  clSetUserEventStatus(done, CL_COMPLETE);
  EXPECT_EQ(wait_for_event(done, 1s, 0us, helper.get()).outcome, EventWait::Outcome::complete);
  cl_event never = user_event();
  EXPECT_EQ(wait_for_event(never, 100ms, 0us, helper.get()).outcome, EventWait::Outcome::timed_out);

  helper.reset();  // detaches the blocked thread rather than joining it (it must not hang here)
  clSetUserEventStatus(stuck, CL_COMPLETE);  // lets the detached thread finish
  clSetUserEventStatus(never, CL_COMPLETE);
  for (cl_event event : {stuck, done, never}) clReleaseEvent(event);
}

}  // namespace
}  // namespace zr::opencl
