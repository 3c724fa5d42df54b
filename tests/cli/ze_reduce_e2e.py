#!/usr/bin/env python3
"""ze_reduce end to end on the default device (PoCL in CI): files written here with known contents, results
compared with an independent reference computed here (NumPy / Python), --json checked against
docs/ze_reduce.schema.json, and every bad input of docs/ze_reduce.md checked for its exit code and message.

Usage: ze_reduce_e2e.py ZE_REDUCE SCHEMA WORK_DIR [unittest arguments, e.g. a test class name]
Exit code 77 (ctest: skipped) when numpy or jsonschema is missing.
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import time
import unittest

try:
    import jsonschema
    import numpy as np
except ImportError as missing:
    print(f"skipped: {missing} (apt-get install python3-numpy python3-jsonschema)")
    sys.exit(77)

ZE_REDUCE, SCHEMA_PATH, WORK = (os.path.abspath(argument) for argument in sys.argv[1:4])
del sys.argv[1:4]
with open(SCHEMA_PATH) as schema_file:
    SCHEMA = json.load(schema_file)

# The tests pick the device the way a user would: the default one, never Intel's no-hardware driver.
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("ZE_REDUCE_DEVICE", "ZE_REDUCE_FAULT_INJECTION")}


def path(name):
    return os.path.join(WORK, name)


def run(*args, stdin=None, env=None):
    return subprocess.run([ZE_REDUCE, *map(str, args)], input=stdin, capture_output=True,
                          env=env or CLEAN_ENV, timeout=300)


def save(name, array):
    np.save(path(name), array)
    return path(name)


class Case(unittest.TestCase):
    def run_json(self, *args, **kwargs):
        done = run(*args, "--json", **kwargs)
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        document = json.loads(done.stdout)
        jsonschema.validate(document, SCHEMA)
        return document

    def expect_error(self, args, code, *fragments, stdin=None):
        done = run(*args, stdin=stdin)
        message = done.stderr.decode()
        self.assertEqual(done.returncode, code, f"ze_reduce {' '.join(map(str, args))}: {message}")
        self.assertEqual(done.stdout, b"", "an error prints no result")
        for fragment in fragments:
            self.assertIn(fragment, message)
        return message


class GivenNpyFileWithKnownContents(Case):
    def test_WhenMaximumAskedBySyclNameOrAlias_ThenKnownResultVerified(self):
        values = np.array([3, -7, 12, 5, 0, -2**31, 2**31 - 1 - 5], dtype=np.int32)
        file = save("known_i32.npy", values)
        for op in ("maximum", "max"):
            with self.subTest(op=op):
                doc = self.run_json("--input", file, "-o", op, "--verify")
                self.assertEqual(doc["result"], [str(int(values.max()))])
                self.assertEqual(doc["request"]["op"], "maximum")
                self.assertEqual(doc["request"]["type"], "i32")
                self.assertEqual(doc["input"]["shape"], [len(values)])
                self.assertTrue(doc["verification"]["passed"])

    def test_WhenSummedAsFloat64_ThenWithinTheReportedBoundOfAnExactSum(self):
        rng = np.random.default_rng(11)
        values = rng.standard_normal(100_003)
        doc = self.run_json("--input", save("normal_f64.npy", values), "-o", "sum", "--verify")
        exact = math.fsum(values.tolist())
        tolerance = doc["verification"]["columns"][0]["tolerance"]
        self.assertLessEqual(abs(float(doc["result"][0]) - exact), tolerance)
        self.assertLess(tolerance, 1e-6, "the bound from the plan's combine depth should be tight")

    def test_WhenReproducible_ThenTheExactSumBitForBitInEveryOrderAndStrategy(self):
        # Multiples of 2^-12 below 2^18: every bit lies in the binned window and the exact sum fits a double, so
        # the reproducible sum is exactly math.fsum's; --verify compares it bit for bit with the host model.
        rng = np.random.default_rng(12)
        values = rng.integers(-(1 << 30), 1 << 30, size=100_003) / 4096.0
        exact = math.fsum(values.tolist())
        results = set()
        for name, data in (("sums_f64.npy", values), ("sums_shuffled_f64.npy", rng.permutation(values))):
            for strategy in ((), ("--strategy", "tree")):
                doc = self.run_json("--input", save(name, data), "-o", "sum", "--reproducible", "--verify", *strategy)
                self.assertTrue(doc["request"]["reproducible"])
                self.assertTrue(doc["verification"]["passed"], doc["verification"])
                self.assertEqual(doc["verification"]["columns"][0]["tolerance"], 0)
                self.assertEqual(float(doc["result"][0]), exact)
                results.add(doc["result"][0])
        self.assertEqual(len(results), 1, results)

    def test_WhenTwoDimensionalWithColumns_ThenNumPyAxisZeroResult(self):
        values = np.arange(-30, 30, dtype=np.int16).reshape(12, 5) * 3
        doc = self.run_json("--input", save("matrix_i16.npy", values), "-o", "min", "--columns", 5, "--verify")
        self.assertEqual(doc["result"], [str(v) for v in values.min(axis=0)])

    def test_WhenBoolAnded_ThenLogicalResult(self):
        values = np.ones(1000, dtype=np.bool_)
        file = save("bools.npy", values)
        self.assertEqual(self.run_json("--input", file, "-o", "land")["result"], ["true"])
        values[777] = False
        save("bools.npy", values)
        self.assertEqual(self.run_json("--input", file, "-o", "logical_and")["result"], ["false"])

    def test_WhenReadFromStandardInput_ThenSameAsFromTheFile(self):
        values = np.array([9, 250, 3, 17], dtype=np.uint8)
        file = save("stdin_u8.npy", values)
        with open(file, "rb") as data:
            doc = self.run_json("--input", "-", "-o", "xor", stdin=data.read())
        self.assertEqual(doc["result"], [str(np.bitwise_xor.reduce(values))])
        self.assertEqual(doc["input"]["source"], "stdin")

    def test_WhenZeroDimensional_ThenOneElement(self):
        for dtype in ("<i4", ">i4", ">f8", "|u1"):
            with self.subTest(dtype=dtype):
                file = save("scalar.npy", np.array(7, dtype=dtype))
                doc = self.run_json("--input", file, "-o", "sum", "--verify")
                self.assertEqual((doc["result"], doc["input"]["shape"]), (["7"], []))
                doc = self.run_json("--input", file, "-o", "argmax", "--verify")
                self.assertEqual((doc["result"], doc["index"]), (["7"], 0))
        self.expect_error(("--input", save("scalar.npy", np.array(7, dtype=">i4")), "--columns", "2"), 2,
                          "not a multiple")

    def test_WhenThreeDimensionalWithColumnsOfTheTrailingAxes_ThenNumPysLeadingAxesReduction(self):
        cube = (np.arange(-60, 60, dtype=np.int32) * 7919 % 1000).reshape(5, 4, 6)
        file = save("cube_i32.npy", cube.astype(">i4"))
        for columns in (6, 24):
            with self.subTest(columns=columns):
                doc = self.run_json("--input", file, "-o", "max", "--columns", columns, "--verify")
                self.assertEqual(doc["result"], [str(v) for v in cube.reshape(-1, columns).max(axis=0)])

    def test_WhenInitialValueGiven_ThenCombinedUnlessInitialisedToIdentity(self):
        file = save("small_i64.npy", np.array([4, 8, 15, 16, 23, 42], dtype=np.int64))
        self.assertEqual(self.run_json("--input", file, "-o", "max", "--initial", 100)["result"], ["100"])
        doc = self.run_json("--input", file, "-o", "max", "--initial", 100, "--init-to-identity")
        self.assertEqual(doc["result"], ["42"])
        self.assertEqual(self.run_json("--input", file, "--initial", 100)["result"], [str(108 + 100)])


class GivenRawBinaryFile(Case):
    def test_WhenReducedWithItsType_ThenKnownResult(self):
        values = [1.5, -2.25, 1e30, -1e30, 0.125]
        with open(path("floats.bin"), "wb") as out:
            out.write(struct.pack(f"<{len(values)}f", *values))
        doc = self.run_json("--input", path("floats.bin"), "-t", "f32", "-o", "plus", "--verify")
        self.assertEqual(doc["input"]["format"], "raw")
        self.assertTrue(doc["verification"]["passed"])


class GivenBigEndianInput(Case):
    """Big-endian .npy files ('>i2' ... '>f8') and raw input with --byte-order big: every multi-byte type, checked
    against NumPy's answer for the values the file holds. --verify alone could not catch a missed swap (the host
    reference reads the same bytes), so every answer here is compared with NumPy's."""

    CODES = ("i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8")
    N = 5003

    @classmethod
    def values(cls, code, seed):
        # Values whose bytes differ within each element, so that a missed or doubled swap changes every answer.
        rng = np.random.default_rng(seed)
        dtype = np.dtype("<" + code)
        if dtype.kind == "f":
            return (rng.standard_normal(cls.N) * 4).astype(dtype)  # f16 sums stay far below 65504
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=cls.N, dtype=dtype, endpoint=True)

    @staticmethod
    def parsed(text, dtype):
        return dtype.type(float(text)) if dtype.kind == "f" else int(text)

    def check_plain_ops(self, values, *input_args, stdin=None):
        dtype = values.dtype
        for op in ("min", "max"):
            with self.subTest(op=op):
                doc = self.run_json(*input_args, "-o", op, "--verify", "-i", 1, "-w", 0, stdin=stdin)
                self.assertEqual(doc["input"]["byte_order"], "big")
                self.assertEqual(self.parsed(doc["result"][0], dtype), getattr(np, op)(values))
        with self.subTest(op="sum"):
            doc = self.run_json(*input_args, "-o", "sum", "--verify", "-i", 1, "-w", 0, stdin=stdin)
            if dtype.kind == "f":
                exact = math.fsum(values.astype(np.float64).tolist())
                bound = doc["verification"]["columns"][0]["tolerance"] + abs(exact) * np.finfo(dtype).eps
                self.assertLessEqual(abs(float(doc["result"][0]) - exact), bound, doc["result"])
            else:  # integer sums wrap in the element type, as NumPy's with dtype= do
                self.assertEqual(int(doc["result"][0]), int(np.sum(values, dtype=dtype)))
        with self.subTest(op="argmax"):
            doc = self.run_json(*input_args, "-o", "argmax", "--verify", "-i", 1, "-w", 0, stdin=stdin)
            self.assertEqual(doc["index"], int(np.argmax(values)))
            self.assertEqual(self.parsed(doc["result"][0], dtype), values.max())

    def test_WhenNpyOfEveryMultiByteType_ThenNumPysSumMinMaxAndArgmax(self):
        for seed, code in enumerate(self.CODES):
            with self.subTest(dtype=">" + code):
                values = self.values(code, seed)
                file = save(f"big_{code}.npy", values.astype(">" + code))
                self.check_plain_ops(values, "--input", file)

    def test_WhenTransformOfABigEndianNpy_ThenNumPysNormsAndCounts(self):
        for seed, code in enumerate(self.CODES):
            values = self.values(code, 100 + seed)
            file = save(f"big_transform_{code}.npy", values.astype(">" + code))
            with self.subTest(dtype=">" + code):
                if values.dtype.kind == "f":
                    doc = self.run_json("--input", file, "-o", "norm_l2", "--verify", "-i", 1, "-w", 0)
                    wide = values.astype(np.float64)
                    exact = math.sqrt(math.fsum(wide * wide))
                    bound = doc["verification"]["columns"][0]["tolerance"] + exact * np.finfo(values.dtype).eps
                    self.assertLessEqual(abs(float(doc["result"][0]) - exact), bound, doc["result"])
                else:
                    probe = values[17]
                    doc = self.run_json("--input", file, "-o", "count_equal", "--equal-to", int(probe), "--verify",
                                        "-i", 1, "-w", 0)
                    self.assertEqual(int(doc["result"][0]), int(np.count_nonzero(values == probe)))
                    doc = self.run_json("--input", file, "-o", "sum_i64" if code[0] == "i" else "sum_u64", "--verify",
                                        "-i", 1, "-w", 0)
                    self.assertEqual(int(doc["result"][0]), int(np.sum(values, dtype=np.int64 if code[0] == "i" else
                                                                       np.uint64)))

    def test_WhenBigEndianNpyFromStandardInputOrTwoDimensional_ThenAsNumPy(self):
        values = self.values("i4", 40)
        file = save("big_stdin_i4.npy", values.astype(">i4"))
        with open(file, "rb") as data:
            self.check_plain_ops(values, "--input", "-", stdin=data.read())
        matrix = self.values("i2", 41)[:5000].reshape(1000, 5)
        doc = self.run_json("--input", save("big_matrix_i2.npy", matrix.astype(">i2")), "-o", "min", "--columns", 5,
                            "--verify")
        self.assertEqual(doc["result"], [str(v) for v in matrix.min(axis=0)])
        self.assertEqual(doc["input"]["shape"], [1000, 5])
        text = run("--input", path("big_matrix_i2.npy"), "-o", "max").stdout.decode()
        self.assertRegex(text, r"(?m)^reduce\s+maximum over 5000 x i16 \(.*big_matrix_i2\.npy \(npy, big-endian\)\)$")

    def test_WhenRawWithByteOrderBig_ThenNumPysAnswerForTheBigEndianBytes(self):
        for seed, code in enumerate(self.CODES):
            with self.subTest(dtype=">" + code):
                values = self.values(code, 200 + seed)
                name = path(f"big_{code}.bin")
                values.astype(">" + code).tofile(name)
                type_name = code[0] + str(8 * int(code[1]))  # i2 -> i16, f8 -> f64
                self.check_plain_ops(values, "--input", name, "-t", type_name, "--byte-order", "big")
                # The same bytes read little-endian (the default, or said so) are other numbers: NumPy's view of
                # them byte-swapped. (Swapped floats can hold NaNs, whose min is another matter: max of integers.)
                swapped = values.byteswap()
                if swapped.dtype.kind != "f":
                    for order in ((), ("--byte-order", "little"), ("--byte-order", "native")):
                        doc = self.run_json("--input", name, "-t", type_name, *order, "-o", "max", "-i", 1, "-w", 0)
                        self.assertEqual(doc["input"]["byte_order"], "little")
                        self.assertEqual(int(doc["result"][0]), int(swapped.max()))
        values = self.values("f8", 300)
        values.astype(">f8").tofile(path("big_stdin_f8.bin"))
        with open(path("big_stdin_f8.bin"), "rb") as data:
            self.check_plain_ops(values, "--input", "-", "-t", "f64", "--byte-order", "big", stdin=data.read())


