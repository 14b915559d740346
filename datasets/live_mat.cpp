#include "datasets/live_mat.h"

#include <cstdint>
#include <memory>

#include "common/error.h"

#ifdef MAD_HAVE_MATIO
#include <matio.h>
#endif

namespace mad::datasets {

bool mat_files_supported() {
#ifdef MAD_HAVE_MATIO
  return true;
#else
  return false;
#endif
}

std::string mat_unsupported_message(const std::string& file) {
  return "'" + file + "' is a MATLAB .mat file and this build has no libmatio to read it: " +
         "install it (Debian/Ubuntu: apt-get install libmatio-dev) and reconfigure, or convert "
         "the scores to a CSV manifest (header ref,dist,score,type and the line "
         "'# higher_is_better: false' for DMOS) and run: mad eval DIR --dataset csv --manifest "
         "FILE";
}

#ifdef MAD_HAVE_MATIO
namespace {

struct MatCloser {
  void operator()(mat_t* m) const { Mat_Close(m); }
};
struct VarFreer {
  void operator()(matvar_t* v) const { Mat_VarFree(v); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

MatVar read_variable(const std::string& file, const std::string& variable) {
  MatFile mat(Mat_Open(file.c_str(), MAT_ACC_RDONLY));
  if (!mat) throw InputError("cannot open MATLAB file '" + file + "'");
  MatVar var(Mat_VarRead(mat.get(), variable.c_str()));
  if (!var) throw InputError("'" + file + "' has no variable '" + variable + "'");
  return var;
}

std::size_t element_count(const matvar_t* v) {
  std::size_t n = 1;
  for (int i = 0; i < v->rank; ++i) n *= v->dims[i];
  return n;
}

template <class T>
void append_as_double(const void* data, std::size_t n, std::vector<double>& out) {
  const T* p = static_cast<const T*>(data);
  for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<double>(p[i]));
}

// A char row as 8-bit or 16-bit code units; LIVE's names are ASCII.
std::string char_row(const matvar_t* v) {
  const std::size_t n = element_count(v);
  std::string s;
  if (!v->data) return s;
  if (v->data_type == MAT_T_UINT16 || v->data_type == MAT_T_UTF16 || v->data_type == MAT_T_INT16) {
    const auto* p = static_cast<const std::uint16_t*>(v->data);
    for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(p[i] < 128 ? p[i] : '?');
  } else {
    s.assign(static_cast<const char*>(v->data), n);
  }
  return s;
}

}  // namespace

std::vector<double> read_mat_numbers(const std::string& file, const std::string& variable) {
  const MatVar v = read_variable(file, variable);
  if (v->isComplex || !v->data)
    throw InputError("'" + file + "': variable '" + variable + "' is not a real numeric array");
  const std::size_t n = element_count(v.get());
  std::vector<double> out;
  out.reserve(n);
  switch (v->class_type) {
    case MAT_C_DOUBLE: append_as_double<double>(v->data, n, out); break;
    case MAT_C_SINGLE: append_as_double<float>(v->data, n, out); break;
    case MAT_C_INT8: append_as_double<std::int8_t>(v->data, n, out); break;
    case MAT_C_UINT8: append_as_double<std::uint8_t>(v->data, n, out); break;
    case MAT_C_INT16: append_as_double<std::int16_t>(v->data, n, out); break;
    case MAT_C_UINT16: append_as_double<std::uint16_t>(v->data, n, out); break;
    case MAT_C_INT32: append_as_double<std::int32_t>(v->data, n, out); break;
    case MAT_C_UINT32: append_as_double<std::uint32_t>(v->data, n, out); break;
    case MAT_C_INT64: append_as_double<std::int64_t>(v->data, n, out); break;
    case MAT_C_UINT64: append_as_double<std::uint64_t>(v->data, n, out); break;
    default: throw InputError("'" + file + "': variable '" + variable + "' is not a numeric array");
  }
  return out;
}

bool mat_has_variable(const std::string& file, const std::string& variable) {
  MatFile mat(Mat_Open(file.c_str(), MAT_ACC_RDONLY));
  if (!mat) return false;
  MatVar info(Mat_VarReadInfo(mat.get(), variable.c_str()));
  return info != nullptr;
}

std::vector<std::string> read_mat_strings(const std::string& file, const std::string& variable) {
  const MatVar v = read_variable(file, variable);
  if (v->class_type != MAT_C_CELL)
    throw InputError("'" + file + "': variable '" + variable + "' is not a cell array");
  const std::size_t n = element_count(v.get());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    const matvar_t* cell = Mat_VarGetCell(v.get(), static_cast<int>(i));
    if (!cell || cell->class_type != MAT_C_CHAR)
      throw InputError("'" + file + "': " + variable + "{" + std::to_string(i + 1) +
                       "} is not a character array");
    out.push_back(char_row(cell));
  }
  return out;
}

void write_mat_file(const std::string& file,
                    const std::vector<std::pair<std::string, std::vector<double>>>& numbers,
                    const std::vector<std::pair<std::string, std::vector<std::string>>>& strings) {
  MatFile mat(Mat_CreateVer(file.c_str(), nullptr, MAT_FT_MAT5));
  if (!mat) throw Error("cannot create MATLAB file '" + file + "'");
  for (const auto& [name, values] : numbers) {
    std::size_t dims[2] = {1, values.size()};
    MatVar v(Mat_VarCreate(name.c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims,
                           const_cast<double*>(values.data()), MAT_F_DONT_COPY_DATA));
    if (!v || Mat_VarWrite(mat.get(), v.get(), MAT_COMPRESSION_NONE) != 0)
      throw Error("cannot write '" + name + "' to '" + file + "'");
  }
  for (const auto& [name, values] : strings) {
    std::size_t dims[2] = {1, values.size()};
    // matio copies the (null) pointer array; the cell then owns what Mat_VarSetCell puts in.
    std::vector<matvar_t*> empty(values.size(), nullptr);
    MatVar cell(Mat_VarCreate(name.c_str(), MAT_C_CELL, MAT_T_CELL, 2, dims, empty.data(), 0));
    if (!cell) throw Error("cannot create cell '" + name + "'");
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::size_t cdims[2] = {1, values[i].size()};
      // The text is copied; the cell frees the element with itself.
      matvar_t* s = Mat_VarCreate(nullptr, MAT_C_CHAR, MAT_T_UINT8, 2, cdims,
                                  const_cast<char*>(values[i].data()), 0);
      Mat_VarSetCell(cell.get(), static_cast<int>(i), s);
    }
    if (Mat_VarWrite(mat.get(), cell.get(), MAT_COMPRESSION_NONE) != 0)
      throw Error("cannot write '" + name + "' to '" + file + "'");
  }
}

#else  // no libmatio

std::vector<double> read_mat_numbers(const std::string& file, const std::string&) {
  throw InputError(mat_unsupported_message(file));
}
bool mat_has_variable(const std::string&, const std::string&) {
  return false;
}
std::vector<std::string> read_mat_strings(const std::string& file, const std::string&) {
  throw InputError(mat_unsupported_message(file));
}
void write_mat_file(const std::string& file,
                    const std::vector<std::pair<std::string, std::vector<double>>>&,
                    const std::vector<std::pair<std::string, std::vector<std::string>>>&) {
  throw Error(mat_unsupported_message(file));
}

#endif

}  // namespace mad::datasets
