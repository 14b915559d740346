"""User inputs -> what the C++ scorer takes: a path (str), a numpy array, or a dict describing
a CUDA device array (from ``__cuda_array_interface__`` or DLPack), never copied to the host."""

import ctypes
import os

import numpy as np

_KDL_CPU, _KDL_CUDA = 1, 2
_DL_UINT, _DL_FLOAT = 1, 2


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


def _from_dlpack(obj, keep):
    # stream=1: we order our work after the legacy default stream, so the producer syncs to it.
    capsule = obj.__dlpack__(stream=1)
    keep.append(capsule)  # its destructor frees the tensor after scoring
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    if t.dtype.lanes != 1 or t.dtype.code not in (_DL_UINT, _DL_FLOAT):
        raise ValueError("GPU array: unsupported DLPack dtype (expected uint8, uint16, float32 or float64)")
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


def to_input(obj, keep):
    """One image as the C++ scorer takes it. ``keep`` collects objects that must outlive the
    scoring call (DLPack capsules)."""
    if isinstance(obj, (str, os.PathLike)):
        return os.fspath(obj)
    if isinstance(obj, np.ndarray):
        return obj
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cai(obj)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        device_type, _ = obj.__dlpack_device__()
        if device_type == _KDL_CUDA:
            return _from_dlpack(obj, keep)
        if device_type == _KDL_CPU and hasattr(np, "from_dlpack"):
            return np.from_dlpack(obj)
    array = np.asarray(obj)
    # Not array-like at all: the C++ side names the type it got.
    return obj if array.dtype.kind == "O" else array


def is_gpu(obj):
    if hasattr(obj, "__cuda_array_interface__"):
        return True
    if hasattr(obj, "__dlpack_device__") and not isinstance(obj, np.ndarray):
        return obj.__dlpack_device__()[0] == _KDL_CUDA
    return False
