// docs/cli.md (the CLI reference, moved out of README.md) documents every option the parser
// knows. The subcommands are registered exactly as
// tools/mad_main.cpp does, and every long option name of each (e.g. --force, --summary-from)
// must appear in docs/cli.md's section about that subcommand; the root's options (--version)
// anywhere. A new option without documentation fails here.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <cctype>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tools/cli_commands.h"

namespace mad {
namespace {

std::string read_readme() {
  std::ifstream in(std::string(MAD_SOURCE_DIR) + "/docs/cli.md");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The docs/cli.md sections ("## ..." up to the next "## ") whose heading names `mad <command>`.
std::string sections_about(const std::string& readme, const std::string& command) {
  std::string out;
  for (std::size_t at = readme.find("\n## "); at != std::string::npos;) {
    const std::size_t next = readme.find("\n## ", at + 1);
    const std::string section = readme.substr(at, next == std::string::npos ? next : next - at);
    const std::string heading = section.substr(0, section.find('\n', 1));
    if (heading.find("`mad " + command) != std::string::npos) out += section;
    at = next;
  }
  return out;
}

// True when `text` holds `option` as a whole word: "--k" is not found in "--kernels".
bool mentions(const std::string& text, const std::string& option) {
  for (std::size_t at = text.find(option); at != std::string::npos;
       at = text.find(option, at + 1)) {
    const std::size_t end = at + option.size();
    const char after = end < text.size() ? text[end] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(after)) && after != '-' && after != '_')
      return true;
  }
  return false;
}

// Long option names of `app`, its help flags left out.
std::vector<std::string> long_options(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt == app.get_help_ptr() || opt == app.get_help_all_ptr()) continue;
    for (const std::string& name : opt->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

TEST(ReadmeOptions, EveryLongOptionOfEverySubcommandIsDocumented) {
  const std::string readme = read_readme();
  ASSERT_FALSE(readme.empty()) << "docs/cli.md not found";
  CLI::App root{"mad"};
  root.set_version_flag("--version", "mad");
  const std::vector<cli::Subcommand> commands = {
      cli::add_score_command(root), cli::add_kernel_command(root), cli::add_bench_command(root),
      cli::add_eval_command(root), cli::add_merge_command(root), cli::add_video_command(root)};
  for (const std::string& name : long_options(root))
    EXPECT_TRUE(mentions(readme, name)) << "docs/cli.md does not mention mad " << name;
  std::size_t checked = 0;
  for (const cli::Subcommand& c : commands) {
    ASSERT_NE(c.app, nullptr);
    const std::string command = c.app->get_name();
    const std::string section = sections_about(readme, command);
    ASSERT_FALSE(section.empty()) << "docs/cli.md has no section about `mad " << command << "`";
    for (const std::string& name : long_options(*c.app)) {
      EXPECT_TRUE(mentions(section, name))
          << "docs/cli.md's section on mad " << command << " does not mention " << name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 30u) << "fewer options than the four subcommands have: none found?";
}

TEST(ReadmeOptions, WholeWordMatching) {
  EXPECT_TRUE(mentions("use --k K", "--k"));
  EXPECT_FALSE(mentions("use --kernels LIST", "--k"));
  EXPECT_FALSE(mentions("use --repeat-all", "--repeat"));
  EXPECT_TRUE(mentions("[--repeat N]", "--repeat"));
}

}  // namespace
}  // namespace mad
