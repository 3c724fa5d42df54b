"""Every public zereduce function against NumPy on arrays as users hold them (issue 40): both byte orders of every
dtype the library takes, strided, negative-stride, Fortran-order, 0-d, N-D, unaligned and read-only layouts,
special values (NaN, +-inf, +-0, subnormals, integer extremes). Property-based (Hypothesis, pinned in the
project's venv): exact where the result is exact, within the sum bound for floating sums. Derandomized under CI
(a fixed, bounded set of examples); random elsewhere, where ZR_PARITY_EXAMPLES raises the count.

The cases these properties found are ordinary regression tests at the end of the file."""
import fractions
import math
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import zereduce

settings.register_profile(
    "parity", max_examples=int(os.environ.get("ZR_PARITY_EXAMPLES", "40")), deadline=None, database=None,
    derandomize=os.environ.get("CI") == "true", print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
PARITY = settings.get_profile("parity")

INTEGERS = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"]
FLOATS = ["f2", "f4", "f8"]
TAKEN = ["?"] + INTEGERS + FLOATS


# ---- arrays as users hold them ----------------------------------------------------------------------------------
def values_of(code):
    """Hypothesis elements of dtype `code` (native), special values included."""
    dtype = np.dtype(code)
    if dtype.kind == "f":
        return hnp.from_dtype(dtype, allow_nan=True, allow_infinity=True, allow_subnormal=True)
    return hnp.from_dtype(dtype)


@st.composite
def held_arrays(draw, codes=TAKEN, elements=None, max_side=24):
    """An array of one of `codes` in either byte order and in one of the layouts NumPy hands out; its values are
    drawn from `elements(code)` (default: every value of the dtype, specials included)."""
    code = draw(st.sampled_from(codes))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=max_side))
    if code == "?" and draw(st.booleans()):
        # Bools as other libraries and views write them: any nonzero byte is True, as NumPy reads it.
        base = draw(hnp.arrays(np.uint8, shape)).view(np.bool_)
    else:
        base = draw(hnp.arrays(np.dtype(code), shape, elements=(elements or values_of)(code)))
    order = draw(st.sampled_from("<>")) if base.dtype.itemsize > 1 else "="
    array = base.astype(base.dtype.newbyteorder(order))
    layout = draw(st.sampled_from(["c", "fortran", "strided", "reversed", "unaligned", "readonly"]))
    if layout == "fortran":
        array = np.asfortranarray(array)
    elif layout == "strided" and array.ndim:
        wide = np.repeat(array, 2, axis=-1)  # every element twice along the last axis: [..., ::2] is a strided view
        array = wide[..., ::2]
    elif layout == "reversed" and array.ndim:
        array = array[::-1]
    elif layout == "unaligned" and array.dtype.itemsize > 1:
        buffer = bytearray(array.nbytes + 1)
        view = np.frombuffer(buffer, dtype=array.dtype, count=array.size, offset=1).reshape(array.shape)
        view[...] = array
        array = view
    elif layout == "readonly":
        array = array.copy()
        array.setflags(write=False)
    return array


def native(x):
    """The same values in a plain, native-order, C-contiguous array: what NumPy's answers are computed from."""
    return np.array(x, dtype=x.dtype.newbyteorder("="), order="C")


def same_value(result, expected):
    """Exact equality, NaN equal to NaN (min/max/arg values, exact integer results)."""
    if isinstance(expected, (float, np.floating)) and math.isnan(expected):
        return math.isnan(result)
    return result == expected


def exact_sum(values):
    """The sum of float64 `values` rounded once (inf past float64's range: math.fsum overflows there)."""
    try:
        return math.fsum(values)
    except OverflowError:
        total = sum(map(fractions.Fraction, values))
        if abs(total) > sys.float_info.max:
            return math.inf if total > 0 else -math.inf
        return float(total)


