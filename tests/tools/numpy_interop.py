"""NumPy's side of tools_tests' NumPyInterop test.

  numpy_interop.py write DIR   saves one .npy per dtype, shape and format version with NumPy, a big-endian copy
                               (<name>_be.npy) of each multi-byte one, the same elements raw (a.tofile, little-endian)
                               as .bin, and a manifest: "name version shape" per line
  numpy_interop.py check DIR   loads every ours_<name>.npy that ze-reduce wrote and compares it with NumPy's <name>.npy
"""
import os
import sys

import numpy as np

CODES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "b1"]
SHAPES = [(), (5,), (3, 4), (2, 3, 2)]


def arrays():
    for code in CODES:
        dtype = np.dtype(bool) if code == "b1" else np.dtype("<" + code)
        for shape in SHAPES:
            n = int(np.prod(shape, dtype=np.int64))
            values = (np.arange(n, dtype=np.int64) * 37 + 11) % 100
            array = (values % 2 == 1) if code == "b1" else values.astype(dtype)
            tag = "x".join(str(d) for d in shape) or "scalar"
            yield f"{code}_{tag}", array.reshape(shape)


def write(folder):
    with open(os.path.join(folder, "manifest.txt"), "w") as manifest:
        manifest.write(f"numpy {np.__version__}\n")
        for name, array in arrays():
            array.tofile(os.path.join(folder, name + ".bin"))
            np.save(os.path.join(folder, name + ".npy"), array)
            with open(os.path.join(folder, name + "_v2.npy"), "wb") as f:
                np.lib.format.write_array(f, array, version=(2, 0))
            shape = ",".join(str(d) for d in array.shape) or "-"  # "-": a 0-d array (a word for >> to read)
            manifest.write(f"{name} 1 {shape}\n{name}_v2 2 {shape}\n")
            if array.dtype.itemsize > 1:
                np.save(os.path.join(folder, name + "_be.npy"), array.astype(array.dtype.newbyteorder(">")))
                manifest.write(f"{name}_be 1 {shape}\n")


def check(folder):
    checked = 0
    for name, expected in arrays():
        for suffix in ("", "_v2"):
            ours = np.load(os.path.join(folder, f"ours_{name}{suffix}.npy"))
            if ours.dtype != expected.dtype or ours.shape != expected.shape or not np.array_equal(ours, expected):
                sys.exit(f"ours_{name}{suffix}.npy: {ours.dtype} {ours.shape} differs from {expected.dtype} {expected.shape}")
            checked += 1
    print(f"numpy {np.__version__} loaded {checked} files written by ze-reduce")


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
