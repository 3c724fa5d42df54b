"""zereduce: ze-reduce's reductions on NumPy arrays.

    import numpy as np, zereduce
    x = np.random.rand(1 << 20).astype(np.float32)
    print(zereduce.sum(x), zereduce.max(x), zereduce.reduce(x, "plus", deterministic=True))

The device is the library's default one (ZE_REDUCE_DEVICE names another by its index in ``devices()``), or the
``device=`` index given. Results are NumPy scalars of the array's dtype: integers wrap as in C (NumPy's own
``sum`` would widen int8 to int64; ``np.add.reduce(x, dtype=x.dtype)`` is the same as ours). Arrays that are not
C-contiguous are copied first. An empty array gives the operation's identity (0 for sum, 1 for prod, True for
all, False for any); ``min`` and ``max`` of an empty array raise ValueError, as NumPy's do.

Memory: CPU devices read a C-contiguous array where it lies (no copy); other devices get it copied for each
call, so for repeated reductions ``asarray(x, device=...)`` copies it into device memory once. Host DLPack
producers (``__dlpack__`` on kDLCPU) are read as NumPy views. ``reduce_async`` returns a ``Future``; waits
release the GIL and Ctrl-C interrupts them.

Errors keep the library's message and class: ``InvalidArgumentError`` (a ValueError too), ``UnsupportedError``,
``BackendError``, and its kinds ``DeviceLostError`` and ``TimeoutError``; all derive from ``zereduce.Error``.
"""
import concurrent.futures as _futures
import threading as _threading

import numpy as _np

from . import _zereduce
from ._zereduce import BackendError, DeviceLostError, Error, TimeoutError, UnsupportedError  # noqa: F401


class InvalidArgumentError(_zereduce.InvalidArgumentError, ValueError):
    """A bad argument: dtype, operation, strategy, shape or initial value."""


__all__ = ["devices", "reduce", "reduce_async", "asarray", "DeviceArray", "Future", "sum", "prod", "min", "max",
           "segment_reduce", "reduceat",
           "argmin", "argmax", "all", "any", "norm", "sum_of_squares", "count_nonzero", "count_equal", "sum_as", "mean", "var", "std",
           "Error", "InvalidArgumentError", "UnsupportedError", "BackendError", "DeviceLostError", "TimeoutError"]

# NumPy-style names of the SYCL operations the library takes.
_OPS = {"sum": "plus", "add": "plus", "prod": "multiplies", "multiply": "multiplies", "min": "minimum",
        "max": "maximum", "and": "bit_and", "or": "bit_or", "xor": "bit_xor", "all": "logical_and",
        "any": "logical_or"}

_DLPACK_CPU = 1  # DLDeviceType kDLCPU


def devices():
    """Every device, as ``ze_reduce --list`` lists them: dicts with index, name, backend, kind, description,
    executes_kernels, default (the device of calls that name none), and host_path_max_bytes and
    host_path_max_segment_bytes: the most bytes of host input that the calling thread reduces itself (CPU devices'
    host path, docs/api.md "Small inputs"; 0: none)."""
    return _zereduce.devices()


class DeviceArray(_zereduce.DeviceArray):
    """An array copied once into a device allocation (see ``asarray``): reductions of it read it in place, with
    no copy per call. ``numpy.asarray(a)`` or ``a.to_numpy()`` copies it back."""

    def __init__(self, host, device=None):
        try:
            super().__init__(_host_array(host), -1 if device is None else int(device))
        except _zereduce.InvalidArgumentError as error:
            raise InvalidArgumentError(str(error)) from None

    @property
    def ndim(self):
        return len(self.shape)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __array__(self, dtype=None, copy=None):
        host = self.to_numpy()
        return host if dtype is None else host.astype(dtype, copy=False)

    def __repr__(self):
        return f"zereduce.DeviceArray(shape={self.shape}, dtype={self.dtype}, device={self.device})"


def asarray(x, device=None):
    """``x`` (anything ``numpy.asarray`` takes) copied into memory of ``device`` (an index of ``devices()``;
    default: the library's default device), for repeated reductions without a copy each time. A DeviceArray on
    that device is returned as it is."""
    if isinstance(x, DeviceArray) and (device is None or int(device) == x.device):
        return x
    return DeviceArray(x, device)


# The dtype kinds the library reads (bool, signed and unsigned integers, floating point), and what to do instead
# for the others: each message names the dtype and the way out.
_READ_KINDS = "biuf"
_OTHER_KINDS = {
    "c": "complex numbers are not reduced: reduce x.real and x.imag separately",
    "M": "datetime64 values are not reduced: reduce x.view('int64') (ticks of the unit; NaT is the int64 minimum)",
    "m": "timedelta64 values are not reduced: reduce x.view('int64') (ticks of the unit; NaT is the int64 minimum)",
    "V": "structured or void records are not reduced: reduce one numeric field, such as x['name']",
    "U": "strings are not reduced", "S": "byte strings are not reduced",
    "O": "object arrays are not reduced: give a numeric or bool dtype",
}