def float_sum_ok(result, values, accumulate_eps=None):
    """A floating sum of `values` within the bound the conformance suite uses: n * eps * sum|x| (+ tiny) of the
    exact sum; infinities and NaN as the exact arithmetic gives them; an infinity where the exact sum leaves the
    type's range; an infinity or NaN also where partial sums may overflow (sum|x| beyond the largest value)."""
    flat = native(values).reshape(-1).astype(np.float64)
    dtype = np.dtype(values.dtype).newbyteorder("=")
    info = np.finfo(dtype)
    if np.isnan(flat).any() or (np.isposinf(flat).any() and np.isneginf(flat).any()):
        return math.isnan(result)
    if np.isinf(flat).any():
        return result == flat[np.isinf(flat)][0]
    exact, scale = exact_sum(flat), exact_sum(abs(flat))
    if abs(exact) > float(info.max) and not math.isinf(result):
        return False  # beyond the type's range: an infinity is the one answer
    if scale > float(info.max) and (math.isinf(result) or math.isnan(result)):
        return True  # partial sums of both signs may overflow, in any order of summation (NumPy's too)
    if math.isnan(result) or math.isinf(result):
        return False
    eps = accumulate_eps or float(info.eps)
    return abs(float(result) - exact) <= max(flat.size, 1) * eps * scale + float(info.smallest_subnormal) * 4 + \
        abs(exact) * float(info.eps)


# ---- the properties ---------------------------------------------------------------------------------------------
NUMPY_REDUCE = {"plus": np.add, "multiplies": np.multiply, "minimum": np.minimum, "maximum": np.maximum,
                "bit_and": np.bitwise_and, "bit_or": np.bitwise_or, "bit_xor": np.bitwise_xor,
                "logical_and": np.logical_and, "logical_or": np.logical_or}


def takes(op, dtype):
    """Whether the library offers `op` on `dtype` (docs/api.md): bitwise ops on integers, logical on bool."""
    kind = dtype.kind
    if op.startswith("bit_"):
        return kind in "iu"
    if op.startswith("logical_"):
        return kind == "b"
    return kind in "iuf"


@PARITY
@given(x=held_arrays(), op=st.sampled_from(sorted(NUMPY_REDUCE)), asynchronous=st.booleans())
def test_reduce_gives_numpys_answer_or_a_named_refusal(x, op, asynchronous):
    dtype = x.dtype.newbyteorder("=")
    if op == "multiplies" and dtype.kind == "f":
        assume(False)  # products of arbitrary floats: test_float_products_of_held_arrays
    call = (lambda: zereduce.reduce_async(x, op).result()) if asynchronous else (lambda: zereduce.reduce(x, op))
    if x.size == 0 and op in ("minimum", "maximum"):
        with pytest.raises(ValueError):  # NumPy's error: no identity (whether or not the library takes the dtype)
            call()
        return
    if not takes(op, dtype):
        with pytest.raises(zereduce.Error):
            call()
        return
    result = call()
    assert result.dtype == dtype, (result.dtype, dtype)
    flat = native(x).reshape(-1)
    if op == "plus" and dtype.kind == "f":
        assert float_sum_ok(result, flat), (result, x.dtype, flat)
    else:
        expected = NUMPY_REDUCE[op].reduce(flat, dtype=dtype)
        assert same_value(result, expected), (result, expected, x.dtype)


def near_one(code):
    """Factors whose products over the shapes drawn here stay normal and finite in every floating dtype."""
    width, low, high = 8 * np.dtype(code).itemsize, 0.875, 1.125  # exact in float16 too
    return st.floats(low, high, width=width) | st.floats(-high, -low, width=width)


@PARITY
@given(x=held_arrays(codes=FLOATS, elements=near_one, max_side=4))
def test_float_products_of_held_arrays(x):
    result = zereduce.prod(x)
    flat = native(x).reshape(-1).astype(np.float64)
    exact = math.prod(flat)
    assert abs(float(result) - exact) <= (flat.size + 2) * float(np.finfo(x.dtype).eps) * abs(exact), (result, exact)


@PARITY
@given(x=held_arrays(), shortcut=st.sampled_from(["sum", "prod", "min", "max", "all", "any"]))
def test_shortcuts_are_reduce(x, shortcut):
    op = {"sum": "plus", "prod": "multiplies", "min": "minimum", "max": "maximum", "all": "logical_and",
          "any": "logical_or"}[shortcut]
    dtype = x.dtype.newbyteorder("=")
    assume(takes(op, dtype) and not (op == "multiplies" and dtype.kind == "f"))
    assume(x.size or op not in ("minimum", "maximum"))
    result = getattr(zereduce, shortcut)(x)
    if op == "plus" and dtype.kind == "f":
        assert float_sum_ok(result, x)
    else:
        assert same_value(result, NUMPY_REDUCE[op].reduce(native(x).reshape(-1), dtype=dtype))


@PARITY
@given(x=held_arrays(codes=INTEGERS + FLOATS), which=st.sampled_from(["argmin", "argmax"]))
def test_argmin_argmax_are_numpys(x, which):
    if x.size == 0:
        with pytest.raises(ValueError):
            getattr(zereduce, which)(x)
        return
    index, value = getattr(zereduce, which)(x, return_value=True)
    flat = native(x).reshape(-1)
    expected = int(getattr(np, which)(flat))
    assert index == expected, (index, expected, flat)
    assert same_value(value, flat[expected])


