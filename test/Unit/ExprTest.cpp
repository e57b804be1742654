//===- ExprTest.cpp - Tests of the size-expression language ---------------===//

#include "Cake/ABI/Expr.h"

#include <gtest/gtest.h>

using namespace cake::abi;

namespace {

int64_t eval(const std::string &text, const SymbolMap &symbols = {}) {
  Expr e;
  std::string error;
  EXPECT_TRUE(Expr::parse(text, e, error)) << error;
  int64_t value = -999999;
  EXPECT_TRUE(e.evaluate(symbols, value, error)) << error;
  return value;
}

std::string parseError(const std::string &text, bool constraint = false) {
  Expr e;
  std::string error;
  bool ok = constraint ? Expr::parseConstraint(text, e, error)
                       : Expr::parse(text, e, error);
  EXPECT_FALSE(ok) << text;
  return error;
}

std::string evalError(const std::string &text, const SymbolMap &symbols = {}) {
  Expr e;
  std::string error;
  EXPECT_TRUE(Expr::parse(text, e, error)) << error;
  int64_t value;
  EXPECT_FALSE(e.evaluate(symbols, value, error)) << text;
  return error;
}

TEST(Expr, Precedence) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("10 - 3 - 2"), 5);
  EXPECT_EQ(eval("-2 * 3 + 1"), -5);
  EXPECT_EQ(eval("2 * -3"), -6);
  EXPECT_EQ(eval("N * D + 1", {{"N", 4}, {"D", 8}}), 33);
  EXPECT_EQ(eval("min(N, 3) + max(N, 3)", {{"N", 10}}), 13);
}

TEST(Expr, AffineDivisionSemantics) {
  EXPECT_EQ(eval("ceildiv(7, 2)"), 4);
  EXPECT_EQ(eval("ceildiv(-7, 2)"), -3);
  EXPECT_EQ(eval("ceildiv(8, 2)"), 4);
  EXPECT_EQ(eval("floordiv(7, 2)"), 3);
  EXPECT_EQ(eval("floordiv(-7, 2)"), -4);
  EXPECT_EQ(eval("floordiv(7, -2)"), -4);
  EXPECT_EQ(eval("floordiv(-8, 2)"), -4);
  EXPECT_EQ(eval("mod(-7, 2)"), 1);
  EXPECT_EQ(eval("mod(7, 2)"), 1);
  EXPECT_EQ(eval("mod(-8, 4)"), 0);
  EXPECT_EQ(eval("mod(7, -2)"), -1);
  EXPECT_EQ(eval("ceildiv(N, 1024)", {{"N", 1000000}}), 977);
  // Affine infix spellings.
  EXPECT_EQ(eval("N floordiv 4 + N mod 4", {{"N", -5}}), -2 + 3);
  EXPECT_EQ(eval("N ceildiv 4 * 2", {{"N", 5}}), 4);
}

TEST(Expr, EvaluationErrors) {
  EXPECT_EQ(evalError("N + M", {{"N", 1}}), "unknown symbol 'M'");
  EXPECT_EQ(evalError("floordiv(N, 0)", {{"N", 1}}), "division by zero");
  EXPECT_EQ(evalError("mod(N, M - 1)", {{"N", 1}, {"M", 1}}), "division by zero");
  EXPECT_EQ(evalError("N * N", {{"N", int64_t(1) << 40}}), "integer overflow");
  EXPECT_EQ(evalError("9223372036854775807 + 1"), "integer overflow");
}

TEST(Expr, SyntaxErrorsHaveColumns) {
  EXPECT_EQ(parseError("ceildiv(N, 4"), "col 13: expected ')' in 'ceildiv(N, 4'");
  EXPECT_EQ(parseError("N + "), "col 5: unexpected end of expression in 'N + '");
  EXPECT_EQ(parseError("N $ 2"), "col 3: unexpected '$' in 'N $ 2'");
  EXPECT_EQ(parseError("min(1)"), "col 6: expected ',' in 'min(1)'");
  EXPECT_EQ(parseError("N M"), "col 3: unexpected 'M' in 'N M'");
  EXPECT_EQ(parseError("N >= 1"), "col 3: unexpected '>' in 'N >= 1'");
  EXPECT_EQ(parseError("N + 1", /*constraint=*/true),
            "col 6: expected a comparison (== != < <= > >=) in 'N + 1'");
  EXPECT_EQ(parseError("99999999999999999999"),
            "col 1: integer literal out of range in '99999999999999999999'");
}

TEST(Expr, Constraints) {
  Expr c;
  std::string error;
  ASSERT_TRUE(Expr::parseConstraint("mod(N, 4) == 0", c, error)) << error;
  EXPECT_TRUE(c.isConstraint());
  int64_t holds;
  ASSERT_TRUE(c.evaluate({{"N", 8}}, holds, error));
  EXPECT_EQ(holds, 1);
  ASSERT_TRUE(c.evaluate({{"N", 9}}, holds, error));
  EXPECT_EQ(holds, 0);
  for (auto [text, expected] :
       std::vector<std::pair<std::string, int64_t>>{{"N != 3", 1},
                                                    {"N < 3", 0},
                                                    {"N <= 5", 1},
                                                    {"N > 4", 1},
                                                    {"N >= 6", 0},
                                                    {"2 * N == 10", 1}}) {
    ASSERT_TRUE(Expr::parseConstraint(text, c, error)) << error;
    ASSERT_TRUE(c.evaluate({{"N", 5}}, holds, error));
    EXPECT_EQ(holds, expected) << text;
  }
}

TEST(Expr, CollectsSymbols) {
  Expr e;
  std::string error;
  ASSERT_TRUE(Expr::parse("ceildiv(N * D, B) + N", e, error));
  EXPECT_EQ(e.symbols(), (std::vector<std::string>{"B", "D", "N"}));
  EXPECT_EQ(e.text(), "ceildiv(N * D, B) + N");
}

} // namespace
