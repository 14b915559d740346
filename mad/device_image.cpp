#include "mad/device_image.h"

#include "common/error.h"

namespace mad {
int DeviceImage::bit_depth() const {
  switch (dtype) {
    case DeviceDtype::U8: return 8;
    case DeviceDtype::U16: return 16;
    case DeviceDtype::F32: return 32;
    case DeviceDtype::F64: return 64;
  }
  return 64;
}

void validate_device_image(const DeviceImage& image, const std::string& what) {
  if (!image.data || image.width <= 0 || image.height <= 0)
    throw InputError(what + ": empty image (" + std::to_string(image.width) + " x " +
                     std::to_string(image.height) + " pixels)");
  if (image.channels != 1 && image.channels != 3 && image.channels != 4)
    throw InputError(what + ": unsupported channel count " + std::to_string(image.channels) +
                     " (expected 1, 3 or 4)");
  if (image.channels != 1 && image.dtype != DeviceDtype::U8)
    throw InputError(what +
                     ": colour GPU input must be uint8 (the GPU's rgb2gray is proved "
                     "bit-identical to the CPU's for 8-bit samples only); convert it to "
                     "gray or to uint8, or pass a host array");
}

}  // namespace mad
