// The one registry of kernel variants (STYLE rule 5), used by every kernel family: the
// preprocessing kernels, the detection block statistics and the A5 statistics.
//
// A registry is a table of rows {name, note, launch shape, launch} with a named default.
// Tests, the CLI (`--variant`, `--a5`, `--det-variant`, `--list-variants`) and `mad bench`
// iterate the same registries, so a variant is tested, selectable and benchmarked by adding
// one row. Unknown names are rejected in one place, find().
//
// No CUDA syntax: each family's table lives in a .cpp compiled in every build, so CUDA-free
// code lists and validates names even without the CUDA backend. There the launch functions
// (in *_cuda.cu files) are not compiled and MAD_CUDA_LAUNCH leaves every callable empty.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/error.h"

struct CUstream_st;  // cudaStream_t is CUstream_st* (CUDA's driver_types.h)

namespace mad {

// cudaStream_t spelled without CUDA headers, for launch-function types in CUDA-free headers.
using StreamHandle = CUstream_st*;

// A row's callable: the expression in a build with the CUDA backend, empty ({}: a null
// function pointer, or a struct of them) in a build without it.
#ifdef MAD_HAVE_CUDA
#define MAD_CUDA_LAUNCH(...) __VA_ARGS__
#else
#define MAD_CUDA_LAUNCH(...) \
  {}
#endif

// One registered variant. The strings are literals of the family's table.
template <class Launch>
struct VariantRow {
  const char* name;   // user-visible, unique in its registry
  const char* note;   // one line: how the variant differs from the others
  const char* shape;  // launch shape: CTA size and what one thread (or CTA) computes
  Launch launch;      // empty in a build without the CUDA backend
};

// A row without its callable, for CUDA-free listings.
struct VariantInfo {
  std::string name;
  std::string note;
  std::string shape;
  bool is_default = false;
};

// Per-precision callables in one row, so a family has one table for double and float:
// ForReal<double> (the faithful mode) and ForReal<float> (the fast mode).
template <template <class> class ForReal>
struct PerPrecision {
  ForReal<double> f64{};
  ForReal<float> f32{};

  template <class Real>
  const ForReal<Real>& get() const {
    if constexpr (std::is_same_v<Real, double>)
      return f64;
    else
      return f32;
  }
};

// The launch-free face of a registry: names, notes, shapes, the default, and the one check
// of a user-given name. Every VariantRegistry is one.
class VariantNames {
 public:
  // e.g. "gray", "A5", "detection statistics": names the registry in messages.
  const std::string& family() const { return family_; }
  // Every row in table order, the default flagged.
  const std::vector<VariantInfo>& infos() const { return infos_; }
  const std::string& default_name() const { return infos_[default_index_].name; }
  std::size_t default_index() const { return default_index_; }

  // Index of the row called `name`; "" selects the default. Throws InvalidArgument for any
  // other name, listing the registered ones.
  std::size_t index_of(const std::string& name) const {
    if (name.empty()) return default_index_;
    for (std::size_t i = 0; i < infos_.size(); ++i)
      if (infos_[i].name == name) return i;
    std::string known;
    for (const VariantInfo& info : infos_) known += (known.empty() ? "" : ", ") + info.name;
    throw InvalidArgument("unknown " + family_ + " variant '" + name + "' (registered: " + known +
                          ")");
  }
  // The registered name that `name` selects (the default's for "").
  const std::string& resolve(const std::string& name) const { return infos_[index_of(name)].name; }

 protected:
  // Throws Error (a programming error, caught by any test that touches the registry) for an
  // empty or repeated name, or a default that is not a row.
  VariantNames(std::string family, std::vector<VariantInfo> infos, const std::string& default_name)
      : family_(std::move(family)), infos_(std::move(infos)) {
    bool found = false;
    for (std::size_t i = 0; i < infos_.size(); ++i) {
      if (infos_[i].name.empty()) throw Error(family_ + " registry: a variant has no name");
      for (std::size_t j = 0; j < i; ++j)
        if (infos_[i].name == infos_[j].name)
          throw Error(family_ + " registry: variant '" + infos_[i].name + "' registered twice");
      if (infos_[i].name == default_name) {
        default_index_ = i;
        infos_[i].is_default = found = true;
      }
    }
    if (!found)
      throw Error(family_ + " registry: default variant '" + default_name + "' is not registered");
  }

 private:
  std::string family_;
  std::vector<VariantInfo> infos_;
  std::size_t default_index_ = 0;
};

template <class Launch>
class VariantRegistry : public VariantNames {
 public:
  using Row = VariantRow<Launch>;

  VariantRegistry(std::string family, std::vector<Row> rows, const std::string& default_name)
      : VariantNames(std::move(family), describe(rows), default_name), rows_(std::move(rows)) {}

  const std::vector<Row>& rows() const { return rows_; }
  const Row& default_row() const { return rows_[default_index()]; }
  // The row called `name`; "" selects the default. Unknown names throw InvalidArgument.
  const Row& find(const std::string& name) const { return rows_[index_of(name)]; }

 private:
  static std::vector<VariantInfo> describe(const std::vector<Row>& rows) {
    std::vector<VariantInfo> infos;
    for (const Row& row : rows)
      infos.push_back(
          {row.name ? row.name : "", row.note ? row.note : "", row.shape ? row.shape : "", false});
    return infos;
  }

  std::vector<Row> rows_;
};

}  // namespace mad
