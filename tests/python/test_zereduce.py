"""The zereduce package against NumPy on the default device (PoCL in CI): every dtype and operation, strided
and empty arrays, initial values, determinism, errors, threads, random shapes (hypothesis), and the package's
docstring example."""
import concurrent.futures
import math
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import zereduce

INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
NUMPY_OP = {"plus": np.add, "multiplies": np.multiply, "minimum": np.minimum, "maximum": np.maximum,
            "bit_and": np.bitwise_and, "bit_or": np.bitwise_or, "bit_xor": np.bitwise_xor,
            "logical_and": np.logical_and, "logical_or": np.logical_or}


def sample(dtype, n, seed=1):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(n) < 0.97
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
    return (rng.random(n) * 4 - 2).astype(dtype)


def check(x, op, result):
    expected = NUMPY_OP[op].reduce(x, dtype=x.dtype) if x.size else None
    assert isinstance(result, np.generic) and result.dtype == x.dtype, (type(result), x.dtype)
    if op in ("plus", "multiplies") and np.issubdtype(x.dtype, np.floating):
        # Sums: within n * eps of the sum of magnitudes (the library's bound is tighter); products of values in
        # [-2, 2) over few elements only (see the callers).
        exact = NUMPY_OP[op].reduce(x.astype(np.float64))
        scale = np.add.reduce(np.abs(x.astype(np.float64))) if op == "plus" else abs(exact)
        eps = np.finfo(x.dtype).eps
        assert abs(float(result) - exact) <= x.size * eps * scale + np.finfo(x.dtype).tiny, (result, exact)
    else:
        assert result == expected, (result, expected)


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("op", ["plus", "multiplies", "minimum", "maximum", "bit_and", "bit_or", "bit_xor"])
def test_integers_are_exact_and_wrap_like_numpy_in_their_dtype(dtype, op):
    x = sample(dtype, 100_003)
    check(x, op, zereduce.reduce(x, op))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", ["plus", "minimum", "maximum"])
def test_floats_sum_within_the_bound_and_min_max_exactly(dtype, op):
    x = sample(dtype, 65_537)
    check(x, op, zereduce.reduce(x, op))


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_products(dtype):
    x = (1 + (sample(dtype, 50).astype(np.float64) / 64)).astype(dtype)
    check(x, "multiplies", zereduce.prod(x))


@pytest.mark.parametrize("op", ["logical_and", "logical_or"])
def test_bool(op):
    x = sample(np.bool_, 10_001)
    check(x, op, zereduce.reduce(x, op))
    assert zereduce.all(np.ones(1000, bool)) and not zereduce.any(np.zeros(1000, bool))


def test_shortcuts_match_numpy():
    x = sample(np.int32, 5000) // 1024
    assert zereduce.sum(x) == np.add.reduce(x, dtype=x.dtype)
    assert zereduce.min(x) == x.min() and zereduce.max(x) == x.max()
    assert zereduce.reduce(x, "xor") == np.bitwise_xor.reduce(x)


def test_strided_and_two_dimensional_arrays_are_reduced_whole():
    x = sample(np.int64, 20_000)
    assert zereduce.sum(x[::3]) == np.add.reduce(x[::3], dtype=np.int64)
    m = x.reshape(100, 200)
    assert zereduce.max(m.T) == m.max()


def test_empty_arrays_give_the_identity_and_min_max_refuse_as_numpy():
    assert zereduce.sum(np.zeros(0, np.float32)) == 0 and zereduce.prod(np.zeros(0, np.int16)) == 1
    assert zereduce.all(np.zeros(0, bool)) and not zereduce.any(np.zeros(0, bool))
    with pytest.raises(ValueError):
        zereduce.min(np.zeros(0, np.float64))


def test_initial_value_is_folded_in():
    x = np.arange(100, dtype=np.int32)
    assert zereduce.sum(x, initial=1000) == 1000 + 4950
    assert zereduce.max(x, initial=500) == 500


