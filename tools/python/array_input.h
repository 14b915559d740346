// Python objects -> the library's inputs: numpy arrays become GrayImage through common/'s
// conversion (never a second implementation of it), device-array descriptions become
// DeviceImage. Both throw mad::InputError (ValueError in Python) with the CLI's wording.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "common/image_io.h"
#include "mad/device_image.h"

namespace mad::python {

// An HxW or HxWxC (C = 1..4) array of uint8, uint16, float32 or float64, any strides (negative
// ones included). uint8 and uint16 follow the 8- and 16-bit file rules; floats are values on
// the 0..255 scale (colour: rgb2gray's unrounded weighted sum). `what` names it in errors.
GrayImage gray_from_array(const pybind11::array& array, const std::string& what);

// A device array described as a dict (built by mad/_inputs.py from __cuda_array_interface__ or
// DLPack): data (int pointer), typestr ("|u1", "<u2", "<f4", "<f8"), shape (H, W[, C]),
// strides (bytes, or None for C-contiguous), device (int, or None: found from the pointer),
// stream (int cudaStream_t).
DeviceImage device_image_from_dict(const pybind11::dict& d, const std::string& what);

}  // namespace mad::python
