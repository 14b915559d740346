// Global-to-shared copies that bypass registers (cp.async, sm_80 and later), for kernels that
// stream rows through a ring of shared memory: issue a row's copies, commit them as one group,
// and wait for the group before reading the row. Device code: include from .cu files only.
#pragma once

namespace mad::kernels {

// 16 bytes, cached in L2 only (streamed input read once). Both addresses 16-byte aligned.
__device__ __forceinline__ void copy_16_async(unsigned smem, const void* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(global) : "memory");
}

// 4 bytes, cached in L1 too (a row other lanes or later rows read again). Both addresses
// 4-byte aligned.
__device__ __forceinline__ void copy_4_async(unsigned smem, const void* global) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem), "l"(global) : "memory");
}

// Closes this thread's copies issued since the last commit into one group.
__device__ __forceinline__ void commit_async_copies() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

}  // namespace mad::kernels
