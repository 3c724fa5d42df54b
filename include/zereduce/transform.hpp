#pragma once
// Transform-reductions (queue::transform_reduce): every element is transformed on its way in and the results
// are summed, in one read of the input and without a temporary array, as NumPy's linalg.norm, count_nonzero
// and sum(dtype=...) or CUB's TransformReduce give them:
//
//   transform               element types           result         what it computes
//   sum_of_squares{}        half, float, double     T              sum of x*x
//   norm_l2{}               half, float, double     T              sqrt(sum of x*x)
//   norm_l1{}               half, float, double     T              sum of |x|
//   count_nonzero{}         every element type      std::uint64_t  how many x != 0 (a NaN counts; -0.0 not)
//   count_equal{v}          every element type      std::uint64_t  how many x == v (a NaN equals nothing)
//   sum_as<std::int64_t>{}  integers, bool          std::int64_t   sum, wrapping modulo 2^64
//   sum_as<std::uint64_t>{} integers, bool          std::uint64_t  sum, wrapping modulo 2^64
//   sum_as<float>{}         half                    float          sum in float
//   sum_as<double>{}        half, float             double         sum in double (the device needs fp64)
//   mean_variance<float>{}  integers, half, float   moments<float>  count, mean, m2 (sum of squared deviations)
//   mean_variance<double>{} integers, half, float,  moments<double> the same in double (the device needs fp64)
//                           double
//
// Sums of squares and norms add in float for half and float data, in double for double data (the result is
// rounded to T once, at the end): sum_of_squares and norm_l2 of float data overflow to infinity once the sum
// of squares exceeds FLT_MAX (|x| beyond about 1.8e19); there is no rescaling as in BLAS nrm2. Integers are
// converted as C++ converts them (sign-extended), so sum_as<std::uint64_t> of int8_t -1 adds 2^64 - 1.
// The variable is written, never read (there is no initial value), and n = 0 gives 0. Floating-point results
// depend on the order of the adds: they are deterministic for a given device and launch shape, and the
// reproducible property is refused for them; counts and integer sums are exact.
// Means and variances merge {count, mean, m2} states pairwise (Chan, Golub and LeVeque's update, which never
// subtracts two large sums of squares), so a mean far from zero costs no accuracy; variance(ddof) divides m2
// by count - ddof (NumPy's var(ddof=...)). A NaN or an infinity in the input (or an overflow of the
// accumulator) makes mean and m2 NaN; n = 0 gives count 0 (and a NaN variance).
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "zereduce/known_identity.hpp"
#include "zereduce/types.hpp"