class GivenGeneratedInput(Case):
    def test_WhenEveryOpOnItsTypes_ThenHostVerificationPasses(self):
        for op, types in (("plus", ("i8", "u16", "i32", "u64", "f16", "f32", "f64")),
                          ("prod", ("i16", "u32", "f16", "f32", "f64")),
                          ("min", ("i64", "f32")), ("max", ("u8", "f64")),
                          ("and", ("u64",)), ("or", ("i8",)), ("xor", ("u32",)), ("land", ("bool",)),
                          ("lor", ("bool",))):
            for type_name in types:
                for fill in ("pattern", "random"):
                    with self.subTest(op=op, type=type_name, fill=fill):
                        doc = self.run_json("-o", op, "-t", type_name, "-n", "100003", "--fill", fill,
                                            "--seed", 5, "--verify", "-i", 1, "-w", 0)
                        self.assertTrue(doc["verification"]["passed"], doc["verification"])

    def test_WhenDeterministic_ThenRepeatsAreBitwiseEqual(self):
        args = ("-t", "f32", "-n", "1M", "--fill", "random", "--seed", 3, "--deterministic", "-i", 3)
        results = {tuple(self.run_json(*args)["result"]) for _ in range(3)}
        self.assertEqual(len(results), 1, results)

    def test_WhenQuiet_ThenOnlyTheResultAndNoProgressOffATerminal(self):
        done = run("-t", "i32", "-n", "1000", "-q")
        self.assertEqual(done.returncode, 0)
        self.assertEqual(done.stderr, b"", "no progress line when standard error is not a terminal")
        self.assertRegex(done.stdout.decode(), r"^-?\d+\n$")

    def test_WhenTextOutput_ThenDeviceStrategyResultAndTimingsShown(self):
        done = run("-n", "64K", "--verify", "--bandwidth", "-i", 3)
        text = done.stdout.decode()
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        for heading in ("device", "strategy", "result", "host", "kernel", "kernels", "wall", "speed", "bandwidth"):
            self.assertRegex(text, rf"(?m)^\s*{heading}\s", heading)

    @unittest.skipUnless(shutil.which("script"), "util-linux 'script' is needed to give ze_reduce a terminal")
    def test_WhenLongRunOnATerminal_ThenProgressLineOnStandardError(self):
        def on_a_terminal(*options):
            command = " ".join([f"'{ZE_REDUCE}'", "-n", "2^24", "-i", "3000", "-w", "0", *options])
            done = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, env=CLEAN_ENV,
                                  timeout=300)
            self.assertEqual(done.returncode, 0, done.stdout.decode(errors="replace"))
            return done.stdout  # script merges the terminal's output streams

        self.assertIn(b"ze_reduce: run ", on_a_terminal())
        self.assertNotIn(b"ze_reduce: run ", on_a_terminal("-q"))


