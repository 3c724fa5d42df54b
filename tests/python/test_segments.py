"""zereduce.segment_reduce, zereduce.reduceat and reductions over axes, against NumPy on the default device:
every dtype, exact where NumPy's own result is (integers, bool, min/max), within the sum's bound for floating
sums; empty segments, skewed and equal sizes, N-D axes in place and moved, keepdims, and the errors."""
import re

import numpy as np
import pytest

import zereduce

INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
UFUNC = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
         "or": np.bitwise_or, "xor": np.bitwise_xor, "all": np.logical_and, "any": np.logical_or}


def values(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(n) < 0.9
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 100, size=n).astype(dtype)
    return (rng.random(n) * 4 - 2).astype(dtype)


def agree(x, offsets, op, got):
    assert got.dtype == x.dtype and got.shape == (len(offsets) - 1,)
    for s, (b, e) in enumerate(zip(offsets[:-1], offsets[1:])):
        part = x[b:e]
        if not part.size:
            ident = {"sum": 0, "prod": 1, "all": True, "any": False, "or": 0, "xor": 0}
            if op == "min":
                want = np.inf if np.issubdtype(x.dtype, np.floating) else np.iinfo(x.dtype).max
            elif op == "max":
                want = -np.inf if np.issubdtype(x.dtype, np.floating) else np.iinfo(x.dtype).min
            else:
                want = ident[op]
            assert got[s] == np.array(want).astype(x.dtype), (s, got[s], want)
        elif op == "sum" and np.issubdtype(x.dtype, np.floating):
            exact = part.astype(np.float64).sum()
            bound = part.size * np.finfo(x.dtype).eps * np.abs(part.astype(np.float64)).sum() + 1e-30
            assert abs(float(got[s]) - exact) <= bound, (s, got[s], exact)
        else:
            assert got[s] == UFUNC[op].reduce(part, dtype=x.dtype), (s, got[s])


def offsets_of(sizes, start=0):
    return np.concatenate([[start], start + np.cumsum(sizes)]).astype(np.int64)


SHAPES = {
    "tiny": lambda rng: rng.integers(0, 6, size=2000),
    "medium": lambda rng: rng.integers(20, 700, size=150),
    "one huge among tiny": lambda rng: np.where(np.arange(1500) == 700, 60000, 1),
    "few long": lambda rng: np.array([40000, 0, 70001]),
}


@pytest.mark.parametrize("dtype", INTEGERS + FLOATS + [np.bool_])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_segment_reduce_matches_numpy_per_segment(dtype, shape):
    rng = np.random.default_rng(len(shape))
    offsets = offsets_of(SHAPES[shape](rng), start=2)
    x = values(dtype, int(offsets[-1]) + 3, seed=7)
    ops = ["all", "any"] if dtype == np.bool_ else ["sum", "min", "max"] + (["xor"] if dtype in INTEGERS else [])
    for op in ops:
        agree(x, offsets, op, zereduce.segment_reduce(x, offsets, op))


def test_segment_reduce_takes_any_integer_offsets_and_folds_initial_values():
    x = np.arange(10, dtype=np.int64)
    for dtype in (np.int32, np.uint32, np.int64, np.uint64, np.int16):
        got = zereduce.segment_reduce(x, np.array([0, 4, 4, 10], dtype=dtype), "sum", initial=100)
        assert np.array_equal(got, [106, 100, 139])
    assert np.array_equal(zereduce.segment_reduce(x, [1, 3], "max", initial=[-5]), [2])


def test_segment_reduce_refuses_bad_offsets_naming_them():
    x = np.ones(10, dtype=np.float32)
    with pytest.raises(zereduce.InvalidArgumentError, match="offset 1 is 6 and offset 2 is 4"):
        zereduce.segment_reduce(x, [0, 6, 4, 10])
    with pytest.raises(zereduce.InvalidArgumentError, match="offset 2 is 11, past the end of the input"):
        zereduce.segment_reduce(x, [0, 6, 11])
    with pytest.raises(zereduce.InvalidArgumentError, match="negative"):
        zereduce.segment_reduce(x, [-1, 6])
    with pytest.raises(zereduce.InvalidArgumentError, match="integers"):
        zereduce.segment_reduce(x, [0.0, 6.0])
    with pytest.raises(zereduce.InvalidArgumentError, match="segments \\+ 1"):
        zereduce.segment_reduce(x, [])


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.uint8, np.float64])
def test_segment_reduce_with_ends_reduces_each_range_anywhere(dtype):
    rng = np.random.default_rng(11)
    x = values(dtype, 50_000, seed=3)
    for longest in (6, 700, 30_000):  # a work-item, lanes, a group per segment
        begins = rng.integers(0, x.size + 1, size=400)
        ends = np.minimum(x.size, begins + rng.integers(0, longest + 1, size=400))
        ends[::7] = begins[::7]  # some empty
        for op in ("sum", "min", "max"):
            got = zereduce.segment_reduce(x, begins, op, ends=ends)
            assert got.shape == (400,)
            for s in range(400):  # each against its own range, as agree() checks a pair of offsets
                agree(x, [begins[s], ends[s]], op, got[s:s + 1])