namespace zr {

struct sum_of_squares {};
struct norm_l2 {};
struct norm_l1 {};
struct count_nonzero {};
template <typename T>
struct count_equal {
  T value{};
};
template <typename T>
count_equal(T) -> count_equal<T>;
template <typename Accumulator>
struct sum_as {};
template <typename Accumulator>
struct mean_variance {
  static_assert(std::is_same_v<Accumulator, float> || std::is_same_v<Accumulator, double>,
                "mean_variance accumulates in float or double");
};

// What mean_variance<A> writes: the count, the mean and m2, the sum of squared deviations from the mean.
template <typename A>
struct moments {
  std::uint64_t count = 0;
  A mean{};
  A m2{};
  // m2 / (count - ddof): ddof 0 the population variance, 1 the sample variance; NaN when count <= ddof.
  A variance(std::uint64_t ddof = 0) const {
    return count > ddof ? m2 / static_cast<A>(count - ddof) : std::numeric_limits<A>::quiet_NaN();
  }
  A stddev(std::uint64_t ddof = 0) const { return std::sqrt(variance(ddof)); }
};

namespace detail {
template <typename Transform, typename T>
struct transform_of {
  static constexpr bool known = false;
};
template <typename T>
struct transform_of<sum_of_squares, T> {
  static constexpr bool known = is_floating_v<T>;
  static constexpr op_kind kind = op_kind::sum_squares;
  using result = T;
};
template <typename T>
struct transform_of<norm_l2, T> {
  static constexpr bool known = is_floating_v<T>;
  static constexpr op_kind kind = op_kind::norm_l2;
  using result = T;
};
template <typename T>
struct transform_of<norm_l1, T> {
  static constexpr bool known = is_floating_v<T>;
  static constexpr op_kind kind = op_kind::norm_l1;
  using result = T;
};
template <typename T>
struct transform_of<count_nonzero, T> {
  static constexpr bool known = true;
  static constexpr op_kind kind = op_kind::count_nonzero;
  using result = std::uint64_t;
};
template <typename U, typename T>
struct transform_of<count_equal<U>, T> {
  static constexpr bool known = std::is_same_v<std::remove_cv_t<U>, std::remove_cv_t<T>>;
  static constexpr op_kind kind = op_kind::count_equal;
  using result = std::uint64_t;
};
template <typename A, typename T>
struct transform_of<sum_as<A>, T> {
  static constexpr bool integer_data = is_integer_v<T> || is_bool_v<T>;
  static constexpr bool known = (integer_data && (std::is_same_v<A, std::int64_t> || std::is_same_v<A, std::uint64_t>)) ||
                                (std::is_same_v<std::remove_cv_t<T>, half> && std::is_same_v<A, float>) ||
                                ((std::is_same_v<std::remove_cv_t<T>, half> || std::is_same_v<std::remove_cv_t<T>, float>) &&
                                 std::is_same_v<A, double>);
  static constexpr op_kind kind = std::is_same_v<A, std::int64_t>    ? op_kind::sum_i64
                                  : std::is_same_v<A, std::uint64_t> ? op_kind::sum_u64
                                  : std::is_same_v<A, float>         ? op_kind::sum_f32
                                                                     : op_kind::sum_f64;
  using result = A;
};

template <typename A, typename T>
struct transform_of<mean_variance<A>, T> {
  static constexpr bool known = std::is_same_v<A, double> ? is_arithmetic_v<T> : is_arithmetic_v<T> && !std::is_same_v<T, double>;
  static constexpr op_kind kind = std::is_same_v<A, double> ? op_kind::mean_var_f64 : op_kind::mean_var_f32;
  using result = moments<A>;
};

// Whether Operation is one of the transforms above (whatever the element type), as the segmented reductions take
// them in place of a binary operation.
template <typename Operation>
inline constexpr bool is_transform_v = false;
template <>
inline constexpr bool is_transform_v<sum_of_squares> = true;
template <>
inline constexpr bool is_transform_v<norm_l2> = true;
template <>
inline constexpr bool is_transform_v<norm_l1> = true;
template <>
inline constexpr bool is_transform_v<count_nonzero> = true;
template <typename U>
inline constexpr bool is_transform_v<count_equal<U>> = true;
template <typename A>
inline constexpr bool is_transform_v<sum_as<A>> = true;
template <typename A>
inline constexpr bool is_transform_v<mean_variance<A>> = true;

template <typename Transform, typename T>
constexpr void check_transform() {
  static_assert(is_element_v<std::remove_cv_t<T>>, "ze-reduce reduces 8- to 64-bit integers, zr::half, float, double and bool");
  static_assert(transform_of<Transform, std::remove_cv_t<T>>::known,
                "this transform does not take this element type: sum_of_squares, norm_l2 and norm_l1 take half, "
                "float and double; count_equal's value must have the element type; sum_as<std::int64_t> and "
                "sum_as<std::uint64_t> take integers and bool, sum_as<float> half, sum_as<double> half and float; "
                "mean_variance<float> integers, half and float, mean_variance<double> every number type "
                "(zereduce/transform.hpp)");
}
}  // namespace detail

// What transform_reduce of T elements with Transform writes.
template <typename Transform, typename T>
using transform_result_t = typename detail::transform_of<Transform, std::remove_cv_t<T>>::result;

}  // namespace zr