def test_deterministic_repeats_bitwise():
    x = sample(np.float32, 1 << 20)
    first = zereduce.sum(x, deterministic=True)
    assert all(zereduce.sum(x, deterministic=True).tobytes() == first.tobytes() for _ in range(4))


@pytest.mark.parametrize("dtype", FLOATS)
def test_reproducible_sums_give_the_same_bits_in_any_order_and_strategy(dtype):
    x = sample(dtype, 100_003, seed=5)
    first = zereduce.sum(x, reproducible=True)
    for seed in (1, 2):
        shuffled = np.random.default_rng(seed).permutation(x)
        assert zereduce.sum(shuffled, reproducible=True).tobytes() == first.tobytes()
        assert zereduce.sum(shuffled, reproducible=True, strategy="tree").tobytes() == first.tobytes()
    if dtype == np.float64:
        # Every bit of these inputs (in [-2, 2)) lies in the binned window: the exact sum, rounded once.
        assert float(first) == math.fsum(x.tolist())


def test_reproducible_products_are_refused():
    with pytest.raises(zereduce.UnsupportedError, match="multiplies"):
        zereduce.prod(np.ones(10, np.float32), reproducible=True)


def test_nan_and_infinities_propagate_in_sums():
    x = np.ones(1000, np.float32)
    x[17] = np.inf
    assert zereduce.sum(x) == np.inf
    x[400] = np.nan
    assert np.isnan(zereduce.sum(x))


@pytest.mark.parametrize("bad, error", [
    (lambda: zereduce.sum(np.array(["a"])), zereduce.InvalidArgumentError),
    (lambda: zereduce.sum(np.array([1j])), zereduce.InvalidArgumentError),
    (lambda: zereduce.sum(np.array([object()])), zereduce.InvalidArgumentError),
    (lambda: zereduce.reduce(np.ones(4), "median"), zereduce.InvalidArgumentError),
    (lambda: zereduce.reduce(np.ones(4, np.float32), "bit_xor"), zereduce.InvalidArgumentError),
    (lambda: zereduce.sum(np.ones(4), strategy="fastest"), zereduce.InvalidArgumentError),
    (lambda: zereduce.sum(np.ones(4), device=10_000), zereduce.InvalidArgumentError),
])
def test_bad_input_raises_a_named_error(bad, error):
    with pytest.raises(error) as caught:
        bad()
    assert isinstance(caught.value, zereduce.Error) and str(caught.value)


def test_a_strategy_the_device_lacks_is_unsupported_not_a_wrong_answer():
    allowed = set()
    for strategy in ("tree", "subgroup", "work_group", "local_atomics", "cpu_chunks", "last_group", "global_atomics"):
        try:
            assert zereduce.sum(np.arange(10_000, dtype=np.int32), strategy=strategy) == 49_995_000
            allowed.add(strategy)
        except zereduce.UnsupportedError as error:
            assert strategy in str(error)
    assert "tree" in allowed


def test_threads_share_the_device():
    inputs = [sample(np.int64, 100_000, seed) for seed in range(16)]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(zereduce.sum, inputs))
    assert results == [np.add.reduce(x, dtype=np.int64) for x in inputs]


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(INTEGERS + [np.bool_]), shape=st.lists(st.integers(0, 40), min_size=1, max_size=3),
       seed=st.integers(0, 2**32 - 1))
def test_random_shapes_and_dtypes(dtype, shape, seed):
    x = sample(dtype, int(np.prod(shape)), seed).reshape(shape)
    op = "logical_or" if dtype == np.bool_ else "bit_xor"
    assert zereduce.reduce(x, op) == NUMPY_OP[op].reduce(x.reshape(-1), dtype=x.dtype) if x.size else True


def test_devices_list_the_default_device():
    listed = zereduce.devices()
    assert listed and all({"index", "name", "backend", "kind", "executes_kernels"} <= set(d) for d in listed)
    assert any(d["executes_kernels"] for d in listed)


