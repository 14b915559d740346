"""User inputs -> what the C++ scorer takes: a path (str), a numpy array (a PIL image becomes
one by mad._pil's rules), or a dict describing a CUDA device array (from
``__cuda_array_interface__`` or DLPack), never copied to the host.
Scales images given on another range than MAD's 0..255 (data_range)."""

import ctypes
import math
import numbers
import os

import numpy as np

from ._mad import InputError, InvalidArgument
from ._pil import is_pil_image, pil_array

_KDL_CPU, _KDL_CUDA = 1, 2
_DL_UINT, _DL_FLOAT = 1, 2

_ADVICE = ("%s: a float image whose maximum is %g (at most 1): MAD reads float images on its "
           "0..255 scale, so it would score as almost black (near 0 for any distortion). Pass "
           "data_range=1 if the values are in [0, 1], or data_range=255 to score them as they are")


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    # The first member of DLManagedTensor (DLPack's C ABI, unversioned "dltensor" capsule).
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def check_data_range(data_range):
    """None, or a positive finite number (the value that means white)."""
    if data_range is None:
        return None
    number = isinstance(data_range, numbers.Real) and not isinstance(data_range, bool)
    value = float(data_range) if number else math.nan
    if not (math.isfinite(value) and value > 0):
        raise InvalidArgument("data_range must be a positive number, the value of white "
                              "(got %r)" % (data_range,))
    return value


def _torch_stream(obj):
    """The current stream of a torch CUDA tensor's device (its CAI carries no stream)."""
    if type(obj).__module__.split(".")[0] != "torch":
        return None
    import torch

    return torch.cuda.current_stream(obj.device).cuda_stream


def _from_cai(obj):
    cai = obj.__cuda_array_interface__
    stream = cai.get("stream")
    if stream is None:
        stream = _torch_stream(obj) or 0
    return {
        "data": cai["data"][0],
        "typestr": cai["typestr"],
        "shape": tuple(cai["shape"]),
        "strides": None if cai.get("strides") is None else tuple(cai["strides"]),
        "device": None,
        "stream": int(stream),
    }


def _from_dlpack(obj, keep, what):
    # stream=1: we order our work after the legacy default stream, so the producer syncs to it.
    capsule = obj.__dlpack__(stream=1)
    keep.append(capsule)  # its destructor frees the tensor once the pair is collected
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    if t.dtype.lanes != 1 or t.dtype.code not in (_DL_UINT, _DL_FLOAT):
        raise InputError("%s: unsupported DLPack dtype (expected uint8, uint16, float32 or "
                         "float64)" % what)
    kind = "u" if t.dtype.code == _DL_UINT else "f"
    itemsize = t.dtype.bits // 8
    shape = tuple(t.shape[k] for k in range(t.ndim))
    strides = None if not t.strides else tuple(t.strides[k] * itemsize for k in range(t.ndim))
    return {
        "data": t.data + t.byte_offset,
        "typestr": "<%s%d" % (kind, itemsize),
        "shape": shape,
        "strides": strides,
        "device": t.device.device_id,
        "stream": 1,
    }


def _describe_gpu(obj, keep, what):
    keep.append(obj)  # the producer owns the memory: alive until the pair is collected
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cai(obj)
    return _from_dlpack(obj, keep, what)


def _gpu_input(obj, keep, data_range, what):
    d = _describe_gpu(obj, keep, what)
    kind, itemsize = d["typestr"][1], int(d["typestr"][2:] or 0)
    if kind == "f" and data_range is None:
        top = getattr(obj, "max", None)
        if top is None:
            raise InvalidArgument("%s: this GPU array has no max() to check its range: pass "
                                  "data_range= (255 for MAD's 0..255 scale, 1 for [0, 1])" % what)
        top = float(top())
        if top <= 1:
            raise InvalidArgument(_ADVICE % (what, top))
    elif kind == "f" and data_range != 255:
        # On the array's device and in its dtype; the product is kept alive with the pair.
        return _describe_gpu(obj * (255.0 / data_range), keep, what)
    elif kind == "u" and data_range is not None and data_range != (1 << 8 * itemsize) - 1:
        raise InvalidArgument("%s: data_range=%g on a GPU integer array: convert it to a float "
                              "array first" % (what, data_range))
    return d


def _host_input(array, data_range, what):
    kind = array.dtype.kind
    if kind == "f":
        if data_range is None:
            if array.size and array.max() <= 1:
                raise InvalidArgument(_ADVICE % (what, array.max()))
            return array
        # In the array's own dtype, so data_range=1 gives exactly the bits of `array * 255`.
        return array if data_range == 255 else array * array.dtype.type(255.0 / data_range)
    if kind == "u" and data_range is not None and array.dtype.itemsize <= 2:
        if data_range != np.iinfo(array.dtype).max:
            return array.astype(np.float64) * (255.0 / data_range)
    return array


def to_input(obj, keep, data_range=None, what="image"):
    """One image as the C++ scorer takes it. ``keep`` collects what must outlive the scoring of
    its pair (GPU arrays' producers, DLPack capsules, scaled copies); ``data_range`` comes from
    check_data_range."""
    if isinstance(obj, (str, os.PathLike)):
        if data_range is not None and data_range != 255:
            raise InvalidArgument("%s: data_range=%g applies to arrays; image files are read by "
                                  "their bit depth (leave data_range out)" % (what, data_range))
        return os.fspath(obj)
    if is_gpu(obj):
        return _gpu_input(obj, keep, data_range, what)
    if isinstance(obj, np.ndarray):
        array = obj
    elif is_pil_image(obj):  # by its mode, as its file would be read; not its raw array
        array = pil_array(obj, what)
    elif hasattr(obj, "__dlpack_device__") and obj.__dlpack_device__()[0] == _KDL_CPU and \
            hasattr(np, "from_dlpack"):
        array = np.from_dlpack(obj)
    else:
        array = np.asarray(obj)
        if array.dtype.kind == "O":  # not array-like at all: the C++ side names the type
            return obj
    return _host_input(array, data_range, what)


def is_gpu(obj):
    if hasattr(obj, "__cuda_array_interface__"):
        return True
    if hasattr(obj, "__dlpack_device__") and not isinstance(obj, np.ndarray):
        return obj.__dlpack_device__()[0] == _KDL_CUDA
    return False