def _dtype_text(dtype):
    return dtype.name if dtype.isnative else f"{dtype.name} ('{dtype.str}')"


def _check_dtype(dtype):
    """Refuses, naming it, a dtype that the library does not read (complex, datetime, strings, records, objects,
    long double)."""
    if dtype.kind in _READ_KINDS and (dtype.kind != "f" or dtype.itemsize in (2, 4, 8)):
        return
    why = _OTHER_KINDS.get(dtype.kind, "zereduce reduces bool, int8..int64, uint8..uint64, float16, float32 and float64")
    raise InvalidArgumentError(f"dtype {_dtype_text(dtype)}: {why}")


def _host_array(x):
    """``x`` as a NumPy array that the library reads in place: a known dtype in the host's byte order, aligned and
    C-contiguous. An array that is all of that is used as it is (a view); any other is converted once into a new
    one (non-native byte order swapped, strided, Fortran-order or unaligned copied). DLPack producers of host
    memory (kDLCPU) are viewed without a copy; masked arrays are refused (their mask would be ignored)."""
    if isinstance(x, _np.ma.MaskedArray):
        raise InvalidArgumentError("a masked array: zereduce would reduce the masked elements too; give "
                                   "x.compressed() (the unmasked elements) or x.filled(value)")
    if not isinstance(x, _np.ndarray) and hasattr(x, "__sycl_usm_array_interface__"):
        x = _sycl_usm_host_view(x)
    if not isinstance(x, _np.ndarray) and hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        kind, _ = x.__dlpack_device__()
        if int(kind) != _DLPACK_CPU:
            raise InvalidArgumentError(f"a DLPack array on device type {int(kind)}: zereduce reads host (kDLCPU) "
                                       "DLPack arrays and its own DeviceArray; copy it to the host first")
        x = _np.from_dlpack(x)
    array = _np.asarray(x)
    _check_dtype(array.dtype)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="), order="C")
    if not (array.flags.c_contiguous and array.flags.aligned):
        array = _np.array(array, order="C", copy=True)
    return array


class _UsmHostMemory:
    """NumPy's view of a SYCL USM array's memory (``__array_interface__``), keeping the array alive."""

    def __init__(self, owner, interface):
        self._owner = owner
        self.__array_interface__ = interface


def _sycl_device_types(syclobj):
    """The device types ('cpu', 'gpu', ...) of the SYCL queue, context or device an array names."""
    if hasattr(syclobj, "sycl_device"):  # a queue
        devices = [syclobj.sycl_device]
    elif hasattr(syclobj, "get_devices"):  # a context
        devices = list(syclobj.get_devices())
    elif hasattr(syclobj, "device_type"):  # a device
        devices = [syclobj]
    else:
        raise InvalidArgumentError(f"a SYCL USM array whose syclobj ({type(syclobj).__name__}) names no queue, "
                                   "context or device: zereduce cannot tell where its memory is")
    return {getattr(d.device_type, "name", str(d.device_type)).split(".")[-1] for d in devices}


def _sycl_usm_host_view(x):
    """A SYCL USM array (``__sycl_usm_array_interface__``: dpctl, dpnp) read in place where its memory is host
    memory, that is on a CPU SYCL device (whose device, shared and host USM all live in this process's memory):
    a NumPy view of it, after the array's queue has finished its work. Memory of a GPU SYCL device is refused:
    reading it here would be a copy through the host."""
    interface = x.__sycl_usm_array_interface__
    syclobj = interface.get("syclobj")
    types = _sycl_device_types(syclobj)
    if types != {"cpu"}:
        raise InvalidArgumentError(
            f"a SYCL USM array ({type(x).__name__}) on a {'/'.join(sorted(types))} SYCL device: zereduce reads SYCL "
            "USM memory in place only where it is host memory (a CPU SYCL device); copy it to the host explicitly "
            "(dpnp.asnumpy(x), dpctl.tensor.asnumpy(x)) and reduce that")
    if hasattr(syclobj, "wait"):
        syclobj.wait()  # the kernels that write it come first
    view = {"data": tuple(interface["data"]), "shape": tuple(interface["shape"]), "typestr": interface["typestr"],
            "strides": interface.get("strides"), "version": 3}
    return _np.asarray(_UsmHostMemory(x, view))


def _flat_values(x):
    """All elements of ``x``: a DeviceArray as it is, anything else as ``_host_array`` gives it, flattened (a view)."""
    return x if isinstance(x, DeviceArray) else _host_array(x).reshape(-1)


class Future:
    """A reduction started by ``reduce_async``: ``result()`` waits for it (Ctrl-C interrupts the wait, not the
    work) and gives what ``reduce`` would have. The input must not change until ``done()``."""

    def __init__(self, job, axis):
        self._job = job
        self._axis = axis

    def done(self):
        """Whether the work has finished (successfully or not)."""
        return self._job.done()

    def result(self, timeout=None):
        """The result, waiting at most ``timeout`` seconds (None: until done; the library's own wait limits
        still apply) and raising ``concurrent.futures.TimeoutError`` after that, or the work's error."""
        try:
            if not self._job.wait(timeout):
                raise _futures.TimeoutError(f"the reduction is still running after {timeout} s")
            result = self._job.result()
        except _zereduce.InvalidArgumentError as error:
            raise InvalidArgumentError(str(error)) from None
        return result[()] if self._axis is None else result