class GivenJsonOutput(Case):
    def test_WhenDevicesListed_ThenTheDocumentFollowsTheSchema(self):
        doc = self.run_json("--list")
        self.assertGreaterEqual(len(doc["devices"]), 1)
        self.assertTrue(any(d.get("executes_kernels") for d in doc["devices"]))

    def test_WhenADocumentIsBroken_ThenTheSchemaRejectsIt(self):
        doc = self.run_json("-n", "10")
        for broken in ({**doc, "result": "1"}, {**doc, "request": {**doc["request"], "op": "sum"}},
                       {k: v for k, v in doc.items() if k != "timing"}):
            with self.assertRaises(jsonschema.ValidationError):
                jsonschema.validate(broken, SCHEMA)


class GivenArgReduction(Case):
    """-o argmin / -o argmax: the value and the index of its first occurrence, as NumPy's argmin/argmax give them
    (ties to the smallest index; the first NaN wins for both), checked here against NumPy and by --verify."""

    TYPES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64")

    @staticmethod
    def pattern(type_name, n):
        # docs/ze_reduce.md, "Generated inputs": the pattern fill of every op but multiplies.
        mixed = np.arange(n, dtype=np.uint64) * 7919
        if type_name.startswith("u"):
            return (mixed % 256).astype(np.dtype(type_name.replace("u", "uint")))
        signed = (mixed % 255).astype(np.int64) - 127
        if type_name.startswith("i"):
            return signed
        return signed.astype(np.float64) / 8

    def check_numpy(self, doc, values, op):
        expected = int(getattr(np, op)(values))
        self.assertEqual(doc["index"], expected)
        value = values.reshape(-1)[expected]
        if np.issubdtype(values.dtype, np.floating) and np.isnan(value):
            self.assertEqual(doc["result"], ["nan"])
        else:
            self.assertEqual(float(doc["result"][0]), float(value))

    def test_WhenGeneratedInputOfEveryNumericType_ThenValueAndIndexVerified(self):
        n = 100_003
        for type_name in self.TYPES:
            for op in ("argmin", "argmax"):
                for fill in ("pattern", "random"):
                    with self.subTest(op=op, type=type_name, fill=fill):
                        doc = self.run_json("-o", op, "-t", type_name, "-n", n, "--fill", fill, "--seed", 5,
                                            "--verify", "-i", 1, "-w", 0)
                        self.assertEqual(doc["request"]["op"], op)
                        self.assertTrue(doc["verification"]["passed"], doc["verification"])
                        column = doc["verification"]["columns"][0]
                        self.assertEqual((column["index"], column["tolerance"]), (doc["index"], 0))
                        if fill == "pattern":  # an independent answer: ties everywhere, the first must win
                            self.check_numpy(doc, self.pattern(type_name, n), op)

    def test_WhenFloat32NpyHasTiesAndNaN_ThenFirstIndexAndTheFirstNaNAsNumPyGives(self):
        ties = np.array([3, 7, 7, -1, -1, 7, -0.0, 0.0], dtype=np.float32)
        with_nan = np.array([1, 9, -4, np.nan, 9, -4, np.nan, 2], dtype=np.float32)
        negative_nan = np.array([0x3F800000, 0xFFC00001, 0x7FC00000], dtype=np.uint32).view(np.float32)
        for name, values, expected in (("ties_f32.npy", ties, {"argmin": ("-1", 3), "argmax": ("7", 1)}),
                                       ("nan_f32.npy", with_nan, {"argmin": ("nan", 3), "argmax": ("nan", 3)}),
                                       ("negative_nan_f32.npy", negative_nan,
                                        {"argmin": ("nan", 1), "argmax": ("nan", 1)})):
            file = save(name, values)
            for op in ("argmin", "argmax"):
                with self.subTest(file=name, op=op):
                    doc = self.run_json("--input", file, "-o", op, "--verify")
                    self.assertEqual((doc["result"][0], doc["index"]), expected[op])
                    self.assertTrue(doc["verification"]["passed"], doc["verification"])
                    self.check_numpy(doc, values, op)

    def test_WhenTextOutput_ThenResultAndHostLinesShowValueAndIndex(self):
        file = save("ties_text_f32.npy", np.array([3, 7, 7, -1, -1, 7], dtype=np.float32))
        done = run("--input", file, "-o", "argmax", "--verify")
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        text = done.stdout.decode()
        self.assertRegex(text, r"(?m)^reduce\s+argmax over 6 x f32 ")
        self.assertRegex(text, r"(?m)^result\s+7 at index 1$")
        self.assertRegex(text, r"(?m)^host\s+7 at index 1 \(verified, exact\)$")
        quiet = run("--input", file, "-o", "argmin", "-q")
        self.assertEqual(quiet.stdout, b"-1 3\n", quiet.stderr.decode())

    def test_WhenInt32FromNpyRawStdinOrTwoDimensions_ThenTheSameFlatIndexAsNumPy(self):
        values = np.array([5, -2**31, 2**31 - 1, 12, -2**31, 2**31 - 1, 0, 7, 7], dtype=np.int32)
        file = save("extremes_i32.npy", values)
        values.tofile(path("extremes_i32.bin"))
        with open(file, "rb") as data:
            npy_bytes = data.read()
        for op, expected in (("argmin", ("-2147483648", 1)), ("argmax", ("2147483647", 2))):
            with self.subTest(op=op):
                for doc in (self.run_json("--input", file, "-o", op, "--verify"),
                            self.run_json("--input", path("extremes_i32.bin"), "-t", "i32", "-o", op, "--verify"),
                            self.run_json("--input", "-", "-o", op, "--verify", stdin=npy_bytes)):
                    self.assertEqual((doc["result"][0], doc["index"]), expected)
                    self.assertEqual(doc["request"]["type"], "i32")
                    self.assertTrue(doc["verification"]["passed"], doc["verification"])
                # A 2-D file is one input: the index is into the flattened (C order) array, as numpy.argmax(a).
                matrix = save("matrix_i32.npy", values.reshape(3, 3))
                self.check_numpy(self.run_json("--input", matrix, "-o", op, "--verify"), values.reshape(3, 3), op)

    STRATEGIES = ("tree", "subgroup", "work_group", "local_atomics", "cpu_chunks", "last_group", "global_atomics")

    def test_WhenStrategyTimingOrPropertiesGiven_ThenTheyWorkAsForOtherOps(self):
        args = ("-o", "argmax", "-t", "f32", "-n", "1M", "--fill", "random", "--seed", 3, "--verify", "-i", 3)
        answers, ran = set(), set()
        # Every strategy either runs (verified, the same answer) or is refused as for other ops; the library
        # decides which (tree and cpu_chunks run everywhere).
        for extra in ((), ("--deterministic",), ("--reproducible",), ("--init-to-identity",),
                      *(("--strategy", strategy) for strategy in self.STRATEGIES)):
            with self.subTest(extra=extra):
                done = run(*args, *extra, "--json")
                if extra and extra[0] == "--strategy" and done.returncode == 3:
                    self.assertIn(f"strategy {extra[1]} is not available", done.stderr.decode())
                    self.assertIn("argmax", done.stderr.decode())
                    continue
                self.assertEqual(done.returncode, 0, done.stderr.decode())
                doc = json.loads(done.stdout)
                jsonschema.validate(doc, SCHEMA)
                self.assertTrue(doc["verification"]["passed"], doc["verification"])
                self.assertEqual(doc["timing"]["iterations"], 3)
                self.assertGreater(doc["timing"]["wall_ns"]["median"], 0)
                self.assertEqual(doc["request"]["initial"], None)
                self.assertTrue(doc["request"]["initialize_to_identity"])
                if extra and extra[0] == "--strategy":
                    self.assertEqual(doc["plans"][0]["strategy"], extra[1])
                    ran.add(extra[1])
                answers.add((doc["result"][0], doc["index"]))
        self.assertEqual(len(answers), 1, answers)
        self.assertLessEqual({"tree", "cpu_chunks"}, ran)
        done = run("-o", "argmin", "-n", "64K", "--verify", "--bandwidth", "-i", 3)
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        for heading in ("strategy", "result", "host", "kernels", "wall", "speed", "bandwidth"):
            self.assertRegex(done.stdout.decode(), rf"(?m)^\s*{heading}\s", heading)

    def test_WhenTheResultIsWrong_ThenVerificationFailsWithExitCodeOne(self):
        # Test-only fault injection (runtime/api/reduction_job.cpp): flips the lowest bit of the result's value.
        args = ("-o", "argmax", "-t", "i32", "-n", "1000")
        strategy = self.run_json(*args)["plans"][0]["strategy"]
        done = run(*args, "--verify", env={**CLEAN_ENV, "ZE_REDUCE_FAULT_INJECTION": strategy})
        self.assertEqual(done.returncode, 1, done.stderr.decode())
        self.assertIn(b"MISMATCH: expected 127 at index 91", done.stdout)

    def test_WhenBool_ThenRefusedNamingTheOpAndType(self):
        self.expect_error(("-o", "argmax", "-t", "bool"), 2, "argmax is not defined for bool",
                          "integer or floating-point type")
        self.expect_error(("--input", save("flags_arg.npy", np.array([True, False])), "-o", "argmin"), 2,
                          "argmin is not defined for bool")

    def test_WhenOptionsWithoutMeaningForArgOps_ThenRefusedNamingOptionAndOp(self):
        self.expect_error(("-o", "argmax", "-n", "10", "--initial", "5"), 2, "--initial 5", "argmax",
                          "leave --initial out")
        self.expect_error(("-o", "argmin", "-n", "10", "--identity", "0"), 2, "--identity 0", "argmin",
                          "leave --identity out")
        self.expect_error(("-o", "argmax", "-n", "12", "--columns", "3"), 2, "--columns 3", "argmax",
                          "leave --columns out")
        self.expect_error(("--input", save("empty_f32.npy", np.zeros(0, dtype=np.float32)), "-o", "argmax"), 2,
                          "argmax of an empty input (n = 0) has no result")

    def test_WhenTheDocumentLacksTheIndex_ThenTheSchemaRejectsIt(self):
        doc = self.run_json("-o", "argmax", "-n", "10", "--verify")
        plain = self.run_json("-o", "max", "-n", "10", "--verify")
        self.assertNotIn("index", plain)
        self.assertNotIn("index", plain["verification"]["columns"][0])
        for broken in ({k: v for k, v in doc.items() if k != "index"}, {**doc, "index": str(doc["index"])},
                       {**plain, "index": 0}):
            with self.assertRaises(jsonschema.ValidationError):
                jsonschema.validate(broken, SCHEMA)


