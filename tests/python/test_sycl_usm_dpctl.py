"""zereduce reading dpctl's SYCL USM allocations in place (issue 41), on a CPU SYCL device whose USM memory
(device, shared and host allocations alike) is this process's memory: Intel's OpenCL CPU runtime, installed by
scripts/install-intel-opencl-cpu.sh, with dpctl from the project's venv (scripts/install-python-venv.sh).
ctest's python.sycl_usm_dpctl sets ZR_REQUIRE_DPCTL=1, so there a missing dpctl or device fails instead of
skipping; elsewhere (the other pytest runs) this file is skipped."""
import os

import numpy as np
import pytest

import zereduce

REQUIRED = os.environ.get("ZR_REQUIRE_DPCTL") == "1"
if not REQUIRED:
    # dpctl's SYCL runtime enumerates every backend it finds when it starts: under the Level Zero test driver with
    # the loader's validation layer it crashes the process, so it starts only in its own ctest entry.
    pytest.skip("runs in ctest's python.sycl_usm_dpctl (ZR_REQUIRE_DPCTL=1, ONEAPI_DEVICE_SELECTOR=opencl:cpu)",
                allow_module_level=True)


def _skip_or_fail(why):
    if REQUIRED:
        pytest.fail(why)
    pytest.skip(why)


try:
    import dpctl
    import dpctl.memory as dpm
except ImportError as missing:  # pragma: no cover - depends on the environment
    dpctl = None
    _why_no_dpctl = f"no dpctl ({missing}): scripts/install-python-venv.sh installs it"


def _cpu_queue():
    """A queue of a CPU SYCL device that gives USM allocations (PoCL gives none)."""
    if dpctl is None:
        _skip_or_fail(_why_no_dpctl)
    for device in dpctl.get_devices():
        if device.device_type.name != "cpu":
            continue
        queue = dpctl.SyclQueue(device)
        try:
            dpm.MemoryUSMShared(64, queue=queue)
        except Exception:  # noqa: BLE001 - dpctl raises its own USMAllocationError
            continue
        return queue
    _skip_or_fail("no CPU SYCL device with USM allocations (Intel's OpenCL CPU runtime: OCL_ICD_VENDORS)")


class TypedUsm:
    """What a dpnp array shows of one dpctl USM allocation: its address, shape, dtype and queue."""

    def __init__(self, memory, dtype, shape, queue):
        self.memory = memory
        self.__sycl_usm_array_interface__ = {
            "data": (memory.__sycl_usm_array_interface__["data"][0], False), "shape": shape,
            "typestr": np.dtype(dtype).str, "strides": None, "version": 1, "syclobj": queue}


@pytest.mark.parametrize("kind", ["MemoryUSMShared", "MemoryUSMDevice", "MemoryUSMHost"])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_dpctl_usm_memory_of_a_cpu_device_is_reduced_in_place(kind, dtype):
    queue = _cpu_queue()
    values = np.random.default_rng(41).integers(-1000, 1000, 100_003).astype(dtype)
    memory = getattr(dpm, kind)(values.nbytes, queue=queue)
    memory.copy_from_host(values.view(np.uint8))
    array = TypedUsm(memory, dtype, values.shape, queue)
    address = memory.__sycl_usm_array_interface__["data"][0]
    assert zereduce._host_array(array).ctypes.data == address  # NumPy's view of the allocation: no copy
    assert zereduce.sum(array) == values.sum()
    assert zereduce.max(array) == values.max()
    assert zereduce.argmin(array) == int(np.argmin(values))
