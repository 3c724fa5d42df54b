#!/usr/bin/env python3
"""ze_reduce on Intel's OpenCL CPU runtime (scripts/install-intel-opencl-cpu.sh): --list shows the device with
its real capabilities; `--strategy work_group -t f32 -o max --verify` prints a verified result; and results of
the strategies that only this device runs here (work_group, subgroup, float global atomics) on NumPy files
equal NumPy's, and so do a norm, a count and a mean and variance (the transform kernels as SPIR-V).

Usage: intel_cpu_cli.py ZE_REDUCE SCHEMA WORK_DIR [unittest arguments]
The caller sets OCL_ICD_VENDORS to the vendors folder of that install. Exit code 77 (ctest: skipped) when that
folder is missing, or numpy/jsonschema are.
"""
import json
import os
import subprocess
import sys
import unittest

try:
    import jsonschema
    import numpy as np
except ImportError as missing:
    print(f"skipped: {missing} (apt-get install python3-numpy python3-jsonschema)")
    sys.exit(77)

ZE_REDUCE, SCHEMA_PATH, WORK = (os.path.abspath(argument) for argument in sys.argv[1:4])
del sys.argv[1:4]
VENDORS = os.environ.get("OCL_ICD_VENDORS", "")
if not os.path.isfile(os.path.join(VENDORS, "intel-opencl-cpu.icd")):
    print(f"skipped: no Intel OpenCL CPU runtime in OCL_ICD_VENDORS='{VENDORS}' (run scripts/install-intel-opencl-cpu.sh)")
    sys.exit(77)
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)
ENV = {k: v for k, v in os.environ.items() if k not in ("ZE_REDUCE_DEVICE", "ZE_REDUCE_FAULT_INJECTION")}
INTEL_PLATFORM = "Intel(R) OpenCL,"  # the platform in the device description; the GPU one is "... HD Graphics"


def run(*args):
    return subprocess.run([ZE_REDUCE, *map(str, args)], capture_output=True, text=True, env=ENV, timeout=600)


def listed_devices():
    done = run("--list", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["devices"]


def intel_cpu_device():
    for device in listed_devices():
        if INTEL_PLATFORM in device["description"] and device["kind"] == "cpu":
            return device
    raise AssertionError("ze_reduce --list shows no Intel(R) OpenCL CPU device although its ICD is registered")


class GivenIntelOpenClCpuRuntime_WhenListed_ThenItsRealCapabilitiesShow(unittest.TestCase):
    def test_capabilities_and_strategies(self):
        device = intel_cpu_device()
        caps = device["capabilities"]
        self.assertTrue(device["executes_kernels"], device["kernel_execution"])
        self.assertEqual(device["backend"], "opencl")
        # What the runtime reports through clGetDeviceInfo: sub-groups, collectives, float atomics.
        self.assertIn(16, caps["sub_group_sizes"])
        self.assertTrue(caps["work_group_collectives"])
        self.assertTrue(caps["f32_atomic_add"])
        self.assertTrue(caps["f32_atomic_min_max"])
        self.assertTrue(caps["fp64"])
        for strategy in ("cpu_chunks", "tree", "subgroup", "work_group", "last_group", "global_atomics"):
            self.assertIn(strategy, device["strategies"]["maximum f32"])
        self.assertIn("local_atomics", device["strategies"]["plus i32"])

    def test_text_listing_names_it(self):
        done = run("--list")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Intel(R) OpenCL", done.stdout)
        self.assertIn("work_group", done.stdout)


class GivenIntelOpenClCpuRuntime_WhenAStrategyIsRequested_ThenTheResultIsNumpys(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.index = intel_cpu_device()["index"]
        os.makedirs(WORK, exist_ok=True)

    def run_json(self, *args):
        done = run("-d", self.index, "-i", 1, "--json", *args)
        self.assertEqual(done.returncode, 0, f"ze_reduce {' '.join(map(str, args))}: {done.stderr}")
        document = json.loads(done.stdout)
        jsonschema.validate(document, SCHEMA)
        return document

    def test_work_group_max_f32_generated_input_is_verified(self):
        done = run("-d", self.index, "--strategy", "work_group", "-t", "f32", "-o", "max", "--verify")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("verified", done.stdout)
        self.assertIn("Intel(R) OpenCL", done.stdout)

    def reduce_file(self, name, array, op, strategy):
        path = os.path.join(WORK, name)
        np.save(path, array)
        document = self.run_json("--input", path, "-o", op, "--strategy", strategy, "--verify")
        self.assertEqual(document["plans"][0]["strategy"], strategy)
        return document["result"][0]

    def test_subgroup_sum_i32_wraps_like_numpy(self):
        values = np.random.default_rng(19).integers(-2**31, 2**31, size=3_000_017, dtype=np.int32)
        expected = np.add.reduce(values, dtype=np.int32)  # two's-complement wraparound, as the kernels
        self.assertEqual(int(self.reduce_file("sum_i32.npy", values, "plus", "subgroup")), int(expected))

    def test_float_global_atomic_min_f32_equals_numpy(self):
        values = np.random.default_rng(20).standard_normal(2_000_003).astype(np.float32)
        self.assertEqual(np.float32(self.reduce_file("min_f32.npy", values, "min", "global_atomics")), values.min())

    def test_work_group_sum_f64_is_close_to_numpy(self):
        values = np.random.default_rng(21).uniform(-1.0, 1.0, 1_500_001)
        result = float(self.reduce_file("sum_f64.npy", values, "plus", "work_group"))
        self.assertAlmostEqual(result, float(np.sum(values)), delta=1e-9 * float(np.sum(np.abs(values))))

    def test_transforms_and_moments_of_a_file_equal_numpy(self):
        # Intel's runtime takes the SPIR-V modules (tcpu, mcpu) that PoCL gets as SPIR 1.2 bitcode.
        values = np.random.default_rng(22).standard_normal(1_000_003).astype(np.float32)
        path = os.path.join(WORK, "transform_f32.npy")
        np.save(path, values)
        exact = values.astype(np.float64)
        norm = self.run_json("--input", path, "-o", "norm_l2", "--verify")
        self.assertTrue(norm["verification"]["passed"], norm["verification"])
        self.assertAlmostEqual(float(norm["result"][0]), float(np.sqrt(np.sum(exact * exact))),
                               delta=norm["verification"]["columns"][0]["tolerance"])
        zeros = self.run_json("--input", path, "-o", "count_equal", "--equal-to", str(values[7]), "--verify")
        self.assertEqual(int(zeros["result"][0]), int(np.count_nonzero(values == values[7])))
        moments = self.run_json("--input", path, "-o", "mean_var", "--ddof", 1, "--verify")
        self.assertTrue(moments["verification"]["passed"], moments["verification"])
        self.assertEqual(moments["request"]["op"], "mean_var_f64")  # the device has fp64
        self.assertAlmostEqual(float(moments["moments"]["variance"]), float(np.var(exact, ddof=1)), places=9)


if __name__ == "__main__":
    unittest.main(verbosity=2)
