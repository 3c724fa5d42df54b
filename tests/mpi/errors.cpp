// Errors on every rank alike: a local reduction that throws on some ranks makes every rank throw the same
// class, naming the failing ranks, and leaves the ranks in step (a good allreduce follows each case).
#include <algorithm>
#include <optional>
#include <vector>
#include <zereduce/mpi.hpp>

#include "test_support.hpp"

namespace zr_mpi_test {

namespace {

enum class caught : int { nothing, invalid_argument, unsupported, backend, error, other };

const char* name_of(caught k) {
  switch (k) {
    case caught::nothing: return "nothing";
    case caught::invalid_argument: return "InvalidArgumentError";
    case caught::unsupported: return "UnsupportedError";
    case caught::backend: return "BackendError";
    case caught::error: return "zr::Error";
    case caught::other: return "another exception";
  }
  return "?";
}

struct outcome {
  caught kind = caught::nothing;
  std::string message;
};

template <typename Call>
outcome run(Call call) {
  try {
    call();
    return {};
  } catch (const zr::InvalidArgumentError& e) {
    return {caught::invalid_argument, e.what()};
  } catch (const zr::UnsupportedError& e) {
    return {caught::unsupported, e.what()};
  } catch (const zr::BackendError& e) {
    return {caught::backend, e.what()};
  } catch (const zr::Error& e) {
    return {caught::error, e.what()};
  } catch (const std::exception& e) {
    return {caught::other, e.what()};
  }
}

void expect_everywhere(context& c, const std::string& what, const outcome& got, caught expected,
                       const std::string& mention) {
  c.expect(got.kind == expected,
           what + ": caught " + name_of(got.kind) + " (" + got.message + "), expected " + name_of(expected));
  c.expect(got.message.find(mention) != std::string::npos,
           what + ": the message does not say '" + mention + "': " + got.message);
  c.expect(same_on_every_rank(c, got.kind), what + ": the ranks caught different classes");
  // The ranks are still in step: the next collective call pairs up as it should.
  const std::vector<int> mine{c.rank + 1};
  const int total = zr::mpi::allreduce(c.comm, *c.q, std::span<const int>(mine), zr::plus<>());
  c.expect(total == c.size * (c.size + 1) / 2, what + ": the allreduce after it gave " + std::to_string(total));
  c.note(what + ": " + name_of(got.kind) + " on every rank: " + got.message);
}

std::string ranks_text(const std::vector<int>& ranks, int size) {
  std::string text = ranks.size() > 1 ? "ranks " : "rank ";
  for (std::size_t i = 0; i < ranks.size(); ++i) text += (i ? ", " : "") + std::to_string(ranks[i]);
  return text + " of " + std::to_string(size);
}

// A strategy the device refuses for a plain f32 sum, if there is one.
std::optional<zr::strategy> refused_strategy(const zr::queue& q) {
  const auto allowed = q.get_device().strategies(zr::element_type::f32, zr::op_kind::plus);
  for (zr::strategy s :
       {zr::strategy::subgroup, zr::strategy::work_group, zr::strategy::global_atomics, zr::strategy::local_atomics,
        zr::strategy::last_group, zr::strategy::tree, zr::strategy::cpu_chunks})
    if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) return s;
  return std::nullopt;
}

}  // namespace

void test_errors(context& c) {
  zr::queue& q = *c.q;
  const int last = c.size - 1;
  const std::vector<float> ones(1000, 1.0f);
  const zr::usm_ptr<float> device = zr::make_device_array<float>(q, ones.size());
  q.copy(ones.data(), device.get(), ones.size()).wait();

  // A null device input with n > 0 on the last rank only.
  const float* input = c.rank == last ? nullptr : device.get();
  expect_everywhere(c, "null input on the last rank",
                    run([&] { zr::mpi::allreduce(c.comm, q, input, ones.size(), zr::plus<>()); }),
                    caught::invalid_argument, "failed on " + ranks_text({last}, c.size));

  // A strategy the device cannot run, asked for on rank 0 only.
  const std::optional<zr::strategy> refused = refused_strategy(q);
  if (refused) {
    const zr::property_list props =
        c.rank == 0 ? zr::property_list{zr::property::reduction::use_strategy{*refused}} : zr::property_list{};
    expect_everywhere(c, "a refused strategy on rank 0",
                      run([&] { zr::mpi::allreduce(c.comm, q, std::span<const float>(ones), zr::plus<>(), props); }),
                      caught::unsupported, "failed on " + ranks_text({0}, c.size));

    if (c.size > 1) {
      // Two classes at once: the worse (UnsupportedError) everywhere; rank 0 also reports its own error.
      const float* input0 = c.rank == 0 ? nullptr : device.get();
      const zr::property_list props_last =
          c.rank == last ? zr::property_list{zr::property::reduction::use_strategy{*refused}} : zr::property_list{};
      const outcome both = run([&] { zr::mpi::allreduce(c.comm, q, input0, ones.size(), zr::plus<>(), props_last); });
      if (c.rank == 0)
        c.expect(both.message.find("; rank 0: ") != std::string::npos, "rank 0's own error is not in: " + both.message);
      expect_everywhere(c, "a null input on rank 0 and a refused strategy on the last rank", both, caught::unsupported,
                        "failed on " + ranks_text({0, last}, c.size));
    }
  } else {
    c.note("the device allows every strategy for f32 plus: the refused-strategy cases are skipped");
  }

  // Refused on every rank: floating multiplies is not reproducible.
  std::vector<int> every_rank(static_cast<std::size_t>(c.size));
  for (int r = 0; r < c.size; ++r) every_rank[r] = r;
  expect_everywhere(c, "a reproducible f32 product", run([&] {
                      zr::mpi::allreduce(c.comm, q, std::span<const float>(ones), zr::multiplies<>(),
                                         {zr::property::reduction::reproducible{}});
                    }),
                    caught::unsupported, "failed on " + ranks_text(every_rank, c.size));

  if (c.size > 1) {
    // Ranks that reduce different types, or ask for reproducibility differently, would exchange data of
    // different sizes: refused on every rank before any exchange.
    const std::vector<int> ints(1000, 1);
    expect_everywhere(c, "f32 on rank 0, i32 elsewhere", run([&] {
                        if (c.rank == 0)
                          zr::mpi::allreduce(c.comm, q, std::span<const float>(ones), zr::plus<>());
                        else
                          zr::mpi::allreduce(c.comm, q, std::span<const int>(ints), zr::plus<>());
                      }),
                      caught::invalid_argument, "call it differently");
    const zr::property_list props =
        c.rank == 0 ? zr::property_list{zr::property::reduction::reproducible{}} : zr::property_list{};
    expect_everywhere(c, "reproducible on rank 0 only",
                      run([&] { zr::mpi::allreduce(c.comm, q, std::span<const float>(ones), zr::plus<>(), props); }),
                      caught::invalid_argument, "call it differently");
  }

  // A failed MPI call: MPI returns errors only under MPI_ERRORS_RETURN (errors on MPI_COMM_NULL are raised
  // on MPI_COMM_WORLD's handler).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const outcome mpi_error =
      run([&] { zr::mpi::allreduce(MPI_COMM_NULL, q, std::span<const float>(ones), zr::plus<>()); });
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  expect_everywhere(c, "MPI_COMM_NULL", mpi_error, caught::backend, "MPI: MPI_Comm_rank failed");
}

}  // namespace zr_mpi_test