class GivenTransformReduction(Case):
    """-o sum_squares/norm_l2/norm_l1/count_nonzero/count_equal/sum_i64/sum_u64/sum_f32/sum_f64/mean_var: one read
    of the input into a result of the op's own type, checked here against NumPy and math.fsum and by --verify."""

    def check(self, *args, stdin=None):
        doc = self.run_json(*args, "--verify", "-i", 1, "-w", 0, stdin=stdin)
        self.assertTrue(doc["verification"]["passed"], doc["verification"])
        return doc

    def test_WhenNormsOfAFloatFile_ThenNumPysNormsWithinTheReportedBound(self):
        values = np.random.default_rng(11).standard_normal(300_001)
        for dtype, type_name in ((np.float32, "f32"), (np.float64, "f64"), (np.float16, "f16")):
            # f16 results round to f16: 20000 squares of N(0, 1) values stay below its largest finite 65504
            data = (values[:20_000] if dtype == np.float16 else values).astype(dtype)
            file = save(f"norms_{type_name}.npy", data)
            exact = data.astype(np.float64)
            for op, alias, expected in (("norm_l2", "norm", math.sqrt(math.fsum(exact * exact))),
                                        ("norm_l1", "asum", math.fsum(np.abs(exact))),
                                        ("sum_squares", "sumsq", math.fsum(exact * exact))):
                with self.subTest(op=op, type=type_name):
                    doc = self.check("--input", file, "-o", alias)
                    self.assertEqual((doc["request"]["op"], doc["request"]["result_type"]), (op, type_name))
                    column = doc["verification"]["columns"][0]
                    bound = column["tolerance"] + abs(expected) * np.finfo(dtype).eps  # plus the final rounding
                    self.assertLessEqual(abs(float(doc["result"][0]) - expected), bound, doc)
                    self.assertLess(column["tolerance"], abs(expected) * 1e-2, "a bound that cannot fail")

    def test_WhenCounted_ThenNumPysCountsForEveryType(self):
        special = np.array([0.0, -0.0, np.nan, 1.5, np.inf, 1.5, -1.5, 0.0], dtype=np.float32)
        file = save("counts_f32.npy", special)
        self.assertEqual(self.check("--input", file, "-o", "nnz")["result"], [str(np.count_nonzero(special))])
        for value, expected in (("1.5", 2), ("0", 3), ("-0", 3), ("nan", 0), ("inf", 1)):
            with self.subTest(equal_to=value):
                doc = self.check("--input", file, "-o", "count_equal", "--equal-to", value)
                self.assertEqual((doc["result"], doc["request"]["result_type"]), ([str(expected)], "u64"))
                self.assertEqual(str(float(doc["request"]["equal_to"])), str(float(value)))
        n = 100_003
        for type_name in GivenArgReduction.TYPES + ("bool",):
            with self.subTest(type=type_name):
                doc = self.check("-o", "count_nonzero", "-t", type_name, "-n", n)
                pattern = (np.arange(n) % 7 != 3) if type_name == "bool" else GivenArgReduction.pattern(type_name, n)
                self.assertEqual(doc["result"], [str(np.count_nonzero(pattern))])
                doc = self.check("-o", "count_equal", "--equal-to", "true" if type_name == "bool" else "0",
                                 "-t", type_name, "-n", n)
                self.assertEqual(doc["result"], [str(np.count_nonzero(pattern == (pattern.dtype.type(1) if
                                                                                   type_name == "bool" else 0)))])

    def test_WhenWidened_ThenTheSumNeverWrapsInTheNarrowType(self):
        big = np.full(1000, 2**31 - 1, dtype=np.int32)
        file = save("big_i32.npy", big)
        self.assertEqual(self.check("--input", file, "-o", "sum_i64")["result"], [str(1000 * (2**31 - 1))])
        self.assertEqual(self.check("--input", file, "-o", "sum")["result"], [str(np.sum(big, dtype=np.int32))])
        minus_one = save("minus_one_i8.npy", np.full(3, -1, dtype=np.int8))
        self.assertEqual(self.check("--input", minus_one, "-o", "sum_u64")["result"], [str(2**64 - 3)])
        samples = np.random.default_rng(4).random(200_000, dtype=np.float32) * 1000
        doc = self.check("--input", save("samples_f32.npy", samples), "-o", "sum_f64")
        exact = math.fsum(samples.astype(np.float64))
        self.assertEqual(doc["request"]["result_type"], "f64")
        self.assertLessEqual(abs(float(doc["result"][0]) - exact), doc["verification"]["columns"][0]["tolerance"])
        self.assertLess(abs(float(doc["result"][0]) - exact), abs(float(samples.sum(dtype=np.float32)) - exact) + 1e-6)
        halves = save("halves_f16.npy", np.full(5000, 1, dtype=np.float16))
        self.assertEqual(self.check("--input", halves, "-o", "sum_f32")["result"], ["5000"])  # f16 stops at 2048

    def test_WhenMeanAndVariance_ThenNumPysMeanAndVarForEachDdof(self):
        samples = np.random.default_rng(9).integers(-2**15, 2**15, 250_000).astype(np.int16) + 0
        file = save("samples_i16.npy", samples.astype(np.int16))
        for ddof in (0, 1):
            with self.subTest(ddof=ddof):
                doc = self.check("--input", file, "-o", "mean_var", "--ddof", ddof)
                moments = doc["moments"]
                self.assertIn(doc["request"]["op"], ("mean_var_f32", "mean_var_f64"))
                self.assertEqual((moments["count"], moments["ddof"]), (len(samples), ddof))
                relative = 1e-9 if doc["request"]["op"] == "mean_var_f64" else 1e-4
                self.assertLessEqual(abs(float(moments["mean"]) - np.mean(samples)), relative * 2**15)
                self.assertLessEqual(abs(float(moments["variance"]) / np.var(samples, ddof=ddof) - 1), relative)
                self.assertAlmostEqual(float(moments["stddev"]) ** 2 / float(moments["variance"]), 1, places=6)
                self.assertEqual(doc["result"], [moments["mean"]])
                self.assertEqual(doc["verification"]["columns"][0]["moments"]["count"], len(samples))
        quiet = run("--input", file, "-o", "mean_var_f32", "--ddof", 1, "-q")
        self.assertEqual(quiet.returncode, 0, quiet.stderr.decode())
        mean, variance = map(float, quiet.stdout.split())
        self.assertAlmostEqual(variance / np.var(samples, ddof=1), 1, places=4)
        text = run("--input", file, "-o", "mean_var_f32", "--verify").stdout.decode()
        self.assertRegex(text, r"(?m)^reduce\s+mean_var_f32 over 250000 x i16, into f32 ")
        self.assertRegex(text, r"(?m)^result\s+mean \S+, variance \S+ \(ddof 0\), stddev \S+, count 250000, m2 ")
        self.assertRegex(text, r"(?m)^host\s+mean \S+ \(bound \S+\), m2 \S+ \(bound \S+\), count 250000 "
                               r"\(verified, within the bounds\)$")

    def test_WhenListed_ThenEveryStrategyShownForATransformRunsIt(self):
        doc = self.run_json("--list")
        device = next(d for d in doc["devices"] if d.get("executes_kernels"))
        env = {**CLEAN_ENV, "ZE_REDUCE_DEVICE": str(device["index"])}
        for pair, args in (("norm_l2 f32", ("-o", "norm_l2", "-t", "f32")),
                           ("count_equal i8", ("-o", "count_equal", "--equal-to", "3", "-t", "i8")),
                           ("mean_var_f32 i16", ("-o", "mean_var_f32", "-t", "i16"))):
            strategies = device["strategies"][pair]
            self.assertIn("tree", strategies, pair)
            for strategy in strategies:
                with self.subTest(pair=pair, strategy=strategy):
                    done = run(*args, "-n", "100003", "--strategy", strategy, "--verify", "--json", "-i", 1, env=env)
                    self.assertEqual(done.returncode, 0, done.stderr.decode())
                    ran = json.loads(done.stdout)
                    self.assertEqual(ran["plans"][0]["strategy"], strategy)
                    self.assertTrue(ran["verification"]["passed"], ran["verification"])

    def test_WhenTheResultIsWrong_ThenVerificationFailsWithExitCodeOne(self):
        # Test-only fault injection (runtime/api/reduction_job.cpp): flips the lowest bit of the result.
        for args, fragment in ((("-o", "count_nonzero", "-t", "i32", "-n", "1000"), b"MISMATCH"),
                               (("-o", "mean_var_f32", "-t", "i32", "-n", "1000"), b"MISMATCH")):
            with self.subTest(op=args[1]):
                strategy = self.run_json(*args)["plans"][0]["strategy"]
                done = run(*args, "--verify", env={**CLEAN_ENV, "ZE_REDUCE_FAULT_INJECTION": strategy})
                self.assertEqual(done.returncode, 1, done.stderr.decode() + done.stdout.decode())
                self.assertIn(fragment, done.stdout)

    def test_WhenOptionsDoNotFitTheOp_ThenRefusedNamingOptionAndOp(self):
        self.expect_error(("-o", "count_equal", "-n", "10"), 2, "--equal-to")
        self.expect_error(("-o", "count_equal", "-t", "i32", "--equal-to", "1.5"), 2, "--equal-to 1.5",
                          "not an integer", "i32")
        self.expect_error(("-o", "max", "--equal-to", "3"), 2, "--equal-to 3", "count_equal")
        self.expect_error(("-o", "norm", "--ddof", "1"), 2, "--ddof 1", "mean_var")
        self.expect_error(("-o", "norm", "--initial", "1"), 2, "--initial 1", "norm_l2", "leave --initial out")
        self.expect_error(("-o", "nnz", "--identity", "0"), 2, "--identity 0", "count_nonzero")
        self.expect_error(("-o", "mean_var", "--columns", "2", "-n", "10"), 2, "--columns 2", "leave --columns out")
        self.expect_error(("-o", "norm_l2", "-t", "i32"), 2, "norm_l2 is not defined for i32", "take f16, f32, f64")
        self.expect_error(("-o", "sum_f32", "-t", "f32"), 2, "sum_f32 is not defined for f32", "sum_f32 takes f16")
        self.expect_error(("-o", "sum_i64", "-t", "f64"), 2, "sum_i64 is not defined for f64")
        self.expect_error(("-o", "mean_var", "-t", "bool"), 2, "is not defined for bool")
        self.expect_error(("-o", "norm_l2", "--reproducible", "-n", "10"), 3, "reproducible property is not offered")
        doc = self.check("-o", "nnz", "--reproducible", "-n", "1000", "-t", "i32")  # counts are exact: offered
        self.assertTrue(doc["request"]["initialize_to_identity"])

    def test_WhenADocumentBreaksTheRules_ThenTheSchemaRejectsIt(self):
        moments = self.check("-o", "mean_var", "-n", "100", "-t", "i32")
        counted = self.check("-o", "count_equal", "--equal-to", "0", "-n", "100", "-t", "i32")
        plain = self.check("-o", "sum", "-n", "100")
        request_without = {k: v for k, v in counted["request"].items() if k != "equal_to"}
        column = plain["verification"]["columns"][0]
        for broken in ({k: v for k, v in moments.items() if k != "moments"},
                       {**plain, "moments": moments["moments"]},
                       {**counted, "request": request_without},
                       {**plain, "request": {**plain["request"], "equal_to": "0"}},
                       {**plain, "verification": {"passed": True, "columns": [{**column, "moments": {
                           "count": 1, "m2": "0", "m2_tolerance": 0}}]}}):
            with self.assertRaises(jsonschema.ValidationError):
                jsonschema.validate(broken, SCHEMA)


