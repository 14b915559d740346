// libFuzzer target: the score-file parsers of `mad eval` (datasets/dataset_readers.h): TID2013
// and TID2008 (mos_with_names.txt, or mos.txt matched to the folder's name grid), KADID-10k
// (dmos.csv), CSIQ (the DMOS sheet as CSV) and the generic CSV manifest. The first byte picks
// the parser, the rest is the score file, written into a scratch dataset folder whose image
// folders exist but are empty (every entry is then a missing image, which readers must keep).
// LIVE's .mat files are read by libmatio and are not fuzzed here.
// A score file must give a dataset with at least one entry or a mad::Error.
// Seeds: tests/fuzz/corpus/dataset_scores/ (first byte: 0 TID names, 1 TID mos.txt, 2 KADID,
// 3 CSIQ, 4 manifest).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>

#include "common/error.h"
#include "datasets/dataset.h"
#include "datasets/dataset_readers.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

namespace fs = std::filesystem;
using mad::datasets::Dataset;
using mad::datasets::DatasetKind;

// One folder per parser, laid out as that dataset expects (empty image folders).
fs::path dataset_root(const char* name, std::initializer_list<const char*> folders) {
  const fs::path root = mad::fuzz::scratch_dir() / name;
  for (const char* f : folders) fs::create_directories(root / f);
  fs::create_directories(root);
  return root;
}

Dataset parse(std::uint8_t selector, const std::uint8_t* data, std::size_t size) {
  using namespace mad::datasets;
  switch (selector % 5) {
    case 0: {
      static const fs::path root =
          dataset_root("tid_names", {"reference_images", "distorted_images"});
      mad::fuzz::write_file(root / "mos_with_names.txt", data, size);
      return read_tid(root.string(), selector & 0x80 ? DatasetKind::Tid2008 : DatasetKind::Tid2013);
    }
    case 1: {
      static const fs::path root =
          dataset_root("tid_plain", {"reference_images", "distorted_images"});
      mad::fuzz::write_file(root / "mos.txt", data, size);
      return read_tid(root.string(), selector & 0x80 ? DatasetKind::Tid2008 : DatasetKind::Tid2013);
    }
    case 2: {
      static const fs::path root = dataset_root("kadid", {"images"});
      mad::fuzz::write_file(root / "dmos.csv", data, size);
      return read_kadid(root.string());
    }
    case 3: {
      static const fs::path root = dataset_root("csiq", {"src_imgs", "dst_imgs"});
      const std::string sheet = mad::fuzz::write_file(root / "csiq.dmos.csv", data, size);
      return read_csiq(root.string(), selector & 0x80 ? sheet : std::string());
    }
    default: {
      static const fs::path root = dataset_root("manifest", {});
      const std::string file = mad::fuzz::write_file(root / "manifest.csv", data, size);
      std::optional<bool> direction;
      if (selector & 0x80) direction = (selector & 0x40) != 0;
      return read_manifest(file, direction);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Dataset d;
  try {
    d = parse(data[0], data + 1, size - 1);
  } catch (const mad::Error&) {
    return 0;
  }
  mad::fuzz::require(!d.entries.empty(), "a dataset read without error has entries");
  for (const auto& e : d.entries) {
    mad::fuzz::require(std::isfinite(e.subjective), "subjective scores are finite");
    mad::fuzz::require(!e.ref.empty() && !e.dist.empty(), "entries name both images");
  }
  // The callers' next steps on a freshly read dataset: every image is missing here, and each
  // entry must be reported (twice when both images are missing, spec of find_missing_images).
  const auto missing = mad::datasets::find_missing_images(d);
  mad::fuzz::require(missing.size() <= 2 * d.entries.size(), "at most two missing per entry");
  const auto order = mad::datasets::order_by_reference(d.entries);
  mad::fuzz::require(order.size() == d.entries.size(), "order_by_reference is a permutation");
  std::vector<bool> seen(order.size(), false);
  for (std::size_t i : order) {
    mad::fuzz::require(i < seen.size() && !seen[i], "order_by_reference is a permutation");
    seen[i] = true;
  }
  return 0;
}
