"""zereduce's memory paths and waits against NumPy: arrays read in place (unaligned views included), arrays kept
in device memory (asarray), host DLPack producers, asynchronous reductions, and Ctrl-C during a long wait."""
import concurrent.futures
import os

import numpy as np
import pytest

import zereduce


def integers(dtype, n, seed=3):
    info = np.iinfo(dtype)
    return np.random.default_rng(seed).integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint64])
@pytest.mark.parametrize("offset", [0, 1, 3])
def test_views_at_any_offset_are_read_whole(dtype, offset):
    # Views one or three elements in: host pointers at every alignment (CPU devices read them in place).
    x = integers(dtype, (1 << 18) + 5)
    view = x[offset:]
    assert zereduce.sum(view) == np.add.reduce(view, dtype=dtype)
    assert zereduce.reduce(view, "xor") == np.bitwise_xor.reduce(view)
    assert zereduce.max(view) == view.max()


def test_device_arrays_round_trip_and_reduce_as_the_host_array_does():
    x = integers(np.int32, 300_001)
    on_device = zereduce.asarray(x)
    assert isinstance(on_device, zereduce.DeviceArray)
    assert on_device.shape == x.shape and on_device.dtype == x.dtype and on_device.size == x.size
    assert on_device.nbytes == x.nbytes and len(on_device) == x.size and on_device.ndim == 1
    assert np.array_equal(np.asarray(on_device), x)
    for op in ("plus", "minimum", "bit_xor"):
        expected = {"plus": np.add, "minimum": np.minimum, "bit_xor": np.bitwise_xor}[op].reduce(x, dtype=x.dtype)
        assert zereduce.reduce(on_device, op) == expected
        assert zereduce.reduce(on_device, op) == zereduce.reduce(x, op)
    assert zereduce.asarray(on_device) is on_device


def test_device_arrays_take_axis_0_initial_values_and_every_dtype():
    m = integers(np.uint16, 4000 * 5).reshape(4000, 5)
    on_device = zereduce.asarray(m)
    assert np.array_equal(zereduce.sum(on_device, axis=0), np.add.reduce(m, axis=0, dtype=m.dtype))
    assert zereduce.max(on_device, initial=65535) == 65535
    halves = (np.random.default_rng(4).random(10_000) * 4 - 2).astype(np.float16)
    assert zereduce.max(zereduce.asarray(halves)) == halves.max()
    assert zereduce.sum(zereduce.asarray(np.zeros(0, np.float32))) == 0


def test_device_arrays_refuse_another_device_and_bad_dtypes():
    on_device = zereduce.asarray(np.arange(10, dtype=np.int64))
    other = [d["index"] for d in zereduce.devices() if d["index"] != on_device.device]
    if other:
        with pytest.raises(zereduce.InvalidArgumentError, match="lives on device"):
            zereduce.sum(on_device, device=other[0])
    with pytest.raises(zereduce.InvalidArgumentError):
        zereduce.asarray(np.array([1j, 2j]))
    with pytest.raises(zereduce.InvalidArgumentError):
        zereduce.asarray(np.array([object()]))
    # A DeviceArray's axes reduce as a host array's do (axis 0 of a 1-D array: all of it).
    assert zereduce.sum(on_device, axis=0) == 45
    with pytest.raises(IndexError):
        zereduce.sum(on_device, axis=1)


class HostDlpack:
    """A DLPack producer that is not a NumPy array (as a CPU tensor of another library would be)."""

    def __init__(self, array, device_type=1):
        self._array, self._device_type = array, device_type

    def __dlpack__(self, stream=None):
        return self._array.__dlpack__()

    def __dlpack_device__(self):
        return (self._device_type, 0)


def test_host_dlpack_producers_are_read_and_others_refused():
    x = integers(np.int64, 50_000)
    assert zereduce.sum(HostDlpack(x)) == np.add.reduce(x, dtype=x.dtype)
    assert zereduce.max(zereduce.asarray(HostDlpack(x))) == x.max()
    with pytest.raises(zereduce.InvalidArgumentError, match="DLPack"):
        zereduce.sum(HostDlpack(x, device_type=2))


def test_asynchronous_reductions_give_the_blocking_results():
    inputs = [integers(np.int64, 200_000 + 1000 * i, seed=i) for i in range(8)]
    futures = [zereduce.reduce_async(x, "plus") for x in inputs]
    columns = zereduce.reduce_async(inputs[0][:199_998].reshape(-1, 6), "max", axis=0)
    for x, future in zip(reversed(inputs), reversed(futures)):
        assert future.result(timeout=600) == np.add.reduce(x, dtype=x.dtype)
        assert future.done()
    assert np.array_equal(columns.result(), inputs[0][:199_998].reshape(-1, 6).max(axis=0))