@PARITY
@given(x=held_arrays(codes=TAKEN), use_value=st.booleans(), pick=st.integers(0, 10**6))
def test_counts_are_numpys(x, use_value, pick):
    flat = native(x).reshape(-1)
    assert zereduce.count_nonzero(x) == np.count_nonzero(flat)
    value = flat[pick % flat.size] if use_value and flat.size else x.dtype.type(3)
    assert zereduce.count_equal(x, value) == np.count_nonzero(flat == value)


def moderate(code):
    """Floats whose squares and sums of squares stay finite in the dtype for the shapes drawn here."""
    dtype = np.dtype(code)
    if dtype.kind != "f":
        return hnp.from_dtype(dtype)
    limit = float(dtype.type({2: 8.0, 4: 1e15, 8: 1e150}[dtype.itemsize]))
    return st.floats(-limit, limit, width=8 * dtype.itemsize, allow_subnormal=True)


@PARITY
@given(x=held_arrays(codes=FLOATS, elements=moderate), which=st.sampled_from(["norm2", "norm1", "sum_of_squares"]))
def test_norms_and_sums_of_squares_within_the_bound(x, which):
    flat = native(x).reshape(-1).astype(np.float64)
    if which == "sum_of_squares":
        result, terms = zereduce.sum_of_squares(x), flat * flat
    else:
        result = zereduce.norm(x, ord=2 if which == "norm2" else 1)
        terms = flat * flat if which == "norm2" else abs(flat)
    exact = math.fsum(terms)
    if which == "norm2":
        exact = math.sqrt(exact)
    if abs(exact) > float(np.finfo(result.dtype).max):
        assert result == np.inf, (result, exact, which)  # beyond the result type's range: infinity is the answer
        return
    eps = float(np.finfo(np.float32 if x.dtype.itemsize == 2 else x.dtype).eps)  # float16 accumulates in float32
    bound = (terms.size + 2) * eps * (math.sqrt(math.fsum(terms)) if which == "norm2" else math.fsum(terms))
    bound += abs(exact) * float(np.finfo(x.dtype).eps) + float(np.finfo(result.dtype).smallest_subnormal)
    # Squares below the accumulator's normal range lose bits (no rescaling, as NumPy's own float32 norm).
    underflow = (terms.size + 1) * float(np.finfo(np.float32 if x.dtype.itemsize == 2 else x.dtype).smallest_subnormal)
    bound += math.sqrt(underflow) if which == "norm2" else underflow
    assert abs(float(result) - exact) <= bound, (result, exact, which)


@PARITY
@given(x=held_arrays(codes=INTEGERS + FLOATS + ["?"], elements=moderate))
def test_widening_sums_are_numpys(x):
    dtype = x.dtype.newbyteorder("=")
    flat = native(x).reshape(-1)
    if dtype.kind in "iub":
        for wide in (np.int64, np.uint64):
            expected = np.add.reduce(flat.astype(wide), dtype=wide) if flat.size else wide(0)
            assert zereduce.sum_as(x, wide) == expected
    else:
        accumulators = [np.float32, np.float64] if dtype.itemsize == 2 else [np.float64] if dtype.itemsize == 4 else []
        for wide in accumulators:
            result = zereduce.sum_as(x, wide)
            assert float_sum_ok(result, flat.astype(wide), accumulate_eps=float(np.finfo(wide).eps))


@PARITY
@given(x=held_arrays(codes=INTEGERS + FLOATS, elements=moderate), accumulator=st.sampled_from([np.float32, np.float64]),
       ddof=st.integers(0, 1))
