// The thread-local launch log of launch_log.h.
#include "common/launch_log.h"

namespace mad {
namespace {

thread_local std::vector<LaunchRecord>* t_active_log = nullptr;

}  // namespace

std::vector<LaunchRecord>* active_launch_log() {
  return t_active_log;
}

LaunchLogScope::LaunchLogScope() : previous_(t_active_log) {
  t_active_log = &records_;
}

LaunchLogScope::~LaunchLogScope() {
  t_active_log = previous_;
}

}  // namespace mad