def test_segment_reduce_with_ends_refuses_bad_ranges_naming_them():
    x = np.ones(10, dtype=np.float32)
    with pytest.raises(zereduce.InvalidArgumentError, match="segment 1 ends at 2, before it begins at 5"):
        zereduce.segment_reduce(x, [0, 5], ends=[3, 2])
    with pytest.raises(zereduce.InvalidArgumentError, match="segment end 0 is 11, past the end"):
        zereduce.segment_reduce(x, [0], ends=[11])
    with pytest.raises(zereduce.InvalidArgumentError, match="begin offsets are 2 but their end offsets 1"):
        zereduce.segment_reduce(x, [0, 1], ends=[3])
    assert zereduce.segment_reduce(x, [], ends=[]).shape == (0,)


@pytest.mark.parametrize("indices", [[0, 3, 3, 5], [0, 4, 1, 6], [6], [2, 2], [0, 1, 2, 3, 4, 5, 6], [5, 0]])
@pytest.mark.parametrize("op", ["sum", "max", "min", "prod"])
def test_reduceat_is_numpys(indices, op):
    x = np.array([5, 7, 1, 2, 9, 4, 4], dtype=np.int32)
    assert np.array_equal(zereduce.reduceat(x, indices, op), UFUNC[op].reduceat(x, indices))


def test_reduceat_of_a_large_array_and_its_errors():
    rng = np.random.default_rng(5)
    x = rng.random(100_000).astype(np.float32)
    indices = np.sort(rng.integers(0, x.size, size=3000))
    got, want = zereduce.reduceat(x, indices, "max"), np.maximum.reduceat(x, indices)
    assert np.array_equal(got, want)
    shuffled = rng.permutation(indices)  # decreasing indices: begin and end arrays, one call
    assert np.array_equal(zereduce.reduceat(x, shuffled, "min"), np.minimum.reduceat(x, shuffled))
    with pytest.raises(IndexError, match="out-of-bounds"):
        zereduce.reduceat(x, [0, x.size])
    with pytest.raises(IndexError):
        zereduce.reduceat(x, [-1])
    with pytest.raises(zereduce.InvalidArgumentError, match="1-D"):
        zereduce.reduceat(x.reshape(100, -1), [0])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, (1, 2), (0, 2), (0, 1), (0, 1, 2), (2, 0)])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float64])
def test_axes_and_keepdims_match_numpy(axis, keepdims, dtype):
    m = values(dtype, 3 * 5 * 70, seed=11).reshape(3, 5, 70)
    for op, ufunc in (("max", np.maximum), ("min", np.minimum), ("sum", np.add)):
        got = zereduce.reduce(m, op, axis=axis, keepdims=keepdims)
        want = ufunc.reduce(m, axis=axis, keepdims=keepdims, dtype=m.dtype)
        assert got.shape == want.shape and got.dtype == m.dtype
        if op == "sum" and dtype == np.float64:
            assert np.allclose(got, want, rtol=1e-12, atol=0)
        else:
            assert np.array_equal(got, want)


def test_axis_errors_and_empty_axes():
    m = np.zeros((3, 0, 4), dtype=np.float32)
    assert np.array_equal(zereduce.sum(m, axis=1), np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="no identity"):
        zereduce.max(m, axis=1)
    with pytest.raises(IndexError):  # numpy's AxisError is both an IndexError and a ValueError
        zereduce.sum(m, axis=3)
    with pytest.raises(ValueError, match="duplicate"):
        zereduce.sum(m, axis=(0, -3))
    with pytest.raises(zereduce.UnsupportedError, match="segments"):
        zereduce.sum(np.ones((2, 3), np.float32), axis=1, strategy="tree")


