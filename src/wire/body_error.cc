// body_error.cc: the member a JSON parse error is in, found by parsing the body again with a SAX
// handler that keeps the path (body_error.h).
#include "wire/body_error.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <vector>

namespace strata::serve {
namespace {

using Json = nlohmann::json;

// The path of the value being read: object keys and array indices from the top.
class PathTracker : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    levels_.push_back({false, 0, "", false});
    return true;
  }
  bool key(string_t& key) override {
    levels_.back().key = key;
    levels_.back().has_key = true;
    return true;
  }
  bool end_object() override {
    levels_.pop_back();
    return Value();
  }
  bool start_array(std::size_t) override {
    levels_.push_back({true, 0, "", false});
    return true;
  }
  bool end_array() override {
    levels_.pop_back();
    return Value();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  // The member being read when the parser stopped; in an object between members, the object's
  // path and " (a member name)".
  std::string Path() const {
    std::string out;
    for (size_t i = 0; i < levels_.size(); ++i) {
      const Level& l = levels_[i];
      if (l.array) {
        out += fmt::format("[{}]", l.index);
      } else if (l.has_key) {
        out += (out.empty() ? "" : ".") + l.key;
      } else {
        return out + (i + 1 == levels_.size() ? " (a member name)" : "");
      }
    }
    return out;
  }

 private:
  struct Level {
    bool array;
    size_t index;  // arrays: the element being read
    std::string key;
    bool has_key;  // objects: a key was read and its value not yet finished
  };
  bool Value() {
    if (levels_.empty()) return true;
    Level& l = levels_.back();
    if (l.array)
      ++l.index;
    else
      l.has_key = false;
    return true;
  }
  std::vector<Level> levels_;
};

}  // namespace

ApiError DescribeBodyError(std::string_view body, const Error& error) {
  PathTracker tracker;
  (void)Json::sax_parse(body, &tracker, nlohmann::detail::input_format_t::json, true, false);
  std::string path = tracker.Path();
  const std::string param = path.substr(0, path.find(' '));
  const std::string at = fmt::format("line {}, column {}", error.where.line, error.where.column);
  const std::string_view member = path.empty() ? std::string_view("the body") : path;
  std::string message;
  if (error.message.find("UTF-8") != std::string::npos) {
    message = fmt::format("{}: not valid UTF-8 (at {}): send the text as UTF-8", member, at);
  } else {
    // The parser's reason, without the bytes it quotes ("last read: ..."), which may not be text.
    std::string reason = error.message.substr(0, error.message.find("; last read"));
    message = fmt::format("the body is not valid JSON at {} ({}): {}", member, at, reason);
  }
  return ApiError{400, "invalid_request_error", std::move(message), param};
}

}  // namespace strata::serve
