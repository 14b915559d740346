#include "tools/cli_interrupt.h"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

namespace mad::cli {
namespace {

// The handler may use only async-signal-safe calls (open, read, write, close, raise): no
// allocation, no stdio. Its inputs are copied here before it is installed.
char g_path[4096];
char g_message[4096];  // report_interrupts_saying's message; "" for a results file's report
volatile std::sig_atomic_t g_has_header = 0;

void say(const char* text, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}
void say(const char* text) {
  say(text, std::strlen(text));
}

// Complete lines of the file (a row cut short by the signal is not one: --resume drops it).
long long complete_lines(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long long lines = 0;
  char buffer[65536];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
    for (ssize_t i = 0; i < n; ++i) lines += buffer[i] == '\n';
  ::close(fd);
  return lines;
}

void say_number(long long n) {
  char digits[24];
  int at = sizeof digits;
  do {
    digits[--at] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n > 0 && at > 0);
  say(digits + at, sizeof digits - static_cast<std::size_t>(at));
}

void on_interrupt(int sig) {
  // A newline first: the progress bar leaves the cursor at the end of its line.
  if (g_message[0] != '\0') {
    say("\nmad: interrupted: ");
    say(g_message);
    say("\n");
  } else if (g_path[0] == '\0') {
    say("\nmad: interrupted: the rows printed on standard output are complete; give --out "
        "FILE to keep a run that --resume can continue\n");
  } else {
    long long rows = complete_lines(g_path);
    if (rows > 0 && g_has_header) --rows;
    say("\nmad: interrupted: ");
    if (rows < 0) {
      say("no rows kept (");
      say(g_path);
      say(" cannot be read)\n");
    } else {
      say_number(rows);
      say(rows == 1 ? " row kept in " : " rows kept in ");
      say(g_path);
      say("; run the same command with --resume\n");
    }
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_report(const std::string& path, bool header, const std::string& message) {
  struct sigaction ignore_now = {};
  ignore_now.sa_handler = SIG_IGN;
  struct sigaction old_int, old_term;
  // Held off while the inputs change, so the handler never reads half a path.
  sigaction(SIGINT, &ignore_now, &old_int);
  sigaction(SIGTERM, &ignore_now, &old_term);
  std::strncpy(g_path, path.c_str(), sizeof g_path - 1);
  g_path[sizeof g_path - 1] = '\0';
  std::strncpy(g_message, message.c_str(), sizeof g_message - 1);
  g_message[sizeof g_message - 1] = '\0';
  g_has_header = header;
  struct sigaction act = {};
  act.sa_handler = on_interrupt;
  sigemptyset(&act.sa_mask);
  for (int sig : {SIGINT, SIGTERM}) {
    const struct sigaction& before = sig == SIGINT ? old_int : old_term;
    // A signal the parent ignores (nohup, `cmd &` in a script) stays ignored.
    if (before.sa_handler == SIG_IGN) {
      sigaction(sig, &before, nullptr);
      continue;
    }
    sigaction(sig, &act, nullptr);
  }
}

}  // namespace

void report_interrupts(const std::string& path, bool header) {
  install_report(path, header, "");
}

void report_interrupts_saying(const std::string& message) {
  install_report("", false, message);
}

}  // namespace mad::cli
