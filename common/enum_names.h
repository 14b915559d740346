// The one way an enum's user-visible names are kept: a table of {value, name} pairs, in the order
// listings show them, read by the helpers below. A value and its name are written once, so the
// name function, the list of all values and the parser cannot disagree.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"

namespace mad {

template <class E>
using EnumName = std::pair<E, const char*>;

// The name of `value`; Error (a programming error) for a value missing from the table.
template <class E, std::size_t N>
const char* enum_name(const EnumName<E> (&table)[N], E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  throw Error("a value without a name in its enum table");
}

// Every value, in table order.
template <class E, std::size_t N>
std::vector<E> enum_values(const EnumName<E> (&table)[N]) {
  std::vector<E> values;
  for (const auto& entry : table) values.push_back(entry.first);
  return values;
}

// The names joined by ", " (for messages that list the accepted values).
template <class E, std::size_t N>
std::string enum_names_joined(const EnumName<E> (&table)[N]) {
  std::string joined;
  for (const auto& entry : table)
    joined += (joined.empty() ? "" : ", ") + std::string(entry.second);
  return joined;
}

}  // namespace mad
