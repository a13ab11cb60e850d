// json_reader.cc: ParseJson and JsonObjectReader (see json_reader.h for the strictness rules).
#include "base/json_reader.h"

#include <algorithm>

namespace strata {

using nlohmann::json;

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong form, no
// surrogate, at most U+10FFFF), or 0.
size_t Utf8SequenceAt(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xC2 && c <= 0xDF   ? 2
             : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF4 ? 4
                                      : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  }
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(i + 1) > 0x9F) return 0;  // a surrogate
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(i + 1) > 0x8F) return 0;  // beyond U+10FFFF
  return n;
}

}  // namespace

std::string EscapeInvalidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (size_t n = Utf8SequenceAt(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    static constexpr char kHex[] = "0123456789ABCDEF";
    const auto c = static_cast<unsigned char>(s[i++]);
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

namespace {

// json::parse's document builder (nlohmann's json_sax_dom_parser: same values, last duplicate key
// wins, errors thrown with their position) but a string is moved out of the lexer's buffer where
// nlohmann copies it, so a document of one long string holds its bytes twice at the peak (the
// text and the value) instead of three times.
class MovingDomBuilder {
 public:
  explicit MovingDomBuilder(json* root) : root_(root) {}
  bool null() { return Add(nullptr) != nullptr; }
  bool boolean(bool v) { return Add(v) != nullptr; }
  bool number_integer(json::number_integer_t v) { return Add(v) != nullptr; }
  bool number_unsigned(json::number_unsigned_t v) { return Add(v) != nullptr; }
  bool number_float(json::number_float_t v, const std::string&) { return Add(v) != nullptr; }
  bool string(std::string& v) { return Add(std::move(v)) != nullptr; }
  bool binary(json::binary_t& v) { return Add(json::binary(std::move(v))) != nullptr; }
  bool start_object(size_t) {
    open_.push_back(Add(json::object()));
    return true;
  }
  bool key(std::string& k) {
    element_ = &(*open_.back())[std::move(k)];
    return true;
  }
  bool end_object() {
    open_.pop_back();
    return true;
  }
  bool start_array(size_t) {
    open_.push_back(Add(json::array()));
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  template <class Exception>
  bool parse_error(size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  // The value's place: the root, the open array's next element or the open object's last key.
  // A pointer into an open container stays valid: only the innermost one grows.
  json* Add(json&& v) {
    if (open_.empty()) {
      *root_ = std::move(v);
      return root_;
    }
    if (open_.back()->is_array()) {
      open_.back()->push_back(std::move(v));
      return &open_.back()->back();
    }
    *element_ = std::move(v);
    return element_;
  }

  json* root_;
  std::vector<json*> open_;
  json* element_ = nullptr;
};

}  // namespace

Result<json> ParseJson(std::string_view text, std::string_view path, int first_line) {
  size_t offset = 0;
  std::string reason;
  try {
    json value;
    MovingDomBuilder builder(&value);
    json::sax_parse(text, &builder);
    return value;
  } catch (const json::parse_error& e) {
    // e.byte is 1-based: the byte at which parsing failed; past the end means the text stopped.
    offset = e.byte > 0 ? std::min<size_t>(e.byte - 1, text.size()) : 0;
    reason = e.what();
  } catch (const json::exception& e) {
    // A number too large for a double (out_of_range 406) carries no position.
    reason = e.what();
  }
  size_t colon = reason.find(": ");
  if (colon != std::string::npos) reason.erase(0, colon + 2);
  reason = EscapeInvalidUtf8(reason);  // nlohmann quotes the bytes it read ("last read: '...'")
  Location at = LocationAt(path, text, offset);
  at.line += first_line - 1;
  return MakeError(ErrorKind::kParse, "not valid JSON: " + reason, at);
}

JsonObjectReader::JsonObjectReader(const json& object, std::string member_path, Location where,
                                   JsonStrictness strictness)
    : object_(object),
      path_(std::move(member_path)),
      where_(std::move(where)),
      strictness_(strictness) {}

std::string JsonObjectReader::PathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

std::string JsonObjectReader::PathOf(std::string_view key, size_t index) const {
  return PathOf(key) + "[" + std::to_string(index) + "]";
}

tl::unexpected<Error> JsonObjectReader::Fail(std::string_view key, std::string_view message) const {
  std::string subject = key.empty() ? (path_.empty() ? "the top level" : path_) : PathOf(key);
  return MakeError(ErrorKind::kParse, "'" + subject + "' " + std::string(message), where_);
}

Status JsonObjectReader::ExpectObject(std::string_view what) const {
  if (object_.is_object()) return {};
  return Fail("", "must be " + std::string(what) + " (a JSON object)");
}

const json* JsonObjectReader::Find(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
  if (!object_.is_object()) return nullptr;
  auto it = object_.find(std::string(key));
  return it == object_.end() ? nullptr : &*it;
}

bool JsonObjectReader::Has(std::string_view key) { return Find(key) != nullptr; }

const json* JsonObjectReader::Raw(std::string_view key) { return Find(key); }

Status JsonObjectReader::String(std::string_view key, std::string* out) {
  const json* v = Find(key);
  if (v == nullptr) return {};
  if (!v->is_string()) return Fail(key, "must be a string");
  *out = v->get<std::string>();
  return {};
}

Status JsonObjectReader::RequiredString(std::string_view key, std::string* out) {
  if (Find(key) == nullptr) return Fail(key, "is required (a string)");
  return String(key, out);
}

Status JsonObjectReader::Bool(std::string_view key, bool* out) {
  const json* v = Find(key);
  if (v == nullptr) return {};
  if (!v->is_boolean()) return Fail(key, "must be true or false");
  *out = v->get<bool>();
  return {};
}

Status JsonObjectReader::Int(std::string_view key, int64_t* out, int64_t min, int64_t max) {
  const json* v = Find(key);
  if (v == nullptr) return {};
  std::string range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (v->is_number_unsigned()) {
    uint64_t u = v->get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX) || static_cast<int64_t>(u) > max)
      return Fail(key, "must be " + range);
    *out = static_cast<int64_t>(u);
  } else if (v->is_number_integer()) {
    *out = v->get<int64_t>();
  } else {
    return Fail(key, "must be " + range);
  }
  if (*out < min || *out > max) return Fail(key, "must be " + range);
  return {};
}

Status JsonObjectReader::StringArray(std::string_view key, std::vector<std::string>* out) {
  const json* v = Find(key);
  if (v == nullptr) return {};
  if (!v->is_array()) return Fail(key, "must be an array of strings");
  for (size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string())
      return MakeError(ErrorKind::kParse, "'" + PathOf(key, i) + "' must be a string", where_);
    out->push_back((*v)[i].get<std::string>());
  }
  return {};
}

Status JsonObjectReader::StringMap(std::string_view key,
                                   std::vector<std::pair<std::string, std::string>>* out) {
  const json* v = Find(key);
  if (v == nullptr) return {};
  if (!v->is_object()) return Fail(key, "must be an object of strings");
  for (const auto& [k, item] : v->items()) {  // nlohmann::json objects are std::map: sorted keys
    if (!item.is_string())
      return MakeError(ErrorKind::kParse, "'" + PathOf(key) + "." + k + "' must be a string",
                       where_);
    out->emplace_back(k, item.get<std::string>());
  }
  return {};
}

Result<const json*> JsonObjectReader::Array(std::string_view key) {
  const json* v = Find(key);
  if (v != nullptr && !v->is_array()) return Fail(key, "must be an array");
  return v;
}

Status JsonObjectReader::Finish() const {
  if (strictness_ == JsonStrictness::kLenient || !object_.is_object()) return {};
  for (const auto& [k, v] : object_.items()) {
    if (std::find(known_.begin(), known_.end(), k) != known_.end()) continue;
    std::string message = "is not a known member";
    std::string near = ClosestName(k, known_);
    if (!near.empty()) message += "; did you mean '" + near + "'?";
    std::vector<std::string> sorted = known_;
    std::sort(sorted.begin(), sorted.end());
    std::string list;
    for (const auto& s : sorted) list += (list.empty() ? "" : ", ") + s;
    message += " (known: " + list + ")";
    return Fail(k, message);
  }
  return {};
}

std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = word.size() / 2 + 1;
  for (const std::string& c : candidates) {
    // Levenshtein distance, one row at a time.
    std::vector<size_t> row(c.size() + 1);
    for (size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= word.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= c.size(); ++j) {
        size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (word[i - 1] != c[j - 1])});
        diagonal = above;
      }
    }
    if (row[c.size()] < best_distance) {
      best_distance = row[c.size()];
      best = c;
    }
  }
  return best;
}

}  // namespace strata