def test_mean_var_std_within_the_bound(x, accumulator, ddof):
    flat = native(x).reshape(-1).astype(np.float64)
    if accumulator == np.float32 and x.dtype.itemsize == 8 and x.dtype.kind == "f":
        with pytest.raises(zereduce.Error):
            zereduce.mean(x, dtype=accumulator)
        return
    mean, var, std = (zereduce.mean(x, dtype=accumulator), zereduce.var(x, ddof=ddof, dtype=accumulator),
                      zereduce.std(x, ddof=ddof, dtype=accumulator))
    assert mean.dtype == var.dtype == std.dtype == np.dtype(accumulator)
    if flat.size == 0:
        assert math.isnan(mean) and math.isnan(var)
        return
    eps = float(np.finfo(accumulator).eps)
    exact_mean = math.fsum(flat) / flat.size
    spread = float(np.max(np.abs(flat)))
    if spread * spread * flat.size > float(np.finfo(accumulator).max):
        # m2 may overflow the accumulator: documented to make mean and m2 NaN (docs/api.md), never another number.
        assert math.isnan(mean) or abs(float(mean) - exact_mean) <= 4 * flat.size * eps * spread, (mean, exact_mean)
        return
    assert abs(float(mean) - exact_mean) <= 4 * flat.size * eps * spread + float(np.finfo(accumulator).smallest_subnormal), \
        (mean, exact_mean)
    if flat.size <= ddof:
        assert math.isnan(var)
        return
    exact_m2 = math.fsum((v - exact_mean) ** 2 for v in flat)
    exact_var = exact_m2 / (flat.size - ddof)
    tiny = float(np.finfo(accumulator).smallest_subnormal)  # squares below the accumulator's range underflow
    bound = 8 * flat.size * eps * (spread * spread) / (flat.size - ddof) + 2 * flat.size * tiny
    assert abs(float(var) - exact_var) <= bound, (var, exact_var)
    assert abs(float(std) - math.sqrt(exact_var)) <= math.sqrt(bound) + 1e-150


class HostDLPack:
    """A DLPack producer of host memory that is not a NumPy array (as a CPU tensor of another library is)."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, stream=None):
        return self._array.__dlpack__()

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


@PARITY
@given(x=held_arrays(codes=TAKEN), through=st.sampled_from(["asarray", "DeviceArray", "dlpack"]))
def test_device_arrays_and_dlpack_producers_hold_the_same_values(x, through):
    if through == "dlpack":
        # DLPack has no byte order, and NumPy 1.24 exports no unaligned, read-only or bool array.
        assume(x.dtype.isnative and x.flags.aligned and x.flags.writeable and x.dtype.kind != "b")
        held = HostDLPack(x)
    else:
        held = zereduce.asarray(x) if through == "asarray" else zereduce.DeviceArray(x)
        assert np.array_equal(np.asarray(held), native(x), equal_nan=x.dtype.kind == "f")
    op = "logical_or" if x.dtype.kind == "b" else "maximum"
    if x.size == 0 and op == "maximum":
        return
    expected = NUMPY_REDUCE[op].reduce(native(x).reshape(-1))
    assert same_value(zereduce.reduce(held, op), expected)
    if x.dtype.kind != "b":
        assert zereduce.count_nonzero(held) == np.count_nonzero(x)


# ---- refusals: dtypes the library does not take, named ----------------------------------------------------------
REFUSED = {
    "complex64": np.array([1 + 2j], np.complex64), "complex128 big-endian": np.array([1j], ">c16"),
    "datetime64": np.array(["2026-11-26"], "datetime64[D]"), "timedelta64": np.array([5], "timedelta64[s]"),
    "structured": np.zeros(3, [("x", "<f4"), ("y", "<i4")]), "void": np.zeros(3, "V4"),
    "str": np.array(["a", "b"]), "bytes": np.array([b"a"]), "object": np.array([1, "a"], dtype=object),
    "longdouble": np.ones(3, np.longdouble),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("call", [
    lambda x: zereduce.sum(x), lambda x: zereduce.reduce_async(x, "maximum").result(), lambda x: zereduce.argmax(x),
    lambda x: zereduce.count_nonzero(x), lambda x: zereduce.norm(x), lambda x: zereduce.mean(x),
    lambda x: zereduce.sum_as(x, np.float64), lambda x: zereduce.asarray(x), lambda x: zereduce.DeviceArray(x),
], ids=["sum", "reduce_async", "argmax", "count_nonzero", "norm", "mean", "sum_as", "asarray", "DeviceArray"])
def test_dtypes_the_library_does_not_take_are_refused_by_name(name, call):
    x = REFUSED[name]
    with pytest.raises(zereduce.InvalidArgumentError) as caught:
        call(x)
    assert x.dtype.name in str(caught.value), str(caught.value)


class FakeSyclQueue:
    """What a dpctl.SyclQueue shows of itself to zereduce: its device's type, and wait()."""

    class _Device:
        def __init__(self, kind):
            self.device_type = type("device_type", (), {"name": kind})()

    def __init__(self, kind):
        self.sycl_device = self._Device(kind)
        self.waited = 0

    def wait(self):
        self.waited += 1


