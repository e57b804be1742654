//===- Json.cpp - A tiny JSON value, parser and writer --------------------===//

#include "Cake/Runner/Json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace cake::runner;

JsonValue JsonValue::boolean(bool value) {
  JsonValue v;
  v.k = Kind::Bool;
  v.b = value;
  return v;
}

JsonValue JsonValue::number(double d) {
  JsonValue v;
  v.k = Kind::Number;
  v.num = d;
  return v;
}

JsonValue JsonValue::integer(int64_t i) {
  JsonValue v;
  v.k = Kind::Number;
  v.num = static_cast<double>(i);
  v.i64 = i;
  v.exactInt = true;
  return v;
}

JsonValue JsonValue::string(std::string s) {
  JsonValue v;
  v.k = Kind::String;
  v.str = std::move(s);
  return v;
}

JsonValue JsonValue::array() {
  JsonValue v;
  v.k = Kind::Array;
  return v;
}

JsonValue JsonValue::object() {
  JsonValue v;
  v.k = Kind::Object;
  return v;
}

const JsonValue *JsonValue::find(std::string_view key) const {
  if (k != Kind::Object)
    return nullptr;
  for (const auto &member : obj)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

JsonValue &JsonValue::set(std::string_view key, JsonValue value) {
  for (auto &member : obj)
    if (member.first == key) {
      member.second = std::move(value);
      return member.second;
    }
  obj.emplace_back(std::string(key), std::move(value));
  return obj.back().second;
}

JsonValue &JsonValue::push(JsonValue value) {
  arr.push_back(std::move(value));
  return arr.back();
}

const char *cake::runner::jsonKindName(JsonValue::Kind kind) {
  switch (kind) {
  case JsonValue::Kind::Null:
    return "null";
  case JsonValue::Kind::Bool:
    return "boolean";
  case JsonValue::Kind::Number:
    return "number";
  case JsonValue::Kind::String:
    return "string";
  case JsonValue::Kind::Array:
    return "array";
  case JsonValue::Kind::Object:
    return "object";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

void cake::runner::writeJsonString(std::string_view s, std::string &out) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

void JsonValue::write(std::string &out) const {
  switch (k) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += b ? "true" : "false";
    return;
  case Kind::Number: {
    if (exactInt) {
      out += std::to_string(i64);
      return;
    }
    if (!std::isfinite(num)) {
      out += "null";
      return;
    }
    // Shortest representation that round-trips.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof(buf), num);
    out.append(buf, res.ptr);
    return;
  }
  case Kind::String:
    writeJsonString(str, out);
    return;
  case Kind::Array: {
    out += '[';
    for (size_t i = 0; i < arr.size(); ++i) {
      if (i)
        out += ", ";
      arr[i].write(out);
    }
    out += ']';
    return;
  }
  case Kind::Object: {
    out += '{';
    for (size_t i = 0; i < obj.size(); ++i) {
      if (i)
        out += ", ";
      writeJsonString(obj[i].first, out);
      out += ": ";
      obj[i].second.write(out);
    }
    out += '}';
    return;
  }
  }
}

std::string JsonValue::toString() const {
  std::string out;
  write(out);
  return out;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {
/// Recursive-descent parser over a string_view; the first error wins.
class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  bool parseDocument(JsonValue &out, std::string &error) {
    skipSpace();
    if (!parseValue(out, 0))
      return fail(error);
    skipSpace();
    if (pos != text.size()) {
      setError("unexpected trailing characters");
      return fail(error);
    }
    return true;
  }

private:
  static constexpr int kMaxDepth = 256;

  bool fail(std::string &error) {
    // Compute the line/column of the error position.
    size_t line = 1, col = 1;
    for (size_t i = 0; i < errPos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error = "line " + std::to_string(line) + ", col " + std::to_string(col) +
            ": " + message;
    return false;
  }

  bool setError(std::string msg) {
    if (message.empty()) {
      message = std::move(msg);
      errPos = pos;
    }
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool expectLiteral(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return setError("invalid literal");
    pos += word.size();
    return true;
  }

  bool parseValue(JsonValue &out, int depth) {
    if (depth > kMaxDepth)
      return setError("nesting too deep");
    switch (peek()) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"': {
      std::string s;
      if (!parseString(s))
        return false;
      out = JsonValue::string(std::move(s));
      return true;
    }
    case 't':
      out = JsonValue::boolean(true);
      return expectLiteral("true");
    case 'f':
      out = JsonValue::boolean(false);
      return expectLiteral("false");
    case 'n':
      out = JsonValue::null();
      return expectLiteral("null");
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber(out);
      if (atEnd())
        return setError("unexpected end of input");
      return setError(std::string("unexpected character '") + peek() + "'");
    }
  }

  bool parseObject(JsonValue &out, int depth) {
    out = JsonValue::object();
    ++pos; // '{'
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return setError("expected a string key");
      size_t keyPos = pos;
      std::string key;
      if (!parseString(key))
        return false;
      if (out.find(key)) {
        pos = keyPos;
        return setError("duplicate key \"" + key + "\"");
      }
      skipSpace();
      if (peek() != ':')
        return setError("expected ':'");
      ++pos;
      skipSpace();
      JsonValue member;
      if (!parseValue(member, depth + 1))
        return false;
      out.set(key, std::move(member));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return true;
      }
      return setError("expected ',' or '}'");
    }
  }

  bool parseArray(JsonValue &out, int depth) {
    out = JsonValue::array();
    ++pos; // '['
    skipSpace();
    if (peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      JsonValue element;
      if (!parseValue(element, depth + 1))
        return false;
      out.push(std::move(element));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return true;
      }
      return setError("expected ',' or ']'");
    }
  }

  bool parseHex4(uint32_t &value) {
    value = 0;
    for (int i = 0; i < 4; ++i, ++pos) {
      char c = peek();
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= c - '0';
      else if (c >= 'a' && c <= 'f')
        value |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        value |= c - 'A' + 10;
      else
        return setError("invalid \\u escape");
    }
    return true;
  }

  static void appendUtf8(uint32_t cp, std::string &out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseString(std::string &out) {
    ++pos; // opening quote
    while (true) {
      if (atEnd())
        return setError("unterminated string");
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return setError("control character in string");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      char e = peek();
      ++pos;
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00 && text.substr(pos, 2) == "\\u") {
          pos += 2;
          uint32_t low;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low >= 0xE000)
            return setError("invalid surrogate pair");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(cp, out);
        break;
      }
      default:
        --pos;
        return setError("invalid escape sequence");
      }
    }
  }

  bool parseNumber(JsonValue &out) {
    size_t start = pos;
    bool integral = true;
    if (peek() == '-')
      ++pos;
    if (peek() == '0') {
      ++pos;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    } else {
      return setError("invalid number");
    }
    if (peek() == '.') {
      integral = false;
      ++pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return setError("invalid number: digit expected after '.'");
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!(peek() >= '0' && peek() <= '9'))
        return setError("invalid number: digit expected in exponent");
      while (peek() >= '0' && peek() <= '9')
        ++pos;
    }
    std::string literal(text.substr(start, pos - start));
    if (integral) {
      int64_t value = 0;
      auto res = std::from_chars(literal.data(), literal.data() + literal.size(),
                                 value);
      if (res.ec == std::errc() && res.ptr == literal.data() + literal.size()) {
        out = JsonValue::integer(value);
        return true;
      }
    }
    out = JsonValue::number(std::strtod(literal.c_str(), nullptr));
    return true;
  }

  std::string_view text;
  size_t pos = 0;
  std::string message;
  size_t errPos = 0;
};
} // namespace

bool cake::runner::parseJson(std::string_view text, JsonValue &out,
                             std::string &error) {
  Parser parser(text);
  return parser.parseDocument(out, error);
}
