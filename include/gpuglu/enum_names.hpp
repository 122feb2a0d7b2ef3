#pragma once
// One name table per enum of the options: the core's to_string / parse, the PETSc
// adapter's option lists (-help shows them) and the docs all read the same table, so that a
// new value is one line and no spelling can go stale.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace gpuglu {

template <class E>
struct EnumName {
  E value;
  const char* name;  // a literal: the PETSc adapter hands these to PetscOptionsEList
};

template <class E, std::size_t N>
constexpr std::string_view name_in(const std::array<EnumName<E>, N>& table, E value) noexcept {
  for (const EnumName<E>& e : table)
    if (e.value == value) return e.name;
  return "?";
}

template <class E, std::size_t N>
constexpr std::optional<E> value_in(const std::array<EnumName<E>, N>& table, std::string_view name) noexcept {
  for (const EnumName<E>& e : table)
    if (name == e.name) return e.value;
  return std::nullopt;
}

// The position of value in the table (0 when absent), and the names in table order.
template <class E, std::size_t N>
constexpr std::size_t index_in(const std::array<EnumName<E>, N>& table, E value) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i].value == value) return i;
  return 0;
}

template <class E, std::size_t N>
constexpr std::array<const char*, N> names_of(const std::array<EnumName<E>, N>& table) noexcept {
  std::array<const char*, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = table[i].name;
  return names;
}

}  // namespace gpuglu
