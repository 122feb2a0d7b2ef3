#pragma once
// Storage whose pages the first writer touches. A std::vector's elements are value-initialized
// when it is sized, a serial pass that takes the page faults of every fresh page on one thread;
// a large factor's panels and sweep layout are written by a team right after (the scatter's
// fill, the layout's copy), so they are sized without it and the team faults the pages in.
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace gpuglu {

// An allocator whose construct() with no arguments default-initializes: for double, nothing.
template <class T>
struct FirstTouchAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = FirstTouchAllocator<U>;
  };
  FirstTouchAllocator() = default;
  template <class U>
  FirstTouchAllocator(const FirstTouchAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// Sized with resize(n): its entries hold whatever the first writer puts there.
template <class T>
using FirstTouchVector = std::vector<T, FirstTouchAllocator<T>>;

}  // namespace gpuglu