# Reductions whose caller stopped waiting (Ctrl-C): kept until done, as the work still reads and writes their
# memory.
_still_running = []
_still_running_lock = _threading.Lock()


def reduce_async(x, op, *, initial=None, identity=None, deterministic=False, reproducible=False, strategy=None,
                 device=None, axis=None):
    """``reduce`` started and returned at once as a ``Future`` (small work on an idle device may already be done
    on return: it runs on the calling thread)."""
    values = x if isinstance(x, DeviceArray) else _host_array(x)
    shape, dtype, size = values.shape, values.dtype, values.size
    if axis is None:
        results = 1
        if not isinstance(values, DeviceArray):
            values = values.reshape(-1)
    elif axis == 0 and len(shape) == 2:
        results = shape[1]
    else:
        raise InvalidArgumentError(f"axis={axis!r} on a {len(shape)}-D array: zereduce reduces all elements "
                                   "(axis=None) or the rows of a 2-D array (axis=0)")
    op_name = _OPS.get(op, op)
    if size == 0 and op_name in ("minimum", "maximum"):
        raise ValueError(f"zero-size array to reduction operation {op_name} which has no identity")
    start = None
    if initial is not None:
        start = _np.broadcast_to(_np.asarray(initial, dtype=dtype), (results,)).copy()
    user_identity = None if identity is None else _np.asarray(identity, dtype=dtype).reshape(1)
    if _still_running:
        with _still_running_lock:
            _still_running[:] = [job for job in _still_running if not job.done()]
    try:
        job = _zereduce.submit(values, op_name, start, user_identity, bool(deterministic), bool(reproducible), strategy,
                               -1 if device is None else int(device), axis == 0)
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return Future(job, axis)


def reduce(x, op, *, initial=None, identity=None, deterministic=False, reproducible=False, strategy=None, device=None,
           axis=None, keepdims=False):
    """The reduction of every element of ``x`` with ``op`` (axis=None), or of a 2-D ``x`` along axis 0: one
    result per column, in one pass over the rows (the library's array reduction), as an array. Any other
    ``axis`` (an int or a tuple, as NumPy takes it) reduces those axes of an N-D ``x`` as segments
    (docs/python.md, "Segments and axes": the trailing axes in place, others moved last by a copy);
    ``keepdims`` keeps them with extent 1.

    x: a NumPy array (or anything ``numpy.asarray`` takes, or a host DLPack producer), read in place on CPU
    devices when C-contiguous (other layouts are copied first), or a ``DeviceArray`` from ``asarray``.
    op: a SYCL name (plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, logical_and, logical_or) or a
    NumPy-style one (sum, prod, min, max, and, or, xor, all, any).
    initial: a value folded into the result (converted to x's dtype); without it the result starts from the
    operation's identity.
    identity: the operation's identity, given as SYCL's reduction(var, identity, op) takes it; the library knows
    every built-in operation's identity, and refuses a value that is not one (InvalidArgumentError).
    deterministic: the same device, launch configuration and input give a bitwise-identical result.
    reproducible: the same values give a bitwise-identical result on every device, strategy and order (floating
    sums run as binned sums rounded once; docs/api.md, "Reproducible sums"). Implies deterministic.
    strategy: run exactly this strategy (tree, subgroup, work_group, local_atomics, cpu_chunks, last_group,
    global_atomics), refused where the device cannot.
    device: an index of ``devices()``; default: the library's default device (a DeviceArray's own device).

    The GIL is released while the device works; Ctrl-C interrupts the wait with KeyboardInterrupt.
    """
    if axis is not None and (keepdims or not _is_column_axis(x, axis)):
        if identity is not None or strategy is not None:
            raise UnsupportedError("reductions over an axis other than a 2-D array's axis 0 run as segments, which take "
                                   "no identity or strategy yet")
        return _reduce_axes(x, op, axis, keepdims, initial, deterministic, device, reproducible)
    job = reduce_async(x, op, initial=initial, identity=identity, deterministic=deterministic,
                       reproducible=reproducible, strategy=strategy, device=device, axis=axis)._job
    try:
        result = job.result()
    except KeyboardInterrupt:
        with _still_running_lock:
            _still_running.append(job)
        raise
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return result[()] if axis is None else result


def _segments(job):
    try:
        return job.result()
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None