class GivenSegmentedReduction(Case):
    """--axis and --segments (issue 44): every axis of an N-D array and ragged offsets against NumPy, the results in
    --json and in --output's .npy file, and the inputs these options refuse."""

    def test_every_axis_of_a_3d_array_matches_numpy_in_json_and_output(self):
        rng = np.random.default_rng(44)
        array = rng.integers(-1000, 1000, size=(4, 33, 5)).astype(np.int32)
        source = save("axes.npy", array)
        for axis in (0, 1, 2, -1, -3):
            out = path(f"axis{axis}.npy")
            document = self.run_json("--input", source, "--axis", axis, "--verify", "--output", out, "-i", 1)
            expected = array.sum(axis=axis, dtype=np.int32)
            self.assertTrue(document["verification"]["passed"])
            self.assertEqual(document["request"]["axis"], axis)
            self.assertEqual(document["request"]["result_shape"], list(expected.shape))
            self.assertEqual([int(v) for v in document["result"]], expected.ravel().tolist())
            written = np.load(out)
            self.assertEqual(written.dtype, np.int32)
            np.testing.assert_array_equal(written, expected)

    def test_maximum_along_the_last_axis_of_floats_is_exact(self):
        rng = np.random.default_rng(7)
        array = rng.standard_normal((300, 129)).astype(np.float32)
        out = path("max.npy")
        document = self.run_json("--input", save("floats.npy", array), "--axis", 1, "-o", "max", "--output", out,
                                 "--verify", "-i", 1)
        self.assertEqual(document["request"]["segments"], 300)
        np.testing.assert_array_equal(np.load(out), array.max(axis=1))

    def test_ragged_segments_with_empty_ones_match_numpy_and_start_from_the_initial_value(self):
        rng = np.random.default_rng(5)
        values = rng.integers(-50, 50, size=20011).astype(np.int64)
        for dtype in (np.int32, np.uint32, np.int64, np.uint64):
            offsets = np.array([0, 0, 7, 7, 5000, 20000, 20011], dtype=dtype)
            out = path("segments.npy")
            document = self.run_json("--input", save("values.npy", values), "--segments", save("offsets.npy", offsets),
                                     "--initial", 3, "--verify", "--output", out, "-i", 1)
            expected = [3 + int(values[offsets[s]:offsets[s + 1]].sum()) for s in range(len(offsets) - 1)]
            self.assertEqual([int(v) for v in document["result"]], expected, dtype)
            self.assertEqual(document["request"]["segments"], 6)
            np.testing.assert_array_equal(np.load(out), np.array(expected, dtype=np.int64))
        # Without --initial every empty segment gives the identity (minimum's: the largest int64).
        document = self.run_json("--input", path("values.npy"), "--segments", path("offsets.npy"), "-o", "min",
                                 "--init-to-identity", "-i", 1)
        self.assertEqual(int(document["result"][0]), np.iinfo(np.int64).max)

    def test_transforms_per_segment_and_axis_match_numpy(self):
        rng = np.random.default_rng(9)
        floats = (rng.standard_normal(30000) * 3).astype(np.float32)
        offsets = np.array([0, 10, 10, 12000, 30000], dtype=np.int64)
        source, bounds = save("t_values.npy", floats), save("t_offsets.npy", offsets)
        parts = [floats[b:e].astype(np.float64) for b, e in zip(offsets[:-1], offsets[1:])]
        out = path("norms.npy")
        document = self.run_json("--input", source, "--segments", bounds, "-o", "norm_l2", "--verify", "--output", out,
                                 "-i", 1)
        self.assertTrue(document["verification"]["passed"])
        np.testing.assert_allclose(np.load(out), [np.sqrt((p * p).sum()) for p in parts], rtol=1e-5)
        self.assertEqual(np.load(out).dtype, np.float32)
        codes = rng.integers(0, 5, size=(40, 77)).astype(np.int16)
        out = path("counts.npy")
        document = self.run_json("--input", save("codes.npy", codes), "--axis", 1, "-o", "count_equal", "--equal-to", 3,
                                 "--verify", "--output", out, "-i", 1)
        self.assertTrue(document["verification"]["passed"])
        self.assertEqual(np.load(out).dtype, np.uint64)
        np.testing.assert_array_equal(np.load(out), np.count_nonzero(codes == 3, axis=1))
        document = self.run_json("--input", path("codes.npy"), "--axis", 0, "-o", "sum_i64", "--verify", "-i", 1)
        self.assertEqual([int(v) for v in document["result"]], codes.sum(axis=0, dtype=np.int64).tolist())

    def test_means_and_variances_per_segment_and_axis_match_numpy(self):
        rng = np.random.default_rng(21)
        samples = (rng.standard_normal(20000) * 4 + 100).astype(np.float32)
        offsets = np.array([0, 1, 1, 9000, 20000], dtype=np.int64)  # one element, an empty one, two long
        source, bounds = save("mv_values.npy", samples), save("mv_offsets.npy", offsets)
        for ddof in (0, 1):
            document = self.run_json("--input", source, "--segments", bounds, "-o", "mean_var_f64", "--ddof", ddof,
                                     "--verify", "-i", 1)
            self.assertTrue(document["verification"]["passed"])
            moments = document["moments"]
            self.assertEqual(len(moments), 4)
            self.assertEqual([m["count"] for m in moments], [1, 0, 8999, 11000])
            self.assertEqual(document["result"], [m["mean"] for m in moments])
            for s in (0, 2, 3):
                part = samples[offsets[s]:offsets[s + 1]].astype(np.float64)
                self.assertAlmostEqual(float(moments[s]["mean"]), part.mean(), delta=1e-9 * abs(part.mean()))
                if part.size > ddof:
                    self.assertAlmostEqual(float(moments[s]["variance"]), part.var(ddof=ddof),
                                           delta=1e-9 * part.var(ddof=ddof) + 1e-12)
                self.assertEqual(moments[s]["ddof"], ddof)
        # Along every axis of a 3-D integer array, the first moved last as for the transforms.
        table = rng.integers(-500, 500, size=(5, 6, 70)).astype(np.int16)
        for axis in (0, 1, 2):
            document = self.run_json("--input", save("mv_table.npy", table), "--axis", axis, "-o", "mean_var_f64",
                                     "--verify", "-i", 1)
            self.assertTrue(document["verification"]["passed"])
            self.assertEqual(document["request"]["result_shape"], list(table.mean(axis=axis).shape))
            np.testing.assert_allclose([float(m["mean"]) for m in document["moments"]],
                                       table.mean(axis=axis, dtype=np.float64).ravel(), rtol=1e-12)
            np.testing.assert_allclose([float(m["variance"]) for m in document["moments"]],
                                       table.var(axis=axis, dtype=np.float64).ravel(), rtol=1e-9)
        quiet = run("--input", source, "--segments", bounds, "-o", "mean_var_f32", "-q", "-i", 1)
        self.assertEqual(quiet.returncode, 0, quiet.stderr)
        fields = quiet.stdout.decode().strip().strip("[]").split(", ")
        self.assertEqual(len(fields), 4)  # "MEAN VARIANCE" per segment
        self.assertAlmostEqual(float(fields[3].split()[0]), samples[9000:].astype(np.float64).mean(), places=2)

    def test_argmin_argmax_per_segment_and_axis_are_numpys_with_indices_from_each_begin(self):
        rng = np.random.default_rng(12)
        values = rng.integers(-20, 20, size=5000).astype(np.float32)
        values[1234] = np.nan
        offsets = np.array([0, 1, 1000, 4000, 5000], dtype=np.uint32)
        source, bounds = save("arg_values.npy", values), save("arg_offsets.npy", offsets)
        for op, numpy_op in (("argmin", np.argmin), ("argmax", np.argmax)):
            document = self.run_json("--input", source, "--segments", bounds, "-o", op, "--verify", "-i", 1)
            self.assertTrue(document["verification"]["passed"])
            parts = [values[b:e] for b, e in zip(offsets[:-1], offsets[1:])]
            self.assertEqual(document["index"], [int(numpy_op(p)) for p in parts])  # NaN first, as NumPy
        table = rng.integers(0, 9, size=(6, 7, 50)).astype(np.int16)
        for axis in (0, 1, 2):
            document = self.run_json("--input", save("arg_table.npy", table), "--axis", axis, "-o", "argmax", "--verify",
                                     "-i", 1)
            self.assertTrue(document["verification"]["passed"])
            self.assertEqual(document["index"], np.argmax(table, axis=axis).ravel().tolist())
            self.assertEqual([int(v) for v in document["result"]], table.max(axis=axis).ravel().tolist())
        done = run("--input", source, "--segments", save("arg_empty.npy", np.array([0, 3, 3, 9], dtype=np.int64)),
                   "-o", "argmax")
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("segment 1 is empty", done.stderr.decode())

    def test_a_plain_run_writes_a_0d_array_and_columns_a_1d_one(self):
        values = np.arange(1, 1001, dtype=np.int32)
        source = save("plain.npy", values)
        self.run_json("--input", source, "--output", path("plain_out.npy"), "-i", 1)
        self.assertEqual(np.load(path("plain_out.npy")).shape, ())
        self.assertEqual(int(np.load(path("plain_out.npy"))), 500500)
        self.run_json("--input", source, "--columns", 8, "--output", path("columns_out.npy"), "-i", 1)
        np.testing.assert_array_equal(np.load(path("columns_out.npy")), values.reshape(-1, 8).sum(axis=0))

    def test_bad_segment_options_are_refused_by_name(self):
        values = save("bad_values.npy", np.arange(100, dtype=np.float32))
        array = save("bad_array.npy", np.zeros((4, 5), dtype=np.float32))
        self.expect_error(["--input", values, "--segments", save("dec.npy", np.array([0, 9, 3], dtype=np.int32))], 2,
                          "must not decrease", "offset 2")
        self.expect_error(["--input", values, "--segments", save("past.npy", np.array([0, 101], dtype=np.int64))], 2,
                          "past the input's 100 elements")
        self.expect_error(["--input", values, "--segments", save("neg.npy", np.array([-1, 3], dtype=np.int64))], 2,
                          "negative")
        self.expect_error(["--input", values, "--segments", save("ftype.npy", np.array([0.0, 3.0]))], 2,
                          "int32, uint32, int64 or uint64")
        self.expect_error(["--input", values, "--segments", save("twod.npy", np.zeros((2, 2), dtype=np.int32))], 2,
                          "1-D array")
        self.expect_error(["--input", array, "--axis", 2], 2, "out of range", "(4, 5)")
        self.expect_error(["--axis", 0], 2, "needs an N-D .npy --input")
        self.expect_error(["--input", array, "--axis", 1, "--segments", path("past.npy")], 2, "give one")
        self.expect_error(["--input", array, "--axis", 1, "-o", "mean_var_f64", "--output", path("mv.npy")], 2,
                          "--output", "use --json")
        self.expect_error(["--input", array, "--axis", 1, "--columns", 5], 2, "cannot be combined")
        self.expect_error(["--input", array, "-o", "argmax", "--output", path("x.npy")], 2, "--output")


