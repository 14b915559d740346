// Scratch that GPU stage objects may borrow instead of owning (the CUB habit of caller-owned
// temporary storage). A MAD pair runs the detection and the appearance stage one after the
// other on one stream, so the memory each needs only during a call (its transient planes and
// its cuFFT work area) can be one region of the pair slot, lent to both (mad/backends/pair_slot_cuda.h).
// What a stage keeps between calls (the reference side, spec §11) always stays its own.
//
// No CUDA syntax: CPU-only code and tools may include this header.
#pragma once

#include <cstddef>

namespace mad {

// Own: the stage allocates its transient scratch and cuFFT work area itself and may run at
// once. Lent: it allocates neither; its owner lends them (lend_scratch) before the first call.
enum class ScratchMode { Own, Lent };

// Places several arrays in one region, each at a multiple of kAlignment bytes (what cudaMalloc
// guarantees, so every array is aligned as if it had its own allocation).
class ScratchLayout {
 public:
  static constexpr std::size_t kAlignment = 256;

  // Reserves `count` elements of T; returns the array's byte offset in the region.
  template <class T>
  std::size_t add(std::size_t count) {
    const std::size_t at = aligned(bytes_);
    bytes_ = at + count * sizeof(T);
    return at;
  }
  // Bytes of the region, rounded up to the alignment.
  std::size_t bytes() const { return aligned(bytes_); }

  // The array at byte `offset` of the region starting at `base`.
  template <class T>
  static T* at(void* base, std::size_t offset) {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(base) + offset);
  }

 private:
  static std::size_t aligned(std::size_t n) {
    return (n + kAlignment - 1) / kAlignment * kAlignment;
  }
  std::size_t bytes_ = 0;
};

}  // namespace mad
