// Kernel chains on the CPU (kernels/kernel_chain.h, `mad kernel gray,smooth,nick`): the order
// rules, the options that apply to a chain, and the output equal to running the kernels one
// at a time.
#include <gtest/gtest.h>

#include "common/error.h"
#include "kernels/gray.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_request.h"
#include "tests/kernels/kernel_test_util.h"

namespace mad::kernels {
namespace {

KernelArgs chain_args(const std::string& kernel) {
  KernelArgs a;
  a.kernel = kernel;
  a.input = "in.png";
  a.output = kernel.size() >= 9 && kernel.substr(kernel.size() - 9) == "histogram" ? "" : "o.png";
  return a;
}

std::string refusal(const KernelArgs& a) {
  try {
    make_kernel_request(a);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(KernelChain, ParsesAndOrders) {
  EXPECT_EQ(parse_kernel_chain("gray,smooth,nick"),
            (std::vector<KernelKind>{KernelKind::Gray, KernelKind::Smooth, KernelKind::Nick}));
  EXPECT_EQ(parse_kernel_chain("smooth"), std::vector<KernelKind>{KernelKind::Smooth});
  EXPECT_EQ(kernel_chain_name(parse_kernel_chain("darken,smooth,histogram")),
            "darken,smooth,histogram");
  EXPECT_THROW(parse_kernel_chain("gray,,nick"), InvalidArgument);
  EXPECT_THROW(parse_kernel_chain("gray,"), InvalidArgument);
  EXPECT_THROW(parse_kernel_chain("gray,blur"), InvalidArgument);
  EXPECT_NE(refusal(chain_args("smooth,gray")).find("gray can only be the first"),
            std::string::npos);
  EXPECT_NE(refusal(chain_args("gray,darken")).find("darken can only be the first"),
            std::string::npos);
  EXPECT_NE(refusal(chain_args("histogram,nick")).find("histogram can only be the last"),
            std::string::npos);
  EXPECT_NE(refusal(chain_args("blur,nick")).find("unknown kernel 'blur'"), std::string::npos);
}

TEST(KernelChain, OptionsThatApply) {
  KernelArgs a = chain_args("gray,smooth,nick");
  a.window = 7;
  a.border = "wrap";
  const KernelRequest r = make_kernel_request(a);
  EXPECT_EQ(r.kind, KernelKind::Nick);
  EXPECT_EQ(r.chain.size(), 3u);
  EXPECT_EQ(r.nick.window, 7);
  EXPECT_EQ(r.border, SmoothBorder::Wrap);

  KernelArgs no_nick = chain_args("gray,smooth");
  no_nick.k = -0.1;
  EXPECT_NE(refusal(no_nick).find("apply to nick only, not to gray,smooth"), std::string::npos);
  KernelArgs no_smooth = chain_args("gray,nick");
  no_smooth.border = "wrap";
  EXPECT_NE(refusal(no_smooth).find("--border applies to smooth only"), std::string::npos);
  KernelArgs bad_border = chain_args("smooth");
  bad_border.border = "zero";
  EXPECT_NE(refusal(bad_border).find("expected clip or wrap"), std::string::npos);
  KernelArgs variant = chain_args("gray,nick");
  variant.variant = "integral";
  EXPECT_NE(refusal(variant).find("cannot be given with the chain gray,nick"), std::string::npos);
  KernelArgs hist = chain_args("gray,histogram");
  EXPECT_EQ(make_kernel_request(hist).kind, KernelKind::Histogram);  // no OUT needed
  KernelArgs no_out = chain_args("gray,smooth");
  no_out.output.clear();
  EXPECT_NE(refusal(no_out).find("an output path (OUT) is required"), std::string::npos);
}

// Runs `chain` on the CPU one kernel at a time, each on the previous result.
KernelOutcome one_at_a_time(const std::vector<KernelKind>& chain, RawImage8 image,
                            const ChainParams& params) {
  KernelOutcome o;
  for (KernelKind kind : chain) {
    o = run_kernel(test::cpu_chain_request(kernel_kind_name(kind), params.nick, params.border),
                   image);
    image = o.image;
  }
  return o;
}

TEST(KernelChain, CpuChainEqualsTheKernelsOneAtATime) {
  const std::uint32_t seed = test::announce_seed("KernelChain.CpuChainEqualsOneAtATime", 5101);
  const std::vector<std::string> chains = {"gray,smooth,nick", "gray,nick",        "smooth,nick",
                                           "darken,smooth",    "smooth,smooth",    "nick,nick",
                                           "gray,histogram",   "smooth,histogram", "smooth"};
  for (int channels : {1, 3, 4})
    for (const std::string& name : chains)
      for (SmoothBorder border : {SmoothBorder::Clip, SmoothBorder::Wrap}) {
        const std::vector<KernelKind> chain = parse_kernel_chain(name);
        const bool needs_rgb = chain[0] == KernelKind::Gray || chain[0] == KernelKind::Darken;
        const RawImage8 image = test::random_raw(23, 19, channels, seed + channels);
        const KernelRequest r = test::cpu_chain_request(name, {5, -0.12}, border);
        if (needs_rgb && channels == 1) {
          EXPECT_THROW(run_kernel(r, image), InputError) << name;
          continue;
        }
        const KernelOutcome chained = run_kernel(r, image);
        const KernelOutcome single = one_at_a_time(chain, image, {r.nick, border});
        EXPECT_EQ(chained.variant, "cpu");
        EXPECT_EQ(chained.kind, chain.back());
        ASSERT_EQ(chained.histogram.has_value(), single.histogram.has_value()) << name;
        if (chained.histogram) {
          EXPECT_EQ(*chained.histogram, *single.histogram) << name;
          continue;
        }
        ASSERT_EQ(chained.image.channels, single.image.channels) << name;
        EXPECT_TRUE(test::images_equal(test::raw_view(single.image), test::raw_view(chained.image)))
            << name << " channels " << channels;
      }
}

TEST(KernelChain, ChainVariantsNameEachDefault) {
  EXPECT_EQ(chain_cuda_variants(parse_kernel_chain("gray,smooth"), SmoothBorder::Wrap),
            "gray=" + gray_variants().default_name() + ",smooth=padded");
}

// The backend of a kernel run is chosen at the command's front door (choose_backend), never in
// the library: run_kernel refuses a request still on auto, and requested_backend only reads what
// the request asks for (a named variant asks for the GPU).
TEST(KernelRequestBackend, RunKernelTakesAChosenBackend) {
  KernelRequest r = test::cpu_chain_request("smooth", {5, -0.12}, SmoothBorder::Clip);
  const RawImage8 image = test::random_raw(23, 19, 1, 77);
  r.backend = Backend::Auto;
  EXPECT_THROW(run_kernel(r, image), Error);
  r.backend = Backend::Cpu;
  EXPECT_EQ(run_kernel(r, image).backend, Backend::Cpu);
}

TEST(KernelRequestBackend, AVariantAsksForTheGpu) {
  KernelRequest r = test::cpu_chain_request("smooth", {5, -0.12}, SmoothBorder::Clip);
  r.backend = Backend::Auto;
  EXPECT_EQ(requested_backend(r), Backend::Auto);
  r.variant = "padded";
  EXPECT_EQ(requested_backend(r), Backend::Cuda);
  r.backend = Backend::Cpu;  // make_kernel_request refuses this pair; the rule still reads it
  EXPECT_EQ(requested_backend(r), Backend::Cpu);
}

}  // namespace
}  // namespace mad::kernels
