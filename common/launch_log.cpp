// The thread-local launch log of launch_log.h.
#include "common/launch_log.h"

namespace mad {

using launch_log_detail::t_active_log;

LaunchLogScope::LaunchLogScope() : previous_(t_active_log) {
  t_active_log = &records_;
}

LaunchLogScope::~LaunchLogScope() {
  t_active_log = previous_;
}

}  // namespace mad
