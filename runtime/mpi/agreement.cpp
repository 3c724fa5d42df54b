// Errors on every rank alike: before any result is exchanged, every rank learns whether every other rank's
// local reduction succeeded and is about to exchange the same kind of data. A rank that threw still takes
// part in this exchange, so no rank is left waiting in an allreduce that the failed rank never enters.
#include <algorithm>
#include <array>
#include <climits>
#include <exception>
#include <string>
#include <vector>

#include "mpi_call.hpp"
#include "zereduce/errors.hpp"
#include "zereduce/mpi.hpp"

namespace zr::mpi::detail {

namespace {

constexpr int kInvalidArgument = 1;
constexpr int kUnsupported = 2;
constexpr int kOther = 3;

int encoded(call_signature s) {
  return static_cast<int>(s.type) << 8 | static_cast<int>(s.op) << 1 | (s.partial ? 1 : 0);
}

std::string described(int code) {
  const auto type = static_cast<element_type>(code >> 8);
  const auto op = static_cast<op_kind>((code >> 1) & 0x7f);
  std::string text = std::string(to_string(op)) + " over " + std::string(to_string(type));
  if (code & 1) text += " (reproducible)";
  return text;
}

std::string rank_list(const std::vector<int>& ranks) {
  std::string text;
  for (int r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

[[noreturn]] void throw_as(int code, const std::string& message) {
  if (code == kInvalidArgument) throw InvalidArgumentError(message);
  if (code == kUnsupported) throw UnsupportedError(message);
  throw Error(message);
}

// Every rank receives the message of rank `root`.
std::string broadcast_message(MPI_Comm comm, int root, int rank, const std::string& message) {
  int length = rank == root ? static_cast<int>(std::min<std::size_t>(message.size(), INT_MAX)) : 0;
  check(MPI_Bcast(&length, 1, MPI_INT, root, comm), "MPI_Bcast");
  std::string text = rank == root ? message.substr(0, static_cast<std::size_t>(length))
                                  : std::string(static_cast<std::size_t>(length), '\0');
  check(MPI_Bcast(text.data(), length, MPI_CHAR, root, comm), "MPI_Bcast");
  return text;
}

}  // namespace

local_outcome outcome_of_current_exception() {
  try {
    throw;
  } catch (const InvalidArgumentError& e) {
    return {kInvalidArgument, e.what()};
  } catch (const UnsupportedError& e) {
    return {kUnsupported, e.what()};
  } catch (const std::exception& e) {
    return {kOther, e.what()};
  } catch (...) {
    return {kOther, "an exception that is not a std::exception"};
  }
}

void agree(MPI_Comm comm, call_signature signature, const local_outcome& outcome) {
  int rank = 0, size = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const std::array<int, 2> mine{outcome.code, encoded(signature)};
  std::vector<int> all(2 * static_cast<std::size_t>(size));
  check(MPI_Allgather(mine.data(), 2, MPI_INT, all.data(), 2, MPI_INT, comm), "MPI_Allgather");

  std::vector<int> failed;
  int highest = 0;
  for (int r = 0; r < size; ++r) {
    const int code = all[2 * static_cast<std::size_t>(r)];
    if (code != 0) failed.push_back(r);
    highest = std::max(highest, code);
  }
  if (highest != 0) {
    // Every rank throws the class of the highest code, with the message of the first rank that threw it.
    int root = 0;
    while (all[2 * static_cast<std::size_t>(root)] != highest) ++root;
    std::string message = "zr::mpi::allreduce: the local reduction failed on rank" +
                          std::string(failed.size() > 1 ? "s " : " ") + rank_list(failed) + " of " +
                          std::to_string(size) + "; rank " + std::to_string(root) + ": " +
                          broadcast_message(comm, root, rank, outcome.message);
    if (outcome.code != 0 && rank != root) message += "; rank " + std::to_string(rank) + ": " + outcome.message;
    throw_as(highest, message);
  }

  std::vector<int> differing;
  for (int r = 1; r < size; ++r)
    if (all[2 * static_cast<std::size_t>(r) + 1] != all[1]) differing.push_back(r);
  if (!differing.empty()) {
    const int first = differing.front();
    throw InvalidArgumentError("zr::mpi::allreduce: the " + std::to_string(size) +
                               " ranks call it differently: rank 0 reduces " + described(all[1]) + ", rank " +
                               std::to_string(first) + " " + described(all[2 * static_cast<std::size_t>(first) + 1]) +
                               " (ranks differing from rank 0: " + rank_list(differing) + ")");
  }
}

}  // namespace zr::mpi::detail