class SyclUsmArray:
    """What dpctl.tensor.usm_ndarray and dpnp arrays show: a SYCL USM allocation (and a DLPack export on the
    oneAPI device type, 14) and the queue it belongs to (syclobj). tests/python/test_sycl_usm_dpctl.py does the
    same with dpctl's real allocations on Intel's OpenCL CPU runtime."""

    def __init__(self, values, syclobj=None):
        self._values = values
        self.__sycl_usm_array_interface__ = {"data": (values.ctypes.data, True), "shape": values.shape,
                                             "strides": None, "typestr": values.dtype.str, "version": 1,
                                             "syclobj": syclobj}

    def __array__(self, dtype=None):
        return self._values

    def __dlpack_device__(self):
        return (14, 0)

    def __dlpack__(self, stream=None):
        raise BufferError("not exported in this test")


CALLS = [lambda x: zereduce.sum(x), lambda x: zereduce.argmax(x), lambda x: zereduce.mean(x),
         lambda x: zereduce.asarray(x)]


@pytest.mark.parametrize("call", CALLS, ids=["sum", "argmax", "mean", "asarray"])
@pytest.mark.parametrize("syclobj", [None, FakeSyclQueue("gpu")], ids=["no_queue", "gpu_queue"])
def test_sycl_usm_arrays_of_device_memory_are_refused_rather_than_copied_through_the_host(call, syclobj):
    with pytest.raises(zereduce.InvalidArgumentError, match="SYCL USM"):
        call(SyclUsmArray(np.arange(8, dtype=np.float32), syclobj))


def test_sycl_usm_arrays_of_a_cpu_device_are_read_in_place_after_their_queue():
    values = np.arange(1, 1001, dtype=np.float32)
    queue = FakeSyclQueue("cpu")
    array = SyclUsmArray(values, queue)
    view = zereduce._host_array(array)
    assert view.ctypes.data == values.ctypes.data  # the same memory: no copy
    assert zereduce.sum(array) == values.sum(dtype=np.float64)
    assert zereduce.argmax(array) == 999
    assert queue.waited >= 2  # the array's queue is waited for before each read


class OneApiDLPack:
    """A DLPack producer on the oneAPI device type (14) without the SYCL interface."""

    def __dlpack_device__(self):
        return (14, 0)

    def __dlpack__(self, stream=None):
        raise BufferError("not exported in this test")


def test_dlpack_producers_of_other_devices_are_refused():
    with pytest.raises(zereduce.InvalidArgumentError, match="device type 14"):
        zereduce.sum(OneApiDLPack())


def test_a_masked_array_is_refused_rather_than_reduced_with_its_mask_ignored():
    x = np.ma.masked_array(np.arange(5.0), mask=[0, 1, 0, 0, 0])
    with pytest.raises(zereduce.InvalidArgumentError, match="masked"):
        zereduce.sum(x)
    assert zereduce.sum(x.compressed()) == 9.0


# ---- regression tests: the cases behind issue 40 and what the properties found ---------------------------------
@pytest.mark.parametrize("code", INTEGERS[1:4] + INTEGERS[5:] + FLOATS)
def test_big_endian_arrays_of_every_dtype_give_numpys_answer_everywhere(code):
    little = np.arange(1, 11, dtype=code)
    big = little.astype(little.dtype.newbyteorder(">"))
    assert big.tobytes() != little.tobytes()  # the bytes differ: a missed swap gives other numbers
    assert zereduce.sum(big) == np.add.reduce(little, dtype=little.dtype)
    assert zereduce.max(big) == 10 and zereduce.min(big) == 1
    assert zereduce.argmax(big) == 9 and zereduce.argmin(big) == 0
    assert zereduce.reduce_async(big, "plus", initial=5).result() == np.add.reduce(little, dtype=little.dtype) + 5
    assert zereduce.count_equal(big, 7) == 1 and zereduce.count_nonzero(big) == 10
    assert np.isclose(zereduce.mean(big), 5.5) and np.isclose(zereduce.var(big), np.var(little.astype(np.float64)))
    assert zereduce.reduce(big.reshape(2, 5), "plus", axis=0).tolist() == little.reshape(2, 5).sum(axis=0).tolist()
    assert zereduce.prod(big[:5]) == 120 and np.isclose(zereduce.std(big), np.std(little.astype(np.float64)))
    for held in (zereduce.asarray(big), zereduce.DeviceArray(big)):
        assert held.dtype == little.dtype and np.asarray(held).tolist() == little.tolist()
        assert zereduce.sum(held) == zereduce.sum(little) and zereduce.argmax(held) == 9
    if little.dtype.kind == "f":
        assert np.isclose(zereduce.norm(big), np.linalg.norm(little.astype(np.float64)), rtol=1e-3)
        assert zereduce.norm(big, ord=1) == 55 and zereduce.sum_of_squares(big) == 385
        if little.dtype.itemsize < 8:
            assert zereduce.sum_as(big, np.float64) == 55
    else:
        assert zereduce.sum_as(big, np.int64) == 55 and zereduce.sum_as(big, np.uint64) == 55


