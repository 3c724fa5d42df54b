"""Device choice for the Python tests: ZR_TEST_DEVICE_MATCH (a piece of a device's description, as
``zereduce.devices()`` gives it) makes the first device that runs kernels and matches the default device, so a
ctest entry can run the suite on one backend of several present (tests/intel_cpu: Intel's OpenCL CPU runtime
beside PoCL). Without it the library's own default device is used."""
import os

import pytest


def pytest_configure(config):
    wanted = os.environ.get("ZR_TEST_DEVICE_MATCH")
    if not wanted:
        return
    import zereduce
    for device in zereduce.devices():
        if wanted in device["description"] and device["executes_kernels"]:
            os.environ["ZE_REDUCE_DEVICE"] = str(device["index"])
            return
    raise pytest.UsageError(f"ZR_TEST_DEVICE_MATCH={wanted!r}: no device that runs kernels matches; devices: "
                            + "; ".join(d["description"] for d in zereduce.devices()))


def pytest_report_header(config):
    import zereduce
    chosen = os.environ.get("ZE_REDUCE_DEVICE")
    devices = zereduce.devices()
    default = devices[int(chosen)] if chosen else next((d for d in devices if d["executes_kernels"]), None)
    return f"zereduce default device: {default['description'] if default else 'none'}"
