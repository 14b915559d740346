// An IQA dataset as `mad eval` sees it: (reference, distorted, subjective score) entries read
// from one of the native layouts (datasets/dataset_readers.h) or a generic CSV manifest.
//
// Every reader returns paths resolved against the dataset folder and the names as the dataset
// spells them relative to that folder (`ref_name`, `dist_name`); the names key the rows of
// results.csv, so a run can be resumed after the folder moved. Readers never drop an entry
// whose image is missing: find_missing_images() lists those so the caller reports them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mad::datasets {

enum class DatasetKind { Tid2013, Tid2008, Kadid10k, Csiq, Live, Csv };

struct DatasetEntry {
  std::string ref, dist;            // resolved paths (for reading the images)
  std::string ref_name, dist_name;  // as written in results.csv (relative to the dataset root)
  double subjective = 0.0;          // MOS or DMOS as published
  std::string type;                 // distortion type label ("" when the dataset has none)
  std::string level;                // distortion level as published ("" when unknown)
  int line = 0;                     // 1-based line of the score file that named it (0: none)
};

struct Dataset {
  DatasetKind kind = DatasetKind::Csv;
  std::string root;
  std::string score_name = "MOS";  // "MOS", "DMOS", or the manifest's wording
  bool higher_is_better = true;    // of the subjective score (MOS: yes, DMOS: no)
  std::vector<DatasetEntry> entries;
  std::vector<std::string> notes;  // facts worth printing (e.g. "skipped 29 reference copies")
};

struct ReadOptions {
  std::string manifest;                  // CSV manifest (DatasetKind::Csv); relative to root
  std::optional<bool> higher_is_better;  // overrides / supplies the manifest's direction
};

// "tid2013", "tid2008", "kadid10k", "csiq", "live", "csv" (case-insensitive). Throws
// InvalidArgument listing the accepted names.
DatasetKind parse_dataset_kind(const std::string& name);
std::string to_string(DatasetKind kind);

// Recognises a native layout by its score files and folders. Throws InputError naming what
// was looked for when nothing matches.
DatasetKind detect_dataset_kind(const std::string& root);

// Reads the dataset at `root`. Throws InputError for a missing or malformed score file (with
// the file name and 1-based line number) and for a layout that contradicts itself.
Dataset read_dataset(const std::string& root, DatasetKind kind, const ReadOptions& options = {});

// The images of each entry that do not exist, in dataset order (an entry missing both images
// appears twice).
struct MissingImage {
  std::size_t entry = 0;
  std::string path;  // the name as written in the score file, or the resolved path
};
std::vector<MissingImage> find_missing_images(const Dataset& dataset);

// Orders entries so each reference's pairs are consecutive (first appearance order kept,
// stable within a reference): the GPU scorer reuses reference-side work between such pairs.
std::vector<std::size_t> order_by_reference(const std::vector<DatasetEntry>& entries);

}  // namespace mad::datasets