def _offset_array(offsets, what, n):
    """Segment offsets as the contiguous int64 array the binding takes, or InvalidArgumentError saying why not."""
    bounds = _np.ascontiguousarray(_np.asarray(offsets).reshape(-1))
    if bounds.size and bounds.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{what} must be integers, not {bounds.dtype}")
    if bounds.dtype.kind == "u" and bounds.size and bounds.max() > _np.iinfo(_np.int64).max:
        raise InvalidArgumentError(f"{what[:-1]} {int(bounds.max())} is past the end of the input (n = {n})")
    return bounds.astype(_np.int64, copy=False)


# segment_reduce's transforms: their names there, and the library's.
_SEGMENT_TRANSFORMS = {"sum_of_squares": "sum_squares", "norm_l2": "norm_l2", "norm_l1": "norm_l1",
                       "count_nonzero": "count_nonzero", "count_equal": "count_equal", "mean": "mean_var_f64"}


def segment_reduce(x, offsets, op="sum", *, ends=None, initial=None, deterministic=False, reproducible=False,
                   device=None, return_value=False, value=None):
    """One reduction per segment of the flattened ``x``: result ``s`` reduces ``x[offsets[s]:offsets[s + 1]]``
    (queue::reduce_segments; docs/python.md, "Segments and axes"). ``offsets``: ``segments + 1`` non-decreasing
    integers, the last at most ``x.size`` (elements before ``offsets[0]`` belong to no segment); bad ones raise
    InvalidArgumentError naming the offset. With ``ends``, ``offsets`` holds each segment's begin and ``ends`` its
    end, as many of each: result ``s`` reduces ``x[offsets[s]:ends[s]]``, and the segments may overlap, come in any
    order or leave elements out (an end below its begin is refused). An empty segment gives the operation's
    identity (``initial``, one value or one per segment, is folded in when given). Results are deterministic;
    with ``reproducible``, a floating sum's result for each segment has the bits of ``sum(segment,
    reproducible=True)`` on every device. ``op="argmin"`` or ``"argmax"``: each segment's index of its first extreme,
    counted from the segment's begin (``argmax``'s rules; an empty segment raises InvalidArgumentError), and with
    ``return_value=True`` ``(indices, values)``. ``op="norm_l2"``, ``"norm_l1"``, ``"sum_of_squares"``,
    ``"count_nonzero"``, ``"count_equal"`` (with ``value=``) or ``"mean"`` (in float64; NaN for an empty segment):
    each segment's transform-reduction, as ``zereduce.norm`` and the others give it for the segment alone."""
    values = _flat_values(x)
    bounds = _offset_array(offsets, "segment begins" if ends is not None else "segment offsets", values.size)
    end_bounds = None
    if ends is not None:
        end_bounds = _offset_array(ends, "segment ends", values.size)
    if op in _SEGMENT_TRANSFORMS:
        if initial is not None or reproducible:
            raise InvalidArgumentError(f"{op} per segment takes no initial value and has no reproducible form")
        if (value is None) != (op != "count_equal"):
            raise InvalidArgumentError("count_equal per segment needs value=, and only count_equal takes it")
        counted = None if value is None else _np.asarray(value, dtype=values.dtype).reshape(())
        try:
            found = _zereduce.segment_transform(values, bounds, 0, _SEGMENT_TRANSFORMS[op], counted,
                                                -1 if device is None else int(device), end_bounds)
        except _zereduce.InvalidArgumentError as error:
            raise InvalidArgumentError(str(error)) from None
        if op == "mean":
            count, means, _ = found
            return _np.where(count > 0, means, _np.nan)
        return found.astype(_np.int64) if op.startswith("count") else found
    if op in ("argmin", "argmax"):
        if initial is not None or reproducible:
            raise InvalidArgumentError(f"{op} per segment takes no initial value and is always reproducible")
        try:
            indices, found = _zereduce.segment_arg(values, bounds, 0, op, -1 if device is None else int(device),
                                                   end_bounds)
        except _zereduce.InvalidArgumentError as error:
            raise InvalidArgumentError(str(error)) from None
        return (indices, found) if return_value else indices
    if ends is not None:
        segments = bounds.size
    elif bounds.size == 0:
        raise InvalidArgumentError("segment offsets: give segments + 1 of them (none were given)")
    else:
        segments = bounds.size - 1
    start = None
    if initial is not None:
        start = _np.broadcast_to(_np.asarray(initial, dtype=values.dtype), (segments,)).copy()
    try:
        job = _zereduce.submit_segments(values, bounds, 0, _OPS.get(op, op), start, bool(deterministic),
                                        -1 if device is None else int(device), end_bounds, bool(reproducible))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return _segments(job)


