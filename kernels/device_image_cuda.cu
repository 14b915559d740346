#include "kernels/device_image_cuda.h"

#include <string>

#include "common/error.h"

namespace mad::kernels {

DeviceImage8 make_device_image8(int width, int height, std::ptrdiff_t pitch) {
  if (width <= 0 || height <= 0 || pitch < width)
    throw InvalidArgument("device image: bad shape " + std::to_string(width) + "x" +
                          std::to_string(height) + " pitch " + std::to_string(pitch));
  DeviceImage8 img;
  img.buffer =
      cuda::DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(pitch) * (height - 1) + width);
  img.view = ImageView<std::uint8_t>(img.buffer.get(), width, height, pitch);
  return img;
}

DeviceImage8 upload_image8(ImageView<const std::uint8_t> host, cudaStream_t stream) {
  DeviceImage8 img = make_device_image8(host.width, host.height, host.pitch);
  MAD_CUDA_CHECK(cudaMemcpy2DAsync(img.view.data, img.view.pitch, host.data, host.pitch, host.width,
                                   host.height, cudaMemcpyHostToDevice, stream));
  return img;
}

void fill_image8(ImageView<std::uint8_t> device, std::uint8_t value, cudaStream_t stream) {
  MAD_CUDA_CHECK(
      cudaMemset2DAsync(device.data, device.pitch, value, device.width, device.height, stream));
}

void download_image8(ImageView<const std::uint8_t> device, ImageView<std::uint8_t> host,
                     cudaStream_t stream) {
  if (device.width != host.width || device.height != host.height)
    throw InvalidArgument("download: host and device sizes differ");
  MAD_CUDA_CHECK(cudaMemcpy2DAsync(host.data, host.pitch, device.data, device.pitch, device.width,
                                   device.height, cudaMemcpyDeviceToHost, stream));
}

OwnedScratch make_scratch(std::size_t bytes) {
  return OwnedScratch{cuda::DeviceBuffer<unsigned char>(bytes)};
}

int device_sm_count() {
  int device = 0, count = 0;
  MAD_CUDA_CHECK(cudaGetDevice(&device));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

void require_device(const char* kernel) {
  if (!cuda::device_available())
    throw GpuError(std::string(kernel) + ": no CUDA device is available (use --backend cpu)");
}

void* ScratchCarver::take(std::size_t bytes) {
  const std::size_t need = padded(bytes);
  if (scratch_.data == nullptr || used_ + need > scratch_.bytes)
    throw InvalidArgument(std::string(kernel_) + ": device scratch too small (" +
                          std::to_string(scratch_.bytes) + " bytes, need at least " +
                          std::to_string(used_ + need) + ")");
  void* p = static_cast<unsigned char*>(scratch_.data) + used_;
  used_ += need;
  return p;
}

}  // namespace mad::kernels