class GivenBadInput(Case):
    def test_WhenRawSizeIsNotAWholeNumberOfElements_ThenUsageErrorSaysSo(self):
        with open(path("ten_bytes.bin"), "wb") as out:
            out.write(bytes(range(10)))
        self.expect_error(("--input", path("ten_bytes.bin"), "-t", "i32"), 2,
                          "10 bytes of raw input is not a whole number of i32 elements", "--type")

    def test_WhenRawFileHasNoType_ThenUsageErrorAsksForIt(self):
        with open(path("untyped.bin"), "wb") as out:
            out.write(bytes(8))
        self.expect_error(("--input", path("untyped.bin")), 2, "add --type")

    def test_WhenNpyDtypeIsUnsupported_ThenUsageErrorNamesItAndTheFix(self):
        self.expect_error(("--input", save("complex.npy", np.arange(4, dtype=np.complex64))), 2,
                          "unsupported dtype '<c8'", "astype")
        self.expect_error(("--input", save("big_complex.npy", np.arange(4, dtype=">c8"))), 2,
                          "unsupported dtype '>c8'", "big-endian (>)")
        # '|' (no byte order) on a multi-byte type would leave the order to a guess.
        with open(save("no_order.npy", np.arange(4, dtype="<i4")), "rb") as whole:
            data = whole.read().replace(b"'<i4'", b"'|i4'")
        with open(path("no_order.npy"), "wb") as out:
            out.write(data)
        self.expect_error(("--input", path("no_order.npy")), 2, "unsupported dtype '|i4'", "only 1-byte types")

    def test_WhenByteOrderContradictsTheInput_ThenUsageErrorSaysWhy(self):
        big = save("order_big_f4.npy", np.arange(4, dtype=">f4"))
        little = save("order_little_f4.npy", np.arange(4, dtype="<f4"))
        self.expect_error(("--input", big, "--byte-order", "little"), 2, "order_big_f4.npy",
                          "big-endian ('>f4') but --byte-order says little", "leave --byte-order out")
        self.expect_error(("--input", little, "--byte-order", "big"), 2,
                          "little-endian ('<f4') but --byte-order says big")
        self.assertEqual(self.run_json("--input", big, "--byte-order", "big")["result"], ["6"])  # agrees: accepted
        self.assertEqual(self.run_json("--input", save("order_u1.npy", np.arange(4, dtype=np.uint8)),
                                       "--byte-order", "big")["result"], ["6"])  # one byte has no order
        self.expect_error(("-n", "100", "--byte-order", "big"), 2, "--byte-order big", "generated input")
        self.expect_error(("--byte-order", "middle"), 2, "'middle'", "little", "big")
        np.arange(5, dtype=">i2").tofile(path("odd_i2.bin"))
        self.expect_error(("--input", path("odd_i2.bin"), "-t", "i32", "--byte-order", "big"), 2,
                          "10 bytes of raw input is not a whole number of i32 elements")

    def test_WhenFortranOrderGivenWithColumns_ThenRefusedRatherThanReadAsCOrder(self):
        # Read as C order, the columns of a Fortran-order (2, 3) array would be other elements: refused whatever
        # --columns says.
        array = np.asfortranarray(np.arange(6, dtype=">f4").reshape(2, 3))
        for columns in ("3", "2"):
            self.expect_error(("--input", save("fortran_columns.npy", array), "--columns", columns), 2, "Fortran",
                              "ascontiguousarray")

    def test_WhenColumnsCutAcrossTheRowsOfTheArray_ThenUsageErrorNamesTheFittingCounts(self):
        matrix = save("matrix_12x5.npy", np.arange(60, dtype=np.int32).reshape(12, 5))
        self.expect_error(("--input", matrix, "-o", "min", "--columns", "3"), 2, "matrix_12x5.npy",
                          "--columns 3 does not fit the shape (12, 5)", "5, 60", "a.ravel()")
        self.expect_error(("--input", matrix, "--columns", "7"), 2, "--columns 7")
        cube = save("cube.npy", np.arange(24, dtype=np.int16).reshape(2, 3, 4))
        self.expect_error(("--input", cube, "--columns", "6"), 2, "does not fit the shape (2, 3, 4)", "4, 12, 24")
        # A flat file takes any N that divides its count; one that does not is refused by the library.
        flat = save("flat_60.npy", np.arange(60, dtype=np.int32))
        self.assertEqual(len(self.run_json("--input", flat, "--columns", "3")["result"]), 3)
        self.expect_error(("--input", flat, "--columns", "7"), 2, "not a multiple")
        np.arange(10, dtype=np.int32).tofile(path("ten_i32.bin"))
        self.expect_error(("--input", path("ten_i32.bin"), "-t", "i32", "--columns", "4"), 2, "not a multiple")
        self.expect_error(("--input", flat, "--columns", "0"), 2, "at least one column")

    def test_WhenNpyIsFortranOrder_ThenUsageErrorSaysHowToResave(self):
        array = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
        self.expect_error(("--input", save("fortran.npy", array)), 2, "Fortran", "ascontiguousarray")

    def test_WhenNpyHeaderIsTruncated_ThenUsageErrorSaysTruncated(self):
        with open(save("whole.npy", np.arange(100, dtype=np.int32)), "rb") as whole:
            head = whole.read(40)
        with open(path("truncated.npy"), "wb") as out:
            out.write(head)
        self.expect_error(("--input", path("truncated.npy")), 2, "truncated")

    def test_WhenNpyDataIsShorterThanItsShape_ThenUsageErrorGivesTheSizes(self):
        with open(save("whole.npy", np.arange(100, dtype=np.int32)), "rb") as whole:
            data = whole.read()
        with open(path("short.npy"), "wb") as out:
            out.write(data[:-6])
        self.expect_error(("--input", path("short.npy")), 2, "short.npy")
        self.expect_error(("--input", path("short.npy")), 2, "needs 400 data bytes", "the file has 394",
                          "truncated")
        self.expect_error(("--input", "-"), 2, "the file has only 394", stdin=data[:-6])

    def test_WhenNpyDataIsLongerThanItsShape_ThenUsageErrorRatherThanPartOfTheData(self):
        with open(save("whole_be.npy", np.arange(100, dtype=">i4")), "rb") as whole:
            data = whole.read()
        for extra in (b"\0", bytes(400)):  # a stray byte, or a second array's worth
            with open(path("long.npy"), "wb") as out:
                out.write(data + extra)
            self.expect_error(("--input", path("long.npy")), 2, "needs 400 data bytes", "more than one array")
            self.expect_error(("--input", "-"), 2, "more bytes follow", stdin=data + extra)

    def test_WhenSizeDoesNotFitTheDevice_ThenDeviceErrorSaysChooseSmaller(self):
        self.expect_error(("-n", "2^50"), 3, "does not fit the memory of device", "choose a smaller -n")

    def test_WhenOpIsNotDefinedForTheType_ThenUsageErrorNamesThePair(self):
        self.expect_error(("-o", "and", "-t", "f32"), 2, "bit_and is not defined for f32")
        self.expect_error(("-o", "land", "-t", "i32"), 2, "logical_and is not defined for i32")
        self.expect_error(("--input", save("flags.npy", np.zeros(3, dtype=np.bool_)), "-o", "sum"), 2,
                          "plus is not defined for bool")

    def test_WhenOptionValuesAreWrong_ThenUsageErrorListsTheChoices(self):
        self.expect_error(("-o", "average"), 2, "is not an operation")
        self.expect_error(("-t", "f128"), 2, "is not an element type")
        self.expect_error(("-n", "12.5"), 2, "not a whole number of elements")
        self.expect_error(("--strategy", "fastest"), 2, "is not a strategy")
        self.expect_error(("--input", path("does-not-exist.npy")), 2, "cannot open it")
        self.expect_error(("-d", "999"), 2, "out of range")
        self.expect_error(("--identity", "1", "-o", "sum"), 2, "is not an identity of plus")
        self.expect_error(("-n", "10", "--columns", "3"), 2, "not a multiple")

    def test_WhenStrategyCannotRunOnTheDevice_ThenDeviceErrorSaysWhy(self):
        devices = self.run_json("--list")["devices"]
        default = next(d for d in devices if d.get("executes_kernels"))
        allowed = set(default["strategies"]["plus f32"])
        refused = [s for s in ("global_atomics", "subgroup", "work_group") if s not in allowed]
        if not refused:
            self.skipTest("the default device allows every strategy for plus f32")
        self.expect_error(("-t", "f32", "--strategy", refused[0], "-d", default["index"]), 3,
                          f"strategy {refused[0]} is not available")