def reduceat(x, indices, op="sum", *, device=None):
    """NumPy's ``ufunc.reduceat`` over a 1-D ``x``: result ``i`` reduces ``x[indices[i]:indices[i + 1]]`` (to the
    end for the last), or is ``x[indices[i]]`` where ``indices[i] >= indices[i + 1]``. Indices must lie in
    ``[0, len(x))`` (IndexError otherwise, as NumPy says)."""
    if device is None and type(x) is _np.ndarray and type(indices) is _np.ndarray:
        # The usual small call (increasing int64 indices, the default device's host path), at once in C++.
        found = _zereduce.reduceat_now(x, indices, _OPS.get(op, op))
        if found is not None:
            return found
    values = _host_array(x) if not isinstance(x, DeviceArray) else x
    if len(values.shape) != 1:
        raise InvalidArgumentError(f"reduceat takes a 1-D array, not a {len(values.shape)}-D one")
    n = values.shape[0]
    idx = _np.asarray(indices).reshape(-1)
    if idx.dtype.kind not in "iu":
        raise InvalidArgumentError(f"reduceat indices must be integers, not {idx.dtype}")
    idx = idx.astype(_np.int64, copy=False)
    if idx.size == 0:
        return _np.empty(0, dtype=values.dtype)
    # Non-decreasing indices (the usual case) need no pass for their range, and make the segments one offsets array.
    increasing = bool(_np.all(idx[1:] > idx[:-1]))
    nondecreasing = increasing or bool(_np.all(idx[1:] >= idx[:-1]))
    low, high = (idx[0], idx[-1]) if nondecreasing else (idx.min(), idx.max())
    if low < 0 or high >= n:
        bad = int(idx[(idx < 0) | (idx >= n)][0])
        raise IndexError(f"index {bad} out-of-bounds in reduceat: the array has {n} elements")
    if nondecreasing:
        result = segment_reduce(values, _np.append(idx, n), op, device=device).astype(values.dtype, copy=False)
        if not increasing:  # where idx[i] == idx[i + 1], NumPy gives x[idx[i]]
            repeated = _np.flatnonzero(idx[1:] == idx[:-1])
            host = values.to_numpy() if isinstance(values, DeviceArray) else values
            result[repeated] = host[idx[repeated]]
        return result
    host = values.to_numpy() if isinstance(values, DeviceArray) else values
    ends = _np.append(idx[1:], n)
    proper = idx < ends
    result = host[idx].copy()
    # Decreasing indices: overlapping segments, as begin and end arrays (the improper ones empty).
    reduced = segment_reduce(values, idx, op, ends=_np.maximum(ends, idx), device=device)
    result[proper] = reduced[proper]
    return result


def _is_column_axis(x, axis):
    """axis=0 of a 2-D array: the library's array reduction (one result per column)."""
    return isinstance(axis, (int, _np.integer)) and int(axis) == 0 and len(_np.shape(x) if not isinstance(x, DeviceArray)
                                                                            else x.shape) == 2


def _axes_of(axis, ndim):
    """``axis`` (an int or a tuple of ints, negative ones counted from the end) as sorted unique axes. As NumPy, a 0-d
    array takes an int axis of 0 or -1 as no axis (a tuple must be empty)."""
    if ndim == 0 and isinstance(axis, (int, _np.integer)) and int(axis) in (0, -1):
        return ()
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    normalized = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise _np.exceptions.AxisError(a, ndim) if hasattr(_np, "exceptions") else IndexError(
                f"axis {a} is out of bounds for array of dimension {ndim}")
        normalized.append(a % ndim)
    if len(set(normalized)) != len(normalized):
        raise ValueError("duplicate value in 'axis'")
    return tuple(sorted(normalized))


def _axes_as_rows(x, axis):
    """A C-contiguous N-D ``x`` seen as rows over ``axis``: trailing axes as they are, others moved to the end first
    (a copy). Returns (flat values, their rows' offsets or None, columns, rows, the result's shape, axes, shape):
    the offsets are given only when every row is empty (rows of 0 columns need a row count)."""
    if (type(x) is _np.ndarray and type(axis) is int and x.ndim >= 1 and axis in (-1, x.ndim - 1) and x.shape[-1] > 0
            and x.flags.c_contiguous and x.flags.aligned and x.dtype.isnative):
        # The usual call, x.sum(axis=-1) of an array read in place: what the general code below would find.
        _check_dtype(x.dtype)
        shape = x.shape
        return x.reshape(-1), None, shape[-1], x.size // shape[-1], shape[:-1], (len(shape) - 1,), shape
    values = x if isinstance(x, DeviceArray) else _host_array(x)
    shape = tuple(values.shape)
    axes = _axes_of(axis, len(shape))
    kept = tuple(a for a in range(len(shape)) if a not in axes)
    out_shape = tuple(shape[a] for a in kept)
    trailing = axes == tuple(range(len(shape) - len(axes), len(shape)))
    if not trailing:
        host = values.to_numpy() if isinstance(values, DeviceArray) else values
        values = _np.ascontiguousarray(_np.transpose(host, kept + axes))
    columns = 1
    for a in axes:
        columns *= shape[a]
    rows = 1
    for extent in out_shape:
        rows *= extent
    flat = values if isinstance(values, DeviceArray) else values.reshape(-1)
    offsets = None
    if columns == 0:  # every row empty: reduce_rows needs n = rows x columns = 0 and a row count
        flat = flat[:0]
        offsets = _np.zeros(rows + 1, dtype=_np.int64)
    return flat, offsets, columns, rows, out_shape, axes, shape


