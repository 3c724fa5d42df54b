"""zereduce.segment_reduce, zereduce.reduceat and reductions over axes, against NumPy on the default device:
every dtype, exact where NumPy's own result is (integers, bool, min/max), within the sum's bound for floating
sums; empty segments, skewed and equal sizes, N-D axes in place and moved, keepdims, and the errors."""
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
