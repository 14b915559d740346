// A table of kernel variants, one row {name, launch function, note} each, with a named
// default (STYLE rule 5). Tests, the CLI and `mad bench` iterate the same table, so a variant
// is tested and benchmarked by registering it. Plain C++: the launch type is a template
// parameter, so this header carries no CUDA syntax.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

template <class Launch>
struct VariantRow {
  const char* name;
  Launch launch;
  const char* note;
};

template <class Launch>
class VariantTable {
 public:
  using Row = VariantRow<Launch>;

  // Throws InvalidArgument when a name repeats or `default_name` is not a row (a programming
  // error caught the first time the table is built, i.e. by any test).
  VariantTable(std::string kernel, std::vector<Row> rows, std::string default_name)
      : kernel_(std::move(kernel)), rows_(std::move(rows)), default_(std::move(default_name)) {
    bool has_default = false;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j)
        if (std::string(rows_[i].name) == rows_[j].name)
          throw InvalidArgument(kernel_ + ": variant '" + rows_[i].name + "' registered twice");
      has_default = has_default || default_ == rows_[i].name;
    }
    if (!has_default)
      throw InvalidArgument(kernel_ + ": default variant '" + default_ + "' is not registered");
  }

  const std::vector<Row>& rows() const { return rows_; }
  const std::string& default_name() const { return default_; }

  // The row called `name`; the default row when `name` is empty. Unknown names throw
  // InvalidArgument listing the registered ones.
  const Row& find(const std::string& name) const {
    const std::string& wanted = name.empty() ? default_ : name;
    for (const Row& row : rows_)
      if (wanted == row.name) return row;
    std::string known;
    for (const Row& row : rows_) known += std::string(known.empty() ? "" : ", ") + row.name;
    throw InvalidArgument("unknown " + kernel_ + " variant '" + wanted + "' (registered: " + known +
                          ")");
  }

  std::vector<VariantInfo> infos() const {
    std::vector<VariantInfo> out;
    for (const Row& row : rows_) out.push_back({row.name, row.note, default_ == row.name});
    return out;
  }

 private:
  std::string kernel_;
  std::vector<Row> rows_;
  std::string default_;
};

}  // namespace mad::kernels
