//===- Json.h - A tiny JSON value, parser and writer ------------*- C++ -*-===//
//
// Part of CAKE's runner support library: plain C++17, no exceptions, no RTTI.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_RUNNER_JSON_H
#define CAKE_RUNNER_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cake::runner {

/// A JSON value. Objects keep their keys in insertion order so that written
/// records have a stable field order.
class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  JsonValue() = default;
  static JsonValue null() { return JsonValue(); }
  static JsonValue boolean(bool b);
  /// A number; stored exactly as an integer when `isInteger()`.
  static JsonValue number(double d);
  static JsonValue integer(int64_t i);
  static JsonValue string(std::string s);
  static JsonValue array();
  static JsonValue object();

  Kind kind() const { return k; }
  bool isNull() const { return k == Kind::Null; }
  bool isBool() const { return k == Kind::Bool; }
  bool isNumber() const { return k == Kind::Number; }
  bool isString() const { return k == Kind::String; }
  bool isArray() const { return k == Kind::Array; }
  bool isObject() const { return k == Kind::Object; }
  /// True for a number written without fraction/exponent that fits in int64
  /// (or created with `integer`).
  bool isInteger() const { return k == Kind::Number && exactInt; }

  bool getBool() const { return b; }
  double getNumber() const { return num; }
  int64_t getInteger() const { return i64; }
  const std::string &getString() const { return str; }
  const std::vector<JsonValue> &getArray() const { return arr; }
  const std::vector<std::pair<std::string, JsonValue>> &getObject() const {
    return obj;
  }

  /// Object member lookup; null when absent or not an object.
  const JsonValue *find(std::string_view key) const;
  /// Sets (or replaces) an object member. The value must be an object.
  JsonValue &set(std::string_view key, JsonValue value);
  /// Appends to an array. The value must be an array.
  JsonValue &push(JsonValue value);

  /// Serializes compactly on one line. Non-finite numbers become null.
  std::string toString() const;

private:
  void write(std::string &out) const;

  Kind k = Kind::Null;
  bool b = false;
  bool exactInt = false;
  double num = 0;
  int64_t i64 = 0;
  std::string str;
  std::vector<JsonValue> arr;
  std::vector<std::pair<std::string, JsonValue>> obj;
};

/// Parses one JSON document (trailing whitespace allowed). On failure returns
/// false and sets `error` to "line L, col C: message" (both 1-based).
bool parseJson(std::string_view text, JsonValue &out, std::string &error);

/// Appends `s` as a quoted JSON string literal to `out`.
void writeJsonString(std::string_view s, std::string &out);

/// A short name of a JSON kind, for messages ("object", "string", ...).
const char *jsonKindName(JsonValue::Kind kind);

} // namespace cake::runner

#endif // CAKE_RUNNER_JSON_H