def _shaped(result, out_shape, axes, shape, keepdims):
    """Per-row results in the shape NumPy gives a reduction over ``axes`` (``keepdims``: the axes kept as 1)."""
    result = result.reshape(out_shape)
    if keepdims:
        return result.reshape(tuple(1 if a in axes else shape[a] for a in range(len(shape))))
    return result[()] if result.ndim == 0 else result  # every axis reduced: a scalar, as NumPy gives


def _reduce_axes(x, op, axis, keepdims, initial, deterministic, device, reproducible=False):
    """The reduction of a C-contiguous N-D ``x`` over ``axis``, as rows (queue::reduce_rows)."""
    flat, offsets, columns, rows, out_shape, axes, shape = _axes_as_rows(x, axis)
    op_name = _OPS.get(op, op)
    if columns == 0 and rows > 0 and op_name in ("minimum", "maximum"):
        raise ValueError(f"zero-size array to reduction operation {op_name} which has no identity")
    start = None
    if initial is not None:
        start = _np.broadcast_to(_np.asarray(initial, dtype=flat.dtype), (rows,)).copy()
    try:
        job = _zereduce.submit_segments(flat, offsets, columns, op_name, start, bool(deterministic),
                                        -1 if device is None else int(device), None, bool(reproducible))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return _shaped(_segments(job), out_shape, axes, shape, keepdims)


def _transform_axes(x, op, value, axis, keepdims, device):
    """A transform per row of ``x`` over ``axis`` (queue::reduce_rows with a transform): an array of results, or
    for means and variances (count, mean, m2) arrays, each in the reduction's shape."""
    flat, offsets, columns, _, out_shape, axes, shape = _axes_as_rows(x, axis)
    counted = None if value is None else _np.asarray(value, dtype=flat.dtype).reshape(())
    try:
        found = _zereduce.segment_transform(flat, offsets, columns, op, counted, -1 if device is None else int(device))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    if isinstance(found, tuple):
        return tuple(_shaped(part, out_shape, axes, shape, keepdims) for part in found)
    return _shaped(found, out_shape, axes, shape, keepdims)


def _reduce_now(x, op_index, kwargs):
    """The fast path of sum, prod, min, max, all and any, without keyword arguments or with an int ``axis`` alone (the
    last axis, or axis 0 of a 2-D array): a plain NumPy array the library reads as it is and the default device
    reduces on the calling thread (a CPU device's host path), reduced at once by the extension with its checks in
    C++; None when the call needs the general path (other arguments, conversion, an empty input, a dtype it refuses,
    a device to wait for)."""
    if type(x) is not _np.ndarray:
        return None
    axis = None
    if kwargs:
        axis = kwargs.get("axis")
        if len(kwargs) != 1 or type(axis) is not int:
            return None
    try:
        return _zereduce.reduce_now(x, op_index, axis)
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None


def sum(x, **kwargs):  # noqa: A001 (NumPy's name)
    """``reduce(x, "plus", ...)``."""
    result = _reduce_now(x, 0, kwargs)
    return reduce(x, "plus", **kwargs) if result is None else result


def prod(x, **kwargs):
    """``reduce(x, "multiplies", ...)``."""
    result = _reduce_now(x, 1, kwargs)
    return reduce(x, "multiplies", **kwargs) if result is None else result


def min(x, **kwargs):  # noqa: A001
    """``reduce(x, "minimum", ...)``; NaN handling is the library's (docs/api.md)."""
    result = _reduce_now(x, 2, kwargs)
    return reduce(x, "minimum", **kwargs) if result is None else result


def max(x, **kwargs):  # noqa: A001
    """``reduce(x, "maximum", ...)``."""
    result = _reduce_now(x, 3, kwargs)
    return reduce(x, "maximum", **kwargs) if result is None else result


def all(x, **kwargs):  # noqa: A001
    """Whether every element is true (bool arrays)."""
    result = _reduce_now(x, 7, kwargs)
    return reduce(x, "logical_and", **kwargs) if result is None else result


def any(x, **kwargs):  # noqa: A001
    """Whether some element is true (bool arrays)."""
    result = _reduce_now(x, 8, kwargs)
    return reduce(x, "logical_or", **kwargs) if result is None else result


def _arg(x, op, strategy, device):
    values = _flat_values(x)
    if values.size == 0:
        raise ValueError(f"attempt to get {op} of an empty sequence")
    try:
        index, value = _zereduce.arg_reduce(values, op, strategy, -1 if device is None else int(device))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return index, value[()]


