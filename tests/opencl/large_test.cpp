// An input of more than 2^32 one-byte elements, end to end on the OpenCL device: the 64-bit count reaches
// the kernels unchanged, and an input beyond the device's largest allocation is reduced in chunks
// (core::split_input), each folding in the previous result. Needs about 9 GB of host memory.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <span>

#include "test_support.hpp"

namespace zr::opencl::test {
namespace {

// The input in transparent huge pages where the kernel offers them: 4 GiB in 4 KiB pages is a million page faults,
// about 20 of this test's 75 s on a 2-core machine of the CI kind.
struct MappedBytes {
  std::byte* data = nullptr;
  std::uint64_t size = 0;
  explicit MappedBytes(std::uint64_t bytes) : size(bytes) {
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    madvise(mapped, bytes, MADV_HUGEPAGE);  // advice only: without huge pages the test is slower, not wrong
    data = static_cast<std::byte*>(mapped);
  }
  MappedBytes(const MappedBytes&) = delete;
  MappedBytes& operator=(const MappedBytes&) = delete;
  ~MappedBytes() { munmap(data, size); }
  std::span<std::byte> span() const { return {data, size}; }
};

TEST(LargeInput, GivenMoreThan2To32Bytes_WhenSummedAndMaxed_ThenMatchesHostReference) {
  ZR_REQUIRE_TEST_DEVICE();
  Executor& executor = *shared_executor();
  const auto& caps = executor.context().capabilities();
  const std::uint64_t n = (1ull << 32) + 1001;
  const MappedBytes mapped(n);
  const std::span<std::byte> data = mapped.span();
  // A pattern of period 199 * 256 (all values 0..198), doubled into place with memcpy to stay cheap, and a
  // single 255 near the end for maximum to find.
  const std::uint64_t period = 199 * 256;
  for (std::uint64_t i = 0; i < std::min(n, period); ++i) data[i] = static_cast<std::byte>((i * 7 + i / 199) % 199);
  for (std::uint64_t filled = period; filled < n; filled *= 2)
    std::memcpy(data.data() + filled, data.data(), std::min(filled, n - filled));
  data[n - 17] = std::byte{255};

  for (core::Op op : {core::Op::plus, core::Op::maximum}) {
    core::ReductionRequest request;
    request.op = op;
    request.type = core::DataType::u8;
    request.identity = core::known_identity(op, request.type);
    request.include_initial = true;
    core::Scalar running = core::Scalar::from<std::uint8_t>(request.type, 3);  // the initial value
    const auto chunks = core::split_input(n, request.type, caps.max_allocation_bytes);
    std::uint64_t largest = 0;
    for (const auto& chunk : chunks) {
      request.n = chunk.count;
      largest = std::max(largest, chunk.count);
      const auto plan = core::make_plan(caps, request, core::choose_strategy(caps, request));
      running = executor.run(plan, std::span(data).subspan(chunk.first, chunk.count), running);
    }
    const auto reference = core::host_reference(op, request.type, data, n, request.identity,
                                                core::Scalar::from<std::uint8_t>(request.type, 3));
    std::string why;
    EXPECT_TRUE(core::agrees(reference, running, &why)) << core::name(op) << " over " << n << " u8 in "
                                                        << chunks.size() << " chunk(s): " << why;
    RecordProperty("largest_chunk_elements", std::to_string(largest));
    if (caps.max_allocation_bytes >= (1ull << 32)) {
      EXPECT_GE(largest, 1ull << 32) << "a kernel must see a count that does not fit 32 bits";
    }
  }
  if (caps.max_allocation_bytes < (1ull << 32))
    GTEST_SKIP() << "the chunked results were checked, but the device allows only " << caps.max_allocation_bytes
                 << " bytes in one allocation, so no kernel saw a count beyond 32 bits";
}

}  // namespace
}  // namespace zr::opencl::test