class GivenABrokenDevice(Case):
    def test_WhenTheResultIsWrong_ThenVerificationFailsWithExitCodeOne(self):
        # Test-only fault injection (runtime/api/reduction_job.cpp): flips the lowest bit of the result.
        strategy = self.run_json("-t", "i32", "-n", "1000")["plans"][0]["strategy"]
        done = run("-t", "i32", "-n", "1000", "--verify", env={**CLEAN_ENV, "ZE_REDUCE_FAULT_INJECTION": strategy})
        self.assertEqual(done.returncode, 1, done.stderr.decode())
        self.assertIn(b"MISMATCH", done.stdout)
        self.assertIn(b"does not match the host reference", done.stderr)

    # cpu_chunks runs on every device, and is not the execution probe's strategy (tree).
    FORCED = ("-t", "i32", "-n", "1000", "--strategy", "cpu_chunks")

    def default_device_name(self):
        return self.run_json(*self.FORCED)["device"]["name"]

    def test_WhenTheDeviceIsLost_ThenOneDeviceLostErrorAndExitCodeThree(self):
        name, strategy = self.default_device_name(), "cpu_chunks"
        done = run(*self.FORCED, env={**CLEAN_ENV, "ZE_REDUCE_FAULT_INJECTION": f"device_lost:{strategy}"})
        message = done.stderr.decode()
        self.assertEqual(done.returncode, 3, message)
        self.assertEqual(done.stdout, b"", "a lost device prints no result")
        for fragment in ("device lost", name, strategy, "refuses further work", "(simulated"):
            self.assertIn(fragment, message)
        self.assertNotIn("--list", message, "a lost device is not a usage problem")

    def test_WhenTheDeviceHangs_ThenTheWaitEndsAfterTheTimeoutWithExitCodeThree(self):
        name, strategy = self.default_device_name(), "cpu_chunks"
        env = {**CLEAN_ENV, "ZE_REDUCE_FAULT_INJECTION": f"hang:{strategy}", "ZE_REDUCE_TIMEOUT_S": "1"}
        started = time.monotonic()
        done = run(*self.FORCED, env=env)
        took = time.monotonic() - started
        message = done.stderr.decode()
        self.assertEqual(done.returncode, 3, message)
        for fragment in (name, "did not finish", "within 1 s", "ZE_REDUCE_TIMEOUT_S", strategy):
            self.assertIn(fragment, message)
        self.assertLess(took, 60, "the hang was not cut short by ZE_REDUCE_TIMEOUT_S=1")

    def test_WhenTheExecutionProbeHangs_ThenListSaysUnknownAndTheDeviceIsNotTheDefault(self):
        # The probe reduces with the tree strategy: hang exactly that, on the default device only.
        name = self.default_device_name()
        env = {**CLEAN_ENV, "ZE_REDUCE_FAULT_INJECTION": f"hang:tree@{name}", "ZE_REDUCE_PROBE_TIMEOUT_S": "1"}
        started = time.monotonic()
        listed = run("--list", env=env)
        self.assertEqual(listed.returncode, 0, listed.stderr.decode())
        self.assertLess(time.monotonic() - started, 60)
        self.assertIn("kernels execute: unknown (probe did not finish in 1 s)", listed.stdout.decode())
        devices = json.loads(run("--list", "--json", env=env).stdout)["devices"]
        jsonschema.validate({"schema": "ze_reduce/devices/1", "version": "x", "devices": devices}, SCHEMA)
        hung = [d for d in devices if d["name"] == name]
        self.assertTrue(hung and all(d["kernel_execution"]["status"] == "unknown" for d in hung), hung)
        self.assertTrue(all(not d["executes_kernels"] for d in hung))
        chosen = run("-t", "i32", "-n", "1000", "--json", env=env)
        if chosen.returncode == 0:
            self.assertNotEqual(json.loads(chosen.stdout)["device"]["name"], name)
        else:
            self.assertEqual(chosen.returncode, 3, chosen.stderr.decode())
            self.assertIn("no device runs kernels", chosen.stderr.decode())


