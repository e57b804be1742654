//===- Expr.cpp - The manifest's size-expression language -----------------===//

#include "Cake/ABI/Expr.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

using namespace cake::abi;
using Op = ExprNode::Op;

int64_t cake::abi::floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t cake::abi::ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

int64_t cake::abi::floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

namespace {

/// Recursive-descent parser. Grammar:
///   constraint := sum cmp sum
///   sum        := product (('+' | '-') product)*
///   product    := unary (('*' | 'floordiv' | 'ceildiv' | 'mod') unary)*
///   unary      := '-' unary | primary
///   primary    := INT | IDENT | FUNC '(' sum ',' sum ')' | '(' sum ')'
class ExprParser {
public:
  explicit ExprParser(std::string_view text) : text(text) {}

  std::unique_ptr<ExprNode> parseTop(bool constraint) {
    auto lhs = parseSum();
    if (!lhs)
      return nullptr;
    if (constraint) {
      skipSpace();
      Op cmp;
      if (!parseComparison(cmp))
        return fail("expected a comparison (== != < <= > >=)");
      auto rhs = parseSum();
      if (!rhs)
        return nullptr;
      lhs = makeBinary(cmp, std::move(lhs), std::move(rhs));
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected '" + std::string(1, text[pos]) + "'");
    return lhs;
  }

  std::string error() const {
    return "col " + std::to_string(errPos + 1) + ": " + message + " in '" +
           std::string(text) + "'";
  }

private:
  std::nullptr_t fail(std::string msg) {
    if (message.empty()) {
      message = std::move(msg);
      errPos = pos;
    }
    return nullptr;
  }

  static std::unique_ptr<ExprNode> makeBinary(Op op,
                                              std::unique_ptr<ExprNode> lhs,
                                              std::unique_ptr<ExprNode> rhs) {
    auto node = std::make_unique<ExprNode>();
    node->op = op;
    node->lhs = std::move(lhs);
    node->rhs = std::move(rhs);
    return node;
  }

  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  static bool isIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  static bool isIdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  }

  /// Reads an identifier at `pos` without consuming it.
  std::string_view peekIdent() {
    skipSpace();
    size_t end = pos;
    if (end < text.size() && isIdentStart(text[end]))
      while (end < text.size() && isIdentChar(text[end]))
        ++end;
    return text.substr(pos, end - pos);
  }

  bool parseComparison(Op &op) {
    std::string_view rest = text.substr(pos);
    struct { const char *spelling; Op op; } table[] = {
        {"==", Op::Eq}, {"!=", Op::Ne}, {"<=", Op::Le},
        {">=", Op::Ge}, {"<", Op::Lt},  {">", Op::Gt}};
    for (const auto &entry : table) {
      std::string_view s(entry.spelling);
      if (rest.substr(0, s.size()) == s) {
        pos += s.size();
        op = entry.op;
        return true;
      }
    }
    return false;
  }