def test_the_issue_40_float32_example():
    x = np.arange(10, dtype=">f4")
    assert zereduce.sum(x) == 45.0 and zereduce.max(x) == 9.0 and zereduce.argmax(x) == 9
    assert zereduce.mean(x) == 4.5 and zereduce.sum(zereduce.asarray(x)) == 45.0


def test_unaligned_views_and_memmaps_are_read_right(tmp_path):
    raw = np.arange(1, 1001, dtype=np.float64).tobytes()
    unaligned = np.frombuffer(b"\0" + raw, dtype=np.float64, offset=1)
    assert not unaligned.flags.aligned
    assert zereduce.sum(unaligned) == 500500.0 and zereduce.argmax(unaligned) == 999
    path = tmp_path / "values.bin"
    np.arange(1, 1001, dtype=">i4").tofile(path)
    mapped = np.memmap(path, dtype=">i4", mode="r")
    assert zereduce.sum(mapped) == 500500 and zereduce.max(mapped) == 1000


def test_the_compiled_module_refuses_what_the_package_would_have_converted():
    from zereduce import _zereduce
    with pytest.raises(zereduce.Error, match="byte order"):
        _zereduce.submit(np.arange(4, dtype=">f4"), "plus", None, None, False, False, None, -1, False)
    unaligned = np.frombuffer(b"\0" + np.arange(4, dtype=np.int32).tobytes(), dtype=np.int32, offset=1)
    with pytest.raises(zereduce.Error, match="aligned"):
        _zereduce.submit(unaligned, "plus", None, None, False, False, None, -1, False)


def test_what_the_properties_found_at_the_edges_of_the_ranges():
    # Each of these first failed a property (the property's bound was too tight, not the library wrong); kept
    # as plain tests so that the edges stay covered whatever examples Hypothesis draws.
    with pytest.raises(ValueError):  # NumPy's error for an empty min/max, whatever the dtype
        zereduce.max(np.array([], dtype=bool))
    assert zereduce.sum_of_squares(np.full((24, 24, 2), 8, dtype=np.float16)) == np.inf  # 1152 squares of 8: 73728
    assert zereduce.sum_of_squares(np.array(1e-05, dtype=np.float16)) == 0  # 1e-10 is below float16's subnormals
    tiny = np.array([7.5735786e-22], dtype=np.float32)  # its square is a float32 subnormal
    assert abs(float(zereduce.norm(tiny)) - float(np.sqrt(np.dot(tiny, tiny)))) <= 2e-25
    assert zereduce.var(np.array([6.0480956e-27, 0], dtype=np.float32), dtype=np.float32) == 0  # 9e-54 underflows
    huge = np.full(20, 8.98846567e307)  # the exact sum (1.8e309) is beyond float64: inf in every order
    assert zereduce.sum(huge) == np.inf and zereduce.sum(-huge) == -np.inf
    # float32 moments of int64 extremes: m2 (about 1e40) overflows float32, which the documentation says makes
    # mean and m2 NaN; a number other than the mean is never the answer.
    spread_out = np.concatenate([np.zeros(100, np.int64), np.full(1594, 8261835649347223552, np.int64)])
    mean = zereduce.mean(spread_out, dtype=np.float32)
    assert math.isnan(mean) or abs(float(mean) / float(np.mean(spread_out.astype(np.float64))) - 1) < 1e-5