class GivenIntelDriverWithoutHardware(Case):
    # Intel's compute runtime in its capture mode (DESIGN.md section 3): a real Tiger Lake profile whose
    # kernels do not execute.
    NOHW = {"NEOReadDebugKeys": "1", "SetCommandStreamReceiver": "1", "AUBDumpCaptureFileName": "/dev/null",
            "ProductFamilyOverride": "tgllp", "HardwareInfoOverride": "1x6x16"}

    def test_WhenItsDeviceIsChosen_ThenRefusedRatherThanAMeaninglessResult(self):
        env = {**CLEAN_ENV, **self.NOHW}
        listed = run("--list", "--json", env=env)
        self.assertEqual(listed.returncode, 0, listed.stderr.decode())
        silent = [d for d in json.loads(listed.stdout)["devices"] if d.get("executes_kernels") is False]
        if not silent:
            self.skipTest("Intel's compute runtime (intel-opencl-icd, level-zero) shows no device here")
        for device in silent:
            done = run("-d", device["index"], "-n", "1000", env=env)
            self.assertEqual(done.returncode, 3, done.stderr.decode())
            self.assertIn(b"is not known to execute kernels", done.stderr)
        default = run("-n", "1000", "--json", env=env)
        self.assertEqual(default.returncode, 0, default.stderr.decode())
        self.assertNotIn(json.loads(default.stdout)["device"]["index"], [d["index"] for d in silent])

    def test_WhenListedWithThePvcProfile_ThenEveryWaitEndsAndThePvcDevicesAreShown(self):
        # Intel's OpenCL driver used to block forever in the probe's blocking write with this profile.
        env = {**CLEAN_ENV, **self.NOHW, "ProductFamilyOverride": "pvc", "HardwareInfoOverride": "1x4x8"}
        started = time.monotonic()
        try:
            listed = subprocess.run([ZE_REDUCE, "--list", "--json"], capture_output=True, env=env, timeout=60,
                                    cwd=WORK)
        except subprocess.TimeoutExpired:
            self.fail("ze_reduce --list with the pvc profile did not finish within 60 s")
        self.assertEqual(listed.returncode, 0, listed.stderr.decode())
        self.assertLess(time.monotonic() - started, 60)
        devices = json.loads(listed.stdout)["devices"]
        intel = [d for d in devices if "0x0bd5" in d["name"]]  # PVC's PCI device id
        if not intel:
            self.skipTest("Intel's compute runtime (intel-opencl-icd, level-zero) shows no device here")
        for device in intel:
            self.assertIn("subgroup", device["strategies"]["plus f32"], device)
            self.assertIn(device["kernel_execution"]["status"], ("no", "unknown"), device)

    def test_WhenAffinityMaskExcludesIt_ThenListDoesNotShowIt(self):
        def backends(mask):
            done = run("--list", "--json", env={**CLEAN_ENV, **self.NOHW, "ZE_AFFINITY_MASK": mask})
            self.assertEqual(done.returncode, 0, done.stderr.decode())
            return [d["backend"] for d in json.loads(done.stdout)["devices"]]

        if "level_zero" not in backends("0"):
            self.skipTest("Intel's Level Zero driver shows no device here")
        self.assertNotIn("level_zero", backends("3"), "device 3 does not exist: the mask leaves no Level Zero device")


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main(verbosity=2)
