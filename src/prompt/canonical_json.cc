// canonical_json.cc: one spelling for every JSON value that reaches a rendered request: sorted
// keys, no whitespace, minimal string escapes, one number format. Used for tool schemas, tool-call
// arguments, and every string the renderers write.
#include "prompt/canonical_json.h"

#include "base/json_reader.h"
#include "strata/prompt.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace strata {

void AppendJsonEscaped(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t run = 0;  // start of the pending run of bytes that need no escape
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xF]);
    }
  }
  out->append(text.data() + run, text.size() - run);
}

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  AppendJsonEscaped(text, out);
  out->push_back('"');
}

namespace {

void AppendNumber(double value, std::string* out) {
  if (value == 0) {  // also -0
    out->push_back('0');
    return;
  }
  if (!std::isfinite(value)) {  // JSON has no spelling for these; nlohmann dumps null too
    out->append("null");
    return;
  }
  if (std::trunc(value) == value && std::fabs(value) < 9007199254740992.0) {
    out->append(std::to_string(static_cast<long long>(value)));
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out->append(buffer, result.ptr);
}

}  // namespace

void AppendCanonicalJson(const nlohmann::json& value, std::string* out) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::null:
    case Type::discarded:
    case Type::binary:
      out->append("null");
      return;
    case Type::boolean:
      out->append(value.get<bool>() ? "true" : "false");
      return;
    case Type::number_integer:
      out->append(std::to_string(value.get<int64_t>()));
      return;
    case Type::number_unsigned:
      out->append(std::to_string(value.get<uint64_t>()));
      return;
    case Type::number_float:
      AppendNumber(value.get<double>(), out);
      return;
    case Type::string:
      AppendJsonString(value.get_ref<const std::string&>(), out);
      return;
    case Type::array: {
      out->push_back('[');
      bool first = true;
      for (const auto& item : value) {
        if (!first) out->push_back(',');
        first = false;
        AppendCanonicalJson(item, out);
      }
      out->push_back(']');
      return;
    }
    case Type::object: {
      // nlohmann::json keeps objects in a std::map (byte order of the keys); sort explicitly
      // anyway so the rule does not rest on the container choice.
      std::vector<const std::pair<const std::string, nlohmann::json>*> members;
      members.reserve(value.size());
      for (const auto& member : value.get_ref<const nlohmann::json::object_t&>()) {
        members.push_back(&member);
      }
      std::sort(members.begin(), members.end(),
                [](const auto* a, const auto* b) { return a->first < b->first; });
      out->push_back('{');
      bool first = true;
      for (const auto* member : members) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(member->first, out);
        out->push_back(':');
        AppendCanonicalJson(member->second, out);
      }
      out->push_back('}');
      return;
    }
  }
}

Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view label) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return nlohmann::json::object();
  STRATA_TRY_ASSIGN(nlohmann::json value, ParseJson(text, label));
  if (value.is_null()) return nlohmann::json::object();
  return value;
}

bool AppendCanonicalJsonText(std::string_view text, std::string* out) {
  auto value = ParseJsonText(text, "");
  if (!value) {
    AppendJsonString(text, out);
    return false;
  }
  AppendCanonicalJson(*value, out);
  return true;
}

Result<std::string> CanonicalJsonText(std::string_view json_text, std::string_view label) {
  STRATA_TRY_ASSIGN(nlohmann::json value, ParseJsonText(json_text, label));
  return CanonicalJson(value);
}

std::string CanonicalJson(const nlohmann::json& value) {
  std::string out;
  AppendCanonicalJson(value, &out);
  return out;
}

}  // namespace strata