# ---- the fast path of sum/prod/min/max/all/any without keyword arguments (issue 42) ------------------------------
@pytest.mark.parametrize("code", INTEGERS + FLOATS)
def test_the_fast_path_gives_what_the_general_path_gives_value_and_type(code):
    x = (np.arange(1, 41) % 7 + 1).astype(code)
    for name, op in (("sum", "plus"), ("prod", "multiplies"), ("min", "minimum"), ("max", "maximum")):
        fast = getattr(zereduce, name)(x)                       # no keyword: the extension's reduce_now
        general = zereduce.reduce(x, op, deterministic=True)    # a keyword: the general path
        assert type(fast) is type(general) and np.dtype(type(fast)) == x.dtype, (name, type(fast), type(general))
        assert fast == general or (np.isnan(fast) and np.isnan(general)), (name, fast, general)
    # Views the library cannot read in place take the general path (a copy), not a wrong answer.
    strided = x[::3]
    assert zereduce.sum(strided) == zereduce.reduce(np.ascontiguousarray(strided), "plus")
    assert zereduce.max(x.astype(x.dtype.newbyteorder(">"))) == zereduce.max(x)


# The extension's fast entry points (CPython fastcall functions, not pybind11's) check their own arguments.
def test_the_fast_entry_points_refuse_wrong_arguments_with_type_errors():
    x = np.arange(8, dtype=np.float32)
    for call in (lambda: zereduce._zereduce.reduce_now(x), lambda: zereduce._zereduce.reduce_now(x, "plus"),
                 lambda: zereduce._zereduce.reduce_now(x, 0, "last"), lambda: zereduce._zereduce.reduce_now(x, 0, None, 1),
                 lambda: zereduce._zereduce.arg_now(x)):
        with pytest.raises(TypeError):
            call()
    assert zereduce._zereduce.reduce_now([1, 2], 0) is None and zereduce._zereduce.reduce_now(x, 99) is None
    assert zereduce._zereduce.reduce_now(x, (1 << 32) + 1) is None  # not op 1 by truncation
    default = next((d for d in zereduce.devices() if d["default"]), None)
    if default is not None and default["host_path_max_bytes"] >= x.nbytes:  # else they answer None: no host path
        assert zereduce._zereduce.reduce_now(x, 0) == 28 and zereduce._zereduce.arg_now(x, True) == (7, 7)


# An int axis of a 0-d array (0 or -1: no axis, as NumPy takes it) and the one axis of a 1-D array give NumPy's scalar,
# of NumPy's type, on the fast path and the general one; any other axis of a 0-d array is refused. (The fast path read
# the last axis's length of a 0-d array and crashed the interpreter.)
@pytest.mark.parametrize("code", ["f4", "i8", "?"])
def test_the_axis_of_a_0d_or_1d_array_gives_numpys_scalar(code):
    for x in (np.array(3, dtype=code), (np.arange(1, 6) % 4).astype(code)):
        for axis in (0, -1):
            ours, numpys = (zereduce.any, np.any) if code == "?" else (zereduce.max, np.max)
            pairs = [(ours(x, axis=axis), numpys(x, axis=axis)),
                     (ours(x, axis=axis, deterministic=True), numpys(x, axis=axis))]
            if code != "?":
                pairs.append((zereduce.sum(x, axis=axis), np.sum(x, axis=axis, dtype=x.dtype)))
                # A 0-d array's argmax is that of no axis: a Python int, as zereduce.argmax(x) gives.
                index = zereduce.argmax(x, axis=axis)
                pairs.append((index, np.argmax(x, axis=axis) if x.ndim else int(np.argmax(x, axis=axis))))
            for ours, numpys in pairs:
                assert type(ours) is type(numpys) and ours == numpys, (x.ndim, axis, ours, numpys)
    with pytest.raises(IndexError, match="out of bounds"):
        zereduce.sum(np.array(3, dtype=code), axis=1)


