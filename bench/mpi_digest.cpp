// zr_mpi_digest: the digest table's seeded inputs (seeded_input.hpp) summed reproducibly across MPI ranks
// (zr::mpi::allreduce), each rank on its default device with an uneven part (rank r holds a share growing
// with r + 1). Rank 0 prints the same JSON lines as zr_reproducible_bench's digests, for
// bench/reproducible_report.py; every rank checks that it got rank 0's bits.
//   mpirun -n N zr_mpi_digest
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include <zereduce/mpi.hpp>
#include <zereduce/zereduce.hpp>

#include "seeded_input.hpp"

namespace {

template <typename T>
bool digest_rows(zr::queue& q, int rank, int ranks, const char* type) {
  bool same_everywhere = true;
  for (std::uint64_t seed : zr::bench::kDigestSeeds) {
    const std::vector<T> data = zr::bench::seeded_input<T>(seed, zr::bench::kDigestElements);
    // Rank r's part: elements [n * r(r+1)/R(R+1), n * (r+1)(r+2)/R(R+1)).
    const auto bound = [&](std::uint64_t r) {
      return data.size() * (r * (r + 1)) / (static_cast<std::uint64_t>(ranks) * (ranks + 1));
    };
    const std::uint64_t first = bound(rank), last = bound(rank + 1);
    const T sum = zr::mpi::allreduce(MPI_COMM_WORLD, q, std::span<const T>(data.data() + first, last - first),
                                     zr::plus<>(), {zr::property::reduction::reproducible{}});
    std::uint64_t bits = zr::bench::bits_of(sum), rank0_bits = bits;
    MPI_Bcast(&rank0_bits, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int agrees = bits == rank0_bits, all_agree = 0;
    MPI_Allreduce(&agrees, &all_agree, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    same_everywhere = same_everywhere && all_agree;
    if (rank == 0)
      zr::bench::print_digest_row(type, seed, bits, all_agree != 0,
                                  std::to_string(ranks) + " ranks, uneven parts, the same bits on every rank");
  }
  return same_everywhere;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  try {
    zr::queue q;
    if (rank == 0)
      std::printf("{\"kind\":\"device\",\"name\":\"%d MPI rank(s), each on %s\"}\n", ranks,
                  q.get_device().description().c_str());
    bool same = digest_rows<float>(q, rank, ranks, "f32");
    if (q.get_device().capabilities().fp64) same = digest_rows<double>(q, rank, ranks, "f64") && same;
    status = same ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "zr_mpi_digest (rank %d): %s\n", rank, error.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
