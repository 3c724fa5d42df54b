#pragma once
// The column passes: rows of `columns` values where column c reduces on its own ("columns" kernels on GPUs;
// "columnsrows", "columnscpu" or "columnscpu4" on CPU devices, by the column count and the compiler) fold rows
// per lane, level after level, then "columnsfinal" folds the last rows of each column in row order and stores
// result 0 (a CPU device's single partial row of the elements' type is the result itself, no final pass). Array reductions are made of them alone (make_column_plan in plan.hpp); the segmented family
// folds its slices' partials with them.
#include <cstdint>

#include "plan.hpp"

namespace zr::core {

// Appends the column passes over `rows` x `columns` values at `source`: T elements of the request's type
// when source_is_input (then a first "columns" pass always runs, converting them to the accumulator), else
// accumulators in a scratch buffer (then "columns" passes run only while more than a few rows remain).
void append_column_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, BufferArg source,
                          bool source_is_input, std::uint64_t rows, std::uint64_t columns);

bool is_column_pass(const KernelPass& pass);
// The combines one value goes through in a column pass: its rows per lane, or every row in the final pass.
std::uint64_t column_pass_depth(const KernelPass& pass);

}  // namespace zr::core
