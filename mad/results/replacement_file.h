// A file that replaces another one whole: written beside it under a name no other writer holds
// (PATH.tmp.XXXXXX, created exclusively), then renamed over it, so that the old file stays
// intact until the new one is complete, an existing PATH.tmp (a user's, another run's) is never
// touched, and two runs replacing one file never write into each other's temporary. The
// temporary is removed when the replacement is abandoned (an error, an exception).
#pragma once

#include <string>

namespace mad::results {

class ReplacementFile {
 public:
  // Creates the temporary in `path`'s folder. Throws InputError with the system's reason.
  explicit ReplacementFile(std::string path);
  ~ReplacementFile();  // removes the temporary unless committed
  ReplacementFile(const ReplacementFile&) = delete;
  ReplacementFile& operator=(const ReplacementFile&) = delete;
  ReplacementFile(ReplacementFile&& other) noexcept;
  ReplacementFile& operator=(ReplacementFile&& other) noexcept;

  const std::string& temp_path() const { return temp_; }
  // Renames the temporary over the destination (atomic on one file system). Throws InputError
  // naming the destination and the reason; the temporary is then removed.
  void commit();

 private:
  std::string path_, temp_;
};

}  // namespace mad::results
