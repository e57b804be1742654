//===- Record.cpp - cake-run's output record ------------------------------===//

#include "Cake/Runner/Record.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <cmath>

using namespace cake::runner;

void Record::set(llvm::StringRef key, llvm::json::Value value) {
  auto it = std::find_if(fields.begin(), fields.end(),
                         [&](const auto &field) { return field.first == key; });
  if (it != fields.end())
    it->second = std::move(value);
  else
    fields.emplace_back(key.str(), std::move(value));
}

const llvm::json::Value *Record::find(llvm::StringRef key) const {
  for (const auto &field : fields)
    if (field.first == key)
      return &field.second;
  return nullptr;
}

using Member = llvm::json::Object::value_type;

/// The members of `object` by key (llvm::json::Object is a hash map).
static std::vector<const Member *> sortedMembers(const llvm::json::Object &object) {
  std::vector<const Member *> members;
  for (const Member &member : object)
    members.push_back(&member);
  std::sort(members.begin(), members.end(),
            [](const Member *a, const Member *b) { return a->first < b->first; });
  return members;
}

void Record::merge(const llvm::json::Object &object) {
  // The object's own order is lost in parsing: known keys keep the record's order, new ones
  // follow sorted.
  for (const Member *member : sortedMembers(object))
    set(member->first, member->second);
}

namespace {
/// One-line JSON in the record's documented style (docs/Runner.md): ", " and ": " between
/// items, doubles in their shortest round-trip form (llvm::json's printer writes 17 digits:
/// 1e-05 as 1.0000000000000001e-05), nested objects with sorted keys.
void print(const llvm::json::Value &value, llvm::raw_ostream &os) {
  switch (value.kind()) {
  case llvm::json::Value::Number:
    if (std::optional<int64_t> exact = value.getAsInteger()) {
      os << *exact;
      return;
    }
    if (std::optional<uint64_t> big = value.getAsUINT64()) {
      os << *big;
      return;
    }
    if (double d = *value.getAsNumber(); std::isfinite(d)) {
      char buffer[32];
      auto result = std::to_chars(buffer, buffer + sizeof(buffer), d);
      os << llvm::StringRef(buffer, result.ptr - buffer);
    } else {
      os << "null"; // JSON has no NaN or infinity.
    }
    return;
  case llvm::json::Value::Array: {
    os << '[';
    bool first = true;
    for (const llvm::json::Value &item : *value.getAsArray()) {
      os << (first ? "" : ", ");
      print(item, os);
      first = false;
    }
    os << ']';
    return;
  }
  case llvm::json::Value::Object: {
    std::vector<const Member *> members = sortedMembers(*value.getAsObject());
    os << '{';
    for (size_t i = 0; i < members.size(); ++i) {
      os << (i ? ", " : "") << llvm::json::Value(members[i]->first) << ": ";
      print(members[i]->second, os);
    }
    os << '}';
    return;
  }
  default:
    os << value; // null, booleans and strings (escaped) as llvm::json writes them.
    return;
  }
}
} // namespace

std::string Record::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '{';
  for (size_t i = 0; i < fields.size(); ++i) {
    os << (i ? ", " : "") << llvm::json::Value(fields[i].first) << ": ";
    print(fields[i].second, os);
  }
  os << '}';
  return text;
}
