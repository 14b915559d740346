// The progress bar (common/progress_bar.h) on a real terminal: a pseudo-terminal, since the bar
// draws only where isatty says so. With a total it shows "done/total" and an ETA; without one
// (a clip on a pipe, whose length is known only when it ends) it counts, with the rate and the
// time so far, and never shows a made-up total such as "5/0".
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>

#include "common/progress_bar.h"

namespace mad {
namespace {

// A pseudo-terminal: `out` writes to its terminal side, drawn() reads what reached the other.
class Terminal {
 public:
  Terminal() {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0) return;
    const char* name = ::ptsname(master_);
    if (name) out = std::fopen(name, "w");
  }
  ~Terminal() {
    if (out) std::fclose(out);
    if (master_ >= 0) ::close(master_);
  }
  std::string drawn() {
    std::fflush(out);
    std::string text;
    char buf[4096];
    pollfd p{master_, POLLIN, 0};
    while (::poll(&p, 1, 100) > 0) {
      const ssize_t got = ::read(master_, buf, sizeof buf);
      if (got <= 0) break;
      text.append(buf, static_cast<std::size_t>(got));
    }
    return text;
  }
  std::FILE* out = nullptr;

 private:
  int master_ = -1;
};

std::string draw(std::optional<std::size_t> total, int ticks, Terminal& term) {
  ProgressBar bar(total, "frames/s", term.out);
  EXPECT_TRUE(bar.enabled()) << "a pseudo-terminal is a terminal";
  for (int i = 0; i < ticks; ++i) bar.tick();
  bar.finish();
  return term.drawn();
}

TEST(ProgressBar, WithATotalShowsDoneOfTotalAndAnEta) {
  Terminal term;
  if (!term.out) GTEST_SKIP() << "no pseudo-terminal here";
  const std::string text = draw(7, 7, term);
  EXPECT_NE(text.find("7/7"), std::string::npos) << text;
  EXPECT_NE(text.find("frames/s"), std::string::npos) << text;
  EXPECT_NE(text.find("ETA"), std::string::npos) << text;
}

TEST(ProgressBar, WithoutATotalCountsWithTheRateAndNoMadeUpTotal) {
  Terminal term;
  if (!term.out) GTEST_SKIP() << "no pseudo-terminal here";
  const std::string text = draw(std::nullopt, 5, term);
  EXPECT_NE(text.find("5 done"), std::string::npos) << text;
  EXPECT_NE(text.find("frames/s"), std::string::npos) << text;
  EXPECT_NE(text.find("so far"), std::string::npos) << text;
  EXPECT_EQ(text.find("/0"), std::string::npos) << text;
  EXPECT_EQ(text.find("ETA"), std::string::npos) << text;
  EXPECT_EQ(text.find('#'), std::string::npos) << "no bar without an end: " << text;
}

TEST(ProgressBar, AKnownTotalOfZeroIsNotUnknown) {
  Terminal term;
  if (!term.out) GTEST_SKIP() << "no pseudo-terminal here";
  EXPECT_NE(draw(0, 0, term).find("0/0"), std::string::npos);
}

TEST(ProgressBar, OffATerminalDrawsNothing) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    ProgressBar bar(std::nullopt, "frames/s", file);
    EXPECT_FALSE(bar.enabled());
    bar.tick();
    bar.finish();
  }
  EXPECT_EQ(std::ftell(file), 0L);
  std::fclose(file);
}

}  // namespace
}  // namespace mad
