"""zereduce: ze-reduce's reductions on NumPy arrays.

    import numpy as np, zereduce
    x = np.random.rand(1 << 20).astype(np.float32)
    print(zereduce.sum(x), zereduce.max(x), zereduce.reduce(x, "plus", deterministic=True))

The device is the library's default one (ZE_REDUCE_DEVICE names another by its index in ``devices()``), or the
``device=`` index given. Results are NumPy scalars of the array's dtype: integers wrap as in C (NumPy's own
``sum`` would widen int8 to int64; ``np.add.reduce(x, dtype=x.dtype)`` is the same as ours). Arrays that are not
C-contiguous are copied first. An empty array gives the operation's identity (0 for sum, 1 for prod, True for
all, False for any); ``min`` and ``max`` of an empty array raise ValueError, as NumPy's do.

Errors keep the library's message and class: ``InvalidArgumentError`` (a ValueError too), ``UnsupportedError``,
``BackendError``, and its kinds ``DeviceLostError`` and ``TimeoutError``; all derive from ``zereduce.Error``.
"""
import numpy as _np

from . import _zereduce
from ._zereduce import BackendError, DeviceLostError, Error, TimeoutError, UnsupportedError  # noqa: F401


class InvalidArgumentError(_zereduce.InvalidArgumentError, ValueError):
    """A bad argument: dtype, operation, strategy, shape or initial value."""


__all__ = ["devices", "reduce", "sum", "prod", "min", "max", "all", "any", "Error", "InvalidArgumentError",
           "UnsupportedError", "BackendError", "DeviceLostError", "TimeoutError"]

# NumPy-style names of the SYCL operations the library takes.
_OPS = {"sum": "plus", "add": "plus", "prod": "multiplies", "multiply": "multiplies", "min": "minimum",
        "max": "maximum", "and": "bit_and", "or": "bit_or", "xor": "bit_xor", "all": "logical_and",
        "any": "logical_or"}


def devices():
    """Every device, as ``ze_reduce --list`` lists them: dicts with index, name, backend, kind, description and
    executes_kernels."""
    return _zereduce.devices()


def reduce(x, op, *, initial=None, deterministic=False, reproducible=False, strategy=None, device=None, axis=None):
    """The reduction of every element of ``x`` with ``op`` (axis=None), or of a 2-D ``x`` along axis 0: one
    result per column, in one pass over the rows (the library's array reduction), as an array.

    op: a SYCL name (plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, logical_and, logical_or) or a
    NumPy-style one (sum, prod, min, max, and, or, xor, all, any).
    initial: a value folded into the result (converted to x's dtype); without it the result starts from the
    operation's identity.
    deterministic: the same device, launch configuration and input give a bitwise-identical result.
    reproducible: the same values give a bitwise-identical result on every device, strategy and order (floating
    sums run as binned sums rounded once; docs/api.md, "Reproducible sums"). Implies deterministic.
    strategy: run exactly this strategy (tree, subgroup, work_group, local_atomics, cpu_chunks, last_group,
    global_atomics), refused where the device cannot.
    device: an index of ``devices()``; default: the library's default device.
    """
    array = _np.asarray(x)
    if array.dtype == object:
        raise InvalidArgumentError("object arrays cannot be reduced: give a numeric or bool dtype")
    if axis is None:
        values = _np.ascontiguousarray(array).reshape(-1)
        results = 1
    elif axis == 0 and array.ndim == 2:
        values = _np.ascontiguousarray(array)
        results = values.shape[1]
    else:
        raise InvalidArgumentError(f"axis={axis!r} on a {array.ndim}-D array: zereduce reduces all elements "
                                   "(axis=None) or the rows of a 2-D array (axis=0)")
    op_name = _OPS.get(op, op)
    if values.size == 0 and op_name in ("minimum", "maximum"):
        raise ValueError(f"zero-size array to reduction operation {op_name} which has no identity")
    start = None
    if initial is not None:
        start = _np.broadcast_to(_np.asarray(initial, dtype=values.dtype), (results,)).copy()
    try:
        result = _zereduce.reduce(values, op_name, start, bool(deterministic), bool(reproducible), strategy,
                                  -1 if device is None else int(device))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return result[()] if axis is None else result


def sum(x, **kwargs):  # noqa: A001 (NumPy's name)
    """``reduce(x, "plus", ...)``."""
    return reduce(x, "plus", **kwargs)


def prod(x, **kwargs):
    """``reduce(x, "multiplies", ...)``."""
    return reduce(x, "multiplies", **kwargs)


def min(x, **kwargs):  # noqa: A001
    """``reduce(x, "minimum", ...)``; NaN handling is the library's (docs/api.md)."""
    return reduce(x, "minimum", **kwargs)


def max(x, **kwargs):  # noqa: A001
    """``reduce(x, "maximum", ...)``."""
    return reduce(x, "maximum", **kwargs)


def all(x, **kwargs):  # noqa: A001
    """Whether every element is true (bool arrays)."""
    return reduce(x, "logical_and", **kwargs)


def any(x, **kwargs):  # noqa: A001
    """Whether some element is true (bool arrays)."""
    return reduce(x, "logical_or", **kwargs)
