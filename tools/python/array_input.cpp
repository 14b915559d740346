#include "array_input.h"

#include <pybind11/stl.h>  // casts of shape/strides tuples to std::vector

#include <climits>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "mad/devices.h"

namespace py = pybind11;

namespace mad::python {
namespace {

struct Shape {
  int height = 0, width = 0, channels = 1;
};

int checked_dim(py::ssize_t n, const std::string& what) {
  if (n > INT_MAX) throw InputError(what + ": dimension " + std::to_string(n) + " is too large");
  return static_cast<int>(n);
}

Shape shape_of(py::ssize_t ndim, const py::ssize_t* shape, const std::string& what) {
  if (ndim != 2 && ndim != 3)
    throw InputError(what + ": expected an HxW, HxWx3 or HxWx4 array (got " + std::to_string(ndim) +
                     " dimensions)");
  Shape s;
  s.height = checked_dim(shape[0], what);
  s.width = checked_dim(shape[1], what);
  s.channels = ndim == 3 ? checked_dim(shape[2], what) : 1;
  return s;
}

// Samples in row-major interleaved order, following the array's byte strides.
template <class T, class Out = T>
std::vector<Out> gather(const py::array& a, const Shape& s) {
  const auto* base = static_cast<const char*>(a.data());
  const py::ssize_t sy = a.strides(0), sx = a.strides(1), sc = a.ndim() == 3 ? a.strides(2) : 0;
  std::vector<Out> out(static_cast<std::size_t>(s.width) * s.height * s.channels);
  std::size_t i = 0;
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x)
      for (int c = 0; c < s.channels; ++c)
        out[i++] = static_cast<Out>(*reinterpret_cast<const T*>(base + y * sy + x * sx + c * sc));
  return out;
}

[[noreturn]] void unsupported_dtype(const std::string& what, const std::string& dtype) {
  throw InputError(what + ": unsupported dtype " + dtype +
                   " (expected uint8, uint16, float32 or float64)");
}

}  // namespace

GrayImage gray_from_array(const py::array& a, const std::string& what) {
  const Shape s = shape_of(a.ndim(), a.shape(), what);
  const py::dtype dt = a.dtype();
  const char kind = dt.kind();
  const auto size = dt.itemsize();
  const std::string name = py::str(static_cast<const py::handle&>(dt)).cast<std::string>();
  if (!dt.attr("isnative").cast<bool>())
    throw InputError(what + ": dtype " + name + " is not in native byte order");
  if (s.width <= 0 || s.height <= 0 || s.channels <= 0)
    throw InputError(what + ": empty image (" + std::to_string(s.width) + " x " +
                     std::to_string(s.height) + " pixels)");
  if (kind == 'u' && size == 1)
    return gray_from_samples(s.width, s.height, s.channels, gather<std::uint8_t>(a, s), what);
  if (kind == 'u' && size == 2)
    return gray_from_samples(s.width, s.height, s.channels, gather<std::uint16_t>(a, s), what);
  if (kind == 'f' && size == 4)
    return gray_from_real_samples(s.width, s.height, s.channels, gather<float, double>(a, s), 32,
                                  what);
  if (kind == 'f' && size == 8)
    return gray_from_real_samples(s.width, s.height, s.channels, gather<double>(a, s), 64, what);
  unsupported_dtype(what, name);
}

DeviceImage device_image_from_dict(const py::dict& d, const std::string& what) {
  DeviceImage img;
  const auto typestr = d["typestr"].cast<std::string>();
  const std::string code = typestr.size() > 1 ? typestr.substr(1) : typestr;
  std::ptrdiff_t itemsize = 0;
  if (code == "u1")
    img.dtype = DeviceDtype::U8, itemsize = 1;
  else if (code == "u2")
    img.dtype = DeviceDtype::U16, itemsize = 2;
  else if (code == "f4")
    img.dtype = DeviceDtype::F32, itemsize = 4;
  else if (code == "f8")
    img.dtype = DeviceDtype::F64, itemsize = 8;
  else
    unsupported_dtype(what, typestr);
  if (typestr[0] == '>') throw InputError(what + ": big-endian device arrays are not supported");

  const auto shape = d["shape"].cast<std::vector<py::ssize_t>>();
  const Shape s = shape_of(static_cast<py::ssize_t>(shape.size()), shape.data(), what);
  img.height = s.height, img.width = s.width, img.channels = s.channels;
  // Element strides; C-contiguous when none are given.
  std::vector<std::ptrdiff_t> strides(shape.size());
  if (d["strides"].is_none()) {
    std::ptrdiff_t step = 1;
    for (std::size_t k = shape.size(); k-- > 0;) strides[k] = step, step *= shape[k];
  } else {
    const auto bytes = d["strides"].cast<std::vector<std::ptrdiff_t>>();
    if (bytes.size() != shape.size()) throw InputError(what + ": strides do not match the shape");
    for (std::size_t k = 0; k < bytes.size(); ++k) {
      if (bytes[k] % itemsize != 0)
        throw InputError(what + ": strides are not multiples of the element size");
      strides[k] = bytes[k] / itemsize;
    }
  }
  img.row_stride = strides[0], img.col_stride = strides[1];
  img.channel_stride = shape.size() == 3 ? strides[2] : 1;
  img.data = reinterpret_cast<const void*>(d["data"].cast<std::uintptr_t>());
  img.stream = d["stream"].cast<std::uintptr_t>();
  img.device = d["device"].is_none() ? gpu_of_pointer(img.data) : d["device"].cast<int>();
  validate_device_image(img, what);
  return img;
}

}  // namespace mad::python
