//===- CostExpr.cpp - symbolic cost expressions ---------------------------===//
#include "Cake/Analysis/CostExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

#include <cmath>

using namespace mlir::cake::cost;
using llvm::StringMap;
using llvm::StringRef;

struct Expr::Node {
  Kind kind;
  double value = 0;
  std::string name;
  llvm::SmallVector<Expr, 2> operands;
};

Expr::Expr(double value) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Const;
  n->value = value;
  node = std::move(n);
}

Expr Expr::size(StringRef name) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Size;
  n->name = name.str();
  return Expr(std::shared_ptr<const Node>(std::move(n)));
}

Expr Expr::param(StringRef name) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Param;
  n->name = name.str();
  return Expr(std::shared_ptr<const Node>(std::move(n)));
}

Expr::Kind Expr::getKind() const { return node->kind; }
double Expr::getConst() const { return node->value; }

static double apply(Expr::Kind kind, double a, double b) {
  switch (kind) {
  case Expr::Kind::Add:
    return a + b;
  case Expr::Kind::Sub:
    return a - b;
  case Expr::Kind::Mul:
    return a * b;
  case Expr::Kind::Div:
    return b == 0 ? 0 : a / b;
  case Expr::Kind::CeilDiv:
    return b == 0 ? 0 : std::ceil(a / b - 1e-9);
  case Expr::Kind::Max:
    return std::max(a, b);
  case Expr::Kind::Min:
    return std::min(a, b);
  default:
    return 0;
  }
}

static bool isAssociative(Expr::Kind kind) {
  return kind == Expr::Kind::Add || kind == Expr::Kind::Mul || kind == Expr::Kind::Max ||
         kind == Expr::Kind::Min;
}

static bool isNonNegative(const Expr &e);

/// Structural equality.
static bool equal(const Expr &a, const Expr &b) {
  if (a.getKind() != b.getKind())
    return false;
  if (a.isConst())
    return a.getConst() == b.getConst();
  return a.sameAs(b);
}

/// Splits `c * rest` into (c, rest); (1, e) otherwise.
static std::pair<double, Expr> splitCoefficient(const Expr &e) {
  if (e.getKind() == Expr::Kind::Mul) {
    llvm::ArrayRef<Expr> ops = e.getOperands();
    if (ops.size() >= 2 && ops[0].isConst()) {
      Expr rest = ops[1];
      for (const Expr &o : ops.drop_front(2))
        rest = rest * o;
      return {ops[0].getConst(), rest};
    }
  }
  return {1.0, e};
}

/// c1 * X + c2 * X -> (c1 + c2) * X, keeping the first occurrence's position.
static llvm::SmallVector<Expr, 2> combineLikeTerms(llvm::ArrayRef<Expr> terms) {
  llvm::SmallVector<std::pair<double, Expr>, 4> groups;
  for (const Expr &t : terms) {
    auto [c, rest] = splitCoefficient(t);
    auto it = llvm::find_if(groups, [&](auto &g) { return equal(g.second, rest); });
    if (it != groups.end())
      it->first += c;
    else
      groups.push_back({c, rest});
  }
  llvm::SmallVector<Expr, 2> out;
  for (auto &[c, rest] : groups)
    out.push_back(c == 1 ? rest : Expr(c) * rest);
  return out;
}

Expr Expr::make(Kind kind, llvm::SmallVector<Expr, 2> operands) {
  // Flatten associative operators and fold their constants into one.
  if (isAssociative(kind)) {
    llvm::SmallVector<Expr, 2> flat;
    std::optional<double> constant;
    std::function<void(const Expr &)> add = [&](const Expr &e) {
      if (e.getKind() == kind) {
        for (const Expr &o : e.node->operands)
          add(o);
      } else if (e.isConst()) {
        constant = constant ? apply(kind, *constant, e.getConst()) : e.getConst();
      } else {
        flat.push_back(e);
      }
    };
    for (const Expr &o : operands)
      add(o);
    if (kind == Kind::Mul && constant && *constant == 0)
      return Expr(0.0);
    if (kind == Kind::Add && flat.size() > 1)
      flat = combineLikeTerms(flat);
    bool neutral = constant && ((kind == Kind::Add && *constant == 0) ||
                                (kind == Kind::Mul && *constant == 1));
    // Sizes are never negative: max(0, x) is x for x built from sizes without subtraction.
    if (kind == Kind::Max && constant && *constant == 0 && flat.size() == 1 &&
        isNonNegative(flat[0]))
      neutral = true;
    if (constant && !neutral)
      flat.insert(kind == Kind::Mul ? flat.begin() : flat.end(), Expr(*constant));
    if (flat.empty())
      return Expr(constant.value_or(0));
    if (flat.size() == 1)
      return flat[0];
    auto n = std::make_shared<Node>();
    n->kind = kind;
    n->operands = std::move(flat);
    return Expr(std::shared_ptr<const Node>(std::move(n)));
  }
  const Expr &a = operands[0], &b = operands[1];
  if (a.isConst() && b.isConst())
    return Expr(apply(kind, a.getConst(), b.getConst()));
  if ((kind == Kind::Div || kind == Kind::CeilDiv) && b.isConst(1))
    return a;
  if (kind == Kind::Sub && b.isConst(0))
    return a;
  if ((kind == Kind::Div || kind == Kind::CeilDiv) && a.isConst(0))
    return Expr(0.0);
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->operands = std::move(operands);
  return Expr(std::shared_ptr<const Node>(std::move(n)));
}

