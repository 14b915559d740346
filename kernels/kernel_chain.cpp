// The CUDA-free part of kernels/kernel_chain.h: parsing and naming a chain.
#include "kernels/kernel_chain.h"

#include <algorithm>

#include "common/error.h"

namespace mad::kernels {

std::vector<KernelKind> parse_kernel_chain(const std::string& list) {
  std::vector<KernelKind> chain;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, comma - start);
    if (name.empty())
      throw InvalidArgument("mad kernel: empty kernel name in '" + list +
                            "' (a chain is KERNEL,KERNEL,... without spaces)");
    chain.push_back(parse_kernel_kind(name));
    start = comma + 1;
  }
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const KernelKind k = chain[i];
    if ((k == KernelKind::Gray || k == KernelKind::Darken) && i != 0)
      throw InvalidArgument(std::string("mad kernel ") + list + ": " + kernel_kind_name(k) +
                            " can only be the first kernel of a chain (it needs RGB input, and "
                            "no kernel gives RGB back)");
    if (k == KernelKind::Histogram && i + 1 != chain.size())
      throw InvalidArgument("mad kernel " + list +
                            ": histogram can only be the last kernel of a chain (its result is "
                            "not an image)");
  }
  return chain;
}

std::string kernel_chain_name(const std::vector<KernelKind>& chain) {
  std::string name;
  for (KernelKind k : chain) name += (name.empty() ? "" : ",") + std::string(kernel_kind_name(k));
  return name;
}

bool chain_contains(const std::vector<KernelKind>& chain, KernelKind kind) {
  return std::find(chain.begin(), chain.end(), kind) != chain.end();
}

std::string chain_cuda_variants(const std::vector<KernelKind>& chain, SmoothBorder border) {
  std::string out;
  for (KernelKind k : chain) {
    const VariantNames& names =
        k == KernelKind::Smooth ? smooth_variants(border) : list_variants(k);
    out += (out.empty() ? "" : ",") + std::string(kernel_kind_name(k)) + "=" + names.default_name();
  }
  return out;
}

}  // namespace mad::kernels