@pytest.mark.parametrize("dtype", FLOATS)
def test_reproducible_segment_sums_have_each_segments_own_reproducible_bits(dtype):
    rng = np.random.default_rng(4)
    offsets = offsets_of(rng.integers(0, 900, size=60))
    n = max(int(offsets[-1]), 27_000)
    x = (rng.standard_normal(n) * 2.0 ** rng.integers(-10, 10, size=n)).astype(dtype)
    got = zereduce.segment_reduce(x, offsets, "sum", reproducible=True)
    for s in range(60):
        want = zereduce.sum(x[offsets[s]:offsets[s + 1]], reproducible=True)
        assert got[s].tobytes() == np.asarray(want, dtype=dtype).tobytes(), (s, got[s], want)
    rows = zereduce.sum(x[:27_000].reshape(30, 900), axis=1, reproducible=True)
    for r in range(30):
        assert rows[r].tobytes() == np.asarray(zereduce.sum(x[r * 900:(r + 1) * 900], reproducible=True), dtype=dtype).tobytes()


@pytest.mark.parametrize("dtype", INTEGERS + FLOATS)
@pytest.mark.parametrize("op", ["argmin", "argmax"])
def test_segment_argmin_argmax_are_numpys_per_segment(dtype, op):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 9, size=30_000).astype(dtype)  # few values: ties decide the index
    if np.issubdtype(dtype, np.floating):
        x[[100, 12_345, 12_350]] = np.nan
    sizes = np.where(rng.random(4_000) < 0.02, rng.integers(100, 3_000, size=4_000), rng.integers(1, 8, size=4_000))
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    offsets = offsets[offsets <= x.size]
    indices, found = zereduce.segment_reduce(x, offsets, op, return_value=True)
    assert indices.dtype == np.int64 and found.dtype == x.dtype
    for s, (b, e) in enumerate(zip(offsets[:-1], offsets[1:])):
        want = getattr(np, op)(x[b:e])
        assert indices[s] == want, (s, indices[s], want)
        assert np.array_equal(found[s], x[b + want], equal_nan=True)
    # begin and end arrays, reversed; and the indices alone.
    begins, ends = offsets[:-1][::-1], offsets[1:][::-1]
    assert np.array_equal(zereduce.segment_reduce(x, begins, op, ends=ends), indices[::-1])


def test_segment_argmax_refuses_empty_segments_and_initial_values():
    x = np.arange(10, dtype=np.float32)
    with pytest.raises(zereduce.InvalidArgumentError, match="segment 1 is empty"):
        zereduce.segment_reduce(x, [0, 4, 4, 10], "argmax")
    with pytest.raises(zereduce.InvalidArgumentError, match="no initial value"):
        zereduce.segment_reduce(x, [0, 4, 10], "argmin", initial=0)
    with pytest.raises(zereduce.InvalidArgumentError, match="bool"):
        zereduce.segment_reduce(np.ones(4, dtype=np.bool_), [0, 4], "argmax")


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.float32, np.float64])
def test_argmin_argmax_along_an_axis_match_numpy(axis, keepdims, dtype):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(6, 70, 33)).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        x[2, 5, 7] = np.nan
    for op in ("argmin", "argmax"):
        got = getattr(zereduce, op)(x, axis, keepdims=keepdims)
        want = getattr(np, op)(x, axis=axis, keepdims=keepdims)
        assert got.shape == want.shape and np.array_equal(got, want), (op, axis)
    index, value = zereduce.argmax(x, axis=axis, return_value=True)
    assert np.array_equal(value, np.take_along_axis(x, np.expand_dims(index, axis), axis).squeeze(axis), equal_nan=True)


def test_argmax_along_an_axis_errors_as_numpy():
    with pytest.raises(ValueError, match="empty sequence"):
        zereduce.argmax(np.zeros((3, 0), dtype=np.float32), axis=1)
    with pytest.raises(IndexError):  # NumPy's AxisError is one
        zereduce.argmin(np.zeros((3, 2), dtype=np.float32), axis=2)
    with pytest.raises(TypeError):
        zereduce.argmin(np.zeros((3, 2), dtype=np.float32), axis=(0, 1))


