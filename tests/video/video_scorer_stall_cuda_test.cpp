// The stalled pipe of video_scorer_stall_test.cpp on the GPU, where several frame pairs are in
// flight: the rows of the frames before a stall stay in the scorer until it finishes them, so a
// failure among them (here the frame log's, on the last frame the pipe delivered) is found only
// because the scoring drains its pairs once the reader has been quiet for a while
// (mad/video/video_scorer.cpp, kIdleBeforeDrain); the reader is then cancelled.
#include <gtest/gtest.h>

#include "tests/support/test_support.h"
#include "tests/video/stalled_pipe.h"

namespace mad {
namespace {

TEST(VideoScorerStallCuda, AFailureInTheLastFrameBeforeAStallEndsTheRun) {
  MAD_REQUIRE_GPU();
  test::expect_a_prompt_failure(Backend::Cuda, 2);
}

TEST(VideoScorerStallCuda, AFailureInAnEarlierFrameEndsTheRun) {
  MAD_REQUIRE_GPU();
  test::expect_a_prompt_failure(Backend::Cuda, 0);
}

}  // namespace
}  // namespace mad
