#include "kernels/kernel_format.h"

#include <algorithm>
#include <sstream>

#include "common/error.h"
#include "common/image_io.h"
#include "common/gpu_info.h"
#include "kernels/kernel_variant.h"
#include "kernels/smooth.h"

namespace mad::kernels {

HistogramFormat histogram_format_for_path(const std::string& path) {
  const std::string ext = lowercase_extension(path);
  if (ext == ".csv") return HistogramFormat::Csv;
  if (ext == ".json") return HistogramFormat::Json;
  if (ext == ".txt" || ext.empty()) return HistogramFormat::Text;
  throw InvalidArgument("cannot write a histogram to '" + path +
                        "': its format follows the extension: .csv, .json, or .txt (or none) "
                        "for text (not " +
                        ext + ")");
}

std::string format_histogram(const Histogram& histogram, HistogramFormat format) {
  std::ostringstream out;
  switch (format) {
    case HistogramFormat::Text:
      for (int v = 0; v < kHistogramBins; ++v) out << v << ' ' << histogram[v] << '\n';
      break;
    case HistogramFormat::Csv:
      out << "value,count\n";
      for (int v = 0; v < kHistogramBins; ++v) out << v << ',' << histogram[v] << '\n';
      break;
    case HistogramFormat::Json:
      out << "{\"bins\": " << kHistogramBins << ", \"counts\": [";
      for (int v = 0; v < kHistogramBins; ++v) out << (v ? ", " : "") << histogram[v];
      out << "]}\n";
      break;
  }
  return out.str();
}

std::string format_variant_listing() {
  std::ostringstream out;
  const bool cuda = gpu_backend_compiled();  // the rows exist in every build; runnable with CUDA
  auto section = [&](const std::string& title, const VariantNames& names) {
    out << title << ":\n";
    out << "  cpu (reference, --backend cpu)\n";
    if (!cuda) return;
    const std::vector<VariantInfo>& variants = names.infos();
    std::size_t width = 0;
    for (const VariantInfo& v : variants) width = std::max(width, v.name.size());
    const std::string indent(width + 4, ' ');
    for (const VariantInfo& v : variants)
      out << "  " << v.name << std::string(width - v.name.size() + 2, ' ') << v.note
          << (v.is_default ? "  [default]" : "") << '\n'
          << indent << "launch: " << v.shape << '\n';
  };
  for (KernelKind kind : all_kernel_kinds()) {
    if (kind == KernelKind::Darken) continue;  // shares gray's table; listed with it
    section(kind == KernelKind::Gray ? "gray, darken" : kernel_kind_name(kind),
            list_variants(kind));
    // The wrap border is a different output with its own variants.
    if (kind == KernelKind::Smooth) section("smooth --border wrap", smooth_wrap_variants());
  }
  if (!cuda) out << "(this build has no CUDA backend: only the cpu reference is available)\n";
  return out.str();
}

}  // namespace mad::kernels
