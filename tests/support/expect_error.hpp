#pragma once
// expect_error<zr::SomeError>(call, "fragment"): the call throws that error type (or one derived from it) with a
// message that contains the fragment; no error, another type or another message fails the test.
// thrown_message<zr::SomeError>(call): the message of that error, for tests that compare it with another call's;
// no error or another type fails the test (and gives "").
#include <gtest/gtest.h>

#include <exception>
#include <string>

namespace zr_test {

template <typename Exception, typename F>
void expect_error(F&& call, const std::string& fragment) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one mentioning '" << fragment << "'";
  } catch (const Exception& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "wrong exception type: " << error.what();
  }
}

template <typename Exception, typename F>
std::string thrown_message(F&& call) {
  try {
    call();
  } catch (const Exception& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "wrong exception type: " << error.what();
    return {};
  }
  ADD_FAILURE() << "no exception";
  return {};
}

}  // namespace zr_test