def _arg_axis(x, op, axis, keepdims, device, return_value):
    """argmin/argmax along one axis of a C-contiguous N-D ``x`` (numpy.argmax(x, axis)): the axis as rows of a
    segmented arg-reduction (queue::reduce_rows), moved to the end first (a copy) when it is not last."""
    values = x if isinstance(x, DeviceArray) else _host_array(x)
    shape = tuple(values.shape)
    if not isinstance(axis, (int, _np.integer)):
        raise TypeError(f"{op}'s axis is one integer, not {type(axis).__name__}")
    (a,) = _axes_of(axis, len(shape)) or (None,)
    if a is None:  # a 0-d array, axis 0 or -1: no axis, as NumPy takes it
        index, value = _arg(x, op, None, device)
        return (index, value) if return_value else index
    if shape[a] == 0:
        raise ValueError(f"attempt to get {op} of an empty sequence")
    kept = tuple(k for k in range(len(shape)) if k != a)
    if a != len(shape) - 1:
        host = values.to_numpy() if isinstance(values, DeviceArray) else values
        values = _np.ascontiguousarray(_np.transpose(host, kept + (a,)))
    flat = values if isinstance(values, DeviceArray) else values.reshape(-1)
    try:
        indices, found = _zereduce.segment_arg(flat, None, shape[a], op, -1 if device is None else int(device))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    out_shape = tuple(shape[k] for k in kept)
    if keepdims:
        out_shape = tuple(1 if k == a else shape[k] for k in range(len(shape)))
    indices, found = indices.reshape(out_shape), found.reshape(out_shape)
    if not out_shape:  # a 1-D array's one axis: scalars, as NumPy gives
        indices, found = indices[()], found[()]
    return (indices, found) if return_value else indices


def _arg_now(x, maximum):
    """The fast path of argmax and argmin without an axis, strategy or device: a plain NumPy array that the default
    device reduces on the calling thread (see ``_reduce_now``), found at once by the extension as ``(index, value)``
    (the value a NumPy scalar); None when the call needs the general path."""
    if type(x) is not _np.ndarray:
        return None
    return _zereduce.arg_now(x, maximum)


def argmax(x, axis=None, *, strategy=None, device=None, return_value=False, keepdims=False):
    """The index (into the flattened ``x``) of the first largest element, as ``numpy.argmax``: ties give the
    first index and the first NaN wins. With ``return_value=True``: ``(index, value)`` from the same pass. With an
    ``axis`` (one int), the index along that axis for each of the others, as ``numpy.argmax(x, axis, keepdims=)``."""
    if axis is None and strategy is None and device is None:
        found = _arg_now(x, True)
        if found is not None:
            return found if return_value else found[0]
    if axis is not None:
        if strategy is not None:
            raise UnsupportedError("argmax along an axis runs as segments, which choose their own plan: no strategy")
        return _arg_axis(x, "argmax", axis, keepdims, device, return_value)
    index, value = _arg(x, "argmax", strategy, device)
    return (index, value) if return_value else index


def argmin(x, axis=None, *, strategy=None, device=None, return_value=False, keepdims=False):
    """The index of the first smallest element, as ``numpy.argmin`` (the first NaN wins); see ``argmax``."""
    if axis is None and strategy is None and device is None:
        found = _arg_now(x, False)
        if found is not None:
            return found if return_value else found[0]
    if axis is not None:
        if strategy is not None:
            raise UnsupportedError("argmin along an axis runs as segments, which choose their own plan: no strategy")
        return _arg_axis(x, "argmin", axis, keepdims, device, return_value)
    index, value = _arg(x, "argmin", strategy, device)
    return (index, value) if return_value else index


# ---- transform-reductions (zereduce/transform.hpp): one read of the input, no temporary array --------------
def _transform(x, op, value, strategy, device, axis=None, keepdims=False):
    if axis is not None:
        if strategy is not None:
            raise UnsupportedError(f"{op} along an axis runs as segments, which choose their own plan: no strategy")
        return _transform_axes(x, op, value, axis, keepdims, device)
    values = _flat_values(x)
    counted = None if value is None else _np.asarray(value, dtype=values.dtype).reshape(())
    try:
        result = _zereduce.transform_reduce(values, op, counted, strategy, -1 if device is None else int(device))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return result[()]


def norm(x, ord=2, *, axis=None, keepdims=False, strategy=None, device=None):  # noqa: A002 (NumPy's name)
    """The vector norm of the flattened ``x`` as ``numpy.linalg.norm(x.ravel(), ord)`` for ord 2 (the default)
    or 1, of float16/float32/float64 data, in the data's precision (float32 sums for float16, one rounding at
    the end). It overflows to inf where the sum of squares does (no rescaling). With ``axis`` (an int or a tuple),
    the norm over those axes for each of the others, as ``numpy.linalg.norm(x, ord, axis=, keepdims=)`` gives
    vector norms (a tuple of axes is taken as one flattened vector, not a matrix norm)."""
    if ord not in (1, 2):
        raise ValueError(f"ord={ord!r}: zereduce.norm computes the L2 (ord=2) and L1 (ord=1) norms")
    return _transform(x, "norm_l2" if ord == 2 else "norm_l1", None, strategy, device, axis, keepdims)


def sum_of_squares(x, *, axis=None, keepdims=False, strategy=None, device=None):
    """The sum of x*x over the flattened ``x`` (float16/float32/float64), or over ``axis``."""
    return _transform(x, "sum_squares", None, strategy, device, axis, keepdims)


