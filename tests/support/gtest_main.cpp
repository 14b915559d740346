// Test entry point. With the CUDA backend a listener fails any test that leaves a CUDA error
// pending (STYLE.md rule 12), so a faulty kernel cannot hide behind a passing comparison.
#include <gtest/gtest.h>

#include "common/gpu_info.h"

namespace {
class PendingCudaErrorListener : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const std::string pending = mad::take_pending_gpu_error();
    if (!pending.empty())
      ADD_FAILURE() << "test " << info.name() << " left a CUDA error pending: " << pending;
  }
};
}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new PendingCudaErrorListener);
  return RUN_ALL_TESTS();
}