# argmax/argmin without keywords take the extension's arg_now: NumPy's index, the value of the array's dtype, and
# what the general path (a strategy named) gives, ties, NaNs and signed zeros included; anything it cannot take
# goes to the general path, errors as NumPy's.
@pytest.mark.parametrize("code", INTEGERS + FLOATS)
def test_the_arg_fast_path_gives_numpys_index_and_what_the_general_path_gives(code):
    rng = np.random.default_rng(sum(map(ord, code)))
    for n in (1, 7, 100, 4099):
        x = rng.integers(0, 50, n).astype(code)
        if code in FLOATS and n > 3:
            x[n // 2] = -0.0
            x[n // 3] = np.nan if n > 50 else x[n // 3]
        for name in ("argmax", "argmin"):
            fast = getattr(zereduce, name)(x)
            fast_index, fast_value = getattr(zereduce, name)(x, return_value=True)
            general_index, general_value = getattr(zereduce, name)(x, strategy="tree", return_value=True)
            assert fast == getattr(np, name)(x) == fast_index == general_index, (name, n, fast)
            assert type(fast) is type(general_index) and type(fast_value) is type(general_value), (name, n)
            assert np.asarray(fast_value).tobytes() == np.asarray(general_value).tobytes(), (name, n)
    with pytest.raises(ValueError, match="empty"):
        zereduce.argmax(np.array([], dtype=code))
    assert zereduce.argmin(x[::2]) == np.argmin(x[::2])  # strided: the general path (a copy)
    swapped = x.astype(x.dtype.newbyteorder(">"))
    assert zereduce.argmax(swapped) == np.argmax(x)


def test_the_arg_fast_path_never_reaches_the_general_path_where_the_default_device_has_a_host_path(monkeypatch):
    default = next((d for d in zereduce.devices() if d["default"]), None)
    if default is None or default["host_path_max_bytes"] < 4096:
        pytest.skip(f"the default device has no host path for this array: {default}")
    x = np.arange(1, 257, dtype=np.float32)[::-1].copy()
    monkeypatch.setattr(zereduce._zereduce, "arg_reduce", None)  # the general path would call it
    assert zereduce.argmax(x) == 0 and zereduce.argmin(x) == 255
    assert zereduce.argmax(x, return_value=True) == (0, np.float32(256))


UFUNCS = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum, "all": np.logical_and,
          "any": np.logical_or}


# With an int axis alone: the last axis (rows, any number of dimensions) and axis 0 of a 2-D array take the fast
# path; the result must be NumPy's, of NumPy's shape and dtype, and what the general path gives.
@pytest.mark.parametrize("code", INTEGERS + FLOATS + ["?"])
def test_the_fast_path_over_an_axis_gives_numpys_shape_dtype_and_values(code):
    base = (np.arange(1, 3 * 4 * 5 + 1) % 7 + 1).astype(code)
    ops = (("all", "logical_and"), ("any", "logical_or")) if code == "?" else (
        ("sum", "plus"), ("prod", "multiplies"), ("min", "minimum"), ("max", "maximum"))
    for shape, axes in (((60,), (0, -1)), ((12, 5), (1, -1, 0, -2)), ((3, 4, 5), (2, -1))):
        x = base.reshape(shape)
        for axis in axes:
            for name, op in ops:
                fast = getattr(zereduce, name)(x, axis=axis)
                general = zereduce.reduce(x, op, axis=axis, deterministic=True)  # another keyword: the general path
                # In the array's dtype, as the library reduces (NumPy's own sum of int8 would widen to int64).
                with np.errstate(over="ignore"):  # float16 products of up to 60 values reach infinity
                    expected = UFUNCS[name].reduce(x, axis=axis, dtype=x.dtype)
                assert np.shape(fast) == np.shape(expected) == np.shape(general), (name, shape, axis)
                assert np.asarray(fast).dtype == x.dtype == np.asarray(general).dtype, (name, shape, axis)
                assert np.array_equal(fast, expected) and np.array_equal(fast, general), (name, shape, axis, fast)
    with pytest.raises(Exception, match="out of bounds|AxisError"):
        zereduce.sum(base.reshape(12, 5), axis=2)  # the general path's error, as NumPy's


def test_the_fast_path_over_an_axis_never_reaches_the_general_path_where_the_default_device_has_a_host_path(
        monkeypatch):
    default = next((d for d in zereduce.devices() if d["default"]), None)
    if default is None or default["host_path_max_segment_bytes"] < 4096:
        pytest.skip(f"the default device has no host path for this array: {default}")
    x = np.arange(1, 257, dtype=np.float32).reshape(16, 16)

    def general_path(*args, **kwargs):
        raise AssertionError("the general path ran")

    monkeypatch.setattr(zereduce, "reduce", general_path)
    assert np.array_equal(zereduce.sum(x, axis=1), x.sum(axis=1))
    assert np.array_equal(zereduce.max(x, axis=0), x.max(axis=0))
    assert zereduce.min(x) == 1
    with pytest.raises(AssertionError, match="general path"):
        zereduce.sum(x, axis=1, keepdims=True)  # a keyword beside axis: the general path


def test_the_fast_path_leaves_empty_and_refused_inputs_to_the_general_path():
    with pytest.raises(ValueError, match="zero-size"):
        zereduce.min(np.array([], dtype=np.float32))
    assert zereduce.sum(np.array([], dtype=np.float32)) == 0.0
    flags = np.array([True, False, True])
    assert zereduce.any(flags) and not zereduce.all(flags)
    with pytest.raises(zereduce.InvalidArgumentError):
        zereduce.sum(np.array([1 + 2j, 3j]))  # complex: no such dtype in the library