def test_the_package_docstring_example_runs():
    example = textwrap.dedent(zereduce.__doc__.split("\n\n")[1])
    namespace = {}
    exec(compile(example, "zereduce docstring", "exec"), namespace)


@pytest.mark.parametrize("dtype, op", [(np.int32, "plus"), (np.float32, "maximum"), (np.uint8, "bit_or")])
def test_axis_0_of_a_2d_array_is_one_result_per_column(dtype, op):
    m = sample(dtype, 3000 * 7).reshape(3000, 7)
    got = zereduce.reduce(m, op, axis=0)
    assert got.shape == (7,) and got.dtype == m.dtype
    assert np.array_equal(got, NUMPY_OP[op].reduce(m, axis=0, dtype=m.dtype))
    strided = m[::2]
    assert np.array_equal(zereduce.reduce(strided, op, axis=0), NUMPY_OP[op].reduce(strided, axis=0, dtype=m.dtype))
    assert np.array_equal(zereduce.sum(m[:, :3], axis=0, initial=5) if op == "plus" else got, 
                          (np.add.reduce(m[:, :3], axis=0, dtype=m.dtype) + 5) if op == "plus" else got)
    # axis=1 reduces the rows as segments (test_segments.py covers the axes in full).
    assert np.array_equal(zereduce.reduce(m, op, axis=1), NUMPY_OP[op].reduce(m, axis=1, dtype=m.dtype))


def test_python_m_zereduce_lists_the_devices_as_ze_reduce_does():
    import os
    import subprocess
    import sys
    listed = subprocess.run([sys.executable, "-m", "zereduce", "--list"], capture_output=True, text=True, check=True)
    assert listed.stdout.startswith("[0] ") and "kernels execute" in listed.stdout
    assert all(f"[{d['index']}] {d['backend']} {d['kind']}: {d['description']}" in listed.stdout
               for d in zereduce.devices())
    cli = os.environ.get("ZE_REDUCE_CLI")  # set by ctest; the pip-installed package has no ze_reduce beside it
    if not cli:
        pytest.skip("no ze_reduce to compare with (ZE_REDUCE_CLI unset)")
    for flags in ([], ["-v"]):
        ours = subprocess.run([sys.executable, "-m", "zereduce", "--list"] + flags, capture_output=True, text=True,
                              check=True).stdout
        theirs = subprocess.run([cli, "--list"] + flags, capture_output=True, text=True, check=True).stdout
        assert ours == theirs, flags


def test_the_readme_python_example_runs():
    import pathlib
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    example = readme.split("## From Python")[1].split("```python\n")[1].split("```")[0]
    exec(compile(example, "README.md", "exec"), {})