def count_nonzero(x, *, axis=None, keepdims=False, strategy=None, device=None):
    """How many elements are nonzero, as ``numpy.count_nonzero`` (a NaN counts, -0.0 does not): an int, or with
    ``axis`` an int64 array of counts over those axes."""
    if axis is not None:
        return _transform(x, "count_nonzero", None, strategy, device, axis, keepdims).astype(_np.int64)
    return int(_transform(x, "count_nonzero", None, strategy, device))


def count_equal(x, value, *, axis=None, keepdims=False, strategy=None, device=None):
    """How many elements equal ``value`` (converted to x's dtype), as ``numpy.count_nonzero(x == value)``; with
    ``axis``, an int64 array of counts over those axes."""
    if axis is not None:
        return _transform(x, "count_equal", value, strategy, device, axis, keepdims).astype(_np.int64)
    return int(_transform(x, "count_equal", value, strategy, device))


def sum_as(x, dtype, *, axis=None, keepdims=False, strategy=None, device=None):
    """The sum of ``x`` accumulated in ``dtype``, as ``numpy.sum(x, dtype=dtype)`` without the temporary:
    int64/uint64 for integer and bool data (wrapping modulo 2**64), float32 for float16, float64 for float16
    and float32 (the device needs fp64); with ``axis``, over those axes."""
    names = {_np.dtype(_np.int64): "sum_i64", _np.dtype(_np.uint64): "sum_u64", _np.dtype(_np.float32): "sum_f32",
             _np.dtype(_np.float64): "sum_f64"}
    op = names.get(_np.dtype(dtype))
    if op is None:
        raise ValueError(f"dtype={dtype!r}: zereduce.sum_as accumulates in int64, uint64, float32 or float64")
    return _transform(x, op, None, strategy, device, axis, keepdims)


# ---- mean and variance (zr::mean_variance): one read, pairwise {count, mean, m2} merges ---------------------
def _moments(x, dtype, strategy, device, axis=None, keepdims=False):
    """(count, mean, m2) of the flattened ``x``, or with ``axis`` arrays of them over those axes."""
    accumulator = _np.dtype(_np.float64 if dtype is None else dtype)
    if accumulator not in (_np.dtype(_np.float32), _np.dtype(_np.float64)):
        raise ValueError(f"dtype={dtype!r}: zereduce accumulates means and variances in float32 or float64")
    if axis is not None:
        if strategy is not None:
            raise UnsupportedError("means and variances along an axis run as segments, which choose their own plan: "
                                   "no strategy")
        op = "mean_var_f64" if accumulator == _np.dtype(_np.float64) else "mean_var_f32"
        return _transform_axes(x, op, None, axis, keepdims, device)
    values = _flat_values(x)
    try:
        count, mean_value, m2 = _zereduce.moments(values, accumulator.name, strategy, -1 if device is None else int(device))
    except _zereduce.InvalidArgumentError as error:
        raise InvalidArgumentError(str(error)) from None
    return count, accumulator.type(mean_value), accumulator.type(m2)


def mean(x, *, axis=None, keepdims=False, dtype=None, strategy=None, device=None):
    """The mean of the flattened ``x`` (integer or floating dtypes), accumulated in ``dtype`` (float64 by
    default, or float32), as ``numpy.mean(x, dtype=...)``; NaN for an empty array or any NaN or infinity. With
    ``axis`` (an int or a tuple), the means over those axes, as ``numpy.mean(x, axis=, keepdims=)``."""
    count, mean_value, _ = _moments(x, dtype, strategy, device, axis, keepdims)
    if axis is not None:
        return _np.where(count > 0, mean_value, _np.nan).astype(mean_value.dtype)[()]
    return mean_value if count else type(mean_value)(_np.nan)


def var(x, *, axis=None, keepdims=False, ddof=0, dtype=None, strategy=None, device=None):
    """The variance of the flattened ``x`` as ``numpy.var(x, ddof=ddof, dtype=...)``: the sum of squared
    deviations over count - ddof, from one read with pairwise mean/m2 merges (stable for data far from zero).
    With ``axis``, the variances over those axes."""
    count, _, m2 = _moments(x, dtype, strategy, device, axis, keepdims)
    if axis is not None:
        with _np.errstate(divide="ignore", invalid="ignore"):
            found = m2 / (count.astype(m2.dtype) - m2.dtype.type(ddof))
        return _np.where(count > ddof, found, _np.nan).astype(m2.dtype)[()]
    return m2 / type(m2)(count - ddof) if count > ddof else type(m2)(_np.nan)


def std(x, *, axis=None, keepdims=False, ddof=0, dtype=None, strategy=None, device=None):
    """The standard deviation, ``sqrt(var(x, axis=axis, keepdims=keepdims, ddof=ddof, dtype=dtype))``."""
    return _np.sqrt(var(x, axis=axis, keepdims=keepdims, ddof=ddof, dtype=dtype, strategy=strategy, device=device))
