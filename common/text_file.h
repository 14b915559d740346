// Report files written whole (a JSON summary, an HTML report, a histogram), and the check that
// such a file can be written at all before the hours of work that would fill it.
#pragma once

#include <string>

namespace mad {

// Writes `text` to `path` (replacing it). Throws InputError "cannot write 'PATH': REASON", with
// the system's reason (No such file or directory, No space left on device, ...).
void write_text_file(const std::string& path, const std::string& text);

// Throws InputError "OPTION 'PATH' cannot be written: REASON" unless `path` can be opened for
// writing now. Leaves an existing file as it was, and no file where there was none. Call it
// before the run whose result goes there, so that a typo costs nothing.
void require_writable(const std::string& path, const std::string& option);

}  // namespace mad
