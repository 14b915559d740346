#include "tools/cli_help.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "common/error.h"

namespace mad::cli {
namespace {

// Help lines show an option's value as a word (FILE, N, auto) and its default, nothing more:
// CLI11 would add "INT:INT in [1, 65536]" from the validators and "Excludes: ..." lists.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
    if (!opt->nonpositional()) return "";  // "REF", not "REF FILE"
    std::string label = opt->get_type_name();
    if (opt->get_type_size() == 0 || label.empty()) return "";  // a flag
    label = label.substr(0, label.find_first_of(": "));
    if (label == "TEXT") label = "VALUE";
    if (label == "UINT" || label == "INT") label = "N";
    std::string out = " " + label;
    if (!opt->get_default_str().empty()) out += " (default " + opt->get_default_str() + ")";
    return out;
  }
};

// Edits between two words, a swap of neighbours counting as one (optimal string alignment):
// "--htlm" is one edit from "--html" but two from "--help", so the swap typed is what we suggest.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> subcommand_names(const CLI::App& root) {
  std::vector<std::string> names;
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  names.push_back("help");
  return names;
}

CLI::App* find_subcommand(CLI::App& root, const std::string& name) {
  for (CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

int usage_error(const std::string& message, const std::string& help_hint) {
  std::fprintf(stderr, "mad: error: %s\nRun '%s' for the usage.\n", message.c_str(),
               help_hint.c_str());
  return kExitUsage;
}

std::string with_suggestion(const std::string& message, const std::optional<std::string>& near) {
  return near ? message + "; did you mean '" + *near + "'?" : message;
}

}  // namespace

void install_help_formatter(CLI::App& root) {
  auto f = std::make_shared<HelpFormatter>();
  f->column_width(34);
  root.formatter(f);
}

std::optional<std::string> nearest(const std::string& word,
                                   const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_d = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (!best || d < best_d) best = c, best_d = d;
  }
  if (!best) return best;
  const bool prefix = word.size() >= 3 && best->rfind(word, 0) == 0;
  if (best_d <= std::max<std::size_t>(2, word.size() / 3) || prefix) return best;
  return std::nullopt;
}

std::optional<int> handle_before_parse(CLI::App& root, int argc, char** argv) {
  int at = 1;
  while (at < argc && argv[at][0] == '-') ++at;  // --help, --version: CLI11's own
  if (at >= argc) return std::nullopt;
  const std::string word = argv[at];
  if (word == "help") {
    if (at + 1 >= argc) {
      std::cout << root.help();
      return kExitOk;
    }
    const std::string topic = argv[at + 1];
    if (CLI::App* sub = find_subcommand(root, topic)) {
      std::cout << sub->help("mad");
      return kExitOk;
    }
    return usage_error(with_suggestion("no subcommand '" + topic + "'",
                                       nearest(topic, subcommand_names(root))),
                       "mad help");
  }
  if (find_subcommand(root, word)) return std::nullopt;
  std::string names;
  for (const auto& n : subcommand_names(root)) names += (names.empty() ? "" : ", ") + n;
  return usage_error(with_suggestion("unknown subcommand '" + word + "'",
                                     nearest(word, subcommand_names(root))) +
                         " (the subcommands: " + names + ")",
                     "mad help");
}

std::optional<int> explain_unknown_option(CLI::App& root, int argc, char** argv) {
  CLI::App* sub = nullptr;
  int at = 1;
  for (; at < argc && !sub; ++at) sub = find_subcommand(root, argv[at]);
  if (!sub) return std::nullopt;
  std::vector<std::string> names;
  for (const CLI::Option* o : sub->get_options()) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  for (; at < argc; ++at) {
    const std::string token = argv[at];
    if (token == "--") break;  // positionals follow
    if (token.size() < 2 || token[0] != '-') continue;
    if (std::isdigit(static_cast<unsigned char>(token[1])) || token[1] == '.') continue;  // -3
    const std::string name = token.substr(0, token.find('='));
    const CLI::Option* known = sub->get_option_no_throw(name);
    if (!known && token[1] != '-') known = sub->get_option_no_throw(token.substr(0, 2));  // -oF
    if (known) {
      // The value of an option that takes one ("--k -inf") is not an option.
      if (known->get_type_size() != 0 && !known->get_type_name().empty() &&
          token.find('=') == std::string::npos && (token[1] == '-' || token.size() == 2))
        ++at;
      continue;
    }
    return usage_error(with_suggestion("mad " + sub->get_name() + " has no option '" + name + "'",
                                       nearest(name, names)),
                       "mad " + sub->get_name() + " --help");
  }
  return std::nullopt;
}

}  // namespace mad::cli
