// The device-resident kernel chain (run_chain_cuda) against the CPU chain, exactly, in both
// transfer modes, over the issue's sizes, 1/3/4-channel input and both smoothing borders.
// Skips without a device.
#include <gtest/gtest.h>

#include "kernels/kernel_chain.h"
#include "kernels/kernel_request.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::kernels {
namespace {

TEST(KernelChainCuda, EqualsTheCpuChainExactly) {
  MAD_REQUIRE_GPU();
  std::uint32_t seed = test::announce_seed("KernelChainCuda.EqualsTheCpuChainExactly", 5201);
  const std::vector<std::string> chains = {"gray,smooth,nick", "gray,nick",       "smooth,nick",
                                           "darken,smooth",    "nick,nick",       "smooth,smooth",
                                           "gray,histogram",   "smooth,histogram"};
  long long runs = 0;
  for (const test::Size s : test::issue_sizes())
    for (int channels : {1, 3, 4}) {
      const RawImage8 image = test::random_raw(s.width, s.height, channels, seed++);
      for (const std::string& name : chains)
        for (SmoothBorder border : {SmoothBorder::Clip, SmoothBorder::Wrap}) {
          const std::vector<KernelKind> chain = parse_kernel_chain(name);
          if ((chain[0] == KernelKind::Gray || chain[0] == KernelKind::Darken) && channels == 1)
            continue;
          // Nick's window must fit the image (w = 3 fits all but 1x1, where w = 2 does not
          // either: nick is left out there).
          if (chain_contains(chain, KernelKind::Nick) && (s.width < 3 || s.height < 3)) continue;
          const KernelRequest r = test::cpu_chain_request(name, {3, -0.1}, border);
          const KernelOutcome cpu = run_kernel(r, image);
          for (ChainTransfers t :
               {ChainTransfers::DeviceResident, ChainTransfers::HostRoundTrips}) {
            const ChainOutput gpu = run_chain_cuda(chain, image, {r.nick, border}, t);
            const std::string what = name + " " + test::size_name(s) + " channels " +
                                     std::to_string(channels) + " border " +
                                     smooth_border_name(border);
            ASSERT_EQ(cpu.histogram.has_value(), gpu.histogram.has_value()) << what;
            if (cpu.histogram) {
              ASSERT_EQ(*cpu.histogram, *gpu.histogram) << what;
            } else {
              ASSERT_EQ(cpu.image.channels, gpu.image.channels) << what;
              ASSERT_TRUE(test::images_equal(test::raw_view(cpu.image), test::raw_view(gpu.image)))
                  << what;
            }
            EXPECT_EQ(cpu.notes, gpu.notes) << what;
            ++runs;
          }
        }
    }
  std::cout << "AGREEMENT kernels chain: " << runs
            << " device chains (8 chains x 5 sizes x 1/3/4 channels x 2 borders x resident / "
               "round trips) bit-identical to the CPU chain\n";
}

// `mad kernel gray,smooth,nick` through run_kernel on CUDA: the chain's path, its variants.
TEST(KernelChainCuda, RunKernelRunsTheDeviceChain) {
  MAD_REQUIRE_GPU();
  const RawImage8 image = test::random_raw(61, 47, 3, 5203);
  KernelRequest r = test::cpu_chain_request("gray,smooth,nick", {}, SmoothBorder::Clip);
  r.backend = Backend::Cuda;
  const KernelOutcome gpu = run_kernel(r, image);
  EXPECT_EQ(gpu.backend, Backend::Cuda);
  EXPECT_EQ(gpu.variant, chain_cuda_variants(r.chain, SmoothBorder::Clip));
  r.backend = Backend::Cpu;
  const KernelOutcome cpu = run_kernel(r, image);
  EXPECT_TRUE(test::images_equal(test::raw_view(cpu.image), test::raw_view(gpu.image)));
}

}  // namespace
}  // namespace mad::kernels