def test_the_type_stubs_declare_every_public_name():
    import ast
    import pathlib
    stub = pathlib.Path(zereduce.__file__).with_suffix(".pyi")
    declared = {node.name for node in ast.parse(stub.read_text()).body
                if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert set(zereduce.__all__) <= declared, set(zereduce.__all__) - declared


def test_a_user_identity_is_taken_when_it_is_the_identity_and_refused_otherwise():
    x = sample(np.int16, 10_000)
    assert zereduce.max(x, identity=np.iinfo(np.int16).min) == x.max()
    assert zereduce.reduce(x, "bit_and", identity=-1, initial=0x0F0F) == (np.bitwise_and.reduce(x) & 0x0F0F)
    m = x[:9_999].reshape(-1, 3)
    assert np.array_equal(zereduce.sum(m, axis=0, identity=0), np.add.reduce(m, axis=0, dtype=m.dtype))
    with pytest.raises(zereduce.InvalidArgumentError, match="not an identity"):
        zereduce.sum(x, identity=1)


@pytest.mark.parametrize("block", range(5))
def test_the_python_guide_examples_run(block):
    import pathlib
    guide = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text()
    examples = [part.split("```")[0] for part in guide.split("```python\n")[1:]]
    assert len(examples) == 5, "docs/python.md changed its examples: update this test's range"
    exec(compile(examples[block], f"docs/python.md example {block + 1}", "exec"), {})


@pytest.mark.parametrize("dtype", INTEGERS + FLOATS)
def test_argmin_argmax_match_numpy_with_ties(dtype):
    rng = np.random.default_rng(5)
    x = rng.integers(0, 20, size=70001).astype(dtype)  # few values: the extremes repeat, the first must win
    assert zereduce.argmax(x) == np.argmax(x)
    assert zereduce.argmin(x) == np.argmin(x)
    index, value = zereduce.argmax(x, return_value=True)
    assert value == x[index] and value.dtype == x.dtype


def test_argmax_first_nan_wins_and_2d_is_flattened_and_empty_raises():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert zereduce.argmax(x) == np.argmax(x) == 11
    x[1, 2] = np.nan
    x[2, 0] = np.nan
    assert zereduce.argmax(x) == zereduce.argmin(x) == np.argmax(x) == 6
    assert zereduce.argmax(zereduce.asarray(x)) == 6  # from device memory
    with pytest.raises(ValueError):
        zereduce.argmax(np.zeros(0, dtype=np.float32))
    with pytest.raises(zereduce.InvalidArgumentError):
        zereduce.argmax(np.ones(5, dtype=np.bool_))


def test_norms_counts_and_widening_sums_agree_with_numpy():
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, size=(300, 701)).astype(np.float32)
    x[x > 1.5] = 0
    flat = x.reshape(-1).astype(np.float64)
    assert zereduce.norm(x) == pytest.approx(np.linalg.norm(flat), rel=1e-5)
    assert zereduce.norm(x, ord=1) == pytest.approx(np.linalg.norm(flat, ord=1), rel=1e-5)
    assert zereduce.sum_of_squares(zereduce.asarray(x)) == pytest.approx(np.dot(flat, flat), rel=1e-5)
    assert zereduce.count_nonzero(x) == np.count_nonzero(x)
    assert zereduce.count_equal(x, 0) == np.count_nonzero(x == 0)
    big = np.full(100000, 30000, dtype=np.int16)
    assert zereduce.sum_as(big, np.int64) == np.sum(big, dtype=np.int64) == 3_000_000_000
    assert isinstance(zereduce.count_nonzero(np.ones(3, dtype=np.bool_)), int)
    halves = np.full(5000, 1024, dtype=np.float16)
    assert zereduce.sum_as(halves, np.float32) == np.float32(5_120_000)
    assert zereduce.norm(halves).dtype == np.float16  # 72,408 overflows float16: inf, as numpy's float16 norm
    with pytest.raises(zereduce.InvalidArgumentError):
        zereduce.norm(np.ones(4, dtype=np.int32))
    with pytest.raises(ValueError):
        zereduce.norm(x, ord=3)


def test_mean_var_std_agree_with_numpy_far_from_zero():
    rng = np.random.default_rng(3)
    samples = (20000 + rng.integers(-3, 4, size=(512, 300))).astype(np.int16)
    flat = samples.reshape(-1).astype(np.float64)
    assert zereduce.mean(samples) == pytest.approx(flat.mean(), rel=1e-12)
    assert zereduce.var(samples) == pytest.approx(flat.var(), rel=1e-9)
    assert zereduce.var(samples, ddof=1) == pytest.approx(flat.var(ddof=1), rel=1e-9)
    assert zereduce.std(zereduce.asarray(samples)) == pytest.approx(flat.std(), rel=1e-9)
    assert zereduce.var(samples, dtype=np.float32) == pytest.approx(flat.var(), rel=1e-2)
    assert np.isnan(zereduce.mean(np.zeros(0, dtype=np.float32)))
    assert np.isnan(zereduce.var(np.array([1.0, np.nan], dtype=np.float32)))
    with pytest.raises(ValueError):
        zereduce.var(samples, dtype=np.int32)