  std::unique_ptr<ExprNode> parseSum() {
    auto lhs = parseProduct();
    while (lhs) {
      Op op;
      if (consume('+'))
        op = Op::Add;
      else if (consume('-'))
        op = Op::Sub;
      else
        break;
      auto rhs = parseProduct();
      if (!rhs)
        return nullptr;
      lhs = makeBinary(op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  std::unique_ptr<ExprNode> parseProduct() {
    auto lhs = parseUnary();
    while (lhs) {
      Op op;
      std::string_view word = peekIdent();
      if (consume('*'))
        op = Op::Mul;
      else if (word == "floordiv")
        op = Op::FloorDiv;
      else if (word == "ceildiv")
        op = Op::CeilDiv;
      else if (word == "mod")
        op = Op::Mod;
      else
        break;
      if (op != Op::Mul)
        pos += word.size();
      auto rhs = parseUnary();
      if (!rhs)
        return nullptr;
      lhs = makeBinary(op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  std::unique_ptr<ExprNode> parseUnary() {
    if (consume('-')) {
      auto operand = parseUnary();
      if (!operand)
        return nullptr;
      auto node = std::make_unique<ExprNode>();
      node->op = Op::Neg;
      node->lhs = std::move(operand);
      return node;
    }
    return parsePrimary();
  }

  std::unique_ptr<ExprNode> parsePrimary() {
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end of expression");
    char c = text[pos];
    if (c == '(') {
      ++pos;
      auto inner = parseSum();
      if (!inner)
        return nullptr;
      if (!consume(')'))
        return fail("expected ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = pos;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
      auto node = std::make_unique<ExprNode>();
      auto res = std::from_chars(text.data() + pos, text.data() + end, node->value);
      if (res.ec != std::errc())
        return fail("integer literal out of range");
      pos = end;
      return node;
    }
    if (isIdentStart(c)) {
      std::string_view word = peekIdent();
      static const struct { const char *name; Op op; } functions[] = {
          {"ceildiv", Op::CeilDiv}, {"floordiv", Op::FloorDiv},
          {"mod", Op::Mod},         {"min", Op::Min},
          {"max", Op::Max}};
      for (const auto &fn : functions) {
        if (word != fn.name)
          continue;
        pos += word.size();
        if (!consume('('))
          return fail("expected '(' after '" + std::string(word) + "'");
        auto a = parseSum();
        if (!a)
          return nullptr;
        if (!consume(','))
          return fail("expected ','");
        auto b = parseSum();
        if (!b)
          return nullptr;
        if (!consume(')'))
          return fail("expected ')'");
        return makeBinary(fn.op, std::move(a), std::move(b));
      }
      auto node = std::make_unique<ExprNode>();
      node->op = Op::Symbol;
      node->name = std::string(word);
      pos += word.size();
      return node;
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }

  std::string_view text;
  size_t pos = 0;
  std::string message;
  size_t errPos = 0;
};

/// Evaluates `node`; the first error wins.
bool evalNode(const ExprNode &node, const SymbolMap &symbols, int64_t &out,
              std::string &error) {
  switch (node.op) {
  case Op::Literal:
    out = node.value;
    return true;
  case Op::Symbol: {
    auto it = symbols.find(node.name);
    if (it == symbols.end()) {
      error = "unknown symbol '" + node.name + "'";
      return false;
    }
    out = it->second;
    return true;
  }
  case Op::Neg: {
    int64_t a;
    if (!evalNode(*node.lhs, symbols, a, error))
      return false;
    if (__builtin_sub_overflow(int64_t(0), a, &out)) {
      error = "integer overflow";
      return false;
    }
    return true;
  }
  default:
    break;
  }

  int64_t a, b;
  if (!evalNode(*node.lhs, symbols, a, error) ||
      !evalNode(*node.rhs, symbols, b, error))
    return false;
  bool overflow = false;
  switch (node.op) {
  case Op::Add:
    overflow = __builtin_add_overflow(a, b, &out);
    break;
  case Op::Sub:
    overflow = __builtin_sub_overflow(a, b, &out);
    break;
  case Op::Mul:
    overflow = __builtin_mul_overflow(a, b, &out);
    break;
  case Op::FloorDiv:
  case Op::CeilDiv:
  case Op::Mod:
    if (b == 0) {
      error = "division by zero";
      return false;
    }
    if (b == -1 && a == std::numeric_limits<int64_t>::min()) {
      overflow = node.op != Op::Mod;
      out = 0;
      break;
    }
    out = node.op == Op::FloorDiv  ? floorDiv(a, b)
          : node.op == Op::CeilDiv ? ceilDiv(a, b)
                                   : floorMod(a, b);
    break;
  case Op::Min:
    out = std::min(a, b);
    break;
  case Op::Max:
    out = std::max(a, b);
    break;
  case Op::Eq:
    out = a == b;
    break;
  case Op::Ne:
    out = a != b;
    break;
  case Op::Lt:
    out = a < b;
    break;
  case Op::Le:
    out = a <= b;
    break;
  case Op::Gt:
    out = a > b;
    break;
  case Op::Ge:
    out = a >= b;
    break;
  default:
    error = "internal error: bad expression node";
    return false;
  }
  if (overflow) {
    error = "integer overflow";
    return false;
  }
  return true;
}

void collectSymbols(const ExprNode *node, std::vector<std::string> &names) {
  if (!node)
    return;
  if (node->op == Op::Symbol)
    names.push_back(node->name);
  collectSymbols(node->lhs.get(), names);
  collectSymbols(node->rhs.get(), names);
}

/// The longest expression text read: manifests' expressions are tens of characters; a bound keeps
/// the recursive parser, evaluator and tree destructor within any stack.
constexpr size_t kMaxExprChars = 4096;

bool parseImpl(std::string_view text, bool constraint,
               std::unique_ptr<ExprNode> &root, std::string &error) {
  if (text.size() > kMaxExprChars) {
    error = "expression of " + std::to_string(text.size()) + " characters (at most " +
            std::to_string(kMaxExprChars) + ")";
    return false;
  }
  ExprParser parser(text);
  root = parser.parseTop(constraint);
  if (!root) {
    error = parser.error();
    return false;
  }
  return true;
}

} // namespace

bool Expr::parse(std::string_view text, Expr &out, std::string &error) {
  out.source = std::string(text);
  return parseImpl(text, /*constraint=*/false, out.root, error);
}

bool Expr::parseConstraint(std::string_view text, Expr &out,
                           std::string &error) {
  out.source = std::string(text);
  return parseImpl(text, /*constraint=*/true, out.root, error);
}

bool Expr::evaluate(const SymbolMap &symbols, int64_t &result,
                    std::string &error) const {
  if (!root) {
    error = "empty expression";
    return false;
  }
  return evalNode(*root, symbols, result, error);
}

std::vector<std::string> Expr::symbols() const {
  std::vector<std::string> names;
  collectSymbols(root.get(), names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

bool Expr::isConstraint() const {
  return root && root->op >= Op::Eq;
}
