//===- Expr.h - The manifest's size-expression language ---------*- C++ -*-===//
//
// Integer expressions over problem-size symbols (docs/Manifest.md): literals,
// symbols, + - * (and unary -), ceildiv/floordiv/mod/min/max(a, b) and
// parentheses; a constraint adds one comparison at the top. Arithmetic is
// 64-bit signed with overflow detection; floordiv/ceildiv/mod follow MLIR
// affine semantics. For convenience the affine infix spellings `a floordiv b`,
// `a ceildiv b` and `a mod b` are accepted too (multiplicative precedence).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ABI_EXPR_H
#define CAKE_ABI_EXPR_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cake::abi {

/// Values of the problem-size symbols.
using SymbolMap = std::map<std::string, int64_t, std::less<>>;

/// One node of a parsed expression.
struct ExprNode {
  enum class Op {
    Literal, Symbol, Neg, Add, Sub, Mul, FloorDiv, CeilDiv, Mod, Min, Max,
    Eq, Ne, Lt, Le, Gt, Ge
  };
  Op op = Op::Literal;
  int64_t value = 0;  ///< Literal value.
  std::string name;   ///< Symbol name.
  std::unique_ptr<ExprNode> lhs, rhs;
};

/// A parsed expression (or constraint): parse once, evaluate many times.
class Expr {
public:
  Expr() = default;

  /// Parses an arithmetic expression. Errors look like
  /// "col 7: expected ')' in 'ceildiv(N, 4'".
  static bool parse(std::string_view text, Expr &out, std::string &error);
  /// Parses a constraint: an arithmetic expression, one comparison operator
  /// (== != < <= > >=) and another arithmetic expression.
  static bool parseConstraint(std::string_view text, Expr &out,
                              std::string &error);

  /// Evaluates with `symbols`. Errors: unknown symbol, division by zero,
  /// 64-bit overflow. A constraint evaluates to 1 (holds) or 0.
  bool evaluate(const SymbolMap &symbols, int64_t &result,
                std::string &error) const;

  /// The names of the symbols used, sorted and unique.
  std::vector<std::string> symbols() const;

  const std::string &text() const { return source; }
  bool isConstraint() const;

private:
  std::string source;
  std::unique_ptr<ExprNode> root;
};

/// MLIR affine floordiv: rounds toward negative infinity. `b` must be nonzero
/// and the quotient representable (not INT64_MIN / -1).
int64_t floorDiv(int64_t a, int64_t b);
/// MLIR affine ceildiv: rounds toward positive infinity.
int64_t ceilDiv(int64_t a, int64_t b);
/// MLIR affine mod: a - b * floorDiv(a, b) (non-negative for positive b).
int64_t floorMod(int64_t a, int64_t b);

} // namespace cake::abi

#endif // CAKE_ABI_EXPR_H
