// enum_names.h: one table per enum maps values to their stable names and back, so flags, JSON
// and messages never spell an enum's names in two places.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "strata/status.h"

namespace strata {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

// The name of `value` in `table`, or "" when the table lacks it.
template <class E, size_t N>
constexpr std::string_view NameOf(const EnumName<E> (&table)[N], E value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return {};
}

// The value named `name` (exact, case-sensitive), or nullopt.
template <class E, size_t N>
constexpr std::optional<E> ValueOf(const EnumName<E> (&table)[N], std::string_view name) {
  for (const auto& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

// "a, b, c": every name in table order, for "valid values:" messages.
template <class E, size_t N>
std::string NameList(const EnumName<E> (&table)[N]) {
  std::string out;
  for (const auto& entry : table) out += (out.empty() ? "" : ", ") + std::string(entry.name);
  return out;
}

// The value named `name`, or kInvalidArgument "unknown <what> '<name>' (<every name>)".
template <class E, size_t N>
Result<E> ParseName(const EnumName<E> (&table)[N], std::string_view name, std::string_view what) {
  if (auto value = ValueOf(table, name)) return *value;
  return MakeError(
      ErrorKind::kInvalidArgument,
      "unknown " + std::string(what) + " '" + std::string(name) + "' (" + NameList(table) + ")");
}

}  // namespace strata