llvm::ArrayRef<Expr> Expr::getOperands() const { return node->operands; }

bool Expr::sameAs(const Expr &other) const {
  if (node == other.node)
    return true;
  if (getKind() != other.getKind() || node->value != other.node->value ||
      node->name != other.node->name || node->operands.size() != other.node->operands.size())
    return false;
  for (auto [a, b] : llvm::zip(node->operands, other.node->operands))
    if (!a.sameAs(b))
      return false;
  return true;
}

bool Expr::isNonNegativeImpl() const {
  switch (getKind()) {
  case Kind::Const:
    return getConst() >= 0;
  case Kind::Size:
  case Kind::Param:
    return true;
  case Kind::Sub:
    return false;
  default:
    return llvm::all_of(node->operands, [](const Expr &o) { return o.isNonNegativeImpl(); });
  }
}

static bool isNonNegative(const Expr &e) { return e.isNonNegativeImpl(); }

namespace mlir::cake::cost {
Expr operator+(Expr a, Expr b) { return Expr::make(Expr::Kind::Add, {a, b}); }
Expr operator-(Expr a, Expr b) { return Expr::make(Expr::Kind::Sub, {a, b}); }
Expr operator*(Expr a, Expr b) { return Expr::make(Expr::Kind::Mul, {a, b}); }
Expr operator/(Expr a, Expr b) { return Expr::make(Expr::Kind::Div, {a, b}); }
} // namespace mlir::cake::cost
Expr Expr::ceilDiv(Expr a, Expr b) { return make(Kind::CeilDiv, {a, b}); }
Expr Expr::max(Expr a, Expr b) { return make(Kind::Max, {a, b}); }
Expr Expr::min(Expr a, Expr b) { return make(Kind::Min, {a, b}); }

Expr Expr::bind(const StringMap<double> &sizes, const StringMap<double> *params) const {
  switch (getKind()) {
  case Kind::Const:
    return *this;
  case Kind::Size: {
    auto it = sizes.find(node->name);
    return it == sizes.end() ? *this : Expr(it->second);
  }
  case Kind::Param: {
    if (!params)
      return *this;
    auto it = params->find(node->name);
    return it == params->end() ? *this : Expr(it->second);
  }
  default: {
    llvm::SmallVector<Expr, 2> operands;
    for (const Expr &o : node->operands)
      operands.push_back(o.bind(sizes, params));
    if (isAssociative(getKind()))
      return make(getKind(), std::move(operands));
    return make(getKind(), {operands[0], operands[1]});
  }
  }
}

std::optional<double> Expr::evaluate(const StringMap<double> &sizes,
                                     const StringMap<double> &params) const {
  Expr bound = bind(sizes, &params);
  if (!bound.isConst())
    return std::nullopt;
  return bound.getConst();
}

void Expr::collectSizes(llvm::StringSet<> &names) const {
  if (getKind() == Kind::Size)
    names.insert(node->name);
  for (const Expr &o : node->operands)
    o.collectSizes(names);
}

void Expr::collectParams(llvm::StringSet<> &names) const {
  if (getKind() == Kind::Param)
    names.insert(node->name);
  for (const Expr &o : node->operands)
    o.collectParams(names);
}

static std::string formatNumber(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    os << static_cast<int64_t>(v);
  else
    os << llvm::format("%g", v);
  return s;
}

static int precedence(Expr::Kind kind) {
  switch (kind) {
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
    return 1;
  case Expr::Kind::Mul:
  case Expr::Kind::Div:
    return 2;
  default:
    return 3;
  }
}

std::string Expr::str() const {
  switch (getKind()) {
  case Kind::Const:
    return formatNumber(getConst());
  case Kind::Size:
  case Kind::Param:
    return node->name;
  default:
    break;
  }
  const char *fn = getKind() == Kind::CeilDiv ? "ceildiv"
                   : getKind() == Kind::Max   ? "max"
                   : getKind() == Kind::Min   ? "min"
                                              : nullptr;
  std::string out;
  if (fn) {
    out = std::string(fn) + "(";
    for (auto [i, o] : llvm::enumerate(node->operands))
      out += (i ? ", " : "") + o.str();
    return out + ")";
  }
  const char *sep = getKind() == Kind::Add   ? " + "
                    : getKind() == Kind::Sub ? " - "
                    : getKind() == Kind::Mul ? " * "
                                             : " / ";
  for (auto [i, o] : llvm::enumerate(node->operands)) {
    std::string s = o.str();
    bool paren = precedence(o.getKind()) < precedence(getKind()) ||
                 (i > 0 && precedence(o.getKind()) == precedence(getKind()) &&
                  (getKind() == Kind::Sub || getKind() == Kind::Div));
    out += (i ? sep : "") + (paren ? "(" + s + ")" : s);
  }
  return out;
}

llvm::json::Value Expr::toJSON() const {
  switch (getKind()) {
  case Kind::Const:
    return getConst();
  case Kind::Size:
    return llvm::json::Object{{"size", node->name}};
  case Kind::Param:
    return llvm::json::Object{{"param", node->name}};
  default:
    break;
  }
  static const char *names[] = {"", "", "", "+", "-", "*", "/", "ceildiv", "max", "min"};
  llvm::json::Array array{names[static_cast<int>(getKind())]};
  for (const Expr &o : node->operands)
    array.push_back(o.toJSON());
  return array;
}
