//===- CostExpr.h - symbolic cost expressions -------------------*- C++ -*-===//
//
// A small expression tree over problem sizes ("M") and hardware-profile parameters
// ("tensor_TFLOPS.bf16"): the cost analysis builds every quantity (trip counts, FLOPs, bytes, the
// time of a block) as one, so that the same tree gives a number (sizes and profile bound), a
// per-size formula (sizes missing), and a model the calibration tool re-evaluates with other
// parameter values (serialized to JSON, see docs/CostModel.md).
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_COSTEXPR_H
#define CAKE_ANALYSIS_COSTEXPR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::cake::cost {

/// An immutable expression; cheap to copy (a shared pointer). Constructors fold constants.
class Expr {
public:
  enum class Kind { Const, Size, Param, Add, Sub, Mul, Div, CeilDiv, Max, Min };

  Expr() : Expr(0.0) {}
  Expr(double value);
  static Expr size(llvm::StringRef name);
  static Expr param(llvm::StringRef name);
  static Expr ceilDiv(Expr a, Expr b);
  static Expr max(Expr a, Expr b);
  static Expr min(Expr a, Expr b);
  friend Expr operator+(Expr a, Expr b);
  friend Expr operator-(Expr a, Expr b);
  friend Expr operator*(Expr a, Expr b);
  friend Expr operator/(Expr a, Expr b);
  Expr &operator+=(Expr b) { return *this = *this + b; }

  Kind getKind() const;
  bool isConst() const { return getKind() == Kind::Const; }
  bool isConst(double value) const { return isConst() && getConst() == value; }
  double getConst() const;

  /// Replaces the sizes (and the parameters, when `params` is given) that have values and folds.
  Expr bind(const llvm::StringMap<double> &sizes,
            const llvm::StringMap<double> *params = nullptr) const;
  /// The value with everything bound, or std::nullopt when a symbol has no value.
  std::optional<double> evaluate(const llvm::StringMap<double> &sizes,
                                 const llvm::StringMap<double> &params) const;
  /// Inserts the names of the sizes (or parameters) the expression uses.
  void collectSizes(llvm::StringSet<> &names) const;
  void collectParams(llvm::StringSet<> &names) const;
  /// A readable formula: `ceildiv(N, 256) * ceildiv(M, 128) * 4194304`.
  std::string str() const;
  /// The tree as JSON: numbers, {"size": "M"}, {"param": "p"}, or ["op", operands...].
  llvm::json::Value toJSON() const;

  struct Node;
  /// True when the expression cannot be negative (no subtraction, no negative constant).
  bool isNonNegativeImpl() const;
  /// Structural equality.
  bool sameAs(const Expr &other) const;
  llvm::ArrayRef<Expr> getOperands() const;

private:
  explicit Expr(std::shared_ptr<const Node> node) : node(std::move(node)) {}
  static Expr make(Kind kind, llvm::SmallVector<Expr, 2> operands);
  std::shared_ptr<const Node> node;
};

} // namespace mlir::cake::cost

#endif // CAKE_ANALYSIS_COSTEXPR_H