def test_an_asynchronous_error_comes_from_result_or_at_once():
    with pytest.raises(zereduce.UnsupportedError):
        zereduce.reduce_async(np.ones(10, np.float32), "prod", reproducible=True).result()


# A child process whose last_group reductions hang (the library's test-only fault injection) until the wait limit: a
# wait that only Ctrl-C can end early. The input is large enough (> 1 MiB) to run on the queue's worker.
HANGING_CHILD = r"""
import signal, threading, time, numpy as np, zereduce
x = np.ones(1 << 20, np.int32)
main = threading.main_thread().ident
threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT)).start()
start = time.perf_counter()
try:
    zereduce.sum(x, strategy="last_group")
    print("returned")
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - start:.2f} s", flush=True)
try:
    future = zereduce.reduce_async(x, "plus", strategy="last_group")
    future.result(timeout=0.2)
except TimeoutError:
    print(f"timed out, done={future.done()}", flush=True)
try:
    zereduce.sum(np.arange(1000, dtype=np.int32))
    print("returned")
except zereduce.Error as error:
    print(type(error).__name__, flush=True)
"""


# The same reductions without the fault: they build the child's device programs into a binary cache that the
# hanging child then loads. A cold build takes seconds (20 s on a loaded 2-core machine, through the test driver)
# and no wait has begun yet, so a Ctrl-C sent during it could not be seen at once and the timing below would fail.
WARMING_CHILD = r"""
import numpy as np, zereduce
assert zereduce.sum(np.ones(1 << 20, np.int32), strategy="last_group") == 1 << 20
assert zereduce.reduce_async(np.ones(1 << 20, np.int32), "plus", strategy="last_group").result() == 1 << 20
assert zereduce.sum(np.arange(1000, dtype=np.int32)) == 499500
"""


def run_hanging_child(cache_dir):
    import subprocess
    import sys
    env = dict(os.environ, ZE_REDUCE_CACHE_DIR=str(cache_dir))
    subprocess.run([sys.executable, "-c", WARMING_CHILD], capture_output=True, text=True, env=env, timeout=600,
                   check=True)
    env.update(ZE_REDUCE_FAULT_INJECTION="hang:last_group", ZE_REDUCE_TIMEOUT_S="4")
    return subprocess.run([sys.executable, "-c", HANGING_CHILD], capture_output=True, text=True, env=env,
                          timeout=120)


def test_ctrl_c_interrupts_a_long_wait_and_a_timeout_gives_up_waiting(tmp_path):
    child = run_hanging_child(tmp_path / "binary-cache")
    lines = child.stdout.splitlines()
    assert child.returncode == 0, (child.stdout, child.stderr)
    assert lines[0].startswith("interrupted after "), child.stdout
    # The wait ended soon after the signal (0.3 s): it checks for signals every 50 ms, far before the 4 s limit.
    assert float(lines[0].split()[2]) < 2.0, lines[0]
    assert lines[1] == "timed out, done=False", child.stdout
    # The interrupted work was kept alive until its wait limit; the device counts as hung from then on, and
    # the next reduction says so with the library's error class.
    assert lines[2] == "TimeoutError", child.stdout


def test_threads_reduce_device_arrays_and_host_arrays_at_once():
    arrays = [integers(np.int32, 100_000, seed) for seed in range(6)]
    on_device = [zereduce.asarray(x) for x in arrays]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(zereduce.sum, on_device + arrays))
    assert results == [np.add.reduce(x, dtype=x.dtype) for x in arrays] * 2


def test_ze_reduce_device_chooses_the_default_device():
    import subprocess
    import sys
    listed = zereduce.devices()
    runnable = [d["index"] for d in listed if d["executes_kernels"]]
    child = "import numpy as np, zereduce; a = zereduce.asarray(np.arange(10)); print(a.device, zereduce.sum(a))"
    for index in runnable[-2:]:
        env = dict(os.environ, ZE_REDUCE_DEVICE=str(index))
        out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env, check=True)
        # asarray without device= uses the default device (-1): the sum is right there.
        assert out.stdout.split() == ["-1", "45"], out.stdout
    env = dict(os.environ, ZE_REDUCE_DEVICE="999")
    bad = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env)
    assert bad.returncode != 0 and "ZE_REDUCE_DEVICE" in bad.stderr, bad.stderr