@pytest.mark.parametrize("axis", [1, -1, 0, (0, 2), (1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_norms_and_moments_along_axes_match_numpy(axis, keepdims, dtype):
    m = values(dtype, 4 * 6 * 90, seed=12).reshape(4, 6, 90)
    wide = m.astype(np.float64)
    tol = {np.float16: 2e-3, np.float32: 2e-5, np.float64: 1e-12}[dtype]
    norm = zereduce.norm(m, axis=axis, keepdims=keepdims)
    want = np.sqrt((wide * wide).sum(axis=axis, keepdims=keepdims))
    assert norm.shape == want.shape and norm.dtype == m.dtype
    assert np.allclose(norm.astype(np.float64), want, rtol=tol, atol=0)
    l1 = zereduce.norm(m, 1, axis=axis, keepdims=keepdims)
    assert np.allclose(l1.astype(np.float64), np.abs(wide).sum(axis=axis, keepdims=keepdims), rtol=tol, atol=0)
    assert np.allclose(zereduce.sum_of_squares(m, axis=axis, keepdims=keepdims).astype(np.float64),
                       (wide * wide).sum(axis=axis, keepdims=keepdims), rtol=tol, atol=0)
    for ddof in (0, 1):
        assert np.allclose(zereduce.var(m, axis=axis, keepdims=keepdims, ddof=ddof),
                           np.var(wide, axis=axis, keepdims=keepdims, ddof=ddof), rtol=1e-9, atol=1e-12)
    assert np.allclose(zereduce.mean(m, axis=axis, keepdims=keepdims), np.mean(wide, axis=axis, keepdims=keepdims),
                       rtol=1e-9, atol=1e-12)
    if dtype != np.float64:  # float32 accumulators take integers, float16 and float32
        assert np.allclose(zereduce.std(m, axis=axis, keepdims=keepdims, dtype=np.float32),
                           np.std(wide, axis=axis, keepdims=keepdims), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", INTEGERS + [np.bool_, np.float32])
def test_counts_and_widened_sums_along_axes_are_exact(dtype):
    m = values(dtype, 7 * 300, seed=13).reshape(7, 300)
    if dtype != np.bool_:
        m[:, ::4] = 0
    assert np.array_equal(zereduce.count_nonzero(m, axis=1), np.count_nonzero(m, axis=1))
    assert np.array_equal(zereduce.count_nonzero(m, axis=0, keepdims=True), np.count_nonzero(m, axis=0, keepdims=True))
    counted = m.flat[5]
    assert np.array_equal(zereduce.count_equal(m, counted, axis=1), np.count_nonzero(m == counted, axis=1))
    if dtype != np.float32:
        got = zereduce.sum_as(m, np.int64, axis=1)
        assert got.dtype == np.int64 and np.array_equal(got, m.sum(axis=1, dtype=np.int64))


def test_transforms_per_segment_match_numpy():
    rng = np.random.default_rng(14)
    for sizes in (rng.integers(0, 6, size=800), rng.integers(20, 700, size=90), np.array([40000, 0, 70001]),
                  np.where(np.arange(1500) == 700, 60000, 1)):
        offsets = offsets_of(sizes)
        x = values(np.float32, int(offsets[-1]), seed=int(sizes.size))
        x[::7] = 0
        parts = [x[b:e].astype(np.float64) for b, e in zip(offsets[:-1], offsets[1:])]
        norms = zereduce.segment_reduce(x, offsets, "norm_l2")
        assert norms.dtype == np.float32
        assert np.allclose(norms, [np.sqrt((p * p).sum()) for p in parts], rtol=2e-5, atol=0)
        assert np.allclose(zereduce.segment_reduce(x, offsets, "norm_l1"), [np.abs(p).sum() for p in parts], rtol=2e-5)
        assert np.allclose(zereduce.segment_reduce(x, offsets, "sum_of_squares"), [(p * p).sum() for p in parts],
                           rtol=2e-5)
        assert np.array_equal(zereduce.segment_reduce(x, offsets, "count_nonzero"), [np.count_nonzero(p) for p in parts])
        assert np.array_equal(zereduce.segment_reduce(x, offsets, "count_equal", value=0.0),
                              [np.count_nonzero(p == 0) for p in parts])
        means = zereduce.segment_reduce(x, offsets, "mean")
        want = [p.mean() if p.size else np.nan for p in parts]
        assert np.allclose(means, want, rtol=1e-9, atol=1e-12, equal_nan=True)
    begins, ends = np.array([5, 0, 9, 9]), np.array([20, 30, 9, 10])
    got = zereduce.segment_reduce(x, begins, "count_nonzero", ends=ends)
    assert np.array_equal(got, [np.count_nonzero(x[b:e]) for b, e in zip(begins, ends)])


def test_transforms_per_segment_refuse_what_they_cannot_do():
    x = np.ones(10, np.float32)
    with pytest.raises(zereduce.InvalidArgumentError, match="value="):
        zereduce.segment_reduce(x, [0, 5, 10], "count_equal")
    with pytest.raises(zereduce.InvalidArgumentError, match="initial"):
        zereduce.segment_reduce(x, [0, 5, 10], "norm_l2", initial=1.0)
    with pytest.raises(zereduce.InvalidArgumentError, match="norm_l2 is not defined for i32"):
        zereduce.norm(np.ones((2, 3), np.int32), axis=1)
    with pytest.raises(zereduce.UnsupportedError, match="segments"):
        zereduce.norm(np.ones((2, 3), np.float32), axis=1, strategy="tree")


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8])
def test_rows_past_the_host_path_write_every_result(dtype):
    # Past the default device's crossover the results are written by the device (in place on CPU devices) into an
    # array handed out uncopied and never cleared first: every row's result must be there.
    default = next(d for d in zereduce.devices() if d.get("default"))
    crossover = max(default.get("host_path_max_segment_bytes", 0), default.get("host_path_max_bytes", 0))
    rows = max(1 << 18, 2 * crossover // np.dtype(dtype).itemsize)
    x = values(dtype, rows * 2, 11).reshape(rows, 2)
    assert np.array_equal(zereduce.max(x, axis=1), x.max(axis=1))
    ones = x[:, :1].copy()
    assert np.array_equal(zereduce.max(ones, axis=1), ones.max(axis=1))
    future = zereduce.reduce_async(np.ascontiguousarray(x.T), "minimum", axis=0)  # a column per row of x
    assert future.result() is future.result()
    assert np.array_equal(future.result(), x.min(axis=1))


@pytest.mark.parametrize("dtype", INTEGERS + FLOATS + [np.bool_])
@pytest.mark.parametrize("op", sorted(UFUNC))
def test_reduceat_fast_path_gives_what_the_general_path_gives(dtype, op):
    x = values(dtype, 1000, 21)
    indices = np.array([0, 1, 17, 400, 401, 999], dtype=np.int64)
    try:
        general = zereduce.reduceat(x, list(indices), op)  # a list: the general path
    except zereduce.InvalidArgumentError as error:
        with pytest.raises(zereduce.InvalidArgumentError, match=re.escape(str(error))):
            zereduce.reduceat(x, indices, op)
        return
    fast = zereduce.reduceat(x, indices, op)
    assert fast.dtype == general.dtype and fast.shape == general.shape
    assert np.array_equal(fast, general)
    for s, (b, e) in enumerate(zip(indices, list(indices[1:]) + [x.size])):
        if op != "prod" or not np.issubdtype(dtype, np.floating):  # agree() checks products exactly
            agree(x, [b, e], op, fast[s:s + 1])


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_reduceat_of_increasing_int64_indices_never_reaches_the_general_path_where_the_default_device_has_a_host_path(
        dtype, monkeypatch):
    default = next((d for d in zereduce.devices() if d["default"]), None)
    if default is None or default["host_path_max_segment_bytes"] < 4096:
        pytest.skip(f"the default device has no host path for this array: {default}")

    def general_path(*args, **kwargs):
        raise AssertionError("the fast path fell back to segment_reduce")

    x = values(dtype, 1000, 22)
    indices = np.array([0, 3, 500, 998], dtype=np.int64)
    want = np.maximum.reduceat(x, indices)
    monkeypatch.setattr(zereduce, "segment_reduce", general_path)
    assert np.array_equal(zereduce.reduceat(x, indices, "max"), want)


def test_reduceat_calls_the_fast_path_cannot_take_still_give_numpys_answer_or_error():
    x = np.arange(1, 41, dtype=np.float64)
    for indices in (np.array([0, 5, 5, 9]), np.array([7, 2, 30]), np.array([0, 5, 9], dtype=np.int32),
                    np.array([0, 4, 8, 12])[::2], np.array([3])):
        assert np.array_equal(zereduce.reduceat(x, indices), np.add.reduceat(x, indices)), indices
    assert np.array_equal(zereduce.reduceat(x[::2], np.array([0, 3])), np.add.reduceat(x[::2], np.array([0, 3])))
    with pytest.raises(IndexError, match="out-of-bounds"):
        zereduce.reduceat(x, np.array([0, 40]))
    with pytest.raises(IndexError):
        zereduce.reduceat(x, np.array([-1, 3]))
