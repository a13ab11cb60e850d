// request_text.h (private): the bytes of the request replay is at, rewritten in place from one
// request to the next so that replay's work per request is in its new bytes, not in the whole
// conversation (a long session's requests share all but their last few kilobytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace strata {

// The bytes of the request replay is at, kept from one request to the next: each request is
// written over the previous one, so only the bytes after the prefix both share are copied, and
// `shared()` says how long that prefix is (exactly: the leading bytes equal in both).
class RequestText {
 public:
  // A run of the new request's bytes. `unchanged`: the caller guarantees that these bytes already
  // stand at this offset (the previous request had them there), so they are neither compared nor
  // copied. Only a layout that knows its output is append-only may say so (StrataLayout: the
  // history a ContextSession renders only grows).
  struct Part {
    std::string_view bytes;
    bool unchanged = false;
  };
  // The request becomes the parts' concatenation; the parts must not view this object's bytes.
  void Set(std::span<const Part> parts);
  void Set(std::string_view whole) {
    Part part{whole};
    Set(std::span(&part, 1));
  }
  // The request becomes the parts' concatenation followed by `tail`. When the tail is the larger
  // part (a huge new message) its buffer becomes this object's: the parts are written in front of
  // it and the tail is not copied (replay would otherwise hold the session's rendered tail and a
  // copy of it at once). Otherwise as Set(parts, then the tail as one more part).
  void Set(std::span<const Part> parts, std::string tail);

  std::string_view bytes() const { return bytes_; }
  size_t shared() const { return shared_; }  // leading bytes equal to the previous request's
  // Counts the Set calls: a layout marks bytes unchanged only when it wrote the previous request.
  uint64_t version() const { return version_; }
  // Bytes the last Set copied into this object from its arguments (unchanged bytes, bytes equal to
  // the previous request's and an adopted tail are not copied).
  size_t copied() const { return copied_; }

 private:
  std::string bytes_;
  size_t shared_ = 0;
  uint64_t version_ = 0;
  size_t copied_ = 0;
};

}  // namespace strata
